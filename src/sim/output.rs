//! Everything the runner writes: the CSV sink, the summary (JSON and the
//! terminal table), histogram files and resume checkpoints.
//!
//! Files are written under a temporary name (`<path>.partial`) and renamed
//! when complete, so an interrupted run never leaves a file that looks
//! complete under its final name.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::stats::{AccumulatorState, MetricSummary};

/// The temporary name a file is written under until it is complete.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".partial");
    PathBuf::from(s)
}

/// The resume checkpoint that sits beside a partial CSV.
pub fn checkpoint_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".partial.ckpt");
    PathBuf::from(s)
}

/// Writes `bytes` to `path` atomically: a temporary file, then a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = partial_path(path);
    {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)
}

/// Where the CSV rows go.
pub enum CsvSink {
    /// Rows are counted but written nowhere (no `--out`).
    Discard,
    Stdout(BufWriter<io::Stdout>),
    File {
        writer: BufWriter<File>,
        partial: PathBuf,
        path: PathBuf,
        /// Bytes written so far (the resume point after a flush).
        bytes: u64,
    },
}

impl CsvSink {
    /// Opens a fresh CSV file under its temporary name.
    pub fn create(path: &Path) -> io::Result<CsvSink> {
        let partial = partial_path(path);
        let file = File::create(&partial)?;
        Ok(CsvSink::File {
            writer: BufWriter::with_capacity(1 << 20, file),
            partial,
            path: path.to_path_buf(),
            bytes: 0,
        })
    }

    /// Reopens a partial CSV cut back to `bytes` (its last checkpointed row).
    pub fn reopen(path: &Path, bytes: u64) -> io::Result<CsvSink> {
        let partial = partial_path(path);
        let mut file = OpenOptions::new().write(true).open(&partial)?;
        let len = file.metadata()?.len();
        if len < bytes {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} has {len} bytes, fewer than its checkpoint's {bytes}",
                    partial.display()
                ),
            ));
        }
        file.set_len(bytes)?;
        file.seek(SeekFrom::End(0))?;
        Ok(CsvSink::File {
            writer: BufWriter::with_capacity(1 << 20, file),
            partial,
            path: path.to_path_buf(),
            bytes,
        })
    }

    pub fn stdout() -> CsvSink {
        CsvSink::Stdout(BufWriter::with_capacity(1 << 16, io::stdout()))
    }

    pub fn write(&mut self, data: &[u8]) -> io::Result<()> {
        match self {
            CsvSink::Discard => Ok(()),
            CsvSink::Stdout(w) => w.write_all(data),
            CsvSink::File { writer, bytes, .. } => {
                writer.write_all(data)?;
                *bytes += data.len() as u64;
                Ok(())
            }
        }
    }

    pub fn flush(&mut self) -> io::Result<()> {
        match self {
            CsvSink::Discard => Ok(()),
            CsvSink::Stdout(w) => w.flush(),
            CsvSink::File { writer, .. } => writer.flush(),
        }
    }

    /// Bytes written to a file sink (0 otherwise).
    pub fn bytes(&self) -> u64 {
        match self {
            CsvSink::File { bytes, .. } => *bytes,
            _ => 0,
        }
    }

    /// Flushes, syncs and renames a file to its final name.
    pub fn finish(self) -> io::Result<()> {
        match self {
            CsvSink::Discard => Ok(()),
            CsvSink::Stdout(mut w) => w.flush(),
            CsvSink::File {
                writer,
                partial,
                path,
                ..
            } => {
                let file = writer.into_inner().map_err(|e| e.into_error())?;
                file.sync_all()?;
                drop(file);
                fs::rename(partial, path)
            }
        }
    }
}

/// What identifies a run: two runs (or shards) with equal identities play the
/// same games.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct RunIdentity {
    pub game: String,
    pub version: String,
    pub seed: u64,
    /// Games in the whole run (all shards).
    pub games: u64,
    pub options: BTreeMap<String, String>,
}

/// A shard's position, as written in the summary.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ShardInfo {
    pub index: u64,
    pub count: u64,
}

/// The summary of a run or a shard (`--summary`), also `merge`'s input.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary {
    #[serde(flatten)]
    pub identity: RunIdentity,
    pub shard: Option<ShardInfo>,
    /// Games covered: `[first_game, end_game)`.
    pub first_game: u64,
    pub end_game: u64,
    pub threads: usize,
    pub wall_time_s: f64,
    pub games_per_s: f64,
    /// The CSV file of this run, relative to the summary's directory when it
    /// sits there, so a folder of shards can be moved as a whole.
    pub csv: Option<String>,
    /// The side CSV (hold'em's `--pots`), recorded like `csv`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_csv: Option<String>,
    /// The file bundling the game's whole files (hold'em's `--phh
    /// FILE.phhs`), recorded like `csv`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle: Option<String>,
    pub metrics: Vec<MetricSummary>,
    /// Exact state of every metric, for `merge`.
    pub state: Vec<AccumulatorState>,
}

/// A resume checkpoint: how far the partial CSV is complete, and the exact
/// statistics up to there.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    #[serde(flatten)]
    pub identity: RunIdentity,
    pub shard: Option<ShardInfo>,
    pub next_game: u64,
    pub csv_bytes: u64,
    /// Bytes of the side CSV (hold'em's `--pots`) at the checkpoint.
    #[serde(default)]
    pub side_bytes: u64,
    /// Bytes of the bundled files (hold'em's `--phh FILE.phhs`).
    #[serde(default)]
    pub bundle_bytes: u64,
    pub elapsed_s: f64,
    pub state: Vec<AccumulatorState>,
}

/// An output's path as recorded in a summary written to `summary_path`.
pub fn csv_reference(csv: &Path, summary_path: &Path) -> String {
    let csv_dir = csv.parent().filter(|p| !p.as_os_str().is_empty());
    let sum_dir = summary_path.parent().filter(|p| !p.as_os_str().is_empty());
    let same_dir = match (csv_dir, sum_dir) {
        (None, None) => true,
        (Some(a), Some(b)) => fs::canonicalize(a).ok() == fs::canonicalize(b).ok(),
        (Some(a), None) | (None, Some(a)) => {
            fs::canonicalize(a).ok() == std::env::current_dir().ok()
        }
    };
    match (same_dir, csv.file_name()) {
        (true, Some(name)) => name.to_string_lossy().into_owned(),
        _ => fs::canonicalize(csv.parent().unwrap_or(Path::new(".")))
            .map(|d| d.join(csv.file_name().unwrap_or_default()))
            .unwrap_or_else(|_| csv.to_path_buf())
            .to_string_lossy()
            .into_owned(),
    }
}
