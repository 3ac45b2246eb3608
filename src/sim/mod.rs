//! The simulation runner: plays any [`Game`] N times from one seed, in
//! parallel, and turns the games into a CSV stream, histograms and a summary.
//!
//! A game never sees threads, files or seeds: it is a pure function of its
//! index and the generator [`crate::rng::game_rng`] gives it. Everything else
//! (chunks, order, shards, resume, outputs, progress) lives here once.

pub mod checkpoint;
pub mod interrupt;
pub mod merge;
pub mod output;
mod progress;
pub mod report;
pub mod runner;
pub mod sink;
pub mod stats;
pub mod verify;

use std::collections::BTreeMap;

pub use merge::{merge, MergeConfig};
pub use output::Summary;
pub use runner::{run, RunConfig, RunError, RunOutcome, Shard};

use crate::rng::GameRng;

/// How a metric is summarised. Values are kept as exact integers (fixed
/// point), so statistics merge exactly across threads, chunks and shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MetricKind {
    /// A whole number at least `min` (a count, a length, chips): histogram,
    /// moments and percentiles.
    Integer { min: i64 },
    /// A 0/1 outcome (a win, a draw): its mean is a proportion with a Wilson
    /// interval; no histogram.
    Proportion,
    /// A real number at least `min`, kept to `1/scale` (for example equity
    /// with `scale = 10_000`): histogram, moments and percentiles.
    Fixed { scale: u32, min: i64 },
}

impl MetricKind {
    /// Fixed-point multiplier: the metric is stored as `round(value * scale)`.
    pub fn scale(self) -> u32 {
        match self {
            MetricKind::Fixed { scale, .. } => scale,
            _ => 1,
        }
    }

    /// Smallest value the metric can take, in its own units.
    pub fn min(self) -> i64 {
        match self {
            MetricKind::Integer { min } | MetricKind::Fixed { min, .. } => min,
            MetricKind::Proportion => 0,
        }
    }

    pub fn has_histogram(self) -> bool {
        !matches!(self, MetricKind::Proportion)
    }
}

/// One statistic a game reports per game (not necessarily every game: a
/// metric observed in some games only, such as a cycle length, counts just
/// those games).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metric {
    pub name: String,
    pub kind: MetricKind,
}

impl Metric {
    pub fn integer(name: impl Into<String>) -> Metric {
        Metric {
            name: name.into(),
            kind: MetricKind::Integer { min: 0 },
        }
    }

    pub fn proportion(name: impl Into<String>) -> Metric {
        Metric {
            name: name.into(),
            kind: MetricKind::Proportion,
        }
    }

    pub fn new(name: impl Into<String>, kind: MetricKind) -> Metric {
        Metric {
            name: name.into(),
            kind,
        }
    }
}

/// A game the runner can play. Implementations are cheap to share across
/// threads (`Sync`); per-thread buffers live in [`Game::Scratch`].
pub trait Game: Sync {
    /// What one game produces.
    type Record: Send;
    /// Buffers one worker reuses from game to game, so hot loops need not
    /// allocate.
    type Scratch: Send;

    /// Short name of the game (`fishing`), written to the summary and checked
    /// by `merge`.
    fn name(&self) -> &'static str;

    /// The options that define the game, as strings: printed in the summary
    /// and compared by `merge` (shards with other options are refused).
    fn options(&self) -> BTreeMap<String, String>;

    /// CSV column names after the leading `game` column (snake_case).
    fn columns(&self) -> Vec<String>;

    /// The metrics summarised over the run, in the order
    /// [`Game::observe`] fills them.
    fn metrics(&self) -> Vec<Metric>;

    fn new_scratch(&self) -> Self::Scratch;

    /// Plays game `index` with its own generator.
    fn play(&self, index: u64, rng: &mut GameRng, scratch: &mut Self::Scratch) -> Self::Record;

    /// Takes back a record the runner is done with (its row written, its
    /// metrics observed), so that the next [`Game::play`] can reuse its
    /// heap buffers through the scratch. What a game plays never depends
    /// on it: by default the record is dropped.
    fn recycle(&self, record: Self::Record, scratch: &mut Self::Scratch) {
        let _ = (record, scratch);
    }

    /// Writes the fields of one CSV row, after the `game` column, one per
    /// column of [`Game::columns`].
    fn write_row(&self, record: &Self::Record, row: &mut Row<'_>);

    /// Reports the record's metric values: `obs.set(i, v)` for metric `i` of
    /// [`Game::metrics`]; a metric left unset is not observed in this game.
    fn observe(&self, record: &Self::Record, obs: &mut Observations);

    /// Column names (after the leading `game`) of the game's side CSV, a
    /// second, long-format table with any number of rows per game (hold'em's
    /// pots); `None` when the game has none.
    fn side_columns(&self) -> Option<Vec<String>> {
        None
    }

    /// Writes the game's side rows and whole files (see [`Extras`]). Called
    /// for every game, in the worker, after [`Game::write_row`].
    fn write_extras(&self, _index: u64, _record: &Self::Record, _extras: &mut Extras<'_>) {}
}

/// Output beside the main CSV: rows of the side CSV and whole files (such
/// as hand histories). Both are collected per chunk in the worker and
/// written in game order by the runner's writer thread.
pub struct Extras<'a> {
    side: &'a mut Vec<u8>,
    /// Side rows written so far (a summary vouches for the count).
    side_rows: &'a mut u64,
    files: &'a mut Vec<(String, Vec<u8>)>,
    wanted: ExtrasWanted,
    index: u64,
}

/// Which outputs beside the main CSV a run writes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ExtrasWanted {
    pub side: bool,
    pub files: bool,
    /// The files go into one bundle file rather than a directory.
    pub bundled: bool,
}

impl ExtrasWanted {
    pub fn any(self) -> bool {
        self.side || self.files
    }
}

impl<'a> Extras<'a> {
    pub(crate) fn new(
        side: &'a mut Vec<u8>,
        side_rows: &'a mut u64,
        files: &'a mut Vec<(String, Vec<u8>)>,
        wanted: ExtrasWanted,
        index: u64,
    ) -> Extras<'a> {
        Extras {
            side,
            side_rows,
            files,
            wanted,
            index,
        }
    }

    /// Whether side rows are written by this run (skip building them if not).
    pub fn side_wanted(&self) -> bool {
        self.wanted.side
    }

    /// Whether whole files are written by this run.
    pub fn files_wanted(&self) -> bool {
        self.wanted.files
    }

    /// Whether the files are bundled one after another into a single file
    /// (then each must carry what tells it apart, such as a `.phhs`
    /// section header) rather than written under their names.
    pub fn files_bundled(&self) -> bool {
        self.wanted.bundled
    }

    /// Starts one side row, its `game` column filled in; the row ends when
    /// the returned [`Row`] is finished with [`Row::end`].
    pub fn row(&mut self) -> Row<'_> {
        *self.side_rows += 1;
        let mut row = Row::new(self.side);
        row.int(self.index);
        row
    }

    /// A whole file, written (atomically) as `name` in the run's files
    /// directory. `name` must be a plain file name.
    pub fn file(&mut self, name: String, bytes: Vec<u8>) {
        if self.wanted.files {
            self.files.push((name, bytes));
        }
    }
}

/// The fields of one CSV row under construction, encoded straight into the
/// chunk's byte buffer: no allocation and no per-field writer state. The
/// encoding is the csv crate's default (comma, `\n` after each record,
/// a field quoted only when it holds a comma, a quote, CR or LF, quotes
/// doubled), tested against that crate.
///
/// Built for the hot per-game columns (a hold'em row is 37 fields, most of
/// them small numbers), with no `unsafe`:
/// - The buffer is lengthened ahead of the row (zero bytes, [`SLACK`] at a
///   time: about once a row), and fields are stored into that room at the
///   row's `end`, each through a fixed-size window, so a field costs one
///   length comparison rather than a capacity check per byte. Dropping the
///   row cuts the buffer back to `end`: the room never shows.
/// - Every field is written with the comma that follows it, and
///   [`Row::end`] turns the last comma into the newline: no "first field?"
///   test per field.
/// - A number below 1,000 is one load from a table of its digits and
///   their count, stored as one word; larger ones are made eight digits at
///   a time from a table of digit pairs, the leading zeros shifted out.
///   The sign byte is always stored, then kept or overwritten. The slow,
///   obvious forms they must equal are tested below.
pub struct Row<'a> {
    buf: &'a mut Vec<u8>,
    /// Where the next field goes: the row's bytes are `buf[..end]`, the
    /// rest of `buf` room for the fields to come.
    end: usize,
    fields: usize,
}

impl Drop for Row<'_> {
    /// Cuts off the room past the row (a row dropped before [`Row::end`]
    /// leaves its fields, each with its comma, as the old per-push writer
    /// left them without theirs).
    fn drop(&mut self) {
        self.buf.truncate(self.end);
    }
}

impl<'a> Row<'a> {
    pub fn new(buf: &'a mut Vec<u8>) -> Row<'a> {
        let end = buf.len();
        Row {
            buf,
            end,
            fields: 0,
        }
    }

    /// Fields written so far (the runner checks it against the header).
    pub(crate) fn fields(&self) -> usize {
        self.fields
    }

    /// Ends the record (a newline): the comma after the last field becomes
    /// the newline (a record of no fields is the newline alone).
    pub fn end(mut self) {
        if self.fields > 0 {
            self.buf[self.end - 1] = b'\n';
        } else {
            self.window::<1>()[0] = b'\n';
            self.end += 1;
        }
        // Dropping `self` cuts the room off.
    }

    /// The `N` bytes at the row's end to write a field into (made first
    /// when the buffer is shorter).
    #[inline(always)]
    fn window<const N: usize>(&mut self) -> &mut [u8; N] {
        let end = self.end;
        if self.buf.len() < end + N {
            return self.window_after_room::<N>();
        }
        // The slice's end is known to fit, leaving one overflow check.
        (&mut self.buf[end..end + N])
            .try_into()
            .expect("a slice of N bytes")
    }

    /// [`Row::window`] when the buffer must be lengthened first.
    #[cold]
    #[inline(never)]
    fn window_after_room<const N: usize>(&mut self) -> &mut [u8; N] {
        self.make_room(N);
        let end = self.end;
        (&mut self.buf[end..end + N])
            .try_into()
            .expect("a slice of N bytes")
    }

    /// Lengthens the buffer to hold `n` more bytes past the row's end, and
    /// [`SLACK`] at least, so that it happens about once a row.
    #[cold]
    #[inline(never)]
    fn make_room(&mut self, n: usize) {
        if n <= SLACK && self.buf.len() == self.end {
            // The usual case, at a row's first field: a constant-length
            // append, stored inline rather than through `memset`.
            self.buf.extend_from_slice(&[0; SLACK]);
        } else {
            self.buf.resize(self.end + n.max(SLACK), 0);
        }
    }

    /// Ends a field of `len` bytes written at the row's end (its comma
    /// included).
    #[inline(always)]
    fn advance(&mut self, len: usize) {
        self.end += len;
        self.fields += 1;
    }

    /// A field of any bytes: quoted when needed, then the comma.
    fn field(&mut self, bytes: &[u8]) {
        let needs_quotes = bytes
            .iter()
            .any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'));
        if !needs_quotes {
            self.bytes(bytes);
            return;
        }
        // At most every byte doubled, the two quotes and the comma.
        let most = 2 * bytes.len() + 3;
        if self.buf.len() < self.end + most {
            self.make_room(most);
        }
        let out = &mut self.buf[self.end..self.end + most];
        out[0] = b'"';
        let mut k = 1;
        for &b in bytes {
            if b == b'"' {
                out[k] = b'"';
                k += 1;
            }
            out[k] = b;
            k += 1;
        }
        out[k] = b'"';
        out[k + 1] = b',';
        self.advance(k + 2);
    }

    /// `bytes` as they are, then the comma.
    fn bytes(&mut self, bytes: &[u8]) {
        let len = bytes.len();

        if self.buf.len() < self.end + len + 1 {
            self.make_room(len + 1);
        }
        let at = &mut self.buf[self.end..self.end + len + 1];
        at[..len].copy_from_slice(bytes);
        at[len] = b',';
        self.advance(len + 1);
    }

    /// An integer field.
    #[inline(always)]
    pub fn int<T: RowInt>(&mut self, v: T) {
        match v.split() {
            Some((negative, magnitude)) => {
                let w = self.window::<NUMBER>();
                let len = number_field(w, T::SIGNED, negative, magnitude, &ZEROS_TAIL[0], 1);
                self.advance(len);
            }
            None => self.wide(v),
        }
    }

    /// An integer beyond 64 bits (128-bit types only): never hot.
    #[cold]
    #[inline(never)]
    fn wide(&mut self, v: impl RowInt) {
        self.bytes(itoa::Buffer::new().format(v).as_bytes());
    }

    /// A real field with `decimals` digits after the point (fixed, so reruns
    /// are byte-identical).
    pub fn real(&mut self, v: f64, decimals: usize) {
        let text = format!("{v:.decimals$}");
        self.field(text.as_bytes());
    }

    /// A real field rounded to `decimals` (at most 9) digits after the
    /// point, formatted from the rounded integer `round(v * 10^decimals)`:
    /// as deterministic as [`Row::real`] and several times faster (no float
    /// formatting), for hot per-game columns.
    #[inline(always)]
    pub fn fixed(&mut self, v: f64, decimals: u32) {
        debug_assert!(decimals <= 9);
        let x = v * POW10[decimals as usize] as f64;
        // Round half away from zero, as f64::round does below 2^52,
        // without the libm call f64::round compiles to on baseline x86-64
        // (a hot path).
        let scaled = if x >= 0.0 {
            (x + 0.5) as i64
        } else {
            (x - 0.5) as i64
        };
        self.scaled(scaled, decimals);
    }

    /// The whole number `v` as a real field with `decimals` (at most 9)
    /// zeros after the point: the same text as `fixed(v as f64, decimals)`
    /// whenever `v * 10^decimals` is below 2^53 in magnitude (then every
    /// float step there is exact), without the float round trip.
    #[inline(always)]
    pub fn fixed_int(&mut self, v: i64, decimals: u32) {
        let (tail, tail_len) = zeros_tail(decimals);
        let w = self.window::<NUMBER>();
        let len = number_field(w, true, v < 0, v.unsigned_abs(), tail, tail_len);
        self.advance(len);
    }

    /// Writes `scaled / 10^decimals` with exactly `decimals` digits after
    /// the point (a `-` only when `scaled` is negative): the whole part as
    /// an integer, then the point and the fraction's digits, eight made at
    /// once of which the last `decimals` are kept.
    #[inline(always)]
    fn scaled(&mut self, scaled: i64, decimals: u32) {
        let magnitude = scaled.unsigned_abs();
        if decimals == 0 {
            self.int(scaled);
        } else if decimals <= 8 {
            let d = decimals as usize;
            let unit = POW10[d];
            let w = self.window::<NUMBER>();
            let len = digits(w, true, scaled < 0, magnitude / unit);
            let fraction = ascii8((magnitude % unit) as u32) >> (8 * (8 - d));
            w[len] = b'.';
            w[len + 1..len + 9].copy_from_slice(&fraction.to_le_bytes());
            w[len + 1 + d] = b',';
            self.advance(len + d + 2);
        } else {
            self.scaled_plain(scaled, decimals);
        }
    }

    /// [`Row::scaled`] digit by digit (9 decimals).
    fn scaled_plain(&mut self, scaled: i64, decimals: u32) {
        // 20 digits of u64, the point and the sign fit in 22 bytes.
        let mut tmp = [0u8; 24];
        let mut pos = tmp.len();
        let mut abs = scaled.unsigned_abs();
        for _ in 0..decimals {
            pos -= 1;
            tmp[pos] = b'0' + (abs % 10) as u8;
            abs /= 10;
        }
        if decimals > 0 {
            pos -= 1;
            tmp[pos] = b'.';
        }
        loop {
            pos -= 1;
            tmp[pos] = b'0' + (abs % 10) as u8;
            abs /= 10;
            if abs == 0 {
                break;
            }
        }
        if scaled < 0 {
            pos -= 1;
            tmp[pos] = b'-';
        }
        self.bytes(&tmp[pos..]);
    }

    /// A text field known to need no quoting (no comma, quote, CR or LF:
    /// names from a fixed list), written as is without scanning it.
    #[inline(always)]
    pub fn word(&mut self, v: &str) {
        debug_assert!(!v.bytes().any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r')));
        let bytes = v.as_bytes();
        let len = bytes.len();
        if len > 16 {
            return self.bytes(bytes);
        }
        // A short word: two overlapping fixed-size copies, not a call to
        // `memcpy`.
        let w = self.window::<17>();
        if len >= 8 {
            w[..8].copy_from_slice(&bytes[..8]);
            w[len - 8..len].copy_from_slice(&bytes[len - 8..]);
        } else if len >= 4 {
            w[..4].copy_from_slice(&bytes[..4]);
            w[len - 4..len].copy_from_slice(&bytes[len - 4..]);
        } else {
            for (to, &from) in w.iter_mut().zip(bytes) {
                *to = from;
            }
        }
        w[len] = b',';
        self.advance(len + 1);
    }

    /// A text field (quoted when needed).
    pub fn text(&mut self, v: &str) {
        self.field(v.as_bytes());
    }

    /// An empty field (a value that does not apply to this game).
    #[inline(always)]
    pub fn empty(&mut self) {
        self.window::<1>()[0] = b',';
        self.advance(1);
    }

    /// `n` empty fields.
    #[inline(always)]
    pub fn empties(&mut self, n: usize) {
        if n <= 16 {
            // One store of 16 commas, `n` of them kept.
            *self.window::<16>() = [b','; 16];
            self.end += n;
            self.fields += n;
        } else {
            (0..n).for_each(|_| self.empty());
        }
    }

    /// Integer fields, one for each of `values` (as [`Row::int`] each).
    #[inline]
    pub fn ints<T: RowInt>(&mut self, values: impl IntoIterator<Item = T>) {
        self.numbers(values, &ZEROS_TAIL[0], 1);
    }

    /// Fields `fixed_int(v, decimals)`, one for each of `values`.
    #[inline]
    pub fn fixed_ints(&mut self, values: impl IntoIterator<Item = i64>, decimals: u32) {
        let (tail, tail_len) = zeros_tail(decimals);
        self.numbers(values, tail, tail_len);
    }

    /// A field for each of `values`: its digits then the first `tail_len`
    /// bytes of `tail` (the comma last). The row's end and field count are
    /// kept in locals across the run (one store of each at the end) rather
    /// than written back after every field.
    #[inline(always)]
    fn numbers<T: RowInt>(
        &mut self,
        values: impl IntoIterator<Item = T>,
        tail: &[u8; 16],
        tail_len: usize,
    ) {
        let mut end = self.end;
        let mut count = 0;
        for v in values {
            let Some((negative, magnitude)) = v.split() else {
                // Beyond 64 bits: through the row's own state.
                self.end = end;
                self.fields += count;
                count = 0;
                self.wide(v);
                end = self.end;
                continue;
            };
            if self.buf.len() < end + NUMBER {
                self.end = end;
                self.make_room(NUMBER);
            }
            let w: &mut [u8; NUMBER] = (&mut self.buf[end..end + NUMBER])
                .try_into()
                .expect("a slice of NUMBER bytes");
            end += number_field(w, T::SIGNED, negative, magnitude, tail, tail_len);
            count += 1;
        }
        self.end = end;
        self.fields += count;
    }

    /// A boolean as `0`/`1`.
    #[inline(always)]
    pub fn flag(&mut self, v: bool) {
        *self.window::<2>() = [b'0' + u8::from(v), b','];
        self.advance(2);
    }
}

/// Bytes the buffer is lengthened by ahead of a row: a hold'em row of 6
/// seats is about 140.
const SLACK: usize = 256;

/// The window a number field is written through: the sign, 20 digits
/// and a 16-byte tail (point, decimals, comma) at most.
const NUMBER: usize = 40;

/// The point, `d` zeros and the comma for [`Row::fixed_int`] (index `d`;
/// index 0 is the comma alone), padded to 16 bytes.
const ZEROS_TAIL: [[u8; 16]; 10] = {
    let mut t = [[0u8; 16]; 10];
    t[0][0] = b',';
    let mut d = 1;
    while d < 10 {
        t[d][0] = b'.';
        let mut i = 1;
        while i <= d {
            t[d][i] = b'0';
            i += 1;
        }
        t[d][d + 1] = b',';
        d += 1;
    }
    t
};

/// The tail of a whole number written with `decimals` (at most 9) zeros:
/// [`ZEROS_TAIL`]'s entry and how many of its bytes count.
#[inline(always)]
fn zeros_tail(decimals: u32) -> (&'static [u8; 16], usize) {
    debug_assert!(decimals <= 9);
    let d = (decimals as usize).min(9);
    (&ZEROS_TAIL[d], if d == 0 { 1 } else { d + 2 })
}

/// A number field at the front of `w`: the digits (as [`digits`] writes
/// them), then `tail` stored as one 16-byte block of which `tail_len`
/// bytes count (the comma last). Returns the field's length.
#[inline(always)]
fn number_field(
    w: &mut [u8; NUMBER],
    signed: bool,
    negative: bool,
    magnitude: u64,
    tail: &[u8; 16],
    tail_len: usize,
) -> usize {
    let len = digits(w, signed, negative, magnitude);
    w[len..len + 16].copy_from_slice(tail);
    len + tail_len
}

/// Writes `-` when `negative`, then the digits of `magnitude`, at the front
/// of `w`; returns their length. For a signed type (`signed`, constant
/// where this is inlined) the sign
/// byte is stored either way and the digits start on it or after it (no
/// branch on the sign). Below 1,000 (most numbers of a
/// hold'em row) the digits and their count are one load from [`SMALL`] and
/// one 4-byte store; below 10^8 eight digits are made at once and the
/// leading zeros dropped (see [`trim`]).
#[inline(always)]
fn digits(w: &mut [u8; NUMBER], signed: bool, negative: bool, magnitude: u64) -> usize {
    debug_assert!(signed || !negative);
    if signed {
        w[0] = b'-';
    }
    let at = usize::from(negative);
    let n = if magnitude < 1_000 {
        let entry = SMALL[magnitude as usize];
        // The count byte lands past the digits: scratch, overwritten by
        // what follows or cut off.
        w[at..at + 4].copy_from_slice(&entry.to_le_bytes());
        (entry >> 24) as usize
    } else if magnitude < 100_000_000 {
        let (word, n) = trim(ascii8(magnitude as u32));
        w[at..at + 8].copy_from_slice(&word.to_le_bytes());
        n
    } else {
        long_digits(w, at, magnitude)
    };
    at + n
}

/// The numbers below 1,000: the ASCII digits (no leading zeros) in the low
/// bytes, first digit lowest, and their count in the top byte.
const SMALL: [u32; 1000] = {
    let mut t = [0u32; 1000];
    let mut v = 0;
    while v < 1000 {
        let (h, te, o) = ((v / 100) as u32, (v / 10 % 10) as u32, (v % 10) as u32);
        t[v] = if v >= 100 {
            (b'0' as u32 + h) | (b'0' as u32 + te) << 8 | (b'0' as u32 + o) << 16 | 3 << 24
        } else if v >= 10 {
            (b'0' as u32 + te) | (b'0' as u32 + o) << 8 | 2 << 24
        } else {
            (b'0' as u32 + o) | 1 << 24
        };
        v += 1;
    }
    t
};

/// The digits of `magnitude` (10^8 or more: never in a hold'em row) at
/// `w[at..]`, by itoa; returns their length.
#[cold]
#[inline(never)]
fn long_digits(w: &mut [u8; NUMBER], at: usize, magnitude: u64) -> usize {
    let mut text = itoa::Buffer::new();
    let text = text.format(magnitude).as_bytes();
    w[at..at + text.len()].copy_from_slice(text);
    text.len()
}

/// An integer type [`Row::int`] writes: every primitive integer.
pub trait RowInt: itoa::Integer + Copy {
    /// Whether the type has negative values.
    const SIGNED: bool;
    /// Sign and magnitude, when the magnitude fits 64 bits (always but for
    /// the 128-bit types).
    fn split(self) -> Option<(bool, u64)>;
}

macro_rules! row_int {
    (unsigned $($t:ty),*) => {$(
        impl RowInt for $t {
            const SIGNED: bool = false;
            #[inline]
            fn split(self) -> Option<(bool, u64)> {
                u64::try_from(self).ok().map(|m| (false, m))
            }
        }
    )*};
    (signed $($t:ty),*) => {$(
        impl RowInt for $t {
            const SIGNED: bool = true;
            #[inline]
            fn split(self) -> Option<(bool, u64)> {
                u64::try_from(self.unsigned_abs()).ok().map(|m| (self < 0, m))
            }
        }
    )*};
}
row_int!(unsigned u8, u16, u32, u64, usize, u128);
row_int!(signed i8, i16, i32, i64, isize, i128);

/// The ASCII digits `00` to `99` as little-endian pairs (tens digit first
/// in memory).
const PAIRS: [u16; 100] = {
    let mut t = [0u16; 100];
    let mut i = 0;
    while i < 100 {
        t[i] = (b'0' + (i / 10) as u8) as u16 | ((b'0' + (i % 10) as u8) as u16) << 8;
        i += 1;
    }
    t
};

/// The 4 decimal digits of `v` (below 10,000, leading zeros kept) as ASCII,
/// the most significant digit in the lowest byte (first in memory).
#[inline(always)]
fn ascii4(v: u32) -> u32 {
    debug_assert!(v < 10_000);
    u32::from(PAIRS[(v / 100) as usize]) | u32::from(PAIRS[(v % 100) as usize]) << 16
}

/// The 8 decimal digits of `v` (below 10^8) as [`ascii4`] does.
#[inline(always)]
fn ascii8(v: u32) -> u64 {
    debug_assert!(v < 100_000_000);
    u64::from(ascii4(v / 10_000)) | u64::from(ascii4(v % 10_000)) << 32
}

/// The 8 ASCII digits `digits` (as [`ascii8`] gives them) without their
/// leading zeros but for the last: the digits shifted to the lowest bytes,
/// and their count. A `0` digit is the byte `b'0'`, so the leading zeros
/// are the low bytes of `digits ^ "00000000"` that are zero; the bit set
/// in the top byte keeps the last digit.
#[inline(always)]
fn trim(digits: u64) -> (u64, usize) {
    let x = (digits ^ u64::from_le_bytes(*b"00000000")) | 1 << 56;
    let z = (x.trailing_zeros() / 8) as usize;
    (digits >> (8 * z), 8 - z)
}

/// 10^k for the decimals [`Row::fixed`] accepts.
const POW10: [u64; 10] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
];

/// Metric values of one game, filled by [`Game::observe`].
#[derive(Clone, Debug, Default)]
pub struct Observations {
    values: Vec<Option<f64>>,
}

impl Observations {
    pub(crate) fn reset(&mut self, metrics: usize) {
        self.values.clear();
        self.values.resize(metrics, None);
    }

    /// Observes metric `i` (index into [`Game::metrics`]) with value `v`.
    pub fn set(&mut self, i: usize, v: f64) {
        self.values[i] = Some(v);
    }

    pub(crate) fn values(&self) -> &[Option<f64>] {
        &self.values
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed_text(v: f64, decimals: u32) -> String {
        let mut buf = Vec::new();
        let mut row = Row::new(&mut buf);
        row.fixed(v, decimals);
        row.end();
        String::from_utf8(buf).unwrap().trim_end().to_string()
    }

    #[test]
    fn rows_encode_as_the_csv_crate_does() {
        let texts = [
            "plain",
            "",
            "a,b",
            "say \"hi\"",
            "line\nbreak",
            "cr\rhere",
            " spaced ",
            "#hash",
            "tab\there",
            "'single'",
            "\"",
            ",",
        ];
        for a in texts {
            for b in texts {
                let mut ours = Vec::new();
                let mut row = Row::new(&mut ours);
                row.int(-12i64);
                row.text(a);
                row.empty();
                row.text(b);
                row.flag(true);
                row.end();
                let mut w = csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(Vec::new());
                w.write_record(["-12", a, "", b, "1"]).unwrap();
                assert_eq!(ours, w.into_inner().unwrap(), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn fixed_matches_float_formatting_away_from_ties() {
        use rand::RngExt;
        let mut rng = crate::rng::game_rng(9, 9);
        for _ in 0..20_000 {
            let v: f64 = rng.random_range(-5000.0..5000.0);
            for d in [0u32, 2, 4] {
                let text = fixed_text(v, d);
                let reference = format!("{v:.*}", d as usize);
                // The float formatter keeps the sign of a negative value
                // that rounds to zero ("-0.00"); ours writes "0.00".
                if reference.starts_with('-') && reference.bytes().all(|b| b"-0.".contains(&b)) {
                    assert_eq!(text, &reference[1..]);
                    continue;
                }
                // Both round to the nearest; they may differ only at an
                // exact tie, which random doubles essentially never hit.
                assert_eq!(text, reference, "{v} to {d} decimals");
            }
        }
        assert_eq!(fixed_text(-0.5, 2), "-0.50");
        assert_eq!(fixed_text(0.0001, 4), "0.0001");
        assert_eq!(fixed_text(-0.001, 2), "0.00");
        assert_eq!(fixed_text(1234.5678, 0), "1235");
        assert_eq!(fixed_text(-1234.5678, 0), "-1235");
        assert_eq!(fixed_text(0.0, 9), "0.000000000");
    }

    #[test]
    fn fixed_int_matches_fixed_on_whole_numbers() {
        use rand::RngExt;
        let text = |f: &dyn Fn(&mut Row)| {
            let mut buf = Vec::new();
            let mut row = Row::new(&mut buf);
            f(&mut row);
            row.end();
            String::from_utf8(buf).unwrap()
        };
        let mut rng = crate::rng::game_rng(9, 10);
        let edges = [
            0i64,
            1,
            -1,
            9,
            -9,
            10,
            -10,
            99,
            100,
            -100,
            1 << 44,
            -(1 << 44),
        ];
        for k in 0..20_000 {
            let v = match edges.get(k) {
                Some(&e) => e,
                None => rng.random_range(-(1i64 << 44)..=1 << 44) >> rng.random_range(0..44u32),
            };
            for d in [0u32, 1, 2, 4] {
                if v.unsigned_abs() * POW10[d as usize] >= 1 << 53 {
                    continue; // beyond the documented bound
                }
                let a = text(&|r: &mut Row| r.fixed_int(v, d));
                let b = text(&|r: &mut Row| r.fixed(v as f64, d));
                assert_eq!(a, b, "{v} to {d} decimals");
            }
        }
    }

    #[test]
    fn word_is_text_that_needs_no_quotes() {
        let long = "abcdefghijklmnopqrstuvwxyz_0123456789";
        // Every length through the short-word copies (0..=16) and past.
        let words = (0..long.len()).map(|n| &long[..n]);
        for w in ["preflop", "flop", "straight_flush"]
            .into_iter()
            .chain(words)
        {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let mut row = Row::new(&mut a);
            row.int(1u8);
            row.word(w);
            row.end();
            let mut row = Row::new(&mut b);
            row.int(1u8);
            row.text(w);
            row.end();
            assert_eq!(a, b);
        }
    }

    // The fast number paths against slow, obviously correct references.

    /// A row of the fields `f` writes, as text (the newline dropped).
    fn row_text(f: impl FnOnce(&mut Row)) -> String {
        let mut buf = Vec::new();
        let mut row = Row::new(&mut buf);
        f(&mut row);
        row.end();
        let text = String::from_utf8(buf).unwrap();
        text.strip_suffix('\n').unwrap().to_string()
    }

    /// `scaled / 10^decimals` the long way: all the digits (at least
    /// `decimals + 1`, zero-padded), a point before the last `decimals`.
    fn scaled_reference(scaled: i64, decimals: u32) -> String {
        let d = decimals as usize;
        let digits = format!("{:0width$}", scaled.unsigned_abs(), width = d + 1);
        let (whole, fraction) = digits.split_at(digits.len() - d);
        let sign = if scaled < 0 { "-" } else { "" };
        if d == 0 {
            format!("{sign}{whole}")
        } else {
            format!("{sign}{whole}.{fraction}")
        }
    }

    /// Integers of every size: edges around each digit count and the type
    /// limits, then random values of random bit lengths.
    fn test_integers() -> Vec<i64> {
        use rand::RngExt;
        let mut values = vec![i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1];
        let mut p = 1i64;
        for _ in 0..19 {
            for v in [p - 1, p, p + 1, 2 * p - 1] {
                values.extend([v, -v]);
            }
            p = p.saturating_mul(10);
        }
        let mut rng = crate::rng::game_rng(9, 11);
        for _ in 0..50_000 {
            let v = rng.random::<i64>() >> rng.random_range(0..64u32);
            values.push(v);
        }
        values
    }

    #[test]
    fn int_writes_what_display_writes() {
        use rand::RngExt;
        for v in test_integers() {
            assert_eq!(row_text(|r| r.int(v)), v.to_string());
            let u = v as u64;
            assert_eq!(row_text(|r| r.int(u)), u.to_string());
            let u = v.unsigned_abs();
            assert_eq!(row_text(|r| r.int(u)), u.to_string());
        }
        assert_eq!(row_text(|r| r.int(u64::MAX)), u64::MAX.to_string());
        // Every small number, each width and type.
        for v in -70_000i64..70_000 {
            assert_eq!(row_text(|r| r.int(v)), v.to_string());
        }
        let mut rng = crate::rng::game_rng(9, 12);
        for _ in 0..2_000 {
            let (a, b, c, d) = (
                rng.random::<u8>(),
                rng.random::<i8>(),
                rng.random::<u16>(),
                rng.random::<i16>(),
            );
            let (e, f) = (rng.random::<u32>(), rng.random::<i32>());
            let (g, h) = (rng.random::<u64>() as usize, rng.random::<i64>() as isize);
            let text = row_text(|r| {
                r.int(a);
                r.int(b);
                r.int(c);
                r.int(d);
                r.int(e);
                r.int(f);
                r.int(g);
                r.int(h);
            });
            assert_eq!(text, format!("{a},{b},{c},{d},{e},{f},{g},{h}"));
        }
        for v in [u128::MAX, u128::from(u64::MAX) + 1, 0, 7] {
            assert_eq!(row_text(|r| r.int(v)), v.to_string());
        }
        for v in [i128::MIN, i128::MAX, -i128::from(u64::MAX), -1, 0] {
            assert_eq!(row_text(|r| r.int(v)), v.to_string());
        }
    }

    #[test]
    fn fixed_int_writes_the_number_then_zeros() {
        for v in test_integers() {
            for d in 0..=9u32 {
                let zeros = "0".repeat(d as usize);
                let reference = if d == 0 {
                    v.to_string()
                } else {
                    format!("{v}.{zeros}")
                };
                assert_eq!(row_text(|r| r.fixed_int(v, d)), reference);
            }
        }
    }

    #[test]
    fn scaled_writes_the_long_division() {
        for v in test_integers() {
            for d in 0..=9u32 {
                assert_eq!(
                    row_text(|r| r.scaled(v, d)),
                    scaled_reference(v, d),
                    "{v} with {d} decimals"
                );
            }
        }
    }

    #[test]
    fn fixed_rounds_then_writes_the_long_division() {
        use rand::RngExt;
        let mut rng = crate::rng::game_rng(9, 13);
        for k in 0..60_000 {
            // Values up to 10^7, of every magnitude down to 10^-7.
            let v: f64 = rng.random_range(-1.0..1.0) * 10f64.powi(k % 15 - 7);
            for d in 0..=9u32 {
                // Half away from zero, as the writer has always rounded
                // (`f64::round` differs from it past 2^52, where `x + 0.5`
                // is itself rounded).
                let x = v * POW10[d as usize] as f64;
                let rounded = if x >= 0.0 {
                    (x + 0.5) as i64
                } else {
                    (x - 0.5) as i64
                };
                assert_eq!(
                    row_text(|r| r.fixed(v, d)),
                    scaled_reference(rounded, d),
                    "{v} to {d} decimals"
                );
            }
        }
    }

    #[test]
    fn small_table_holds_each_number_and_its_width() {
        for (v, &entry) in SMALL.iter().enumerate() {
            let text = v.to_string();
            let n = (entry >> 24) as usize;
            assert_eq!(n, text.len());
            assert_eq!(&entry.to_le_bytes()[..n], text.as_bytes());
        }
    }

    /// Random rows of every kind of field, appended to one buffer that
    /// starts with bytes of its own, against the csv crate writing the
    /// same fields as text: the room past each row never shows, long
    /// fields outgrow it, and rows of no fields are a newline.
    #[test]
    fn random_rows_equal_the_csv_crate() {
        use rand::RngExt;
        let mut rng = crate::rng::game_rng(9, 14);
        let words = [
            "preflop",
            "straight_flush",
            "",
            "x",
            "ab",
            "flop",
            "two_pair",
        ];
        let texts = ["a,b", "say \"hi\"", "plain", "", "line\nbreak"];
        let mut ours = b"prefix\n".to_vec();
        let mut theirs = b"prefix\n".to_vec();
        for _ in 0..3_000 {
            let calls = rng.random_range(0..40);
            let mut row = Row::new(&mut ours);
            let mut record: Vec<String> = Vec::new();
            for _ in 0..calls {
                let v = rng.random::<i64>() >> rng.random_range(0..64u32);
                let d = rng.random_range(0..=9u32);
                match rng.random_range(0..12) {
                    0 => {
                        row.int(v);
                        record.push(v.to_string());
                    }
                    1 => {
                        let v = v.unsigned_abs() % 2000;
                        row.fixed_int(v as i64 - 1000, d);
                        record.push(row_text(|r| r.fixed_int(v as i64 - 1000, d)));
                    }
                    2 => {
                        let x = (v % 10_000_000) as f64 / 997.0;
                        row.fixed(x, d);
                        record.push(row_text(|r| r.fixed(x, d)));
                    }
                    3 => {
                        row.empty();
                        record.push(String::new());
                    }
                    4 => {
                        row.flag(v < 0);
                        record.push(u8::from(v < 0).to_string());
                    }
                    5 => {
                        let s = words[v.unsigned_abs() as usize % words.len()];
                        row.word(s);
                        record.push(s.to_string());
                    }
                    6 => {
                        let s = texts[v.unsigned_abs() as usize % texts.len()];
                        row.text(s);
                        record.push(s.to_string());
                    }
                    7 => {
                        // Longer than the room made at a time.
                        let s = "long text, ".repeat(v.unsigned_abs() as usize % 60);
                        row.text(&s);
                        record.push(s);
                    }
                    9 => {
                        // Runs of empty fields, short and long.
                        let n = v.unsigned_abs() as usize % 20;
                        row.empties(n);
                        record.extend((0..n).map(|_| String::new()));
                    }
                    10 => {
                        let values: Vec<i32> = (0..d as i32).map(|k| (v >> k) as i32).collect();
                        row.ints(values.iter().copied());
                        record.extend(values.iter().map(|v| v.to_string()));
                    }
                    11 => {
                        let values: Vec<i64> = (0..d as i64).map(|k| v >> (k * 5)).collect();
                        row.fixed_ints(values.iter().copied(), 2);
                        record.extend(values.iter().map(|v| format!("{v}.00")));
                    }
                    _ => {
                        row.real(v as f64 / 1e6, d as usize);
                        record.push(format!("{:.*}", d as usize, v as f64 / 1e6));
                    }
                }
            }
            assert_eq!(row.fields(), record.len());
            row.end();
            if record.iter().all(|f| f.is_empty()) && record.len() <= 1 {
                // No field, or one empty field: a bare newline (the csv
                // crate writes the latter as `""`).
                theirs.push(b'\n');
            } else {
                let mut w = csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(Vec::new());
                w.write_record(&record).unwrap();
                theirs.extend(w.into_inner().unwrap());
            }
        }
        let (ours, theirs) = (
            String::from_utf8(ours).unwrap(),
            String::from_utf8(theirs).unwrap(),
        );
        for (k, (a, b)) in ours.split('\n').zip(theirs.split('\n')).enumerate() {
            assert_eq!(a, b, "line {k}");
        }
        assert_eq!(ours, theirs);
    }

    #[test]
    fn runs_of_numbers_equal_one_call_a_field() {
        let values = test_integers();
        for d in 0..=9u32 {
            for chunk in values.chunks(37) {
                let run = row_text(|r| {
                    r.int(5u8);
                    r.fixed_ints(chunk.iter().copied(), d);
                    r.ints(chunk.iter().copied());
                });
                let one_by_one = row_text(|r| {
                    r.int(5u8);
                    chunk.iter().for_each(|&v| r.fixed_int(v, d));
                    chunk.iter().for_each(|&v| r.int(v));
                });
                assert_eq!(run, one_by_one);
            }
        }
        // Wider than 64 bits within a run; the field count stays exact.
        let mut buf = Vec::new();
        let mut row = Row::new(&mut buf);
        row.ints([1u128, u128::MAX, 7]);
        row.int(3u8);
        assert_eq!(row.fields(), 4);
        row.end();
        assert_eq!(buf, format!("1,{},7,3\n", u128::MAX).as_bytes());
    }

    #[test]
    fn a_dropped_row_keeps_its_fields_and_no_room() {
        let mut buf = b"x\n".to_vec();
        let mut row = Row::new(&mut buf);
        row.int(12u8);
        row.fixed_int(-3, 2);
        drop(row);
        assert_eq!(buf, b"x\n12,-3.00,");
        let row = Row::new(&mut buf);
        row.end();
        assert_eq!(buf, b"x\n12,-3.00,\n");
    }
}
