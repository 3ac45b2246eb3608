//! The chances of `tag`'s equity-threshold decisions, estimated without
//! bias, for the action correction.
//!
//! After the flop `tag` estimates its equity from [`EQUITY_DEALS`] random
//! deals and acts by thresholds on the estimate ([`tag_postflop`]). Which
//! action it takes is thus a draw, but one whose chances cardsim cannot
//! count cheaply: they are the chances of a sum of 64 deals, each won,
//! split or lost with chances that only an enumeration of about a million
//! boards and hands would give exactly.
//!
//! The action correction does not need them exactly; it needs an
//! **unbiased estimate**: `V(taken) − Σ_a π̂(a) V(a)` has mean zero
//! whenever the mean of `π̂(a)` over the draws is `π(a)`, whatever else it
//! depends on (the mean is linear). So the hand's own correction stream
//! plays more deals of the same kind, and the deals `tag` played are
//! pooled with them: `N` deals in all, independent and drawn alike. For
//! any `64` of them, the action `tag` would take from those 64 is an
//! unbiased estimate of its chances; `π̂` is the mean over **every**
//! subset of 64 of the pool (a U-statistic, Hoeffding 1948), which is
//! still unbiased and, of the estimates that see only the pool's counts,
//! the least noisy. Over the subsets, the number of deals won and split
//! follows the multivariate hypergeometric law of the pool's counts, so
//! the mean is a sum over at most 65 × 65 terms.
//!
//! Only heads-up, where a deal is won (1), split (1/2) or lost (0), so the
//! estimate of any subset is `k / 128` for a whole number `k` of halves,
//! exactly as `tag` computes it in floating point: every subset's action
//! is found by asking [`tag_postflop`] itself.

use rand::RngExt;

use crate::cards::{Card, CardSet};
use crate::holdem::agents::{tag_postflop, DealOutcomes, Mix, TagParams, EQUITY_DEALS};
use crate::holdem::eval::Hand;
use crate::holdem::table::{Action, Legal, View};
use crate::rng::GameRng;

/// The estimated chances of `tag`'s actions at a heads-up decision where
/// its own deals came out `own` and the correction's stream played
/// `fresh` more; `None` when only one action has a chance (nothing to
/// correct).
pub fn tag_chances(
    view: &View<'_>,
    legal: &Legal,
    params: &TagParams,
    own: DealOutcomes,
    fresh: DealOutcomes,
) -> Option<Mix> {
    let (own_wins, fresh_wins) = (own.heads_up_wins(), fresh.heads_up_wins());
    let pool = Pool {
        wins: own_wins + fresh_wins,
        splits: own.splits + fresh.splits,
        losses: (own.deals - own_wins - own.splits) + (fresh.deals - fresh_wins - fresh.splits),
    };
    let n = own.deals;
    if n != EQUITY_DEALS {
        return None;
    }
    let mut chances = [0.0; 2 * EQUITY_DEALS as usize + 1];
    subset_halves(pool, n, &mut chances);
    // As `tag` computes it: the shares won (k halves, exact) over the
    // deals.
    let plan = |k: usize| tag_postflop(view, legal, params, (k as f64 / 2.0) / f64::from(n));
    // At most 2 actions a plan and 3 plans (fold, call, raise; or check,
    // its draw, bet), of 4 different actions.
    let mut pairs = [(Action::Check, 0.0); 6];
    let mut len = 0;
    plan_segments(chances.len() - 1, plan, |lo, hi, plan| {
        let chance: f64 = chances[lo..=hi].iter().sum();
        for (action, p) in plan.choices() {
            match pairs[..len].iter().position(|(a, _)| *a == action) {
                Some(i) => pairs[i].1 += chance * p,
                None => {
                    // At most 4 different actions: never full.
                    pairs[len] = (action, chance * p);
                    len += 1;
                }
            }
        }
    });
    let pairs = &pairs[..len];
    Mix::of_actions(pairs)
}

/// `deals` more deals of the kind `tag` plays heads-up
/// ([`crate::holdem::agents::deal_outcomes`]: the rest of the board and
/// the opponent's two cards, uniform over the cards not in `hole` or
/// `board`, each deal independent of the others), drawn at less cost:
/// each deal takes its cards by a partial Fisher-Yates shuffle of the
/// unseen cards (no draw thrown back), and on the river the hand's own
/// strength is found once. The shuffle starts from wherever the last deal
/// left the cards; whatever their order, it picks every sequence of
/// distinct cards alike.
pub fn fresh_deals(hole: [Card; 2], board: &[Card], deals: u32, rng: &mut GameRng) -> DealOutcomes {
    let known: CardSet = hole.iter().chain(board).copied().collect();
    let mut unseen = [Card::from_index(0); 52];
    let mut len = 0;
    for i in 0..52u8 {
        let c = Card::from_index(i);
        if !known.contains(c) {
            unseen[len] = c;
            len += 1;
        }
    }
    let unseen = &mut unseen[..len];
    let to_come = 5usize.saturating_sub(board.len());
    let need = to_come + 2;
    let base = Hand::from_cards(board);
    let mine = base.combine(Hand::from_cards(&hole));
    let river = (to_come == 0).then(|| mine.strength());
    let mut out = DealOutcomes {
        deals,
        ..DealOutcomes::default()
    };
    let mut wins = 0;
    for _ in 0..deals {
        for j in 0..need {
            let r = rng.random_range(0..len - j);
            unseen.swap(r, len - 1 - j);
        }
        let picked = &unseen[len - need..];
        let runout = Hand::from_cards(&picked[2..]);
        let me = river.unwrap_or_else(|| mine.combine(runout).strength());
        let opp = base
            .combine(runout)
            .with(picked[0])
            .with(picked[1])
            .strength();
        wins += u32::from(me > opp);
        out.splits += u32::from(me == opp);
    }
    // Heads-up: a win is a whole share, a split a half (exact sums).
    out.won = f64::from(wins) + f64::from(out.splits) / 2.0;
    out
}

/// The stretches `lo..=hi` of `0..=last` over which `plan` is the same,
/// found by halving: `tag`'s plan is a step function of its estimate
/// (fold, call, raise as it grows; or check or its draw, then bet), no
/// plan coming back once left, so a stretch whose two ends agree is one
/// plan throughout. About 20 questions instead of 129. Each stretch is
/// given to `each` once, left to right (one plan may come in several).
fn plan_segments<P: PartialEq + Copy>(
    last: usize,
    plan: impl Fn(usize) -> P,
    mut each: impl FnMut(usize, usize, P),
) {
    // Halves share their middle point: a stretch is given from the first
    // point not given yet.
    let mut next = 0;
    let mut emit = |lo: usize, hi: usize, p: P| {
        if hi >= next {
            each(lo.max(next), hi, p);
            next = hi + 1;
        }
    };
    split(0, plan(0), last, plan(last), &plan, &mut emit);
}

/// Gives `lo..=hi` whole if its ends' plans agree, else its halves (at
/// most 8 deep for 129 points).
fn split<P: PartialEq + Copy>(
    lo: usize,
    p_lo: P,
    hi: usize,
    p_hi: P,
    plan: &impl Fn(usize) -> P,
    emit: &mut impl FnMut(usize, usize, P),
) {
    if p_lo == p_hi {
        emit(lo, hi, p_lo);
    } else if hi <= lo + 1 {
        emit(lo, lo, p_lo);
        emit(hi, hi, p_hi);
    } else {
        let mid = lo + (hi - lo) / 2;
        let p_mid = plan(mid);
        split(lo, p_lo, mid, p_mid, plan, emit);
        split(mid, p_mid, hi, p_hi, plan, emit);
    }
}

/// Deals by outcome, heads-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pool {
    pub wins: u32,
    pub splits: u32,
    pub losses: u32,
}

impl Pool {
    fn total(&self) -> u32 {
        self.wins + self.splits + self.losses
    }
}

/// The chance that `n` deals taken from `pool` at random (without
/// replacement, every subset alike) score `k` halves (a win 2, a split
/// 1), for `k` in `0..=2n`; the chances add up to 1 (divided by their sum,
/// which is 1 but for rounding), into `out[..=2n]`; all 0 when the pool
/// has fewer than `n` deals.
pub fn subset_halves(pool: Pool, n: u32, out: &mut [f64]) {
    let out = &mut out[..=2 * n as usize];
    out.fill(0.0);
    let (wins, splits, losses) = (pool.wins, pool.splits, pool.losses);
    if n > pool.total() {
        return;
    }
    let whole = ln_choose(pool.total(), n);
    let mut sum = 0.0;
    // The law is unimodal in w for each t, and its rows in t too: each row
    // is summed from near its peak outwards until the terms fall below
    // `NEGLIGIBLE` (their sum then lies below the rounding of the total),
    // and the rows stop past the peak row once one is negligible.
    let t_peak = f64::from(n) * f64::from(splits) / f64::from(pool.total());
    for t in 0..=splits.min(n) {
        // w deals won, t split, n - t - w lost: w from where the losses
        // run short up to where the wins or the subset do.
        let lo = (n - t).saturating_sub(losses);
        let hi = wins.min(n - t);
        if lo > hi {
            continue;
        }
        let peak = if wins + losses == 0 {
            lo
        } else {
            let w = (f64::from(n - t) * f64::from(wins) / f64::from(wins + losses)).round() as u32;
            w.clamp(lo, hi)
        };
        let at_peak =
            (ln_choose(wins, peak) + ln_choose(splits, t) + ln_choose(losses, n - t - peak)
                - whole)
                .exp();
        if at_peak < NEGLIGIBLE {
            if f64::from(t) > t_peak {
                break;
            }
            continue;
        }
        let mut add = |w: u32, term: f64| {
            out[(2 * w + t) as usize] += term;
            sum += term;
        };
        add(peak, at_peak);
        // Upwards: C(W, w+1) / C(W, w) and C(L, l-1) / C(L, l), l = n-t-w.
        let mut term = at_peak;
        for w in peak..hi {
            let l = n - t - w;
            term *= (f64::from(wins - w) * f64::from(l))
                / (f64::from(w + 1) * f64::from(losses - l + 1));
            if term < NEGLIGIBLE {
                break;
            }
            add(w + 1, term);
        }
        // Downwards: the inverse steps.
        let mut term = at_peak;
        for w in (lo + 1..=peak).rev() {
            let l = n - t - w;
            term *= (f64::from(w) * f64::from(losses - l))
                / (f64::from(wins - w + 1) * f64::from(l + 1));
            if term < NEGLIGIBLE {
                break;
            }
            add(w - 1, term);
        }
    }
    if sum > 0.0 {
        for c in out.iter_mut() {
            *c /= sum;
        }
    }
}

/// A term of the subsets' law too small to count: below the rounding of
/// a sum of about 1, however many such terms are left out.
const NEGLIGIBLE: f64 = 1e-20;

/// `ln C(n, k)`, `k ≤ n`.
fn ln_choose(n: u32, k: u32) -> f64 {
    ln_factorial(n) - ln_factorial(k) - ln_factorial(n - k)
}

/// `ln n!`: summed below [`TABLED`], by Stirling's series above (far
/// past the precision the chances need).
fn ln_factorial(n: u32) -> f64 {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = Vec::with_capacity(TABLED as usize);
        let mut acc = 0.0f64;
        t.push(0.0);
        for k in 1..TABLED {
            acc += f64::from(k).ln();
            t.push(acc);
        }
        t
    });
    match table.get(n as usize) {
        Some(&v) => v,
        None => {
            let x = f64::from(n);
            x * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI * x).ln() + 1.0 / (12.0 * x)
                - 1.0 / (360.0 * x * x * x)
        }
    }
}

/// Factorials tabled exactly (as sums of logarithms).
const TABLED: u32 = 4096;

/// How many deals the correction's stream plays at each decision, beside
/// `tag`'s own [`EQUITY_DEALS`]: a pool of twice tag's deals. Measured
/// (tag against station, docs/duplicate.md): 32 more deals remove less
/// variance (11.1x fewer hands than plain play instead of 11.6x), 192
/// more remove a little more (12.3x) at three times the cost.
pub const FRESH_DEALS: u32 = EQUITY_DEALS;

#[cfg(test)]
#[path = "threshold_tests.rs"]
mod tests;
