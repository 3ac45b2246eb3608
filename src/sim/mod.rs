//! The simulation runner: plays any [`Game`] N times from one seed, in
//! parallel, and turns the games into a CSV stream, histograms and a summary.
//!
//! A game never sees threads, files or seeds: it is a pure function of its
//! index and the generator [`crate::rng::game_rng`] gives it. Everything else
//! (chunks, order, shards, resume, outputs, progress) lives here once.

pub mod merge;
pub mod output;
pub mod runner;
pub mod stats;

use std::collections::BTreeMap;

pub use merge::{merge, MergeConfig};
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
    side: &'a mut csv::Writer<Vec<u8>>,
    error: &'a mut Option<csv::Error>,
    files: &'a mut Vec<(String, Vec<u8>)>,
    /// Whether the run writes the side CSV / files at all.
    side_wanted: bool,
    files_wanted: bool,
    index: u64,
}

impl<'a> Extras<'a> {
    pub(crate) fn new(
        side: &'a mut csv::Writer<Vec<u8>>,
        error: &'a mut Option<csv::Error>,
        files: &'a mut Vec<(String, Vec<u8>)>,
        wanted: (bool, bool),
        index: u64,
    ) -> Extras<'a> {
        Extras {
            side,
            error,
            files,
            side_wanted: wanted.0,
            files_wanted: wanted.1,
            index,
        }
    }

    /// Whether side rows are written by this run (skip building them if not).
    pub fn side_wanted(&self) -> bool {
        self.side_wanted
    }

    /// Whether whole files are written by this run.
    pub fn files_wanted(&self) -> bool {
        self.files_wanted
    }

    /// Starts one side row; its `game` column is filled in. End it with
    /// [`Extras::end_row`].
    pub fn row(&mut self) -> Row<'_> {
        let mut row = Row::new(self.side, self.error);
        row.int(self.index);
        row
    }

    /// Ends the side row started by [`Extras::row`].
    pub fn end_row(&mut self) {
        if let Err(e) = self.side.write_record(None::<&[u8]>) {
            self.error.get_or_insert(e);
        }
    }

    /// A whole file, written (atomically) as `name` in the run's files
    /// directory. `name` must be a plain file name.
    pub fn file(&mut self, name: String, bytes: Vec<u8>) {
        if self.files_wanted {
            self.files.push((name, bytes));
        }
    }
}

/// The fields of one CSV row under construction, written straight into the
/// chunk's CSV buffer (no allocation per field).
pub struct Row<'a> {
    writer: &'a mut csv::Writer<Vec<u8>>,
    error: &'a mut Option<csv::Error>,
    fields: usize,
}

impl<'a> Row<'a> {
    pub(crate) fn new(
        writer: &'a mut csv::Writer<Vec<u8>>,
        error: &'a mut Option<csv::Error>,
    ) -> Row<'a> {
        Row {
            writer,
            error,
            fields: 0,
        }
    }

    /// Fields written so far (the runner checks it against the header).
    pub(crate) fn fields(&self) -> usize {
        self.fields
    }

    fn field(&mut self, bytes: &[u8]) {
        self.fields += 1;
        if let Err(e) = self.writer.write_field(bytes) {
            self.error.get_or_insert(e);
        }
    }

    /// An integer field.
    pub fn int(&mut self, v: impl itoa::Integer) {
        let mut buf = itoa::Buffer::new();
        let text = buf.format(v);
        self.field(text.as_bytes());
    }

    /// A real field with `decimals` digits after the point (fixed, so reruns
    /// are byte-identical).
    pub fn real(&mut self, v: f64, decimals: usize) {
        let text = format!("{v:.decimals$}");
        self.field(text.as_bytes());
    }

    /// A text field (quoted by the CSV writer when needed).
    pub fn text(&mut self, v: &str) {
        self.field(v.as_bytes());
    }

    /// An empty field (a value that does not apply to this game).
    pub fn empty(&mut self) {
        self.field(b"");
    }

    /// A boolean as `0`/`1`.
    pub fn flag(&mut self, v: bool) {
        self.field(if v { b"1" } else { b"0" });
    }
}

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
