//! The CSV row writer: [`Row`] encodes one game's fields straight into the
//! chunk's byte buffer, as the csv crate would (its tests hold it to that
//! crate's bytes, in `row/tests.rs`). The hot part of every run's CSV
//! output, so it is built for speed: see [`Row`].

use super::parquet::{Book, RowColumns, Typed};

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
    /// Typed columns the fields go to instead of text ([`Row::columns`]).
    columns: Option<&'a mut RowColumns>,
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
            columns: None,
        }
    }

    /// A row whose fields are stored typed, each straight into its
    /// column of `columns` (`buf` is left as it is): what a Parquet run's
    /// writer takes, with no number formatted and parsed back, and no field
    /// decoded again on the writer's thread. Every field is the value its
    /// CSV text stands for.
    pub(crate) fn columns(buf: &'a mut Vec<u8>, columns: &'a mut RowColumns) -> Row<'a> {
        let mut row = Row::new(buf);
        row.columns = Some(columns);
        row
    }

    /// Whether the fields go to typed columns.
    #[inline(always)]
    fn typed(&self) -> bool {
        self.columns.is_some()
    }

    /// Stores a typed field in its column.
    #[inline(always)]
    fn put(&mut self, field: Typed<'_>) {
        if let Some(columns) = self.columns.as_deref_mut() {
            columns.push(self.fields, field);
        }
        self.fields += 1;
    }

    /// An integer as a typed field: its value, or its text beyond `i64`.
    #[inline(always)]
    fn put_int<T: RowInt>(&mut self, v: T) {
        let value = v.split().and_then(|(negative, magnitude)| {
            let m = i128::from(magnitude);
            i64::try_from(if negative { -m } else { m }).ok()
        });
        match value {
            Some(v) => self.put(Typed::Int(v)),
            None => self.put_text(itoa::Buffer::new().format(v)),
        }
    }

    /// A text as a typed field (empty: null, as its CSV cell reads).
    fn put_text(&mut self, v: &str) {
        if v.is_empty() {
            self.put(Typed::Null);
        } else {
            self.put(Typed::Text(v));
        }
    }

    /// Fields written so far (the runner checks it against the header).
    pub(crate) fn fields(&self) -> usize {
        self.fields
    }

    /// Ends the record (a newline): the comma after the last field becomes
    /// the newline (a record of no fields is the newline alone).
    pub fn end(mut self) {
        if self.typed() {
            return;
        }
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
        if self.typed() {
            return self.put_int(v);
        }
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
        if self.typed() {
            return self.put_text(&text);
        }
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
        if self.typed() {
            return self.put(Typed::FixedInt(v, decimals.min(9) as u8));
        }
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
        if self.typed() {
            return match decimals {
                0 => self.put(Typed::Int(scaled)),
                d => self.put(Typed::Scaled(scaled, d.min(9) as u8)),
            };
        }
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
        if self.typed() {
            return self.put_text(v);
        }
        let bytes = v.as_bytes();
        let len = bytes.len();
        if len > 16 {
            return self.bytes(bytes);
        }
        let w = self.window::<17>();
        store_short(w, bytes);
        w[len] = b',';
        self.advance(len + 1);
    }

    /// A text field from a fixed list: `book`'s text of `code` (needing
    /// no quoting, as [`Row::word`]; a code past the list is an empty
    /// field). Typed columns store the code, which the Parquet encoder
    /// maps to its dictionary entry without hashing the text.
    #[inline(always)]
    pub(crate) fn code(&mut self, code: u16, book: &'static Book) {
        if self.typed() {
            return self.put(if usize::from(code) < book.len {
                Typed::Code(code, book)
            } else {
                Typed::Null
            });
        }
        self.word(book.text(code));
    }

    /// A text field (quoted when needed).
    pub fn text(&mut self, v: &str) {
        if self.typed() {
            return self.put_text(v);
        }
        self.field(v.as_bytes());
    }

    /// An empty field (a value that does not apply to this game).
    #[inline(always)]
    pub fn empty(&mut self) {
        if self.typed() {
            return self.put(Typed::Null);
        }
        self.window::<1>()[0] = b',';
        self.advance(1);
    }

    /// `n` empty fields.
    #[inline(always)]
    pub fn empties(&mut self, n: usize) {
        if self.typed() {
            return (0..n).for_each(|_| self.put(Typed::Null));
        }
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
        if self.typed() {
            return values.into_iter().for_each(|v| self.put_int(v));
        }
        self.numbers(values, &ZEROS_TAIL[0], 1);
    }

    /// Fields `fixed_int(v, decimals)`, one for each of `values`.
    #[inline]
    pub fn fixed_ints(&mut self, values: impl IntoIterator<Item = i64>, decimals: u32) {
        if self.typed() {
            return values.into_iter().for_each(|v| self.fixed_int(v, decimals));
        }
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
        if self.typed() {
            return self.put(Typed::Int(i64::from(v)));
        }
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

/// Stores `bytes` (at most 16) at the start of `to` (at least as long)
/// with two overlapping fixed-size copies, not a call to `memcpy`: how a
/// short word goes into a CSV row, or into a text column.
#[inline(always)]
pub(crate) fn store_short(to: &mut [u8], bytes: &[u8]) {
    let len = bytes.len();
    debug_assert!(len <= 16 && to.len() >= len);
    if len >= 8 {
        to[..8].copy_from_slice(&bytes[..8]);
        to[len - 8..len].copy_from_slice(&bytes[len - 8..]);
    } else if len >= 4 {
        to[..4].copy_from_slice(&bytes[..4]);
        to[len - 4..len].copy_from_slice(&bytes[len - 4..]);
    } else {
        for (to, &from) in to.iter_mut().zip(bytes) {
            *to = from;
        }
    }
}

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

#[cfg(test)]
mod tests;
