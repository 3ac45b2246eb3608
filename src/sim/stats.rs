//! Exact, mergeable statistics of one metric.
//!
//! Every value is stored as an integer (`round(value * scale)`), and the
//! moments are the exact integer sums `n`, `Σx` and `Σx²` (in `i128`). Unlike
//! floating-point Welford updates these sums are associative, so any split of
//! the games (threads, chunks, shards, a resumed run) merges to exactly the
//! same numbers; the mean and variance are computed from them once, at the
//! end, with the textbook formula evaluated in exact integer arithmetic.
//!
//! Percentiles come from two HdrHistograms of 5 significant digits, one of
//! the values at least zero and one of the magnitudes of the negative ones.
//! Splitting by sign keeps the precision relative to the value itself, so
//! values near zero are exact (shifting every value by the metric's minimum
//! would make -2.00 and 0.00 land in buckets hundreds of units wide). Every
//! magnitude below 2^18 stored units is its own bucket, so percentiles are
//! the exact order statistics there; beyond, a percentile is given to the
//! digits its bucket resolves ([`Accumulator::quantile`]).

use hdrhistogram::serialization::{Deserializer, Serializer, V2Serializer};
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use super::MetricKind;

/// Significant digits kept by every histogram: magnitudes below 2^18
/// stored units are recorded exactly.
pub const SIGNIFICANT_DIGITS: u8 = 5;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The quantiles every summary reports, as exact fractions (p50, p90, p99,
/// p99.9): the rank is `ceil(n * num / den)` in integers, never a float
/// product that lands a hair above an integer.
pub const QUANTILES: [(u64, u64); 4] = [(1, 2), (9, 10), (99, 100), (999, 1000)];

fn new_histogram() -> Histogram<u64> {
    Histogram::new(SIGNIFICANT_DIGITS).expect("5 significant digits is a valid histogram")
}

/// A percentile as the histogram knows it: the signed stored values its
/// bucket spans (equal when exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bucket {
    pub lo: i64,
    pub hi: i64,
}

impl Bucket {
    /// The value to report: exact when the bucket is one value; otherwise
    /// the middle, rounded to the power of ten no smaller than the
    /// bucket's width (so the true value is within one unit of the last
    /// digit that is not a rounding zero).
    pub fn value(self) -> i64 {
        if self.lo == self.hi {
            return self.lo;
        }
        let width = (i128::from(self.hi) - i128::from(self.lo) + 1) as u128;
        let mut step: u128 = 1;
        while step < width {
            step *= 10;
        }
        let mid = (i128::from(self.lo) + i128::from(self.hi)).div_euclid(2);
        let step = step as i128;
        let rounded = (mid + step / 2).div_euclid(step) * step;
        rounded.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
    }
}

/// One chunk's values of one metric, folded by the worker that played the
/// chunk: the exact sums and extremes, and for a metric with a histogram
/// each distinct value with its count. [`Accumulator::absorb`] adds it to
/// the run's statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Folded {
    pub count: u64,
    pub sum: i128,
    pub sum_sq: i128,
    pub min: i64,
    pub max: i64,
    /// `(value, how many times)`, each value once, in no particular order
    /// (histogram counts add in any order); empty for a metric without a
    /// histogram.
    pub runs: Vec<(i64, u64)>,
}

impl Folded {
    /// Folds `values`. `table` is scratch space reused from call to call
    /// (empty or as the previous call left it: all slots empty again):
    /// the distinct values are counted in an open-addressing hash table at
    /// most half full (a few instructions a value; sorting the chunk cost
    /// ten times more).
    pub fn fold(kind: MetricKind, values: &[i64], table: &mut Vec<(i64, u64)>) -> Folded {
        let mut f = Folded {
            count: values.len() as u64,
            sum: 0,
            sum_sq: 0,
            min: i64::MAX,
            max: i64::MIN,
            runs: Vec::new(),
        };
        // Squares as u64 x u64 -> u128 (one multiplication; the i128
        // product of sign-extended values takes three).
        let mut sum_sq = 0u128;
        for &v in values {
            f.sum += i128::from(v);
            let a = u128::from(v.unsigned_abs());
            sum_sq += a * a;
            f.min = f.min.min(v);
            f.max = f.max.max(v);
        }
        f.sum_sq = sum_sq as i128;
        if !kind.has_histogram() || values.is_empty() {
            return f;
        }
        let size = (2 * values.len()).next_power_of_two();
        let bits = size.trailing_zeros();
        let mask = size - 1;
        // The table is all empty slots between calls (the scan below
        // empties each slot it reads), so it is cleared only when it grows.
        if table.len() < size {
            table.clear();
            table.resize(size, (0, 0));
        }
        let table = &mut table[..size];
        // Values within a span smaller than the table (counts, chips of a
        // few stacks): count them directly at `v - min`, a few
        // instructions a value, and read them back in ascending order.
        let span = (i128::from(f.max) - i128::from(f.min)) as u128;
        if span < size as u128 {
            for &v in values {
                table[(v - f.min) as usize].1 += 1;
            }
            for (k, slot) in table[..=span as usize].iter_mut().enumerate() {
                if slot.1 > 0 {
                    f.runs.push((f.min + k as i64, slot.1));
                    *slot = (0, 0);
                }
            }
            return f;
        }
        for &v in values {
            // Fibonacci hashing: the top bits of v times 2^64/phi.
            let mut i = ((v as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize;
            loop {
                let slot = &mut table[i];
                if slot.1 == 0 {
                    *slot = (v, 1);
                    break;
                }
                if slot.0 == v {
                    slot.1 += 1;
                    break;
                }
                i = (i + 1) & mask;
            }
        }
        for slot in table.iter_mut() {
            if slot.1 > 0 {
                f.runs.push(*slot);
                *slot = (0, 0);
            }
        }
        f
    }
}

/// The running state of one metric.
#[derive(Clone, Debug)]
pub struct Accumulator {
    pub kind: MetricKind,
    pub count: u64,
    pub sum: i128,
    pub sum_sq: i128,
    pub min: i64,
    pub max: i64,
    /// Values at least zero (metrics with a histogram).
    pub hist: Option<Histogram<u64>>,
    /// Magnitudes of negative values, created at the first one.
    pub hist_neg: Option<Histogram<u64>>,
}

/// `x.round() as i64` (half away from zero, saturating, NaN to 0) without
/// the libm call `f64::round` compiles to on baseline x86-64: every metric
/// value of every game goes through it. Below 2^52 in magnitude the
/// truncation `t` and the fraction `x - t` are exact, so comparing the
/// fraction with ±0.5 rounds exactly as `f64::round`; beyond, `x` is
/// already an integer (or out of range, or NaN) and the library call
/// decides.
#[inline]
pub fn round_to_i64(x: f64) -> i64 {
    const EXACT: f64 = (1u64 << 52) as f64;
    if x.abs() < EXACT {
        let t = x as i64;
        let frac = x - t as f64;
        t + i64::from(frac >= 0.5) - i64::from(frac <= -0.5)
    } else {
        x.round() as i64
    }
}

impl Accumulator {
    pub fn new(kind: MetricKind) -> Accumulator {
        Accumulator {
            kind,
            count: 0,
            sum: 0,
            sum_sq: 0,
            min: i64::MAX,
            max: i64::MIN,
            hist: kind.has_histogram().then(new_histogram),
            hist_neg: None,
        }
    }

    /// Converts a metric value to its stored integer.
    pub fn to_stored(&self, value: f64) -> i64 {
        round_to_i64(value * f64::from(self.kind.scale()))
    }

    /// Records one stored value.
    pub fn record(&mut self, stored: i64) {
        self.count += 1;
        self.sum += i128::from(stored);
        self.sum_sq += i128::from(stored) * i128::from(stored);
        self.min = self.min.min(stored);
        self.max = self.max.max(stored);
        self.count_in_histogram(stored, 1);
    }

    /// Adds the values a worker folded into `folded` (exact: the same sums,
    /// extremes and histogram counts as recording every value one by one,
    /// since a histogram count only depends on how many times each value
    /// was recorded). The writer thread calls this once per chunk and
    /// metric, so its cost per chunk is the number of distinct values, not
    /// the number of games.
    pub fn absorb(&mut self, folded: &Folded) {
        if folded.count == 0 {
            return;
        }
        self.count += folded.count;
        self.sum += folded.sum;
        self.sum_sq += folded.sum_sq;
        self.min = self.min.min(folded.min);
        self.max = self.max.max(folded.max);
        for &(stored, n) in &folded.runs {
            self.count_in_histogram(stored, n);
        }
    }

    /// Counts `n` occurrences of a stored value in the histogram of its
    /// sign (none for metrics without histograms).
    fn count_in_histogram(&mut self, stored: i64, n: u64) {
        if self.hist.is_none() {
            return;
        }
        let (h, magnitude) = if stored >= 0 {
            (self.hist.as_mut(), stored as u64)
        } else {
            (
                Some(self.hist_neg.get_or_insert_with(new_histogram)),
                stored.unsigned_abs(),
            )
        };
        if let Some(h) = h {
            // `record_n` grows the auto-resizing histogram;
            // `saturating_record_n` would silently clamp to its current top
            // (regression test `percentiles_beyond_the_initial_range`).
            if h.record_n(magnitude, n).is_err() {
                h.saturating_record_n(magnitude, n);
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
        if let Some(b) = &other.hist_neg {
            self.hist_neg
                .get_or_insert_with(new_histogram)
                .add(b)
                .expect("auto-resizing histograms always add");
        }
    }

    fn unscale(&self, stored: f64) -> f64 {
        stored / f64::from(self.kind.scale())
    }

    /// The bucket holding the value of rank `rank` (from 1) in ascending
    /// order, narrowed to the exact extremes.
    fn bucket_of_rank(&self, rank: u64) -> Option<Bucket> {
        let pos = self.hist.as_ref()?;
        let neg_n = self.hist_neg.as_ref().map_or(0, Histogram::len);
        let find = |h: &Histogram<u64>, r: u64| -> Option<(u64, u64)> {
            let mut seen = 0;
            for v in h.iter_recorded() {
                seen += v.count_at_value();
                if seen >= r {
                    let hi = v.value_iterated_to();
                    return Some((h.lowest_equivalent(hi), hi));
                }
            }
            None
        };
        let (lo, hi) = if rank <= neg_n {
            // Ascending values are descending magnitudes.
            let neg = self.hist_neg.as_ref()?;
            let (mlo, mhi) = find(neg, neg_n - rank + 1)?;
            (
                0i64.saturating_sub_unsigned(mhi),
                0i64.saturating_sub_unsigned(mlo),
            )
        } else {
            let (lo, hi) = find(pos, rank - neg_n)?;
            (
                i64::try_from(lo).unwrap_or(i64::MAX),
                i64::try_from(hi).unwrap_or(i64::MAX),
            )
        };
        Some(Bucket {
            lo: lo.clamp(self.min, self.max),
            hi: hi.clamp(self.min, self.max),
        })
    }

    /// The `num/den` quantile: the bucket of the value of rank
    /// `max(1, ceil(n * num / den))`, the smallest value with at least that
    /// share of the values at or below it.
    pub fn quantile(&self, num: u64, den: u64) -> Option<Bucket> {
        if self.count == 0 || den == 0 {
            return None;
        }
        let rank = (u128::from(self.count) * u128::from(num)).div_ceil(u128::from(den));
        self.bucket_of_rank((rank as u64).clamp(1, self.count))
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
        let [p50, p90, p99, p999] =
            QUANTILES.map(|(a, b)| self.quantile(a, b).map(|q| self.unscale(q.value() as f64)));
        (s.p50, s.p90, s.p99, s.p999) = (p50, p90, p99, p999);
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
        AccumulatorState {
            name: name.to_string(),
            kind: self.kind,
            count: self.count,
            sum: self.sum.to_string(),
            sum_sq: self.sum_sq.to_string(),
            min: self.min,
            max: self.max,
            hist_v2: self.hist.as_ref().map(|h| base64_encode(&v2_bytes(h))),
            hist_neg_v2: self.hist_neg.as_ref().map(|h| base64_encode(&v2_bytes(h))),
        }
    }

    /// Rebuilds an accumulator from its state, refusing a state that no
    /// run could have produced (it was edited or damaged): a count that
    /// disagrees with the histograms, `min > max`, sums outside what the
    /// extremes allow.
    pub fn from_state(kind: MetricKind, st: &AccumulatorState) -> Result<Accumulator, String> {
        let bad = |what: &str| format!("metric {}: {what}", st.name);
        if st.kind != kind {
            return Err(bad("its kind differs from the game's"));
        }
        if let MetricKind::Fixed { scale, .. } = kind {
            if scale == 0 {
                return Err(bad("scale 0"));
            }
        }
        let mut acc = Accumulator::new(kind);
        acc.count = st.count;
        acc.sum = st.sum.parse().map_err(|_| bad("bad sum"))?;
        acc.sum_sq = st.sum_sq.parse().map_err(|_| bad("bad sum_sq"))?;
        acc.min = st.min;
        acc.max = st.max;
        let load = |text: &Option<String>| -> Result<Option<Histogram<u64>>, String> {
            let Some(text) = text else { return Ok(None) };
            let bytes = base64_decode(text).map_err(|_| bad("bad histogram"))?;
            let loaded: Histogram<u64> = Deserializer::new()
                .deserialize(&mut bytes.as_slice())
                .map_err(|e| bad(&format!("bad histogram ({e:?})")))?;
            let mut h = new_histogram();
            h.add(&loaded)
                .map_err(|e| bad(&format!("bad histogram ({e:?})")))?;
            Ok(Some(h))
        };
        if kind.has_histogram() {
            acc.hist = Some(load(&st.hist_v2)?.unwrap_or_else(new_histogram));
            acc.hist_neg = load(&st.hist_neg_v2)?;
        } else if st.hist_v2.is_some() || st.hist_neg_v2.is_some() {
            return Err(bad("a histogram for a proportion"));
        }
        acc.check().map_err(|why| bad(&why))?;
        Ok(acc)
    }

    /// The invariants every recorded state satisfies.
    fn check(&self) -> Result<(), String> {
        let n = i128::from(self.count);
        if self.count == 0 {
            let empty = self.sum == 0
                && self.sum_sq == 0
                && self.min == i64::MAX
                && self.max == i64::MIN
                && self.hist.as_ref().is_none_or(|h| h.is_empty())
                && self.hist_neg.as_ref().is_none_or(|h| h.is_empty());
            return if empty {
                Ok(())
            } else {
                Err("values recorded with a count of 0".into())
            };
        }
        if self.min > self.max {
            return Err(format!("min {} > max {}", self.min, self.max));
        }
        let (lo, hi) = (i128::from(self.min), i128::from(self.max));
        if self.sum < n * lo || self.sum > n * hi {
            return Err("its sum is outside count x [min, max]".into());
        }
        let sq_max = n.saturating_mul(lo.abs().max(hi.abs()).saturating_pow(2));
        if self.sum_sq < 0 || self.sum_sq > sq_max || self.sum_sq < lo.abs().min(hi.abs()) {
            return Err("its sum of squares is impossible".into());
        }
        if self.kind == MetricKind::Proportion
            && (self.min < 0 || self.max > 1 || self.sum_sq != self.sum)
        {
            return Err("a proportion with values other than 0 and 1".into());
        }
        if let Some(pos) = &self.hist {
            let neg_n = self.hist_neg.as_ref().map_or(0, Histogram::len);
            if pos.len() + neg_n != self.count {
                return Err(format!(
                    "its histograms hold {} values, its count is {}",
                    pos.len() + neg_n,
                    self.count
                ));
            }
            if (neg_n > 0) != (self.min < 0) || pos.is_empty() == (self.max >= 0) {
                return Err("its histograms disagree with min and max".into());
            }
        }
        Ok(())
    }

    /// The histogram files of `--hist`, as (suffix, bytes): the `.hgrm`
    /// percentile distribution (HdrHistogram's text format, in the metric's
    /// own units), the `.hdr` V2 binary of the values at least zero and,
    /// when there are negative values, `.neg.hdr` of their magnitudes.
    /// Nothing for a proportion.
    pub fn hist_files(&self) -> Vec<(&'static str, Vec<u8>)> {
        let Some(pos) = &self.hist else {
            return Vec::new();
        };
        let mut files = vec![("hgrm", self.hgrm().into_bytes()), ("hdr", v2_bytes(pos))];
        if let Some(neg) = &self.hist_neg {
            files.push(("neg.hdr", v2_bytes(neg)));
        }
        files
    }

    /// The percentile distribution, HdrHistogram's `.hgrm` layout: 5 ticks
    /// per halving of the distance to 100%, each with the value at that
    /// percentile and the count at or below it.
    pub fn hgrm(&self) -> String {
        let mut out = format!(
            "{:>12} {:>14} {:>10} {:>14}\n\n",
            "Value", "Percentile", "TotalCount", "1/(1-Percentile)"
        );
        let n = self.count;
        if n > 0 {
            let mut last_rank = 0;
            let mut tick = 0u32;
            loop {
                let p = 1.0 - 0.5f64.powf(f64::from(tick) / 5.0);
                let rank = ((p * n as f64).ceil() as u64).clamp(1, n);
                if rank > last_rank || tick == 0 {
                    if let Some(b) = self.bucket_of_rank(rank) {
                        out.push_str(&format!(
                            "{:>12.3} {:>14.12} {:>10} {:>14.2}\n",
                            self.unscale(b.value() as f64),
                            p,
                            rank,
                            1.0 / (1.0 - p)
                        ));
                    }
                    last_rank = rank;
                }
                if rank >= n || tick > 400 {
                    break;
                }
                tick += 1;
            }
            out.push_str(&format!(
                "{:>12.3} {:>14.12} {:>10} {:>14}\n",
                self.unscale(self.max as f64),
                1.0,
                n,
                "inf"
            ));
        }
        let mean = if n > 0 {
            self.unscale(exact_ratio(self.sum, i128::from(n)))
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
            if n > 0 {
                self.unscale(self.max as f64)
            } else {
                0.0
            },
            n
        ));
        let (buckets, distinct) = [&self.hist, &self.hist_neg]
            .into_iter()
            .flatten()
            .fold((0, 0), |(b, d), h| {
                (b + h.buckets(), d + h.distinct_values())
            });
        out.push_str(&format!(
            "#[Buckets = {:>12}, SubBuckets     = {:>12}]\n",
            buckets, distinct
        ));
        out
    }
}

/// A histogram in HdrHistogram's V2 binary form. The V2 header records the
/// highest trackable value, which depends on how the histogram grew; the
/// bytes must depend on the data alone (merged shards must equal the whole
/// run), so the header says what a histogram sized by the data alone
/// (`new_with_max(max, 5)`) would. That is the only field that differs: the
/// counts are encoded from index 0 to the index of the maximum, and the index
/// of a value depends only on the lowest value and the digits, not on the
/// allocated size. Writing the field, rather than copying the histogram
/// into one of that size, spares an allocation of up to megabytes a metric
/// at every checkpoint and at the end of a run; the test
/// `v2_bytes_equal_those_of_a_copy_sized_by_the_data` holds the two equal.
fn v2_bytes(h: &Histogram<u64>) -> Vec<u8> {
    let mut bytes = Vec::new();
    V2Serializer::new()
        .serialize(h, &mut bytes)
        .expect("serialising into memory cannot fail");
    bytes[V2_HIGHEST_TRACKABLE].copy_from_slice(&h.max().max(2).to_be_bytes());
    bytes
}

/// Where the V2 header keeps the highest trackable value (big-endian), after
/// the cookie, the payload length, the normalizing index offset, the
/// significant digits (4 bytes each) and the lowest discernible value (8).
const V2_HIGHEST_TRACKABLE: std::ops::Range<usize> = 24..32;

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
    /// Values at least zero.
    pub hist_v2: Option<String>,
    /// Magnitudes of the negative values, when there are any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hist_neg_v2: Option<String>,
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
mod tests;
