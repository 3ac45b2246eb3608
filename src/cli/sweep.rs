//! `cardsim sweep SPEC.toml`: one spec, a grid of runs. Every cell is an
//! ordinary run of its game command (parsed and run in this process, as
//! `verify --rerun` does), written into its own hive-style folder; the
//! sweep then writes the tidy table and the manifest (see `crate::sweep`).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::sim::seal::Sealed as _;

use anyhow::Context as _;
use clap::{Args, CommandFactory as _};

use super::{bad_input, sim_args, Cli, Command};
use crate::sim::lock::OutputLock;
use crate::sim::output::OutputPart;
use crate::sim::runner::RunError;
use crate::sim::sink::{checkpoint_path, partial_path, read_bounded, write_whole};
use crate::sim::verify::{read_summary, verify_file};
use crate::sim::{OutputFormat, Shard};
use crate::sweep::{self, CellRecord, Manifest, Spec, SweepError};

/// Specs larger than this are refused before they are read.
const MAX_SPEC_BYTES: u64 = 4 << 20;

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim sweep examples/sweep/fishing.toml -o sweep/
  cardsim sweep spec.toml -o sweep/ --set players=2,3,4 --set games=20000
  cardsim sweep spec.toml -o sweep/ --resume
  cardsim sweep spec.toml -o sweep/ --shard 0/4   (and 1/4, 2/4, 3/4; then --resume
                                                  without --shard writes the table)
The spec, the folder and the seed rule: docs/sweep.md.")]
pub struct SweepArgs {
    /// The spec (TOML): game, games, seed, seed_per_cell, [base] options
    /// and a [grid] of values (every combination) or a list of [[cells]].
    #[arg(value_name = "SPEC.toml")]
    pub spec: PathBuf,
    /// Override the spec: one value sets an option of every cell (or
    /// games, seed, seed_per_cell); several values replace a swept key's
    /// values or add one to the grid. Values are a TOML list body
    /// (`2,3,4`, `"tag,station","random"`) or plain words split at commas.
    #[arg(long = "set", value_name = "KEY=A,B,C")]
    pub set: Vec<String>,
    /// The sweep's folder: a sub-folder per cell; results.csv,
    /// results.parquet and the manifest sweep.json at the top.
    #[arg(
        long,
        short = 'o',
        value_name = "DIR",
        required_unless_present = "list"
    )]
    pub out: Option<PathBuf>,
    /// Worker threads of every cell [default: all cores]. Never changes the
    /// output.
    #[arg(long, short = 'j', value_name = "T", value_parser = super::numbers::threads)]
    pub threads: Option<u64>,
    /// Run only the cells i with i mod N = K (K from 0); the table and the
    /// manifest are written by a run without --shard (with --resume it
    /// runs nothing that is done).
    #[arg(long, value_name = "K/N", value_parser = sim_args::parse_shard)]
    pub shard: Option<Shard>,
    /// Continue an interrupted sweep: cells that are complete are kept, a
    /// cell cut off resumes from its checkpoint, the others run.
    #[arg(long)]
    pub resume: bool,
    /// Format of each cell's per-game rows: csv (games.csv) or parquet
    /// (games.parquet). The table is written both ways: results.csv and
    /// results.parquet.
    #[arg(long, value_name = "FORMAT", value_parser = sim_args::parse_format)]
    pub format: Option<OutputFormat>,
    /// Print the cells (folder and command) and run nothing.
    #[arg(long)]
    pub list: bool,
    /// Seconds between resume checkpoints of each cell.
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS", hide = true,
          value_parser = sim_args::parse_seconds)]
    pub checkpoint_every: f64,
    /// Print nothing on stderr but errors.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// A cell's outputs inside its folder, as its recorded command names them.
fn output_words(parquet: bool) -> [String; 6] {
    [
        "--out".into(),
        if parquet {
            sweep::CELL_PARQUET
        } else {
            sweep::CELL_CSV
        }
        .into(),
        "--summary".into(),
        sweep::CELL_SUMMARY.into(),
        "--hist".into(),
        sweep::CELL_HIST.into(),
    ]
}

fn spec_error(e: SweepError) -> anyhow::Error {
    if e.is_bad_input() {
        bad_input(e)
    } else {
        anyhow::Error::new(e)
    }
}

pub fn run(args: SweepArgs) -> anyhow::Result<()> {
    let text = read_bounded(&args.spec, MAX_SPEC_BYTES)
        .map_err(|why| bad_input(format!("sweep spec {}: {why}", args.spec.display())))?;
    let text = String::from_utf8(text).map_err(|_| {
        bad_input(format!(
            "sweep spec {}: is not UTF-8 text",
            args.spec.display()
        ))
    })?;
    let spec = Spec::parse(&text, &args.set).map_err(spec_error)?;
    check_options(&spec)?;
    let commands: Vec<Vec<String>> = (0..spec.cells.len())
        .map(|c| {
            let mut argv = spec.cell_command(c);
            argv.extend(output_words(args.format == Some(OutputFormat::Parquet)));
            argv
        })
        .collect();
    // Every cell parses before any runs: a bad value fails at once.
    for (c, argv) in commands.iter().enumerate() {
        parse_cell(argv).map_err(|e| {
            bad_input(format!(
                "sweep spec: cell {} ({}): {e}",
                c + 1,
                spec.cell_dir(c)
            ))
        })?;
    }
    if args.list {
        let mut out = std::io::stdout().lock();
        for (c, argv) in commands.iter().enumerate() {
            let shown =
                shlex::try_join(argv.iter().map(String::as_str)).unwrap_or_else(|_| argv.join(" "));
            writeln!(out, "{}\tcardsim {shown}", spec.cell_dir(c))?;
        }
        return Ok(());
    }
    let Some(dir) = args.out.clone() else {
        return Err(bad_input("sweep needs -o DIR"));
    };
    if dir.exists() && !dir.is_dir() {
        return Err(bad_input(format!(
            "-o '{}' is not a folder: a sweep writes a folder",
            dir.display()
        )));
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| bad_input(format!("cannot create -o '{}': {e}", dir.display())))?;
    // The top files are written by the run without --shard only: it alone
    // holds this lock (shards may run at once into the same folder).
    let _lock = match args.shard {
        None => Some(OutputLock::acquire(&dir.join(sweep::MANIFEST)).map_err(bad_input)?),
        Some(_) => None,
    };
    let mine: Vec<usize> = (0..spec.cells.len())
        .filter(|c| args.shard.is_none_or(|s| *c as u64 % s.count == s.index))
        .collect();
    let started = Instant::now();
    for (done, &c) in mine.iter().enumerate() {
        let cell_dir = dir.join(spec.cell_dir(c));
        let label = format!(
            "cell {} of {} ({})",
            c + 1,
            spec.cells.len(),
            spec.cell_dir(c)
        );
        if args.resume && cell_complete(&cell_dir, &commands[c]) {
            clear_stale_locks(&cell_dir);
            if !args.quiet {
                eprintln!("{label}: done before, kept");
            }
            continue;
        }
        let t = Instant::now();
        run_cell(&args, &cell_dir, &commands[c]).map_err(|e| cell_error(e, &label, &args))?;
        if !args.quiet {
            eprintln!(
                "{label}: ran in {:.1} s ({} of {} cells of this run)",
                t.elapsed().as_secs_f64(),
                done + 1,
                mine.len()
            );
        }
    }
    if let Some(sh) = args.shard {
        if !args.quiet {
            eprintln!(
                "shard {}/{}: {} cells in {:.1} s; when every shard is done, run the sweep \
                 with --resume and without --shard to write results.csv and sweep.json",
                sh.index,
                sh.count,
                mine.len(),
                started.elapsed().as_secs_f64()
            );
        }
        return Ok(());
    }
    finish(&spec, &dir, &commands)?;
    if !args.quiet {
        eprintln!(
            "sweep of {} cells in {:.1} s: {}, {}",
            spec.cells.len(),
            started.elapsed().as_secs_f64(),
            dir.join(sweep::RESULTS_CSV).display(),
            dir.join(sweep::MANIFEST).display()
        );
    }
    Ok(())
}

/// Refuses a spec option that the game command does not have, naming it.
fn check_options(spec: &Spec) -> anyhow::Result<()> {
    let cli = Cli::command();
    let Some(sub) = cli.find_subcommand(&spec.game) else {
        return Err(bad_input(format!(
            "sweep spec: key 'game': no command {}",
            spec.game
        )));
    };
    let longs: Vec<String> = sub
        .get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| a.get_long())
        .map(|l| l.replace('-', "_"))
        .collect();
    for key in spec.option_keys() {
        if !longs.iter().any(|l| l == key) {
            return Err(bad_input(format!(
                "sweep spec: key '{}' is not an option of `cardsim {}` (see cardsim {} --help)",
                crate::text::quote(key),
                spec.game,
                spec.game
            )));
        }
    }
    Ok(())
}

/// Parses a cell's command as the command line would.
fn parse_cell(argv: &[String]) -> Result<Cli, String> {
    let words = std::iter::once("cardsim".to_string()).chain(argv.iter().cloned());
    super::parse_from(words).map_err(|e| super::usage_line(&e.render().to_string()))
}

/// The shared flags of a parsed simulation command.
pub(super) fn sim_args_mut(cmd: &mut Command) -> Option<&mut sim_args::SimArgs> {
    match cmd {
        Command::Fishing(a) => Some(&mut a.sim),
        Command::Holdem(a) => Some(&mut a.sim),
        Command::Tienlen(a) if a.command.is_none() => Some(&mut a.play.sim),
        Command::Solve(a) if a.random.is_some() => Some(&mut a.sim),
        _ => None,
    }
}

/// Whether a cell's folder holds its finished run: a sealed summary of
/// this very command whose CSV is the one it vouches for.
fn cell_complete(cell_dir: &Path, argv: &[String]) -> bool {
    let path = cell_dir.join(sweep::CELL_SUMMARY);
    if !path.exists() {
        return false;
    }
    match read_summary(&path) {
        Ok(s) => {
            s.command == argv
                && OutputPart::ALL
                    .iter()
                    .all(|&p| verify_file(&path, &s, p).is_ok())
        }
        Err(_) => false,
    }
}

/// Removes the lock files a complete cell's run left when it was killed
/// between writing its summary and ending: taking a lock that nobody
/// holds and letting it go removes its file (a lock still held is left).
fn clear_stale_locks(cell_dir: &Path) {
    for name in [sweep::CELL_CSV, sweep::CELL_SUMMARY, sweep::CELL_HIST] {
        let path = cell_dir.join(name);
        if crate::sim::lock::lock_path(&path).exists() {
            drop(OutputLock::acquire(&path));
        }
    }
}

/// Runs one cell through its game command, its outputs in `cell_dir`.
fn run_cell(args: &SweepArgs, cell_dir: &Path, argv: &[String]) -> anyhow::Result<()> {
    std::fs::create_dir_all(cell_dir)
        .with_context(|| format!("cannot create {}", cell_dir.display()))?;
    let name = if args.format == Some(OutputFormat::Parquet) {
        sweep::CELL_PARQUET
    } else {
        sweep::CELL_CSV
    };
    let csv = cell_dir.join(name);
    let mut resume = args.resume;
    if resume && checkpoint_path(&csv).exists() && !partial_path(&csv).exists() {
        // Cut off after its CSV was renamed into place: nothing to resume.
        let _ = std::fs::remove_file(checkpoint_path(&csv));
    }
    if resume && !checkpoint_path(&csv).exists() {
        resume = false;
    }
    let go = |resume: bool| -> anyhow::Result<()> {
        let mut cli = parse_cell(argv).map_err(bad_input)?;
        let sim = sim_args_mut(&mut cli.command)
            .ok_or_else(|| bad_input("the sweep's game command is not a simulation"))?;
        sim.out = Some(csv.clone());
        sim.summary = Some(cell_dir.join(sweep::CELL_SUMMARY));
        sim.hist = Some(cell_dir.join(sweep::CELL_HIST));
        sim.record_as = Some(argv.to_vec());
        sim.threads = args.threads;
        sim.resume = resume;
        sim.quiet = true;
        sim.progress = false;
        sim.checkpoint_every = args.checkpoint_every;
        super::run(cli)
    };
    match go(resume) {
        // A checkpoint that cannot be used (written by another version, or
        // its partial CSV lost): the cell starts over.
        Err(e)
            if resume
                && e.downcast_ref::<RunError>().is_some_and(
                    |r| matches!(r, RunError::Input(m) if m.starts_with("cannot resume")),
                ) =>
        {
            go(false)
        }
        other => other,
    }
}

/// A cell's failure as the sweep reports it: an interruption says how to
/// continue the sweep (not the cell's own command).
fn cell_error(e: anyhow::Error, label: &str, args: &SweepArgs) -> anyhow::Error {
    if let Some(RunError::Interrupted { signal, .. }) = e.downcast_ref::<RunError>() {
        let mut words: Vec<String> = sim_args::recorded_command();
        if !words.iter().any(|w| w == "--resume") {
            words.push("--resume".into());
        }
        let shown =
            shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "));
        return anyhow::Error::new(RunError::Interrupted {
            signal: *signal,
            message: format!(
                "sweep interrupted by {} in {label}: the cells done and this cell's checkpoint \
                 are kept in {}; to continue, run: cardsim {shown}",
                crate::sim::interrupt::signal_name(*signal),
                args.out.as_deref().unwrap_or(Path::new(".")).display()
            ),
        });
    }
    e.context(label.to_string())
}

/// Writes the top of the folder once every cell is done: results.csv,
/// then the manifest (last: a folder with a manifest is complete).
fn finish(spec: &Spec, dir: &Path, commands: &[Vec<String>]) -> anyhow::Result<()> {
    let mut summaries = Vec::new();
    let mut cells = Vec::new();
    for (c, argv) in commands.iter().enumerate() {
        let rel = spec.cell_dir(c);
        let cell_dir = dir.join(&rel);
        let path = cell_dir.join(sweep::CELL_SUMMARY);
        let s = read_summary(&path)?;
        if &s.command != argv {
            return Err(bad_input(format!(
                "{}: the cell's summary is of another command; rerun the sweep without --resume",
                path.display()
            )));
        }
        let mut files = Vec::new();
        let names = sweep::cell_files(&cell_dir)
            .with_context(|| format!("cannot list {}", cell_dir.display()))?;
        for name in names {
            let rows = match s.csv.as_ref() {
                Some(r) if r.path.as_deref() == Some(name.as_str()) => r.rows,
                _ => 0,
            };
            files.push(
                sweep::file_record(&cell_dir.join(&name), &name, rows)
                    .with_context(|| format!("cannot read {}", cell_dir.join(&name).display()))?,
            );
        }
        cells.push(CellRecord {
            dir: rel,
            params: spec.cells[c].iter().map(sweep::Value::text).collect(),
            seed: spec.cell_seed(c),
            command: argv.clone(),
            stats_blake3: sweep::stats_digest(&s),
            files,
        });
        summaries.push(s);
    }
    let rows = sweep::result_rows(&spec.cells, &summaries);
    let table = sweep::results_csv(&spec.keys, &rows).map_err(spec_error)?;
    let results = dir.join(sweep::RESULTS_CSV);
    write_whole(&results, table).with_context(|| format!("cannot write {}", results.display()))?;
    let mut manifest = Manifest {
        format: sweep::MANIFEST_FORMAT.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        game: spec.game.clone(),
        games: spec.games,
        seed: spec.seed,
        seed_per_cell: spec.seed_per_cell,
        base: spec
            .base
            .iter()
            .map(|(k, v)| [k.clone(), v.text()])
            .collect(),
        keys: spec.keys.clone(),
        cells,
        files: Vec::new(),
        checksum: String::new(),
    };
    let pq = sweep::results_parquet(&spec.keys, &rows, sweep::results_metadata(&manifest))
        .map_err(spec_error)?;
    let results_pq = dir.join(sweep::RESULTS_PARQUET);
    write_whole(&results_pq, pq)
        .with_context(|| format!("cannot write {}", results_pq.display()))?;
    for (path, name) in [
        (&results, sweep::RESULTS_CSV),
        (&results_pq, sweep::RESULTS_PARQUET),
    ] {
        manifest.files.push(
            sweep::file_record(path, name, rows.len() as u64)
                .with_context(|| format!("cannot read {}", path.display()))?,
        );
    }
    let json = manifest.seal().context("cannot format the manifest")?;
    let path = dir.join(sweep::MANIFEST);
    write_whole(&path, json).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
