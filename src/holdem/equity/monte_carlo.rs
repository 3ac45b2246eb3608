//! Seeded Monte Carlo equity: batches of trials run in parallel, added up
//! as integers, stopped by a count of trials, a standard error or a time.

use std::time::Instant;

use rayon::prelude::*;

use super::query::Prepared;
use super::sampler::Sampler;
use super::tally::{stderr, Tally};
use super::types::{
    EquityError, EquityResult, Method, PlayerEquity, Stop, BATCH, MAX_DEALS, UNITS,
};
use crate::rng::game_rng;

/// Batches between two checks of a `--stderr` or `--time` stopping rule,
/// and the most batches in flight at once (so memory never grows with the
/// number of trials asked for).
const WAVE: u64 = 32;

/// Seeded Monte Carlo equity.
pub fn monte_carlo(p: &Prepared, seed: u64, stop: Stop) -> Result<EquityResult, EquityError> {
    if let Stop::StdErr(s) = stop {
        if s.is_nan() || s < 1e-5 {
            return Err(EquityError::StdErrTooSmall(s.to_string()));
        }
    }
    let sampler = Sampler::new(p);
    let start = Instant::now();
    let deadline = match stop {
        Stop::Time(d) => Some(start + d),
        _ => None,
    };
    // How often a drawn deal is valid decides whether the request can be
    // met in reasonable time (measured, from its own generator stream).
    let rate = sampler.acceptance(&mut game_rng(seed ^ 0x9e37_79b9_7f4a_7c15, u64::MAX));
    let wanted = match stop {
        Stop::Trials(n) => Some(n),
        // Shares lie in [0, 1], so their variance is at most 1/4.
        Stop::StdErr(e) => Some((0.25 / (e * e)).ceil() as u64),
        Stop::Time(_) => None,
    };
    if let Some(trials) = wanted {
        // Refused only for rejection's sake: a request of many trials whose
        // deals are mostly valid simply runs as long as it was asked to.
        let deals = trials as f64 / rate;
        if deals > MAX_DEALS && deals > 4.0 * trials as f64 {
            return Err(EquityError::RareDeals { rate, trials });
        }
    }
    let mut total = Tally::default();
    let mut next_batch = 0u64;
    loop {
        // At most WAVE batches at once: memory is bounded whatever the
        // number of trials.
        let (batches, last_size) = match stop {
            Stop::Trials(n) => {
                let b = n.div_ceil(BATCH);
                (b.min(next_batch + WAVE), n - (b.saturating_sub(1)) * BATCH)
            }
            _ => (next_batch + WAVE, BATCH),
        };
        let all = match stop {
            Stop::Trials(n) => n.div_ceil(BATCH),
            _ => u64::MAX,
        };
        // One batch per rayon job (`with_max_len(1)`): by default rayon
        // folds runs of up to a quarter of the batches sequentially, which
        // a thread that runs dry cannot steal from, so on a busy machine one
        // thread could idle for a quarter of the run at its end.
        let wave: Vec<Tally> = (0..(batches - next_batch) as usize)
            .into_par_iter()
            .with_max_len(1)
            .map(|i| {
                let b = next_batch + i as u64;
                let size = if b + 1 == all { last_size } else { BATCH };
                sampler.batch(&mut game_rng(seed, b), size, deadline)
            })
            .collect();
        for t in &wave {
            total.add(t);
        }
        next_batch = batches;
        let done = match stop {
            Stop::Trials(_) => next_batch == all,
            Stop::StdErr(target) => {
                (0..p.players()).all(|i| stderr(&total, i).is_some_and(|e| e <= target))
            }
            Stop::Time(d) => start.elapsed() >= d,
        };
        if done {
            break;
        }
    }
    let n = total.showdowns as f64;
    let players = (0..p.players())
        .map(|i| PlayerEquity {
            equity: total.shares(i).0 as f64 / UNITS as f64 / n,
            win: total.wins[i] as f64 / n,
            tie: total.tied(i) as f64 / n,
            stderr: stderr(&total, i),
        })
        .collect();
    Ok(EquityResult {
        players,
        method: Method::MonteCarlo {
            trials: total.showdowns,
            seed,
        },
    })
}
