//! What one seat may see of a hand: everything public (stacks, bets, the
//! board, the actions) and its own hole cards, never another seat's. Agents
//! decide from a [`View`] only, so no agent can cheat by construction.

use super::{Action, HandState, Legal, Street};
use crate::cards::Card;

/// The hand as the seat to act sees it.
#[derive(Clone, Copy)]
pub struct View<'a> {
    hand: &'a HandState,
    seat: usize,
}

impl<'a> View<'a> {
    pub(super) fn new(hand: &'a HandState, seat: usize) -> View<'a> {
        View { hand, seat }
    }

    /// The seat this view belongs to (the one to act).
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// This seat's first two hole cards: all of them in hold'em and short
    /// deck ([`View::hole_cards`] has every one, for Omaha).
    pub fn hole(&self) -> [Card; 2] {
        let hole = &self.hand.seats[self.seat].hole;
        [hole[0], hole[1]]
    }

    /// This seat's own hole cards (2, or 4 to 6 in Omaha).
    pub fn hole_cards(&self) -> &'a [Card] {
        &self.hand.seats[self.seat].hole
    }

    /// The game dealt.
    pub fn game(&self) -> crate::holdem::variant::Game {
        self.hand.config.game
    }

    pub fn board(&self) -> &'a [Card] {
        self.hand.board()
    }

    pub fn street(&self) -> Street {
        self.hand.street
    }

    /// The legal actions of this seat.
    pub fn legal(&self) -> Legal {
        self.hand
            .legal()
            .expect("a view exists only while a seat is to act")
    }

    pub fn seats(&self) -> usize {
        self.hand.seats.len()
    }

    pub fn button(&self) -> usize {
        self.hand.config.button
    }

    pub fn big_blind(&self) -> u64 {
        self.hand.config.big_blind
    }

    /// Chips behind of seat `s`.
    pub fn stack(&self, s: usize) -> u64 {
        self.hand.seats[s].stack
    }

    /// Chips seat `s` has in front of it on this street.
    pub fn street_bet(&self, s: usize) -> u64 {
        self.hand.seats[s].street_bet
    }

    pub fn folded(&self, s: usize) -> bool {
        self.hand.seats[s].folded
    }

    /// Every chip put in this hand so far (bets on this street included).
    pub fn pot(&self) -> u64 {
        self.hand.seats.iter().map(|s| s.contributed).sum()
    }

    /// The bet to match on this street.
    pub fn current_bet(&self) -> u64 {
        self.hand.current_bet
    }

    /// Seats still in the hand (not folded), this one included.
    pub fn live(&self) -> usize {
        self.hand.live_count()
    }

    /// Every action so far, public to all.
    pub fn history(&self) -> &'a [(usize, Action)] {
        &self.hand.history
    }

    /// The seat that raised last before the flop, if anyone did.
    pub fn preflop_aggressor(&self) -> Option<usize> {
        let preflop = self.hand.dealt_after()[0].unwrap_or(self.hand.history.len());
        self.hand.history[..preflop]
            .iter()
            .rev()
            .find(|(_, a)| matches!(a, Action::RaiseTo(_)))
            .map(|&(seat, _)| seat)
    }

    /// Whether anyone raised on this street (preflop: above the big blind).
    pub fn raised(&self) -> bool {
        match self.hand.street {
            Street::Preflop => self.hand.current_bet > self.hand.config.big_blind,
            _ => self.hand.current_bet > 0,
        }
    }

    /// The most chips this seat could still lose in the hand from here: the
    /// smaller of its stack and the largest live opponent's, street bets
    /// included (for push-or-fold charts).
    pub fn effective_stack(&self) -> u64 {
        let me = &self.hand.seats[self.seat];
        let others = self
            .hand
            .seats
            .iter()
            .enumerate()
            .filter(|&(i, s)| i != self.seat && !s.folded)
            .map(|(_, s)| s.stack + s.street_bet)
            .max()
            .unwrap_or(0);
        (me.stack + me.street_bet).min(others)
    }
}
