//! Runs a game N times: rayon over chunks of games, rows written in game
//! order, exact statistics, checkpoints for `--resume`.
//!
//! The main thread cuts the games into batches of `threads × 8` chunks and
//! lets rayon play a batch; a writer thread takes finished batches in order,
//! writes their CSV bytes, records their metrics and checkpoints. At most two
//! batches wait for the writer, so memory is bounded by threads × chunk, not
//! by the number of games.

use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use thiserror::Error;

use super::output::{
    checkpoint_path, csv_reference, partial_path, write_atomic, Checkpoint, CsvSink, RunIdentity,
    ShardInfo, Summary,
};
use super::progress::Progress;
use super::report::summary_table;
use super::stats::Accumulator;
use super::{Game, Metric, MetricKind, Observations, Row};
use crate::rng::game_rng;

/// Games per chunk: the unit of parallel work (never a single game).
pub const CHUNK_GAMES: u64 = 1024;
/// Chunks per thread in one batch.
const CHUNKS_PER_THREAD: u64 = 8;

/// Shard `index` of `count` (from 0): games `[index*N/count, (index+1)*N/count)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The games of this shard in a run of `games` games.
    pub fn range(self, games: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(k) * u128::from(games) / u128::from(self.count)) as u64;
        at(self.index)..at(self.index + 1)
    }
}

/// Everything a run needs besides the game.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Games in the whole run (all shards).
    pub games: u64,
    pub seed: u64,
    /// Worker threads; `None` for all cores.
    pub threads: Option<usize>,
    pub shard: Option<Shard>,
    /// CSV output; `-` is stdout; `None` writes no CSV.
    pub out: Option<PathBuf>,
    pub summary: Option<PathBuf>,
    pub hist: Option<PathBuf>,
    pub quiet: bool,
    pub progress: bool,
    pub resume: bool,
    /// How often a file run saves a resume checkpoint.
    pub checkpoint_every: Duration,
    /// The game's side CSV (a file; only for games that have one).
    pub side_out: Option<PathBuf>,
    /// Directory for the whole files a game writes (hand histories).
    pub files_dir: Option<PathBuf>,
    /// Or one file that holds them all, one after another in game order
    /// (the game writes each so that they can be told apart: `.phhs`).
    pub files_bundle: Option<PathBuf>,
}

impl RunConfig {
    /// A configuration with no outputs, for library use and tests.
    pub fn new(games: u64, seed: u64) -> RunConfig {
        RunConfig {
            games,
            seed,
            threads: None,
            shard: None,
            out: None,
            summary: None,
            hist: None,
            quiet: true,
            progress: false,
            resume: false,
            checkpoint_every: Duration::from_secs(1),
            side_out: None,
            files_dir: None,
            files_bundle: None,
        }
    }
}

/// What a finished run produced.
#[derive(Debug)]
pub struct RunOutcome {
    pub summary: Summary,
}

/// Why a run failed.
#[derive(Debug, Error)]
pub enum RunError {
    /// Bad options or inputs (exit status 2).
    #[error("{0}")]
    Input(String),
    /// An I/O failure while running (exit status 1).
    #[error("{what}")]
    Io {
        what: String,
        #[source]
        source: io::Error,
    },
    /// stdout was closed by its reader (`| head`): not an error to report.
    #[error("output closed")]
    BrokenPipe,
    /// A game broke the runner's contract (a bug).
    #[error("internal error: {0}")]
    Internal(String),
}

impl RunError {
    pub fn is_bad_input(&self) -> bool {
        matches!(self, RunError::Input(_))
    }

    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, RunError::BrokenPipe)
    }

    fn io(what: impl Into<String>) -> impl FnOnce(io::Error) -> RunError {
        let what = what.into();
        move |source| {
            if source.kind() == io::ErrorKind::BrokenPipe {
                RunError::BrokenPipe
            } else {
                RunError::Io { what, source }
            }
        }
    }
}

/// The output of one chunk: its CSV bytes and its metric values.
struct ChunkOut {
    games: u64,
    csv: Vec<u8>,
    /// Side CSV rows and whole files (see [`super::Extras`]).
    side: Vec<u8>,
    files: Vec<(String, Vec<u8>)>,
    /// Stored (fixed-point) values per metric.
    values: Vec<Vec<i64>>,
}

/// Plays `game` over the configured games and writes the configured outputs.
pub fn run<G: Game>(game: &G, config: &RunConfig) -> Result<RunOutcome, RunError> {
    if config.games == 0 {
        return Err(RunError::Input(
            "the number of games must be at least 1".into(),
        ));
    }
    let range = match config.shard {
        Some(sh) if sh.count == 0 || sh.index >= sh.count => {
            return Err(RunError::Input(format!(
                "bad shard {}/{}: expected K/N with 0 <= K < N",
                sh.index, sh.count
            )))
        }
        Some(sh) => sh.range(config.games),
        None => 0..config.games,
    };
    let metrics = game.metrics();
    let columns = game.columns();
    let identity = RunIdentity {
        game: game.name().to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        seed: config.seed,
        games: config.games,
        options: game.options(),
    };
    let shard_info = config.shard.map(|s| ShardInfo {
        index: s.index,
        count: s.count,
    });
    check_output_paths(config)?;

    let threads = config.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| RunError::Internal(format!("cannot start {threads} threads: {e}")))?;

    let mut start = Start::fresh(&metrics, range.start);
    let file_out = config.out.as_deref().filter(|p| *p != Path::new("-"));
    let sink = match (&config.out, file_out) {
        (None, _) => CsvSink::Discard,
        (Some(_), None) => {
            if config.resume {
                return Err(RunError::Input(
                    "--resume needs --out PATH (a file): stdout cannot be resumed".into(),
                ));
            }
            CsvSink::stdout()
        }
        (Some(_), Some(path)) => {
            let ckpt = checkpoint_path(path);
            if config.resume && ckpt.exists() {
                start = Start::resumed(&ckpt, &identity, shard_info, &metrics, &range)?;
                CsvSink::reopen(path, start.csv_bytes).map_err(RunError::io(format!(
                    "cannot resume {}",
                    partial_path(path).display()
                )))?
            } else {
                CsvSink::create(path).map_err(|e| {
                    RunError::Input(format!("cannot write --out '{}': {e}", path.display()))
                })?
            }
        }
    };
    let side_columns = game.side_columns();
    let side_sink = open_side_sink(config, side_columns.as_deref(), &start)?;
    if let Some(dir) = &config.files_dir {
        std::fs::create_dir_all(dir).map_err(|e| {
            RunError::Input(format!("cannot create directory '{}': {e}", dir.display()))
        })?;
    }
    let bundle_sink = open_bundle_sink(config, &start)?;
    let mut writer = Writer {
        sink,
        side_sink,
        bundle_sink,
        files_dir: config.files_dir.clone(),
        accs: start.accs,
        checkpoint: file_out.map(checkpoint_path),
        identity: identity.clone(),
        shard: shard_info,
        every: config.checkpoint_every,
        last_checkpoint: Instant::now(),
        elapsed_before: start.elapsed_s,
        started: Instant::now(),
        progress: Progress::new(
            config,
            range.start,
            range.end - range.start,
            start.next - range.start,
        ),
    };
    if start.next == range.start && start.csv_bytes == 0 {
        writer
            .sink
            .write(&header_bytes(&columns)?)
            .map_err(RunError::io("cannot write the CSV header"))?;
    }

    let kinds: Vec<MetricKind> = metrics.iter().map(|m| m.kind).collect();
    let wanted = super::ExtrasWanted {
        side: writer.side_sink.is_some(),
        files: config.files_dir.is_some() || writer.bundle_sink.is_some(),
        bundled: writer.bundle_sink.is_some(),
    };
    // Without --out the rows are not even formatted.
    let want_csv = config.out.is_some();
    let batch_games = CHUNK_GAMES * CHUNKS_PER_THREAD * threads as u64;
    let (tx, rx) = sync_channel::<Vec<Result<ChunkOut, RunError>>>(2);
    let writer = std::thread::scope(|scope| {
        let handle = scope.spawn(move || writer.consume(rx).map(|()| writer));
        let mut next = start.next;
        while next < range.end {
            let end = (next + batch_games).min(range.end);
            let chunks: Vec<Range<u64>> = (next..end)
                .step_by(CHUNK_GAMES as usize)
                .map(|a| a..(a + CHUNK_GAMES).min(end))
                .collect();
            let outs: Vec<Result<ChunkOut, RunError>> = pool.install(|| {
                chunks
                    .into_par_iter()
                    .map(|r| {
                        let csv_columns = want_csv.then_some(columns.len());
                        play_chunk(game, config.seed, r, &kinds, csv_columns, wanted)
                    })
                    .collect()
            });
            if tx.send(outs).is_err() {
                break; // the writer stopped (an error it will report)
            }
            next = end;
        }
        drop(tx);
        handle
            .join()
            .unwrap_or_else(|_| Err(RunError::Internal("the writer thread panicked".into())))
    })?;
    writer.finish(config, &metrics, range, threads)
}

/// Where a run starts: from nothing, or from a checkpoint.
struct Start {
    next: u64,
    csv_bytes: u64,
    side_bytes: u64,
    bundle_bytes: u64,
    elapsed_s: f64,
    accs: Vec<Accumulator>,
}

impl Start {
    fn fresh(metrics: &[Metric], first: u64) -> Start {
        Start {
            next: first,
            csv_bytes: 0,
            side_bytes: 0,
            bundle_bytes: 0,
            elapsed_s: 0.0,
            accs: metrics.iter().map(|m| Accumulator::new(m.kind)).collect(),
        }
    }

    fn resumed(
        path: &Path,
        identity: &RunIdentity,
        shard: Option<ShardInfo>,
        metrics: &[Metric],
        range: &Range<u64>,
    ) -> Result<Start, RunError> {
        let text = std::fs::read_to_string(path)
            .map_err(RunError::io(format!("cannot read {}", path.display())))?;
        let ckpt: Checkpoint = serde_json::from_str(&text).map_err(|e| {
            RunError::Input(format!(
                "cannot resume: {} is not a cardsim checkpoint ({e})",
                path.display()
            ))
        })?;
        if &ckpt.identity != identity || ckpt.shard != shard {
            return Err(RunError::Input(format!(
                "cannot resume: {} belongs to another run (game, seed, games, options, shard \
                 or version differ); rerun without --resume to start over",
                path.display()
            )));
        }
        if ckpt.state.len() != metrics.len() || !range.contains(&ckpt.next_game) {
            return Err(RunError::Input(format!(
                "cannot resume: {} does not match this run",
                path.display()
            )));
        }
        let accs = metrics
            .iter()
            .zip(&ckpt.state)
            .map(|(m, st)| Accumulator::from_state(m.kind, st))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| RunError::Input(format!("cannot resume: {e}")))?;
        Ok(Start {
            next: ckpt.next_game,
            csv_bytes: ckpt.csv_bytes,
            side_bytes: ckpt.side_bytes,
            bundle_bytes: ckpt.bundle_bytes,
            elapsed_s: ckpt.elapsed_s,
            accs,
        })
    }
}

/// Fails early (exit 2) when an output cannot be written, rather than after
/// a long run.
fn check_output_paths(config: &RunConfig) -> Result<(), RunError> {
    if let Some(path) = &config.summary {
        let probe = partial_path(path);
        std::fs::write(&probe, b"")
            .and_then(|()| std::fs::remove_file(&probe))
            .map_err(|e| {
                RunError::Input(format!("cannot write --summary '{}': {e}", path.display()))
            })?;
    }
    if let Some(dir) = &config.hist {
        std::fs::create_dir_all(dir).map_err(|e| {
            RunError::Input(format!("cannot create --hist '{}': {e}", dir.display()))
        })?;
    }
    Ok(())
}

/// Opens the side CSV when the run asks for it and the game has one.
fn open_side_sink(
    config: &RunConfig,
    columns: Option<&[String]>,
    start: &Start,
) -> Result<Option<CsvSink>, RunError> {
    let Some(path) = &config.side_out else {
        return Ok(None);
    };
    let Some(columns) = columns else {
        return Err(RunError::Input("this game has no side CSV".into()));
    };
    let header = header_bytes(columns)?;
    let resume = (start.csv_bytes > 0, start.side_bytes);
    open_extra_sink(config, path, "the side CSV", Some(&header), resume).map(Some)
}

/// Opens the one file that bundles a game's whole files, when asked.
fn open_bundle_sink(config: &RunConfig, start: &Start) -> Result<Option<CsvSink>, RunError> {
    let Some(path) = &config.files_bundle else {
        return Ok(None);
    };
    let resume = (start.csv_bytes > 0, start.bundle_bytes);
    open_extra_sink(config, path, "the bundled files", None, resume).map(Some)
}

/// Opens an output beside the main CSV: a file of its own, fresh (with its
/// header, if any), or, when `resuming` from a checkpoint, cut back to the
/// `resume_bytes` the checkpoint recorded for it.
fn open_extra_sink(
    config: &RunConfig,
    path: &Path,
    what: &str,
    header: Option<&[u8]>,
    (resuming, resume_bytes): (bool, u64),
) -> Result<CsvSink, RunError> {
    if path == Path::new("-") || config.out.as_deref() == Some(path) {
        return Err(RunError::Input(format!(
            "'{}' cannot hold {what}: it must be a file of its own (not '-' or --out)",
            path.display()
        )));
    }
    if resuming {
        if header.is_some() && resume_bytes == 0 {
            return Err(RunError::Input(format!(
                "cannot resume with '{}': the interrupted run wrote no {what}",
                path.display()
            )));
        }
        return CsvSink::reopen(path, resume_bytes).map_err(RunError::io(format!(
            "cannot resume {}",
            partial_path(path).display()
        )));
    }
    let mut sink = CsvSink::create(path)
        .map_err(|e| RunError::Input(format!("cannot write '{}': {e}", path.display())))?;
    if let Some(h) = header {
        sink.write(h)
            .map_err(RunError::io(format!("cannot write the header of {what}")))?;
    }
    Ok(sink)
}

fn header_bytes(columns: &[String]) -> Result<Vec<u8>, RunError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_field("game")
        .and_then(|()| w.write_record(columns))
        .map_err(|e| RunError::Internal(format!("CSV header: {e}")))?;
    w.into_inner()
        .map_err(|e| RunError::Internal(format!("CSV header: {e}")))
}

/// Plays the games of one chunk with one scratch buffer.
fn play_chunk<G: Game>(
    game: &G,
    seed: u64,
    games: Range<u64>,
    kinds: &[MetricKind],
    csv_columns: Option<usize>,
    wanted: super::ExtrasWanted,
) -> Result<ChunkOut, RunError> {
    let mut scratch = game.new_scratch();
    let mut side = Vec::new();
    let mut files = Vec::new();
    let n_games = (games.end - games.start) as usize;
    let mut csv = Vec::with_capacity(if csv_columns.is_some() {
        64 * n_games
    } else {
        0
    });
    let mut values: Vec<Vec<i64>> = (0..kinds.len())
        .map(|_| Vec::with_capacity(n_games))
        .collect();
    let mut obs = Observations::default();
    let scales: Vec<f64> = kinds.iter().map(|k| f64::from(k.scale())).collect();
    for index in games.clone() {
        let mut rng = game_rng(seed, index);
        let record = game.play(index, &mut rng, &mut scratch);
        if let Some(columns) = csv_columns {
            let mut row = Row::new(&mut csv);
            row.int(index);
            game.write_row(&record, &mut row);
            let fields = row.fields();
            if fields != columns + 1 {
                return Err(RunError::Internal(format!(
                    "game {index} wrote {} fields for {columns} columns",
                    fields - 1
                )));
            }
            row.end();
        }
        if wanted.any() {
            let mut extras = super::Extras::new(&mut side, &mut files, wanted, index);
            game.write_extras(index, &record, &mut extras);
        }
        obs.reset(kinds.len());
        game.observe(&record, &mut obs);
        for (m, v) in obs.values().iter().enumerate() {
            if let Some(v) = v {
                values[m].push((v * scales[m]).round() as i64);
            }
        }
    }
    Ok(ChunkOut {
        games: games.end - games.start,
        csv,
        side,
        files,
        values,
    })
}

/// The writer thread's state: the sink, the statistics, checkpoints, progress.
struct Writer {
    sink: CsvSink,
    side_sink: Option<CsvSink>,
    bundle_sink: Option<CsvSink>,
    files_dir: Option<PathBuf>,
    accs: Vec<Accumulator>,
    checkpoint: Option<PathBuf>,
    identity: RunIdentity,
    shard: Option<ShardInfo>,
    every: Duration,
    last_checkpoint: Instant,
    elapsed_before: f64,
    started: Instant,
    progress: Progress,
}

impl Writer {
    /// Takes batches in game order until the producer is done.
    fn consume(&mut self, rx: Receiver<Vec<Result<ChunkOut, RunError>>>) -> Result<(), RunError> {
        for batch in rx {
            let mut games = 0;
            for chunk in batch {
                let chunk = chunk?;
                self.sink
                    .write(&chunk.csv)
                    .map_err(RunError::io("cannot write the CSV"))?;
                if let Some(side) = &mut self.side_sink {
                    side.write(&chunk.side)
                        .map_err(RunError::io("cannot write the side CSV"))?;
                }
                if let Some(bundle) = &mut self.bundle_sink {
                    for (_, bytes) in &chunk.files {
                        bundle
                            .write(bytes)
                            .map_err(RunError::io("cannot write the bundled files"))?;
                    }
                } else if let Some(dir) = &self.files_dir {
                    for (name, bytes) in &chunk.files {
                        let path = dir.join(name);
                        write_atomic(&path, bytes)
                            .map_err(RunError::io(format!("cannot write {}", path.display())))?;
                    }
                }
                for (acc, vals) in self.accs.iter_mut().zip(&chunk.values) {
                    vals.iter().for_each(|&v| acc.record(v));
                }
                games += chunk.games;
            }
            self.progress.advance(games);
            if self.checkpoint.is_some() && self.last_checkpoint.elapsed() >= self.every {
                self.save_checkpoint()?;
            }
        }
        Ok(())
    }

    fn elapsed(&self) -> f64 {
        self.elapsed_before + self.started.elapsed().as_secs_f64()
    }

    /// Flushes the CSV, then atomically replaces the checkpoint: a kill at
    /// any instant leaves a checkpoint whose rows are all on disk.
    fn save_checkpoint(&mut self) -> Result<(), RunError> {
        let Some(path) = self.checkpoint.clone() else {
            return Ok(());
        };
        self.sink
            .flush()
            .map_err(RunError::io("cannot write the CSV"))?;
        if let Some(side) = &mut self.side_sink {
            side.flush()
                .map_err(RunError::io("cannot write the side CSV"))?;
        }
        if let Some(bundle) = &mut self.bundle_sink {
            bundle
                .flush()
                .map_err(RunError::io("cannot write the bundled files"))?;
        }
        let ckpt = Checkpoint {
            identity: self.identity.clone(),
            shard: self.shard,
            next_game: self.progress.first + self.progress.done,
            csv_bytes: self.sink.bytes(),
            side_bytes: self.side_sink.as_ref().map_or(0, CsvSink::bytes),
            bundle_bytes: self.bundle_sink.as_ref().map_or(0, CsvSink::bytes),
            elapsed_s: self.elapsed(),
            state: self.state(),
        };
        let json = serde_json::to_vec(&ckpt)
            .map_err(|e| RunError::Internal(format!("checkpoint: {e}")))?;
        write_atomic(&path, &json).map_err(RunError::io(format!(
            "cannot write the checkpoint {}",
            path.display()
        )))?;
        self.last_checkpoint = Instant::now();
        Ok(())
    }

    fn state(&self) -> Vec<super::stats::AccumulatorState> {
        // Names are filled in by the caller that knows the metrics; the
        // checkpoint only needs the order.
        self.accs.iter().map(|a| a.to_state("")).collect()
    }

    /// Writes histograms and the summary, then renames the CSV into place.
    fn finish(
        self,
        config: &RunConfig,
        metrics: &[Metric],
        range: Range<u64>,
        threads: usize,
    ) -> Result<RunOutcome, RunError> {
        self.progress.finish();
        let wall = self.elapsed();
        let played = range.end - range.start;
        // Each output file, as the summary records it (none on stdout).
        let recorded = |path: Option<&Path>| match (path, &config.summary) {
            (Some(p), Some(sum)) if p != Path::new("-") => Some(csv_reference(p, sum)),
            _ => None,
        };
        let summary = Summary {
            identity: self.identity.clone(),
            shard: self.shard,
            first_game: range.start,
            end_game: range.end,
            threads,
            wall_time_s: wall,
            games_per_s: if wall > 0.0 {
                played as f64 / wall
            } else {
                0.0
            },
            csv: recorded(config.out.as_deref()),
            side_csv: recorded(config.side_out.as_deref()),
            bundle: recorded(config.files_bundle.as_deref()),
            metrics: metrics
                .iter()
                .zip(&self.accs)
                .map(|(m, a)| a.summarize(&m.name))
                .collect(),
            state: metrics
                .iter()
                .zip(&self.accs)
                .map(|(m, a)| a.to_state(&m.name))
                .collect(),
        };
        write_outputs(
            &summary,
            metrics,
            &self.accs,
            config.summary.as_deref(),
            config.hist.as_deref(),
        )?;
        if let Some(side) = self.side_sink {
            side.finish()
                .map_err(RunError::io("cannot finish the side CSV"))?;
        }
        if let Some(bundle) = self.bundle_sink {
            bundle
                .finish()
                .map_err(RunError::io("cannot finish the bundled files"))?;
        }
        self.sink
            .finish()
            .map_err(RunError::io("cannot finish the CSV"))?;
        if let Some(ckpt) = &self.checkpoint {
            let _ = std::fs::remove_file(ckpt);
        }
        if !config.quiet {
            let _ = io::stderr().write_all(summary_table(&summary).as_bytes());
        }
        Ok(RunOutcome { summary })
    }
}

/// Writes the histogram files and the summary JSON of a finished run (or of
/// a merge).
pub fn write_outputs(
    summary: &Summary,
    metrics: &[Metric],
    accs: &[Accumulator],
    summary_path: Option<&Path>,
    hist_dir: Option<&Path>,
) -> Result<(), RunError> {
    if let Some(dir) = hist_dir {
        std::fs::create_dir_all(dir).map_err(RunError::io(format!(
            "cannot create the histogram directory {}",
            dir.display()
        )))?;
        for (m, acc) in metrics.iter().zip(accs) {
            if let (Some(text), Some(bin)) = (acc.hgrm(), acc.hist_v2()) {
                let base = dir.join(&m.name);
                let hgrm = base.with_extension("hgrm");
                let hdr = base.with_extension("hdr");
                write_atomic(&hgrm, text.as_bytes())
                    .and_then(|()| write_atomic(&hdr, &bin))
                    .map_err(RunError::io(format!(
                        "cannot write histograms to {}",
                        dir.display()
                    )))?;
            }
        }
    }
    if let Some(path) = summary_path {
        let mut json = serde_json::to_vec_pretty(summary)
            .map_err(|e| RunError::Internal(format!("summary: {e}")))?;
        json.push(b'\n');
        write_atomic(path, &json).map_err(RunError::io(format!(
            "cannot write the summary {}",
            path.display()
        )))?;
    }
    Ok(())
}
