//! Random endgames as a runner game: deal K cards each from a shuffled deck,
//! solve, and record the winner, the winning first moves and the nodes.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;

use super::{RuleSet, Side, Solver};
use crate::cards::{format_cards, Card, CardSet};
use crate::rng::GameRng;
use crate::sim::{Game, Metric, Observations, Row};

/// `cardsim solve --random N --cards K`.
#[derive(Clone, Debug)]
pub struct SolveGame {
    pub rules: RuleSet,
    /// Cards per hand (1 to 13).
    pub cards: usize,
    /// Transposition table size per worker, as a power of two of slots.
    pub table_bits: u32,
}

/// One solved deal.
pub struct SolvedDeal {
    pub a: CardSet,
    pub b: CardSet,
    pub winner: Side,
    /// A's winning first plays (empty when B wins).
    pub winning: Vec<CardSet>,
    pub nodes: u64,
}

impl Game for SolveGame {
    type Record = SolvedDeal;
    type Scratch = (Vec<Card>, Solver);

    fn name(&self) -> &'static str {
        "solve"
    }

    fn options(&self) -> BTreeMap<String, String> {
        BTreeMap::from([
            ("rules".to_string(), self.rules.name().to_string()),
            ("cards".to_string(), self.cards.to_string()),
            ("table_bits".to_string(), self.table_bits.to_string()),
        ])
    }

    fn columns(&self) -> Vec<String> {
        ["hand_a", "hand_b", "winner", "winning_first_moves", "nodes"]
            .map(String::from)
            .to_vec()
    }

    fn metrics(&self) -> Vec<Metric> {
        vec![
            Metric::proportion("a_wins"),
            Metric::integer("winning_first_moves"),
            Metric::integer("nodes"),
        ]
    }

    fn new_scratch(&self) -> (Vec<Card>, Solver) {
        (
            Vec::with_capacity(52),
            Solver::new(self.rules, self.table_bits),
        )
    }

    fn play(&self, _index: u64, rng: &mut GameRng, scratch: &mut Self::Scratch) -> SolvedDeal {
        let (deck, solver) = scratch;
        deck.clear();
        deck.extend((0..52).map(Card::from_index));
        deck.shuffle(rng);
        let a: CardSet = deck[..self.cards].iter().copied().collect();
        let b: CardSet = deck[self.cards..2 * self.cards].iter().copied().collect();
        // A fresh table per deal: node counts must not depend on which deals
        // this worker solved before (the CSV is the same for any threads).
        solver.reset();
        let winning: Vec<CardSet> = solver
            .winning_first_moves(a, b)
            .iter()
            .map(|p| p.cards)
            .collect();
        let winner = if winning.is_empty() { Side::B } else { Side::A };
        SolvedDeal {
            a,
            b,
            winner,
            winning,
            nodes: solver.nodes,
        }
    }

    fn write_row(&self, r: &SolvedDeal, row: &mut Row<'_>) {
        row.text(&format_cards(&r.a.to_vec()));
        row.text(&format_cards(&r.b.to_vec()));
        row.text(r.winner.name());
        let moves: Vec<String> = r
            .winning
            .iter()
            .map(|m| format_cards(&m.to_vec()))
            .collect();
        row.text(&moves.join("|"));
        row.int(r.nodes);
    }

    fn observe(&self, r: &SolvedDeal, obs: &mut Observations) {
        obs.set(0, f64::from(u8::from(r.winner == Side::A)));
        obs.set(1, r.winning.len() as f64);
        obs.set(2, r.nodes as f64);
    }
}
