//! The hand evaluator: 5, 6 or 7 cards to one `u16` strength (higher wins,
//! equal ties, 7462 distinct values), in the spirit of OMPEval.
//!
//! A hand is one `u64` key plus one `u64` of suit masks, and adding a card is
//! two additions ([`Hand::with`]), so a board can be added once and each
//! player's hole cards after it. The key packs, from bit 0:
//! - rank counts, 3 bits per rank (39 bits): adding a card adds `1 << 3r`;
//! - suit counts, 4 bits per suit at bit 40, each starting at 3, so a suit
//!   with 5 or more cards sets its nibble's top bit: one mask test finds a
//!   flush;
//! - the card count, 5 bits at bit 56, starting at 9, so that bit 60 is set
//!   exactly when the hand has 7 cards.
//!
//! With at most 7 cards a flush is always the best hand when there is one
//! (quads or a full house would need three off-suit cards besides the five
//! suited ones), so a flush is looked up by its suit's 13-bit rank mask in an
//! 8192-entry table, and anything else by its rank counts in a perfect hash
//! table (hash-and-displace over the 73,775 rank multisets of 5 to 7 cards,
//! 16 KB of displacements, small enough to stay in the first-level cache,
//! then 256 KB of strengths). The 49,205 multisets of 7 cards get the upper
//! half of the strength table to themselves (bit 60 of the key is the top
//! bit of the slot), so evaluating 7-card hands, the common case, touches
//! only 128 KB of it (measurably faster, a few percent, than spreading them
//! over all 256 KB). 5- and 6-card multisets share the lower half.
//!
//! Every table is generated at first use from the slow [`reference`]
//! evaluator, and the oracle tests check the result against the published
//! category counts of all 5- and 7-card hands.

use std::sync::OnceLock;

use crate::cards::Card;

/// A hand's strength: higher wins, equal ties. 1 (7-5-4-3-2 offsuit) to
/// 7462 (royal flush).
pub type Strength = u16;

/// The nine hand categories, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    HighCard,
    Pair,
    TwoPair,
    Trips,
    Straight,
    Flush,
    FullHouse,
    Quads,
    StraightFlush,
}

impl Category {
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::Pair,
        Category::TwoPair,
        Category::Trips,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::Quads,
        Category::StraightFlush,
    ];

    /// The name players use ("two pair", "straight flush").
    pub fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high card",
            Category::Pair => "pair",
            Category::TwoPair => "two pair",
            Category::Trips => "three of a kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full house",
            Category::Quads => "four of a kind",
            Category::StraightFlush => "straight flush",
        }
    }

    /// The snake_case name used in CSV and JSON (`two_pair`).
    pub fn key(self) -> &'static str {
        match self {
            Category::HighCard => "high_card",
            Category::Pair => "pair",
            Category::TwoPair => "two_pair",
            Category::Trips => "three_of_a_kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full_house",
            Category::Quads => "four_of_a_kind",
            Category::StraightFlush => "straight_flush",
        }
    }

    /// Number of distinct 5-card strengths in each category (sums to 7462).
    const CLASSES: [u16; 9] = [1277, 2860, 858, 858, 10, 1277, 156, 156, 10];
}

/// The category of a strength (strengths of a category are contiguous).
pub fn category(strength: Strength) -> Category {
    let mut top = 0u16;
    for (cat, n) in Category::ALL.iter().zip(Category::CLASSES) {
        top += n;
        if strength <= top {
            return *cat;
        }
    }
    Category::StraightFlush
}

const RANK_BITS: u64 = (1 << 39) - 1;
const SUIT_SHIFT: u32 = 40;
const SUIT_BIAS: u64 = 0x3333 << SUIT_SHIFT;
const FLUSH_BITS: u64 = 0x8888 << SUIT_SHIFT;
/// The card count field: 5 bits at bit 56, biased by 9 so that 7 cards
/// make 16, whose bit 4 (bit 60 of the key) says "7 cards".
const COUNT_SHIFT: u32 = 56;
const COUNT_ONE: u64 = 1 << COUNT_SHIFT;
const COUNT_BIAS: u64 = 9 << COUNT_SHIFT;
const COUNT_BITS: u64 = 0x1f << COUNT_SHIFT;
const SEVEN_BIT: u32 = COUNT_SHIFT + 4;
const KEY_BIAS: u64 = SUIT_BIAS + COUNT_BIAS;

/// What one card adds to a hand's key (its rank, suit and card counts),
/// indexed by `card.index()`. The table has 256 entries so that any `u8`
/// index is in bounds with no mask or check: adding a card is one byte load
/// and one add from this table. Entries 52.. (jokers, never valid here) add
/// nothing.
static CARD_KEYS: [u64; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 52 {
        let (rank, suit) = ((i >> 2) as u64, (i & 3) as u64);
        t[i] = (1 << (3 * rank)) + (1 << (SUIT_SHIFT as u64 + 4 * suit)) + COUNT_ONE;
        i += 1;
    }
    t
};

/// What one card adds to a hand's suit masks (one bit), indexed like
/// [`CARD_KEYS`]. Kept apart so that a caller that never reaches the flush
/// branch never loads it.
static CARD_SUITS: [u64; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 52 {
        let (rank, suit) = ((i >> 2) as u64, (i & 3) as u64);
        t[i] = 1 << (16 * suit + rank);
        i += 1;
    }
    t
};

/// A hand being built card by card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    key: u64,
    /// 13-bit rank mask of each suit, 16 bits apart.
    suits: u64,
}

impl Default for Hand {
    fn default() -> Hand {
        Hand::EMPTY
    }
}

impl Hand {
    pub const EMPTY: Hand = Hand {
        key: KEY_BIAS,
        suits: 0,
    };

    /// The hand with `card` added. Cards must be distinct standard cards;
    /// the evaluation is meaningful for 5 to 7 of them.
    #[inline(always)]
    pub fn with(self, card: Card) -> Hand {
        let i = card.index() as usize;
        Hand {
            key: self.key + CARD_KEYS[i],
            suits: self.suits | CARD_SUITS[i],
        }
    }

    /// Adds a hand's cards to this one (the two must not share a card).
    #[inline(always)]
    pub fn combine(self, other: Hand) -> Hand {
        Hand {
            key: self.key + other.key - KEY_BIAS,
            suits: self.suits | other.suits,
        }
    }

    pub fn from_cards(cards: &[Card]) -> Hand {
        cards.iter().fold(Hand::EMPTY, |h, &c| h.with(c))
    }

    /// Strength of a hand of 5 to 7 cards.
    #[inline(always)]
    pub fn strength(self) -> Strength {
        tables().strength(self)
    }

    /// The rank-count part of the key (3 bits per rank, and the number of
    /// cards): what a hand is worth when flushes are ignored. Additive: see
    /// [`rank_unit`].
    #[inline(always)]
    pub fn rank_key(self) -> u64 {
        self.key & (RANK_BITS | COUNT_BITS)
    }

    /// The 13-bit rank mask of one suit (`Suit::index()` order).
    #[inline(always)]
    pub fn suit_mask(self, suit: u8) -> u16 {
        ((self.suits >> (16 * suit as u32)) & 0x1fff) as u16
    }
}

/// What one card of rank `rank` (0 = deuce .. 12 = ace) adds to a
/// [`Hand::rank_key`] (its rank count and the card count).
#[inline(always)]
pub const fn rank_unit(rank: u8) -> u64 {
    (1 << (3 * rank as u32)) + COUNT_ONE
}

/// Strength of 5, 6 or 7 distinct cards.
pub fn evaluate(cards: &[Card]) -> Strength {
    debug_assert!((5..=7).contains(&cards.len()));
    Hand::from_cards(cards).strength()
}

/// The generated lookup tables.
pub struct Tables {
    /// Perfect-hash slots: the strength of each 5- to 7-card rank multiset
    /// (7-card multisets in the upper half, 5- and 6-card ones in the lower).
    ranks: Box<[Strength; 1 << SLOT_BITS]>,
    /// Displacement of each hash bucket.
    displace: Box<[u16; 1 << BUCKET_BITS]>,
    /// Best flush (or straight flush) of a 13-bit suit mask.
    flush: Box<[Strength; 1 << 13]>,
    multiplier: u64,
}

const SLOT_BITS: u32 = 17;
const HALF_MASK: usize = (1 << (SLOT_BITS - 1)) - 1;
const BUCKET_BITS: u32 = 13;

impl Tables {
    /// The strength of `hand` (5 to 7 cards).
    #[inline(always)]
    pub fn strength(&self, hand: Hand) -> Strength {
        let flush = hand.key & FLUSH_BITS;
        if flush != 0 {
            let suit = (flush.trailing_zeros() - SUIT_SHIFT - 3) / 4;
            let mask = (hand.suits >> (16 * suit)) & 0x1fff;
            return self.flush[mask as usize];
        }
        self.ranks[self.slot(hand.key)]
    }

    /// The strength of 5 to 7 cards with these rank counts (a
    /// [`Hand::rank_key`] plus any [`rank_unit`]s) when no five of them
    /// share a suit.
    #[inline(always)]
    pub fn rank_strength(&self, rank_key: u64) -> Strength {
        self.ranks[self.slot(rank_key)]
    }

    /// The strength of a hand of at most 7 cards holding these five or more
    /// cards of one suit (a 13-bit rank mask): its best flush or straight
    /// flush, which with 7 cards nothing else in the hand can beat.
    #[inline(always)]
    pub fn flush_strength(&self, mask: u16) -> Strength {
        self.flush[(mask & 0x1fff) as usize]
    }

    /// The slot of a key (a hand's key or a rank key): the hash of the rank
    /// counts, displaced, picks a slot in one half; the 7-card bit picks
    /// the half.
    #[inline(always)]
    fn slot(&self, key: u64) -> usize {
        let h = (key & RANK_BITS).wrapping_mul(self.multiplier);
        let bucket = (h >> (64 - BUCKET_BITS)) as usize & ((1 << BUCKET_BITS) - 1);
        let low = (((h >> 20) as usize) ^ self.displace[bucket] as usize) & HALF_MASK;
        low | ((key >> (SEVEN_BIT - (SLOT_BITS - 1))) as usize & (HALF_MASK + 1))
    }

    /// Bytes held by the tables.
    pub fn size_bytes(&self) -> usize {
        2 * (self.ranks.len() + self.displace.len() + self.flush.len())
    }
}

/// Calls `f` with the strength of each of the 133,784,560 7-card hands, in
/// lexicographic order of card indices. Nested loops add one card per
/// level, so each hand costs one addition and one lookup: this is both the
/// oracle test's walk and the sequential-evaluation benchmark.
#[inline]
pub fn for_each_seven_card_strength(t: &Tables, mut f: impl FnMut(Strength)) {
    let deck: Vec<Card> = (0..52).map(Card::from_index).collect();
    for a in 0..52 {
        let ha = Hand::EMPTY.with(deck[a]);
        for b in a + 1..52 {
            let hb = ha.with(deck[b]);
            for c in b + 1..52 {
                let hc = hb.with(deck[c]);
                for d in c + 1..52 {
                    let hd = hc.with(deck[d]);
                    for e in d + 1..52 {
                        let he = hd.with(deck[e]);
                        for g in e + 1..52 {
                            let hg = he.with(deck[g]);
                            for &card in &deck[g + 1..] {
                                f(t.strength(hg.with(card)));
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The tables, generated on first use (under 0.1 s in a release build).
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build::tables)
}

/// Table generation, from the reference evaluator.
mod build {
    use std::collections::HashMap;

    use super::reference::{value_of_ranks, Value};
    use super::{Strength, Tables, BUCKET_BITS, HALF_MASK, SLOT_BITS};

    /// Every 5-card class value in order: position + 1 is the strength.
    pub(super) fn class_values() -> Vec<Value> {
        let mut values = Vec::with_capacity(7462);
        for_each_multiset(5, &mut |counts| {
            values.push(value_of_ranks(counts, false));
        });
        for mask in 0u32..(1 << 13) {
            if mask.count_ones() == 5 {
                let mut counts = [0u8; 13];
                (0..13).for_each(|r| counts[r] = ((mask >> r) & 1) as u8);
                values.push(value_of_ranks(&counts, true));
            }
        }
        values.sort_unstable();
        values.dedup();
        values
    }

    /// Calls `f` with the rank counts of every multiset of `n` cards (at
    /// most 4 of a rank).
    pub(super) fn for_each_multiset(n: u8, f: &mut dyn FnMut(&[u8; 13])) {
        fn go(rank: usize, left: u8, counts: &mut [u8; 13], f: &mut dyn FnMut(&[u8; 13])) {
            if rank == 13 {
                if left == 0 {
                    f(counts);
                }
                return;
            }
            for c in 0..=left.min(4) {
                counts[rank] = c;
                go(rank + 1, left - c, counts, f);
            }
            counts[rank] = 0;
        }
        go(0, n, &mut [0; 13], f);
    }

    /// Best flush (or straight flush) of every 13-bit suit mask, 0 below
    /// five cards: five cards from the reference; more cards are worth
    /// their best subset with one card fewer (the best five of n cards are
    /// among some n-1 of them), which masks in increasing order have
    /// already computed.
    fn flush_table(strength_of: &HashMap<Value, Strength>) -> Vec<Strength> {
        let mut flush = vec![0; 1 << 13];
        for mask in 0..1usize << 13 {
            flush[mask] = match mask.count_ones() {
                0..=4 => 0,
                5 => {
                    let mut counts = [0u8; 13];
                    (0..13).for_each(|r| counts[r] = ((mask >> r) & 1) as u8);
                    strength_of[&value_of_ranks(&counts, true)]
                }
                _ => (0..13)
                    .filter(|r| mask >> r & 1 == 1)
                    .map(|r| flush[mask & !(1 << r)])
                    .max()
                    .unwrap_or(0),
            };
        }
        flush
    }

    pub(super) fn rank_key(counts: &[u8; 13]) -> u64 {
        counts
            .iter()
            .enumerate()
            .map(|(r, &c)| u64::from(c) << (3 * r))
            .sum()
    }

    pub(super) fn tables() -> Tables {
        let classes = class_values();
        assert_eq!(classes.len(), 7462, "the reference gives 7462 classes");
        let strength_of: HashMap<Value, Strength> = classes
            .iter()
            .enumerate()
            .map(|(i, &v)| (v, (i + 1) as Strength))
            .collect();
        // 5-card multisets from the reference; a 6- or 7-card multiset is
        // worth its best sub-multiset with one card fewer (the best five of
        // n cards are among some n-1 of them), so each costs 13 lookups.
        let mut by_key: HashMap<u64, Strength> = HashMap::with_capacity(73_775);
        let mut entries: Vec<(u64, bool, Strength)> = Vec::with_capacity(73_775);
        for n in 5..=7 {
            for_each_multiset(n, &mut |counts| {
                let key = rank_key(counts);
                let s = if n == 5 {
                    strength_of[&value_of_ranks(counts, false)]
                } else {
                    (0..13)
                        .filter(|&r| counts[r] > 0)
                        .map(|r| by_key[&(key - (1 << (3 * r)))])
                        .max()
                        .unwrap_or(0)
                };
                by_key.insert(key, s);
                entries.push((key, n == 7, s));
            });
        }
        let flush = flush_table(&strength_of);
        // Hash and displace: try multipliers from a fixed sequence until
        // every bucket finds a displacement (the first one works in practice).
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        loop {
            seed = crate::rng::mix64(seed);
            let multiplier = seed | 1;
            if let Some((ranks, displace)) = displace(&entries, multiplier) {
                // Fixed-size arrays: every index the lookups compute is
                // masked to the array's size, so no bounds check remains.
                return Tables {
                    ranks: boxed_array(ranks),
                    displace: boxed_array(displace),
                    flush: boxed_array(flush),
                    multiplier,
                };
            }
        }
    }

    fn boxed_array<const N: usize>(v: Vec<u16>) -> Box<[u16; N]> {
        v.into_boxed_slice()
            .try_into()
            .expect("table generated with its fixed size")
    }

    /// Hash and displace: a bucket's keys move together (their hashes
    /// XOR one displacement) to free slots of their half (7-card keys in
    /// the upper half, others in the lower), largest buckets first.
    fn displace(
        entries: &[(u64, bool, Strength)],
        multiplier: u64,
    ) -> Option<(Vec<Strength>, Vec<u16>)> {
        let slots = 1usize << SLOT_BITS;
        let mut buckets: Vec<Vec<(usize, usize, Strength)>> = vec![Vec::new(); 1 << BUCKET_BITS];
        for &(key, seven, s) in entries {
            let h = key.wrapping_mul(multiplier);
            let half = if seven { HALF_MASK + 1 } else { 0 };
            buckets[(h >> (64 - BUCKET_BITS)) as usize].push(((h >> 20) as usize, half, s));
        }
        let mut order: Vec<usize> = (0..buckets.len()).collect();
        order.sort_by_key(|&b| std::cmp::Reverse(buckets[b].len()));
        let mut used = vec![false; slots];
        let mut ranks = vec![0; slots];
        let mut displace = vec![0u16; buckets.len()];
        for b in order {
            let items = &buckets[b];
            if items.is_empty() {
                break;
            }
            let mut taken: Vec<usize> = Vec::with_capacity(items.len());
            let found = (0..=u16::MAX).find(|&d| {
                taken.clear();
                items.iter().all(|&(h, half, _)| {
                    let slot = ((h ^ d as usize) & HALF_MASK) | half;
                    let free = !used[slot] && !taken.contains(&slot);
                    taken.push(slot);
                    free
                })
            })?;
            displace[b] = found;
            for &(h, half, s) in items {
                let slot = ((h ^ found as usize) & HALF_MASK) | half;
                used[slot] = true;
                ranks[slot] = s;
            }
        }
        Some((ranks, displace))
    }
}

/// The slow, obviously correct evaluator: classify every 5-card subset by
/// the rules and keep the best.
pub mod reference {
    use super::{tables, Strength};
    use crate::cards::Card;

    /// A 5-card hand's value: category in bits 20.., then the ranks that
    /// break ties, most important first, 4 bits each. Comparable; not dense.
    pub type Value = u32;

    /// Value of 5 cards given their rank counts, flush or not.
    pub fn value_of_ranks(counts: &[u8; 13], flush: bool) -> Value {
        // Groups by (count, rank), largest count then highest rank first.
        let mut groups: Vec<(u8, u8)> = (0..13u8)
            .rev()
            .filter(|&r| counts[r as usize] > 0)
            .map(|r| (counts[r as usize], r))
            .collect();
        groups.sort_by(|a, b| b.cmp(a));
        let distinct = groups.len();
        let straight_top = if distinct == 5 {
            let top = groups[0].1;
            let low = groups[4].1;
            if top - low == 4 {
                Some(top)
            } else if top == 12 && groups[1].1 == 3 {
                Some(3) // A-2-3-4-5: five high
            } else {
                None
            }
        } else {
            None
        };
        let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
        let category: u32 = match (straight_top, flush, shape.as_slice()) {
            (Some(_), true, _) => 8,
            (_, _, [4, 1]) => 7,
            (_, _, [3, 2]) => 6,
            (None, true, _) => 5,
            (Some(_), false, _) => 4,
            (_, _, [3, 1, 1]) => 3,
            (_, _, [2, 2, 1]) => 2,
            (_, _, [2, 1, 1, 1]) => 1,
            _ => 0,
        };
        let mut v = category << 20;
        if let (Some(top), 4 | 8) = (straight_top, category) {
            return v | u32::from(top) << 16;
        }
        for (i, g) in groups.iter().enumerate() {
            v |= u32::from(g.1) << (16 - 4 * i);
        }
        v
    }

    /// Value of exactly 5 cards.
    pub fn value5(cards: [Card; 5]) -> Value {
        let mut counts = [0u8; 13];
        cards
            .iter()
            .for_each(|c| counts[c.rank().index() as usize] += 1);
        let flush = cards.iter().all(|c| c.suit() == cards[0].suit());
        value_of_ranks(&counts, flush)
    }

    /// The best 5 of 5 to 7 cards and its value.
    pub fn best_five(cards: &[Card]) -> ([Card; 5], Value) {
        let n = cards.len();
        assert!((5..=7).contains(&n), "5 to 7 cards");
        let mut best = ([cards[0]; 5], 0);
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    for d in c + 1..n {
                        for e in d + 1..n {
                            let five = [cards[a], cards[b], cards[c], cards[d], cards[e]];
                            let v = value5(five);
                            if v > best.1 {
                                best = (five, v);
                            }
                        }
                    }
                }
            }
        }
        best
    }

    /// Strength of 5 to 7 cards: the best subset's class, numbered in order
    /// of the 7462 class values.
    pub fn evaluate(cards: &[Card]) -> Strength {
        let v = best_five(cards).1;
        let classes = classes();
        (classes.binary_search(&v).expect("every value is a class") + 1) as Strength
    }

    fn classes() -> &'static [Value] {
        static CLASSES: std::sync::OnceLock<Vec<Value>> = std::sync::OnceLock::new();
        CLASSES.get_or_init(super::build::class_values)
    }

    /// Touches the fast tables too, so a caller timing either starts warm.
    pub fn warm() {
        let _ = tables();
        let _ = classes();
    }
}

/// The best five cards of 5 to 7, strongest first within their groups (for
/// display: `As Ks Qs Js Ts`).
pub fn best_five(cards: &[Card]) -> [Card; 5] {
    let (mut five, _) = reference::best_five(cards);
    let count = |c: &Card| five.iter().filter(|d| d.rank() == c.rank()).count();
    let counts: Vec<usize> = five.iter().map(count).collect();
    let mut idx: Vec<usize> = (0..5).collect();
    idx.sort_by(|&a, &b| (counts[b], five[b].rank()).cmp(&(counts[a], five[a].rank())));
    let sorted: Vec<Card> = idx.iter().map(|&i| five[i]).collect();
    // The wheel shows its ace last: 5 4 3 2 A.
    let ranks: Vec<u8> = sorted.iter().map(|c| c.rank().index()).collect();
    if ranks == [12, 3, 2, 1, 0] {
        five = [sorted[1], sorted[2], sorted[3], sorted[4], sorted[0]];
    } else {
        five.copy_from_slice(&sorted);
    }
    five
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
    fn known_hands_order_and_categories() {
        assert_eq!(s("As Ks Qs Js Ts"), 7462);
        assert_eq!(s("7c 5d 4h 3s 2c"), 1);
        assert_eq!(category(s("5s 4s 3s 2s As")), Category::StraightFlush);
        assert!(s("6s 5s 4s 3s 2s") > s("5s 4s 3s 2s As"));
        assert!(s("5d 4s 3s 2s Ah") < s("6d 5s 4s 3s 2s"));
        assert_eq!(category(s("5d 4s 3s 2s Ah")), Category::Straight);
        assert_eq!(category(s("As Ah Ad Ac 2c")), Category::Quads);
        assert_eq!(category(s("As Ah Ad 2c 2d")), Category::FullHouse);
        // Kickers: the fifth card counts for high card.
        assert!(s("Ad Kd Qd Jd 9c") > s("Ah Kh Qh Jh 8c"));
        // Two pair: the kicker decides between equal pairs.
        assert!(s("Ks Kd 4s 4d Ac") > s("Kh Kc 4h 4c Qd"));
        // A 7-card hand uses the best five; the board plays: a tie.
        assert_eq!(s("As Ks Qs Js Ts 2c 3d"), s("As Ks Qs Js Ts 4c 5d"));
        assert_eq!(category(s("2c 2d 2h 3c 3d 3h 4s")), Category::FullHouse);
    }

    #[test]
    fn every_five_card_hand_matches_the_reference_and_the_counts() {
        let deck: Vec<Card> = (0..52).map(Card::from_index).collect();
        let mut counts = [0u32; 9];
        let mut seen = vec![false; 7463];
        for a in 0..52 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    for d in c + 1..52 {
                        let h4 = Hand::EMPTY
                            .with(deck[a])
                            .with(deck[b])
                            .with(deck[c])
                            .with(deck[d]);
                        for &card in &deck[d + 1..] {
                            let st = h4.with(card).strength();
                            counts[category(st) as usize] += 1;
                            seen[st as usize] = true;
                            let five = [deck[a], deck[b], deck[c], deck[d], card];
                            assert_eq!(st, reference::evaluate(&five), "{five:?}");
                        }
                    }
                }
            }
        }
        assert_eq!(
            counts,
            [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
        );
        assert_eq!(seen.iter().filter(|&&x| x).count(), 7462);
    }

    #[test]
    fn fast_and_reference_agree_on_every_five_card_class_and_random_hands() {
        let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
        let mut rng = game_rng(11, 0);
        for n in [5usize, 6, 7] {
            for _ in 0..30_000 {
                deck.shuffle(&mut rng);
                let cards = &deck[..n];
                assert_eq!(
                    evaluate(cards),
                    reference::evaluate(cards),
                    "{}",
                    crate::cards::format_cards(cards)
                );
            }
        }
    }

    #[test]
    fn best_five_shows_the_hand() {
        let show = |t: &str| crate::cards::format_cards(&best_five(&parse_cards(t).unwrap()));
        assert_eq!(show("As Ks Qs Js Ts 2c 3d"), "As Ks Qs Js Ts");
        assert_eq!(show("2c 2d 7h 7s Ac 3d 4d"), "7h 7s 2c 2d Ac");
        assert_eq!(show("Ah 2d 3c 4s 5h 9c Jd"), "5h 4s 3c 2d Ah");
    }

    #[test]
    fn tables_are_about_the_documented_size() {
        let bytes = tables().size_bytes();
        assert!(bytes < 400_000, "{bytes}");
    }
}
