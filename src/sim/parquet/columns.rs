//! Rows held as typed columns: the slice a Parquet file's writer is
//! filling, and the rows of one chunk of games as the worker that played
//! them writes them ([`RowColumns`], filled by
//! [`crate::sim::row::Row::columns`]). A worker stores each field straight
//! into its column, converted to the column's type there, so the writer
//! thread (the one part of a run that does not run in parallel) only
//! encodes whole column runs: no field is decoded twice, and no value is
//! copied on its way to the encoder.

use super::{ColumnType, ParquetError};

/// Which rows of a column hold a value. Most columns never hold a null,
/// so the flags are kept only from a column's first null on (all the
/// rows before it then marked valid): a column without nulls costs no
/// flag per row.
#[derive(Default)]
pub(super) struct Validity {
    /// One flag per row once `nulls > 0`; empty before.
    flags: Vec<bool>,
    nulls: usize,
}

impl Validity {
    #[inline(always)]
    fn value(&mut self) {
        if self.nulls > 0 {
            self.flags.push(true);
        }
    }

    /// A null as row number `row`.
    #[inline]
    fn null(&mut self, row: usize) {
        if self.nulls == 0 {
            self.flags.resize(row, true);
        }
        self.flags.push(false);
        self.nulls += 1;
    }

    /// Whether row `row` holds a value.
    pub(super) fn is_valid(&self, row: usize) -> bool {
        self.nulls == 0 || self.flags.get(row) == Some(&true)
    }

    /// The flags of rows `from..to`: `None` when every row holds a value.
    fn run(&self, from: usize, to: usize) -> Option<&[bool]> {
        (self.nulls > 0).then(|| &self.flags[from..to])
    }

    fn clear(&mut self) {
        self.flags.clear();
        self.nulls = 0;
    }
}

/// A column's values, with their validity; the vectors are kept from
/// slice to slice (cleared, not freed).
pub(super) struct Values<T> {
    pub(super) values: Vec<T>,
    valid: Validity,
}

impl<T: Copy + Default> Values<T> {
    fn with_capacity(rows: usize) -> Self {
        Values {
            values: Vec::with_capacity(rows),
            valid: Validity::default(),
        }
    }

    #[inline]
    pub(super) fn append_value(&mut self, v: T) {
        self.values.push(v);
        self.valid.value();
    }

    #[inline]
    pub(super) fn append_null(&mut self) {
        self.valid.null(self.values.len());
        self.values.push(T::default());
    }

    pub(super) fn extend(&mut self, values: impl Iterator<Item = Option<T>>) {
        for v in values {
            match v {
                Some(v) => self.append_value(v),
                None => self.append_null(),
            }
        }
    }

    fn clear(&mut self) {
        self.values.clear();
        self.valid.clear();
    }

    /// Whether every value held is a null (none held: true).
    fn all_null(&self) -> bool {
        self.valid.nulls == self.values.len()
    }

    /// The same rows as values of another type: `f` of each value, the
    /// default for each null.
    fn map<U: Copy + Default>(&self, f: impl Fn(T) -> U) -> Values<U> {
        let mut values = Vec::with_capacity(self.values.capacity());
        values.extend(self.values.iter().enumerate().map(|(k, &v)| {
            if self.valid.is_valid(k) {
                f(v)
            } else {
                U::default()
            }
        }));
        Values {
            values,
            valid: Validity {
                flags: self.valid.flags.clone(),
                nulls: self.valid.nulls,
            },
        }
    }
}

/// Room kept past a text column's last byte: a short text is stored
/// through a fixed-size window (no call to `memcpy`), and the encoder
/// reads any text's first 8 bytes as one word ([`Texts::key`]).
const ROOM: usize = 16;

/// A text column's values: their bytes end to end and where each ends.
/// `bytes` is always at least [`ROOM`] bytes longer than the texts
/// (`end`); what lies past `end` is no text's.
pub(super) struct Texts {
    offsets: Vec<i32>,
    bytes: Vec<u8>,
    end: usize,
    valid: Validity,
}

impl Texts {
    fn with_capacity(rows: usize) -> Self {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        // Most texts are short (cards, streets): room for 8 bytes a row,
        // so the bytes rarely grow (and copy) while a chunk fills.
        let mut bytes = Vec::with_capacity(rows * 8 + ROOM);
        bytes.resize(ROOM, 0);
        Texts {
            offsets,
            bytes,
            end: 0,
            valid: Validity::default(),
        }
    }

    /// Where the text ends once `len` more bytes follow the last: past
    /// 2 GiB, a value the offsets cannot count up to, refused when the
    /// encoder reads it ([`Texts::get`]).
    fn end_after(&self, len: usize) -> i32 {
        i32::try_from(self.end + len).unwrap_or(i32::MIN)
    }

    #[inline]
    pub(super) fn append_value(&mut self, v: &str) {
        let v = v.as_bytes();
        let len = v.len();
        if self.bytes.len() < self.end + len + ROOM {
            self.grow(len);
        }
        let at = &mut self.bytes[self.end..];
        if len > ROOM {
            at[..len].copy_from_slice(v);
        } else {
            crate::sim::row::store_short(&mut at[..ROOM], v);
        }
        self.end += len;
        self.offsets.push(self.end_after(0));
        self.valid.value();
    }

    /// Lengthens the bytes for a text of `len` and the room after it.
    #[cold]
    fn grow(&mut self, len: usize) {
        let want = (self.end + len + ROOM).max(2 * self.bytes.len());
        self.bytes.resize(want, 0);
    }

    #[inline]
    pub(super) fn append_null(&mut self) {
        self.valid.null(self.offsets.len() - 1);
        self.offsets.push(*self.offsets.last().unwrap_or(&0));
    }

    pub(super) fn append_option(&mut self, v: Option<&str>) {
        match v {
            Some(v) => self.append_value(v),
            None => self.append_null(),
        }
    }

    /// Text number `i`: `None` past 2 GiB of text (offsets the runs cannot
    /// count).
    #[inline]
    pub(super) fn get(&self, i: usize) -> Option<&[u8]> {
        let from = usize::try_from(self.offsets[i]).ok()?;
        let to = usize::try_from(self.offsets[i + 1]).ok()?;
        self.bytes[..self.end].get(from..to)
    }

    /// Text number `i` when it is at most 8 bytes: its bytes as a word
    /// (the first in the lowest bits, zeros past its end) and its length,
    /// read in one load; `None` for a longer text (or past 2 GiB).
    #[inline]
    pub(super) fn key(&self, i: usize) -> Option<(u64, u32)> {
        let from = usize::try_from(self.offsets[i]).ok()?;
        let len = usize::try_from(self.offsets[i + 1])
            .ok()?
            .checked_sub(from)?;
        if len > 8 {
            return None;
        }
        // In bounds: `from <= end`, and ROOM (> 8) bytes follow `end`.
        let word: [u8; 8] = self.bytes.get(from..from + 8)?.try_into().ok()?;
        let mask = if len == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * len)) - 1
        };
        Some((u64::from_le_bytes(word) & mask, len as u32))
    }
}

/// A fixed list of texts that a text column's values are drawn from,
/// each named by its code (its place in the list): hold'em's hole-card
/// pairs, the names of streets and hand categories. A worker stores a
/// code ([`Typed::Code`]) where it would store the text, and the encoder
/// finds the code's dictionary entry in a table indexed by the code (no
/// hashing, no comparing of texts); the file holds the texts, the same
/// bytes as when the texts are stored.
pub(crate) struct Book {
    /// Codes `0..len`.
    pub(crate) len: usize,
    /// The text of a code below `len`.
    pub(crate) text: fn(u16) -> &'static str,
}

impl Book {
    /// The text of `code` (the empty text past the list, which no row
    /// writer stores).
    #[inline]
    pub(crate) fn text(&self, code: u16) -> &'static str {
        if usize::from(code) < self.len {
            (self.text)(code)
        } else {
            ""
        }
    }
}

/// A text column held as codes of one [`Book`].
pub(super) struct Codes {
    pub(super) values: Values<u16>,
    pub(super) book: &'static Book,
}

impl Codes {
    /// The column as texts (a text or another book's code arrived).
    #[cold]
    #[inline(never)]
    fn to_texts(&self) -> Texts {
        let rows = self.values.values.len();
        let mut t = Texts::with_capacity(rows);
        for (k, &c) in self.values.values.iter().enumerate() {
            if self.values.valid.is_valid(k) {
                t.append_value(self.book.text(c));
            } else {
                t.append_null();
            }
        }
        t
    }
}

/// The real `v / 10^d`: both exact (`|v| < 2^53`, `d` at most 9), so the
/// quotient is the double nearest the decimal, as parsing its text gives.
/// How every scaled value becomes its real, in a worker or in the encoder.
#[inline(always)]
pub(super) fn real_of(v: i64, d: u8) -> f64 {
    v as f64 / 10u64.pow(u32::from(d)) as f64
}

/// A field that is a decimal of at most 9 decimals, as a whole number of
/// `10^-d` below 2^53 in magnitude, and `d`: what a [`Scaled`] column
/// holds exactly.
#[inline(always)]
fn scaled_of(field: Typed<'_>) -> Option<(i64, u8)> {
    match field {
        Typed::Scaled(v, d) if d <= 9 && v.unsigned_abs() < 1 << 53 => Some((v, d)),
        Typed::FixedInt(v, d) if d <= 9 => v
            .checked_mul(10i64.pow(u32::from(d)))
            .filter(|s| s.unsigned_abs() < 1 << 53)
            .map(|s| (s, d)),
        _ => None,
    }
}

/// A real column whose values so far are all decimals of `decimals`
/// decimals (or nulls), held as whole numbers of `10^-decimals`: hold'em's
/// equities and `ev_net`. A worker stores the number as it has it (no
/// division), and the encoder finds a small one's dictionary entry in a
/// table indexed by it, making its real ([`real_of`]) only for a new entry.
pub(super) struct Scaled {
    pub(super) values: Values<i64>,
    pub(super) decimals: u8,
}

/// One column's values.
pub(super) enum Column {
    Int(Values<i64>),
    Float(Values<f64>),
    Text(Texts),
    /// A text column whose values so far are all codes of one book (or
    /// nulls).
    Codes(Codes),
    /// A real column of decimals (see [`Scaled`]).
    Scaled(Scaled),
}

impl Column {
    /// An empty column of `kind`, with room for `rows` values.
    pub(super) fn new(kind: ColumnType, rows: usize) -> Column {
        match kind {
            ColumnType::Int64 => Column::Int(Values::with_capacity(rows)),
            ColumnType::Float64 => Column::Float(Values::with_capacity(rows)),
            ColumnType::Utf8 => Column::Text(Texts::with_capacity(rows)),
        }
    }

    /// Values held.
    pub(super) fn len(&self) -> usize {
        match self {
            Column::Int(v) => v.values.len(),
            Column::Float(v) => v.values.len(),
            Column::Text(t) => t.offsets.len() - 1,
            Column::Codes(c) => c.values.values.len(),
            Column::Scaled(c) => c.values.values.len(),
        }
    }

    /// Which of rows `from..to` hold a value: `None` when all of the
    /// column's do.
    pub(super) fn valid_run(&self, from: usize, to: usize) -> Option<&[bool]> {
        match self {
            Column::Int(v) => v.valid.run(from, to),
            Column::Float(v) => v.valid.run(from, to),
            Column::Text(t) => t.valid.run(from, to),
            Column::Codes(c) => c.values.valid.run(from, to),
            Column::Scaled(c) => c.values.valid.run(from, to),
        }
    }

    /// Empties the column (its buffers kept).
    pub(super) fn clear(&mut self) {
        match self {
            Column::Int(v) => v.clear(),
            Column::Float(v) => v.clear(),
            Column::Text(t) => {
                t.offsets.truncate(1);
                t.end = 0;
                t.valid.clear();
            }
            Column::Codes(c) => c.values.clear(),
            Column::Scaled(c) => c.values.clear(),
        }
    }

    #[inline]
    pub(super) fn append_null(&mut self) {
        match self {
            Column::Int(v) => v.append_null(),
            Column::Float(v) => v.append_null(),
            Column::Text(t) => t.append_null(),
            Column::Codes(c) => c.values.append_null(),
            Column::Scaled(c) => c.values.append_null(),
        }
    }

    /// The column's reals, for a real column (its decimals turned into
    /// reals first); `None` for another type.
    pub(super) fn reals_mut(&mut self) -> Option<&mut Values<f64>> {
        if matches!(self, Column::Scaled(_)) {
            self.unscale();
        }
        match self {
            Column::Float(v) => Some(v),
            _ => None,
        }
    }

    /// Makes a column of decimals a column of their reals.
    #[cold]
    #[inline(never)]
    fn unscale(&mut self) {
        if let Column::Scaled(c) = self {
            let d = c.decimals;
            *self = Column::Float(c.values.map(|v| real_of(v, d)));
        }
    }

    /// Readies the column for a decimal of `d` decimals (any field
    /// `scaled_of` takes): a real column of nulls only becomes a column of
    /// such decimals, a column of other decimals a column of reals.
    #[inline(always)]
    fn take_scale(&mut self, d: u8) {
        match self {
            Column::Scaled(c) if c.decimals == d => {}
            Column::Scaled(_) => self.unscale(),
            Column::Float(v) if v.all_null() => self.scale(d),
            _ => {}
        }
    }

    /// Makes a real column of nulls only a column of decimals of `d`
    /// decimals.
    #[cold]
    #[inline(never)]
    fn scale(&mut self, d: u8) {
        if let Column::Float(v) = self {
            *self = Column::Scaled(Scaled {
                values: v.map(|_| 0),
                decimals: d,
            });
        }
    }

    /// The column's texts, for a text column (its codes turned into texts
    /// first); `None` for a column of numbers.
    pub(super) fn texts_mut(&mut self) -> Option<&mut Texts> {
        if matches!(self, Column::Codes(_)) {
            self.unbook();
        }
        match self {
            Column::Text(t) => Some(t),
            _ => None,
        }
    }

    /// Makes a column of codes a column of their texts.
    #[cold]
    #[inline(never)]
    fn unbook(&mut self) {
        if let Column::Codes(c) = self {
            *self = Column::Text(c.to_texts());
        }
    }

    /// Readies the column for a code of `book`: a text column of nulls
    /// only becomes a column of `book`'s codes, a column of another book's
    /// codes a column of texts.
    #[inline(always)]
    fn take_book(&mut self, book: &'static Book) {
        match self {
            Column::Codes(c) if std::ptr::eq(c.book, book) => {}
            Column::Codes(_) => self.unbook(),
            Column::Text(t) if t.valid.nulls == t.offsets.len() - 1 => self.book(book),
            _ => {}
        }
    }

    /// Makes a text column of nulls only a column of `book`'s codes.
    #[cold]
    #[inline(never)]
    fn book(&mut self, book: &'static Book) {
        if let Column::Text(t) = self {
            let mut values = Values::with_capacity(t.offsets.capacity().saturating_sub(1));
            for _ in 1..t.offsets.len() {
                values.append_null();
            }
            *self = Column::Codes(Codes { values, book });
        }
    }

    /// Appends a field, converted to the column's type as its CSV text
    /// would be read; `false` (and nothing appended) when the text would
    /// not read as the column's type.
    #[inline(always)]
    fn append_field(&mut self, field: Typed<'_>) -> bool {
        let scaled = scaled_of(field);
        match (field, scaled) {
            (Typed::Code(_, book), _) => self.take_book(book),
            (Typed::Null, _) => {}
            (_, Some((_, d))) if matches!(self, Column::Float(_) | Column::Scaled(_)) => {
                self.take_scale(d)
            }
            _ => match self {
                Column::Codes(_) => self.unbook(),
                Column::Scaled(_) => self.unscale(),
                _ => {}
            },
        }
        match (self, field) {
            (c, Typed::Null) => c.append_null(),
            // The same book: `take_book` made sure.
            (Column::Codes(c), Typed::Code(v, _)) => c.values.append_value(v),
            // The same decimals: `take_scale` made sure.
            (Column::Scaled(c), _) if scaled.is_some() => {
                c.values.append_value(scaled.map_or(0, |(v, _)| v))
            }
            // Not reached: a column of codes (decimals) takes only nulls
            // and codes (decimals) once the steps above have run; refused
            // if it were.
            (Column::Codes(_) | Column::Scaled(_), _) => return false,
            (Column::Text(b), Typed::Code(v, book)) => b.append_value(book.text(v)),
            (Column::Int(b), Typed::Code(v, book)) => match book.text(v).parse() {
                Ok(v) => b.append_value(v),
                Err(_) => return false,
            },
            (Column::Int(b), Typed::Int(v) | Typed::FixedInt(v, 0)) => b.append_value(v),
            (Column::Int(b), Typed::Text(t)) => match t.parse() {
                Ok(v) => b.append_value(v),
                Err(_) => return false,
            },
            (Column::Int(_), Typed::Scaled(..) | Typed::FixedInt(..)) => return false,
            (Column::Float(b), Typed::Scaled(v, d)) if v.unsigned_abs() < 1 << 53 => {
                b.append_value(real_of(v, d))
            }
            (Column::Float(b), Typed::Int(v) | Typed::FixedInt(v, _)) => b.append_value(v as f64),
            (Column::Float(b), Typed::Text(t)) => match t.parse() {
                Ok(v) => b.append_value(v),
                Err(_) => return false,
            },
            (Column::Float(b), f) => match f.text().parse() {
                Ok(v) => b.append_value(v),
                Err(_) => return false,
            },
            (Column::Text(b), Typed::Text(t)) => b.append_value(t),
            (Column::Text(b), f) => b.append_value(&f.text()),
        }
        true
    }
}

/// A field of a row, typed: what [`crate::sim::row::Row`] stores in a
/// [`RowColumns`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum Typed<'a> {
    /// An empty cell.
    Null,
    Int(i64),
    /// The real `value / 10^d` (`d` 1..=9), written with `d` decimals.
    Scaled(i64, u8),
    /// The whole number `value` written with `d` (0..=9) zero decimals.
    FixedInt(i64, u8),
    /// Text, not empty (an empty text is [`Typed::Null`]).
    Text(&'a str),
    /// The text of code `.0` in the book `.1` (not empty).
    Code(u16, &'static Book),
}

impl std::fmt::Debug for Book {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a book of {} texts", self.len)
    }
}

impl Typed<'_> {
    /// The field's CSV text.
    pub(crate) fn text(self) -> String {
        match self {
            Typed::Null => String::new(),
            Typed::Text(t) => t.to_string(),
            Typed::Code(c, book) => book.text(c).to_string(),
            Typed::Scaled(v, d) => {
                let unit = 10u64.pow(u32::from(d));
                let m = v.unsigned_abs();
                let sign = if v < 0 { "-" } else { "" };
                format!("{sign}{}.{:0d$}", m / unit, m % unit, d = usize::from(d))
            }
            Typed::FixedInt(v, d) if d > 0 => format!("{v}.{}", "0".repeat(usize::from(d))),
            Typed::Int(v) | Typed::FixedInt(v, _) => v.to_string(),
        }
    }
}

/// A value a column refused ([`RowColumns`] keeps the first).
#[derive(Debug)]
struct Refused {
    row: usize,
    column: usize,
    value: String,
    kind: &'static str,
}

/// The rows of one chunk of games as typed columns (`game` first, then the
/// game's columns, as in its file's schema), written by the worker that
/// played them and appended whole by [`super::ParquetRows::write_columns`].
/// A value its column's type refuses (a bug in a game) is kept, with its
/// row, to fail the run there.
pub(crate) struct RowColumns {
    pub(super) columns: Vec<Column>,
    refused: Option<Refused>,
}

impl RowColumns {
    /// Empty columns of these types, with room for `rows` rows.
    pub(crate) fn new(types: &[ColumnType], rows: usize) -> RowColumns {
        RowColumns {
            columns: types.iter().map(|&t| Column::new(t, rows)).collect(),
            refused: None,
        }
    }

    /// Empties every column (their buffers kept), to be filled again.
    pub(crate) fn clear(&mut self) {
        self.columns.iter_mut().for_each(Column::clear);
        self.refused = None;
    }

    /// Rows held (those of the first column: a row's fields are stored in
    /// order, and a row with too few fields fails the run).
    pub(crate) fn rows(&self) -> usize {
        self.columns.first().map_or(0, Column::len)
    }

    /// Stores field number `at` of the row being written. A field past
    /// the last column is dropped (the runner, counting the fields,
    /// refuses that row); a value its column refuses is stored as null and
    /// remembered.
    #[inline(always)]
    pub(crate) fn push(&mut self, at: usize, field: Typed<'_>) {
        let Some(column) = self.columns.get_mut(at) else {
            return;
        };
        if !column.append_field(field) {
            self.refuse(at, field);
        }
    }

    /// Remembers the first refused value (and stores a null in its place,
    /// so the columns stay aligned).
    #[cold]
    #[inline(never)]
    fn refuse(&mut self, at: usize, field: Typed<'_>) {
        let column = &mut self.columns[at];
        let row = column.len();
        column.append_null();
        let kind = match column {
            Column::Int(_) => "an integer",
            _ => "a number",
        };
        self.refused.get_or_insert(Refused {
            row,
            column: at,
            value: field.text(),
            kind,
        });
    }

    /// The first refused value as the error the run fails with: its game
    /// (the row's `game` field), column (named by `schema`) and text.
    pub(super) fn check(&self, schema: &arrow_schema::Schema) -> Result<(), ParquetError> {
        let Some(r) = &self.refused else {
            return Ok(());
        };
        let game = match self.columns.first() {
            Some(Column::Int(g)) if g.valid.is_valid(r.row) => g.values[r.row].to_string(),
            _ => String::new(),
        };
        Err(ParquetError::Value {
            game,
            column: schema
                .fields()
                .get(r.column)
                .map(|f| f.name().clone())
                .unwrap_or_default(),
            value: r.value.clone(),
            kind: r.kind,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_of_every_length_read_back_with_their_keys() {
        let mut t = Texts::with_capacity(2);
        let words: Vec<String> = (0..300)
            .map(|k| {
                (0..k % 41)
                    .map(|i| char::from(b'a' + ((k + i) % 26) as u8))
                    .collect()
            })
            .collect();
        for (k, w) in words.iter().enumerate() {
            if k % 7 == 3 {
                t.append_null();
            }
            t.append_value(w);
        }
        let mut row = 0;
        for (k, w) in words.iter().enumerate() {
            if k % 7 == 3 {
                assert_eq!(t.get(row), Some(&b""[..]));
                row += 1;
            }
            assert_eq!(t.get(row), Some(w.as_bytes()), "text {k}");
            let want = (w.len() <= 8).then(|| {
                let key = w
                    .bytes()
                    .enumerate()
                    .fold(0u64, |k, (i, b)| k | u64::from(b) << (8 * i));
                (key, w.len() as u32)
            });
            assert_eq!(t.key(row), want, "text {k}");
            row += 1;
        }
        assert_eq!(
            t.valid.nulls,
            (0..words.len()).filter(|k| k % 7 == 3).count()
        );
        assert_eq!(
            t.valid
                .run(0, row)
                .map(|v| v.iter().filter(|v| !**v).count()),
            Some(t.valid.nulls)
        );
    }

    #[test]
    fn validity_is_kept_from_the_first_null_on() {
        let mut v = Values::<i64>::with_capacity(4);
        for k in 0..5 {
            v.append_value(k);
        }
        assert!(v.valid.flags.is_empty());
        assert_eq!(v.valid.run(0, 5), None);
        v.append_null();
        v.append_value(7);
        v.append_null();
        assert_eq!(v.values, [0, 1, 2, 3, 4, 0, 7, 0]);
        assert_eq!(
            v.valid.run(0, 8),
            Some(&[true, true, true, true, true, false, true, false][..])
        );
        assert_eq!(v.valid.run(5, 7), Some(&[false, true][..]));
        assert!(v.valid.is_valid(4) && !v.valid.is_valid(5) && v.valid.is_valid(6));
        v.clear();
        v.append_value(1);
        assert_eq!(v.valid.run(0, 1), None);
        assert!(v.valid.is_valid(0));
    }

    /// Fills `c` with rows of every kind of field (a null in each
    /// column, a long and a short text, a refused value).
    fn fill(c: &mut RowColumns, rows: usize) {
        for k in 0..rows {
            let t = ["Ah2d", "a text longer than the room kept after it", ""][k % 3];
            c.push(0, Typed::Int(k as i64));
            c.push(
                1,
                if k % 4 == 1 {
                    Typed::Null
                } else {
                    Typed::Scaled(k as i64, 2)
                },
            );
            c.push(
                2,
                if t.is_empty() {
                    Typed::Null
                } else {
                    Typed::Text(t)
                },
            );
            c.push(
                3,
                if k == 5 {
                    Typed::Text("x")
                } else {
                    Typed::Int(-(k as i64))
                },
            );
        }
    }

    /// What a chunk's columns read as, to compare two of them.
    fn contents(c: &RowColumns) -> Vec<String> {
        let rows = c.rows();
        let mut out = vec![format!(
            "{rows} rows, refused {:?}",
            c.refused.as_ref().map(|r| (r.row, r.column))
        )];
        for col in &c.columns {
            let valid = col.valid_run(0, rows).map(<[bool]>::to_vec);
            let values = match col {
                Column::Int(v) => format!("{:?}", v.values),
                Column::Float(v) => format!("{:?}", v.values),
                Column::Text(t) => format!("{:?}", (0..rows).map(|i| t.get(i)).collect::<Vec<_>>()),
                Column::Codes(c) => format!("{:?}", c.values.values),
                Column::Scaled(c) => format!("{:?}", c.values.values),
            };
            out.push(format!("{values} {valid:?}"));
        }
        out
    }

    #[test]
    fn cleared_columns_fill_as_new_ones() {
        let types = [
            ColumnType::Int64,
            ColumnType::Float64,
            ColumnType::Utf8,
            ColumnType::Int64,
        ];
        let mut used = RowColumns::new(&types, 4);
        fill(&mut used, 50);
        used.clear();
        assert_eq!(used.rows(), 0);
        fill(&mut used, 9);
        let mut fresh = RowColumns::new(&types, 4);
        fill(&mut fresh, 9);
        assert_eq!(contents(&used), contents(&fresh));
        assert!(fresh.refused.is_some());
        // Rows without nulls or refusals after a clear keep none.
        used.clear();
        for k in 0..3 {
            used.push(0, Typed::Int(k));
            used.push(1, Typed::Int(k));
            used.push(2, Typed::Text("Kd"));
            used.push(3, Typed::Int(k));
        }
        assert!(used.refused.is_none());
        assert!(used.columns.iter().all(|c| c.valid_run(0, 3).is_none()));
    }
}
