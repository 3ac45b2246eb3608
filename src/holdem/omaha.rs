//! Omaha hand strength: the best five cards made of exactly two of the
//! 4, 5 or 6 hole cards (PLO4, PLO5, PLO6) and exactly three of the 3 to 5
//! board cards, on the hold'em scale ([`Strength`], 1 to 7462).
//!
//! A five-card hand is a flush or it is worth its rank multiset alone, and
//! a hold'em rank key is a sum over cards. So the board is prepared once
//! ([`Board`]): the rank key of each of its (at most ten) triples, and,
//! when three or more of its cards share a suit (one suit at most), that
//! suit's triples as rank masks. A hand ([`Hole`]) is the rank key of each
//! of its pairs and its rank mask in each suit. Its strength is the best of
//! one hold'em lookup per pair and triple (a key sum read in the 5- and
//! 6-card table, [`Tables::fewer_rank_strength`]: 60 for PLO4), and, only
//! when the board has a suit of three and the hand two cards of it, the
//! flush table read for each suited pair and suited triple. A suited
//! five's rank lookup gives less than its flush (a flush beats any
//! straight or high card of the same ranks), so taking the best of both
//! needs no flush test per combination.
//!
//! [`reference::evaluate`] is the slow twin: the hold'em reference
//! evaluator on every one of the C(h,2) x C(b,3) five-card hands.
//! [`evaluate_plain`] is the same enumeration with the fast hold'em
//! evaluator, the baseline the benchmarks compare with.

use thiserror::Error;

use crate::cards::{Card, CardSet};
use crate::holdem::eval::{rank_unit, tables, Hand, Strength, Tables};

/// Fewest and most hole cards (PLO4 to PLO6).
pub const MIN_HOLE: usize = 4;
pub const MAX_HOLE: usize = 6;
/// Pairs of the largest hand: C(6, 2).
const MAX_PAIRS: usize = 15;
/// Triples of a full board: C(5, 3).
const TRIPLES: usize = 10;

/// Why an Omaha hand cannot be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OmahaError {
    #[error("an Omaha hand has {MIN_HOLE} to {MAX_HOLE} hole cards, got {0}")]
    HoleCount(usize),
    #[error("an Omaha board has 3 to 5 cards, got {0}")]
    BoardCount(usize),
    #[error("card {0} is used twice")]
    CardTwice(String),
}

/// Checks the counts and that no card is used twice.
pub fn check(hole: &[Card], board: &[Card]) -> Result<(), OmahaError> {
    if !(MIN_HOLE..=MAX_HOLE).contains(&hole.len()) {
        return Err(OmahaError::HoleCount(hole.len()));
    }
    if !(3..=5).contains(&board.len()) {
        return Err(OmahaError::BoardCount(board.len()));
    }
    let mut seen = CardSet::EMPTY;
    for &c in hole.iter().chain(board) {
        if seen.contains(c) || c.is_joker() {
            return Err(OmahaError::CardTwice(c.to_string()));
        }
        seen.insert(c);
    }
    Ok(())
}

/// The Omaha strength of `hole` (4 to 6 cards) on `board` (3 to 5), on
/// the hold'em scale.
pub fn evaluate(hole: &[Card], board: &[Card]) -> Result<Strength, OmahaError> {
    check(hole, board)?;
    Ok(Board::new(board).strength(&Hole::new(hole)))
}

/// A hand prepared for [`Board::strength`]: its pairs' rank keys and its
/// rank mask in each suit.
#[derive(Clone, Copy, Debug)]
pub struct Hole {
    pairs: [u32; MAX_PAIRS],
    n_pairs: usize,
    suits: [u16; 4],
}

impl Hole {
    /// 2 to 6 distinct cards (unchecked; see [`check`]).
    pub fn new(cards: &[Card]) -> Hole {
        debug_assert!((2..=MAX_HOLE).contains(&cards.len()));
        let mut h = Hole {
            pairs: [0; MAX_PAIRS],
            n_pairs: 0,
            suits: [0; 4],
        };
        for (i, a) in cards.iter().enumerate() {
            h.suits[a.suit().index() as usize] |= 1 << a.rank().index();
            for b in &cards[i + 1..] {
                h.pairs[h.n_pairs] = unit(*a) + unit(*b);
                h.n_pairs += 1;
            }
        }
        h
    }
}

impl Hole {
    /// The best five of one of this hand's pairs and three board cards:
    /// their rank key `key` and, when the three share a suit, that suit
    /// and their rank mask (`flush`).
    #[inline]
    pub fn best_with_triple(&self, t: &Tables, key: u32, flush: Option<(usize, u16)>) -> Strength {
        let mut best = 0;
        for &p in &self.pairs[..self.n_pairs] {
            best = best.max(t.fewer_rank_strength(p + key));
        }
        if let Some((suit, m)) = flush {
            for_each_pair(self.suits[suit], |pair| {
                best = best.max(t.flush_strength(pair | m));
            });
        }
        best
    }
}

/// Calls `f` with the rank mask of every two ranks of the mask `h`.
#[inline]
fn for_each_pair(h: u16, mut f: impl FnMut(u16)) {
    let mut a = h;
    while a != 0 {
        let x = a & a.wrapping_neg();
        a &= a - 1;
        let mut b = a;
        while b != 0 {
            f(x | (b & b.wrapping_neg()));
            b &= b - 1;
        }
    }
}

/// What a card adds to a hand's rank key: a hold'em rank key is the sum
/// of its cards' units.
#[inline(always)]
fn unit(c: Card) -> u32 {
    rank_unit(c.rank().index())
}

/// A board prepared for [`Board::strength`].
#[derive(Clone, Copy, Debug)]
pub struct Board {
    /// Every triple's rank key; a board of 3 or 4 cards repeats its first
    /// triple in the unused entries (harmless for a maximum), so the loop
    /// has a fixed length.
    triples: [u32; TRIPLES],
    flush: Option<SuitedTriples>,
}

/// The triples of the board's one suit of three or more cards.
#[derive(Clone, Copy, Debug)]
struct SuitedTriples {
    suit: usize,
    masks: [u16; TRIPLES],
    n: usize,
}

impl Board {
    /// 3 to 5 distinct cards (unchecked; see [`check`]).
    pub fn new(cards: &[Card]) -> Board {
        debug_assert!((3..=5).contains(&cards.len()));
        let n = cards.len();
        let mut units = [0u32; 5];
        let mut by_suit = [0u16; 4];
        for (u, &c) in units.iter_mut().zip(cards) {
            *u = unit(c);
            by_suit[c.suit().index() as usize] |= 1 << c.rank().index();
        }
        let mut triples = [0; TRIPLES];
        let mut k = 0;
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    triples[k] = units[a] + units[b] + units[c];
                    k += 1;
                }
            }
        }
        for i in k..TRIPLES {
            triples[i] = triples[0];
        }
        let flush = (0..4).find(|&s| by_suit[s].count_ones() >= 3).map(|suit| {
            // The suit's cards as one-bit rank masks, lowest first.
            let mut ranks = [0u16; 5];
            let (mut left, mut m) = (by_suit[suit], 0);
            while left != 0 {
                ranks[m] = left & left.wrapping_neg();
                left &= left - 1;
                m += 1;
            }
            let mut masks = [0; TRIPLES];
            let mut n = 0;
            for a in 0..m {
                for b in a + 1..m {
                    for c in b + 1..m {
                        masks[n] = ranks[a] | ranks[b] | ranks[c];
                        n += 1;
                    }
                }
            }
            SuitedTriples { suit, masks, n }
        });
        Board { triples, flush }
    }

    /// The Omaha strength of `hole` on this board.
    #[inline]
    pub fn strength(&self, hole: &Hole) -> Strength {
        self.strength_in(tables(), hole)
    }

    /// [`Self::strength`] with the tables given (one load fewer in a loop).
    #[inline]
    pub fn strength_in(&self, t: &Tables, hole: &Hole) -> Strength {
        let mut best = 0;
        for &p in &hole.pairs[..hole.n_pairs] {
            for &q in &self.triples {
                best = best.max(t.fewer_rank_strength(p + q));
            }
        }
        if let Some(f) = &self.flush {
            let h = hole.suits[f.suit];
            if h.count_ones() >= 2 {
                best = best.max(f.best(t, h));
            }
        }
        best
    }
}

impl SuitedTriples {
    /// The best flush of two of the hand's cards of the suit (rank mask
    /// `h`) and three of the board's.
    #[cold]
    fn best(&self, t: &Tables, h: u16) -> Strength {
        let mut best = 0;
        for_each_pair(h, |pair| {
            for &m in &self.masks[..self.n] {
                best = best.max(t.flush_strength(pair | m));
            }
        });
        best
    }
}

/// The plain enumeration with the fast hold'em evaluator: each of the
/// C(h,2) x C(b,3) five-card hands added up and looked up as a hold'em
/// hand. The baseline of the benchmarks, and a second twin in the tests.
pub fn evaluate_plain(hole: &[Card], board: &[Card]) -> Strength {
    let t = tables();
    let mut best = 0;
    for_each_five(hole, board, |five| {
        best = best.max(t.strength(Hand::from_cards(&five)));
    });
    best
}

/// Calls `f` with every five of two hole cards and three board cards.
fn for_each_five(hole: &[Card], board: &[Card], mut f: impl FnMut([Card; 5])) {
    for (i, &a) in hole.iter().enumerate() {
        for &b in &hole[i + 1..] {
            for x in 0..board.len() {
                for y in x + 1..board.len() {
                    for z in y + 1..board.len() {
                        f([a, b, board[x], board[y], board[z]]);
                    }
                }
            }
        }
    }
}

/// The slow, obviously correct Omaha evaluator.
pub mod reference {
    use crate::cards::Card;
    use crate::holdem::eval::{reference, Strength};

    /// The best of the hold'em reference evaluator over every five of two
    /// hole cards and three board cards.
    pub fn evaluate(hole: &[Card], board: &[Card]) -> Strength {
        let mut best = 0;
        super::for_each_five(hole, board, |five| {
            best = best.max(reference::evaluate(&five));
        });
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::holdem::eval::{category, Category};
    use proptest::prelude::*;

    fn s(hole: &str, board: &str) -> Strength {
        evaluate(&parse_cards(hole).unwrap(), &parse_cards(board).unwrap()).unwrap()
    }

    #[test]
    fn exactly_two_hole_cards_and_three_board_cards() {
        // Four hearts on the board and one in the hand: no flush.
        assert_eq!(
            category(s("Ah Kc Qd Js", "2h 5h 8h 9h Tc")),
            Category::Straight
        );
        // Two hearts in the hand make it.
        assert_eq!(
            category(s("Ah Kh Qd Js", "2h 5h 8h 9c Tc")),
            Category::Flush
        );
        // Four aces in the hand are one pair.
        assert_eq!(category(s("Ah Ac Ad As", "2h 5c 8d 9s Tc")), Category::Pair);
        // A board straight does not play by itself.
        assert_eq!(category(s("2c 2d 3h 3s", "9h Tc Jd Qs Kc")), Category::Pair);
        // Quads on the board: the hand plays at most three of them.
        assert_eq!(
            category(s("Kc Kd 3h 4s", "9h 9c 9d 9s 2c")),
            Category::FullHouse
        );
        // The best Omaha flush: royal with two hole hearts.
        assert_eq!(s("Ah Kh 2c 3d", "Qh Jh Th 2h 3h"), 7462);
        // Three or four board cards.
        assert_eq!(
            category(s("Ah Kh 2c 3d", "Qh Jh Th")),
            Category::StraightFlush
        );
        assert_eq!(
            category(s("7c 7d 2h 3s", "7h Kc Kd 4s")),
            Category::FullHouse
        );
    }

    #[test]
    fn bad_hands_are_typed_errors() {
        let cards = |t: &str| parse_cards(t).unwrap();
        assert_eq!(
            evaluate(&cards("Ah Kh Qh"), &cards("2c 3c 4c")),
            Err(OmahaError::HoleCount(3))
        );
        assert_eq!(
            evaluate(&cards("Ah Kh Qh Jh"), &cards("2c 3c")),
            Err(OmahaError::BoardCount(2))
        );
        assert_eq!(
            evaluate(&cards("Ah Kh Qh Jh"), &cards("2c 3c Ah")),
            Err(OmahaError::CardTwice("Ah".into()))
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// The fast evaluator equals the reference and the plain
        /// enumeration on any hand of 4 to 6 cards and board of 3 to 5.
        #[test]
        fn fast_equals_reference(
            deck in Just((0u8..52).collect::<Vec<u8>>()).prop_shuffle(),
            h in MIN_HOLE..=MAX_HOLE,
            b in 3usize..=5,
        ) {
            let cards: Vec<Card> = deck.iter().map(|&i| Card::from_index(i)).collect();
            let (hole, board) = (&cards[..h], &cards[h..h + b]);
            let fast = evaluate(hole, board).unwrap();
            prop_assert_eq!(fast, reference::evaluate(hole, board));
            prop_assert_eq!(fast, evaluate_plain(hole, board));
        }

        /// Flush-heavy deals: cards from two suits only, so a suit of three
        /// on the board and suited pairs in the hand are common.
        #[test]
        fn fast_equals_reference_on_two_suits(
            deck in Just((0u8..52).filter(|i| i % 4 < 2).collect::<Vec<u8>>()).prop_shuffle(),
            h in MIN_HOLE..=MAX_HOLE,
        ) {
            let cards: Vec<Card> = deck.iter().map(|&i| Card::from_index(i)).collect();
            let (hole, board) = (&cards[..h], &cards[h..h + 5]);
            prop_assert_eq!(evaluate(hole, board).unwrap(), reference::evaluate(hole, board));
        }
    }
}
