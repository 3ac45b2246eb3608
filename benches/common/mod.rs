//! What the side-by-side harnesses (`eval_peers`, `omaha_peers`) share:
//! flags, a thread's CPU time, a calibrated measurement and the median.

use std::hint::black_box;
use std::time::Instant;

pub type Res<T> = Result<T, String>;

/// The arguments after the bench's name, without the `--bench` that
/// `cargo bench` adds.
pub fn args() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect()
}

/// The value after `flag` in `args`, parsed, or `default`.
pub fn flag<T: std::str::FromStr>(args: &[String], flag: &str, default: T) -> Res<T> {
    match args.iter().position(|a| a == flag) {
        None => Ok(default),
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{flag} needs a value")),
    }
}

/// CPU time of this thread in seconds (wall time if the kernel does not
/// say).
pub fn cpu_seconds(wall: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(|| wall.elapsed().as_secs_f64(), |ns| ns as f64 * 1e-9)
}

/// Runs `work(passes)` once untimed to calibrate (by wall time: the
/// kernel updates a running thread's CPU time only every few
/// milliseconds), then timed with enough passes for `min_time`; returns
/// (items, seconds), `per_pass` items a pass.
pub fn measure(per_pass: u64, min_time: f64, mut work: impl FnMut(u64) -> u64) -> (u64, f64) {
    let origin = Instant::now();
    black_box(work(1));
    let one = origin.elapsed().as_secs_f64().max(1e-6);
    let passes = (min_time / one).ceil().max(1.0) as u64;
    let t0 = cpu_seconds(origin);
    black_box(work(passes));
    (passes * per_pass, cpu_seconds(origin) - t0)
}

/// The median (the mean of the middle two of an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// Ratios as `1.234 1.250 ...`.
pub fn show(v: &[f64]) -> String {
    v.iter()
        .map(|r| format!("{r:.3}"))
        .collect::<Vec<_>>()
        .join(" ")
}
