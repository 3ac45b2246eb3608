//! Batch experiments: one spec, a grid of runs (cells), one tidy table.
//!
//! A sweep's folder explains itself: one hive-style sub-folder per cell
//! (`players=3/reverse_captures=true/`) holding the cell's per-game CSV,
//! summary and histograms, and at the top `results.csv` (one row per cell
//! and metric) and `sweep.json`, the manifest that vouches for every file
//! (rows, bytes, BLAKE3) and for every cell's statistics. The command line
//! (`cardsim sweep`) runs the cells through the runner; this module holds
//! the spec, the names, the table and the checks.

pub mod spec;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::sim::output::{FileRecord, OutputPart, Summary};
use crate::sim::runner::RunError;
use crate::sim::seal::Sealed;
use crate::sim::sink::read_bounded;
use crate::sim::stats::MetricSummary;
use crate::sim::verify::{read_summary, verify_file};
pub use spec::{Spec, Value};

/// The manifest's format (refused if different).
pub const MANIFEST_FORMAT: &str = "cardsim-sweep/1";
/// The manifest's name in a sweep's folder.
pub const MANIFEST: &str = "sweep.json";
/// The tidy table's name.
pub const RESULTS_CSV: &str = "results.csv";
/// The same table as Parquet.
pub const RESULTS_PARQUET: &str = "results.parquet";
/// A cell's files, in its folder.
pub const CELL_CSV: &str = "games.csv";
/// A cell's per-game rows with `--format parquet`.
pub const CELL_PARQUET: &str = "games.parquet";
pub const CELL_SUMMARY: &str = "summary.json";
pub const CELL_HIST: &str = "hist";

/// Manifests larger than this are not read.
const MAX_MANIFEST_BYTES: u64 = 256 << 20;

/// Why a sweep could not be read, run or verified.
#[derive(Debug, Error)]
pub enum SweepError {
    /// A bad spec or override (exit status 2): the message names the key.
    #[error("sweep spec: {0}")]
    Spec(String),
    /// A folder that is not what its manifest vouches for (exit status 2).
    #[error("{0}")]
    Verify(String),
    /// A cell's run failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// An I/O failure while writing the folder (exit status 1).
    #[error("{what}: {cause}")]
    Io { what: String, cause: std::io::Error },
}

impl SweepError {
    pub fn is_bad_input(&self) -> bool {
        match self {
            SweepError::Spec(_) | SweepError::Verify(_) => true,
            SweepError::Run(r) => r.is_bad_input(),
            SweepError::Io { .. } => false,
        }
    }
}

/// One cell as the manifest records it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CellRecord {
    /// The cell's folder, relative to the sweep's.
    pub dir: String,
    /// The swept keys' values, in the order of [`Manifest::keys`].
    pub params: Vec<String>,
    pub seed: u64,
    /// The cell's game command (after `cardsim`), as its summary records it.
    pub command: Vec<String>,
    /// BLAKE3 of the cell summary's exact statistics (its `state`, as
    /// JSON): the summary itself holds timings, which differ run to run.
    pub stats_blake3: String,
    /// Every file of the cell but its summary, paths relative to the cell's
    /// folder, sorted.
    pub files: Vec<FileRecord>,
}

/// `sweep.json`: what the sweep ran and every file it vouches for. Holds
/// nothing that depends on when or how fast it ran, so an interrupted and
/// resumed sweep writes the same bytes as an uncut one.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub version: String,
    pub game: String,
    pub games: Option<u64>,
    pub seed: u64,
    pub seed_per_cell: bool,
    /// The base options, as `[key, value]`.
    pub base: Vec<[String; 2]>,
    pub keys: Vec<String>,
    pub cells: Vec<CellRecord>,
    /// The files at the top (results.csv, ...), paths relative to the
    /// sweep's folder.
    pub files: Vec<FileRecord>,
    /// BLAKE3 of this manifest's JSON with this field empty.
    #[serde(default)]
    pub checksum: String,
}

impl Sealed for Manifest {
    fn checksum_mut(&mut self) -> &mut String {
        &mut self.checksum
    }
}

impl Manifest {
    /// Reads and checks a manifest.
    pub fn read(path: &Path) -> Result<Manifest, SweepError> {
        let bad = |why: String| SweepError::Verify(format!("{}: {why}", path.display()));
        let bytes = read_bounded(path, MAX_MANIFEST_BYTES).map_err(bad)?;
        let value: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| bad(format!("is not JSON ({e})")))?;
        if value.get("format").and_then(|f| f.as_str()) != Some(MANIFEST_FORMAT) {
            return Err(bad(format!(
                "is not a sweep manifest of format '{MANIFEST_FORMAT}'"
            )));
        }
        let m: Manifest = serde_json::from_value(value)
            .map_err(|e| bad(format!("is not a cardsim sweep manifest ({e})")))?;
        let sum = m.content_hash().map_err(|e| bad(e.to_string()))?;
        if sum != m.checksum {
            return Err(bad(
                "its checksum does not match its content (edited or damaged after cardsim \
                 wrote it)"
                    .into(),
            ));
        }
        Ok(m)
    }
}

/// BLAKE3 of a summary's exact statistics.
pub fn stats_digest(s: &Summary) -> String {
    let json = serde_json::to_vec(&s.state).unwrap_or_default();
    blake3::hash(&json).to_hex().to_string()
}

/// The record of a whole file: rows (data lines after a CSV header, else
/// 0), bytes and BLAKE3; `rel` is the path recorded.
pub fn file_record(path: &Path, rel: &str, rows: u64) -> Result<FileRecord, std::io::Error> {
    let mut hasher = blake3::Hasher::new();
    let mut f = std::fs::File::open(path)?;
    let bytes = std::io::copy(&mut f, &mut hasher)?;
    Ok(FileRecord::new(
        Some(PathBuf::from(rel)),
        rows,
        bytes,
        hasher.finalize().to_hex().to_string(),
    ))
}

/// Every file of a cell's folder but its summary (and files of a run in
/// progress: `.partial`, `.lock`, checkpoints), relative paths, sorted.
pub fn cell_files(cell_dir: &Path) -> Result<Vec<String>, std::io::Error> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let path = entry.path();
            let rel = path
                .strip_prefix(root)
                .map_err(std::io::Error::other)?
                .to_string_lossy()
                .into_owned();
            if entry.file_type()?.is_dir() {
                walk(root, &path, out)?;
            } else if rel != CELL_SUMMARY
                && !rel.ends_with(".partial")
                && !rel.ends_with(".lock")
                && !rel.ends_with(".ckpt")
            {
                out.push(rel);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(cell_dir, cell_dir, &mut out)?;
    out.sort();
    Ok(out)
}

/// Formats a number for the table: shortest exact decimal, empty for none.
fn num(v: Option<f64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// One row of the tidy table: a cell's parameters and one metric's
/// summary, as its summary file holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRow {
    pub params: Vec<Value>,
    pub metric: MetricSummary,
}

impl ResultRow {
    /// The figures after `metric`, `kind` and `n`, in the order of
    /// [`spec::RESULT_COLUMNS`]: mean, ci95_low, ci95_high, sd, min, p50,
    /// p90, p99, p999, max.
    pub fn figures(&self) -> [Option<f64>; 10] {
        let m = &self.metric;
        [
            m.mean,
            m.ci95.map(|c| c[0]),
            m.ci95.map(|c| c[1]),
            m.sd,
            m.min,
            m.p50,
            m.p90,
            m.p99,
            m.p999,
            m.max,
        ]
    }
}

/// The tidy rows of a sweep: for every cell in order, one per metric of its
/// summary, in the summary's order.
pub fn result_rows(spec_cells: &[Vec<Value>], summaries: &[Summary]) -> Vec<ResultRow> {
    let mut rows = Vec::new();
    for (params, s) in spec_cells.iter().zip(summaries) {
        for m in &s.metrics {
            rows.push(ResultRow {
                params: params.clone(),
                metric: m.clone(),
            });
        }
    }
    rows
}

/// `results.csv`: the swept keys as columns, then `metric`, `kind`, `n`,
/// `mean`, `ci95_low`, `ci95_high`, `sd`, `min`, `p50`, `p90`, `p99`,
/// `p999`, `max` (empty where a metric has no such figure).
pub fn results_csv(keys: &[String], rows: &[ResultRow]) -> Result<Vec<u8>, SweepError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let io = |e: csv::Error| SweepError::Io {
        what: "cannot format results.csv".into(),
        cause: std::io::Error::other(e.to_string()),
    };
    let header: Vec<&str> = keys
        .iter()
        .map(String::as_str)
        .chain(spec::RESULT_COLUMNS)
        .collect();
    w.write_record(&header).map_err(io)?;
    for r in rows {
        let mut rec: Vec<String> = r.params.iter().map(Value::text).collect();
        rec.extend([
            r.metric.name.clone(),
            r.metric.kind.clone(),
            r.metric.count.to_string(),
        ]);
        rec.extend(r.figures().map(num));
        w.write_record(&rec).map_err(io)?;
    }
    w.into_inner().map_err(|e| SweepError::Io {
        what: "cannot format results.csv".into(),
        cause: std::io::Error::other(e.to_string()),
    })
}

/// The Arrow type of a parameter column, from its values as text: `int64`
/// when every value is a whole number, `float64` when every value is a
/// number, `bool` when every value is true or false, else `string`.
fn param_type(values: &[&str]) -> arrow_schema::DataType {
    use arrow_schema::DataType;
    if values.iter().all(|v| v.parse::<i64>().is_ok()) {
        DataType::Int64
    } else if values.iter().all(|v| v.parse::<f64>().is_ok()) {
        DataType::Float64
    } else if values.iter().all(|v| *v == "true" || *v == "false") {
        DataType::Boolean
    } else {
        DataType::Utf8
    }
}

/// `results.parquet`: the rows of `results.csv`, typed (parameters by
/// [`param_type`], `metric` and `kind` strings, `n` int64, the figures
/// float64 with nulls where the CSV is empty), zstd, with the sweep's game,
/// seed and version in its key-value metadata.
pub fn results_parquet(
    keys: &[String],
    rows: &[ResultRow],
    metadata: Vec<(String, String)>,
) -> Result<Vec<u8>, SweepError> {
    use std::sync::Arc;

    use arrow_array::{ArrayRef, BooleanArray, Float64Array, Int64Array, RecordBatch, StringArray};
    use arrow_schema::{DataType, Field, Schema};

    let fail = |e: &dyn std::fmt::Display| SweepError::Io {
        what: "cannot write results.parquet".into(),
        cause: std::io::Error::other(e.to_string()),
    };
    let mut fields = Vec::new();
    let mut arrays: Vec<ArrayRef> = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        let texts: Vec<String> = rows.iter().map(|r| r.params[i].text()).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let t = param_type(&refs);
        let array: ArrayRef = match t {
            DataType::Int64 => Arc::new(Int64Array::from_iter_values(
                refs.iter().map(|v| v.parse::<i64>().unwrap_or_default()),
            )),
            DataType::Float64 => Arc::new(Float64Array::from_iter_values(
                refs.iter().map(|v| v.parse::<f64>().unwrap_or_default()),
            )),
            DataType::Boolean => Arc::new(BooleanArray::from(
                refs.iter().map(|v| *v == "true").collect::<Vec<_>>(),
            )),
            _ => Arc::new(StringArray::from(refs.clone())),
        };
        fields.push(Field::new(key, t, false));
        arrays.push(array);
    }
    fields.push(Field::new("metric", DataType::Utf8, false));
    arrays.push(Arc::new(StringArray::from_iter_values(
        rows.iter().map(|r| r.metric.name.as_str()),
    )));
    fields.push(Field::new("kind", DataType::Utf8, false));
    arrays.push(Arc::new(StringArray::from_iter_values(
        rows.iter().map(|r| r.metric.kind.as_str()),
    )));
    fields.push(Field::new("n", DataType::Int64, false));
    arrays.push(Arc::new(Int64Array::from_iter_values(
        rows.iter()
            .map(|r| i64::try_from(r.metric.count).unwrap_or(i64::MAX)),
    )));
    let figures: Vec<[Option<f64>; 10]> = rows.iter().map(ResultRow::figures).collect();
    for (k, name) in spec::RESULT_COLUMNS[3..].iter().enumerate() {
        fields.push(Field::new(*name, DataType::Float64, true));
        arrays.push(Arc::new(Float64Array::from_iter(
            figures.iter().map(|f| f[k]),
        )));
    }
    let schema = Arc::new(Schema::new(fields));
    let batch = RecordBatch::try_new(schema.clone(), arrays).map_err(|e| fail(&e))?;
    let props = crate::sim::parquet::properties(metadata).map_err(|e| fail(&e))?;
    let mut w = parquet::arrow::ArrowWriter::try_new(Vec::new(), schema, Some(props))
        .map_err(|e| fail(&e))?;
    w.write(&batch).map_err(|e| fail(&e))?;
    w.into_inner().map_err(|e| fail(&e))
}

/// The key-value metadata of `results.parquet`.
pub fn results_metadata(m: &Manifest) -> Vec<(String, String)> {
    vec![
        ("cardsim.sweep".into(), MANIFEST_FORMAT.into()),
        ("cardsim.game".into(), m.game.clone()),
        ("cardsim.seed".into(), m.seed.to_string()),
        ("cardsim.seed_per_cell".into(), m.seed_per_cell.to_string()),
        (
            "cardsim.keys".into(),
            serde_json::to_string(&m.keys).unwrap_or_default(),
        ),
        ("cardsim.version".into(), m.version.clone()),
    ]
}

/// What [`verify`] found.
#[derive(Debug)]
pub struct Verified {
    pub manifest: Manifest,
    /// Files checked (the cells' and the top's).
    pub files: usize,
    /// Each cell's summary path.
    pub summaries: Vec<PathBuf>,
}

/// Checks a sweep's folder: the manifest's seal; every cell's summary (its
/// seal, its consistency, its files, its command and statistics as the
/// manifest records them); every file the manifest names (bytes, BLAKE3);
/// and `results.csv` against the table the summaries give.
pub fn verify(dir: &Path) -> Result<Verified, SweepError> {
    let manifest = Manifest::read(&dir.join(MANIFEST))?;
    let bad = |what: String| SweepError::Verify(format!("{}: {what}", dir.display()));
    let mut summaries = Vec::new();
    let mut paths = Vec::new();
    let mut files = 0;
    let mut cells = Vec::new();
    for cell in &manifest.cells {
        let cell_dir = dir.join(&cell.dir);
        let path = cell_dir.join(CELL_SUMMARY);
        let s = read_summary(&path)?;
        for part in OutputPart::ALL {
            verify_file(&path, &s, part)?;
        }
        if s.command != cell.command {
            return Err(bad(format!(
                "cell {}: its summary records another command than the manifest",
                cell.dir
            )));
        }
        if stats_digest(&s) != cell.stats_blake3 {
            return Err(bad(format!(
                "cell {}: its summary's statistics are not those the manifest vouches for",
                cell.dir
            )));
        }
        let names: Vec<String> = cell.files.iter().filter_map(|f| f.path.clone()).collect();
        let found = cell_files(&cell_dir)
            .map_err(|e| bad(format!("cell {}: cannot list its files ({e})", cell.dir)))?;
        if let Some(extra) = found.iter().find(|f| !names.contains(f)) {
            return Err(bad(format!(
                "cell {}: {extra} is not a file the manifest vouches for",
                cell.dir
            )));
        }
        for rec in &cell.files {
            check_record(&cell_dir, rec).map_err(|why| bad(format!("cell {}: {why}", cell.dir)))?;
            files += 1;
        }
        if cell.params.len() != manifest.keys.len() {
            return Err(bad(format!(
                "cell {}: its parameters are not the keys'",
                cell.dir
            )));
        }
        cells.push(
            cell.params
                .iter()
                .map(|p| Value::Str(p.clone()))
                .collect::<Vec<_>>(),
        );
        summaries.push(s);
        paths.push(path);
    }
    for rec in &manifest.files {
        check_record(dir, rec).map_err(bad)?;
        files += 1;
    }
    let table = results_csv(&manifest.keys, &result_rows(&cells, &summaries))?;
    let on_disk = std::fs::read(dir.join(RESULTS_CSV))
        .map_err(|e| bad(format!("cannot read {RESULTS_CSV} ({e})")))?;
    if on_disk != table {
        return Err(bad(format!(
            "{RESULTS_CSV} is not the table of the cells' summaries"
        )));
    }
    let rows = result_rows(&cells, &summaries);
    let pq = results_parquet(&manifest.keys, &rows, results_metadata(&manifest))?;
    let on_disk = std::fs::read(dir.join(RESULTS_PARQUET))
        .map_err(|e| bad(format!("cannot read {RESULTS_PARQUET} ({e})")))?;
    if on_disk != pq {
        return Err(bad(format!(
            "{RESULTS_PARQUET} is not the table of the cells' summaries"
        )));
    }
    Ok(Verified {
        manifest,
        files,
        summaries: paths,
    })
}

/// Checks one file against its record (bytes and BLAKE3).
fn check_record(dir: &Path, rec: &FileRecord) -> Result<(), String> {
    let rel = rec
        .recorded()?
        .ok_or_else(|| "the manifest names a file without a path".to_string())?;
    if rel.is_absolute()
        || rel
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        return Err(format!(
            "the manifest names {} outside the folder",
            rel.display()
        ));
    }
    let path = dir.join(&rel);
    let got = file_record(&path, "", rec.rows)
        .map_err(|e| format!("{} cannot be read ({e})", rel.display()))?;
    if got.bytes != rec.bytes || got.blake3 != rec.blake3 {
        return Err(format!(
            "{} is not the file the manifest vouches for (its size or BLAKE3 differs)",
            rel.display()
        ));
    }
    Ok(())
}
