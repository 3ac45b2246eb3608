//! The luck of the cards, measured so that it can be taken out of a result:
//! the chance correction of AIVAT (Burch, Schmid, Moravčík, Morrill and
//! Bowling, AAAI 2018), for hands whose every card the simulator knows.
//!
//! # The estimator
//! Let `V_s(state)` be what seat `s` could expect if nobody bet again from
//! that state: its expected share of the pots built from the chips put in
//! so far, over every way the rest of the board can fall, minus the chips
//! it put in. Each time cards are dealt (the hole cards, the flop, the turn,
//! the river) the deal moves `V_s` from `V_s(before)` to `V_s(after)`, and
//! over the deal's possible outcomes the mean of `V_s(after)` is exactly
//! `V_s(before)`: the deal is uniform over the cards not yet dealt, and
//! `V_s(before)` is the mean over all completions, which pass through
//! every outcome of the deal equally often. So the sum over a hand's deals
//!
//! ```text
//! chance_s = Σ_deals ( V_s(after) − V_s(before) )
//! ```
//!
//! has mean zero whatever the players do, and `net_s − chance_s` is an
//! unbiased estimate of what seat `s` wins on average, without most of the
//! luck of the cards. Nothing in this relies on `V` being a good model of
//! the players: a poor `V` costs variance, never bias.
//!
//! Exactness: `V` is taken over the undealt cards, so folded hands are dead
//! cards here (unlike [`all_in_equity`](super::equity::allin), which takes
//! an observer's view). Before the hole cards nothing is known, and by
//! symmetry each seat expects `1/k` of each pot it is one of `k` contenders
//! for. Every other value is counted exactly when it has at most `trials`
//! board completions (a flop or later; a heads-up preflop from the exact
//! table), else sampled with `trials` boards: an unbiased estimate of the
//! value, drawn from its own generator, so the correction stays unbiased
//! (its variance grows a little).
//!
//! The chip amounts between the deals are the hand's own: [`deals`]
//! replays the hand's actions through the table engine to find what each
//! seat had put in when each card came.

use arrayvec::ArrayVec;

use super::value::{expected_payouts, Chips, RiverStrengths};
use crate::cards::{Card, CardSet};
use crate::holdem::equity::allin::MAX_SEATS;
use crate::holdem::table::pots::build_pots;
use crate::holdem::table::{Config, HandState, TableError};
use crate::holdem::variant::Game;
use crate::rng::GameRng;

/// A hand the corrections cannot value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CorrectionError {
    #[error("the corrections value Texas hold'em hands only, not {}", .0.name())]
    NotHoldem(Game),
    #[error("the hand does not replay: {0}")]
    Replay(#[from] TableError),
}

/// Per seat, the chips of luck in a hand (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChanceCorrection {
    /// `chance_s`, in chips (0 past the seats of the table).
    pub chips: [f64; MAX_SEATS],
    /// The same by deal: the hole cards, flop, turn and river (0 for deals
    /// that did not happen); they add up to `chips`.
    pub by_deal: [[f64; MAX_SEATS]; 4],
    /// Each seat's expected chips from the pots just after each deal (the
    /// value's first term, before the chips put in are taken off): 0 for
    /// deals that did not happen. The strength features
    /// ([`super::strength`]) weigh these by the seat's bucket.
    pub after: [[f64; MAX_SEATS]; 4],
    /// The chips in (all seats') when each deal came: 0 for deals that did
    /// not happen. Known before the deal, so a deal's part times any
    /// function of these still has mean zero over the deal.
    pub pot: [f64; 4],
    /// Whether every value was counted exactly (else some were sampled).
    pub exact: bool,
}

/// One deal of the hand: the chips each seat had put in, who was still in,
/// and how many board cards there were before and after it (0 and 0 for
/// the hole cards).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    pub contributed: ArrayVec<u64, MAX_SEATS>,
    pub live: ArrayVec<bool, MAX_SEATS>,
    pub board_before: usize,
    pub board_after: usize,
}

impl Deal {
    fn chips(&self) -> Chips<'_> {
        Chips {
            contributed: &self.contributed,
            live: &self.live,
        }
    }
}

/// The deals of a finished simulated hand, in order: the hole cards, then
/// each of flop, turn and river that was dealt.
pub fn deals(hand: &HandState) -> Result<Vec<Deal>, CorrectionError> {
    if hand.config().game != Game::Holdem {
        return Err(CorrectionError::NotHoldem(hand.config().game));
    }
    let n = hand.seats().len();
    let mut replay = HandState::new(hand.config().clone(), &deck_of(hand))?;
    let dealt_after = hand.dealt_after();
    let snapshot = |h: &HandState, before: usize, after: usize| Deal {
        contributed: h.seats().iter().map(|s| s.contributed).collect(),
        live: h.seats().iter().map(|s| !s.folded).collect(),
        board_before: before,
        board_after: after,
    };
    let mut out = vec![snapshot(&replay, 0, 0)];
    let streets = [(0, 3), (3, 4), (4, 5)];
    let history = hand.history();
    for taken in 0..=history.len() {
        for (k, &(before, after)) in streets.iter().enumerate() {
            if dealt_after[k] == Some(taken) {
                out.push(snapshot(&replay, before, after));
            }
        }
        if let Some(&(_, action)) = history.get(taken) {
            replay.apply(action)?;
        }
    }
    debug_assert!(out.iter().all(|d| d.contributed.len() == n));
    Ok(out)
}

/// A deck that deals `hand` again: its hole cards in dealing order, its
/// board, then unused cards for board cards it never dealt.
pub(super) fn deck_of(hand: &HandState) -> Vec<Card> {
    let seats = hand.seats();
    let n = seats.len();
    let Config { button, .. } = *hand.config();
    let mut deck = Vec::with_capacity(2 * n + 5);
    for round in 0..2 {
        for k in 0..n {
            deck.push(seats[(button + 1 + k) % n].hole[round]);
        }
    }
    deck.extend_from_slice(hand.board());
    let used: CardSet = deck.iter().copied().collect();
    let spare = CardSet::FULL52.difference(used);
    deck.extend(spare.iter().take(2 * n + 5 - deck.len()));
    deck
}

/// The chance correction of a finished simulated hand: exact where the
/// completions number at most `trials`, else sampled with `rng`.
pub fn chance_correction(
    hand: &HandState,
    trials: u32,
    rng: &mut GameRng,
) -> Result<ChanceCorrection, CorrectionError> {
    let deals = deals(hand)?;
    let rivers = river_strengths(hand, &deals);
    Ok(chance_of_deals(hand, &deals, trials, &rivers, rng))
}

/// The hole cards of `hand`'s seats, held without allocating.
pub(super) fn holes_of(hand: &HandState) -> ArrayVec<[Card; 2], MAX_SEATS> {
    hand.seats()
        .iter()
        .map(|s| [s.hole[0], s.hole[1]])
        .collect()
}

/// The strengths of every river card on the turn board of a hand whose
/// [`deals`] are `deals`, for the seats live when the turn came (none if
/// it never came): every later count on the turn board is of those seats
/// or fewer.
pub fn river_strengths(hand: &HandState, deals: &[Deal]) -> RiverStrengths {
    match deals.iter().find(|d| d.board_after == 4) {
        Some(turn) => RiverStrengths::new(&holes_of(hand), &hand.board()[..4], &turn.live),
        None => RiverStrengths::none(),
    }
}

/// [`chance_correction`] of a hand whose [`deals`] are `deals`, with its
/// [`river_strengths`] `rivers`.
pub fn chance_of_deals(
    hand: &HandState,
    deals: &[Deal],
    trials: u32,
    rivers: &RiverStrengths,
    rng: &mut GameRng,
) -> ChanceCorrection {
    let holes = holes_of(hand);
    let board = hand.board();
    let mut by_deal = [[0.0; MAX_SEATS]; 4];
    let mut after_deal = [[0.0; MAX_SEATS]; 4];
    let mut exact = true;
    // The hole cards: nothing was known before them.
    let first = &deals[0];
    let pots = build_pots(&first.contributed, &first.live);
    for pot in &pots {
        let each = pot.amount as f64 / pot.eligible.len() as f64;
        for &s in &pot.eligible {
            by_deal[0][s] -= each;
        }
    }
    // After each deal, and before the next one, the cards are the same:
    // one count serves both when the same seats are in.
    let mut pot = [0.0; 4];
    for (k, deal) in deals.iter().enumerate() {
        pot[k] = deal.contributed.iter().sum::<u64>() as f64;
        let after = &board[..deal.board_after];
        let mut moments: ArrayVec<Chips<'_>, 2> = ArrayVec::new();
        moments.push(deal.chips());
        moments.extend(deals.get(k + 1).map(Deal::chips));
        let (values, all_exact) = expected_payouts(&holes, after, &moments, trials, rivers, rng);
        exact &= all_exact;
        after_deal[k] = values[0];
        for s in 0..MAX_SEATS {
            by_deal[k][s] += values[0][s];
            if let Some(next) = values.get(1) {
                by_deal[k + 1][s] -= next[s];
            }
        }
    }
    let mut chips = [0.0; MAX_SEATS];
    for part in &by_deal {
        for (c, p) in chips.iter_mut().zip(part) {
            *c += p;
        }
    }
    ChanceCorrection {
        chips,
        by_deal,
        after: after_deal,
        pot,
        exact,
    }
}

#[cfg(test)]
#[path = "chance_tests.rs"]
pub(super) mod tests;
