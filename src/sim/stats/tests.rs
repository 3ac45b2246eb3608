//! The statistics against exact order statistics, moments and intervals
//! computed directly, and their bytes across merges and checkpoints.

use super::*;

/// The V2 bytes of a histogram that grew as values came equal those of
/// a copy sized by its data alone (the previous way to make them).
#[test]
fn v2_bytes_equal_those_of_a_copy_sized_by_the_data() {
    let sized_copy = |h: &Histogram<u64>| {
        let mut copy = Histogram::<u64>::new_with_max(h.max().max(2), SIGNIFICANT_DIGITS)
            .expect("a valid histogram");
        copy.add(h).expect("room for every value");
        let mut bytes = Vec::new();
        V2Serializer::new()
            .serialize(&copy, &mut bytes)
            .expect("in memory");
        bytes
    };
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for case in 0..60u64 {
        let mut h = new_histogram();
        // Value ranges from one unit to 2^40, some grown one way then
        // another, and an empty histogram.
        let top = 1u64 << (case % 41);
        for _ in 0..(case * 37) % 500 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            h.record(x % top).expect("auto-resized");
        }
        if case % 7 == 3 {
            h.record(top * 3).expect("auto-resized");
        }
        assert_eq!(v2_bytes(&h), sized_copy(&h), "case {case}");
    }
}

fn integer() -> MetricKind {
    MetricKind::Integer { min: 0 }
}

#[test]
fn round_to_i64_is_f64_round() {
    use rand::RngExt;
    let exact = (1u64 << 52) as f64;
    let edges = [
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.5,
        -2.5,
        0.499_999_999_999_999_94,
        -0.499_999_999_999_999_94,
        exact - 0.5,
        -(exact - 0.5),
        exact,
        exact + 1.0,
        1e300,
        -1e300,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
    ];
    for x in edges {
        assert_eq!(round_to_i64(x), x.round() as i64, "{x}");
    }
    let mut rng = crate::rng::game_rng(5, 14);
    for _ in 0..100_000 {
        let x: f64 = rng.random_range(-1e6..1e6);
        let half = (x * 2.0).round() / 2.0;
        for v in [x, half, x * 100.0] {
            assert_eq!(round_to_i64(v), v.round() as i64, "{v}");
        }
    }
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
fn folded_chunks_absorb_to_the_state_of_every_value_recorded() {
    use rand::RngExt;
    let mut rng = crate::rng::game_rng(14, 6);
    let kinds = [
        integer(),
        MetricKind::Proportion,
        MetricKind::Fixed {
            scale: 100,
            min: -1 << 40,
        },
    ];
    // Narrow chunks take the direct count, wide ones the hash table.
    for (kind, wide) in kinds.into_iter().flat_map(|k| [(k, true), (k, false)]) {
        let values: Vec<i64> = (0..20_000)
            .map(|i| match kind {
                MetricKind::Proportion => rng.random_range(0..2),
                // Repeats, negatives, and values far beyond the
                // histogram's first range (it must grow the same way).
                _ if wide && i % 97 == 0 => rng.random_range(-(1i64 << 40)..(1i64 << 40)),
                _ => rng.random_range(-300..300),
            })
            .collect();
        let mut one_by_one = Accumulator::new(kind);
        values.iter().for_each(|&v| one_by_one.record(v));
        let mut absorbed = Accumulator::new(kind);
        let mut table = Vec::new();
        let mut at = 0;
        while at < values.len() {
            let end = (at + rng.random_range(0..1500)).min(values.len());
            absorbed.absorb(&Folded::fold(kind, &values[at..end], &mut table));
            at = end;
        }
        assert_eq!(absorbed.to_state("x"), one_by_one.to_state("x"));
        assert_eq!(absorbed.summarize("x"), one_by_one.summarize("x"));
    }
    let mut empty = Accumulator::new(integer());
    empty.absorb(&Folded::fold(integer(), &[], &mut Vec::new()));
    assert_eq!(
        empty.to_state("x"),
        Accumulator::new(integer()).to_state("x")
    );
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

/// The exact order statistic of rank `ceil(n * a / b)` (at least 1).
fn exact_quantile(sorted: &[i64], a: u64, b: u64) -> i64 {
    let n = sorted.len() as u64;
    let rank = (n * a).div_ceil(b).clamp(1, n);
    sorted[rank as usize - 1]
}

/// A deterministic sample of `n` stored values in `lo..=hi`, with many
/// exact zeros and small negatives (as hold'em's net chips have).
fn sample(n: usize, lo: i64, hi: i64, seed: u64) -> Vec<i64> {
    let mut x = seed | 1;
    (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match i % 5 {
                0 | 1 => 0,
                2 => -200,
                _ => lo + (x % (hi - lo + 1) as u64) as i64,
            }
        })
        .collect()
}

#[test]
fn percentiles_are_the_exact_order_statistics_for_every_kind() {
    let kinds = [
        MetricKind::Integer { min: 0 },
        MetricKind::Integer { min: -400 },
        MetricKind::Fixed {
            scale: 100,
            min: -400,
        },
        MetricKind::Fixed {
            scale: 10_000,
            min: 0,
        },
    ];
    for (k, kind) in kinds.into_iter().enumerate() {
        let scale = i64::from(kind.scale());
        let (lo, hi) = (kind.min() * scale, 1200 * scale.min(100));
        for n in [1usize, 2, 7, 1000, 30_001] {
            let mut values = sample(n, lo.max(-40_000), hi, 7 + k as u64 + n as u64);
            if lo >= 0 {
                values.iter_mut().for_each(|v| *v = v.abs());
            }
            let mut acc = Accumulator::new(kind);
            values.iter().for_each(|&v| acc.record(v));
            values.sort_unstable();
            let s = acc.summarize("m");
            let got = [s.p50, s.p90, s.p99, s.p999];
            for ((a, b), got) in QUANTILES.into_iter().zip(got) {
                let want = exact_quantile(&values, a, b) as f64 / scale as f64;
                assert_eq!(got, Some(want), "{kind:?}, n = {n}, quantile {a}/{b}");
            }
        }
    }
}

#[test]
fn net_chips_near_zero_are_exact() {
    // The regression: ev_net in chips (2 decimals), mostly 0.00 and
    // -2.00 with a long tail, gave p50 = p90 = 0.31 and -1.93.
    let kind = MetricKind::Fixed {
        scale: 100,
        min: -400,
    };
    let mut acc = Accumulator::new(kind);
    for i in 0..10_000i64 {
        let v = match i % 10 {
            0..=5 => 0,
            6..=8 => -200,
            _ => 100 * (i % 1100) - 40_000,
        };
        acc.record(v);
    }
    let s = acc.summarize("ev_net");
    assert_eq!(s.p50, Some(0.0));
    assert_eq!(s.p90, Some(0.0));
    let q = acc.quantile(3, 10).unwrap();
    assert_eq!((q.lo, q.hi), (-200, -200));
}

#[test]
fn beyond_the_exact_range_a_percentile_keeps_only_the_digits_it_resolves() {
    let mut acc = Accumulator::new(integer());
    let values: Vec<i64> = (0..20_000).map(|i| 1_000_000_007 + i * 9_973).collect();
    values.iter().for_each(|&v| acc.record(v));
    for (a, b) in QUANTILES {
        let exact = exact_quantile(&values, a, b);
        let bucket = acc.quantile(a, b).unwrap();
        assert!(
            bucket.lo <= exact && exact <= bucket.hi,
            "{bucket:?} {exact}"
        );
        let got = bucket.value();
        let width = (bucket.hi - bucket.lo + 1) as u64;
        let mut step = 1i64;
        while (step as u64) < width {
            step *= 10;
        }
        assert_eq!(got % step, 0, "{got} is not rounded to {step}");
        assert!(
            (got - exact).abs() <= step,
            "{got} vs {exact}: more than one {step} off"
        );
    }
}

#[test]
fn a_state_no_run_could_produce_is_refused() {
    let mut acc = Accumulator::new(integer());
    [3, 9, 4].iter().for_each(|&v| acc.record(v));
    let good = acc.to_state("m");
    let tamper = |f: &dyn Fn(&mut AccumulatorState)| {
        let mut st = good.clone();
        f(&mut st);
        Accumulator::from_state(st.kind, &st)
    };
    assert!(tamper(&|_| ()).is_ok());
    assert!(tamper(&|st| std::mem::swap(&mut st.min, &mut st.max)).is_err());
    assert!(tamper(&|st| st.count += 1).is_err());
    assert!(tamper(&|st| st.sum = "100".into()).is_err());
    assert!(tamper(&|st| st.sum_sq = "-1".into()).is_err());
    assert!(tamper(&|st| st.min = -5).is_err());
    assert!(tamper(&|st| st.hist_v2 = Some("AAAA".into())).is_err());
    assert!(tamper(&|st| st.kind = MetricKind::Proportion).is_err());
}
