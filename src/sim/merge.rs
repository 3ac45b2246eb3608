//! Joining shard outputs into exactly what the unsharded run gives.
//!
//! A shard's summary JSON carries everything needed: the run's identity
//! (game, version, seed, games, options), the games it covers, the exact
//! state of every metric and where its CSV is. `merge` refuses shards that
//! disagree on the identity or that do not tile `[0, games)` exactly, adds
//! the exact states in game order, and concatenates the CSVs under one
//! header. Statistics, histograms and CSV then equal the unsharded run's;
//! only the timing fields differ (the merged wall time is the shards' sum).

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::output::{partial_path, summary_table, Summary};
use super::runner::{write_outputs, RunError};
use super::stats::Accumulator;
use super::Metric;

/// What `merge` reads and writes.
#[derive(Clone, Debug, Default)]
pub struct MergeConfig {
    /// Shard summaries (`--summary` files of `--shard K/N` runs), any order.
    pub shards: Vec<PathBuf>,
    /// Merged CSV (`-` for stdout), from the shards' CSVs.
    pub out: Option<PathBuf>,
    pub summary: Option<PathBuf>,
    pub hist: Option<PathBuf>,
    pub quiet: bool,
}

/// Merges shard outputs; returns the merged summary.
pub fn merge(config: &MergeConfig) -> Result<Summary, RunError> {
    if config.shards.is_empty() {
        return Err(RunError::Input(
            "give the shards' summary files (written with --summary)".into(),
        ));
    }
    let mut shards: Vec<(PathBuf, Summary)> = config
        .shards
        .iter()
        .map(|p| Ok((p.clone(), read_summary(p)?)))
        .collect::<Result<_, RunError>>()?;
    shards.sort_by_key(|(_, s)| (s.first_game, s.end_game));
    check_identities(&shards)?;
    check_tiling(&shards)?;

    let (first_path, first) = &shards[0];
    let mut accs = Vec::with_capacity(first.state.len());
    let mut metrics = Vec::with_capacity(first.state.len());
    for (i, st) in first.state.iter().enumerate() {
        let mut acc = Accumulator::new(st.kind);
        for (path, s) in &shards {
            let other = s
                .state
                .get(i)
                .filter(|o| o.name == st.name && o.kind == st.kind)
                .ok_or_else(|| {
                    RunError::Input(format!(
                        "{} and {} list different metrics",
                        first_path.display(),
                        path.display()
                    ))
                })?;
            let part = Accumulator::from_state(other.kind, other)
                .map_err(|e| RunError::Input(format!("{}: {e}", path.display())))?;
            acc.merge(&part);
        }
        metrics.push(Metric::new(st.name.clone(), st.kind));
        accs.push(acc);
    }

    let games = first.identity.games;
    let wall: f64 = shards.iter().map(|(_, s)| s.wall_time_s).sum();
    let mut merged = Summary {
        identity: first.identity.clone(),
        shard: None,
        first_game: 0,
        end_game: games,
        threads: shards.iter().map(|(_, s)| s.threads).max().unwrap_or(1),
        wall_time_s: wall,
        games_per_s: if wall > 0.0 { games as f64 / wall } else { 0.0 },
        csv: None,
        metrics: metrics
            .iter()
            .zip(&accs)
            .map(|(m, a)| a.summarize(&m.name))
            .collect(),
        state: metrics
            .iter()
            .zip(&accs)
            .map(|(m, a)| a.to_state(&m.name))
            .collect(),
    };
    if let Some(out) = &config.out {
        let csvs = shards
            .iter()
            .map(|(path, s)| shard_csv(path, s))
            .collect::<Result<Vec<_>, _>>()?;
        concatenate(&csvs, out)?;
        if let Some(sum) = &config.summary {
            if out != Path::new("-") {
                merged.csv = Some(super::output::csv_reference(out, sum));
            }
        }
    }
    write_outputs(
        &merged,
        &metrics,
        &accs,
        config.summary.as_deref(),
        config.hist.as_deref(),
    )?;
    if !config.quiet {
        let _ = io::stderr().write_all(summary_table(&merged).as_bytes());
    }
    Ok(merged)
}

fn read_summary(path: &Path) -> Result<Summary, RunError> {
    let text = fs::read_to_string(path).map_err(|e| {
        RunError::Input(format!("cannot read shard summary {}: {e}", path.display()))
    })?;
    serde_json::from_str(&text).map_err(|e| {
        RunError::Input(format!(
            "{} is not a cardsim summary (written with --summary): {e}",
            path.display()
        ))
    })
}

/// Every shard must come from the same command: same game, version, seed,
/// number of games and options.
fn check_identities(shards: &[(PathBuf, Summary)]) -> Result<(), RunError> {
    let (p0, s0) = &shards[0];
    let a = &s0.identity;
    for (p, s) in &shards[1..] {
        let b = &s.identity;
        let differs = if a.game != b.game {
            Some(format!("game {} vs {}", a.game, b.game))
        } else if a.version != b.version {
            Some(format!("cardsim version {} vs {}", a.version, b.version))
        } else if a.seed != b.seed {
            Some(format!("seed {} vs {}", a.seed, b.seed))
        } else if a.games != b.games {
            Some(format!("games {} vs {}", a.games, b.games))
        } else if a.options != b.options {
            Some(format!("options {:?} vs {:?}", a.options, b.options))
        } else {
            None
        };
        if let Some(what) = differs {
            return Err(RunError::Input(format!(
                "shards {} and {} are from different runs ({what})",
                p0.display(),
                p.display()
            )));
        }
    }
    Ok(())
}

/// The shards, sorted by first game, must cover `[0, games)` with no gap and
/// no overlap.
fn check_tiling(shards: &[(PathBuf, Summary)]) -> Result<(), RunError> {
    let games = shards[0].1.identity.games;
    let mut next = 0u64;
    for (p, s) in shards {
        if s.first_game > next {
            return Err(RunError::Input(format!(
                "games {next}..{} are in no shard given (add the missing shard)",
                s.first_game
            )));
        }
        if s.first_game < next {
            return Err(RunError::Input(format!(
                "{} overlaps another shard (games {}..{}); give each shard once",
                p.display(),
                s.first_game,
                next
            )));
        }
        next = s.end_game;
    }
    if next != games {
        return Err(RunError::Input(format!(
            "games {next}..{games} are in no shard given (add the missing shard)"
        )));
    }
    Ok(())
}

/// Where a shard's CSV is: its summary records it, relative to the summary's
/// own directory when it sits there.
fn shard_csv(summary_path: &Path, s: &Summary) -> Result<PathBuf, RunError> {
    let name = s.csv.as_ref().ok_or_else(|| {
        RunError::Input(format!(
            "{} has no CSV (run the shard with --out FILE and --summary) so --out cannot be merged",
            summary_path.display()
        ))
    })?;
    let path = Path::new(name);
    Ok(if path.is_absolute() {
        path.to_path_buf()
    } else {
        summary_path.parent().unwrap_or(Path::new("")).join(path)
    })
}

/// Writes the shards' CSVs one after another under the first one's header.
fn concatenate(csvs: &[PathBuf], out: &Path) -> Result<(), RunError> {
    let to_stdout = out == Path::new("-");
    let tmp = partial_path(out);
    let io_err = |what: String| move |e: io::Error| RunError::Io { what, source: e };
    let mut sink: Box<dyn Write> = if to_stdout {
        Box::new(BufWriter::new(io::stdout()))
    } else {
        let f = File::create(&tmp)
            .map_err(|e| RunError::Input(format!("cannot write --out '{}': {e}", out.display())))?;
        Box::new(BufWriter::with_capacity(1 << 20, f))
    };
    let mut header: Option<String> = None;
    for path in csvs {
        let file = File::open(path).map_err(|e| {
            RunError::Input(format!("cannot read shard CSV {}: {e}", path.display()))
        })?;
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let mut first = String::new();
        reader
            .read_line(&mut first)
            .map_err(io_err(format!("cannot read {}", path.display())))?;
        match &header {
            None => {
                sink.write_all(first.as_bytes())
                    .map_err(io_err("cannot write the merged CSV".into()))?;
                header = Some(first);
            }
            Some(h) if *h != first => {
                return Err(RunError::Input(format!(
                    "{} has a different CSV header from the first shard",
                    path.display()
                )));
            }
            Some(_) => {}
        }
        io::copy(&mut reader, &mut sink).map_err(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                RunError::BrokenPipe
            } else {
                RunError::Io {
                    what: format!("cannot copy {}", path.display()),
                    source: e,
                }
            }
        })?;
    }
    sink.flush().map_err(|e| {
        if e.kind() == io::ErrorKind::BrokenPipe {
            RunError::BrokenPipe
        } else {
            RunError::Io {
                what: "cannot write the merged CSV".into(),
                source: e,
            }
        }
    })?;
    drop(sink);
    if !to_stdout {
        fs::rename(&tmp, out).map_err(io_err(format!("cannot rename to {}", out.display())))?;
    }
    Ok(())
}
