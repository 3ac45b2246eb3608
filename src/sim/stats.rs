//! Exact, mergeable statistics of one metric.
//!
//! Every value is stored as an integer (`round(value * scale)`), and the
//! moments are the exact integer sums `n`, `Σx` and `Σx²` (in `i128`). Unlike
//! floating-point Welford updates these sums are associative, so any split of
//! the games (threads, chunks, shards, a resumed run) merges to exactly the
//! same numbers; the mean and variance are computed from them once, at the
//! end, with the textbook formula evaluated in exact integer arithmetic.
//! Percentiles come from an HdrHistogram (3 significant digits) of
//! `stored - min`, which merges exactly too.

use hdrhistogram::serialization::{Deserializer, Serializer, V2Serializer};
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use super::MetricKind;

/// Significant digits kept by every histogram (relative error at most 0.1%).
pub const SIGNIFICANT_DIGITS: u8 = 3;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The running state of one metric.
#[derive(Clone, Debug)]
pub struct Accumulator {
    pub kind: MetricKind,
    pub count: u64,
    pub sum: i128,
    pub sum_sq: i128,
    pub min: i64,
    pub max: i64,
    pub hist: Option<Histogram<u64>>,
}

impl Accumulator {
    pub fn new(kind: MetricKind) -> Accumulator {
        let hist = kind.has_histogram().then(|| {
            Histogram::new(SIGNIFICANT_DIGITS).expect("3 significant digits is a valid histogram")
        });
        Accumulator {
            kind,
            count: 0,
            sum: 0,
            sum_sq: 0,
            min: i64::MAX,
            max: i64::MIN,
            hist,
        }
    }

    /// Converts a metric value to its stored integer.
    pub fn to_stored(&self, value: f64) -> i64 {
        (value * f64::from(self.kind.scale())).round() as i64
    }

    /// The histogram's offset: stored values are recorded as `stored - base`.
    fn base(&self) -> i64 {
        self.kind.min().saturating_mul(i64::from(self.kind.scale()))
    }

    /// Records one stored value.
    pub fn record(&mut self, stored: i64) {
        self.count += 1;
        self.sum += i128::from(stored);
        self.sum_sq += i128::from(stored) * i128::from(stored);
        self.min = self.min.min(stored);
        self.max = self.max.max(stored);
        let base = self.base();
        if let Some(h) = &mut self.hist {
            // A value below the declared minimum is a game bug; it still
            // counts exactly in the moments, and lands in the lowest bucket.
            // `record` grows the auto-resizing histogram; `saturating_record`
            // would silently clamp to its current top (regression test
            // `percentiles_beyond_the_initial_range`).
            let shifted = stored.saturating_sub(base).max(0) as u64;
            if h.record(shifted).is_err() {
                h.saturating_record(shifted);
            }
        }
    }

    /// Adds another accumulator of the same metric (exact).
    pub fn merge(&mut self, other: &Accumulator) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        if let (Some(a), Some(b)) = (&mut self.hist, &other.hist) {
            a.add(b).expect("auto-resizing histograms always add");
        }
    }

    fn unscale(&self, stored: f64) -> f64 {
        stored / f64::from(self.kind.scale())
    }

    /// The summary figures of this metric.
    pub fn summarize(&self, name: &str) -> MetricSummary {
        let n = self.count;
        let mut s = MetricSummary {
            name: name.to_string(),
            kind: kind_name(self.kind).to_string(),
            count: n,
            ..MetricSummary::default()
        };
        if n == 0 {
            return s;
        }
        let mean = self.unscale(exact_ratio(self.sum, i128::from(n)));
        s.mean = Some(mean);
        s.min = Some(self.unscale(self.min as f64));
        s.max = Some(self.unscale(self.max as f64));
        if self.kind == MetricKind::Proportion {
            let (lo, hi) = wilson(self.sum as f64, n as f64);
            s.ci95 = Some([lo, hi]);
            return s;
        }
        let sd = self.sd();
        s.sd = Some(sd);
        let half = Z95 * sd / (n as f64).sqrt();
        s.ci95 = Some([mean - half, mean + half]);
        if let Some(h) = &self.hist {
            let base = self.base();
            let q = |q: f64| {
                let v = h.value_at_quantile(q) as i64 + base;
                // The histogram keeps 3 digits; the exact extremes are known.
                self.unscale(v.clamp(self.min, self.max) as f64)
            };
            s.p50 = Some(q(0.5));
            s.p90 = Some(q(0.9));
            s.p99 = Some(q(0.99));
            s.p999 = Some(q(0.999));
        }
        s
    }

    /// Sample standard deviation, from the exact sums.
    pub fn sd(&self) -> f64 {
        let n = i128::from(self.count);
        if n < 2 {
            return 0.0;
        }
        // n Σx² - (Σx)², exact when it fits in i128, else in f64.
        let num = n
            .checked_mul(self.sum_sq)
            .and_then(|a| self.sum.checked_mul(self.sum).map(|b| a - b));
        let var = match num {
            Some(num) => num as f64 / (n as f64 * (n - 1) as f64),
            None => {
                let (nf, s, ss) = (n as f64, self.sum as f64, self.sum_sq as f64);
                (ss - s * s / nf) / (nf - 1.0)
            }
        };
        self.unscale(var.max(0.0).sqrt())
    }

    /// The exact state, for checkpoints and shard merging.
    pub fn to_state(&self, name: &str) -> AccumulatorState {
        let hist_v2 = self.hist_v2().map(|bytes| base64_encode(&bytes));
        AccumulatorState {
            name: name.to_string(),
            kind: self.kind,
            count: self.count,
            sum: self.sum.to_string(),
            sum_sq: self.sum_sq.to_string(),
            min: self.min,
            max: self.max,
            hist_v2,
        }
    }

    /// Rebuilds an accumulator from its state.
    pub fn from_state(kind: MetricKind, st: &AccumulatorState) -> Result<Accumulator, String> {
        let mut acc = Accumulator::new(kind);
        acc.count = st.count;
        acc.sum = st
            .sum
            .parse()
            .map_err(|_| format!("bad sum of {}", st.name))?;
        acc.sum_sq = st
            .sum_sq
            .parse()
            .map_err(|_| format!("bad sum_sq of {}", st.name))?;
        acc.min = st.min;
        acc.max = st.max;
        if let (Some(h), Some(text)) = (&mut acc.hist, &st.hist_v2) {
            let bytes = base64_decode(text).map_err(|_| format!("bad histogram of {}", st.name))?;
            let loaded: Histogram<u64> = Deserializer::new()
                .deserialize(&mut bytes.as_slice())
                .map_err(|e| format!("bad histogram of {}: {e:?}", st.name))?;
            h.add(&loaded)
                .map_err(|e| format!("bad histogram of {}: {e:?}", st.name))?;
        }
        Ok(acc)
    }

    /// The `.hgrm` percentile distribution (HdrHistogram's text format, in
    /// the metric's own units), or `None` for a proportion.
    pub fn hgrm(&self) -> Option<String> {
        let h = self.hist.as_ref()?;
        let base = self.base();
        let value = |v: u64| self.unscale((v as i64 + base) as f64);
        let mut out = String::new();
        out.push_str(&format!(
            "{:>12} {:>14} {:>10} {:>14}\n\n",
            "Value", "Percentile", "TotalCount", "1/(1-Percentile)"
        ));
        for it in h.iter_quantiles(5) {
            let p = it.quantile_iterated_to();
            let inv = if p < 1.0 {
                format!("{:>14.2}", 1.0 / (1.0 - p))
            } else {
                format!("{:>14}", "inf")
            };
            out.push_str(&format!(
                "{:>12.3} {:>14.12} {:>10} {}\n",
                value(it.value_iterated_to()),
                p,
                it.count_since_last_iteration(),
                inv
            ));
        }
        let mean = if self.count > 0 {
            self.unscale(exact_ratio(self.sum, i128::from(self.count)))
        } else {
            0.0
        };
        out.push_str(&format!(
            "#[Mean    = {:>12.3}, StdDeviation   = {:>12.3}]\n",
            mean,
            self.sd()
        ));
        out.push_str(&format!(
            "#[Max     = {:>12.3}, Total count    = {:>12}]\n",
            if self.count > 0 {
                self.unscale(self.max as f64)
            } else {
                0.0
            },
            h.len()
        ));
        out.push_str(&format!(
            "#[Buckets = {:>12}, SubBuckets     = {:>12}]\n",
            h.buckets(),
            h.distinct_values()
        ));
        Some(out)
    }

    /// The histogram in HdrHistogram's V2 binary form.
    pub fn hist_v2(&self) -> Option<Vec<u8>> {
        let h = self.hist.as_ref()?;
        // The V2 header records the highest trackable value, which depends
        // on how the histogram grew. Copy into one sized by the data alone,
        // so equal data always gives equal bytes (merged shards must equal
        // the whole run).
        let mut canonical = Histogram::<u64>::new_with_max(h.max().max(2), SIGNIFICANT_DIGITS)
            .expect("a positive maximum and 3 digits make a valid histogram");
        canonical
            .add(h)
            .expect("the copy is sized to hold every recorded value");
        let mut bytes = Vec::new();
        V2Serializer::new()
            .serialize(&canonical, &mut bytes)
            .expect("serialising into memory cannot fail");
        Some(bytes)
    }
}

/// `a / b` for exact integers, accurate even when `a` exceeds 2^53.
fn exact_ratio(a: i128, b: i128) -> f64 {
    let q = a.div_euclid(b);
    let r = a.rem_euclid(b);
    q as f64 + r as f64 / b as f64
}

fn kind_name(kind: MetricKind) -> &'static str {
    match kind {
        MetricKind::Integer { .. } => "integer",
        MetricKind::Proportion => "proportion",
        MetricKind::Fixed { .. } => "real",
    }
}

/// Wilson score interval (95%) for `successes` out of `n`.
pub fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z2 = Z95 * Z95;
    let p = successes / n;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    // At 0 or n successes the bound is exactly 0 or 1 (the formula leaves
    // rounding dust such as 4e-22).
    let lo = if successes <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if successes >= n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// The exact state of one metric (JSON-friendly: the 128-bit sums are
/// decimal strings, the histogram is base64 of its V2 serialisation).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct AccumulatorState {
    pub name: String,
    /// How the metric is stored (so `merge` can rebuild it from the JSON).
    pub kind: MetricKind,
    pub count: u64,
    pub sum: String,
    pub sum_sq: String,
    pub min: i64,
    pub max: i64,
    pub hist_v2: Option<String>,
}

/// The summary figures of one metric, in its own units.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct MetricSummary {
    pub name: String,
    /// `integer`, `real` or `proportion`.
    pub kind: String,
    /// Games in which the metric was observed.
    pub count: u64,
    pub mean: Option<f64>,
    /// 95% interval of the mean: normal for integers and reals, Wilson for
    /// proportions.
    pub ci95: Option<[f64; 2]>,
    pub sd: Option<f64>,
    pub min: Option<f64>,
    pub p50: Option<f64>,
    pub p90: Option<f64>,
    pub p99: Option<f64>,
    pub p999: Option<f64>,
    pub max: Option<f64>,
}

fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn base64_decode(text: &str) -> Result<Vec<u8>, base64::DecodeError> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn integer() -> MetricKind {
        MetricKind::Integer { min: 0 }
    }

    #[test]
    fn moments_match_a_direct_computation() {
        let xs = [3i64, 7, 7, 19, 1000, 2];
        let mut acc = Accumulator::new(integer());
        for &x in &xs {
            acc.record(x);
        }
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<i64>() as f64 / n;
        let var = xs.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let s = acc.summarize("x");
        assert!((s.mean.unwrap() - mean).abs() < 1e-12);
        assert!((s.sd.unwrap() - var.sqrt()).abs() < 1e-9);
        assert_eq!(s.min, Some(2.0));
        assert_eq!(s.max, Some(1000.0));
        assert_eq!(s.p50, Some(7.0));
    }

    #[test]
    fn any_split_merges_to_the_same_state() {
        let values: Vec<i64> = (0..10_000).map(|i| (i * 7919) % 4001).collect();
        let mut whole = Accumulator::new(integer());
        values.iter().for_each(|&v| whole.record(v));
        for cut in [1, 777, 5000, 9999] {
            let mut a = Accumulator::new(integer());
            let mut b = Accumulator::new(integer());
            values[..cut].iter().for_each(|&v| a.record(v));
            values[cut..].iter().for_each(|&v| b.record(v));
            b.merge(&a);
            assert_eq!(b.to_state("m"), whole.to_state("m"));
            assert_eq!(b.summarize("m"), whole.summarize("m"));
        }
    }

    #[test]
    fn state_round_trips() {
        let kind = MetricKind::Fixed {
            scale: 10_000,
            min: -5,
        };
        let mut acc = Accumulator::new(kind);
        for v in [-4.5, 0.25, 3.0001] {
            let s = acc.to_stored(v);
            acc.record(s);
        }
        let st = acc.to_state("eq");
        let back = Accumulator::from_state(kind, &st).unwrap();
        assert_eq!(back.to_state("eq"), st);
        assert!((back.summarize("eq").min.unwrap() + 4.5).abs() < 1e-12);
    }

    #[test]
    fn wilson_matches_known_values() {
        // 50 of 100: the textbook interval is about [0.4038, 0.5962].
        let (lo, hi) = wilson(50.0, 100.0);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
        let (lo, hi) = wilson(0.0, 1e6);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.0 && hi < 4e-6);
        assert_eq!(wilson(1e6, 1e6).1, 1.0);
        let (lo, hi) = wilson(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-4);
    }

    #[test]
    fn percentiles_beyond_the_initial_range() {
        let mut acc = Accumulator::new(integer());
        (1..=10_000).for_each(|v| acc.record(v));
        let s = acc.summarize("x");
        // Three significant digits: within 0.1% of the exact quantiles.
        let near = |got: Option<f64>, want: f64| (got.unwrap() - want).abs() <= want * 1e-3;
        assert!(near(s.p50, 5000.0), "{s:?}");
        assert!(near(s.p90, 9000.0), "{s:?}");
        assert!(near(s.p99, 9900.0), "{s:?}");
        assert!(near(s.p999, 9990.0), "{s:?}");
    }
}
