//! The slow, obviously correct twins of exact equity, for tests: every deal
//! and every board, each hand evaluated from scratch by a reference
//! evaluator, in floating point. [`Showdowns`] is the part both share (the
//! boards of a deal and the weighted sums); hold'em's deals are walked here
//! and the variants' in [`super::variants::reference_exact`].

use super::query::Prepared;
use super::types::{deck_left, PlayerEquity};
use crate::cards::Card;
use crate::holdem::eval::Strength;

/// The slow, obviously correct exact equity: every deal of hole cards and
/// every board, each showdown evaluated from scratch by the reference
/// evaluator. For tests on small cases.
pub fn reference_exact(p: &Prepared) -> Vec<PlayerEquity> {
    let mut sums = Showdowns::new(p.players());
    let mut stack = Vec::new();
    p.each_deal(0, p.used, 1.0, &mut stack, &mut |deal, w| {
        let deck = deck_left(p.used, deal);
        sums.deal(w, &deck, 5 - p.board.len(), |extra| {
            deal.iter()
                .map(|h| {
                    let mut cards = p.board.clone();
                    cards.extend_from_slice(extra);
                    cards.extend_from_slice(h);
                    crate::holdem::eval::reference::evaluate(&cards)
                })
                .collect()
        });
    });
    sums.equities()
}

/// Weighted sums of pot shares, wins and ties over deals, each deal's
/// boards counted in floating point.
pub(crate) struct Showdowns {
    /// Per player: (share, wins, ties), each a deal's mean over its boards
    /// times the deal's weight.
    totals: Vec<(f64, f64, f64)>,
    weight: f64,
}

impl Showdowns {
    pub(crate) fn new(players: usize) -> Showdowns {
        Showdowns {
            totals: vec![(0.0, 0.0, 0.0); players],
            weight: 0.0,
        }
    }

    /// One deal of weight `w`: every `missing`-card completion of the
    /// board from `deck`, each ranked by `strengths` (one per player).
    pub(crate) fn deal(
        &mut self,
        w: f64,
        deck: &[Card],
        missing: usize,
        mut strengths: impl FnMut(&[Card]) -> Vec<Strength>,
    ) {
        let n = self.totals.len();
        let mut acc = vec![(0.0, 0.0, 0.0); n];
        let mut boards = 0u64;
        each_subset(deck, missing, &mut Vec::new(), &mut |extra| {
            let s = strengths(extra);
            let best = *s.iter().max().unwrap_or(&0);
            let k = s.iter().filter(|&&x| x == best).count();
            for i in 0..n {
                if s[i] == best {
                    acc[i].0 += 1.0 / k as f64;
                    if k == 1 {
                        acc[i].1 += 1.0;
                    } else {
                        acc[i].2 += 1.0;
                    }
                }
            }
            boards += 1;
        });
        for (t, a) in self.totals.iter_mut().zip(&acc) {
            t.0 += w * a.0 / boards as f64;
            t.1 += w * a.1 / boards as f64;
            t.2 += w * a.2 / boards as f64;
        }
        self.weight += w;
    }

    /// Each player's equity, win and tie over the deals' total weight.
    pub(crate) fn equities(self) -> Vec<PlayerEquity> {
        let weight = self.weight;
        self.totals
            .into_iter()
            .map(|(e, w, t)| PlayerEquity {
                equity: e / weight,
                win: w / weight,
                tie: t / weight,
                stderr: None,
            })
            .collect()
    }
}

/// Calls `f` with every `k`-card subset of `deck` (in `pick`), in
/// lexicographic order of positions.
pub(crate) fn each_subset(
    deck: &[Card],
    k: usize,
    pick: &mut Vec<Card>,
    f: &mut dyn FnMut(&[Card]),
) {
    if k == 0 {
        f(pick);
        return;
    }
    for i in 0..deck.len() {
        if deck.len() - i < k {
            break;
        }
        pick.push(deck[i]);
        each_subset(&deck[i + 1..], k - 1, pick, f);
        pick.pop();
    }
}
