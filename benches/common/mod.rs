//! What the side-by-side harnesses (`eval_peers`, `omaha_peers`) share:
//! flags, a thread's CPU time, a calibrated measurement and the median.

use std::hint::black_box;
use std::process::Command;
use std::time::Instant;

use cardsim::cards::Card;
use cardsim::rng::game_rng;
use rand::seq::SliceRandom;

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

/// `write FILE N [--seed S]`: N records of `size` distinct cards, one byte
/// each (`4 * rank + suit`), drawn by a partial Fisher-Yates shuffle from
/// `game_rng(seed, 0)` (seed 7 unless `--seed`), so the same command writes
/// the same file.
pub fn write_records(args: &[String], size: usize) -> Res<()> {
    let (path, n) = match args {
        [path, n, ..] => (path, n.parse::<usize>().map_err(|_| "N: a count")?),
        _ => return Err("write FILE N".into()),
    };
    let seed = flag(args, "--seed", 7u64)?;
    let mut deck: Vec<u8> = (0..52).collect();
    let mut rng = game_rng(seed, 0);
    let mut bytes = Vec::with_capacity(size * n);
    for _ in 0..n {
        let (cards, _) = deck.partial_shuffle(&mut rng, size);
        bytes.extend_from_slice(cards);
    }
    std::fs::write(path, bytes).map_err(|e| format!("{path}: {e}"))?;
    println!(
        "wrote {n} records of {size} cards ({} bytes) to {path}",
        size * n
    );
    Ok(())
}

/// The records of a file [`write_records`] wrote, each checked to be `N`
/// distinct cards.
pub fn read_records<const N: usize>(path: &str) -> Res<Vec<[Card; N]>> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    if bytes.is_empty() || bytes.len() % N != 0 {
        return Err(format!("{path}: not a whole number of {N}-byte records"));
    }
    bytes
        .chunks_exact(N)
        .enumerate()
        .map(|(i, r)| {
            let used = r.iter().fold(0u64, |m, &c| m | 1 << (c & 63));
            if r.iter().any(|&c| c >= 52) || used.count_ones() as usize != N {
                return Err(format!("{path}: record {i} is not {N} distinct cards"));
            }
            Ok(std::array::from_fn(|k| Card::from_index(r[k])))
        })
        .collect()
}

/// Runs a peer once with `args`; returns its stdout (an error with its
/// stderr if it fails).
pub fn run_peer(cmd: &str, args: &[&str]) -> Res<String> {
    let out = Command::new(cmd)
        .args(args)
        .output()
        .map_err(|e| format!("{cmd}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cmd} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
