//! Options shared by every simulating command, and the one function that runs
//! a game through the runner from them.

use std::path::PathBuf;

use clap::Args;

use crate::sim::{self, Game, OutputFormat, RunConfig, Shard};

/// The seed used when `--seed` is not given (printed in every summary).
pub const DEFAULT_SEED: u64 = 20_261_122;

/// Flags of every simulating command. The game's own command adds
/// `-n/--games N` (hold'em: `--hands`) and its rule options.
#[derive(Debug, Clone, Args)]
pub struct SimArgs {
    /// Seed of the run: game i is a pure function of (seed, i, options).
    #[arg(long, default_value_t = DEFAULT_SEED, value_name = "S",
          value_parser = super::numbers::any_u64)]
    pub seed: u64,
    /// Worker threads [default: all cores]. Never changes the output.
    #[arg(long, short = 'j', value_name = "T", value_parser = super::numbers::threads)]
    pub threads: Option<u64>,
    /// Run only shard K of N (K from 0): games [K*games/N, (K+1)*games/N).
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Per-game CSV file (`-` for stdout). Written under a temporary name and
    /// renamed when complete.
    #[arg(long, short = 'o', value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Format of --out: csv or parquet [default: parquet for a path ending
    /// in .parquet, else csv]. Parquet: typed columns, zstd, the command,
    /// seed and version in the file's metadata (docs/files.md).
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    pub format: Option<OutputFormat>,
    /// Summary as JSON (also what `cardsim merge` reads from shards).
    #[arg(long, value_name = "PATH")]
    pub summary: Option<PathBuf>,
    /// Directory for per-metric histograms (`.hgrm` text and `.hdr` V2 binary).
    #[arg(long, value_name = "DIR")]
    pub hist: Option<PathBuf>,
    /// Continue an interrupted run of the same command from its last complete
    /// row (needs `--out FILE`).
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Seconds between resume checkpoints of a file run.
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS", hide = true,
          value_parser = parse_seconds)]
    pub checkpoint_every: f64,
    /// Print nothing on stderr but errors.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Show the progress bar even when stderr is not a terminal.
    #[arg(long, conflicts_with = "quiet")]
    pub progress: bool,
    /// Set by a program that runs commands in its own process (the Python
    /// package): it keeps its own Ctrl-C handling, so the run installs no
    /// signal handlers (see `RunConfig::catch_signals`).
    #[arg(long, hide = true)]
    pub embedded: bool,
    /// Set by such a program after parsing: how it stops the run (see
    /// `RunConfig::cancel`). Never a flag.
    #[arg(skip)]
    pub cancel: Option<crate::sim::interrupt::Cancel>,
    /// Set by `cardsim sweep` for each of its cells: the command the
    /// summary records (the cell's own game command, which `verify --rerun`
    /// replays) instead of this process's arguments. Never a flag.
    #[arg(skip)]
    pub record_as: Option<Vec<String>>,
}

impl SimArgs {
    /// The format of `--out`: `--format`, else by the path's extension.
    pub fn output_format(&self) -> OutputFormat {
        match (self.format, &self.out) {
            (Some(f), _) => f,
            (None, Some(p)) if is_parquet_path(p) => OutputFormat::Parquet,
            _ => OutputFormat::Csv,
        }
    }

    /// The runner configuration for a run of `games` games.
    pub fn config(&self, games: u64) -> RunConfig {
        RunConfig {
            games,
            seed: self.seed,
            threads: self.threads.map(|t| t as usize),
            shard: self.shard,
            out: self.out.clone(),
            format: self.output_format(),
            summary: self.summary.clone(),
            hist: self.hist.clone(),
            quiet: self.quiet,
            progress: self.progress,
            resume: self.resume,
            checkpoint_every: std::time::Duration::from_secs_f64(self.checkpoint_every),
            side_out: None,
            files_dir: None,
            files_bundle: None,
            command: self.record_as.clone().unwrap_or_else(recorded_command),
            catch_signals: !self.embedded,
            cancel: self.cancel.clone(),
        }
    }
}

/// This process's arguments after the program name, as a summary records
/// them for `cardsim verify --rerun`.
pub fn recorded_command() -> Vec<String> {
    std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

/// Runs `game` with the shared flags: the only way a command starts a run.
pub fn run_simulation<G: Game>(game: &G, args: &SimArgs, games: u64) -> anyhow::Result<()> {
    sim::run(game, &args.config(games))?;
    Ok(())
}

/// Parses a count of games: a whole number of at least 1, in any form
/// [`super::numbers::parse_whole`] reads. Used with `allow_hyphen_values`,
/// so `-n -5` reaches it and is told what is wrong (clap alone would call
/// `-5` an unexpected argument).
pub fn parse_count(s: &str) -> Result<u64, String> {
    super::numbers::parse_whole(s, 1, u64::MAX)
}

/// Parses `K/N` with `0 <= K < N`.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let err = || {
        format!(
            "expected K/N with 0 <= K < N (for example 0/4), got '{}'",
            crate::text::quote(s)
        )
    };
    let (k, n) = s.split_once('/').ok_or_else(err)?;
    let index: u64 = k.trim().parse().map_err(|_| err())?;
    let count: u64 = n.trim().parse().map_err(|_| err())?;
    if count == 0 || index >= count {
        return Err(err());
    }
    Ok(Shard { index, count })
}

/// Whether a path names a Parquet file (ends in `.parquet`, any case).
pub fn is_parquet_path(p: &std::path::Path) -> bool {
    p.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("parquet"))
}

/// Parses `--format`.
pub fn parse_format(s: &str) -> Result<OutputFormat, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "csv" => Ok(OutputFormat::Csv),
        "parquet" => Ok(OutputFormat::Parquet),
        _ => Err(format!(
            "expected csv or parquet, got '{}'",
            crate::text::quote(s)
        )),
    }
}

/// Parses a positive, finite number of seconds.
pub(crate) fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e9 => Ok(v),
        _ => Err(format!(
            "expected a positive number of seconds, got '{}'",
            crate::text::quote(s)
        )),
    }
}
