//! Exact heads-up preflop all-in equity by table.
//!
//! Two hands all-in before the flop are the most common all-in, and their
//! exact equity needs every one of the C(48, 5) = 1,712,304 boards. The
//! outcome depends on the two hands only up to a renaming of suits and the
//! order of the players, so every matchup is stored once per class: the
//! 1326 * 1225 ordered matchups fall into [`CLASSES`] classes, each
//! enumerated exactly once by [`board_enum::enumerate_boards`] (the same
//! exact enumerator `cardsim equity --exact` uses) and kept as integer board
//! counts in `data/preflop_hu.bin`, which is compiled in and decoded on first
//! use (a few hundred microseconds).
//!
//! A class is named by its *key*: the smallest of the 48 renamings (24 suit
//! permutations, two player orders) of the matchup, written as four card
//! indices `a b c d` (each hand's higher index first) packed 6 bits each,
//! `a << 18 | b << 12 | c << 6 | d`. Whether the smallest renaming swapped
//! the players says which stored count belongs to which player.
//!
//! The file (all integers little-endian LEB128 varints after the header):
//! `b"HUPF"`, the class count, then per class in increasing key order: the
//! key's increase over the previous key, the first hand's outright wins and
//! the ties (the second hand's wins are the rest of the boards). Made by
//! `cargo run --release --example preflop_table -- src/holdem/equity/data/preflop_hu.bin`;
//! a test recomputes a random sample of it and checks every matchup maps to
//! an equivalent class.
//!
//! [`board_enum::enumerate_boards`]: super::board_enum::enumerate_boards

use std::sync::OnceLock;

use thiserror::Error;

use super::board_enum::{enumerate_boards, Counts};
use super::types::UNITS;
use crate::cards::{Card, CardSet};
use crate::holdem::eval::Tables;

/// Boards that complete a heads-up preflop all-in: C(48, 5).
pub const BOARDS: u64 = 1_712_304;
/// Classes of heads-up matchups up to suit renaming and player order.
pub const CLASSES: usize = 47_008;

/// The generated table, compiled in.
static DATA: &[u8] = include_bytes!("data/preflop_hu.bin");
const MAGIC: &[u8; 4] = b"HUPF";

/// Board counts of one matchup, for the players in the order asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Boards each player wins outright.
    pub wins: [u32; 2],
    /// Boards the two split.
    pub ties: u32,
}

impl Outcome {
    /// Player `i`'s expected share of the pot.
    pub fn equity(&self, i: usize) -> f64 {
        (f64::from(self.wins[i]) + 0.5 * f64::from(self.ties)) / BOARDS as f64
    }

    /// The same counts in [`board_enum`](super::board_enum)'s form: what
    /// `enumerate_boards` returns for the two hands.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        let units = UNITS as i64;
        for i in 0..2 {
            c.wins[i] = i64::from(self.wins[i]);
            c.ties[i] = i64::from(self.ties);
            c.shares[i] = units * i64::from(self.wins[i]) + units / 2 * i64::from(self.ties);
        }
        c.boards = BOARDS as i64;
        c
    }

    fn swapped(self) -> Outcome {
        Outcome {
            wins: [self.wins[1], self.wins[0]],
            ties: self.ties,
        }
    }
}

/// Why the compiled-in table cannot be read (a corrupt or stale file: the
/// tests catch it before it ships).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TableError {
    #[error("the preflop table does not start with its magic bytes")]
    Magic,
    #[error("the preflop table ends early")]
    Truncated,
    #[error("the preflop table holds {0} classes, expected {CLASSES}")]
    Count(usize),
    #[error("the preflop table's entry {0} is out of order or out of range")]
    Entry(usize),
    #[error("the preflop table has {0} bytes after its last entry")]
    Trailing(usize),
}

/// The decoded table: keys in increasing order and their counts.
pub struct Table {
    keys: Vec<u32>,
    /// First hand's wins and the ties, per key.
    counts: Vec<[u32; 2]>,
}

impl Table {
    /// Decodes the file format described in the module documentation.
    pub fn decode(bytes: &[u8]) -> Result<Table, TableError> {
        let rest = bytes.strip_prefix(MAGIC).ok_or(TableError::Magic)?;
        let mut r = Reader(rest);
        let n = r.varint()? as usize;
        if n != CLASSES {
            return Err(TableError::Count(n));
        }
        let mut keys = Vec::with_capacity(n);
        let mut counts = Vec::with_capacity(n);
        let mut key = 0u64;
        for i in 0..n {
            let step = r.varint()?;
            let wins = r.varint()?;
            let ties = r.varint()?;
            key += step;
            if (i > 0 && step == 0) || key >= 1 << 24 || wins + ties > BOARDS {
                return Err(TableError::Entry(i));
            }
            keys.push(key as u32);
            counts.push([wins as u32, ties as u32]);
        }
        if !r.0.is_empty() {
            return Err(TableError::Trailing(r.0.len()));
        }
        Ok(Table { keys, counts })
    }

    /// The outcome of hand `a` against hand `b`; `None` when they share a
    /// card (or a class is missing, which a test rules out).
    pub fn lookup(&self, a: [Card; 2], b: [Card; 2]) -> Option<Outcome> {
        if a[0] == a[1] || b[0] == b[1] || a.contains(&b[0]) || a.contains(&b[1]) {
            return None;
        }
        let (key, swapped) = canonical(a, b);
        let i = self.keys.binary_search(&key).ok()?;
        let [wins, ties] = self.counts[i];
        let o = Outcome {
            wins: [wins, (BOARDS - u64::from(wins) - u64::from(ties)) as u32],
            ties,
        };
        Some(if swapped { o.swapped() } else { o })
    }

    /// Every class key, in increasing order.
    pub fn keys(&self) -> &[u32] {
        &self.keys
    }
}

/// The compiled-in table, decoded on first use.
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        Table::decode(DATA).expect("the compiled-in preflop table is valid (checked by tests)")
    })
}

/// The outcome of hand `a` against hand `b` from the compiled-in table;
/// `None` when they share a card.
pub fn lookup(a: [Card; 2], b: [Card; 2]) -> Option<Outcome> {
    table().lookup(a, b)
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn varint(&mut self) -> Result<u64, TableError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let (&b, rest) = self.0.split_first().ok_or(TableError::Truncated)?;
            self.0 = rest;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(TableError::Truncated)
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The 24 permutations of the four suits (`p[suit]` = new suit).
const PERMS: [[u8; 4]; 24] = {
    let mut out = [[0u8; 4]; 24];
    let mut n = 0;
    let mut code = 0;
    while code < 256 {
        let p = [code & 3, (code >> 2) & 3, (code >> 4) & 3, (code >> 6) & 3];
        let mut seen = 0u8;
        let mut i = 0;
        while i < 4 {
            seen |= 1 << p[i];
            i += 1;
        }
        if seen == 15 {
            out[n] = [p[0] as u8, p[1] as u8, p[2] as u8, p[3] as u8];
            n += 1;
        }
        code += 1;
    }
    out
};

/// A hand's key under suit permutation `p`: its two renamed card indices,
/// higher first, packed 6 bits each.
#[inline(always)]
fn hand_key(h: [Card; 2], p: &[u8; 4]) -> u32 {
    let x = u32::from(h[0].index() & !3 | p[usize::from(h[0].index() & 3)]);
    let y = u32::from(h[1].index() & !3 | p[usize::from(h[1].index() & 3)]);
    x.max(y) << 6 | x.min(y)
}

/// The class key of hand `a` against hand `b` (two disjoint hands), and
/// whether it lists `b` first: the smallest packed key over every suit
/// renaming and both player orders.
pub fn canonical(a: [Card; 2], b: [Card; 2]) -> (u32, bool) {
    let mut best = u32::MAX;
    let mut swapped = false;
    for p in &PERMS {
        let (ka, kb) = (hand_key(a, p), hand_key(b, p));
        let straight = ka << 12 | kb;
        let reverse = kb << 12 | ka;
        if straight < best {
            best = straight;
            swapped = false;
        }
        if reverse < best {
            best = reverse;
            swapped = true;
        }
    }
    (best, swapped)
}

/// The two hands a key names (first hand, second hand).
pub fn key_hands(key: u32) -> ([Card; 2], [Card; 2]) {
    let c = |shift: u32| Card::from_index(((key >> shift) & 63) as u8);
    ([c(18), c(12)], [c(6), c(0)])
}

/// Every class key, in increasing order: the canonical key of each of the
/// 1326 * 1225 ordered matchups, deduplicated.
pub fn all_keys() -> Vec<u32> {
    let hands: Vec<[Card; 2]> = (0..52u8)
        .flat_map(|x| (0..x).map(move |y| [Card::from_index(x), Card::from_index(y)]))
        .collect();
    let mut keys: Vec<u32> = Vec::new();
    for &a in &hands {
        for &b in &hands {
            if !a.contains(&b[0]) && !a.contains(&b[1]) {
                keys.push(canonical(a, b).0);
            }
        }
    }
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// Exact counts of one matchup by the board enumerator (the slow path the
/// table replaces).
pub fn compute(t: &Tables, a: [Card; 2], b: [Card; 2]) -> Outcome {
    let taken = CardSet(a[0].bit() | a[1].bit() | b[0].bit() | b[1].bit());
    let deck = CardSet::FULL52.difference(taken).to_vec();
    let c = enumerate_boards(t, &[a, b], &[], &deck);
    debug_assert_eq!(c.boards, BOARDS as i64);
    Outcome {
        wins: [c.wins[0] as u32, c.wins[1] as u32],
        ties: c.ties[0] as u32,
    }
}

/// The file's bytes for these keys (increasing) and their outcomes (the
/// first hand of each key's first).
pub fn encode(entries: &[(u32, Outcome)]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    put_varint(&mut out, entries.len() as u64);
    let mut prev = 0u32;
    for &(key, o) in entries {
        put_varint(&mut out, u64::from(key - prev));
        put_varint(&mut out, u64::from(o.wins[0]));
        put_varint(&mut out, u64::from(o.ties));
        prev = key;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::test_hole as hole;

    #[test]
    fn perms_are_the_24_distinct_ones() {
        let mut seen = PERMS.to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 24);
        assert!(PERMS.contains(&[0, 1, 2, 3]));
    }

    #[test]
    fn decode_rejects_damaged_files() {
        assert_eq!(Table::decode(b"HUPX").err(), Some(TableError::Magic));
        assert_eq!(
            Table::decode(&DATA[..DATA.len() - 1]).err(),
            Some(TableError::Truncated)
        );
        let mut longer = DATA.to_vec();
        longer.push(0);
        assert_eq!(Table::decode(&longer).err(), Some(TableError::Trailing(1)));
        let mut out = MAGIC.to_vec();
        put_varint(&mut out, 5);
        assert_eq!(Table::decode(&out).err(), Some(TableError::Count(5)));
    }

    #[test]
    fn known_matchups() {
        // AA vs KK sharing one suit: 81.9461% for the aces (the figure
        // `cardsim equity AsAh KsKd` printed before the table), and the
        // swap is complementary.
        let o = lookup(hole("As Ah"), hole("Ks Kd")).expect("disjoint hands");
        assert_eq!(format!("{:.4}", 100.0 * o.equity(0)), "81.9461");
        let r = lookup(hole("Ks Kd"), hole("As Ah")).expect("disjoint hands");
        assert_eq!(r.wins, [o.wins[1], o.wins[0]]);
        assert_eq!(r.ties, o.ties);
        // Shared cards: no answer.
        assert_eq!(lookup(hole("As Ah"), hole("As Kc")), None);
        // AKs against its suit-mirror AKs of another suit: a coin flip.
        let m = lookup(hole("As Ks"), hole("Ah Kh")).expect("disjoint hands");
        assert_eq!(m.wins[0], m.wins[1]);
    }

    /// Renames the suits of a hand.
    fn rename(h: [Card; 2], p: &[u8; 4]) -> [Card; 2] {
        h.map(|c| Card::from_index(c.index() & !3 | p[usize::from(c.index() & 3)]))
    }

    fn same_hand(x: [Card; 2], y: [Card; 2]) -> bool {
        (x[0] == y[0] && x[1] == y[1]) || (x[0] == y[1] && x[1] == y[0])
    }

    #[test]
    fn file_holds_exactly_the_classes_of_every_matchup() {
        assert_eq!(table().keys(), all_keys().as_slice());
        assert_eq!(table().keys().len(), CLASSES);
    }

    /// Every one of the 1326 * 1225 ordered matchups: its key names an
    /// equivalent matchup (a suit renaming of it, in the order the swap flag
    /// says), a suit-renamed copy gets the same answer, and the swapped
    /// order the complementary one.
    #[test]
    fn every_ordered_matchup_maps_to_its_class() {
        let t = table();
        let hands: Vec<[Card; 2]> = (0..52u8)
            .flat_map(|x| (0..x).map(move |y| [Card::from_index(x), Card::from_index(y)]))
            .collect();
        let mut matchups = 0u64;
        let mut equity_sum = 0.0f64;
        for (i, &a) in hands.iter().enumerate() {
            for (j, &b) in hands.iter().enumerate() {
                if a.contains(&b[0]) || a.contains(&b[1]) {
                    assert_eq!(t.lookup(a, b), None);
                    continue;
                }
                matchups += 1;
                let (key, swapped) = canonical(a, b);
                let (x, y) = key_hands(key);
                let (first, second) = if swapped { (b, a) } else { (a, b) };
                assert!(
                    PERMS
                        .iter()
                        .any(|p| same_hand(rename(first, p), x) && same_hand(rename(second, p), y)),
                    "{a:?} {b:?} -> {key:x}"
                );
                let o = t.lookup(a, b).expect("every class is in the table");
                assert_eq!(
                    u64::from(o.wins[0]) + u64::from(o.wins[1]) + u64::from(o.ties),
                    BOARDS
                );
                let r = t.lookup(b, a).expect("every class is in the table");
                assert_eq!((r.wins, r.ties), ([o.wins[1], o.wins[0]], o.ties));
                let p = &PERMS[(i * 7 + j * 13) % 24];
                assert_eq!(t.lookup(rename(a, p), rename(b, p)), Some(o));
                // The order of a hand's own two cards does not matter.
                assert_eq!(t.lookup([a[1], a[0]], [b[1], b[0]]), Some(o));
                equity_sum += o.equity(0);
            }
        }
        assert_eq!(matchups, 1326 * 1225);
        // Over all ordered matchups each side wins as often as the other.
        assert!((equity_sum / matchups as f64 - 0.5).abs() < 1e-9);
    }

    /// A seeded random sample of classes recomputed by the exact board
    /// enumerator: the same integers, in the enumerator's own form too.
    #[test]
    fn a_random_sample_recomputes_exactly() {
        use rand::RngExt;
        let t = crate::holdem::eval::tables();
        let keys = table().keys();
        let mut rng = crate::rng::game_rng(14, 7);
        for _ in 0..40 {
            let key = keys[rng.random_range(0..keys.len())];
            let (a, b) = key_hands(key);
            let o = lookup(a, b).expect("a class");
            assert_eq!(compute(t, a, b), o, "{a:?} {b:?}");
            let taken = CardSet(a[0].bit() | a[1].bit() | b[0].bit() | b[1].bit());
            let deck = CardSet::FULL52.difference(taken).to_vec();
            assert_eq!(enumerate_boards(t, &[a, b], &[], &deck), o.counts());
        }
    }

    /// One matchup counted board by board (no rank patterns, no table): a
    /// check independent of the enumerator that made the file.
    #[test]
    fn one_matchup_counted_board_by_board() {
        use crate::holdem::eval::Hand;
        let (a, b) = (hole("Ks Qs"), hole("Ah 7h"));
        let taken: CardSet = a.iter().chain(&b).copied().collect();
        let deck = CardSet::FULL52.difference(taken).to_vec();
        let (ha, hb) = (Hand::from_cards(&a), Hand::from_cards(&b));
        let mut o = Outcome {
            wins: [0, 0],
            ties: 0,
        };
        let n = deck.len();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    for l in k + 1..n {
                        for m in l + 1..n {
                            let board =
                                Hand::from_cards(&[deck[i], deck[j], deck[k], deck[l], deck[m]]);
                            let (x, y) =
                                (board.combine(ha).strength(), board.combine(hb).strength());
                            match x.cmp(&y) {
                                std::cmp::Ordering::Greater => o.wins[0] += 1,
                                std::cmp::Ordering::Less => o.wins[1] += 1,
                                std::cmp::Ordering::Equal => o.ties += 1,
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(lookup(a, b), Some(o));
    }
}
