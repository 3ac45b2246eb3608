//! cardsim's own column-chunk encoder: each column of a row group is
//! encoded as it arrives (from a worker's typed column runs, or a slice of
//! CSV or Arrow rows), and written at the row group's end as one column
//! chunk of standard Parquet pages:
//!
//! - a dictionary column (every column but those [`super::column_encoding`]
//!   names): a dictionary page of the chunk's distinct values (plain, in
//!   the order they first appear) and one data page of definition levels
//!   (RLE) and dictionary indices (`RLE_DICTIONARY`). The dictionary of a
//!   small integer is a table indexed by the value itself, others an
//!   open-addressing map, so no value is hashed twice and nothing is
//!   copied but the index. A text dictionary whose page would pass
//!   [`DICTIONARY_LIMIT`] bytes gives way to plain values.
//! - `game`: its values `DELTA_BINARY_PACKED`; hold'em's board and solve's
//!   hands and first moves: `DELTA_LENGTH_BYTE_ARRAY`.
//! - a chunk of nulls only: one data page of definition levels.
//!
//! Every page is zstd-compressed at [`super::ZSTD_LEVEL`]; the chunk's
//! statistics (min, max, null count) and page index (column index and
//! offset index) are those the Parquet crate's writer records.

use std::io;

use bytes::Bytes;
use parquet::basic::{Compression, Encoding, PageType, Type as Physical, ZstdLevel};
use parquet::column::page::{CompressedPage, Page, PageWriteSpec, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::ByteArray;
use parquet::file::metadata::{
    ColumnChunkMetaData, ColumnIndexBuilder, LevelHistogram, OffsetIndexBuilder, PageEncodingStats,
};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;

use super::columns::{real_of, Book, Column};
use super::{ColumnType, ParquetError};

/// The largest dictionary page (its plain bytes) a text column keeps; past
/// it the chunk is written as plain values (the Parquet crate's default
/// limit).
pub const DICTIONARY_LIMIT: usize = 1024 * 1024;

// ---------------------------------------------------------------------
// Bit-level encodings (the Parquet format's own definitions).

/// Appends `v` as an unsigned LEB128 varint.
#[inline]
fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[inline]
fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// Appends `values` (each below `2^width`) `width` bits each, the first
/// value in the lowest bits of the first byte; the last byte is padded
/// with zeros.
fn pack(out: &mut Vec<u8>, values: impl Iterator<Item = u64>, width: u32) {
    if width == 0 {
        return;
    }
    let mut acc: u128 = 0;
    let mut bits = 0u32;
    for v in values {
        acc |= u128::from(v) << bits;
        bits += width;
        if bits >= 64 {
            out.extend_from_slice(&(acc as u64).to_le_bytes());
            acc >>= 64;
            bits -= 64;
        }
    }
    while bits > 0 {
        out.push(acc as u8);
        acc >>= 8;
        bits = bits.saturating_sub(8);
    }
}

/// The bits a value up to `max` takes.
fn width_of(max: u64) -> u32 {
    64 - max.leading_zeros()
}

/// Values of a bit-packed run, at most (63 groups of 8, one header byte).
const LITERAL_RUN: usize = 63 * 8;

/// Appends `values` as bit-packed runs (groups of 8, the last padded with
/// zeros).
fn literals<T: Copy + Into<u64>>(out: &mut Vec<u8>, values: &[T], width: u32) {
    for run in values.chunks(LITERAL_RUN) {
        let groups = run.len().div_ceil(8);
        varint(out, ((groups as u64) << 1) | 1);
        pack_groups(out, run, width);
    }
}

/// Appends `values` `width` (at most 32) bits each in groups of 8, the
/// last group padded with zeros, as [`pack`] does (and is tested to). A
/// group of 8 values of `width` bits is exactly `width` bytes, so with
/// the width a constant ([`pack_groups_of`]) every shift in a group is a
/// constant too: no per-value branches, one store of the group.
fn pack_groups<T: Copy + Into<u64>>(out: &mut Vec<u8>, values: &[T], width: u32) {
    macro_rules! widths {
        ($($w:literal)*) => {
            match width {
                0 => {}
                $($w => pack_groups_of::<T, $w>(out, values),)*
                _ => pack(out, values.iter().map(|&v| v.into()).chain(
                    std::iter::repeat_n(0, values.len().next_multiple_of(8) - values.len()),
                ), width),
            }
        };
    }
    widths!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
}

/// [`pack_groups`] for a constant width `W` (1 to 32).
fn pack_groups_of<T: Copy + Into<u64>, const W: usize>(out: &mut Vec<u8>, values: &[T]) {
    let at = out.len();
    out.resize(at + values.len().div_ceil(8) * W, 0);
    let dst = &mut out[at..];
    let (groups, rest) = values.as_chunks::<8>();
    let mut last = [0u64; 8];
    for (k, &v) in rest.iter().enumerate() {
        last[k] = v.into();
    }
    let whole = groups.iter().map(|g| g.map(Into::into));
    let padded = (!rest.is_empty()).then_some(last);
    for (g, to) in whole.chain(padded).zip(dst.chunks_exact_mut(W)) {
        // 8 values of W <= 32 bits: 256 bits at most, in four words.
        let mut words = [0u64; 4];
        for (k, v) in g.into_iter().enumerate() {
            let bit = k * W;
            words[bit / 64] |= v << (bit % 64);
            if bit % 64 + W > 64 {
                words[bit / 64 + 1] |= v >> (64 - bit % 64);
            }
        }
        let mut bytes = [0u8; 32];
        for (b, w) in bytes.chunks_exact_mut(8).zip(words) {
            b.copy_from_slice(&w.to_le_bytes());
        }
        to.copy_from_slice(&bytes[..W]);
    }
}

/// Appends `values` (each below `2^width`) in the RLE / bit-packing hybrid
/// encoding: a value repeated 8 times or more where a bit-packed group may
/// end is a run, the rest bit-packed.
fn rle_hybrid<T: Copy + PartialEq + Into<u64>>(out: &mut Vec<u8>, values: &[T], width: u32) {
    let bytes = width.div_ceil(8) as usize;
    let (mut literal_from, mut i) = (0, 0);
    while i < values.len() {
        // Only a value equal to the next can start a run: skip to one.
        i = next_repeat(values, i);
        let Some(&v) = values.get(i) else { break };
        let mut end = i + 1;
        // Long runs (a column of one value) are compared 8 at a time.
        while values
            .get(end..end + 8)
            .is_some_and(|w| w.iter().fold(true, |all, &x| all & (x == v)))
        {
            end += 8;
        }
        while end < values.len() && values[end] == v {
            end += 1;
        }
        // The literals' last group is filled from the repeats first.
        let fill = (8 - (i - literal_from) % 8) % 8;
        if end - i >= fill + 8 {
            let run_from = i + fill;
            literals(out, &values[literal_from..run_from], width);
            varint(out, ((end - run_from) as u64) << 1);
            out.extend_from_slice(&v.into().to_le_bytes()[..bytes]);
            literal_from = end;
        }
        i = end;
    }
    literals(out, &values[literal_from..], width);
}

/// The first `k >= from` whose value equals the next one's (the length
/// when there is none), checking 8 neighbours at a time.
#[inline]
fn next_repeat<T: Copy + PartialEq>(values: &[T], from: usize) -> usize {
    let mut k = from;
    while k + 9 <= values.len() {
        let w = &values[k..k + 9];
        if (0..8).fold(false, |any, t| any | (w[t] == w[t + 1])) {
            break;
        }
        k += 8;
    }
    while k + 1 < values.len() && values[k] != values[k + 1] {
        k += 1;
    }
    if k + 1 < values.len() {
        k
    } else {
        values.len()
    }
}

/// Appends `values` as `DELTA_BINARY_PACKED`: blocks of 128 deltas, each
/// its least delta and 4 miniblocks of 32 deltas over it, bit-packed.
fn delta_binary_packed(out: &mut Vec<u8>, values: &[i64]) {
    const BLOCK: usize = 128;
    const MINIBLOCK: usize = 32;
    varint(out, BLOCK as u64);
    varint(out, (BLOCK / MINIBLOCK) as u64);
    varint(out, values.len() as u64);
    varint(out, zigzag(values.first().copied().unwrap_or(0)));
    let deltas: Vec<i64> = values.windows(2).map(|w| w[1].wrapping_sub(w[0])).collect();
    for block in deltas.chunks(BLOCK) {
        let least = block.iter().copied().min().unwrap_or(0);
        varint(out, zigzag(least));
        let widths = out.len();
        out.extend_from_slice(&[0; BLOCK / MINIBLOCK]);
        for (m, mini) in block.chunks(MINIBLOCK).enumerate() {
            let over = |d: &i64| d.wrapping_sub(least) as u64;
            let width = width_of(mini.iter().map(over).max().unwrap_or(0));
            out[widths + m] = width as u8;
            let pad = MINIBLOCK - mini.len();
            pack(
                out,
                mini.iter().map(over).chain(std::iter::repeat_n(0, pad)),
                width,
            );
        }
    }
}

// ---------------------------------------------------------------------
// Dictionaries.

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Values a lookup's slot is fetched ahead of its lookup.
const AHEAD: usize = 32;

/// A slot of an open-addressing table: an entry's key (a value's bits, a
/// short text's bytes, a long text's hash), its text's length and its
/// dictionary index (`index + 1`; 0 for an empty slot). The key is in the
/// slot, so a lookup reads one place in memory, not the dictionary too.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    len: u32,
    index: u32,
}

/// Asks the processor to fetch `place` into the cache, so that a read of
/// it a few values later finds it there.
#[inline(always)]
fn fetch<T>(place: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of every x86-64 processor, and a prefetch
        // of a valid address reads nothing back.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(place).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = place;
}

/// An open-addressing table (linear probing, at most half full) from keys
/// to dictionary indices.
struct Table {
    slots: Vec<Slot>,
    /// `64 - log2(slots)`: a hash's top bits pick its first slot.
    shift: u32,
    used: usize,
}

impl Table {
    fn new() -> Table {
        Table {
            slots: vec![Slot::default(); 1 << 10],
            shift: 64 - 10,
            used: 0,
        }
    }

    #[inline]
    fn first(&self, key: u64, len: u32) -> usize {
        let k = key ^ (u64::from(len) << 56);
        ((k ^ (k >> 32)).wrapping_mul(GOLDEN) >> self.shift) as usize
    }

    /// Asks the processor to fetch the first slot of `key` and `len`, so
    /// that its lookup a few values later finds it in the cache.
    #[inline]
    fn prefetch(&self, key: u64, len: u32) {
        fetch(&self.slots[self.first(key, len)]);
    }

    /// The index of the entry of `key` and `len` that `same` confirms
    /// (asked only of an entry of that key and length), or `None` when
    /// there is none: the entry `next` is then added.
    #[inline]
    fn entry(&mut self, key: u64, len: u32, next: u32, same: impl Fn(u32) -> bool) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut at = self.first(key, len);
        loop {
            let s = self.slots[at];
            if s.index == 0 {
                self.slots[at] = Slot {
                    key,
                    len,
                    index: next + 1,
                };
                self.used += 1;
                if self.used * 2 > self.slots.len() {
                    self.grow();
                }
                return None;
            }
            if s.key == key && s.len == len && same(s.index - 1) {
                return Some(s.index - 1);
            }
            at = (at + 1) & mask;
        }
    }

    /// Twice the slots, every entry placed again.
    #[cold]
    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        self.shift -= 1;
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|s| s.index != 0) {
            let mut at = self.first(s.key, s.len);
            while self.slots[at].index != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = s;
        }
    }

    fn clear(&mut self) {
        if self.used > 0 {
            self.slots.fill(Slot::default());
            self.used = 0;
        }
    }
}

/// A text's hash (for texts longer than a key).
fn hash_bytes(b: &[u8]) -> u64 {
    let mut h = (b.len() as u64).wrapping_mul(GOLDEN);
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(GOLDEN);
    }
    (h.rotate_left(23) ^ short_key(words.remainder())).wrapping_mul(GOLDEN)
}

/// Up to 8 bytes as a key (the first in the lowest bits).
#[inline]
fn short_key(b: &[u8]) -> u64 {
    b.iter()
        .take(8)
        .enumerate()
        .fold(0, |k, (i, &byte)| k | u64::from(byte) << (8 * i))
}

/// Integers within this distance of zero are looked up in a table indexed
/// by the value: no hashing.
const DIRECT: i64 = 1 << 14;

/// A dictionary of 64-bit values (integers, or reals by their bits).
struct Words {
    values: Vec<u64>,
    /// For integers: `value + DIRECT` indexes the entry (`index + 1`).
    direct: Vec<u32>,
    table: Table,
}

impl Words {
    fn new(direct: bool) -> Words {
        Words {
            values: Vec::new(),
            direct: if direct {
                vec![0; 2 * DIRECT as usize]
            } else {
                Vec::new()
            },
            table: Table::new(),
        }
    }

    #[inline(always)]
    fn int(&mut self, v: i64) -> u32 {
        let at = v.wrapping_add(DIRECT) as u64;
        if at < 2 * DIRECT as u64 {
            let s = &mut self.direct[at as usize];
            if *s == 0 {
                self.values.push(v as u64);
                *s = self.values.len() as u32;
            }
            return *s - 1;
        }
        self.word(v as u64)
    }

    #[inline]
    fn word(&mut self, k: u64) -> u32 {
        let next = self.values.len() as u32;
        self.table.entry(k, 0, next, |_| true).unwrap_or_else(|| {
            self.values.push(k);
            next
        })
    }

    fn clear(&mut self) {
        self.table.clear();
        if !self.direct.is_empty() {
            for &v in &self.values {
                let at = (v as i64).wrapping_add(DIRECT) as u64;
                if at < 2 * DIRECT as u64 {
                    self.direct[at as usize] = 0;
                }
            }
        }
        self.values.clear();
    }
}

/// A dictionary of texts: their bytes end to end.
struct Texts {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    table: Table,
}

impl Texts {
    fn new() -> Texts {
        Texts {
            bytes: Vec::new(),
            ends: vec![0],
            table: Table::new(),
        }
    }

    fn get(&self, i: usize) -> &[u8] {
        &self.bytes[self.ends[i]..self.ends[i + 1]]
    }

    fn len(&self) -> usize {
        self.ends.len() - 1
    }

    /// The index of text `t`, whose key (when it is at most 8 bytes:
    /// its bytes as a word, from [`super::columns::Texts::key`]) is `key`;
    /// a text not yet in the dictionary is added.
    #[inline]
    fn text(&mut self, t: &[u8], key: Option<u64>) -> u32 {
        let next = self.len() as u32;
        let len = u32::try_from(t.len()).unwrap_or(u32::MAX);
        let found = match key {
            // The key is the text.
            Some(key) => self.table.entry(key, len, next, |_| true),
            None if t.len() <= 8 => self.table.entry(short_key(t), len, next, |_| true),
            None => {
                let (bytes, ends) = (&self.bytes, &self.ends);
                self.table.entry(hash_bytes(t), len, next, |i| {
                    &bytes[ends[i as usize]..ends[i as usize + 1]] == t
                })
            }
        };
        found.unwrap_or_else(|| {
            self.bytes.extend_from_slice(t);
            self.ends.push(self.bytes.len());
            next
        })
    }

    /// Adds text `t` (not in the dictionary) without indexing it in the
    /// table: its index.
    fn push(&mut self, t: &[u8]) -> u32 {
        self.bytes.extend_from_slice(t);
        self.ends.push(self.bytes.len());
        self.len() as u32 - 1
    }

    /// Indexes in the table every entry [`Texts::push`] added.
    fn index_all(&mut self) {
        let (bytes, ends) = (&self.bytes, &self.ends);
        for i in 0..ends.len() - 1 {
            let t = &bytes[ends[i]..ends[i + 1]];
            let len = u32::try_from(t.len()).unwrap_or(u32::MAX);
            let key = if t.len() <= 8 {
                short_key(t)
            } else {
                hash_bytes(t)
            };
            let _ = self.table.entry(key, len, i as u32, |j| {
                &bytes[ends[j as usize]..ends[j as usize + 1]] == t
            });
        }
    }

    fn clear(&mut self) {
        self.table.clear();
        self.bytes.clear();
        self.ends.truncate(1);
    }
}

/// The dictionary indices of one [`Book`]'s codes in a text dictionary
/// (`index + 1`, 0 for a code not seen yet), indexed by the code: a code
/// finds its entry with one load, and a new one is added with no hashing.
///
/// While the map `owns` the dictionary (every run of the row group so far
/// was codes of `book`) its entries are in the map only. A run of texts or
/// of another book's codes first indexes every entry in the dictionary's
/// table ([`Texts::index_all`]); from then on the table is the
/// dictionary's index and the map a cache of it, so a text stored as text
/// and as a code gets one entry.
#[derive(Default)]
struct CodeMap {
    book: Option<&'static Book>,
    owns: bool,
    slots: Vec<u32>,
}

impl CodeMap {
    /// Readies the map for a run of `book`'s codes in `dict`.
    fn ready(&mut self, book: &'static Book, dict: &mut Texts) {
        let same = self.book.is_some_and(|b| std::ptr::eq(b, book));
        if dict.len() == 0 {
            self.owns = true;
        } else if !same {
            self.disown(dict);
        }
        if !same || dict.len() == 0 {
            self.book = Some(book);
            self.slots.clear();
            self.slots.resize(book.len, 0);
        }
    }

    /// Indexes every entry of `dict` in its table, if the map owned it.
    fn disown(&mut self, dict: &mut Texts) {
        if self.owns {
            self.owns = false;
            dict.index_all();
        }
    }

    /// For the next row group (its dictionary empty).
    fn clear(&mut self) {
        self.slots.fill(0);
        self.owns = false;
    }
}

/// Decimals (as whole numbers of their last decimal) within this distance
/// of zero are looked up in a table indexed by the number: for hold'em,
/// every equity (4 decimals, at most 10,000) and every `ev_net` (2
/// decimals) of a stack up to 1,310 chips.
const SCALED: i64 = 1 << 17;

/// The dictionary indices of the decimals within [`SCALED`] of zero of a
/// real column (as whole numbers of `10^-decimals`, `index + 1`, 0 for
/// one not seen yet), indexed by the number: a decimal finds its entry
/// with one load, and a new one is added with no hashing.
///
/// While the map `owns` the dictionary (every run of the row group so far
/// was decimals of `decimals` decimals) its entries near zero are in the
/// map only, the others in the dictionary's table. A run of reals or of
/// other decimals first puts every entry in the table
/// ([`ScaleMap::disown`]); from then on the table is the dictionary's
/// index and the map a cache of it, so a real that came as a real and as
/// a decimal, or as decimals of different scales, gets one entry.
#[derive(Default)]
struct ScaleMap {
    decimals: Option<u8>,
    owns: bool,
    slots: Vec<u32>,
    /// The slots set, to empty them.
    touched: Vec<u32>,
}

impl ScaleMap {
    /// Readies the map for a run of decimals of `d` decimals in the
    /// dictionary `dict`.
    fn ready(&mut self, d: u8, dict: &mut Words) {
        if dict.values.is_empty() {
            self.empty();
            self.decimals = Some(d);
            self.owns = true;
        } else if self.decimals != Some(d) {
            self.disown(dict);
            self.empty();
            self.decimals = Some(d);
        }
        if self.slots.is_empty() {
            // Zeroed pages: only the parts in use take memory.
            self.slots = vec![0; 2 * SCALED as usize];
        }
    }

    /// Puts every entry of `dict` in its table, if the map owned it.
    fn disown(&mut self, dict: &mut Words) {
        if !self.owns {
            return;
        }
        self.owns = false;
        for (i, &bits) in dict.values.iter().enumerate() {
            // An entry far from zero is there already.
            let _ = dict.table.entry(bits, 0, i as u32, |_| true);
        }
    }

    /// Empties the slots.
    fn empty(&mut self) {
        for &at in &self.touched {
            self.slots[at as usize] = 0;
        }
        self.touched.clear();
    }

    /// For the next row group (its dictionary empty).
    fn clear(&mut self) {
        self.empty();
        self.owns = false;
    }
}

// ---------------------------------------------------------------------
// A column chunk being encoded.

/// The non-null values of a chunk, as its encoding keeps them.
enum Held {
    /// Integers or reals (by their bits) through a dictionary.
    Words {
        dict: Words,
        indices: Vec<u32>,
        real: bool,
        scales: ScaleMap,
    },
    Texts {
        dict: Texts,
        indices: Vec<u32>,
        codes: CodeMap,
    },
    /// `DELTA_BINARY_PACKED` integers.
    Delta(Vec<i64>),
    /// `DELTA_LENGTH_BYTE_ARRAY` texts: their lengths and bytes.
    DeltaLength { lens: Vec<i64>, bytes: Vec<u8> },
}

/// One column of the row group being written.
pub(super) struct ChunkEncoder {
    held: Held,
    rows: usize,
    nulls: usize,
    /// Which rows have a value: empty while none is null.
    valid: Vec<bool>,
}

/// A chunk of text over 2 GiB, which the column runs cannot count.
fn too_long() -> ParquetError {
    io::Error::other("a slice of text over 2 GiB").into()
}

impl ChunkEncoder {
    /// An encoder of a column of `kind`, encoded as `encoding` (a
    /// dictionary when `None`).
    pub(super) fn new(kind: ColumnType, encoding: Option<Encoding>) -> ChunkEncoder {
        let held = match (kind, encoding) {
            (ColumnType::Int64, Some(Encoding::DELTA_BINARY_PACKED)) => Held::Delta(Vec::new()),
            (ColumnType::Utf8, Some(Encoding::DELTA_LENGTH_BYTE_ARRAY)) => Held::DeltaLength {
                lens: Vec::new(),
                bytes: Vec::new(),
            },
            (ColumnType::Utf8, _) => Held::Texts {
                dict: Texts::new(),
                indices: Vec::new(),
                codes: CodeMap::default(),
            },
            (kind, _) => Held::Words {
                dict: Words::new(kind == ColumnType::Int64),
                indices: Vec::new(),
                real: kind == ColumnType::Float64,
                scales: ScaleMap::default(),
            },
        };
        ChunkEncoder {
            held,
            rows: 0,
            nulls: 0,
            valid: Vec::new(),
        }
    }

    /// Rows held.
    pub(super) fn rows(&self) -> usize {
        self.rows
    }

    /// Counts in the validity of `n` rows from `valid` (`None`: all valid).
    fn count(&mut self, valid: Option<&[bool]>, n: usize) {
        match valid {
            Some(v) if v.contains(&false) => {
                if self.nulls == 0 {
                    self.valid.resize(self.rows, true);
                }
                self.valid.extend_from_slice(v);
                self.nulls += v.iter().filter(|&&b| !b).count();
            }
            _ => {
                if self.nulls > 0 {
                    self.valid.resize(self.rows + n, true);
                }
            }
        }
        self.rows += n;
    }

    /// Appends `column`'s rows `from..to` (a column of this one's type;
    /// another type is an error).
    pub(super) fn append(
        &mut self,
        column: &Column,
        from: usize,
        to: usize,
    ) -> Result<(), ParquetError> {
        let valid = column.valid_run(from, to);
        let is = |k: usize| valid.is_none_or(|v| v[k]);
        match (&mut self.held, column) {
            (Held::Words { dict, indices, .. }, Column::Int(c)) if !dict.direct.is_empty() => {
                let run = &c.values[from..to];
                match valid {
                    None => indices.extend(run.iter().map(|&v| dict.int(v))),
                    Some(_) => indices.extend(
                        run.iter()
                            .enumerate()
                            .filter(|&(k, _)| is(k))
                            .map(|(_, &v)| dict.int(v)),
                    ),
                }
            }
            (
                Held::Words {
                    dict,
                    indices,
                    scales,
                    ..
                },
                Column::Scaled(c),
            ) if dict.direct.is_empty() => {
                let d = c.decimals;
                scales.ready(d, dict);
                let owns = scales.owns;
                let (slots, touched) = (&mut scales.slots, &mut scales.touched);
                let run = &c.values.values[from..to];
                // The slot of a decimal near zero, or else the table's.
                let slot = |v: i64| v.wrapping_add(SCALED) as u64 as usize;
                for (k, &v) in run.iter().enumerate() {
                    if let Some(&ahead) = run.get(k + AHEAD) {
                        match slots.get(slot(ahead)) {
                            Some(s) => fetch(s),
                            None => dict.table.prefetch(real_of(ahead, d).to_bits(), 0),
                        }
                    }
                    if !is(k) {
                        continue;
                    }
                    let i = match slots.get_mut(slot(v)) {
                        Some(s) if *s > 0 => *s - 1,
                        Some(s) => {
                            let bits = real_of(v, d).to_bits();
                            let i = if owns {
                                dict.values.push(bits);
                                dict.values.len() as u32 - 1
                            } else {
                                dict.word(bits)
                            };
                            *s = i + 1;
                            touched.push(slot(v) as u32);
                            i
                        }
                        None => dict.word(real_of(v, d).to_bits()),
                    };
                    indices.push(i);
                }
            }
            (
                Held::Words {
                    dict,
                    indices,
                    scales,
                    ..
                },
                Column::Float(c),
            ) if dict.direct.is_empty() => {
                scales.disown(dict);
                let run = &c.values[from..to];
                for (k, &v) in run.iter().enumerate() {
                    if let Some(ahead) = run.get(k + AHEAD) {
                        dict.table.prefetch(ahead.to_bits(), 0);
                    }
                    if is(k) {
                        indices.push(dict.word(v.to_bits()));
                    }
                }
            }
            (Held::Delta(values), Column::Int(c)) => values.extend(
                c.values[from..to]
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| is(k))
                    .map(|(_, &v)| v),
            ),
            (
                Held::Texts {
                    dict,
                    indices,
                    codes,
                },
                Column::Codes(c),
            ) => {
                let book = c.book;
                codes.ready(book, dict);
                let (slots, owns) = (&mut codes.slots, codes.owns);
                let run = &c.values.values[from..to];
                let mut index = |code: u16| match slots.get_mut(usize::from(code)) {
                    Some(s) if *s > 0 => *s - 1,
                    Some(s) => {
                        let t = book.text(code).as_bytes();
                        let i = if owns {
                            dict.push(t)
                        } else {
                            dict.text(t, None)
                        };
                        *s = i + 1;
                        i
                    }
                    None => dict.text(book.text(code).as_bytes(), None),
                };
                match valid {
                    None => indices.extend(run.iter().map(|&v| index(v))),
                    Some(_) => indices.extend(
                        run.iter()
                            .enumerate()
                            .filter(|&(k, _)| is(k))
                            .map(|(_, &v)| index(v)),
                    ),
                }
            }
            (
                Held::Texts {
                    dict,
                    indices,
                    codes,
                },
                Column::Text(t),
            ) => {
                codes.disown(dict);
                let n = to - from;
                for k in 0..n {
                    if let Some((key, len)) =
                        (k + AHEAD < n).then(|| t.key(from + k + AHEAD)).flatten()
                    {
                        dict.table.prefetch(key, len);
                    }
                    if is(k) {
                        let text = t.get(from + k).ok_or_else(too_long)?;
                        let key = t.key(from + k).map(|(key, _)| key);
                        indices.push(dict.text(text, key));
                    }
                }
            }
            (Held::DeltaLength { lens, bytes }, Column::Text(t)) => {
                for k in 0..to - from {
                    if is(k) {
                        let v = t.get(from + k).ok_or_else(too_long)?;
                        lens.push(v.len() as i64);
                        bytes.extend_from_slice(v);
                    }
                }
            }
            (Held::DeltaLength { lens, bytes }, Column::Codes(c)) => {
                for k in 0..to - from {
                    if is(k) {
                        let v = c.book.text(c.values.values[from + k]).as_bytes();
                        lens.push(v.len() as i64);
                        bytes.extend_from_slice(v);
                    }
                }
            }
            _ => return Err(io::Error::other("rows of another schema").into()),
        }
        self.count(valid, to - from);
        Ok(())
    }

    /// Encodes the chunk: its bytes (pages from offset 0) and what the
    /// row group records of it; the encoder is emptied for the next.
    pub(super) fn finish(
        &mut self,
        descr: &ColumnDescPtr,
        zstd: &mut zstd::bulk::Compressor<'static>,
    ) -> Result<(Bytes, ColumnCloseResult), ParquetError> {
        let rows = self.rows;
        let present = rows - self.nulls;
        // The data page: its definition levels first (their length, then
        // the levels).
        let mut data = vec![0u8; 4];
        if self.nulls == 0 {
            varint(&mut data, (rows as u64) << 1);
            data.push(1);
        } else {
            rle_hybrid(&mut data, &self.valid, 1);
        }
        let levels = (data.len() - 4) as u32;
        data[..4].copy_from_slice(&levels.to_le_bytes());

        let mut dictionary: Option<(Vec<u8>, usize)> = None;
        let mut stats = Stats::default();
        let encoding = if present == 0 {
            Encoding::PLAIN
        } else {
            match &self.held {
                Held::Words {
                    dict,
                    indices,
                    real,
                    ..
                } => {
                    let mut page = Vec::with_capacity(dict.values.len() * 8);
                    for &v in &dict.values {
                        page.extend_from_slice(&v.to_le_bytes());
                    }
                    stats = if *real {
                        Stats::reals(dict, indices)
                    } else {
                        Stats::ints(dict.values.iter().map(|&v| v as i64))
                    };
                    dictionary = Some((page, dict.values.len()));
                    data.push(width_of(dict.values.len() as u64 - 1) as u8);
                    rle_hybrid(&mut data, indices, width_of(dict.values.len() as u64 - 1));
                    Encoding::RLE_DICTIONARY
                }
                Held::Texts { dict, indices, .. } => {
                    stats = Stats::texts((0..dict.len()).map(|i| dict.get(i)));
                    stats.text_bytes = indices.iter().map(|&i| dict.get(i as usize).len()).sum();
                    let size = dict.bytes.len() + 4 * dict.len();
                    if size <= DICTIONARY_LIMIT {
                        let mut page = Vec::with_capacity(size);
                        for i in 0..dict.len() {
                            plain_text(&mut page, dict.get(i));
                        }
                        dictionary = Some((page, dict.len()));
                        let width = width_of(dict.len() as u64 - 1);
                        data.push(width as u8);
                        rle_hybrid(&mut data, indices, width);
                        Encoding::RLE_DICTIONARY
                    } else {
                        for &i in indices {
                            plain_text(&mut data, dict.get(i as usize));
                        }
                        Encoding::PLAIN
                    }
                }
                Held::Delta(values) => {
                    stats = Stats::ints(values.iter().copied());
                    delta_binary_packed(&mut data, values);
                    Encoding::DELTA_BINARY_PACKED
                }
                Held::DeltaLength { lens, bytes } => {
                    let mut at = 0;
                    stats = Stats::texts(lens.iter().map(|&n| {
                        let v = &bytes[at..at + n as usize];
                        at += n as usize;
                        v
                    }));
                    stats.text_bytes = bytes.len();
                    delta_binary_packed(&mut data, lens);
                    data.extend_from_slice(bytes);
                    Encoding::DELTA_LENGTH_BYTE_ARRAY
                }
            }
        };

        // The pages, compressed, as the row group will hold them.
        let mut sink = TrackedWrite::new(Vec::new());
        let mut pages = SerializedPageWriter::new(&mut sink);
        let compress = |zstd: &mut zstd::bulk::Compressor<'static>, buf: &[u8]| {
            zstd.compress(buf).map(Bytes::from)
        };
        let mut specs: Vec<PageWriteSpec> = Vec::new();
        let mut encodings = vec![Encoding::RLE, encoding];
        let mut page_stats = Vec::new();
        if let Some((page, entries)) = &dictionary {
            let buf = compress(zstd, page)?;
            specs.push(pages.write_page(CompressedPage::new(
                Page::DictionaryPage {
                    buf,
                    num_values: entries_u32(*entries)?,
                    encoding: Encoding::PLAIN,
                    is_sorted: false,
                },
                page.len(),
            ))?);
            encodings.push(Encoding::PLAIN);
            page_stats.push(PageEncodingStats {
                page_type: PageType::DICTIONARY_PAGE,
                encoding: Encoding::PLAIN,
                count: 1,
            });
        }
        let buf = compress(zstd, &data)?;
        specs.push(pages.write_page(CompressedPage::new(
            Page::DataPage {
                buf,
                num_values: entries_u32(rows)?,
                encoding,
                def_level_encoding: Encoding::RLE,
                rep_level_encoding: Encoding::RLE,
                statistics: None,
            },
            data.len(),
        ))?);
        page_stats.push(PageEncodingStats {
            page_type: PageType::DATA_PAGE,
            encoding,
            count: 1,
        });
        pages.close()?;
        let bytes = Bytes::from(sink.into_inner()?);

        let physical = descr.physical_type();
        let text = physical == Physical::BYTE_ARRAY;
        let histogram = LevelHistogram::from(vec![self.nulls as i64, present as i64]);
        let (data_offset, data_size) = specs
            .last()
            .map_or((0, 0), |s| (s.offset as i64, s.compressed_size as i32));
        let mut meta = ColumnChunkMetaData::builder(descr.clone())
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(super::ZSTD_LEVEL)?))
            .set_encodings_mask(parquet::basic::EncodingMask::new_from_encodings(
                encodings.iter(),
            ))
            .set_page_encoding_stats(page_stats)
            .set_total_compressed_size(specs.iter().map(|s| s.compressed_size as i64).sum())
            .set_total_uncompressed_size(specs.iter().map(|s| s.uncompressed_size as i64).sum())
            .set_num_values(rows as i64)
            .set_data_page_offset(data_offset)
            .set_dictionary_page_offset(dictionary.as_ref().map(|_| specs[0].offset as i64))
            .set_statistics(stats.statistics(physical, self.nulls as u64))
            .set_definition_level_histogram(Some(histogram.clone()));
        if text {
            meta = meta.set_unencoded_byte_array_data_bytes(Some(stats.text_bytes as i64));
        }
        let meta = meta.build()?;

        // The page index: the one data page's statistics and place.
        let column_index = if present > 0 && stats.min.is_none() {
            None
        } else {
            let mut index = ColumnIndexBuilder::new(physical);
            index.append(
                present == 0,
                stats.min.clone().unwrap_or_default(),
                stats.max.clone().unwrap_or_default(),
                self.nulls as i64,
                (physical == Physical::DOUBLE).then_some(stats.nans as i64),
            );
            index.append_histograms(&None, &Some(histogram));
            Some(index.build()?)
        };
        let mut offsets = OffsetIndexBuilder::new();
        offsets.append_row_count(rows as i64);
        offsets.append_offset_and_size(data_offset, data_size);
        if text {
            offsets.append_unencoded_byte_array_data_bytes(Some(stats.text_bytes as i64));
        }

        self.clear();
        Ok((
            bytes.clone(),
            ColumnCloseResult {
                bytes_written: bytes.len() as u64,
                rows_written: rows as u64,
                metadata: meta,
                bloom_filter: None,
                column_index,
                offset_index: Some(offsets.build()),
            },
        ))
    }

    /// Empties the encoder (its buffers kept).
    fn clear(&mut self) {
        self.rows = 0;
        self.nulls = 0;
        self.valid.clear();
        match &mut self.held {
            Held::Words {
                dict,
                indices,
                scales,
                ..
            } => {
                dict.clear();
                indices.clear();
                scales.clear();
            }
            Held::Texts {
                dict,
                indices,
                codes,
            } => {
                dict.clear();
                indices.clear();
                codes.clear();
            }
            Held::Delta(values) => values.clear(),
            Held::DeltaLength { lens, bytes } => {
                lens.clear();
                bytes.clear();
            }
        }
    }
}

fn entries_u32(n: usize) -> Result<u32, ParquetError> {
    u32::try_from(n).map_err(|_| io::Error::other("a page of over 2^32 values").into())
}

/// A text as a plain value: its length (u32, little-endian), its bytes.
fn plain_text(out: &mut Vec<u8>, t: &[u8]) {
    out.extend_from_slice(&(t.len() as u32).to_le_bytes());
    out.extend_from_slice(t);
}

/// A chunk's statistics: its least and greatest value (plain bytes, as the
/// page index holds them; none when every value is null or NaN), its NaNs
/// and its texts' bytes.
#[derive(Default)]
struct Stats {
    min: Option<Vec<u8>>,
    max: Option<Vec<u8>>,
    nans: usize,
    text_bytes: usize,
}

impl Stats {
    fn ints(values: impl Iterator<Item = i64>) -> Stats {
        let (mut min, mut max) = (i64::MAX, i64::MIN);
        let mut any = false;
        for v in values {
            any = true;
            min = min.min(v);
            max = max.max(v);
        }
        Stats {
            min: any.then(|| min.to_le_bytes().to_vec()),
            max: any.then(|| max.to_le_bytes().to_vec()),
            ..Stats::default()
        }
    }

    /// Reals: ordered as IEEE 754's total order (-0 below +0), NaNs left
    /// out (and counted).
    fn reals(dict: &Words, indices: &[u32]) -> Stats {
        let mut range: Option<(f64, f64)> = None;
        let mut nan = Vec::new();
        for (i, &bits) in dict.values.iter().enumerate() {
            let v = f64::from_bits(bits);
            if v.is_nan() {
                nan.push(i as u32);
                continue;
            }
            range = Some(match range {
                None => (v, v),
                Some((a, b)) => (
                    if v.total_cmp(&a).is_lt() { v } else { a },
                    if v.total_cmp(&b).is_gt() { v } else { b },
                ),
            });
        }
        let nans = if nan.is_empty() {
            0
        } else {
            indices.iter().filter(|i| nan.contains(i)).count()
        };
        Stats {
            min: range.map(|r| r.0.to_le_bytes().to_vec()),
            max: range.map(|r| r.1.to_le_bytes().to_vec()),
            nans,
            text_bytes: 0,
        }
    }

    /// Texts: ordered by their bytes.
    fn texts<'a>(values: impl Iterator<Item = &'a [u8]>) -> Stats {
        let mut range: Option<(&[u8], &[u8])> = None;
        for v in values {
            range = Some(match range {
                None => (v, v),
                Some((a, b)) => (a.min(v), b.max(v)),
            });
        }
        Stats {
            min: range.map(|r| r.0.to_vec()),
            max: range.map(|r| r.1.to_vec()),
            ..Stats::default()
        }
    }

    /// The chunk's statistics as its metadata holds them (the deprecated
    /// min and max fields too for signed orders, as the Parquet crate's
    /// writer does).
    fn statistics(&self, physical: Physical, nulls: u64) -> Statistics {
        let eight = |v: &Option<Vec<u8>>| {
            v.as_ref()
                .and_then(|b| <[u8; 8]>::try_from(b.as_slice()).ok())
        };
        match physical {
            Physical::DOUBLE => Statistics::Double(
                ValueStatistics::new(
                    eight(&self.min).map(f64::from_le_bytes),
                    eight(&self.max).map(f64::from_le_bytes),
                    None,
                    Some(nulls),
                    false,
                )
                .with_nan_count(Some(self.nans as u64))
                .with_backwards_compatible_min_max(true),
            ),
            Physical::BYTE_ARRAY => Statistics::ByteArray(
                ValueStatistics::new(
                    self.min.clone().map(ByteArray::from),
                    self.max.clone().map(ByteArray::from),
                    None,
                    Some(nulls),
                    false,
                )
                .with_backwards_compatible_min_max(false),
            ),
            _ => Statistics::Int64(
                ValueStatistics::new(
                    eight(&self.min).map(i64::from_le_bytes),
                    eight(&self.max).map(i64::from_le_bytes),
                    None,
                    Some(nulls),
                    false,
                )
                .with_backwards_compatible_min_max(true),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes the RLE / bit-packing hybrid (the format's definition,
    /// written out plainly) to check the encoder against.
    fn decode_hybrid(mut b: &[u8], width: u32, n: usize) -> Vec<u64> {
        let mut out = Vec::new();
        let read_varint = |b: &mut &[u8]| {
            let (mut v, mut shift) = (0u64, 0);
            loop {
                let byte = b[0];
                *b = &b[1..];
                v |= u64::from(byte & 0x7f) << shift;
                shift += 7;
                if byte < 0x80 {
                    return v;
                }
            }
        };
        while out.len() < n {
            let head = read_varint(&mut b);
            if head & 1 == 1 {
                let count = (head >> 1) as usize * 8;
                let bytes = count * width as usize / 8;
                let mut bit = 0;
                for _ in 0..count {
                    let mut v = 0u64;
                    for k in 0..width {
                        let at = bit + k as usize;
                        v |= u64::from((b[at / 8] >> (at % 8)) & 1) << k;
                    }
                    bit += width as usize;
                    out.push(v);
                }
                b = &b[bytes..];
            } else {
                let count = (head >> 1) as usize;
                let bytes = width.div_ceil(8) as usize;
                let mut v = [0u8; 8];
                v[..bytes].copy_from_slice(&b[..bytes]);
                b = &b[bytes..];
                out.extend(std::iter::repeat_n(u64::from_le_bytes(v), count));
            }
        }
        out.truncate(n);
        out
    }

    /// A small seeded generator of test values (31 bits each).
    fn lcg(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        }
    }

    #[test]
    fn the_hybrid_encoding_decodes_to_its_values() {
        let mut next = lcg(7);
        for width in [0u32, 1, 3, 7, 8, 11, 17, 32] {
            for n in [0usize, 1, 7, 8, 9, 100, 1000, 5000] {
                let max = if width == 0 { 0 } else { (1u64 << width) - 1 };
                // Runs of random lengths, some long.
                let mut values = Vec::new();
                while values.len() < n {
                    let v = (next() & max) as u32;
                    let len = [1, 2, 5, 8, 9, 20, 600][next() as usize % 7];
                    values.extend(std::iter::repeat_n(v, len.min(n - values.len())));
                }
                let mut out = Vec::new();
                rle_hybrid(&mut out, &values, width);
                let back = decode_hybrid(&out, width, n);
                let want: Vec<u64> = values.iter().map(|&v| u64::from(v)).collect();
                assert_eq!(back, want, "width {width}, {n} values");
            }
        }
    }

    /// The hybrid encoding's decisions made one value at a time, with
    /// [`pack`] for the literals: what [`rle_hybrid`] must give, byte for
    /// byte.
    fn rle_hybrid_reference(values: &[u32], width: u32) -> Vec<u8> {
        let mut out = Vec::new();
        let literal = |out: &mut Vec<u8>, run: &[u32]| {
            for part in run.chunks(LITERAL_RUN) {
                let groups = part.len().div_ceil(8);
                varint(out, ((groups as u64) << 1) | 1);
                let padded = part.iter().map(|&v| u64::from(v));
                pack(
                    out,
                    padded.chain(std::iter::repeat_n(0, groups * 8 - part.len())),
                    width,
                );
            }
        };
        let (mut from, mut i) = (0, 0);
        while i < values.len() {
            let mut end = i + 1;
            while end < values.len() && values[end] == values[i] {
                end += 1;
            }
            let fill = (8 - (i - from) % 8) % 8;
            if end - i >= fill + 8 {
                literal(&mut out, &values[from..i + fill]);
                varint(&mut out, ((end - i - fill) as u64) << 1);
                out.extend_from_slice(
                    &u64::from(values[i]).to_le_bytes()[..width.div_ceil(8) as usize],
                );
                from = end;
            }
            i = end;
        }
        literal(&mut out, &values[from..]);
        out
    }

    #[test]
    fn groups_pack_as_one_value_at_a_time() {
        let mut next = lcg(11);
        for width in 1..=32u32 {
            for n in (0..=24usize).chain([63, 64, 65, 1000]) {
                let values: Vec<u32> = (0..n)
                    .map(|k| {
                        // Every other value the largest of the width.
                        let v = if k % 2 == 0 {
                            next() ^ (next() << 16)
                        } else {
                            u64::MAX
                        };
                        (v & ((1u64 << width) - 1)) as u32
                    })
                    .collect();
                let mut fast = vec![0xAA];
                pack_groups(&mut fast, &values, width);
                let mut slow = vec![0xAA];
                let pad = n.next_multiple_of(8) - n;
                pack(
                    &mut slow,
                    values
                        .iter()
                        .map(|&v| u64::from(v))
                        .chain(std::iter::repeat_n(0, pad)),
                    width,
                );
                assert_eq!(fast, slow, "width {width}, {n} values");
            }
        }
    }

    #[test]
    fn the_hybrid_encoding_is_the_plain_reference_byte_for_byte() {
        let mut next = lcg(3);
        for width in [1u32, 2, 5, 12, 20, 32] {
            for _ in 0..50 {
                let mut values = Vec::new();
                let n = next() as usize % 3000;
                while values.len() < n {
                    let v = (next() & ((1u64 << width) - 1)) as u32;
                    let len = [1, 1, 1, 2, 3, 7, 8, 9, 15, 16, 17, 40][next() as usize % 12];
                    values.extend(std::iter::repeat_n(v, len));
                }
                let mut out = Vec::new();
                rle_hybrid(&mut out, &values, width);
                assert_eq!(out, rle_hybrid_reference(&values, width), "width {width}");
            }
        }
    }

    #[test]
    fn ints_get_one_index_each_in_first_seen_order() {
        let mut d = Words::new(true);
        let values = [
            5,
            -3,
            5,
            DIRECT,
            -DIRECT - 1,
            i64::MIN,
            5,
            DIRECT,
            i64::MAX,
            -3,
        ];
        let idx: Vec<u32> = values.iter().map(|&v| d.int(v)).collect();
        assert_eq!(idx, [0, 1, 0, 2, 3, 4, 0, 2, 5, 1]);
        // Many values outside the table grow the map; each keeps its index.
        for k in 0..10_000i64 {
            assert_eq!(d.int(1_000_000 + k * 3), 6 + k as u32);
        }
        for k in 0..10_000i64 {
            assert_eq!(d.int(1_000_000 + k * 3), 6 + k as u32);
        }
        d.clear();
        assert_eq!(d.int(i64::MAX), 0);
        assert_eq!(d.int(5), 1);
    }

    #[test]
    fn texts_get_one_index_each() {
        let mut d = Texts::new();
        let words: Vec<String> = (0..5000).map(|i| format!("w{}", i % 1234)).collect();
        let idx: Vec<u32> = words.iter().map(|w| d.text(w.as_bytes(), None)).collect();
        assert_eq!(d.len(), 1234);
        for (w, &i) in words.iter().zip(&idx) {
            assert_eq!(d.get(i as usize), w.as_bytes());
        }
        assert_eq!(d.text(b"", None), 1234);
    }
}
