//! Seeded Monte Carlo equity: batches of trials run in parallel, added up
//! as integers, stopped by a count of trials, a standard error or a time.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::direct::Direct;
use super::query::Prepared;
use super::sampler::{Sampler, PILOT_DEALS};
use super::tally::{stderr, Tally};
use super::types::{
    EquityError, EquityResult, Hooks, Method, PlayerEquity, Progress, Stop, BATCH, MAX_DEALS, UNITS,
};
use crate::rng::game_rng;

/// Batches between two checks of a `--stderr` or `--time` stopping rule,
/// and the most batches in flight at once (so memory never grows with the
/// number of trials asked for).
const WAVE: u64 = 32;

/// Deals are drawn by the plain sampler unless rejection would waste more
/// than this many draws on the trials asked for (about a second): beyond,
/// the direct sampler ([`Direct`]) is built and used when its own pilot
/// rejects at most half as often. Requests under it give the same answers,
/// draw for draw, as before the direct sampler existed.
pub const DIRECT_FROM_DEALS: f64 = 2e8;
/// For `--time`, which asks for no number of trials: the direct sampler
/// when fewer than this share of plain draws are valid.
const DIRECT_FROM_RATE: f64 = 1e-3;
/// Whole trials timed (on a stream of their own, never counted) for the
/// expected time, and the most time spent on them.
const PROBE_TRIALS: u64 = 4096;
const PROBE_TIME: Duration = Duration::from_millis(50);

/// What draws a run's trials.
enum Draws<'a> {
    Plain(Sampler<'a>),
    Direct(Direct),
}

impl Draws<'_> {
    fn batch(
        &self,
        rng: &mut crate::rng::GameRng,
        size: u64,
        deadline: Option<Instant>,
        cancel: Option<&std::sync::atomic::AtomicBool>,
    ) -> Tally {
        match self {
            Draws::Plain(s) => s.batch(rng, size, deadline, cancel),
            Draws::Direct(d) => d.batch(rng, size, deadline, cancel),
        }
    }
}

/// Seeded Monte Carlo equity ([`monte_carlo_with`] without hooks).
pub fn monte_carlo(p: &Prepared, seed: u64, stop: Stop) -> Result<EquityResult, EquityError> {
    monte_carlo_with(p, seed, stop, Hooks::default())
}

/// Seeded Monte Carlo equity, reporting its expected time and progress to
/// `hooks` and stopping with [`EquityError::Interrupted`] when asked to.
///
/// Deals are drawn by the plain sampler (whole deals drawn and rejected on
/// a conflict) unless valid deals are so rare that it would need more than
/// [`DIRECT_FROM_DEALS`] draws; then by the direct sampler ([`Direct`],
/// exact too). The answer depends on the seed and the stopping rule only.
pub fn monte_carlo_with(
    p: &Prepared,
    seed: u64,
    stop: Stop,
    hooks: Hooks<'_>,
) -> Result<EquityResult, EquityError> {
    check_stop(stop)?;
    let sampler = Sampler::new(p);
    let start = Instant::now();
    let deadline = match stop {
        Stop::Time(d) => Some(start + d),
        _ => None,
    };
    // How often a drawn deal is valid decides whether the request can be
    // met in reasonable time (measured, from its own generator stream).
    let rate = sampler.acceptance(&mut game_rng(seed ^ 0x9e37_79b9_7f4a_7c15, u64::MAX));
    let mut draw_seconds = start.elapsed().as_secs_f64() / PILOT_DEALS as f64;
    let wanted = wanted(stop);
    // Rejection is slow when most of its draws are wasted: then the direct
    // sampler is built, and used if it wastes at most half as many.
    let rare = match wanted {
        Some(trials) => trials as f64 / rate - trials as f64 > DIRECT_FROM_DEALS,
        None => rate < DIRECT_FROM_RATE,
    };
    let mut draws = Draws::Plain(sampler);
    let mut rate = rate;
    if rare {
        let pilot = Instant::now();
        let direct = Direct::new(p)?;
        let direct_rate =
            direct.acceptance(&mut game_rng(seed ^ 0x9e37_79b9_7f4a_7c15, u64::MAX - 1));
        if direct_rate >= 2.0 * rate {
            draw_seconds = pilot.elapsed().as_secs_f64() / PILOT_DEALS as f64;
            (draws, rate) = (Draws::Direct(direct), direct_rate);
        }
    }
    if let Some(trials) = wanted {
        // Refused only for rejection's sake: a request of many trials whose
        // deals are mostly valid simply runs as long as it was asked to.
        let deals = trials as f64 / rate;
        if deals > MAX_DEALS && deals > 4.0 * trials as f64 {
            return Err(EquityError::RareDeals { rate, trials });
        }
    }
    if hooks.cancelled() {
        return Err(EquityError::Interrupted);
    }
    let threads = rayon::current_num_threads().max(1) as f64;
    // Only a caller who watches is told (the probe costs a few
    // milliseconds).
    let expected = match (wanted, stop) {
        _ if hooks.progress.is_none() => 0.0,
        (_, Stop::Time(d)) => d.as_secs_f64(),
        (Some(trials), _) => {
            // A few whole trials timed; when none finishes in time, the
            // pilot's cost of a deal over its acceptance.
            let probe = Instant::now();
            let probe_rng = &mut game_rng(seed ^ 0x9e37_79b9_7f4a_7c15, u64::MAX - 2);
            let probed = draws.batch(probe_rng, PROBE_TRIALS, Some(probe + PROBE_TIME), None);
            let per_trial = match probed.showdowns {
                0 => draw_seconds / rate,
                k => probe.elapsed().as_secs_f64() / k as f64,
            };
            trials as f64 * per_trial / threads
        }
        (None, _) => 0.0,
    };
    hooks.report(Progress {
        done: 0,
        total: wanted,
        unit: "trials",
        expected_seconds: Some(expected),
    });
    let total = waves(
        seed,
        stop,
        p.players(),
        start,
        |rng, size| draws.batch(rng, size, deadline, hooks.cancel),
        |total| {
            if hooks.cancelled() {
                return false;
            }
            hooks.report(Progress {
                done: total.showdowns,
                total: wanted,
                unit: "trials",
                expected_seconds: None,
            });
            true
        },
    )?;
    Ok(result(&total, p.players(), seed))
}

/// Refuses a standard error target below 10^-5 (or not a number).
pub(crate) fn check_stop(stop: Stop) -> Result<(), EquityError> {
    match stop {
        Stop::StdErr(s) if s.is_nan() || s < 1e-5 => {
            Err(EquityError::StdErrTooSmall(s.to_string()))
        }
        _ => Ok(()),
    }
}

/// The trials a stopping rule asks for, when it names a number.
pub(crate) fn wanted(stop: Stop) -> Option<u64> {
    match stop {
        Stop::Trials(n) => Some(n),
        // Shares lie in [0, 1], so their variance is at most 1/4.
        Stop::StdErr(e) => Some((0.25 / (e * e)).ceil() as u64),
        Stop::Time(_) => None,
    }
}

/// Runs batches of [`BATCH`] trials (the last one of `Stop::Trials`
/// shorter), batch `b` drawn by `batch` from `game_rng(seed, b)`, [`WAVE`]
/// at a time in parallel, added up in order, until `stop` is met (`start`:
/// when the run began, for `Stop::Time`). After each wave `wave_done` is
/// given the total so far and returns whether to go on; if not, the run
/// stops with [`EquityError::Interrupted`]. The answer depends on the seed
/// and the stopping rule only, never on the threads.
pub(crate) fn waves(
    seed: u64,
    stop: Stop,
    players: usize,
    start: Instant,
    batch: impl Fn(&mut crate::rng::GameRng, u64) -> Tally + Sync,
    mut wave_done: impl FnMut(&Tally) -> bool,
) -> Result<Tally, EquityError> {
    let all = match stop {
        Stop::Trials(n) => n.div_ceil(BATCH),
        _ => u64::MAX,
    };
    let mut total = Tally::default();
    let mut next = 0u64;
    loop {
        // At most WAVE batches at once: memory is bounded whatever the
        // number of trials. One batch per rayon job (`with_max_len(1)`):
        // by default rayon folds runs of up to a quarter of the batches
        // sequentially, which a thread that runs dry cannot steal from, so
        // on a busy machine one thread could idle for a quarter of the run
        // at its end.
        let end = all.min(next + WAVE);
        let wave: Vec<Tally> = (0..(end - next) as usize)
            .into_par_iter()
            .with_max_len(1)
            .map(|i| {
                let b = next + i as u64;
                let size = match stop {
                    Stop::Trials(n) if b + 1 == all => n - b * BATCH,
                    _ => BATCH,
                };
                batch(&mut game_rng(seed, b), size)
            })
            .collect();
        wave.iter().for_each(|w| total.add(w));
        if !wave_done(&total) {
            return Err(EquityError::Interrupted);
        }
        next = end;
        let done = match stop {
            Stop::Trials(_) => next == all,
            Stop::StdErr(target) => {
                (0..players).all(|i| stderr(&total, i).is_some_and(|e| e <= target))
            }
            Stop::Time(d) => start.elapsed() >= d,
        };
        if done {
            return Ok(total);
        }
    }
}

/// The equities of a run's tally (all zero if it has no showdown).
pub(crate) fn result(total: &Tally, players: usize, seed: u64) -> EquityResult {
    let n = total.showdowns.max(1) as f64;
    let players = (0..players)
        .map(|i| PlayerEquity {
            equity: total.shares(i).0 as f64 / UNITS as f64 / n,
            win: total.wins[i] as f64 / n,
            tie: total.tied(i) as f64 / n,
            stderr: stderr(total, i),
        })
        .collect();
    EquityResult {
        players,
        method: Method::MonteCarlo {
            trials: total.showdowns,
            seed,
        },
    }
}
