//! Runs a game N times: rayon over chunks of games, rows written in game
//! order, exact statistics, checkpoints for `--resume`.
//!
//! The games are cut into chunks; each worker thread claims the next chunk
//! as soon as it finishes one, and a writer thread takes the played chunks
//! in game order (`runner/pipeline.rs`), writes their rows, records their
//! metrics and checkpoints (each checkpoint's sync on a thread of its own,
//! see `Writer::begin_checkpoint`). No worker starts a chunk more than
//! [`CHUNKS_AHEAD_PER_THREAD`] × threads chunks past the writer, so memory
//! is bounded by threads × chunk, not by the number of games.

use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::sim::seal::Sealed as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use thiserror::Error;

use super::checkpoint::{Checkpoint, FileMark};
use super::interrupt::{signal_name, Armed, Cancel};
use super::lock::{acquire_all, OutputLock};
use super::output::{
    recorded_path, unix_now, FileRecord, RunIdentity, ShardInfo, Summary, SUMMARY_FORMAT,
};
use super::parquet::{ColumnType, RowColumns};
use super::progress::Progress;
use super::report::{grouped, summary_table};
use super::sink::{
    checkpoint_path, partial_path, read_bounded, stage_all, write_whole, Destination, ResumeError,
    Staged, StreamSink,
};
use super::stats::{round_to_i64, Accumulator, Folded};
use super::{Game, GameFailure, Metric, MetricKind, Observations, Row};
use crate::rng::game_rng;

mod outputs;
mod parquet_out;
mod pipeline;
mod writer;
pub(crate) use outputs::check_distinct;
use outputs::{open_extra, open_stream, Outputs};
use parquet_out::ParquetOut;
use writer::Writer;

/// Games per chunk: the unit of parallel work (never a single game).
pub const CHUNK_GAMES: u64 = 1024;
/// How many chunks per worker thread may be played ahead of the writer:
/// room for the writer's slower moments (a Parquet row group, a checkpoint)
/// while memory stays bounded by threads × chunk.
const CHUNKS_AHEAD_PER_THREAD: u64 = 24;
/// Games between two looks at a stop request inside a chunk.
const STOP_EVERY: u64 = 64;

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

/// How the per-game rows are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// CSV (the default).
    #[default]
    Csv,
    /// Parquet ([`super::parquet`]): typed columns, zstd, the command in
    /// its metadata, row groups written as the rows come (to a regular
    /// file resumable at row-group boundaries, see `runner/parquet_out.rs`).
    Parquet,
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
    /// What `out` holds: CSV, or the same rows as Parquet.
    pub format: OutputFormat,
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
    /// The command-line arguments (after `cardsim`) that started the run,
    /// recorded in the summary for `cardsim verify --rerun`.
    pub command: Vec<String>,
    /// Stop cleanly on Ctrl-C or SIGTERM: keep every row written, save a
    /// checkpoint and fail with [`RunError::Interrupted`]. This installs
    /// process-wide signal handlers (see [`super::interrupt`]), so it is for
    /// the command-line tool; library callers keep their own handling.
    pub catch_signals: bool,
    /// A library caller's way to stop the run (Python's Ctrl-C): polled
    /// with the signals, between chunks; a cancelled run fails with
    /// [`RunError::Cancelled`] and leaves its partial outputs as they are.
    pub cancel: Option<Cancel>,
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
            format: OutputFormat::Csv,
            summary: None,
            hist: None,
            quiet: true,
            progress: false,
            resume: false,
            checkpoint_every: Duration::from_secs(1),
            side_out: None,
            files_dir: None,
            files_bundle: None,
            command: Vec::new(),
            catch_signals: false,
            cancel: None,
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
    /// An I/O failure while running (exit status 1): what failed, why, and
    /// what was left on disk.
    #[error("{what}: {cause}{left}")]
    Io {
        what: String,
        cause: io::Error,
        /// `; kept ...`, or empty.
        left: String,
    },
    /// stdout was closed by its reader (`| head`): not an error to report.
    #[error("output closed")]
    BrokenPipe,
    /// A game broke the runner's contract (a bug).
    #[error("internal error: {0}")]
    Internal(String),
    /// Stopped by a signal (Ctrl-C, SIGTERM): what was kept and how to
    /// resume. The process exits with 128 + `signal`.
    #[error("{message}")]
    Interrupted { signal: i32, message: String },
    /// A game could not be played (a player the user brought broke its
    /// contract, see [`Game::try_play`]): every game before it was written
    /// and, when the run can resume, checkpointed; the message names the
    /// game and says what was kept (exit status 2).
    #[error("{0}")]
    GameFailed(String),
    /// Stopped through [`RunConfig::cancel`]; nothing was cleaned up or
    /// checkpointed (the caller that cancelled owns the outputs).
    #[error("cancelled")]
    Cancelled,
}

impl RunError {
    pub fn is_bad_input(&self) -> bool {
        matches!(self, RunError::Input(_) | RunError::GameFailed(_))
    }

    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, RunError::BrokenPipe)
    }

    /// The exit status a signal calls for: 128 + the signal (130 for
    /// Ctrl-C, 143 for SIGTERM), as a shell reports a process it killed.
    pub fn signal_exit_status(&self) -> Option<u8> {
        match self {
            RunError::Interrupted { signal, .. } => u8::try_from(128 + signal).ok(),
            _ => None,
        }
    }

    /// Maps an I/O error to a failure saying what could not be done (a
    /// closed stdout pipe is not a failure).
    pub(crate) fn io(what: impl Into<String>) -> impl FnOnce(io::Error) -> RunError {
        let what = what.into();
        move |cause| {
            if cause.kind() == io::ErrorKind::BrokenPipe {
                RunError::BrokenPipe
            } else {
                RunError::Io {
                    what,
                    cause,
                    left: String::new(),
                }
            }
        }
    }

    /// Adds to an I/O failure what it left on disk.
    fn leaving(self, note: &str) -> RunError {
        match self {
            RunError::Io { what, cause, .. } => RunError::Io {
                what,
                cause,
                left: note.to_string(),
            },
            other => other,
        }
    }
}

/// The output of one chunk: its CSV bytes and its statistics, folded by
/// the worker that played it (the writer thread only merges them).
struct ChunkOut {
    games: u64,
    csv: Vec<u8>,
    /// For Parquet, the rows as typed columns instead of `csv`.
    columns: Option<RowColumns>,
    /// Side CSV rows and whole files (see [`super::Extras`]).
    side: Vec<u8>,
    side_rows: u64,
    files: Vec<(String, Vec<u8>)>,
    /// Per metric, the chunk's stored (fixed-point) values folded.
    stats: Vec<Folded>,
    /// The game that could not be played, which ends the chunk (and the
    /// run): the outputs above hold every game before it.
    failed: Option<super::GameFailure>,
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
    let side_columns = game.side_columns();
    if config.side_out.is_some() && side_columns.is_none() {
        return Err(RunError::Input("this game has no side CSV".into()));
    }
    let parquet = config.format == OutputFormat::Parquet;
    if parquet && config.out.is_none() {
        return Err(RunError::Input(
            "--format parquet needs --out PATH for the Parquet file".into(),
        ));
    }
    let outputs = Outputs::resolve(config)?;
    let armed = config
        .catch_signals
        .then(Armed::arm)
        .transpose()
        .map_err(|e| RunError::Internal(e.to_string()))?;

    let threads = worker_threads(config.threads)?;
    let pool = start_pool(threads)?;

    let checkpoint = match &outputs.csv {
        Some(Destination::Atomic(path)) => Some(checkpoint_path(path)),
        _ => None,
    };
    let start = match &checkpoint {
        Some(ckpt) if config.resume && ckpt.exists() => {
            Start::resumed(ckpt, &identity, shard_info, &metrics, &range, parquet)?
        }
        Some(ckpt) if config.resume => {
            if !config.quiet {
                let partial = outputs.csv.as_ref().and_then(Destination::writing_path);
                let why = match partial.filter(|p| p.exists()) {
                    Some(p) => format!("{} has no checkpoint ({})", p.display(), ckpt.display()),
                    None => format!("there is no checkpoint {}", ckpt.display()),
                };
                let _ = writeln!(io::stderr(), "nothing to resume: {why}; starting over");
            }
            Start::fresh(&metrics, range.start)
        }
        _ => Start::fresh(&metrics, range.start),
    };
    // Parquet is written row group by row group as the rows come; to a
    // regular file with a row-group index, so that it can resume.
    let (csv, parquet_out) = match outputs.csv.as_ref().filter(|_| parquet) {
        Some(dest) => {
            let metadata = ParquetOut::metadata(&identity, config);
            let out = ParquetOut::open(dest, &start, game.name(), &columns, metadata)?;
            (StreamSink::discard(), Some(out))
        }
        None => {
            let csv = open_stream(
                outputs.csv.as_ref(),
                start.csv.as_ref(),
                "--out",
                Some(&header_bytes(&columns)?),
            )?;
            (csv, None)
        }
    };
    let side_header = side_columns.as_deref().map(header_bytes).transpose()?;
    let side = open_extra(
        outputs.side.as_ref(),
        &start,
        start.side.as_ref(),
        "--pots",
        side_header.as_deref(),
    )?;
    let bundle = open_extra(
        outputs.bundle.as_ref(),
        &start,
        start.bundle.as_ref(),
        "--phh",
        None,
    )?;
    let resumed_at = start.resumed.then_some(start.next);
    if let (Some(at), false) = (resumed_at, config.quiet) {
        let _ = writeln!(io::stderr(), "{}", resuming_line(at, &range, config));
    }
    let mut writer = Writer {
        csv,
        parquet: parquet_out,
        side,
        bundle,
        files_dir: config.files_dir.clone(),
        files_written: Some(Vec::new()),
        accs: start.accs,
        checkpoint,
        saved_at: resumed_at,
        pending: None,
        identity: identity.clone(),
        shard: shard_info,
        every: config.checkpoint_every,
        last_checkpoint: Instant::now(),
        elapsed_before: start.elapsed_s,
        started: Instant::now(),
        started_unix_s: start.started_unix_s,
        progress: Progress::new(
            config,
            range.start,
            range.end - range.start,
            start.next - range.start,
        ),
    };

    let kinds: Vec<MetricKind> = metrics.iter().map(|m| m.kind).collect();
    let wanted = super::ExtrasWanted {
        side: writer.side.is_some(),
        files: config.files_dir.is_some() || writer.bundle.is_some(),
        bundled: writer.bundle.is_some(),
    };
    // Without --out the rows are not even formatted.
    let want_csv = config.out.is_some();
    // Parquet rows go to typed columns of the file's schema.
    let column_types = parquet.then(|| super::parquet::schema(game.name(), &columns).1);
    let ahead = CHUNKS_AHEAD_PER_THREAD * threads as u64;
    // Typed rows the writer is done with, for later chunks to fill: their
    // buffers are kept rather than freed and allocated again per chunk.
    // At most the window's worth are ever alive.
    let spare_columns = std::sync::Mutex::new(Vec::<RowColumns>::new());
    let spare_cap = ahead as usize + threads;
    let recycle = |mut columns: RowColumns| {
        columns.clear();
        if let Ok(mut spare) = spare_columns.lock() {
            if spare.len() < spare_cap {
                spare.push(columns);
            }
        }
    };
    let reuse = || spare_columns.lock().ok().and_then(|mut spare| spare.pop());
    // Chunk k holds games first + k × CHUNK_GAMES onwards.
    let first = start.next;
    let chunks = (range.end - first).div_ceil(CHUNK_GAMES);
    let window = pipeline::Window::new(chunks, ahead);
    let (tx, rx) = channel::<(u64, Result<ChunkOut, RunError>)>();
    let writer = std::thread::scope(|scope| {
        let stop = || {
            armed.as_ref().and_then(Armed::received).is_some()
                || config.cancel.as_ref().is_some_and(Cancel::is_cancelled)
        };
        let window = &window;
        let handle = scope.spawn(move || {
            let chunks = pipeline::InOrder::new(rx, window);
            match writer.consume(chunks, stop, recycle) {
                Ok(()) => Ok(writer),
                Err(e) => Err(writer.give_up(e)),
            }
        });
        // A failed game ends the run: no chunk after its own is started.
        let failed = AtomicBool::new(false);
        pool.scope(|workers| {
            for _ in 0..threads {
                let tx = tx.clone();
                let (failed, reuse, kinds, n_columns) = (&failed, &reuse, &kinds, columns.len());
                let column_types = column_types.as_deref();
                workers.spawn(move |_| {
                    while !stop() && !failed.load(Ordering::Relaxed) {
                        let Some(k) = window.claim(stop) else { break };
                        let a = first + k * CHUNK_GAMES;
                        let games = a..(a + CHUNK_GAMES).min(range.end);
                        let rows = want_csv.then_some(RowsWanted {
                            columns: n_columns,
                            types: column_types,
                            spare: reuse,
                        });
                        let out = play_chunk(game, config.seed, games, kinds, rows, wanted, stop);
                        if matches!(&out, Ok(c) if c.failed.is_some()) {
                            failed.store(true, Ordering::Relaxed);
                        }
                        if tx.send((k, out)).is_err() {
                            break; // the writer stopped (an error it will report)
                        }
                    }
                });
            }
        });
        drop(tx);
        handle
            .join()
            .unwrap_or_else(|_| Err(RunError::Internal("the writer thread panicked".into())))
    })
    .inspect_err(|_| outputs.remove_created_dirs())?;
    if let Some(signal) = armed.as_ref().and_then(Armed::received) {
        let error = writer.interrupted(signal, config, &range);
        outputs.remove_created_dirs();
        return Err(error);
    }
    if config.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
        // No thread of the run may outlive it: the caller may remove the
        // outputs' directory next.
        let mut writer = writer;
        writer.settle_checkpoint()?;
        return Err(RunError::Cancelled);
    }
    writer.finish(config, &metrics, range, threads)
}

/// The most worker threads a command starts on a machine with `cores`
/// cores: more than 16 a core only cost memory (each thread a stack, and a
/// memory cap can make their start fail), never speed.
pub fn max_threads(cores: usize) -> usize {
    (cores.saturating_mul(16)).clamp(16, 1024)
}

/// The worker threads for `-j/--threads` (`None`: one a core), refused
/// when more than [`max_threads`].
pub fn worker_threads(requested: Option<usize>) -> Result<usize, RunError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max = max_threads(cores);
    match requested {
        None => Ok(cores),
        Some(t) if t > max => Err(RunError::Input(format!(
            "--threads {t} is more than this machine can use: at most {max} ({cores} cores)"
        ))),
        Some(t) => Ok(t),
    }
}

/// Starts a pool of `threads` workers, or says why it could not (a memory
/// cap or a process limit), in one line.
pub fn start_pool(threads: usize) -> Result<rayon::ThreadPool, RunError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| RunError::Io {
            what: format!("cannot start {threads} worker threads (try fewer with -j)"),
            cause: io::Error::other(e.to_string()),
            left: String::new(),
        })
}

/// `resuming at game 311,296 of 3,000,000`, and the shard's games for a
/// shard.
fn resuming_line(at: u64, range: &Range<u64>, config: &RunConfig) -> String {
    let mut line = format!(
        "resuming at game {} of {}",
        grouped(at),
        grouped(config.games)
    );
    if let Some(sh) = config.shard {
        line.push_str(&format!(
            " (shard {}/{}: games {}..{})",
            sh.index,
            sh.count,
            grouped(range.start),
            grouped(range.end)
        ));
    }
    line
}

/// The command that continues an interrupted run: the same arguments, with
/// `--resume` added when missing, quoted for a POSIX shell.
fn resume_command(args: &[String]) -> String {
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    if !args.contains(&"--resume") {
        args.push("--resume");
    }
    let quoted = shlex::try_join(args.iter().copied()).unwrap_or_else(|_| args.join(" "));
    format!("cardsim {quoted}")
}

/// Where a run starts: from nothing, or from a checkpoint.
struct Start {
    next: u64,
    resumed: bool,
    csv: Option<FileMark>,
    side: Option<FileMark>,
    bundle: Option<FileMark>,
    /// The Parquet output's row-group index.
    row_groups: Option<FileMark>,
    elapsed_s: f64,
    started_unix_s: f64,
    accs: Vec<Accumulator>,
}

/// The most written files a run remembers for removal if it fails before
/// its first checkpoint (a few MB of paths).
const MAX_TRACKED_FILES: usize = 100_000;

/// Checkpoints larger than this are not read (a real one is a few MB).
const MAX_CHECKPOINT_BYTES: u64 = 256 << 20;

impl Start {
    fn fresh(metrics: &[Metric], first: u64) -> Start {
        Start {
            next: first,
            resumed: false,
            csv: None,
            side: None,
            bundle: None,
            row_groups: None,
            elapsed_s: 0.0,
            started_unix_s: unix_now(),
            accs: metrics.iter().map(|m| Accumulator::new(m.kind)).collect(),
        }
    }

    fn resumed(
        path: &Path,
        identity: &RunIdentity,
        shard: Option<ShardInfo>,
        metrics: &[Metric],
        range: &Range<u64>,
        parquet: bool,
    ) -> Result<Start, RunError> {
        let refuse = |why: String| {
            RunError::Input(format!(
                "cannot resume: the checkpoint {} {why}; rerun without --resume to start over",
                path.display()
            ))
        };
        let bytes = read_bounded(path, MAX_CHECKPOINT_BYTES).map_err(refuse)?;
        let ckpt =
            Checkpoint::unseal(&bytes).map_err(|why| refuse(format!("is refused: {why}")))?;
        if &ckpt.identity != identity || ckpt.shard != shard {
            return Err(refuse(
                "belongs to another run (game, seed, games, options, shard or version differ)"
                    .into(),
            ));
        }
        match (parquet, ckpt.row_groups.is_some()) {
            (true, false) => {
                return Err(refuse(
                    "has no row-group index: it was made by a run that wrote CSV (or by an \
                     older cardsim, which staged Parquet as CSV)"
                        .into(),
                ))
            }
            (false, true) => {
                return Err(refuse("was made by a run that wrote Parquet".into()));
            }
            _ => {}
        }
        let in_range = range.start <= ckpt.next_game && ckpt.next_game <= range.end;
        if ckpt.state.len() != metrics.len()
            || !in_range
            || ckpt.csv.rows != ckpt.next_game - range.start
        {
            return Err(refuse("does not match this run".into()));
        }
        let accs = metrics
            .iter()
            .zip(&ckpt.state)
            .map(|(m, st)| {
                if st.kind != m.kind {
                    return Err(format!("metric {} has another kind", st.name));
                }
                Accumulator::from_state(m.kind, st)
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| refuse(format!("has bad statistics: {e}")))?;
        Ok(Start {
            next: ckpt.next_game,
            resumed: true,
            csv: Some(ckpt.csv),
            side: ckpt.side,
            bundle: ckpt.bundle,
            row_groups: ckpt.row_groups,
            elapsed_s: ckpt.elapsed_s,
            started_unix_s: ckpt.started_unix_s,
            accs,
        })
    }
}

fn header_bytes(columns: &[String]) -> Result<Vec<u8>, RunError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_field("game")
        .and_then(|()| w.write_record(columns))
        .map_err(|e| RunError::Internal(format!("CSV header: {e}")))?;
    w.into_inner()
        .map_err(|e| RunError::Internal(format!("CSV header: {e}")))
}

/// The per-game rows a chunk writes: `columns` fields after `game`, as CSV
/// text, or for Parquet as typed columns of `types` (`game`'s first).
#[derive(Clone, Copy)]
struct RowsWanted<'a> {
    columns: usize,
    types: Option<&'a [ColumnType]>,
    /// Emptied typed rows to fill again, when the writer has any spare.
    spare: &'a (dyn Fn() -> Option<RowColumns> + Sync),
}

/// Plays the games of one chunk with one scratch buffer.
fn play_chunk<G: Game>(
    game: &G,
    seed: u64,
    games: Range<u64>,
    kinds: &[MetricKind],
    rows: Option<RowsWanted<'_>>,
    wanted: super::ExtrasWanted,
    stop: impl Fn() -> bool,
) -> Result<ChunkOut, RunError> {
    let mut scratch = game.new_scratch();
    let mut side = Vec::new();
    let mut side_rows = 0;
    let mut files = Vec::new();
    let n_games = (games.end - games.start) as usize;
    let mut csv = Vec::new();
    let mut typed = rows.and_then(|r| {
        let types = r.types?;
        Some((r.spare)().unwrap_or_else(|| RowColumns::new(types, n_games)))
    });
    let mut values: Vec<Vec<i64>> = (0..kinds.len())
        .map(|_| Vec::with_capacity(n_games))
        .collect();
    let mut obs = Observations::default();
    let scales: Vec<f64> = kinds.iter().map(|k| f64::from(k.scale())).collect();
    let mut failed: Option<GameFailure> = None;
    let mut played = 0;
    for index in games.clone() {
        // A chunk of slow games (solve) takes seconds: a stopped run drops
        // it (the writer, which saw the stop first, never reads this).
        if index % STOP_EVERY == 0 && stop() {
            return Err(RunError::Cancelled);
        }
        let mut rng = game_rng(seed, index);
        let record = match game.try_play(index, &mut rng, &mut scratch) {
            Ok(record) => record,
            Err(failure) => {
                failed = Some(failure);
                break;
            }
        };
        played += 1;
        if let Some(RowsWanted { columns, .. }) = rows {
            // For Parquet, the fields typed, into their columns: no number
            // formatted to be parsed again, nothing for the writer to decode.
            let mut row = match typed.as_mut() {
                Some(typed) => Row::columns(&mut csv, typed),
                None => Row::new(&mut csv),
            };
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
            if index == games.start {
                // Room for the chunk's rows at the first row's length and
                // a quarter more, so the buffer rarely grows (and copies).
                csv.reserve(csv.len() * n_games * 5 / 4);
            }
        }
        if wanted.any() {
            let mut extras =
                super::Extras::new(&mut side, &mut side_rows, &mut files, wanted, index);
            game.write_extras(index, &record, &mut extras);
        }
        obs.reset(kinds.len());
        game.observe(&record, &mut obs);
        for (m, v) in obs.values().iter().enumerate() {
            if let Some(v) = v {
                values[m].push(round_to_i64(v * scales[m]));
            }
        }
        for &(m, v) in obs.more() {
            values[m].push(round_to_i64(v * scales[m]));
        }
        game.recycle(record, &mut scratch);
    }
    let mut table = Vec::new();
    let stats = kinds
        .iter()
        .zip(&values)
        .map(|(&kind, vals)| Folded::fold(kind, vals, &mut table))
        .collect();
    Ok(ChunkOut {
        games: played,
        csv,
        columns: typed,
        side,
        side_rows,
        files,
        stats,
        failed,
    })
}

/// Writes the histogram files and the sealed summary of a finished run (or
/// of a merge) under temporary names, all or none; [`commit_reports`]
/// renames them into place, histograms first, the summary last.
pub(crate) fn stage_reports(
    summary: &mut Summary,
    metrics: &[Metric],
    accs: &[Accumulator],
    summary_path: Option<&Path>,
    hist_dir: Option<&Path>,
) -> Result<Vec<(PathBuf, Staged)>, RunError> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    if let Some(dir) = hist_dir {
        std::fs::create_dir_all(dir).map_err(RunError::io(format!(
            "cannot create the histogram directory {}",
            dir.display()
        )))?;
        for (m, acc) in metrics.iter().zip(accs) {
            for (suffix, bytes) in acc.hist_files() {
                files.push((dir.join(format!("{}.{suffix}", m.name)), bytes));
            }
        }
    }
    if let Some(path) = summary_path {
        let json = summary
            .seal()
            .map_err(|e| RunError::Internal(format!("summary: {e}")))?;
        files.push((path.to_path_buf(), json));
    }
    stage_all(files)
        .map_err(|(path, e)| RunError::io(format!("cannot write {}", path.display()))(e))
}

/// Renames staged reports into place, in order.
pub(crate) fn commit_reports(staged: Vec<(PathBuf, Staged)>) -> Result<(), RunError> {
    for (path, s) in staged {
        s.commit()
            .map_err(RunError::io(format!("cannot write {}", path.display())))?;
    }
    Ok(())
}
