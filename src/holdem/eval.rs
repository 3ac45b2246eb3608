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
//! Every table is generated at build time (`build.rs` runs [`tablegen`],
//! the one generator, on the slow reference classification) and included
//! in the binary, so no run pays for building them; the tests here
//! regenerate them and compare, and the oracle tests check the result
//! against the published category counts of all 5- and 7-card hands.

use crate::cards::Card;

// The generator's table builder runs in `build.rs` and in this module's
// tests; the library itself uses its layout and reference classification.
#[cfg_attr(not(test), allow(dead_code))]
mod tablegen;

pub mod batch;
mod enumerate;

use tablegen::{
    FEWER_ROWS, FEWER_SLOTS, FEWER_SLOT_MASK, FLUSHES, ROW_BITS, ROW_MASK, SEVEN_ROWS, SEVEN_SLOTS,
    SEVEN_SLOT_MASK, TABLES_LEN,
};
pub use tablegen::{MAX_RANK_KEY, RANK_MULTIPLIERS};

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
    tables().strength_of_cards(cards)
}

/// The generated lookup tables, all in one array so that a hot loop
/// addresses every one of them from one register:
/// - the rank multisets of 7 cards (the common case) and of 5 or 6 cards,
///   each in a row-displacement perfect hash (Tarjan and Yao): the low
///   [`ROW_BITS`] of a rank key pick its row and the rest its column; each
///   row's offset slides it to where its keys land on slots no other row
///   uses;
/// - the best flush (or straight flush) of each 13-bit suit mask.
///
/// Where each starts is [`tablegen`]'s layout.
pub struct Tables {
    t: [Strength; TABLES_LEN],
}

/// The tables `build.rs` generated, decoded from their little-endian bytes
/// at compile time (the array type checks the file's length).
static TABLES: Tables = Tables {
    t: decode(include_bytes!(concat!(env!("OUT_DIR"), "/eval_tables.bin"))),
};

const fn decode(bytes: &[u8; 2 * TABLES_LEN]) -> [Strength; TABLES_LEN] {
    let mut t = [0; TABLES_LEN];
    let mut i = 0;
    while i < TABLES_LEN {
        t[i] = u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]);
        i += 1;
    }
    t
}

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

    /// The strength of 5 to 7 distinct cards, one hand at a time: only
    /// their keys are added (one load and one add a card); the suit masks,
    /// which only a flush needs (about 3% of 7-card hands), are built from
    /// the cards on that path alone. Equal to `strength(Hand::from_cards)`.
    #[inline(always)]
    pub fn strength_of_cards(&self, cards: &[Card]) -> Strength {
        let key = cards
            .iter()
            .fold(KEY_BIAS, |k, c| k + CARD_BITS[c.index() as usize]);
        if key & (FLUSH_BITS | FEWER_BIT) == 0 {
            return self.seven_rank_strength(key as u32);
        }
        self.strength_with_suits(key, cards)
    }

    /// [`Self::strength_of_cards`] off the 7-card path: a flush, or fewer
    /// cards.
    #[cold]
    fn strength_with_suits(&self, key: u64, cards: &[Card]) -> Strength {
        let suits = cards
            .iter()
            .fold(0, |s, c| s | CARD_BITS[256 + c.index() as usize]);
        self.strength(Hand { key, suits })
    }

    /// The strength of 7 cards with this rank key (a [`Hand::rank_key`]
    /// plus [`rank_unit`]s) when no five of them share a suit.
    #[inline(always)]
    pub fn seven_rank_strength(&self, rank_key: u32) -> Strength {
        self.row_hash(SEVEN_ROWS, SEVEN_SLOTS, SEVEN_SLOT_MASK, rank_key)
    }

    /// The strength of 5 or 6 cards with this rank key (a sum of
    /// [`rank_unit`]s) when no five of them share a suit: how Omaha adds a
    /// hole pair's key to a board triple's and looks the sum up.
    #[inline(always)]
    pub fn fewer_rank_strength(&self, rank_key: u32) -> Strength {
        self.row_hash(FEWER_ROWS, FEWER_SLOTS, FEWER_SLOT_MASK, rank_key)
    }

    /// Where [`Self::strength`] reads `hand`'s strength in the one array of
    /// tables: a hand's slot depends on its rank multiset alone (or, with
    /// five cards of a suit, on that suit's rank mask), so another table of
    /// the same layout can hold other rules' strengths for the same slots
    /// (short deck, [`crate::holdem::shortdeck`]). Equal to `strength` read
    /// through [`Self::at`].
    #[inline(always)]
    pub fn strength_index(&self, hand: Hand) -> usize {
        let flush = hand.key & FLUSH_BITS;
        if flush != 0 {
            let suit = (flush.trailing_zeros() - SUIT_SHIFT - 3) / 4;
            let mask = (hand.suits >> (16 * suit)) as u16;
            return FLUSHES + (mask & 0x1fff) as usize;
        }
        let (rows, slots, slot_mask) = if hand.key & FEWER_BIT == 0 {
            (SEVEN_ROWS, SEVEN_SLOTS, SEVEN_SLOT_MASK)
        } else {
            (FEWER_ROWS, FEWER_SLOTS, FEWER_SLOT_MASK)
        };
        let rank_key = hand.key as u32;
        let offset = self.t[rows + (rank_key as usize & ROW_MASK)];
        let slot = (rank_key >> ROW_BITS) as usize + offset as usize;
        slots + (slot & slot_mask)
    }

    /// The entry at `index` (a [`Self::strength_index`]).
    #[inline(always)]
    pub fn at(&self, index: usize) -> Strength {
        self.t[index]
    }

    /// The number of entries: the length of a table with this layout.
    pub const LEN: usize = TABLES_LEN;

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
/// level, so each hand costs one addition and its own lookup: this is both
/// the oracle test's walk and the sequential-evaluation benchmark. How the
/// loops stay short (flush tests hoisted out of them): see [`enumerate`].
#[inline]
pub fn for_each_seven_card_strength(t: &Tables, f: impl FnMut(Strength)) {
    enumerate::walk(t, f)
}

/// The tables (generated at build time: no cost at first use).
#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}

/// The slow, obviously correct evaluator: classify every 5-card subset by
/// the rules and keep the best.
pub mod reference {
    use super::{tables, Strength};
    use crate::cards::Card;

    pub use super::tablegen::{
        class_values_in, for_each_multiset_from, value_in, value_of_ranks, Ranking, Value, HOLDEM,
    };

    /// Value of exactly 5 cards.
    pub fn value5(cards: [Card; 5]) -> Value {
        value5_in(HOLDEM, &cards)
    }

    /// Value of exactly 5 cards by a game's `ranking`.
    pub fn value5_in(ranking: Ranking, cards: &[Card]) -> Value {
        let mut counts = [0u8; 13];
        cards
            .iter()
            .for_each(|c| counts[c.rank().index() as usize] += 1);
        let flush = cards.iter().all(|c| c.suit() == cards[0].suit());
        value_in(ranking, &counts, flush)
    }

    /// The best 5 of 5 to 7 cards and its value.
    pub fn best_five(cards: &[Card]) -> ([Card; 5], Value) {
        super::first_best_subset(cards, value5)
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
        CLASSES.get_or_init(super::tablegen::class_values)
    }

    /// Touches the fast tables too, so a caller timing either starts warm.
    pub fn warm() {
        let _ = tables();
        let _ = classes();
    }
}

/// The first of the highest-scoring 5-card subsets of 5 to 7 cards, in
/// lexicographic order of positions, and its score: the one walk behind
/// both the reference's [`reference::best_five`] (scored by value) and
/// [`strongest_five`] (scored by the fast tables), so that the two pick the
/// same five (equal strengths are equal values).
pub(crate) fn first_best_subset<S: PartialOrd + Default>(
    cards: &[Card],
    score: impl Fn([Card; 5]) -> S,
) -> ([Card; 5], S) {
    let n = cards.len();
    assert!((5..=7).contains(&n), "5 to 7 cards");
    let mut best = ([cards[0]; 5], S::default());
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    for e in d + 1..n {
                        let five = [cards[a], cards[b], cards[c], cards[d], cards[e]];
                        let s = score(five);
                        if s > best.1 {
                            best = (five, s);
                        }
                    }
                }
            }
        }
    }
    best
}

/// The first of the strongest 5-card subsets of 5 to 7 cards, scored with
/// the fast tables (see [`first_best_subset`]).
fn strongest_five(cards: &[Card]) -> [Card; 5] {
    let t = tables();
    first_best_subset(cards, |f| t.strength(Hand::from_cards(&f))).0
}

/// The best five cards of 5 to 7, strongest first within their groups (for
/// display: `As Ks Qs Js Ts`).
pub fn best_five(cards: &[Card]) -> [Card; 5] {
    let mut five = strongest_five(cards);
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
                // Both one-at-a-time forms: keys only, and the whole hand.
                assert_eq!(evaluate(cards), Hand::from_cards(cards).strength());
                assert_eq!(
                    evaluate(cards),
                    reference::evaluate(cards),
                    "{}",
                    crate::cards::format_cards(cards)
                );
                // The slot read through the index is the strength.
                let hand = Hand::from_cards(cards);
                assert_eq!(tables().at(tables().strength_index(hand)), hand.strength());
                // The fast subset pick is the reference's subset.
                assert_eq!(strongest_five(cards), reference::best_five(cards).0);
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
            tablegen::for_each_multiset(n, &mut |counts| keys.push(tablegen::rank_key(counts)));
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

    /// The tables built into the binary are byte for byte what the
    /// generator gives now (a stale or mis-decoded file fails here).
    #[test]
    fn included_tables_are_what_the_generator_gives() {
        let fresh = tablegen::tables();
        assert_eq!(fresh.len(), TABLES_LEN);
        assert!(fresh[..] == tables().t[..], "build.rs output differs");
    }

    /// Every entry the lookups can reach, against the slow reference (best
    /// five of n by brute force) on real cards: each rank multiset of 5, 6
    /// and 7 cards dealt without a flush, and each suit mask of 5 to 7
    /// cards as one suit.
    #[test]
    fn every_rank_multiset_and_flush_matches_the_reference() {
        let t = tables();
        for n in 5..=7u8 {
            let mut checked = 0;
            tablegen::for_each_multiset(n, &mut |counts| {
                // Copies of a rank take consecutive suits, cycling over the
                // hand: at most 2 cards of a suit, distinct cards.
                let mut cards = Vec::with_capacity(7);
                for (rank, &c) in counts.iter().enumerate() {
                    for _ in 0..c {
                        let suit = cards.len() % 4;
                        cards.push(Card::from_index((4 * rank + suit) as u8));
                    }
                }
                let fast = t.strength(Hand::from_cards(&cards));
                assert_eq!(fast, reference::evaluate(&cards), "{cards:?}");
                checked += 1;
            });
            assert_eq!(checked, [6_175, 18_395, 49_205][n as usize - 5]);
        }
        for mask in 0u16..1 << 13 {
            let n = mask.count_ones();
            if (5..=7).contains(&n) {
                let cards: Vec<Card> = (0..13)
                    .filter(|r| mask >> r & 1 == 1)
                    .map(|r| Card::from_index(4 * r + 1))
                    .collect();
                assert_eq!(t.flush_strength(mask), reference::evaluate(&cards));
                assert_eq!(Hand::from_cards(&cards).strength(), t.flush_strength(mask));
            }
        }
    }

    #[test]
    fn tables_are_about_the_documented_size() {
        let bytes = tables().size_bytes();
        assert!(bytes < 400_000, "{bytes}");
    }
}
