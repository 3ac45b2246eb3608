//! The luck of a mixed strategy's draws: AIVAT's action correction, for
//! seats whose action probabilities are known.
//!
//! When a seat draws its action at random from known probabilities `π`,
//! the draw moves every seat's value `V` from its mean over the draw,
//! `Σ_a π(a) V(after a)`, to `V(after the action taken)`. Here `V` is the
//! check-down value ([`super::value`]) of the chips once the bet is
//! matched: a raise is valued as called (by every seat still in, up to its
//! stack), since valued as uncalled it would be worth the same whatever
//! its size. The difference has mean zero over the draw whatever
//! happened before it, so subtracting it, like the chance correction,
//! keeps the estimate unbiased and removes the noise of the draw.
//!
//! Which strategies are known: the built-in `random` agent draws a kind of
//! action uniformly (fold when it may, check or call, raise when it may),
//! then a raise size uniformly over the legal range ([`Policy`]). `tag`'s
//! c-bets and bluffs and a chart's weighted ranges are draws too, and the
//! agent reports their chances as a [`Mix`] at each such decision;
//! `station` and `pushfold` never draw. An agent the user brings is
//! corrected at the decisions it answers with probabilities (a mixed
//! answer, also a [`Mix`]), which cardsim draws from; its other actions
//! are not corrected (which costs variance, never bias).
//!
//! The mean over a raise's sizes is exact without valuing every size:
//! between the sizes at which another seat's stack runs out, the matched
//! pots, and so every `V`, are linear in the size, so the mean over the
//! integer sizes of each stretch is the mean of its two ends.

use super::chance::{deck_of, holes_of, CorrectionError};
use super::value::{expected_payouts, Chips, RiverStrengths};
use crate::cards::Card;
use crate::holdem::agents::Mix;
use crate::holdem::equity::allin::MAX_SEATS;
use crate::holdem::table::{Action, HandState, Legal};
use crate::holdem::variant::Game;
use crate::rng::GameRng;

/// What the estimator knows of a seat's strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Nothing, or that it never draws: no correction.
    Unknown,
    /// The `random` agent's draw.
    UniformKinds,
}

/// Per seat, the chips of luck in the known draws of a hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionCorrection {
    pub chips: [f64; MAX_SEATS],
    /// Decisions corrected (drawn among two or more actions).
    pub decisions: u32,
    /// Whether every value was counted exactly (else some were sampled).
    pub exact: bool,
}

/// The action correction of a finished simulated hand whose seat `s`
/// played by `policies[s]`, and whose actions at the indices of `mixes`
/// (into [`HandState::history`]) were drawn from those mixes; the turn's
/// river cards counted with the strengths `rivers` holds
/// ([`super::chance::river_strengths`]).
pub fn action_correction(
    hand: &HandState,
    policies: &[Policy],
    mixes: &[(usize, Mix)],
    trials: u32,
    rivers: &RiverStrengths,
    rng: &mut GameRng,
) -> Result<ActionCorrection, CorrectionError> {
    if hand.config().game != Game::Holdem {
        return Err(CorrectionError::NotHoldem(hand.config().game));
    }
    let mut out = ActionCorrection {
        chips: [0.0; MAX_SEATS],
        decisions: 0,
        exact: true,
    };
    if mixes.is_empty() && policies.iter().all(|&p| p == Policy::Unknown) {
        return Ok(out);
    }
    let holes = holes_of(hand);
    let mut replay = HandState::new(hand.config().clone(), &deck_of(hand))?;
    for (index, &(seat, taken)) in hand.history().iter().enumerate() {
        let known = policies.get(seat).copied().unwrap_or(Policy::Unknown);
        let mixed = mixes.iter().find(|(i, _)| *i == index).map(|(_, m)| m);
        if let Some(legal) = replay.legal() {
            let choices = match (mixed, known) {
                (Some(mix), _) => mix
                    .choices()
                    .iter()
                    .map(|&(a, p)| (Choice::Act(a), p))
                    .collect(),
                (None, Policy::UniformKinds) => uniform_kinds(&legal),
                (None, Policy::Unknown) => Vec::new(),
            };
            if choices.len() > 1 {
                let values = Values {
                    holes: &holes,
                    trials,
                    rivers,
                };
                let (term, exact) = draw_luck(&replay, &values, &legal, &choices, taken, rng);
                for (c, t) in out.chips.iter_mut().zip(term) {
                    *c += t;
                }
                out.decisions += 1;
                out.exact &= exact;
            }
        }
        replay.apply(taken)?;
    }
    Ok(out)
}

/// What a seat may draw: one action, or a raise to a size uniform over
/// `lo..=hi`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Choice {
    Act(Action),
    Raise(u64, u64),
}

/// The random agent's draw: each legal kind of action (fold when facing a
/// bet, check or call, raise when allowed) with equal chance.
fn uniform_kinds(legal: &Legal) -> Vec<(Choice, f64)> {
    let passive = if legal.can_check {
        Action::Check
    } else {
        Action::Call
    };
    let mut kinds = Vec::with_capacity(3);
    if legal.can_fold {
        kinds.push(Choice::Act(Action::Fold));
    }
    kinds.push(Choice::Act(passive));
    if let Some((lo, hi)) = legal.raise {
        kinds.push(Choice::Raise(lo, hi));
    }
    let each = 1.0 / kinds.len() as f64;
    kinds.into_iter().map(|k| (k, each)).collect()
}

/// Each seat's chips and whether it is still in, bets matched (the first
/// `seats` of each; arrays, as a hand values several of these at each
/// decision).
#[derive(Clone, Copy, Debug)]
struct Matched {
    chips: [u64; MAX_SEATS],
    live: [bool; MAX_SEATS],
    seats: usize,
}

/// The chips and live seats after `action` by the seat to act, with the
/// bet matched: every other seat still in puts in as much as the most any
/// seat has put in, or all it has.
fn after(hand: &HandState, legal: &Legal, action: Action) -> Matched {
    let seats = hand.seats();
    let mut m = Matched {
        chips: [0; MAX_SEATS],
        live: [false; MAX_SEATS],
        seats: seats.len(),
    };
    for (k, seat) in seats.iter().enumerate() {
        m.chips[k] = seat.contributed;
        m.live[k] = !seat.folded;
    }
    let s = legal.seat;
    match action {
        Action::Fold => m.live[s] = false,
        Action::Check => {}
        Action::Call => m.chips[s] += legal.call.unwrap_or(0),
        Action::RaiseTo(to) => m.chips[s] += to - seats[s].street_bet,
    }
    let n = m.seats;
    let top = (0..n)
        .filter(|&k| m.live[k])
        .map(|k| m.chips[k])
        .max()
        .unwrap_or(0);
    for k in 0..n {
        if m.live[k] {
            m.chips[k] = top.min(hand.config().stacks[k]).max(m.chips[k]);
        }
    }
    m
}

/// The raise sizes to value and their weights (adding up to 1): the ends
/// of each stretch of `lo..=hi` over which no other live seat's stack
/// runs out when it matches the raise. Within a stretch the matched pots,
/// and so every value, are linear in the size, so the mean over its
/// integer sizes is the mean of its ends.
fn raise_points(hand: &HandState, legal: &Legal, lo: u64, hi: u64) -> Vec<(u64, f64)> {
    let seats = hand.seats();
    let stacks = &hand.config().stacks;
    let me = &seats[legal.seat];
    let before = me.contributed - me.street_bet;
    let mut points = vec![lo, hi];
    for (s, other) in seats.iter().enumerate() {
        let cap = stacks[s].saturating_sub(before);
        if s != legal.seat && !other.folded && cap > lo && cap < hi {
            points.push(cap);
        }
    }
    points.sort_unstable();
    points.dedup();
    if points.len() == 1 {
        return vec![(lo, 1.0)];
    }
    // A stretch [a, b] holds b - a + 1 sizes worth (V(a) + V(b)) / 2 each
    // on average; a point between two stretches is counted once.
    let sizes = (hi - lo + 1) as f64;
    let mut weights = vec![0.0; points.len()];
    for k in 0..points.len() - 1 {
        let len = (points[k + 1] - points[k] + 1) as f64;
        weights[k] += len / 2.0;
        weights[k + 1] += len / 2.0;
        if k > 0 {
            weights[k] -= 1.0;
        }
    }
    points
        .into_iter()
        .zip(weights.into_iter().map(|w| w / sizes))
        .collect()
}

/// What the check-down values of a hand are counted with.
struct Values<'a> {
    holes: &'a [[Card; 2]],
    trials: u32,
    rivers: &'a RiverStrengths,
}

/// `V(after taken) − Σ π(a) V(after a)` for every seat.
fn draw_luck(
    hand: &HandState,
    values: &Values<'_>,
    legal: &Legal,
    choices: &[(Choice, f64)],
    taken: Action,
    rng: &mut GameRng,
) -> ([f64; MAX_SEATS], bool) {
    let mut moments: Vec<(Matched, f64)> = vec![(after(hand, legal, taken), 1.0)];
    for &(c, p) in choices {
        match c {
            Choice::Act(a) => moments.push((after(hand, legal, a), -p)),
            Choice::Raise(lo, hi) => {
                for (to, w) in raise_points(hand, legal, lo, hi) {
                    moments.push((after(hand, legal, Action::RaiseTo(to)), -p * w));
                }
            }
        }
    }
    let chips: Vec<Chips<'_>> = moments
        .iter()
        .map(|(m, _)| Chips {
            contributed: &m.chips[..m.seats],
            live: &m.live[..m.seats],
        })
        .collect();
    let (payouts, exact) = expected_payouts(
        values.holes,
        hand.board(),
        &chips,
        values.trials,
        values.rivers,
        rng,
    );
    let mut term = [0.0; MAX_SEATS];
    for ((m, weight), paid) in moments.iter().zip(&payouts) {
        for (s, t) in term.iter_mut().enumerate().take(m.seats) {
            *t += weight * (paid[s] - m.chips[s] as f64);
        }
    }
    (term, exact)
}

#[cfg(test)]
#[path = "action_tests.rs"]
mod tests;
