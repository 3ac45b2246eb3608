//! The check-down value both corrections use: what each seat could expect
//! from the pots if nobody bet again, over every way the rest of the board
//! can fall, with folded hands as dead cards (the simulator knows them, and
//! the deck deals the board from what is left).

use arrayvec::ArrayVec;

use crate::cards::{Card, CardSet};
use crate::holdem::equity::allin::{pot_shares, pot_shares_of_strengths, MAX_SEATS};
use crate::holdem::eval::{Hand, Strength};
use crate::holdem::table::pots::{push_pots, Pots};
use crate::rng::GameRng;

/// A moment to value: the chips each seat has put in, and who is still in.
#[derive(Clone, Copy, Debug)]
pub struct Chips<'a> {
    pub contributed: &'a [u64],
    pub live: &'a [bool],
}

/// Most river cards a turn board can have: 52 less 2 hole cards and 4
/// board cards.
const RIVERS: usize = 46;

/// Each seat's strength with each river card of a hand's turn board, for
/// the seats live when the turn came. A hand that reaches the turn counts
/// the same 7-card hands several times: the check-down value at the turn
/// (the chance correction's, and the action correction's at each drawn
/// decision of the turn) counts every river card, and so do the river's
/// tendency means ([`super::strength`]). Looked up once here, they serve
/// every count (the counts sum whole units or add in the same order, so
/// the values are the same to the bit).
#[derive(Clone, Debug)]
pub struct RiverStrengths {
    holes: ArrayVec<[Card; 2], MAX_SEATS>,
    /// The turn board, or empty when there is none.
    board: ArrayVec<Card, 4>,
    /// The seats counted.
    live: ArrayVec<bool, MAX_SEATS>,
    /// The river cards: neither a hole card nor on the board, in order.
    cards: ArrayVec<Card, RIVERS>,
    /// Per river card, each counted seat's strength (0 for the others).
    strength: ArrayVec<[Strength; MAX_SEATS], RIVERS>,
}

impl RiverStrengths {
    /// No turn board: serves no count.
    pub fn none() -> RiverStrengths {
        RiverStrengths {
            holes: ArrayVec::new(),
            board: ArrayVec::new(),
            live: ArrayVec::new(),
            cards: ArrayVec::new(),
            strength: ArrayVec::new(),
        }
    }

    /// The strengths of the seats `live` (with hole cards `holes`) on the
    /// turn board `board` (4 cards) with every river card.
    pub fn new(holes: &[[Card; 2]], board: &[Card], live: &[bool]) -> RiverStrengths {
        debug_assert_eq!(board.len(), 4);
        let mut known: CardSet = holes.iter().flatten().copied().collect();
        known = known.union(board.iter().copied().collect());
        let cards: ArrayVec<Card, RIVERS> = CardSet::FULL52.difference(known).iter().collect();
        let base = Hand::from_cards(board);
        let mut hands = [Hand::EMPTY; MAX_SEATS];
        for (s, h) in holes.iter().enumerate().filter(|&(s, _)| live[s]) {
            hands[s] = base.combine(Hand::from_cards(h));
        }
        let strength = cards
            .iter()
            .map(|&river| {
                let mut row = [0; MAX_SEATS];
                for (s, r) in row.iter_mut().enumerate().take(holes.len()) {
                    if live[s] {
                        *r = hands[s].with(river).strength();
                    }
                }
                row
            })
            .collect();
        RiverStrengths {
            holes: holes.iter().copied().collect(),
            board: board.iter().copied().collect(),
            live: live.iter().copied().collect(),
            cards,
            strength,
        }
    }

    /// The river cards and the strengths with each, if these are the
    /// hand's `holes` on the turn board `board` and every seat of `live`
    /// was counted.
    pub fn of(
        &self,
        holes: &[[Card; 2]],
        board: &[Card],
        live: &[bool],
    ) -> Option<(&[Card], &[[Strength; MAX_SEATS]])> {
        let counted =
            live.len() == self.live.len() && live.iter().zip(&self.live).all(|(&l, &c)| c || !l);
        (counted && board == self.board.as_slice() && holes == self.holes.as_slice())
            .then_some((&self.cards, &self.strength))
    }
}

/// Each seat's expected chips from the pots (not minus what it put in),
/// for every moment in `moments`, all with the cards `holes` and `board`:
/// exact when the board has at most `trials` completions, else sampled
/// with `rng`. Moments with the same live seats share one count of the
/// completions, and a count of the river cards on a turn board takes the
/// strengths from `rivers` when it holds them. Also says whether every
/// count was exact.
pub fn expected_payouts(
    holes: &[[Card; 2]],
    board: &[Card],
    moments: &[Chips<'_>],
    trials: u32,
    rivers: &RiverStrengths,
    rng: &mut GameRng,
) -> (Vec<[f64; MAX_SEATS]>, bool) {
    let mut out = vec![[0.0; MAX_SEATS]; moments.len()];
    let mut exact = true;
    let mut done = vec![false; moments.len()];
    for i in 0..moments.len() {
        if done[i] {
            continue;
        }
        let live = moments[i].live;
        if live.iter().filter(|&&l| l).count() == 1 {
            // One seat left: every pot is its own.
            let winner = live.iter().position(|&l| l).unwrap_or(0);
            for (j, m) in moments.iter().enumerate().skip(i) {
                if !done[j] && m.live == live {
                    out[j][winner] = m.contributed.iter().sum::<u64>() as f64;
                    done[j] = true;
                }
            }
            continue;
        }
        // Every moment with these live seats, while the pots fit one count.
        let mut pots = Pots::new();
        let mut owner: ArrayVec<usize, MAX_SEATS> = ArrayVec::new();
        for (j, m) in moments.iter().enumerate().skip(i) {
            if done[j] || m.live != live {
                continue;
            }
            let Some(added) = push_pots(m.contributed, m.live, &mut pots) else {
                continue;
            };
            owner.extend(std::iter::repeat_n(j, added));
            done[j] = true;
        }
        let shares = match rivers.of(holes, board, live) {
            // Every river card, when they are few enough to count.
            Some((cards, strength)) if cards.len() <= trials as usize => {
                pot_shares_of_strengths(live, &pots, strength)
            }
            _ => {
                let dead: CardSet = holes
                    .iter()
                    .zip(live)
                    .filter(|&(_, &l)| !l)
                    .flat_map(|(h, _)| *h)
                    .collect();
                pot_shares(holes, live, dead, board, &pots, trials, rng)
            }
        };
        exact &= shares.exact;
        for (p, (pot, &j)) in pots.iter().zip(&owner).enumerate() {
            for &s in &pot.eligible {
                out[j][s] += pot.amount as f64 * shares.share[p][s];
            }
        }
    }
    (out, exact)
}

#[cfg(test)]
#[path = "value_tests.rs"]
mod tests;
