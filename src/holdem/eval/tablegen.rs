//! The evaluator's table generator: the one place that computes the lookup
//! tables from the slow reference classification of 5-card hands.
//!
//! It is compiled twice: by `build.rs` (through `#[path]`), which runs it
//! once per build and writes the tables into `OUT_DIR` for the library to
//! include, so no run of cardsim pays for building them; and by the library
//! as `holdem::eval::tablegen`, whose reference evaluator uses
//! [`value_of_ranks`] and whose tests regenerate the tables and compare.
//! It therefore depends on nothing but `std`.
//!
//! The layout constants below are shared the same way, so the generator and
//! the lookups cannot disagree about where a table starts.

/// What a card of each rank (deuce first) adds to a hand's rank key: the
/// smallest increasing numbers such that every multiset of at most 7 cards
/// (at most 4 of a rank) has its own sum, found by the greedy search of
/// `examples/rank_multipliers.rs` and checked by a test. A 7-card sum
/// stays below 2^25.
pub const RANK_MULTIPLIERS: [u32; 13] = [
    1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520,
];

/// The largest rank key of at most 7 cards: four aces and three kings.
pub const MAX_RANK_KEY: u32 = 4 * RANK_MULTIPLIERS[12] + 3 * RANK_MULTIPLIERS[11];

/// A row-displacement hash takes its row from a key's low `ROW_BITS`.
pub const ROW_BITS: u32 = 13;
pub const ROW_MASK: usize = (1 << ROW_BITS) - 1;
/// Where each table starts in the one array of tables, and the index masks
/// of the hash slots (powers of two above the slots the rows fill).
pub const SEVEN_ROWS: usize = 0;
pub const SEVEN_SLOTS: usize = SEVEN_ROWS + (1 << ROW_BITS);
pub const SEVEN_SLOT_MASK: usize = (1 << 16) - 1;
pub const FEWER_ROWS: usize = SEVEN_SLOTS + SEVEN_SLOT_MASK + 1;
pub const FEWER_SLOTS: usize = FEWER_ROWS + (1 << ROW_BITS);
pub const FEWER_SLOT_MASK: usize = (1 << 15) - 1;
pub const FLUSHES: usize = FEWER_SLOTS + FEWER_SLOT_MASK + 1;
pub const TABLES_LEN: usize = FLUSHES + (1 << 13);

/// A 5-card hand's value: category in bits 20.., then the ranks that break
/// ties, most important first, 4 bits each. Comparable; not dense.
pub type Value = u32;

/// What sets a game's ranking of five cards apart from hold'em's: its
/// lowest rank (the ace also plays just below it, in the lowest straight)
/// and whether a flush beats a full house (short deck, which has fewer
/// cards of each suit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranking {
    pub lowest: u8,
    pub flush_over_full_house: bool,
}

/// Hold'em's ranking: 52 cards, A-2-3-4-5 the lowest straight.
pub const HOLDEM: Ranking = Ranking {
    lowest: 0,
    flush_over_full_house: false,
};

/// Value of 5 cards given their rank counts, flush or not, by hold'em's
/// ranking ([`value_in`]).
pub fn value_of_ranks(counts: &[u8; 13], flush: bool) -> Value {
    value_in(HOLDEM, counts, flush)
}

/// Value of 5 cards given their rank counts, flush or not: the rules of
/// poker, written out plainly, by `ranking`. The category (bits 20..) is
/// the position in the game's order of categories, weakest first.
pub fn value_in(ranking: Ranking, counts: &[u8; 13], flush: bool) -> Value {
    // Groups by (count, rank), largest count then highest rank first.
    let mut groups: Vec<(u8, u8)> = (0..13u8)
        .rev()
        .filter(|&r| counts[r as usize] > 0)
        .map(|r| (counts[r as usize], r))
        .collect();
    groups.sort_by(|a, b| b.cmp(a));
    let low_top = ranking.lowest + 3;
    let straight_top = if groups.len() == 5 {
        let (top, low) = (groups[0].1, groups[4].1);
        if top - low == 4 {
            Some(top)
        } else if top == 12 && groups[1].1 == low_top && low == ranking.lowest {
            // The ace plays low: A-2-3-4-5 is five high (A-6-7-8-9 nine
            // high in short deck).
            Some(low_top)
        } else {
            None
        }
    } else {
        None
    };
    let (full_house, plain_flush) = if ranking.flush_over_full_house {
        (5, 6)
    } else {
        (6, 5)
    };
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let category: u32 = match (straight_top, flush, shape.as_slice()) {
        (Some(_), true, _) => 8,
        (_, _, [4, 1]) => 7,
        (_, _, [3, 2]) => full_house,
        (None, true, _) => plain_flush,
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

/// Every 5-card class value of hold'em in order: position + 1 is the
/// strength.
pub fn class_values() -> Vec<Value> {
    class_values_in(HOLDEM)
}

/// Every 5-card class value of a game in order: each multiset of five of
/// its ranks, and as a flush too when its ranks are distinct.
pub fn class_values_in(ranking: Ranking) -> Vec<Value> {
    let mut values = Vec::with_capacity(7462);
    for_each_multiset_from(ranking.lowest, 5, &mut |counts| {
        values.push(value_in(ranking, counts, false));
        if counts.iter().all(|&c| c <= 1) {
            values.push(value_in(ranking, counts, true));
        }
    });
    values.sort_unstable();
    values.dedup();
    values
}

/// The rank counts of a 13-bit rank mask (one card of each rank in it).
fn mask_counts(mask: u32) -> [u8; 13] {
    let mut counts = [0u8; 13];
    (0..13).for_each(|r| counts[r] = ((mask >> r) & 1) as u8);
    counts
}

/// Calls `f` with the rank counts of every multiset of `n` cards (at most 4
/// of a rank).
pub fn for_each_multiset(n: u8, f: &mut dyn FnMut(&[u8; 13])) {
    for_each_multiset_from(0, n, f);
}

/// [`for_each_multiset`] of the ranks from `lowest` up (the others' counts
/// 0).
pub fn for_each_multiset_from(lowest: u8, n: u8, f: &mut dyn FnMut(&[u8; 13])) {
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
    go(lowest as usize, n, &mut [0; 13], f);
}

/// The rank key of a multiset: the sum of its cards' multipliers.
pub fn rank_key(counts: &[u8; 13]) -> u32 {
    counts
        .iter()
        .zip(RANK_MULTIPLIERS)
        .map(|(&c, m)| u32::from(c) * m)
        .sum()
}

/// The strength (1-based position among the class values) of a value.
fn strength_of(classes: &[Value], v: Value) -> u16 {
    let i = classes
        .binary_search(&v)
        .unwrap_or_else(|_| panic!("value {v:#x} is not a class"));
    (i + 1) as u16
}

/// Best flush (or straight flush) of every 13-bit suit mask, 0 below five
/// cards: five cards from the reference; more cards are worth their best
/// subset with one card fewer (the best five of n cards are among some n-1
/// of them), which masks in increasing order have already computed.
fn flush_table(classes: &[Value]) -> Vec<u16> {
    let mut flush = vec![0; 1 << 13];
    for mask in 0..1usize << 13 {
        flush[mask] = match mask.count_ones() {
            0..=4 => 0,
            5 => strength_of(classes, value_of_ranks(&mask_counts(mask as u32), true)),
            _ => (0..13)
                .filter(|r| mask >> r & 1 == 1)
                .map(|r| flush[mask & !(1 << r)])
                .max()
                .unwrap_or(0),
        };
    }
    flush
}

/// All the tables, [`TABLES_LEN`] strengths laid out as the constants above
/// say.
pub fn tables() -> Vec<u16> {
    let classes = class_values();
    assert_eq!(classes.len(), 7462, "the reference gives 7462 classes");
    // 5-card multisets from the reference; a 6- or 7-card multiset is worth
    // its best sub-multiset with one card fewer (the best five of n cards
    // are among some n-1 of them), so each costs up to 13 lookups.
    let mut by_key = KeyMap::new();
    let mut fewer = Vec::with_capacity(24_570);
    let mut seven = Vec::with_capacity(49_205);
    for n in 5..=7 {
        for_each_multiset(n, &mut |counts| {
            let key = rank_key(counts);
            let s = if n == 5 {
                strength_of(&classes, value_of_ranks(counts, false))
            } else {
                (0..13)
                    .filter(|&r| counts[r] > 0)
                    .map(|r| by_key.get(key - RANK_MULTIPLIERS[r]))
                    .max()
                    .unwrap_or(0)
            };
            if n < 7 {
                by_key.insert(key, s);
                fewer.push((key, s));
            } else {
                seven.push((key, s));
            }
        });
    }
    let mut t = vec![0; TABLES_LEN];
    displace_rows(&seven, &mut t[SEVEN_ROWS..FEWER_ROWS]);
    displace_rows(&fewer, &mut t[FEWER_ROWS..FLUSHES]);
    t[FLUSHES..].copy_from_slice(&flush_table(&classes));
    t
}

/// The strengths of the 5- and 6-card rank keys while the tables are built:
/// open addressing with a multiplicative hash, so the build (which runs
/// unoptimized in `build.rs`) does not spend its time hashing.
struct KeyMap {
    slots: Vec<(u32, u16)>,
}

impl KeyMap {
    const BITS: u32 = 16;

    fn new() -> KeyMap {
        // 24,570 keys in 65,536 slots; key 0 (no cards) is never stored.
        KeyMap {
            slots: vec![(0, 0); 1 << Self::BITS],
        }
    }

    fn home(key: u32) -> usize {
        (key.wrapping_mul(0x9e37_79b1) >> (32 - Self::BITS)) as usize
    }

    fn insert(&mut self, key: u32, s: u16) {
        let mut i = Self::home(key);
        while self.slots[i].0 != 0 {
            i = (i + 1) & ((1 << Self::BITS) - 1);
        }
        self.slots[i] = (key, s);
    }

    fn get(&self, key: u32) -> u16 {
        let mut i = Self::home(key);
        loop {
            match self.slots[i] {
                (k, s) if k == key => return s,
                (0, _) => panic!("rank key {key} was not stored"),
                _ => i = (i + 1) & ((1 << Self::BITS) - 1),
            }
        }
    }
}

/// Row displacement, first fit, fullest rows first: each row goes to the
/// lowest offset where all its keys land on free slots. Offsets are tried
/// 64 at a time against a bitmap of the filled slots, which keeps the build
/// fast when the table is nearly full. `out` receives the `1 << ROW_BITS`
/// row offsets, then the slots.
fn displace_rows(entries: &[(u32, u16)], out: &mut [u16]) {
    const _: () = assert!((MAX_RANK_KEY >> ROW_BITS) < 1 << 16);
    let (offsets, slots) = out.split_at_mut(1 << ROW_BITS);
    let n_slots = slots.len();
    let mut rows: Vec<Vec<(usize, u16)>> = vec![Vec::new(); 1 << ROW_BITS];
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
            // Bit i of `blocked`: offset start + i puts a key on a filled
            // slot. Near the filled frontier most windows are blocked by
            // the first two or three keys, so the scan stops there.
            let mut blocked = 0;
            for &(col, _) in row {
                blocked |= filled.window(start + col);
                if blocked == u64::MAX {
                    break;
                }
            }
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

/// A bitmap of a table's filled slots; every bit past the table's end reads
/// as filled, so no offset can push a key out of it.
struct Filled {
    words: Vec<u64>,
    first_free: usize,
}

impl Filled {
    fn new(slots: usize) -> Filled {
        // Room past the end for a window at any offset below `slots` plus
        // the widest row's span (under 1 << 16 columns).
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
