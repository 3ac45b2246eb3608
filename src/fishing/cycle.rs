//! Exact cycle detection: Brent's algorithm over the states just after
//! each capture (an endless game captures infinitely often, so it cycles
//! exactly when that subsequence does), and the entry point of a cycle
//! found by replaying two copies of the deal, one a period ahead.

use super::rules::MAX_CARDS;
use super::table::Table;

/// Brent's cycle finder over post-capture states: the saved state
/// (`tortoise`), the steps since it was saved (`lam`) and the power of two at
/// which it is replaced next.
pub(super) struct Brent {
    tortoise: Vec<u8>,
    tortoise_key: u64,
    tortoise_cards: u64,
    power: u64,
    lam: u64,
    scratch: Vec<u8>,
}

impl Brent {
    pub(super) fn new(start: &Table) -> Brent {
        let mut tortoise = Vec::with_capacity(MAX_CARDS + 16);
        start.encode(&mut tortoise);
        Brent {
            tortoise,
            tortoise_key: start.quick_key(),
            tortoise_cards: 0,
            power: 1,
            lam: 1,
            scratch: Vec::with_capacity(MAX_CARDS + 16),
        }
    }

    /// Sees the next post-capture state; returns the period in cards when it
    /// equals the saved one.
    #[inline]
    pub(super) fn see(&mut self, table: &Table, cards: u64) -> Option<u64> {
        let key = table.quick_key();
        if key == self.tortoise_key {
            table.encode(&mut self.scratch);
            if self.scratch == self.tortoise {
                return Some(cards - self.tortoise_cards);
            }
        }
        if self.power == self.lam {
            table.encode(&mut self.tortoise);
            self.tortoise_key = key;
            self.tortoise_cards = cards;
            self.power *= 2;
            self.lam = 0;
        }
        self.lam += 1;
        None
    }
}

/// The first card index from which the game repeats with period `length`:
/// replay two copies, one `length` cards ahead, until their states meet.
pub(super) fn cycle_entry(start: &Table, length: u64) -> u64 {
    let mut behind = start.clone();
    let mut ahead = start.clone();
    for _ in 0..length {
        ahead.step();
    }
    let mut mu = 0;
    while !behind.same_state(&ahead) {
        behind.step();
        ahead.step();
        mu += 1;
    }
    mu
}
