//! What a run's summary says: the run's identity, the games it covers, its
//! timing, the files it wrote (each with rows, bytes and a BLAKE3 hash, so
//! the summary vouches for them), the statistics and their exact state.
//!
//! A summary is sealed with a checksum over its own content
//! ([`Summary::seal`]): `merge` and `verify` refuse one that was edited
//! after cardsim wrote it.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::seal::Sealed;
use super::stats::{AccumulatorState, MetricSummary};

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

/// The summary format written by this version (refused if different).
pub const SUMMARY_FORMAT: &str = "cardsim-summary/2";

/// A file a summary vouches for: where it is, and exactly what it holds.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct FileRecord {
    /// Relative to the summary's directory (absolute only when no relative
    /// path exists); `None` when the output went to stdout, a device or a
    /// FIFO, which cannot be read back. A path that is not valid UTF-8 is
    /// shown here with U+FFFD for its bad bytes, and recorded exactly in
    /// `path_hex`.
    pub path: Option<String>,
    /// Only for a path that is not valid UTF-8 (Unix paths are bytes): the
    /// path's bytes in lowercase hex, which readers use instead of `path`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_hex: Option<String>,
    /// Data rows (CSV, after the header) or sections (a `.phhs` bundle).
    pub rows: u64,
    pub bytes: u64,
    /// BLAKE3 of the whole file, in hex.
    pub blake3: String,
}

impl FileRecord {
    /// The record of a file at `path` as recorded (see [`recorded_path`]),
    /// or of a stream (`None`).
    pub fn new(path: Option<PathBuf>, rows: u64, bytes: u64, blake3: String) -> FileRecord {
        let (shown, hex) = match path {
            None => (None, None),
            Some(p) => {
                let (shown, hex) = path_fields(&p);
                (Some(shown), hex)
            }
        };
        FileRecord {
            path: shown,
            path_hex: hex,
            rows,
            bytes,
            blake3,
        }
    }

    /// The recorded path, exactly as written (`path_hex` when present).
    pub fn recorded(&self) -> Result<Option<PathBuf>, String> {
        match (&self.path, &self.path_hex) {
            (_, Some(hex)) => decode_hex(hex)
                .map(|b| Some(PathBuf::from(std::ffi::OsString::from_vec(b))))
                .ok_or_else(|| format!("its path_hex '{}' is not hex", crate::text::quote(hex))),
            (Some(p), None) => Ok(Some(PathBuf::from(p))),
            (None, None) => Ok(None),
        }
    }
}

/// A path as a summary writes it: its text, and its bytes in hex when they
/// are not valid UTF-8.
fn path_fields(p: &Path) -> (String, Option<String>) {
    let bytes = p.as_os_str().as_bytes();
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), None),
        Err(_) => (
            String::from_utf8_lossy(bytes).into_owned(),
            Some(bytes.iter().map(|b| format!("{b:02x}")).collect()),
        ),
    }
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) || hex.bytes().any(|b| b.is_ascii_uppercase()) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The timing of a merged run: its shards' own times, summed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MergedTiming {
    pub shards: u64,
    /// The shards' wall times added up (the work's cost, not elapsed time).
    pub shard_time_sum_s: f64,
}

/// The summary of a run or a shard (`--summary`), also `merge`'s input.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary {
    /// [`SUMMARY_FORMAT`].
    pub format: String,
    #[serde(flatten)]
    pub identity: RunIdentity,
    /// The command-line arguments (after `cardsim`) that produced this run,
    /// for `cardsim verify --rerun`; empty when unknown (library use).
    #[serde(default)]
    pub command: Vec<String>,
    pub shard: Option<ShardInfo>,
    /// Games covered: `[first_game, end_game)`.
    pub first_game: u64,
    pub end_game: u64,
    pub threads: usize,
    /// When the run started and ended (Unix time, seconds). A resumed run
    /// keeps its first start; a merge spans its shards.
    pub started_unix_s: f64,
    pub finished_unix_s: f64,
    /// Seconds spent playing: the run's own time (a resumed run adds its
    /// parts); for a merge, the span from the first shard's start to the
    /// last one's end.
    pub wall_time_s: f64,
    /// Games per second of `wall_time_s`.
    pub games_per_s: f64,
    /// Only in a merged summary: the shards' summed time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<MergedTiming>,
    /// The CSV of this run.
    pub csv: Option<FileRecord>,
    /// The side CSV (hold'em's `--pots`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_csv: Option<FileRecord>,
    /// The file bundling the game's whole files (hold'em's `--phh
    /// FILE.phhs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle: Option<FileRecord>,
    pub metrics: Vec<MetricSummary>,
    /// Hold'em: one row per agent, each estimator's bb/100 with its
    /// interval over deal groups (derived from `metrics`:
    /// [`crate::holdem::duplicate::agent_table`]); absent for other games.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<crate::holdem::duplicate::AgentEstimates>,
    /// Exact state of every metric, for `merge`.
    pub state: Vec<AccumulatorState>,
    /// BLAKE3 of this summary's JSON with this field empty.
    #[serde(default)]
    pub checksum: String,
}

impl Sealed for Summary {
    fn checksum_mut(&mut self) -> &mut String {
        &mut self.checksum
    }
}

impl Summary {
    /// Parses a summary and checks its format and checksum.
    pub fn unseal(text: &str) -> Result<Summary, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("it is not JSON ({e})"))?;
        if value.get("format").and_then(|f| f.as_str()) != Some(SUMMARY_FORMAT) {
            return Err(format!(
                "it is not a summary of format '{SUMMARY_FORMAT}' (written by --summary of \
                 this cardsim version)"
            ));
        }
        let s: Summary = serde_json::from_value(value.clone())
            .map_err(|e| format!("it is not a cardsim summary ({e})"))?;
        let edited = || {
            "its checksum does not match its content (edited or damaged after cardsim wrote it)"
                .to_string()
        };
        // Exactly the fields cardsim writes: no field added, renamed or
        // left out (serde would ignore or default it).
        if serde_json::to_value(&s).ok().as_ref() != Some(&value) {
            return Err(edited());
        }
        let content = s
            .content_hash()
            .map_err(|e| format!("it cannot be re-encoded ({e})"))?;
        if content != s.checksum {
            return Err(edited());
        }
        Ok(s)
    }
}

/// The streamed outputs a run writes and a summary vouches for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputPart {
    Csv,
    SideCsv,
    Bundle,
}

impl OutputPart {
    pub const ALL: [OutputPart; 3] = [OutputPart::Csv, OutputPart::SideCsv, OutputPart::Bundle];

    /// What it is, for messages.
    pub fn what(self) -> &'static str {
        match self {
            OutputPart::Csv => "CSV",
            OutputPart::SideCsv => "pots CSV",
            OutputPart::Bundle => "bundle of hand histories",
        }
    }

    /// Only CSVs start with a header.
    pub fn has_header(self) -> bool {
        !matches!(self, OutputPart::Bundle)
    }

    pub fn record(self, s: &Summary) -> Option<&FileRecord> {
        match self {
            OutputPart::Csv => s.csv.as_ref(),
            OutputPart::SideCsv => s.side_csv.as_ref(),
            OutputPart::Bundle => s.bundle.as_ref(),
        }
    }

    pub fn record_mut(self, s: &mut Summary) -> &mut Option<FileRecord> {
        match self {
            OutputPart::Csv => &mut s.csv,
            OutputPart::SideCsv => &mut s.side_csv,
            OutputPart::Bundle => &mut s.bundle,
        }
    }
}

/// The current time as Unix seconds.
pub fn unix_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// An output's path as a summary at `summary_path` records it: relative
/// to the summary's directory, so a folder of results can be moved or
/// committed as a whole.
pub fn recorded_path(output: &Path, summary_path: &Path) -> PathBuf {
    let absolute = |p: &Path| -> PathBuf {
        let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
        let dir = fs::canonicalize(dir.unwrap_or(Path::new(".")))
            .unwrap_or_else(|_| dir.unwrap_or(Path::new(".")).to_path_buf());
        dir.join(p.file_name().unwrap_or_default())
    };
    let out = absolute(output);
    let sum = absolute(summary_path);
    let from = sum.parent().unwrap_or(Path::new("/"));
    relative_to(&out, from).unwrap_or(out)
}

/// `path` relative to the directory `base` (both absolute and normal).
fn relative_to(path: &Path, base: &Path) -> Option<PathBuf> {
    let p: Vec<Component> = path.components().collect();
    let b: Vec<Component> = base.components().collect();
    if p.first() != b.first() {
        return None;
    }
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    for c in &p[common..] {
        rel.push(c.as_os_str());
    }
    Some(rel)
}

/// Where a path recorded in the summary at `summary_path` is.
pub fn resolve_recorded(recorded: &Path, summary_path: &Path) -> PathBuf {
    let path = recorded;
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        summary_path.parent().unwrap_or(Path::new("")).join(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_paths_are_relative_to_the_summary() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("a/b")).unwrap();
        fs::create_dir_all(d.join("c")).unwrap();
        assert_eq!(
            recorded_path(&d.join("a/x.csv"), &d.join("a/s.json")),
            Path::new("x.csv")
        );
        assert_eq!(
            recorded_path(&d.join("c/x.csv"), &d.join("a/b/s.json")),
            Path::new("../../c/x.csv")
        );
        assert_eq!(
            recorded_path(&d.join("a/b/x.csv"), &d.join("s.json")),
            Path::new("a/b/x.csv")
        );
        let back = resolve_recorded(Path::new("../../c/x.csv"), &d.join("a/b/s.json"));
        assert_eq!(
            fs::canonicalize(back.parent().unwrap()).unwrap(),
            fs::canonicalize(d.join("c")).unwrap()
        );
    }

    #[test]
    fn a_path_that_is_not_utf8_is_recorded_exactly() {
        let raw = std::ffi::OsString::from_vec(b"out/bad\xff.csv".to_vec());
        let r = FileRecord::new(Some(PathBuf::from(&raw)), 1, 2, "h".into());
        assert_eq!(r.path.as_deref(), Some("out/bad\u{fffd}.csv"));
        assert_eq!(r.path_hex.as_deref(), Some("6f75742f626164ff2e637376"));
        assert_eq!(r.recorded().unwrap(), Some(PathBuf::from(raw)));
        let plain = FileRecord::new(Some(PathBuf::from("a.csv")), 1, 2, "h".into());
        assert_eq!(
            (plain.path.as_deref(), plain.path_hex),
            (Some("a.csv"), None)
        );
        let mut bad = r.clone();
        bad.path_hex = Some("zz".into());
        assert!(bad.recorded().is_err());
    }
}
