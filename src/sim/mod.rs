//! The simulation runner: plays any [`Game`] N times from one seed, in
//! parallel, and turns the games into a CSV stream, histograms and a summary.
//!
//! A game never sees threads, files or seeds: it is a pure function of its
//! index and the generator [`crate::rng::game_rng`] gives it. Everything else
//! (chunks, order, shards, resume, outputs, progress) lives here once.

pub mod checkpoint;
pub mod interrupt;
pub mod lock;
pub mod merge;
pub mod output;
pub mod parquet;
mod progress;
pub mod report;
mod row;
pub mod runner;
pub mod scratch;
pub mod seal;
pub mod sink;
pub mod stats;
pub mod verify;

use std::collections::BTreeMap;

pub use merge::{merge, MergeConfig};
pub use output::Summary;
pub use row::{Row, RowInt};
pub use runner::{run, OutputFormat, RunConfig, RunError, RunOutcome, Shard};
pub use seal::Sealed;

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

/// Why a game could not be played: one line naming the game (hand, seat,
/// what went wrong), shown as the run's error.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GameFailure(pub String);

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

    /// Plays game `index`, or says why it cannot: a player the user brought
    /// (a program, a Python function) broke its contract. The runner keeps
    /// every game before it (checkpointed when it can resume) and ends the
    /// run with [`crate::sim::RunError::GameFailed`]. Games whose players
    /// are all built in never fail: the default plays [`Game::play`].
    fn try_play(
        &self,
        index: u64,
        rng: &mut GameRng,
        scratch: &mut Self::Scratch,
    ) -> Result<Self::Record, GameFailure> {
        Ok(self.play(index, rng, scratch))
    }

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

/// Metric values of one game, filled by [`Game::observe`].
#[derive(Clone, Debug, Default)]
pub struct Observations {
    values: Vec<Option<f64>>,
    /// Further values of metrics observed more than once in one game
    /// ([`Observations::add`]).
    more: Vec<(usize, f64)>,
}

impl Observations {
    pub(crate) fn reset(&mut self, metrics: usize) {
        self.values.clear();
        self.values.resize(metrics, None);
        self.more.clear();
    }

    /// Observes metric `i` (index into [`Game::metrics`]) with value `v`.
    pub fn set(&mut self, i: usize, v: f64) {
        self.values[i] = Some(v);
    }

    /// Observes metric `i` once more in this game: a game made of several
    /// parts (hold'em's deal group of several hands) reports a value per
    /// part, and the metric counts parts, not games.
    pub fn add(&mut self, i: usize, v: f64) {
        match self.values[i] {
            None => self.values[i] = Some(v),
            Some(_) => self.more.push((i, v)),
        }
    }

    pub(crate) fn values(&self) -> &[Option<f64>] {
        &self.values
    }

    /// The values [`Observations::add`] observed beyond each metric's first.
    pub(crate) fn more(&self) -> &[(usize, f64)] {
        &self.more
    }
}
