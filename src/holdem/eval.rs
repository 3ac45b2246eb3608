//! The hand evaluator: 5, 6 or 7 cards to one `u16` strength (higher wins,
//! equal ties, 7462 distinct values), in the spirit of OMPEval.
//!
//! A hand is one `u64` key plus one `u64` of suit masks, and adding a card is
//! two additions ([`Hand::with`]), so a board can be added once and each
//! player's hole cards after it. The key packs, from bit 0:
//! - the rank key (25 bits): the sum of a multiplier per card's rank
//!   ([`RANK_MULTIPLIERS`]), chosen so that every multiset of at most 7
//!   cards has its own sum;
//! - suit counts, 4 bits per suit at bit 32, each starting at 3, so a suit
//!   with 5 or more cards sets its nibble's top bit: one mask test finds a
//!   flush;
//! - the card count, 6 bits at bit 56, starting at 25, so that bit 60 is
//!   set exactly when the hand has fewer than 7 cards.
//!
//! With at most 7 cards a flush is always the best hand when there is one
//! (quads or a full house would need three off-suit cards besides the five
//! suited ones), so a flush is looked up by its suit's 13-bit rank mask in an
//! 8192-entry table, and anything else by its rank key in a perfect hash:
//! row displacement, one table for the 49,205 rank multisets of 7 cards
//! (the common case) and one for the 24,570 of 5 or 6. The key's low 13
//! bits pick a row, whose `u16` offset is added to the remaining bits; no
//! multiply. The 7-card table fills 98% of its 100 KB, and its 16 KB of
//! offsets stay in the first-level cache.
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

/// What a card of each rank (deuce first) adds to a hand's rank key: the
/// smallest increasing numbers such that every multiset of at most 7 cards
/// (at most 4 of a rank) has its own sum, found by the greedy search of
/// `examples/rank_multipliers.rs` and checked by a test here. A 7-card sum
/// stays below 2^25.
pub const RANK_MULTIPLIERS: [u32; 13] = [
    1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520,
];

/// The largest rank key of at most 7 cards: four aces and three kings.
pub const MAX_RANK_KEY: u32 = 4 * RANK_MULTIPLIERS[12] + 3 * RANK_MULTIPLIERS[11];
const RANK_BITS: u64 = (1 << 25) - 1;
const SUIT_SHIFT: u32 = 32;
const SUIT_BIAS: u64 = 0x3333 << SUIT_SHIFT;
const FLUSH_BITS: u64 = 0x8888 << SUIT_SHIFT;
/// The card count field: 6 bits at bit 56, biased by 25 so that bit 4 of
/// the field (bit 60 of the key) is set exactly when the hand has fewer
/// than 7 cards (25 + 6 = 31, 25 + 7 = 32). One mask test then sends both
/// flushes and shorter hands off the 7-card path.
const COUNT_SHIFT: u32 = 56;
const COUNT_ONE: u64 = 1 << COUNT_SHIFT;
const COUNT_BIAS: u64 = 25 << COUNT_SHIFT;
const FEWER_BIT: u64 = 1 << (COUNT_SHIFT + 4);
const KEY_BIAS: u64 = SUIT_BIAS + COUNT_BIAS;

/// What one card adds to a hand, indexed by `card.index()`: entry `i` is
/// what it adds to the key (its rank multiplier, its suit count and the
/// card count), entry `256 + i` its bit in the suit masks. One table, so a
/// hot loop spends one register on it; 256 entries each, so that any `u8`
/// index is in bounds with no mask or check: adding a card is one byte load
/// and one add. Entries 52..256 (jokers, never valid here) add nothing.
static CARD_BITS: [u64; 512] = {
    let mut t = [0; 512];
    let mut i = 0;
    while i < 52 {
        let (rank, suit) = (i >> 2, (i & 3) as u64);
        t[i] = RANK_MULTIPLIERS[rank] as u64 + (1 << (SUIT_SHIFT as u64 + 4 * suit)) + COUNT_ONE;
        t[256 + i] = 1 << (16 * suit + rank as u64);
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
            key: self.key + CARD_BITS[i],
            suits: self.suits | CARD_BITS[256 + i],
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

    /// The rank key: what a hand is worth when flushes are ignored.
    /// Additive: see [`rank_unit`].
    #[inline(always)]
    pub fn rank_key(self) -> u32 {
        (self.key & RANK_BITS) as u32
    }

    /// The 13-bit rank mask of one suit (`Suit::index()` order).
    #[inline(always)]
    pub fn suit_mask(self, suit: u8) -> u16 {
        ((self.suits >> (16 * suit as u32)) & 0x1fff) as u16
    }
}

/// What one card of rank `rank` (0 = deuce .. 12 = ace) adds to a
/// [`Hand::rank_key`].
#[inline(always)]
pub const fn rank_unit(rank: u8) -> u32 {
    RANK_MULTIPLIERS[rank as usize]
}

/// Strength of 5, 6 or 7 distinct cards.
pub fn evaluate(cards: &[Card]) -> Strength {
    debug_assert!((5..=7).contains(&cards.len()));
    Hand::from_cards(cards).strength()
}

/// The generated lookup tables, all in one array so that a hot loop
/// addresses every one of them from one register:
/// - the rank multisets of 7 cards (the common case) and of 5 or 6 cards,
///   each in a row-displacement perfect hash (Tarjan and Yao): the low
///   [`ROW_BITS`] of a rank key pick its row and the rest its column; each
///   row's offset slides it to where its keys land on slots no other row
///   uses;
/// - the best flush (or straight flush) of each 13-bit suit mask.
pub struct Tables {
    t: Box<[Strength; TABLES_LEN]>,
}

const ROW_BITS: u32 = 13;
const ROW_MASK: usize = (1 << ROW_BITS) - 1;
/// Where each table starts in [`Tables`], and the index masks of the hash
/// slots (powers of two above the slots the rows fill).
const SEVEN_ROWS: usize = 0;
const SEVEN_SLOTS: usize = SEVEN_ROWS + (1 << ROW_BITS);
const SEVEN_SLOT_MASK: usize = (1 << 16) - 1;
const FEWER_ROWS: usize = SEVEN_SLOTS + SEVEN_SLOT_MASK + 1;
const FEWER_SLOTS: usize = FEWER_ROWS + (1 << ROW_BITS);
const FEWER_SLOT_MASK: usize = (1 << 15) - 1;
const FLUSHES: usize = FEWER_SLOTS + FEWER_SLOT_MASK + 1;
const TABLES_LEN: usize = FLUSHES + (1 << 13);

impl Tables {
    /// The strength of `hand` (5 to 7 cards).
    #[inline(always)]
    pub fn strength(&self, hand: Hand) -> Strength {
        // The key's bits 25..32 are 0, so its low half is the rank key.
        if hand.key & (FLUSH_BITS | FEWER_BIT) == 0 {
            return self.seven_rank_strength(hand.key as u32);
        }
        let flush = hand.key & FLUSH_BITS;
        if flush != 0 {
            let suit = (flush.trailing_zeros() - SUIT_SHIFT - 3) / 4;
            let mask = (hand.suits >> (16 * suit)) as u16;
            return self.flush_strength(mask);
        }
        self.row_hash(FEWER_ROWS, FEWER_SLOTS, FEWER_SLOT_MASK, hand.key as u32)
    }

    /// The strength of 7 cards with this rank key (a [`Hand::rank_key`]
    /// plus [`rank_unit`]s) when no five of them share a suit.
    #[inline(always)]
    pub fn seven_rank_strength(&self, rank_key: u32) -> Strength {
        self.row_hash(SEVEN_ROWS, SEVEN_SLOTS, SEVEN_SLOT_MASK, rank_key)
    }

    /// The strength of a hand of at most 7 cards holding these five or more
    /// cards of one suit (a 13-bit rank mask): its best flush or straight
    /// flush, which with 7 cards nothing else in the hand can beat.
    #[inline(always)]
    pub fn flush_strength(&self, mask: u16) -> Strength {
        self.t[FLUSHES + (mask & 0x1fff) as usize]
    }

    /// A row-displacement lookup: one load of the row's offset (the 16 KB
    /// of offsets stay in the first-level cache), one add, one load of the
    /// strength; no multiply. The masks only keep indices in bounds (they
    /// change nothing for a hand of at most 7 cards).
    #[inline(always)]
    fn row_hash(&self, rows: usize, slots: usize, slot_mask: usize, rank_key: u32) -> Strength {
        let offset = self.t[rows + (rank_key as usize & ROW_MASK)];
        let slot = (rank_key >> ROW_BITS) as usize + offset as usize;
        self.t[slots + (slot & slot_mask)]
    }

    /// Bytes held by the tables.
    pub fn size_bytes(&self) -> usize {
        2 * self.t.len()
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
    use super::{
        Strength, Tables, FEWER_ROWS, FLUSHES, MAX_RANK_KEY, RANK_MULTIPLIERS, ROW_BITS, ROW_MASK,
        SEVEN_ROWS, TABLES_LEN,
    };

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

    pub(super) fn rank_key(counts: &[u8; 13]) -> u32 {
        counts
            .iter()
            .zip(RANK_MULTIPLIERS)
            .map(|(&c, m)| u32::from(c) * m)
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
        let mut by_key: HashMap<u32, Strength> = HashMap::with_capacity(73_775);
        let mut fewer = Vec::with_capacity(24_570);
        let mut seven = Vec::with_capacity(49_205);
        for n in 5..=7 {
            for_each_multiset(n, &mut |counts| {
                let key = rank_key(counts);
                let s = if n == 5 {
                    strength_of[&value_of_ranks(counts, false)]
                } else {
                    (0..13)
                        .filter(|&r| counts[r] > 0)
                        .map(|r| by_key[&(key - RANK_MULTIPLIERS[r])])
                        .max()
                        .unwrap_or(0)
                };
                by_key.insert(key, s);
                if n == 7 { &mut seven } else { &mut fewer }.push((key, s));
            });
        }
        let mut t = vec![0; TABLES_LEN];
        displace_rows(&seven, &mut t[SEVEN_ROWS..FEWER_ROWS]);
        displace_rows(&fewer, &mut t[FEWER_ROWS..FLUSHES]);
        t[FLUSHES..].copy_from_slice(&flush_table(&strength_of));
        Tables {
            t: t.into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("the tables' length is fixed")),
        }
    }

    /// Row displacement, first fit, fullest rows first: each row goes to
    /// the lowest offset where all its keys land on free slots. Offsets are
    /// tried 64 at a time against a bitmap of the filled slots, which keeps
    /// the build fast when the table is nearly full.
    /// `out` receives the `1 << ROW_BITS` row offsets, then the slots.
    fn displace_rows(entries: &[(u32, Strength)], out: &mut [Strength]) {
        const _: () = assert!((MAX_RANK_KEY >> ROW_BITS) < 1 << 16);
        let (offsets, slots) = out.split_at_mut(1 << ROW_BITS);
        let n_slots = slots.len();
        let mut rows: Vec<Vec<(usize, Strength)>> = vec![Vec::new(); 1 << ROW_BITS];
        for &(key, s) in entries {
            rows[key as usize & ROW_MASK].push(((key >> ROW_BITS) as usize, s));
        }
        let mut order: Vec<usize> = (0..rows.len()).filter(|&r| !rows[r].is_empty()).collect();
        order.sort_by_key(|&r| (std::cmp::Reverse(rows[r].len()), r));
        let mut filled = Filled::new(n_slots);
        for r in order {
            let row = &rows[r];
            let first = row.iter().map(|&(col, _)| col).min().unwrap_or(0);
            let mut start = filled.first_free().saturating_sub(first);
            let offset = loop {
                assert!(start < n_slots, "the rows fit in {n_slots} slots");
                // Bit i of `blocked`: offset start + i puts a key on a
                // filled slot.
                let blocked = row
                    .iter()
                    .fold(0, |b, &(col, _)| b | filled.window(start + col));
                if blocked != u64::MAX {
                    break start + (!blocked).trailing_zeros() as usize;
                }
                start += 64;
            };
            for &(col, s) in row {
                slots[offset + col] = s;
                filled.fill(offset + col);
            }
            offsets[r] = u16::try_from(offset).expect("offsets below 65,536");
        }
    }

    /// A bitmap of a table's filled slots; every bit past the table's end
    /// reads as filled, so no offset can push a key out of it.
    struct Filled {
        words: Vec<u64>,
        first_free: usize,
    }

    impl Filled {
        fn new(slots: usize) -> Filled {
            // Room past the end for a window at any offset below `slots`
            // plus the widest row's span (under 1 << 16 columns).
            let mut words = vec![u64::MAX; (2 * slots + (1 << 16)) / 64 + 2];
            words[..slots / 64].fill(0);
            Filled {
                words,
                first_free: 0,
            }
        }

        /// Bits `i..i + 64`.
        fn window(&self, i: usize) -> u64 {
            let (w, b) = (i / 64, i % 64);
            if b == 0 {
                self.words[w]
            } else {
                self.words[w] >> b | self.words[w + 1] << (64 - b)
            }
        }

        fn fill(&mut self, i: usize) {
            self.words[i / 64] |= 1 << (i % 64);
            while self.window(self.first_free) & 1 == 1 {
                self.first_free += 1;
            }
        }

        fn first_free(&self) -> usize {
            self.first_free
        }
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
    fn rank_multipliers_give_every_multiset_of_up_to_7_cards_its_own_sum() {
        let mut keys = Vec::new();
        for n in 0..=7 {
            build::for_each_multiset(n, &mut |counts| keys.push(build::rank_key(counts)));
        }
        let total = keys.len();
        assert_eq!(total, 76_155);
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), total, "two multisets share a rank key");
        assert_eq!(keys.last(), Some(&MAX_RANK_KEY));
        assert!(u64::from(MAX_RANK_KEY) <= RANK_BITS);
        // Hands add card by card: a hand's rank key is its multiset's.
        let hand = Hand::from_cards(&parse_cards("Ac Ad Ah As Kc Kd Kh").unwrap());
        assert_eq!(hand.rank_key(), MAX_RANK_KEY);
    }

    #[test]
    fn tables_are_about_the_documented_size() {
        let bytes = tables().size_bytes();
        assert!(bytes < 400_000, "{bytes}");
    }
}
