//! Joining shard outputs into exactly what the unsharded run gives.
//!
//! A shard's summary JSON carries everything needed: the run's identity
//! (game, version, seed, games, options), the games it covers, the exact
//! state of every metric, and the files it wrote with their rows, bytes and
//! hashes. `merge` refuses a summary that is not sealed by cardsim or not
//! consistent, shards that disagree on the identity or do not tile
//! `[0, games)` exactly, and, before joining anything, any shard file that
//! is not what its summary vouches for (see [`super::verify`]). It then
//! adds the exact states and concatenates the CSVs under one header (and
//! so the side CSVs, and the bundles of whole files, which have no header).
//! Statistics, histograms and files then equal the unsharded run's; only
//! the timing differs: the merged wall time is the span from the first
//! shard's start to the last one's end, and the shards' summed time is
//! recorded beside it.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use super::lock::acquire_all;
use super::output::{recorded_path, FileRecord, MergedTiming, OutputPart, Summary, SUMMARY_FORMAT};
use super::report::summary_table;
use super::runner::{check_distinct, commit_reports, stage_reports, RunError};
use super::sink::{Destination, StreamSink};
use super::stats::Accumulator;
use super::verify::{read_summary, verify_file};
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

    let requested: Vec<(OutputPart, &Path)> = OutputPart::ALL
        .into_iter()
        .filter_map(|part| merged_path(config, part).map(|p| (part, p)))
        .collect();
    let resolve = |flag: &str, p: &Path| {
        Destination::resolve(p)
            .map_err(|e| RunError::Input(format!("cannot write {flag} '{}': {e}", p.display())))
    };
    let mut dests = Vec::new();
    for (part, p) in &requested {
        dests.push((*part, resolve(flag(*part), p)?));
    }
    let summary_dest = config
        .summary
        .as_deref()
        .map(|p| resolve("--summary", p))
        .transpose()?;
    let mut named: Vec<(&str, Option<&Destination>)> = dests
        .iter()
        .map(|(part, d)| (flag(*part), Some(d)))
        .collect();
    named.push(("--summary", summary_dest.as_ref()));
    check_distinct(&named)?;
    // Owned by this merge alone until it ends (as a run's outputs are).
    let owned: Vec<&Path> = dests
        .iter()
        .map(|(_, d)| d)
        .chain(summary_dest.as_ref())
        .filter_map(|d| match d {
            Destination::Atomic(p) => Some(p.as_path()),
            _ => None,
        })
        // A histogram folder whose parent is missing is made later, with
        // its parents: nobody else can be writing it now.
        .chain(config.hist.as_deref().filter(|h| {
            h.parent()
                .is_none_or(|p| p.as_os_str().is_empty() || p.is_dir())
        }))
        .collect();
    let _locks = acquire_all(owned).map_err(|e| RunError::Input(e.to_string()))?;

    // Every shard file to be joined is verified before anything is written.
    let mut sources: Vec<Vec<PathBuf>> = Vec::new();
    for (part, _) in &requested {
        let mut files = Vec::with_capacity(shards.len());
        for (path, s) in &shards {
            let file = verify_file(path, s, *part)?.ok_or_else(|| {
                RunError::Input(format!(
                    "{} has no {} file (run the shard with {} FILE and --summary) so {} cannot \
                     be merged",
                    path.display(),
                    part.what(),
                    flag(*part),
                    flag(*part)
                ))
            })?;
            files.push(file);
        }
        sources.push(files);
    }
    // Shards' rows as Parquet are joined as Parquet, into a Parquet file.
    let mut parquet = false;
    if let Some(at) = requested.iter().position(|(p, _)| *p == OutputPart::Csv) {
        let kinds: Vec<bool> = sources[at]
            .iter()
            .map(|f| super::verify::is_parquet(f))
            .collect();
        parquet = kinds.iter().all(|&k| k);
        if !parquet && kinds.iter().any(|&k| k) {
            return Err(RunError::Input(
                "some shards wrote their rows as Parquet and some as CSV: run them alike".into(),
            ));
        }
        let out = requested[at].1;
        let ext = out.extension().map(|e| e.to_ascii_lowercase());
        match (parquet, ext.as_ref().and_then(|e| e.to_str())) {
            (false, Some("parquet")) => {
                return Err(RunError::Input(format!(
                    "the shards wrote CSV, and --out '{}' names a Parquet file: merge into a \
                     .csv (or run the shards with Parquet output)",
                    out.display()
                )))
            }
            (true, Some("csv")) => {
                return Err(RunError::Input(format!(
                    "the shards wrote Parquet, and --out '{}' names a CSV file: merge into a \
                     .parquet",
                    out.display()
                )))
            }
            _ => {}
        }
    }

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
    let started = shards
        .iter()
        .map(|(_, s)| s.started_unix_s)
        .fold(f64::INFINITY, f64::min);
    let finished = shards
        .iter()
        .map(|(_, s)| s.finished_unix_s)
        .fold(f64::NEG_INFINITY, f64::max);
    let span = (finished - started).max(0.0);
    let mut merged = Summary {
        format: SUMMARY_FORMAT.to_string(),
        identity: first.identity.clone(),
        command: first.command.clone(),
        shard: None,
        first_game: 0,
        end_game: games,
        threads: shards.iter().map(|(_, s)| s.threads).max().unwrap_or(1),
        started_unix_s: started,
        finished_unix_s: finished,
        wall_time_s: span,
        games_per_s: if span > 0.0 { games as f64 / span } else { 0.0 },
        merged: Some(MergedTiming {
            shards: shards.len() as u64,
            shard_time_sum_s: shards.iter().map(|(_, s)| s.wall_time_s).sum(),
        }),
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
        agents: Vec::new(),
        checksum: String::new(),
    };
    merged.agents = crate::holdem::duplicate::agent_table(&merged.identity, &merged.metrics);

    // Join every requested output (synced, not yet final).
    let summary_at = config.summary.as_deref().unwrap_or(Path::new("-"));
    let mut joined = Vec::new();
    for (((part, given), (_, dest)), files) in requested.iter().zip(dests).zip(&sources) {
        let expected: Vec<&FileRecord> =
            shards.iter().filter_map(|(_, s)| part.record(s)).collect();
        let joined_files = if parquet && *part == OutputPart::Csv {
            join_parquet(files, &expected, dest)
        } else {
            concatenate(files, &expected, dest, *part)
        };
        let sink = match joined_files {
            Ok(sink) => sink,
            Err(e) => {
                joined.into_iter().for_each(|s: StreamSink| s.abandon());
                return Err(e);
            }
        };
        *part.record_mut(&mut merged) = Some(FileRecord::new(
            sink.destination()
                .filter(|d| d.is_regular())
                .map(|_| recorded_path(given, summary_at)),
            sink.rows(),
            sink.bytes(),
            sink.digest(),
        ));
        joined.push(sink);
    }
    let reports = match stage_reports(
        &mut merged,
        &metrics,
        &accs,
        config.summary.as_deref(),
        config.hist.as_deref(),
    ) {
        Ok(r) => r,
        Err(e) => {
            joined.into_iter().for_each(StreamSink::abandon);
            return Err(e);
        }
    };
    for sink in joined {
        let name = sink
            .destination()
            .map_or("the output".into(), Destination::describe);
        sink.commit()
            .map_err(RunError::io(format!("cannot rename {name} into place")))?;
    }
    commit_reports(reports)?;
    if !config.quiet {
        let _ = io::stderr().write_all(summary_table(&merged).as_bytes());
    }
    Ok(merged)
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

/// The merged output asked for `part`.
fn merged_path(config: &MergeConfig, part: OutputPart) -> Option<&Path> {
    match part {
        OutputPart::Csv => config.out.as_deref(),
        OutputPart::SideCsv => config.side_out.as_deref(),
        OutputPart::Bundle => config.bundle_out.as_deref(),
    }
}

/// The option that writes `part` (the same for a shard and for merge).
fn flag(part: OutputPart) -> &'static str {
    match part {
        OutputPart::Csv => "--out",
        OutputPart::SideCsv => "--pots",
        OutputPart::Bundle => "--phh",
    }
}

/// Joins the shards' Parquet files into one (see
/// [`super::parquet::join`]), synced, not yet final. Each file was verified
/// before; one changed since is caught by its rows and columns only, so the
/// files are hashed again first.
fn join_parquet(
    files: &[PathBuf],
    expected: &[&FileRecord],
    dest: Destination,
) -> Result<StreamSink, RunError> {
    for (path, record) in files.iter().zip(expected) {
        let mut hasher = blake3::Hasher::new();
        let mut f = File::open(path).map_err(RunError::io(format!(
            "cannot read shard file {}",
            path.display()
        )))?;
        std::io::copy(&mut f, &mut super::sink::HashWriter(&mut hasher))
            .map_err(RunError::io(format!("cannot read {}", path.display())))?;
        if hasher.finalize().to_hex().as_str() != record.blake3 {
            return Err(RunError::Input(format!(
                "{} changed while it was being merged",
                path.display()
            )));
        }
    }
    let sink = StreamSink::create(dest.clone())
        .map_err(|e| RunError::Input(format!("cannot write --out '{}': {e}", dest.describe())))?;
    let joined = super::parquet::join(files, super::parquet::SinkWriter::new(sink))
        .and_then(|done| Ok((done.inner.into_sink()?, done.rows)));
    let (mut sink, rows) = joined.map_err(|e| {
        // The partial file is removed by the caller's clean-up of `dest`.
        if let Destination::Atomic(p) = &dest {
            let _ = std::fs::remove_file(super::sink::partial_path(p));
        }
        RunError::io(format!("cannot write {}", dest.describe()))(e.into_io())
    })?;
    sink.add_rows(rows);
    if let Err(e) = sink.sync() {
        sink.abandon();
        return Err(RunError::io(format!("cannot write {}", dest.describe()))(e));
    }
    Ok(sink)
}

/// Writes the shards' files one after another (CSVs under the first one's
/// header) into a synced, not yet final, output. Each file is hashed again
/// as it is copied: a file changed since it was verified is refused.
fn concatenate(
    files: &[PathBuf],
    expected: &[&FileRecord],
    dest: Destination,
    part: OutputPart,
) -> Result<StreamSink, RunError> {
    let what = part.what();
    let mut sink = StreamSink::create(dest.clone()).map_err(|e| {
        RunError::Input(format!(
            "cannot write {} '{}': {e}",
            flag(part),
            dest.describe()
        ))
    })?;
    let written = (|| {
        let mut header: Option<Vec<u8>> = None;
        for (path, record) in files.iter().zip(expected) {
            let file = File::open(path).map_err(RunError::io(format!(
                "cannot read shard {what} {}",
                path.display()
            )))?;
            let mut reader = BufReader::with_capacity(1 << 20, file);
            let mut hasher = blake3::Hasher::new();
            if part.has_header() {
                let mut first = Vec::new();
                reader
                    .read_until(b'\n', &mut first)
                    .map_err(RunError::io(format!("cannot read {}", path.display())))?;
                hasher.update(&first);
                match &header {
                    None => {
                        sink.write(&first, 0)
                            .map_err(RunError::io(format!("cannot write {}", dest.describe())))?;
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
            }
            let mut buf = vec![0u8; 1 << 20];
            loop {
                let n = reader
                    .read(&mut buf)
                    .map_err(RunError::io(format!("cannot read {}", path.display())))?;
                if n == 0 {
                    break;
                }
                hasher.update(&buf[..n]);
                sink.write(&buf[..n], 0)
                    .map_err(RunError::io(format!("cannot write {}", dest.describe())))?;
            }
            if hasher.finalize().to_hex().as_str() != record.blake3 {
                return Err(RunError::Input(format!(
                    "{} changed while it was being merged",
                    path.display()
                )));
            }
            sink.add_rows(record.rows);
        }
        sink.sync()
            .map_err(RunError::io(format!("cannot write {}", dest.describe())))
    })();
    match written {
        Ok(()) => Ok(sink),
        Err(e) => {
            sink.abandon();
            Err(e)
        }
    }
}
