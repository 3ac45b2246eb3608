//! The two-player shedding endgame solver (seed 003, RULES.md §4): who wins
//! with perfect play when both hands are known, every winning first move,
//! and the solution tree.
//!
//! The search is an AND-OR negamax: a position (my hand, your hand, the play
//! to beat) is won if some play empties my hand or leaves you a lost
//! position. Three things keep it fast and exact:
//! - a transposition table keyed by both hands, the play to beat and (by
//!   construction) the side to move, so each position is solved once;
//! - reductions that change no answer: under `pairs` suits never matter,
//!   so hands are keyed by rank counts and one play per rank is tried;
//! - move ordering: a play that empties the hand first, then bigger plays.
//!
//! Memory is bounded: the table has a fixed number of slots and a new entry
//! overwrites an old one. An entry is only ever a proven result for the
//! exact position it stores (the whole key is kept), so a full table costs
//! time, never a wrong answer.

pub mod game;
pub mod reference;
pub mod rules;
pub mod tree;

use crate::cards::CardSet;
use crate::tienlen::moves::MoveGen;
pub use rules::{beats, classify, describe, plays, plays_with, Kind, Play, RuleSet};

/// Which side wins with perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::A => "A",
            Side::B => "B",
        }
    }

    /// The other player.
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

/// One transposition-table slot.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: (u64, u64),
    /// Generation (bits 1..) and result (bit 0); generation 0 is empty.
    tag: u32,
}

/// The search, with its table. Reuse one solver for many positions of the
/// same rule set; [`Solver::reset`] forgets the table in O(1).
pub struct Solver {
    rules: RuleSet,
    table: Vec<Entry>,
    generation: u32,
    /// Positions searched since the last reset (nodes).
    pub nodes: u64,
    /// Move lists, one per search depth, reused.
    buffers: Vec<Vec<Play>>,
    /// The Tiến lên move generator's buffers, reused.
    gen: MoveGen,
}

/// The largest transposition table: 2^26 slots of 24 bytes (1.5 GB).
pub const MAX_TABLE_BITS: u32 = 26;

impl Solver {
    /// A solver with a table of `2^table_bits` slots (24 bytes each), at
    /// most [`MAX_TABLE_BITS`].
    ///
    /// # Panics
    /// When the table cannot be allocated; [`Solver::try_new`] reports it.
    pub fn new(rules: RuleSet, table_bits: u32) -> Solver {
        Solver::try_new(rules, table_bits).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A solver with a table of `2^table_bits` slots, or a one-line error
    /// when the table is larger than [`MAX_TABLE_BITS`] allows or the
    /// memory cannot be had.
    pub fn try_new(rules: RuleSet, table_bits: u32) -> Result<Solver, String> {
        if table_bits > MAX_TABLE_BITS {
            return Err(format!(
                "a table of 2^{table_bits} slots is larger than the maximum 2^{MAX_TABLE_BITS}"
            ));
        }
        let slots = 1usize << table_bits;
        let mut table = Vec::new();
        table.try_reserve_exact(slots).map_err(|_| {
            format!(
                "cannot allocate the table of 2^{table_bits} slots ({} MB): give a smaller \
                 --table-bits",
                (slots * std::mem::size_of::<Entry>()) >> 20
            )
        })?;
        table.resize(slots, Entry::default());
        Ok(Solver {
            rules,
            table,
            generation: 1,
            nodes: 0,
            buffers: Vec::new(),
            gen: MoveGen::default(),
        })
    }

    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Bytes the table takes.
    pub fn table_bytes(&self) -> usize {
        self.table.len() * std::mem::size_of::<Entry>()
    }

    /// Forgets every stored result (so node counts do not depend on what was
    /// solved before) and zeroes the node count.
    pub fn reset(&mut self) {
        self.generation = self.generation.wrapping_add(1).max(1);
        if self.generation >= (1 << 31) {
            self.table.iter_mut().for_each(|e| *e = Entry::default());
            self.generation = 1;
        }
        self.nodes = 0;
    }

    /// Whether A, to play first (a lead), wins against B.
    pub fn winner(&mut self, a: CardSet, b: CardSet) -> Side {
        if self.wins(a, b, None, 0) {
            Side::A
        } else {
            Side::B
        }
    }

    /// Every first play of A that wins (empty when B wins).
    pub fn winning_first_moves(&mut self, a: CardSet, b: CardSet) -> Vec<Play> {
        let mut moves = Vec::new();
        plays(self.rules, a, None, &mut moves);
        moves
            .into_iter()
            .filter(|p| {
                let rest = a.difference(p.cards);
                rest.is_empty() || !self.wins(b, rest, Some(*p), 1)
            })
            .collect()
    }

    /// Whether the side to move, holding `me` against `you`, wins when the
    /// play to beat is `last` (`None`: it leads).
    pub fn wins(&mut self, me: CardSet, you: CardSet, last: Option<Play>, depth: usize) -> bool {
        self.nodes += 1;
        let key = self.key(me, you, last.as_ref());
        let slot = self.slot(key);
        let e = self.table[slot];
        if e.tag >> 1 == self.generation && e.key == key {
            return e.tag & 1 == 1;
        }
        while self.buffers.len() <= depth {
            self.buffers.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        plays_with(self.rules, me, last.as_ref(), &mut self.gen, &mut moves);
        let win = if moves.iter().any(|p| p.cards == me) {
            true
        } else {
            // Bigger plays first: they shed more and end lines sooner.
            moves.sort_by_key(|p| (std::cmp::Reverse(p.cards.len()), p.top));
            let mut win = false;
            for p in &moves {
                if !self.wins(you, me.difference(p.cards), Some(*p), depth + 1) {
                    win = true;
                    break;
                }
            }
            // Passing gives the lead to the other side (never on a lead).
            win || (last.is_some() && !self.wins(you, me, None, depth + 1))
        };
        self.buffers[depth] = moves;
        self.table[slot] = Entry {
            key,
            tag: self.generation << 1 | u32::from(win),
        };
        win
    }

    /// The position's key: both hands (rank counts under `pairs`, where
    /// suits do not matter) and the play to beat.
    fn key(&self, me: CardSet, you: CardSet, last: Option<&Play>) -> (u64, u64) {
        let last_code = last.map_or(0, |p| {
            (1 + p.kind as u64) | (u64::from(p.len) << 3) | (u64::from(p.top) << 7)
        });
        match self.rules {
            RuleSet::Pairs => pairs_key(me, you, last),
            // 52 bits per hand, 13 bits of the last play split across both.
            RuleSet::TienLen => (
                me.0 | (last_code & 0xfff) << 52,
                you.0 | (last_code >> 12) << 52,
            ),
        }
    }

    fn slot(&self, key: (u64, u64)) -> usize {
        let h = crate::rng::mix64(key.0 ^ crate::rng::mix64(key.1));
        (h as usize) & (self.table.len() - 1)
    }
}

/// The key of a `pairs` position, reduced so that positions with the same
/// answer share it: suits are dropped (rank counts, 3 bits a rank), and ranks
/// that neither hand holds are squeezed out, since only the order of ranks
/// matters. The play to beat becomes its kind and a threshold: how many of
/// the remaining ranks it beats (a play of compressed rank r beats it iff
/// r >= threshold).
fn pairs_key(me: CardSet, you: CardSet, last: Option<&Play>) -> (u64, u64) {
    let mut counts = [[0u64; 13]; 2];
    for (side, hand) in [me, you].into_iter().enumerate() {
        for c in hand.iter() {
            counts[side][(c.index() >> 2) as usize] += 1;
        }
    }
    let (mut a, mut b, mut present) = (0u64, 0u64, 0u32);
    let mut threshold = 0u64;
    for (r, (&ca, &cb)) in counts[0].iter().zip(&counts[1]).enumerate() {
        if ca + cb == 0 {
            continue;
        }
        a |= ca << (3 * present);
        b |= cb << (3 * present);
        present += 1;
        if last.is_some_and(|p| u32::from(p.top) >= r as u32) {
            threshold += 1;
        }
    }
    let last_code = last.map_or(0, |p| (1 + p.kind as u64) | (threshold << 3));
    (a | last_code << 40, b)
}

/// Parses a hand for the solver: up to 13 distinct cards, at least one.
pub fn parse_hand(text: &str) -> Result<CardSet, String> {
    let cards = crate::cards::parse_cards(text).map_err(|e| e.to_string())?;
    if cards.is_empty() {
        return Err("a hand is empty: give each player 1 to 13 cards".into());
    }
    if cards.len() > 13 {
        return Err(format!(
            "a hand has {} cards: at most 13 (a Tiến lên hand)",
            cards.len()
        ));
    }
    Ok(cards.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(s: &str) -> CardSet {
        parse_hand(s).unwrap()
    }

    #[test]
    fn the_seed_example_a_wins_by_leading_4h() {
        let (a, b) = (hand("9H 6H 6D 4H 3S"), hand("8S 8H"));
        let mut s = Solver::new(RuleSet::Pairs, 16);
        assert_eq!(s.winner(a, b), Side::A);
        let firsts: Vec<String> = s.winning_first_moves(a, b).iter().map(describe).collect();
        assert!(firsts.contains(&"Single [4h]".to_string()), "{firsts:?}");
        // Leading the pair of sixes (a legal lead) loses: B beats it with
        // 8 8 and is out.
        let mut leads = Vec::new();
        plays(RuleSet::Pairs, a, None, &mut leads);
        assert!(leads.iter().any(|p| describe(p) == "Double [6h,6d]"));
        assert!(
            !firsts.contains(&"Double [6h,6d]".to_string()),
            "{firsts:?}"
        );
    }

    #[test]
    fn simple_endgames() {
        let mut s = Solver::new(RuleSet::Pairs, 12);
        // One card each: the leader plays and is out.
        assert_eq!(s.winner(hand("2c"), hand("As")), Side::A);
        // Whatever A leads, B beats it with an ace, A cannot answer, and B
        // leads the other ace.
        assert_eq!(s.winner(hand("3c 4d"), hand("As Ah")), Side::B);
    }

    #[test]
    fn a_tiny_table_gives_the_same_answers() {
        let mut big = Solver::new(RuleSet::TienLen, 18);
        let mut tiny = Solver::new(RuleSet::TienLen, 2);
        let (a, b) = (hand("3h 4h 5h 9c 9d Ks"), hand("6s 7s 8s 2h Jd Jc"));
        assert_eq!(big.winner(a, b), tiny.winner(a, b));
        assert_eq!(
            big.winning_first_moves(a, b),
            tiny.winning_first_moves(a, b)
        );
    }
}
