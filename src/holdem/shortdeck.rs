//! Short-deck (6+) hold'em hand strength: 36 cards (6 to ace), the best
//! five of 5 to 7, ranked as PokerKit ranks them for the PHH variant `NS`
//! (its `ShortDeckHoldemLookup`): a flush beats a full house, A-6-7-8-9 is
//! the lowest straight, and three of a kind stays below a straight.
//!
//! The evaluator is the hold'em one with other numbers in its slots. A
//! hold'em [`Hand`] already locates every hand in the hold'em tables by its
//! rank multiset (or, holding five cards of a suit, by that suit's rank
//! mask), and every short-deck hand is a hold'em hand, so a table of the
//! same layout ([`Tables::LEN`] entries) whose reachable slots hold
//! short-deck strengths ranks short-deck hands with the hold'em lookups:
//! [`Tables::strength_index`] then one load. With at most 7 cards a flush
//! still excludes a full house or quads (they would need three cards
//! outside the five suited ones), so the flush slot of a hand is its best
//! hand here too.
//!
//! The table is built at first use (a few milliseconds: every rank
//! multiset of 5 to 7 short-deck cards and every suit mask of 5 to 7 of
//! them, each classified by [`reference::evaluate`]); the tests compare
//! every one of those entries with the reference and random hands with
//! PokerKit's evaluator (a fixture its script writes).

use std::sync::OnceLock;

use crate::cards::{Card, CardSet};
use crate::holdem::eval::{reference::Value, tables, Category, Hand, Strength, Tables};

/// Lowest rank of the short deck: the six (rank index 4).
pub const LOWEST_RANK: u8 = 4;

/// The 36 cards of the short deck (6 to ace, four suits) as a set.
pub const DECK: CardSet = CardSet(((1u64 << 52) - 1) & !((1u64 << (4 * LOWEST_RANK)) - 1));

/// Number of distinct 5-card strengths (PokerKit's short-deck lookup has
/// as many entries).
pub const CLASSES: usize = 1404;

/// Whether every card is a short-deck card (6 or higher).
pub fn all_short(cards: &[Card]) -> bool {
    cards.iter().all(|&c| DECK.contains(c))
}

/// The short-deck strengths, in the hold'em tables' layout, and the first
/// strength of each category.
struct ShortTables {
    t: Vec<Strength>,
    /// `first[c]`: the lowest strength of category index `c` (in
    /// [`SHORT_ORDER`]).
    first: [Strength; 9],
}

/// Short deck's categories, weakest first: a flush above a full house.
pub const SHORT_ORDER: [Category; 9] = [
    Category::HighCard,
    Category::Pair,
    Category::TwoPair,
    Category::Trips,
    Category::Straight,
    Category::FullHouse,
    Category::Flush,
    Category::Quads,
    Category::StraightFlush,
];

fn short_tables() -> &'static ShortTables {
    static T: OnceLock<ShortTables> = OnceLock::new();
    T.get_or_init(build)
}

/// Every reachable slot: each rank multiset of 5 to 7 short-deck cards
/// dealt with at most two cards of a suit (no flush), and each suit mask of
/// 5 to 7 short-deck ranks as one suit.
fn build() -> ShortTables {
    let hold = tables();
    let mut t = vec![0; Tables::LEN];
    let mut cards = Vec::with_capacity(7);
    for n in 5..=7 {
        each_short_multiset(n, &mut |counts| {
            cards.clear();
            for (rank, &c) in counts.iter().enumerate() {
                for _ in 0..c {
                    let suit = cards.len() % 4;
                    cards.push(Card::from_index((4 * rank + suit) as u8));
                }
            }
            t[hold.strength_index(Hand::from_cards(&cards))] = reference::evaluate(&cards);
        });
    }
    for mask in 0u16..1 << 13 {
        let n = mask.count_ones();
        if mask & ((1 << LOWEST_RANK) - 1) == 0 && (5..=7).contains(&n) {
            cards.clear();
            cards.extend(
                (0..13)
                    .filter(|r| mask >> r & 1 == 1)
                    .map(|r| Card::from_index(4 * r)),
            );
            t[hold.strength_index(Hand::from_cards(&cards))] = reference::evaluate(&cards);
        }
    }
    let classes = reference::classes();
    let mut first = [0; 9];
    for (i, v) in classes.iter().enumerate().rev() {
        first[(v >> 20) as usize] = (i + 1) as Strength;
    }
    ShortTables { t, first }
}

/// Calls `f` with the rank counts (13 ranks, the four lowest empty) of every
/// multiset of `n` short-deck cards.
fn each_short_multiset(n: u8, f: &mut dyn FnMut(&[u8; 13])) {
    reference::for_each_multiset_from(LOWEST_RANK, n, f);
}

/// The short-deck strength of a hold'em [`Hand`] of 5 to 7 short-deck
/// cards: higher wins, equal ties, 1 to [`CLASSES`].
#[inline(always)]
pub fn strength(hand: Hand) -> Strength {
    short_tables().t[tables().strength_index(hand)]
}

/// Short-deck strength of 5 to 7 distinct short-deck cards.
pub fn evaluate(cards: &[Card]) -> Strength {
    debug_assert!((5..=7).contains(&cards.len()) && all_short(cards));
    strength(Hand::from_cards(cards))
}

/// The category of a short-deck strength.
pub fn category(s: Strength) -> Category {
    let first = &short_tables().first;
    let i = first.iter().rposition(|&f| f <= s).unwrap_or(0);
    SHORT_ORDER[i]
}

/// The slow, obviously correct short-deck evaluator: every 5-card subset
/// classified by the rules, the best kept.
pub mod reference {
    use std::sync::OnceLock;

    use super::{Value, LOWEST_RANK};
    use crate::cards::Card;
    use crate::holdem::eval::first_best_subset;
    pub(super) use crate::holdem::eval::reference::for_each_multiset_from;
    use crate::holdem::eval::reference::{class_values_in, value5_in, value_in, Ranking};
    use crate::holdem::eval::Strength;

    /// Short deck's ranking: six the lowest rank, A-6-7-8-9 the lowest
    /// straight, a flush above a full house.
    pub const RANKING: Ranking = Ranking {
        lowest: LOWEST_RANK,
        flush_over_full_house: true,
    };

    /// Value of five short-deck cards given their rank counts: category
    /// (index in [`super::SHORT_ORDER`]) in bits 20.., then the ranks that
    /// break ties, 4 bits each, most important first.
    pub fn value_of_ranks(counts: &[u8; 13], flush: bool) -> Value {
        value_in(RANKING, counts, flush)
    }

    /// Value of exactly five short-deck cards.
    pub fn value5(cards: &[Card]) -> Value {
        value5_in(RANKING, cards)
    }

    /// Every 5-card class value, in order: position + 1 is the strength.
    pub fn classes() -> &'static [Value] {
        static C: OnceLock<Vec<Value>> = OnceLock::new();
        C.get_or_init(|| class_values_in(RANKING))
    }

    /// Strength of 5 to 7 short-deck cards: the best 5-card subset's value,
    /// numbered in order of the class values.
    pub fn evaluate(cards: &[Card]) -> Strength {
        let best = first_best_subset(cards, |five| value5(&five)).1;
        (classes()
            .binary_search(&best)
            .expect("every value is a class")
            + 1) as Strength
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::rng::game_rng;
    use rand::seq::SliceRandom;

    fn s(text: &str) -> Strength {
        evaluate(&parse_cards(text).expect("test cards"))
    }

    #[test]
    fn the_short_deck_order() {
        assert_eq!(reference::classes().len(), CLASSES);
        assert_eq!(DECK.len(), 36);
        // A flush beats a full house.
        assert!(s("Ah Jh 9h 7h 6h") > s("Ks Kh Kd 6c 6s"));
        assert_eq!(category(s("Ah Jh 9h 7h 6h")), Category::Flush);
        assert_eq!(category(s("Ks Kh Kd 6c 6s")), Category::FullHouse);
        // A-6-7-8-9 is the lowest straight: above trips, below 6-7-8-9-T.
        assert_eq!(category(s("As 6h 7d 8c 9s")), Category::Straight);
        assert!(s("As 6h 7d 8c 9s") < s("6h 7d 8c 9s Td"));
        assert!(s("As 6h 7d 8c 9s") > s("As Ah Ad Kc Qs"));
        assert_eq!(category(s("As 6s 7s 8s 9s")), Category::StraightFlush);
        assert!(s("As 6s 7s 8s 9s") < s("6s 7s 8s 9s Ts"));
        assert!(s("As 6s 7s 8s 9s") > s("Ac Ad Ah As Kh"));
        assert_eq!(s("As Ks Qs Js Ts"), CLASSES as Strength);
        assert_eq!(s("9c 8d 7h 6s Jc"), 1);
        // Seven cards: the flush, not the straight, and the board plays.
        assert_eq!(category(s("Ah 6h 7h 8c 9h Jh Kd")), Category::Flush);
        assert_eq!(s("As Ks Qs Js Ts 6c 7d"), s("As Ks Qs Js Ts 8c 9d"));
    }

    /// Every entry the lookups can reach equals the reference.
    #[test]
    fn every_reachable_slot_matches_the_reference() {
        let mut cards = Vec::new();
        for n in 5..=7 {
            let mut checked = 0;
            each_short_multiset(n, &mut |counts| {
                cards.clear();
                for (rank, &c) in counts.iter().enumerate() {
                    for _ in 0..c {
                        // Suits from the top this time: other slots' cards.
                        let suit = 3 - cards.len() % 4;
                        cards.push(Card::from_index((4 * rank + suit) as u8));
                    }
                }
                assert_eq!(evaluate(&cards), reference::evaluate(&cards), "{cards:?}");
                checked += 1;
            });
            assert!(checked > 0);
        }
    }

    #[test]
    fn random_hands_match_the_reference() {
        let mut deck = DECK.to_vec();
        let mut rng = game_rng(5, 0);
        for n in [5usize, 6, 7] {
            for _ in 0..20_000 {
                deck.shuffle(&mut rng);
                let cards = &deck[..n];
                assert_eq!(evaluate(cards), reference::evaluate(cards), "{cards:?}");
            }
        }
    }
}
