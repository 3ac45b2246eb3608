//! Joining shard outputs into exactly what the unsharded run gives.
//!
//! A shard's summary JSON carries everything needed: the run's identity
//! (game, version, seed, games, options), the games it covers, the exact
//! state of every metric and where its CSV is. `merge` refuses shards that
//! disagree on the identity or that do not tile `[0, games)` exactly, adds
//! the exact states in game order, and concatenates the CSVs under one
//! header (and so the side CSVs, and the bundles of whole files, which have
//! no header). Statistics, histograms and CSV then equal the unsharded run's;
//! only the timing fields differ (the merged wall time is the shards' sum).

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::output::{partial_path, Summary};
use super::report::summary_table;
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
    /// Merged side CSV (hold'em's `--pots`), from the shards' side CSVs.
    pub side_out: Option<PathBuf>,
    /// Merged bundle of whole files (hold'em's `--phh FILE.phhs`).
    pub bundle_out: Option<PathBuf>,
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
        side_csv: None,
        bundle: None,
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
    let parts = [Part::Csv, Part::SideCsv, Part::Bundle];
    for (i, a) in parts.iter().enumerate() {
        for b in &parts[i + 1..] {
            if let (Some(pa), Some(pb)) = (a.merged_path(config), b.merged_path(config)) {
                if pa == pb {
                    return Err(RunError::Input(format!(
                        "{} and {} both name '{}': give each merged output its own path",
                        a.describe().2,
                        b.describe().2,
                        pa.display()
                    )));
                }
            }
        }
    }
    for part in parts {
        let Some(out) = part.merged_path(config) else {
            continue;
        };
        let files = shards
            .iter()
            .map(|(path, s)| part.shard_file(path, s))
            .collect::<Result<Vec<_>, _>>()?;
        concatenate(&files, out, part)?;
        if let Some(sum) = &config.summary {
            if out != Path::new("-") {
                *part.recorded(&mut merged) = Some(super::output::csv_reference(out, sum));
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

/// The outputs `merge` joins: each shard's summary records where its file
/// is, relative to the summary's own directory when it sits there.
#[derive(Clone, Copy)]
enum Part {
    Csv,
    SideCsv,
    Bundle,
}

impl Part {
    fn merged_path(self, config: &MergeConfig) -> Option<&Path> {
        match self {
            Part::Csv => config.out.as_deref(),
            Part::SideCsv => config.side_out.as_deref(),
            Part::Bundle => config.bundle_out.as_deref(),
        }
    }

    fn recorded(self, s: &mut Summary) -> &mut Option<String> {
        match self {
            Part::Csv => &mut s.csv,
            Part::SideCsv => &mut s.side_csv,
            Part::Bundle => &mut s.bundle,
        }
    }

    fn recorded_in(self, s: &Summary) -> Option<&str> {
        match self {
            Part::Csv => s.csv.as_deref(),
            Part::SideCsv => s.side_csv.as_deref(),
            Part::Bundle => s.bundle.as_deref(),
        }
    }

    /// What it is, and the shard options that write it, for messages.
    fn describe(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Part::Csv => ("CSV", "--out FILE", "--out"),
            Part::SideCsv => ("pots CSV", "--pots FILE", "--pots"),
            Part::Bundle => ("hand-history bundle", "--phh FILE.phhs", "--phh"),
        }
    }

    /// Only CSVs start with a header, written once in the merged file.
    fn has_header(self) -> bool {
        !matches!(self, Part::Bundle)
    }

    fn shard_file(self, summary_path: &Path, s: &Summary) -> Result<PathBuf, RunError> {
        let (what, shard_option, merge_option) = self.describe();
        let name = self.recorded_in(s).ok_or_else(|| {
            RunError::Input(format!(
                "{} has no {what} (run the shard with {shard_option} and --summary) so {merge_option} cannot be merged",
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
}

/// Writes the shards' files one after another (CSVs under the first one's
/// header), to a temporary file renamed into place at the end.
fn concatenate(files: &[PathBuf], out: &Path, part: Part) -> Result<(), RunError> {
    let (what, _, merge_option) = part.describe();
    let to_stdout = out == Path::new("-");
    let tmp = partial_path(out);
    let io_err = |what: String| move |e: io::Error| RunError::Io { what, source: e };
    let mut sink: Box<dyn Write> = if to_stdout {
        Box::new(BufWriter::new(io::stdout()))
    } else {
        let f = File::create(&tmp).map_err(|e| {
            RunError::Input(format!(
                "cannot write {merge_option} '{}': {e}",
                out.display()
            ))
        })?;
        Box::new(BufWriter::with_capacity(1 << 20, f))
    };
    let mut header: Option<String> = None;
    for path in files {
        let file = File::open(path).map_err(|e| {
            RunError::Input(format!("cannot read shard {what} {}: {e}", path.display()))
        })?;
        let mut reader = BufReader::with_capacity(1 << 20, file);
        if !part.has_header() {
            copy_into(&mut reader, &mut sink, path)?;
            continue;
        }
        let mut first = String::new();
        reader
            .read_line(&mut first)
            .map_err(io_err(format!("cannot read {}", path.display())))?;
        match &header {
            None => {
                sink.write_all(first.as_bytes())
                    .map_err(io_err(format!("cannot write the merged {what}")))?;
                header = Some(first);
            }
            Some(h) if *h != first => {
                return Err(RunError::Input(format!(
                    "{} has a different {what} header from the first shard",
                    path.display()
                )));
            }
            Some(_) => {}
        }
        copy_into(&mut reader, &mut sink, path)?;
    }
    sink.flush().map_err(|e| {
        if e.kind() == io::ErrorKind::BrokenPipe {
            RunError::BrokenPipe
        } else {
            RunError::Io {
                what: format!("cannot write the merged {what}"),
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

/// Copies the rest of a shard's file into the merged one.
fn copy_into(
    reader: &mut impl io::Read,
    sink: &mut dyn Write,
    path: &Path,
) -> Result<(), RunError> {
    io::copy(reader, sink).map_err(|e| {
        if e.kind() == io::ErrorKind::BrokenPipe {
            RunError::BrokenPipe
        } else {
            RunError::Io {
                what: format!("cannot copy {}", path.display()),
                source: e,
            }
        }
    })?;
    Ok(())
}
