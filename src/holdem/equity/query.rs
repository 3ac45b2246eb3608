//! The question, checked: impossible requests refused, each range pruned
//! of the combinations that cannot be dealt, and the walk over every valid
//! deal of hole cards that the exact answers build on.

use super::feasible;
use super::range::{Combo, Range};
use super::types::{binomial, pair_set, EquityError, MAX_PLAYERS};
use crate::cards::{Card, CardSet};

/// One equity question.
#[derive(Clone, Debug)]
pub struct Query {
    pub ranges: Vec<Range>,
    pub board: Vec<Card>,
    pub dead: CardSet,
}

/// A checked query: ranges without conflicting combinations.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub(super) ranges: Vec<Range>,
    pub(super) board: Vec<Card>,
    /// Board and dead cards.
    pub(super) used: CardSet,
    pub(super) dead: CardSet,
}

impl Query {
    /// Checks the query and removes the combinations that cannot be dealt.
    pub fn prepare(&self) -> Result<Prepared, EquityError> {
        let n = self.ranges.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(EquityError::PlayerCount(n));
        }
        if !matches!(self.board.len(), 0 | 3 | 4 | 5) {
            return Err(EquityError::BoardSize(self.board.len()));
        }
        let mut used = self.dead;
        for &c in &self.board {
            if used.contains(c) {
                return Err(EquityError::CardTwice(c.to_string()));
            }
            used.insert(c);
        }
        // Exact hands must not collide with each other or with the board.
        let mut fixed = used;
        for r in &self.ranges {
            if let Some(hand) = r.exact_hand() {
                for c in hand {
                    if fixed.contains(c) {
                        return Err(EquityError::CardTwice(c.to_string()));
                    }
                    fixed.insert(c);
                }
            }
        }
        if 2 * n + 5 + self.dead.len() as usize > 52 {
            return Err(EquityError::DeckTooSmall {
                players: n,
                board: self.board.len(),
                dead: self.dead.len() as usize,
            });
        }
        let mut ranges = Vec::with_capacity(n);
        for (i, r) in self.ranges.iter().enumerate() {
            let own = r
                .exact_hand()
                .map_or(CardSet::EMPTY, |h| h.into_iter().collect());
            let pruned = r.without(fixed.difference(own));
            if pruned.combos.is_empty() {
                return Err(EquityError::EmptyRange {
                    player: i + 1,
                    range: crate::text::quote(&r.text),
                });
            }
            ranges.push(pruned);
        }
        let prepared = Prepared {
            ranges,
            board: self.board.clone(),
            used,
            dead: self.dead,
        };
        if !feasible::any_deal(&prepared.combo_masks()) {
            return Err(EquityError::NoDeal);
        }
        Ok(prepared)
    }
}

impl Prepared {
    pub fn players(&self) -> usize {
        self.ranges.len()
    }

    /// Board completions per deal of hole cards.
    pub fn boards(&self) -> u64 {
        let left = 52 - self.used.len() as u64 - 2 * self.players() as u64;
        binomial(left, 5 - self.board.len() as u64)
    }

    /// An upper bound on the combinations of hole cards (the product of the
    /// range sizes), saturating.
    pub fn combination_bound(&self) -> u64 {
        self.ranges
            .iter()
            .fold(1u64, |p, r| p.saturating_mul(r.combos.len() as u64))
    }

    /// Each player's combinations as 52-bit card masks, in range order.
    pub(super) fn combo_masks(&self) -> Vec<Vec<u64>> {
        self.ranges
            .iter()
            .map(|r| r.combos.iter().map(|w| pair_set(w.cards).0).collect())
            .collect()
    }

    pub(super) fn each_deal(
        &self,
        player: usize,
        used: CardSet,
        weight: f64,
        stack: &mut Vec<Combo>,
        f: &mut dyn FnMut(&[Combo], f64),
    ) {
        if player == self.players() {
            f(stack, weight);
            return;
        }
        for w in &self.ranges[player].combos {
            if used.contains(w.cards[0]) || used.contains(w.cards[1]) {
                continue;
            }
            stack.push(w.cards);
            self.each_deal(
                player + 1,
                used.union(pair_set(w.cards)),
                weight * w.weight,
                stack,
                f,
            );
            stack.pop();
        }
    }
}
