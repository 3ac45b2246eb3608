//! Runs a game N times: rayon over chunks of games, rows written in game
//! order, exact statistics, checkpoints for `--resume`.
//!
//! The main thread cuts the games into batches of `threads × 8` chunks and
//! lets rayon play a batch; a writer thread takes finished batches in order,
//! writes their CSV bytes, records their metrics and checkpoints (each
//! checkpoint's sync on a thread of its own, see
//! `Writer::begin_checkpoint`). At most two
//! batches wait for the writer, so memory is bounded by threads × chunk, not
//! by the number of games.

use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use thiserror::Error;

use super::checkpoint::{Checkpoint, FileMark};
use super::interrupt::{signal_name, Armed, Cancel};
use super::lock::{acquire_all, OutputLock};
use super::output::{
    recorded_path, unix_now, FileRecord, RunIdentity, ShardInfo, Summary, SUMMARY_FORMAT,
};
use super::progress::Progress;
use super::report::{grouped, summary_table};
use super::sink::{
    checkpoint_path, partial_path, read_bounded, stage_all, write_whole, Destination, ResumeError,
    Staged, StreamSink,
};
use super::stats::{round_to_i64, Accumulator, Folded};
use super::{Game, Metric, MetricKind, Observations, Row};
use crate::rng::game_rng;

/// Games per chunk: the unit of parallel work (never a single game).
pub const CHUNK_GAMES: u64 = 1024;
/// Chunks per thread in one batch.
const CHUNKS_PER_THREAD: u64 = 8;
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
    /// The command-line arguments (after `cardsim`) that started the run,
    /// recorded in the summary for `cardsim verify --rerun`.
    pub command: Vec<String>,
    /// Stop cleanly on Ctrl-C or SIGTERM: keep every row written, save a
    /// checkpoint and fail with [`RunError::Interrupted`]. This installs
    /// process-wide signal handlers (see [`super::interrupt`]), so it is for
    /// the command-line tool; library callers keep their own handling.
    pub catch_signals: bool,
    /// A library caller's way to stop the run (Python's Ctrl-C): polled
    /// with the signals, between batches; a cancelled run fails with
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
    /// Stopped through [`RunConfig::cancel`]; nothing was cleaned up or
    /// checkpointed (the caller that cancelled owns the outputs).
    #[error("cancelled")]
    Cancelled,
}

impl RunError {
    pub fn is_bad_input(&self) -> bool {
        matches!(self, RunError::Input(_))
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
    /// Side CSV rows and whole files (see [`super::Extras`]).
    side: Vec<u8>,
    side_rows: u64,
    files: Vec<(String, Vec<u8>)>,
    /// Per metric, the chunk's stored (fixed-point) values folded.
    stats: Vec<Folded>,
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
            Start::resumed(ckpt, &identity, shard_info, &metrics, &range)?
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
    let csv = open_stream(
        outputs.csv.as_ref(),
        start.csv.as_ref(),
        "--out",
        Some(&header_bytes(&columns)?),
    )?;
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
    let batch_games = CHUNK_GAMES * CHUNKS_PER_THREAD * threads as u64;
    let (tx, rx) = sync_channel::<Vec<Result<ChunkOut, RunError>>>(2);
    let writer = std::thread::scope(|scope| {
        let stop = || {
            armed.as_ref().and_then(Armed::received).is_some()
                || config.cancel.as_ref().is_some_and(Cancel::is_cancelled)
        };
        let handle = scope.spawn(move || match writer.consume(rx, stop) {
            Ok(()) => Ok(writer),
            Err(e) => Err(writer.give_up(e)),
        });
        let mut next = start.next;
        while next < range.end && !stop() {
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
                        play_chunk(game, config.seed, r, &kinds, csv_columns, wanted, stop)
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

/// The run's outputs, resolved (symlinks followed, special files told
/// apart), checked and locked before any game is played.
struct Outputs {
    csv: Option<Destination>,
    side: Option<Destination>,
    bundle: Option<Destination>,
    /// Held until the run ends: no other run writes these outputs.
    _locks: Vec<OutputLock>,
    /// Folders this run created (`--hist`, the game's files), removed
    /// again if the run fails before anything in them can resume.
    created_dirs: Vec<PathBuf>,
}

impl Outputs {
    fn resolve(config: &RunConfig) -> Result<Outputs, RunError> {
        let resolve =
            |flag: &str, path: &Option<PathBuf>| -> Result<Option<Destination>, RunError> {
                path.as_deref()
                    .map(|p| {
                        Destination::resolve(p).map_err(|e| {
                            RunError::Input(format!("cannot write {flag} '{}': {e}", p.display()))
                        })
                    })
                    .transpose()
            };
        let csv = resolve("--out", &config.out)?;
        let side = resolve("--pots", &config.side_out)?;
        let bundle = resolve("--phh", &config.files_bundle)?;
        let summary = resolve("--summary", &config.summary)?;
        check_distinct(&[
            ("--out", csv.as_ref()),
            ("--pots", side.as_ref()),
            ("--phh", bundle.as_ref()),
            ("--summary", summary.as_ref()),
        ])?;
        for (flag, dest) in [("--pots", &side), ("--phh", &bundle)] {
            if dest == &Some(Destination::Stdout) {
                return Err(RunError::Input(format!(
                    "{flag} cannot be '-': it must be a file of its own"
                )));
            }
        }
        if config.resume && !matches!(csv, Some(Destination::Atomic(_))) {
            let what = match (&csv, &config.out) {
                (Some(Destination::Direct(_)), Some(p)) => {
                    format!("'{}' is a device or FIFO", p.display())
                }
                _ => "stdout cannot be resumed".to_string(),
            };
            return Err(RunError::Input(format!(
                "--resume needs --out to be a regular file: {what}"
            )));
        }
        // Every file and folder this run will write, owned by it alone from
        // here on: a second run on any of them is refused before it writes.
        let owned: Vec<PathBuf> = [&csv, &side, &bundle, &summary]
            .into_iter()
            .filter_map(|d| match d {
                Some(Destination::Atomic(p)) => Some(p.clone()),
                _ => None,
            })
            .collect();
        let mut locks = acquire_all(owned.iter().map(PathBuf::as_path))
            .map_err(|e| RunError::Input(e.to_string()))?;
        if let Some(Destination::Atomic(path)) = &summary {
            // Fail now (exit 2) rather than after a long run.
            let probe = partial_path(path);
            std::fs::write(&probe, b"")
                .and_then(|()| std::fs::remove_file(&probe))
                .map_err(|e| {
                    RunError::Input(format!(
                        "cannot write --summary '{}': {e}",
                        config.summary.as_deref().unwrap_or(path).display()
                    ))
                })?;
        }
        let mut outputs = Outputs {
            csv,
            side,
            bundle,
            _locks: Vec::new(),
            created_dirs: Vec::new(),
        };
        for (flag, dir) in [("--hist", &config.hist), ("--phh", &config.files_dir)] {
            let Some(dir) = dir else { continue };
            let created = create_folders(dir).map_err(|e| {
                outputs.remove_created_dirs();
                RunError::Input(format!("cannot create {flag} '{}': {e}", dir.display()))
            })?;
            outputs.created_dirs.extend(created);
            let lock = OutputLock::acquire(dir).map_err(|e| {
                outputs.remove_created_dirs();
                RunError::Input(e.to_string())
            })?;
            locks.push(lock);
        }
        outputs._locks = locks;
        Ok(outputs)
    }

    /// After a failure that left nothing to resume: removes the folders this
    /// run created, if they are still empty.
    fn remove_created_dirs(&self) {
        for dir in self.created_dirs.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Creates a folder and any missing parents, and returns the ones it
/// created, outermost first.
fn create_folders(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let missing: Vec<PathBuf> = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .take_while(|a| !a.exists())
        .map(Path::to_path_buf)
        .collect();
    std::fs::create_dir_all(dir)?;
    Ok(missing.into_iter().rev().collect())
}

/// Refuses two outputs on one path (stdout, or one file), which would
/// interleave or overwrite each other; a device such as `/dev/null` may
/// take several.
pub(crate) fn check_distinct(outputs: &[(&str, Option<&Destination>)]) -> Result<(), RunError> {
    for (i, (a, da)) in outputs.iter().enumerate() {
        for (b, db) in &outputs[i + 1..] {
            let clash = match (da, db) {
                (Some(Destination::Stdout), Some(Destination::Stdout)) => true,
                (Some(Destination::Atomic(x)), Some(Destination::Atomic(y))) => x == y,
                _ => false,
            };
            if clash {
                let on = match da {
                    Some(Destination::Atomic(p)) => format!("'{}'", p.display()),
                    _ => "stdout ('-')".into(),
                };
                return Err(RunError::Input(format!(
                    "{a} and {b} both write to {on}: give each output its own path"
                )));
            }
        }
    }
    Ok(())
}

/// Opens a streamed output: fresh (with its header, if any), or, when the
/// run resumes, its partial file verified against the checkpoint's mark.
fn open_stream(
    dest: Option<&Destination>,
    resume_at: Option<&FileMark>,
    flag: &str,
    header: Option<&[u8]>,
) -> Result<StreamSink, RunError> {
    let Some(dest) = dest else {
        return Ok(StreamSink::discard());
    };
    if let (Some(mark), Destination::Atomic(path)) = (resume_at, dest) {
        return StreamSink::reopen(path, &mark.into()).map_err(|e| match e {
            ResumeError::Io(e) => RunError::Input(format!(
                "cannot resume {flag}: cannot open {}: {e}",
                partial_path(path).display()
            )),
            ResumeError::Mismatch(why) => RunError::Input(format!(
                "cannot resume {flag}: {why}; rerun without --resume to start over"
            )),
        });
    }
    let mut sink = StreamSink::create(dest.clone())
        .map_err(|e| RunError::Input(format!("cannot write {flag} '{}': {e}", dest.describe())))?;
    if let Some(h) = header {
        sink.write(h, 0)
            .map_err(RunError::io(format!("cannot write {}", dest.describe())))?;
    }
    Ok(sink)
}

/// Opens an output beside the main CSV, when asked for; a resumed run must
/// have written it before.
fn open_extra(
    dest: Option<&Destination>,
    start: &Start,
    mark: Option<&FileMark>,
    flag: &str,
    header: Option<&[u8]>,
) -> Result<Option<StreamSink>, RunError> {
    let Some(dest) = dest else {
        return Ok(None);
    };
    if start.resumed && mark.is_none() {
        return Err(RunError::Input(format!(
            "cannot resume with {flag}: the interrupted run did not write it; rerun without \
             --resume, or without {flag}"
        )));
    }
    open_stream(Some(dest), mark, flag, header).map(Some)
}

/// Where a run starts: from nothing, or from a checkpoint.
struct Start {
    next: u64,
    resumed: bool,
    csv: Option<FileMark>,
    side: Option<FileMark>,
    bundle: Option<FileMark>,
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

/// Plays the games of one chunk with one scratch buffer.
fn play_chunk<G: Game>(
    game: &G,
    seed: u64,
    games: Range<u64>,
    kinds: &[MetricKind],
    csv_columns: Option<usize>,
    wanted: super::ExtrasWanted,
    stop: impl Fn() -> bool,
) -> Result<ChunkOut, RunError> {
    let mut scratch = game.new_scratch();
    let mut side = Vec::new();
    let mut side_rows = 0;
    let mut files = Vec::new();
    let n_games = (games.end - games.start) as usize;
    let mut csv = Vec::new();
    let mut values: Vec<Vec<i64>> = (0..kinds.len())
        .map(|_| Vec::with_capacity(n_games))
        .collect();
    let mut obs = Observations::default();
    let scales: Vec<f64> = kinds.iter().map(|k| f64::from(k.scale())).collect();
    for index in games.clone() {
        // A chunk of slow games (solve) takes seconds: a stopped run drops
        // it (the writer, which saw the stop first, never reads this).
        if index % STOP_EVERY == 0 && stop() {
            return Err(RunError::Cancelled);
        }
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
        game.recycle(record, &mut scratch);
    }
    let mut table = Vec::new();
    let stats = kinds
        .iter()
        .zip(&values)
        .map(|(&kind, vals)| Folded::fold(kind, vals, &mut table))
        .collect();
    Ok(ChunkOut {
        games: games.end - games.start,
        csv,
        side,
        side_rows,
        files,
        stats,
    })
}

/// One of the writer's streamed outputs, for error messages.
#[derive(Clone, Copy)]
enum Which {
    Csv,
    Side,
    Bundle,
}

/// A checkpoint whose outputs are flushed and whose content is sealed:
/// left to do, the syncs and the write.
struct CheckpointJob {
    /// Each output to sync, with its name for an error.
    files: Vec<(String, std::fs::File)>,
    path: PathBuf,
    sealed: Vec<u8>,
    next_game: u64,
}

impl CheckpointJob {
    /// Syncs the outputs, then atomically replaces the checkpoint file.
    fn run(self) -> Result<(), RunError> {
        for (name, file) in &self.files {
            file.sync_all()
                .map_err(RunError::io(format!("cannot write {name}")))?;
        }
        write_whole(&self.path, self.sealed).map_err(RunError::io(format!(
            "cannot write the checkpoint {}",
            self.path.display()
        )))
    }
}

/// A checkpoint running on its own thread ([`Writer::begin_checkpoint`]).
struct PendingCheckpoint {
    next_game: u64,
    done: std::thread::JoinHandle<Result<(), RunError>>,
}

impl PendingCheckpoint {
    fn is_done(&self) -> bool {
        self.done.is_finished()
    }
}

/// The writer thread's state: the sinks, the statistics, checkpoints,
/// progress.
struct Writer {
    csv: StreamSink,
    side: Option<StreamSink>,
    bundle: Option<StreamSink>,
    files_dir: Option<PathBuf>,
    /// The game's whole files written into `files_dir` that no checkpoint
    /// covers yet: removed if the run ends with nothing to resume. `None`
    /// once there were too many to track (then a failure names the folder).
    files_written: Option<Vec<PathBuf>>,
    accs: Vec<Accumulator>,
    /// Where checkpoints go (only when the CSV is a regular file).
    checkpoint: Option<PathBuf>,
    /// The game the newest checkpoint on disk resumes at.
    saved_at: Option<u64>,
    /// A checkpoint being made durable on its own thread.
    pending: Option<PendingCheckpoint>,
    identity: RunIdentity,
    shard: Option<ShardInfo>,
    every: Duration,
    last_checkpoint: Instant,
    elapsed_before: f64,
    started: Instant,
    started_unix_s: f64,
    progress: Progress,
}

impl Writer {
    /// Takes batches in game order until the producer is done, or until
    /// `stop` says a signal asked the run to end (then the rows written so
    /// far are what an interrupted run keeps).
    fn consume(
        &mut self,
        rx: Receiver<Vec<Result<ChunkOut, RunError>>>,
        stop: impl Fn() -> bool,
    ) -> Result<(), RunError> {
        let consumed = self.consume_batches(rx, stop);
        if consumed.is_err() {
            // Not leaving a checkpoint half-way (its thread would die with
            // the process); the first error is the one reported.
            let _ = self.settle_checkpoint();
        }
        consumed
    }

    fn consume_batches(
        &mut self,
        rx: Receiver<Vec<Result<ChunkOut, RunError>>>,
        stop: impl Fn() -> bool,
    ) -> Result<(), RunError> {
        for batch in rx {
            if stop() {
                break;
            }
            let mut games = 0;
            for chunk in batch {
                let chunk = chunk?;
                let r = self.csv.write(&chunk.csv, chunk.games);
                self.check(r, Which::Csv)?;
                if let Some(side) = &mut self.side {
                    let r = side.write(&chunk.side, chunk.side_rows);
                    self.check(r, Which::Side)?;
                }
                if let Some(bundle) = &mut self.bundle {
                    let r = chunk.files.iter().try_for_each(|(_, b)| bundle.write(b, 1));
                    self.check(r, Which::Bundle)?;
                } else if let Some(dir) = &self.files_dir {
                    for (name, bytes) in chunk.files {
                        let path = dir.join(name);
                        if let Err(e) = write_whole(&path, bytes) {
                            self.settle_checkpoint()?;
                            let what = format!("cannot write {}", path.display());
                            return Err(RunError::io(what)(e).leaving(&self.left()));
                        }
                        if let (Some(written), None) = (&mut self.files_written, self.saved_at) {
                            written.push(path);
                            if written.len() > MAX_TRACKED_FILES {
                                self.files_written = None;
                            }
                        }
                    }
                }
                for (acc, folded) in self.accs.iter_mut().zip(&chunk.stats) {
                    acc.absorb(folded);
                }
                games += chunk.games;
            }
            self.progress.advance(games);
            if self
                .pending
                .as_ref()
                .is_some_and(PendingCheckpoint::is_done)
            {
                self.settle_checkpoint()?;
            }
            let due = self.last_checkpoint.elapsed() >= self.every;
            if self.checkpoint.is_some() && due && self.pending.is_none() {
                self.begin_checkpoint()?;
            }
        }
        Ok(())
    }

    /// Turns a failed write into an error naming the output and saying what
    /// was left on disk.
    fn check<T>(&mut self, result: io::Result<T>, which: Which) -> Result<T, RunError> {
        if result.is_err() {
            // What is left on disk depends on the checkpoint in flight.
            self.settle_checkpoint()?;
        }
        result.map_err(|e| {
            let sink = match which {
                Which::Csv => Some(&self.csv),
                Which::Side => self.side.as_ref(),
                Which::Bundle => self.bundle.as_ref(),
            };
            let name = sink
                .and_then(StreamSink::destination)
                .map_or("the output".into(), Destination::describe);
            RunError::io(format!("cannot write {name}"))(e).leaving(&self.left())
        })
    }

    /// The partial files of a regular-file run.
    fn partials(&self) -> Vec<String> {
        [Some(&self.csv), self.side.as_ref(), self.bundle.as_ref()]
            .into_iter()
            .flatten()
            .filter_map(|s| s.destination())
            .filter(|d| d.is_regular())
            .filter_map(Destination::writing_path)
            .map(|p| p.display().to_string())
            .collect()
    }

    /// What a failure while playing leaves on disk, for its message: the
    /// partial files and their checkpoint when one was saved, else nothing
    /// ([`Writer::give_up`] removes what could not resume).
    fn left(&self) -> String {
        match (&self.checkpoint, self.saved_at) {
            (Some(ckpt), Some(game)) => format!(
                "; kept {} and its checkpoint {} (complete up to game {game}): run the same \
                 command with --resume to continue",
                self.partials().join(", "),
                ckpt.display()
            ),
            _ => {
                let mut removed = self.partials();
                if self.files_dir.is_some() && self.files_written.is_some() {
                    removed.push("the files written into the --phh folder".into());
                }
                let mut note = String::new();
                if !removed.is_empty() {
                    note = format!(
                        "; removed {} (no checkpoint to resume from yet)",
                        removed.join(", ")
                    );
                }
                if let (Some(dir), None) = (&self.files_dir, &self.files_written) {
                    note.push_str(&format!(
                        "; the files already written stay in {}",
                        dir.display()
                    ));
                }
                note
            }
        }
    }

    /// Ends a failed run: when no checkpoint was saved, nothing can resume,
    /// so its partial files and the game's files it wrote are removed (the
    /// error's message, built by [`Writer::left`], says so).
    fn give_up(mut self, error: RunError) -> RunError {
        let _ = self.settle_checkpoint();
        if self.saved_at.is_none() {
            self.discard_unresumable();
        }
        error
    }

    /// Removes what a run that cannot resume wrote: the partial files and
    /// the game's files in `files_dir`.
    fn discard_unresumable(&mut self) {
        let csv = std::mem::replace(&mut self.csv, StreamSink::discard());
        csv.abandon();
        self.side.take().into_iter().for_each(StreamSink::abandon);
        self.bundle.take().into_iter().for_each(StreamSink::abandon);
        for path in self.files_written.iter().flatten() {
            let _ = std::fs::remove_file(path);
        }
    }

    /// Ends a run stopped by `signal`: every output synced and, for a run
    /// that can resume, a checkpoint of the rows written; the error says
    /// what was kept and the command that continues.
    fn interrupted(mut self, signal: i32, config: &RunConfig, range: &Range<u64>) -> RunError {
        self.progress.finish();
        let at = self.progress.first + self.progress.done;
        let head = format!(
            "interrupted by {} at game {} of {}",
            signal_name(signal),
            grouped(at),
            grouped(range.end)
        );
        let kept = if self.checkpoint.is_some() {
            if let Err(e) = self.save_checkpoint() {
                return e;
            }
            let ckpt = self.checkpoint.as_ref().map(|p| p.display().to_string());
            format!(
                ": kept {} and its checkpoint {}; to continue, run: {}",
                self.partials().join(", "),
                ckpt.unwrap_or_default(),
                resume_command(&config.command)
            )
        } else {
            let r = self.csv.flush();
            if let Err(e) = self.check(r, Which::Csv) {
                return e;
            }
            let kept = match self.csv.destination() {
                Some(d) if !d.is_regular() => format!(
                    ": the rows written to {} end before game {}; nothing can resume \
                     (a run resumes only with --out FILE)",
                    d.describe(),
                    grouped(at)
                ),
                _ => ": nothing was kept (a run resumes only with --out FILE)".to_string(),
            };
            self.discard_unresumable();
            match (&self.files_dir, &self.files_written) {
                (Some(dir), None) => format!(
                    "{kept}; the files already written stay in {}",
                    dir.display()
                ),
                (Some(_), Some(w)) if !w.is_empty() => {
                    format!("{kept}; removed the files written into the --phh folder")
                }
                _ => kept,
            }
        };
        RunError::Interrupted {
            signal,
            message: format!("{head}{kept}"),
        }
    }

    fn elapsed(&self) -> f64 {
        self.elapsed_before + self.started.elapsed().as_secs_f64()
    }

    /// Syncs every output, then atomically replaces the checkpoint: a kill
    /// (or a power cut) at any instant leaves a checkpoint whose rows are
    /// all on disk. Waits for a checkpoint in flight first, so that an older
    /// one never lands over this one.
    fn save_checkpoint(&mut self) -> Result<(), RunError> {
        self.settle_checkpoint()?;
        let Some(job) = self.checkpoint_job()? else {
            return Ok(());
        };
        let next_game = job.next_game;
        if let Err(e) = job.run() {
            return Err(e.leaving(&self.left()));
        }
        self.saved_at = Some(next_game);
        self.last_checkpoint = Instant::now();
        Ok(())
    }

    /// Starts a checkpoint on its own thread: the rows are flushed to the
    /// files here, and the syncs (which on a large file can take a good
    /// part of a second) and the checkpoint's write happen there, while
    /// this thread goes on writing rows. Syncing a file makes durable every
    /// byte written to it so far, the checkpoint's rows and perhaps more,
    /// and the checkpoint is written only after: the guarantee of
    /// [`Writer::save_checkpoint`] holds. One at a time: the caller starts
    /// one only when none is in flight.
    fn begin_checkpoint(&mut self) -> Result<(), RunError> {
        debug_assert!(self.pending.is_none());
        let Some(job) = self.checkpoint_job()? else {
            return Ok(());
        };
        let next_game = job.next_game;
        let done = std::thread::Builder::new()
            .name("checkpoint".into())
            .spawn(move || job.run())
            .map_err(|e| RunError::Internal(format!("cannot start a checkpoint thread: {e}")))?;
        self.pending = Some(PendingCheckpoint { next_game, done });
        self.last_checkpoint = Instant::now();
        Ok(())
    }

    /// Waits for the checkpoint in flight, if any: once it is on disk the
    /// run can resume from it.
    fn settle_checkpoint(&mut self) -> Result<(), RunError> {
        let Some(pending) = self.pending.take() else {
            return Ok(());
        };
        match pending.done.join() {
            Ok(Ok(())) => {
                self.saved_at = Some(pending.next_game);
                Ok(())
            }
            Ok(Err(e)) => Err(e.leaving(&self.left())),
            Err(_) => Err(RunError::Internal("the checkpoint thread panicked".into())),
        }
    }

    /// Flushes every output and seals a checkpoint of where they stand:
    /// what is left to do is the syncs and the write ([`CheckpointJob::run`]).
    fn checkpoint_job(&mut self) -> Result<Option<CheckpointJob>, RunError> {
        let Some(path) = self.checkpoint.clone() else {
            return Ok(None);
        };
        let mut files = Vec::new();
        for which in [Which::Csv, Which::Side, Which::Bundle] {
            let sink = match which {
                Which::Csv => Some(&mut self.csv),
                Which::Side => self.side.as_mut(),
                Which::Bundle => self.bundle.as_mut(),
            };
            let Some(sink) = sink else { continue };
            let name = sink
                .destination()
                .map_or("the output".into(), Destination::describe);
            let r = sink.to_sync();
            if let Some(file) = self.check(r, which)? {
                files.push((name, file));
            }
        }
        let next_game = self.progress.first + self.progress.done;
        let ckpt = Checkpoint {
            identity: self.identity.clone(),
            shard: self.shard,
            next_game,
            csv: self.csv.resume_point().into(),
            side: self.side.as_ref().map(|s| s.resume_point().into()),
            bundle: self.bundle.as_ref().map(|s| s.resume_point().into()),
            elapsed_s: self.elapsed(),
            started_unix_s: self.started_unix_s,
            state: self.state(),
        };
        let sealed = ckpt
            .seal()
            .map_err(|e| RunError::Internal(format!("checkpoint: {e}")))?;
        Ok(Some(CheckpointJob {
            files,
            path,
            sealed,
            next_game,
        }))
    }

    fn state(&self) -> Vec<super::stats::AccumulatorState> {
        // Names are filled in by the caller that knows the metrics; the
        // checkpoint only needs the order.
        self.accs.iter().map(|a| a.to_state("")).collect()
    }

    /// Completes the run in an order that never lets a file claim more than
    /// is true: every output synced (and a last checkpoint saved), the
    /// histograms and summary written under temporary names, then the CSVs
    /// renamed into place, then the histograms, and the summary last.
    fn finish(
        mut self,
        config: &RunConfig,
        metrics: &[Metric],
        range: Range<u64>,
        threads: usize,
    ) -> Result<RunOutcome, RunError> {
        self.progress.finish();
        if self.checkpoint.is_some() {
            self.save_checkpoint()?;
        } else {
            let r = self.csv.flush();
            self.check(r, Which::Csv)?;
        }
        let wall = self.elapsed();
        let played = range.end - range.start;
        let summary_at = config.summary.as_deref().unwrap_or(Path::new("-"));
        let record = |sink: Option<&StreamSink>, given: Option<&Path>| {
            let sink = sink?;
            let dest = sink.destination()?;
            Some(FileRecord::new(
                given
                    .filter(|_| dest.is_regular())
                    .map(|p| recorded_path(p, summary_at)),
                sink.rows(),
                sink.bytes(),
                sink.digest(),
            ))
        };
        let mut summary = Summary {
            format: SUMMARY_FORMAT.to_string(),
            identity: self.identity.clone(),
            command: config.command.clone(),
            shard: self.shard,
            first_game: range.start,
            end_game: range.end,
            threads,
            started_unix_s: self.started_unix_s,
            finished_unix_s: unix_now(),
            wall_time_s: wall,
            games_per_s: if wall > 0.0 {
                played as f64 / wall
            } else {
                0.0
            },
            merged: None,
            csv: record(Some(&self.csv), config.out.as_deref()),
            side_csv: record(self.side.as_ref(), config.side_out.as_deref()),
            bundle: record(self.bundle.as_ref(), config.files_bundle.as_deref()),
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
            checksum: String::new(),
        };
        let reports = stage_reports(
            &mut summary,
            metrics,
            &self.accs,
            config.summary.as_deref(),
            config.hist.as_deref(),
        )
        .map_err(|e| {
            let note = match &self.checkpoint {
                Some(ckpt) => format!(
                    "; nothing was renamed into place: the complete {} kept with the \
                     checkpoint {}: run the same command with --resume to finish",
                    self.partials().join(", "),
                    ckpt.display()
                ),
                None => String::new(),
            };
            e.leaving(&note)
        })?;
        let Writer {
            csv,
            side,
            bundle,
            checkpoint,
            ..
        } = self;
        for sink in [Some(csv), side, bundle].into_iter().flatten() {
            let name = sink
                .destination()
                .and_then(Destination::final_path)
                .map_or("the output".into(), |p| p.display().to_string());
            sink.commit()
                .map_err(RunError::io(format!("cannot rename {name} into place")))?;
        }
        if let Some(ckpt) = &checkpoint {
            let _ = std::fs::remove_file(ckpt);
        }
        commit_reports(reports)?;
        if !config.quiet {
            let _ = io::stderr().write_all(summary_table(&summary).as_bytes());
        }
        Ok(RunOutcome { summary })
    }
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
