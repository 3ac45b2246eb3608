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
pub struct Row<'a> {
    buf: &'a mut Vec<u8>,
    fields: usize,
}

impl<'a> Row<'a> {
    pub fn new(buf: &'a mut Vec<u8>) -> Row<'a> {
        Row { buf, fields: 0 }
    }

    /// Fields written so far (the runner checks it against the header).
    pub(crate) fn fields(&self) -> usize {
        self.fields
    }

    /// Ends the record (a newline).
    pub fn end(self) {
        self.buf.push(b'\n');
    }

    /// Starts a field: the separator before every field but the first.
    #[inline]
    fn sep(&mut self) {
        if self.fields > 0 {
            self.buf.push(b',');
        }
        self.fields += 1;
    }

    fn field(&mut self, bytes: &[u8]) {
        self.sep();
        if bytes
            .iter()
            .any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
        {
            self.buf.push(b'"');
            for &b in bytes {
                if b == b'"' {
                    self.buf.push(b'"');
                }
                self.buf.push(b);
            }
            self.buf.push(b'"');
        } else {
            self.buf.extend_from_slice(bytes);
        }
    }

    /// An integer field.
    #[inline]
    pub fn int(&mut self, v: impl itoa::Integer) {
        self.sep();
        let mut buf = itoa::Buffer::new();
        // Byte by byte: a field is a few digits, and a copy of unknown
        // length is a call to `memcpy`.
        for &b in buf.format(v).as_bytes() {
            self.buf.push(b);
        }
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
    pub fn fixed(&mut self, v: f64, decimals: u32) {
        debug_assert!(decimals <= 9);
        let x = v * POW10[decimals as usize] as f64;
        // Round half away from zero, as f64::round, without the libm call
        // f64::round compiles to on baseline x86-64 (a hot path).
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
    pub fn fixed_int(&mut self, v: i64, decimals: u32) {
        debug_assert!(decimals <= 9);
        // The integer, then the point and its zeros: no digit of the
        // fraction to work out.
        self.int(v);
        if decimals > 0 {
            self.buf.push(b'.');
            for _ in 0..decimals {
                self.buf.push(b'0');
            }
        }
    }

    /// Writes `scaled / 10^decimals` with exactly `decimals` digits after
    /// the point (a `-` only when `scaled` is negative), digit by digit
    /// from the right into a stack buffer, then copied once.
    fn scaled(&mut self, scaled: i64, decimals: u32) {
        self.sep();
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
        self.buf.extend_from_slice(&tmp[pos..]);
    }

    /// A text field known to need no quoting (no comma, quote, CR or LF:
    /// names from a fixed list), written as is without scanning it.
    pub fn word(&mut self, v: &str) {
        debug_assert!(!v.bytes().any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r')));
        self.sep();
        self.buf.extend_from_slice(v.as_bytes());
    }

    /// A text field (quoted when needed).
    pub fn text(&mut self, v: &str) {
        self.field(v.as_bytes());
    }

    /// An empty field (a value that does not apply to this game).
    pub fn empty(&mut self) {
        self.sep();
    }

    /// A boolean as `0`/`1`.
    pub fn flag(&mut self, v: bool) {
        self.sep();
        self.buf.push(if v { b'1' } else { b'0' });
    }
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
        for w in ["preflop", "flop", "straight_flush", ""] {
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
}
