//! `cardsim verify`: checks that a summary's files are exactly what it
//! vouches for and, with `--rerun`, replays the recorded command and checks
//! that the statistics and files come out identical. What a CI job that
//! reproduces a seeded run calls.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;

use super::{bad_input, Command};
use crate::sim::interrupt::signal_name;
use crate::sim::output::{OutputPart, Summary};
use crate::sim::runner::RunError;
use crate::sim::scratch::ScratchDir;
use crate::sim::verify::{read_summary, verify_file};
use crate::sim::Shard;

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim verify results/fishing/default_rules.summary.json
  cardsim verify --rerun run.json
  cardsim verify shard-*.json merged.json")]
pub struct VerifyArgs {
    /// Summary files (written with --summary, or by merge), or the folder
    /// of a sweep (checks its manifest, every cell and file).
    #[arg(required = true, value_name = "SUMMARY")]
    pub summaries: Vec<PathBuf>,
    /// Also rerun each summary's recorded command (same version, seed,
    /// games, options and shard) into a temporary directory, and check that
    /// its statistics and files come out identical.
    #[arg(long)]
    pub rerun: bool,
    /// Worker threads for --rerun [default: all cores]. Never changes the
    /// result.
    #[arg(long, short = 'j', value_name = "T",
          value_parser = super::numbers::threads)]
    pub threads: Option<u64>,
}

pub fn run(args: VerifyArgs) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    for path in &args.summaries {
        if path.is_dir() {
            verify_sweep(&mut out, path, &args)?;
            continue;
        }
        let s = read_summary(path)?;
        let mut files = Vec::new();
        for part in OutputPart::ALL {
            match (verify_file(path, &s, part)?, part.record(&s)) {
                (Some(file), Some(r)) => files.push(format!(
                    "{} {} ({} rows, {} bytes)",
                    part.what(),
                    file.display(),
                    r.rows,
                    r.bytes
                )),
                (None, Some(r)) => files.push(format!(
                    "{} written to a stream ({} rows, {} bytes: not readable back)",
                    part.what(),
                    r.rows,
                    r.bytes
                )),
                _ => {}
            }
        }
        let what = if files.is_empty() {
            "no files".to_string()
        } else {
            files.join(", ")
        };
        writeln!(
            out,
            "ok: {}: {} games {}..{} of {} (seed {}); {what}",
            path.display(),
            s.identity.game,
            s.first_game,
            s.end_game,
            s.identity.games,
            s.identity.seed
        )?;
        if args.rerun {
            rerun(&mut out, path, &s, args.threads)?;
        }
    }
    Ok(())
}

/// Checks a sweep's folder (its manifest, every cell and file, the table)
/// and, with `--rerun`, reruns every cell.
fn verify_sweep(out: &mut impl Write, dir: &Path, args: &VerifyArgs) -> anyhow::Result<()> {
    if !dir.join(crate::sweep::MANIFEST).exists() {
        return Err(bad_input(format!(
            "{} is a folder without {}: give a summary, or the folder of a finished sweep",
            dir.display(),
            crate::sweep::MANIFEST
        )));
    }
    let v = crate::sweep::verify(dir).map_err(|e| {
        if e.is_bad_input() {
            bad_input(e)
        } else {
            anyhow::Error::new(e)
        }
    })?;
    writeln!(
        out,
        "ok: {}: sweep of {} cells ({} games of {} each); {} files and every cell's summary \
         as the manifest vouches",
        dir.display(),
        v.manifest.cells.len(),
        v.manifest.game,
        v.manifest
            .games
            .map_or("swept".to_string(), |g| g.to_string()),
        v.files
    )?;
    if args.rerun {
        for path in &v.summaries {
            rerun(out, path, &read_summary(path)?, args.threads)?;
        }
    }
    Ok(())
}

/// Replays the command `s` records, compares what it gives with `s`, and
/// says so on `out`.
fn rerun(
    out: &mut impl Write,
    path: &Path,
    s: &Summary,
    threads: Option<u64>,
) -> anyhow::Result<()> {
    if s.command.is_empty() {
        return Err(bad_input(format!(
            "{} records no command (written through the library), so it cannot be rerun",
            path.display()
        )));
    }
    let mine = env!("CARGO_PKG_VERSION");
    if s.identity.version != mine {
        return Err(bad_input(format!(
            "{} was written by cardsim {}; this is {mine}: rerun it with that version",
            path.display(),
            s.identity.version
        )));
    }
    let argv = std::iter::once("cardsim".to_string()).chain(s.command.iter().cloned());
    let mut cli = super::parse_from(argv).map_err(|e| {
        bad_input(format!(
            "the command {} records does not parse: {}",
            path.display(),
            super::usage_line(&e.render().to_string())
        ))
    })?;
    // Removed when this function returns, however it does; a kill leaves
    // it to the next `verify --rerun`, which removes it.
    let tmp = ScratchDir::new("cardsim-verify")
        .context("cannot create a temporary directory for --rerun")?;
    redirect(&mut cli.command, tmp.path(), s, threads).ok_or_else(|| {
        bad_input(format!(
            "the command {} records is not a simulation",
            path.display()
        ))
    })?;
    super::run(cli).map_err(|e| match e.downcast::<RunError>() {
        // The rerun's own message names files in the folder about to be
        // removed and a --resume that verify does not have.
        Ok(RunError::Interrupted { signal, .. }) => anyhow::Error::new(RunError::Interrupted {
            signal,
            message: format!(
                "verify --rerun of {} interrupted by {}: nothing was kept (its temporary \
                 folder is removed)",
                path.display(),
                signal_name(signal)
            ),
        }),
        Ok(other) => anyhow::Error::new(other).context("the rerun failed"),
        Err(e) => e.context("the rerun failed"),
    })?;
    let again = read_summary(&tmp.path().join("summary.json"))?;
    let same = |what: &str, equal: bool| -> anyhow::Result<()> {
        if equal {
            Ok(())
        } else {
            anyhow::bail!(
                "{}: the rerun gives other {what} than the summary records (not reproducible \
                 with this binary and machine)",
                path.display()
            )
        }
    };
    same("identity", again.identity == s.identity)?;
    same(
        "games",
        (again.first_game, again.end_game) == (s.first_game, s.end_game),
    )?;
    same(
        "statistics",
        again.state == s.state && again.metrics == s.metrics,
    )?;
    for part in OutputPart::ALL {
        let strip = |r: Option<&crate::sim::output::FileRecord>| {
            r.map(|r| (r.rows, r.bytes, r.blake3.clone()))
        };
        same(
            &format!("{} content", part.what()),
            strip(part.record(&again)) == strip(part.record(s)),
        )?;
    }
    writeln!(
        out,
        "ok: {}: rerun gives identical statistics and files",
        path.display()
    )?;
    Ok(())
}

/// Points every output of a parsed simulation command into `dir` (the
/// summary at `dir/summary.json`), runs the shard `s` covers (the whole run
/// for a merged summary), quietly and without resuming. `None` when the
/// command is not a simulation.
fn redirect(cmd: &mut Command, dir: &Path, s: &Summary, threads: Option<u64>) -> Option<()> {
    let sim = match cmd {
        Command::Fishing(a) => &mut a.sim,
        Command::Holdem(a) => {
            if a.pots.is_some() {
                a.pots = Some(dir.join("pots.csv"));
            }
            if let Some(p) = &a.phh {
                let bundled = p.extension().is_some_and(|e| e == "phhs");
                a.phh = Some(dir.join(if bundled { "hands.phhs" } else { "hands" }));
            }
            &mut a.sim
        }
        Command::Tienlen(a) if a.command.is_none() => &mut a.play.sim,
        Command::Solve(a) => &mut a.sim,
        _ => return None,
    };
    if let Some(out) = &sim.out {
        // The same format: by --format, else by the extension kept here.
        let parquet = super::sim_args::is_parquet_path(out);
        sim.out = Some(dir.join(if parquet { "out.parquet" } else { "out.csv" }));
    }
    // The summary (and a Parquet file's metadata) record the command
    // rerun, not this `verify`.
    sim.record_as = Some(s.command.clone());
    sim.summary = Some(dir.join("summary.json"));
    sim.hist = None;
    sim.resume = false;
    sim.quiet = true;
    sim.progress = false;
    sim.threads = threads;
    sim.shard = s.shard.map(|sh| Shard {
        index: sh.index,
        count: sh.count,
    });
    Some(())
}
