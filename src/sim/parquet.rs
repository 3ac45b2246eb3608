//! Per-game rows as Parquet: the runner's CSV rows, typed as the Python
//! package's Arrow tables type them (`int64`, `float64` or `string`, empty
//! cells as nulls), zstd-compressed, written in row groups of
//! [`ROW_GROUP_ROWS`] rows as they stream in (memory bounded by one row
//! group, not by the run), with the run's command, seed and version in the
//! file's key-value metadata.
//!
//! The bytes depend only on the rows and the metadata, never on threads or
//! chunking: rows are grouped by count.

use std::io::{self, Write};
use std::sync::Arc;

use arrow_array::builder::{Float64Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

/// Rows per row group (and per batch handed to the Parquet writer).
pub const ROW_GROUP_ROWS: usize = 65_536;
/// The zstd level of every column.
pub const ZSTD_LEVEL: i32 = 3;

/// The type of a per-game column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    Int64,
    Float64,
    Utf8,
}

impl ColumnType {
    fn arrow(self) -> DataType {
        match self {
            ColumnType::Int64 => DataType::Int64,
            ColumnType::Float64 => DataType::Float64,
            ColumnType::Utf8 => DataType::Utf8,
        }
    }
}

/// Columns that are not integers, by game: the same table as the Python
/// package's (`_STRING_COLUMNS`, `_STRING_PREFIXES`, `_FLOAT_PREFIXES` in
/// python/cardsim/_run.py), so a Parquet file and `Run.to_arrow()` have
/// one schema. Every other column is `int64`.
pub fn column_type(game: &str, name: &str) -> ColumnType {
    let strings: &[&str] = match game {
        "fishing" => &["outcome"],
        "holdem" => &["street", "winning_category", "allin_street", "board"],
        "solve" => &["hand_a", "hand_b", "winner", "winning_first_moves"],
        _ => &[],
    };
    let string_prefixes: &[&str] = match game {
        "holdem" => &["hole_s"],
        _ => &[],
    };
    let float_prefixes: &[&str] = match game {
        "holdem" => &["equity_s", "ev_net_s", "agent_"],
        _ => &[],
    };
    if strings.contains(&name) || string_prefixes.iter().any(|p| name.starts_with(p)) {
        ColumnType::Utf8
    } else if float_prefixes.iter().any(|p| name.starts_with(p)) {
        ColumnType::Float64
    } else {
        ColumnType::Int64
    }
}

/// The Arrow schema of a game's rows: `game` and its columns, all nullable.
pub fn schema(game: &str, columns: &[String]) -> (SchemaRef, Vec<ColumnType>) {
    let mut types = vec![ColumnType::Int64];
    let mut fields = vec![Field::new("game", DataType::Int64, true)];
    for c in columns {
        let t = column_type(game, c);
        types.push(t);
        fields.push(Field::new(c, t.arrow(), true));
    }
    (Arc::new(Schema::new(fields)), types)
}

/// Why Parquet could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ParquetError {
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("Parquet: {0}")]
    Format(#[from] parquet::errors::ParquetError),
    #[error("Arrow: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
    /// A row the game wrote that its column types refuse (a bug).
    #[error("row of game {game}: column {column}: '{value}' is not {kind}")]
    Value {
        game: String,
        column: String,
        value: String,
        kind: &'static str,
    },
}

impl ParquetError {
    /// The I/O error underneath, if that is what it is.
    pub fn into_io(self) -> io::Error {
        match self {
            ParquetError::Io(e) => e,
            ParquetError::Format(parquet::errors::ParquetError::External(e)) => {
                match e.downcast::<io::Error>() {
                    Ok(e) => *e,
                    Err(e) => io::Error::other(e.to_string()),
                }
            }
            other => io::Error::other(other.to_string()),
        }
    }
}

/// A run's streamed output (its partial file, a device, stdout) as the
/// `io::Write` the Parquet writer writes to: it counts, hashes, and is
/// renamed into place like a CSV.
pub struct SinkWriter(pub super::sink::StreamSink);

impl Write for SinkWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf, 0)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Counts and hashes the bytes that pass through to `W`.
pub struct Counted<W> {
    inner: W,
    bytes: u64,
    hasher: blake3::Hasher,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

enum Column {
    Int(Int64Builder),
    Float(Float64Builder),
    Text(StringBuilder),
}

/// A Parquet file being written from CSV rows.
pub struct ParquetRows<W: Write + Send> {
    writer: ArrowWriter<Counted<W>>,
    schema: SchemaRef,
    columns: Vec<Column>,
    /// Rows in the builders, not yet handed to the writer.
    pending: usize,
    rows: u64,
}

/// What a finished Parquet file holds.
#[derive(Debug)]
pub struct Written<W> {
    pub inner: W,
    pub rows: u64,
    pub bytes: u64,
    pub blake3: String,
}

/// The writer properties every cardsim Parquet file is written with.
pub fn properties(metadata: Vec<(String, String)>) -> Result<WriterProperties, ParquetError> {
    Ok(WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(ZSTD_LEVEL)?))
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_created_by(format!("cardsim {}", env!("CARGO_PKG_VERSION")))
        .set_key_value_metadata(Some(
            metadata
                .into_iter()
                .map(|(k, v)| KeyValue::new(k, v))
                .collect(),
        ))
        .build())
}

impl<W: Write + Send> ParquetRows<W> {
    /// Starts a file of `game`'s rows (`columns` after `game`) on `out`.
    pub fn new(
        out: W,
        game: &str,
        columns: &[String],
        metadata: Vec<(String, String)>,
    ) -> Result<Self, ParquetError> {
        // The schema's fields are the column types' Arrow types.
        let (schema, _) = schema(game, columns);
        Self::with_schema(out, schema, metadata)
    }

    /// Starts a file with a given schema (of `int64`, `float64` and `utf8`
    /// columns) and metadata: what `merge` writes, from its shards' files.
    pub fn with_schema(
        out: W,
        schema: SchemaRef,
        metadata: Vec<(String, String)>,
    ) -> Result<Self, ParquetError> {
        let mut columns = Vec::new();
        for f in schema.fields() {
            columns.push(match f.data_type() {
                DataType::Int64 => Column::Int(Int64Builder::with_capacity(ROW_GROUP_ROWS)),
                DataType::Float64 => Column::Float(Float64Builder::with_capacity(ROW_GROUP_ROWS)),
                DataType::Utf8 => Column::Text(StringBuilder::new()),
                other => {
                    return Err(io::Error::other(format!(
                        "column {} is {other}, which cardsim does not write",
                        f.name()
                    ))
                    .into())
                }
            });
        }
        let counted = Counted {
            inner: out,
            bytes: 0,
            hasher: blake3::Hasher::new(),
        };
        let writer = ArrowWriter::try_new(counted, schema.clone(), Some(properties(metadata)?))?;
        Ok(ParquetRows {
            writer,
            schema,
            columns,
            pending: 0,
            rows: 0,
        })
    }

    /// Adds the rows of a batch of this file's schema; row groups are cut
    /// by count as when the rows came one by one.
    pub fn write_batch(&mut self, batch: &RecordBatch) -> Result<(), ParquetError> {
        use arrow_array::cast::AsArray;
        use arrow_array::types::{Float64Type, Int64Type};
        if batch.num_columns() != self.columns.len() {
            return Err(io::Error::other("a batch of another schema").into());
        }
        let mut at = 0;
        while at < batch.num_rows() {
            let take = (ROW_GROUP_ROWS - self.pending).min(batch.num_rows() - at);
            for (col, array) in self.columns.iter_mut().zip(batch.columns()) {
                let part = array.slice(at, take);
                let wrong = || io::Error::other("a column of another type");
                match col {
                    Column::Int(b) => b.extend(
                        part.as_primitive_opt::<Int64Type>()
                            .ok_or_else(wrong)?
                            .iter(),
                    ),
                    Column::Float(b) => b.extend(
                        part.as_primitive_opt::<Float64Type>()
                            .ok_or_else(wrong)?
                            .iter(),
                    ),
                    Column::Text(b) => {
                        for v in part.as_string_opt::<i32>().ok_or_else(wrong)?.iter() {
                            b.append_option(v);
                        }
                    }
                }
            }
            at += take;
            self.pending += take;
            self.rows += take as u64;
            if self.pending == ROW_GROUP_ROWS {
                self.flush_batch()?;
            }
        }
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Adds CSV rows (no header; the first field is the game), as the
    /// runner formats them.
    pub fn write_csv(&mut self, csv_rows: &[u8]) -> Result<(), ParquetError> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(false)
            .from_reader(csv_rows);
        let mut record = csv::ByteRecord::new();
        while reader
            .read_byte_record(&mut record)
            .map_err(|e| io::Error::other(format!("CSV rows: {e}")))?
        {
            self.push(&record)?;
        }
        Ok(())
    }

    pub(crate) fn push(&mut self, record: &csv::ByteRecord) -> Result<(), ParquetError> {
        if record.len() != self.columns.len() {
            return Err(io::Error::other(format!(
                "a row of {} fields for {} columns",
                record.len(),
                self.columns.len()
            ))
            .into());
        }
        for (i, (field, col)) in record.iter().zip(&mut self.columns).enumerate() {
            let text = std::str::from_utf8(field).unwrap_or("");
            let bad = |kind: &'static str| ParquetError::Value {
                game: String::from_utf8_lossy(record.get(0).unwrap_or_default()).into_owned(),
                column: self.schema.field(i).name().clone(),
                value: text.to_string(),
                kind,
            };
            match col {
                _ if field.is_empty() => match col {
                    Column::Int(b) => b.append_null(),
                    Column::Float(b) => b.append_null(),
                    Column::Text(b) => b.append_null(),
                },
                Column::Int(b) => b.append_value(text.parse().map_err(|_| bad("an integer"))?),
                Column::Float(b) => b.append_value(text.parse().map_err(|_| bad("a number"))?),
                Column::Text(b) => b.append_value(text),
            }
        }
        self.pending += 1;
        self.rows += 1;
        if self.pending == ROW_GROUP_ROWS {
            self.flush_batch()?;
        }
        Ok(())
    }

    fn flush_batch(&mut self) -> Result<(), ParquetError> {
        if self.pending == 0 {
            return Ok(());
        }
        let arrays: Vec<ArrayRef> = self
            .columns
            .iter_mut()
            .map(|c| -> ArrayRef {
                match c {
                    Column::Int(b) => Arc::new(b.finish()),
                    Column::Float(b) => Arc::new(b.finish()),
                    Column::Text(b) => Arc::new(b.finish()),
                }
            })
            .collect();
        let batch = RecordBatch::try_new(self.schema.clone(), arrays)?;
        self.writer.write(&batch)?;
        self.pending = 0;
        Ok(())
    }

    /// Writes the last row group and the footer; returns the output.
    pub fn finish(mut self) -> Result<Written<W>, ParquetError> {
        self.flush_batch()?;
        // Flushes the last row group and writes the footer.
        let mut counted = self.writer.into_inner()?;
        counted.flush()?;
        Ok(Written {
            bytes: counted.bytes,
            blake3: counted.hasher.finalize().to_hex().to_string(),
            inner: counted.inner,
            rows: self.rows,
        })
    }
}

/// Converts a run's staged CSV (header and rows) into its Parquet file.
#[derive(Clone, Debug)]
pub struct Conversion {
    pub game: String,
    pub columns: Vec<String>,
    pub metadata: Vec<(String, String)>,
}

impl Conversion {
    /// Where the Parquet file is written before it is renamed into place:
    /// `PATH.converting.partial`.
    pub fn target(path: &std::path::Path) -> std::path::PathBuf {
        let mut s = path.as_os_str().to_owned();
        s.push(".converting.partial");
        std::path::PathBuf::from(s)
    }

    /// Reads the CSV at `csv` and writes (and syncs) the Parquet file at
    /// `target`: the same bytes as rows streamed straight to Parquet.
    pub fn run(
        &self,
        csv: &std::path::Path,
        target: &std::path::Path,
    ) -> Result<Written<()>, ParquetError> {
        let input = std::fs::File::open(csv)?;
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(io::BufReader::with_capacity(1 << 20, input));
        let out = io::BufWriter::with_capacity(1 << 20, std::fs::File::create(target)?);
        let mut rows = ParquetRows::new(out, &self.game, &self.columns, self.metadata.clone())?;
        let mut record = csv::ByteRecord::new();
        while reader
            .read_byte_record(&mut record)
            .map_err(|e| io::Error::other(format!("the staged CSV {}: {e}", csv.display())))?
        {
            rows.push(&record)?;
        }
        let done = rows.finish()?;
        let file = done.inner.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        Ok(Written {
            inner: (),
            rows: done.rows,
            bytes: done.bytes,
            blake3: done.blake3,
        })
    }
}

/// The key-value metadata of a run's Parquet file: the command that makes
/// it (without the flags that never change the rows: threads, resume,
/// quiet, progress), the seed, the games, the game, its options and the
/// version.
pub fn run_metadata(
    identity: &super::output::RunIdentity,
    command: &[String],
    shard: Option<super::Shard>,
) -> Vec<(String, String)> {
    let command = stable_command(command);
    let mut kv = vec![
        (
            "cardsim.command".to_string(),
            serde_json::to_string(&command).unwrap_or_default(),
        ),
        ("cardsim.game".to_string(), identity.game.clone()),
        ("cardsim.seed".to_string(), identity.seed.to_string()),
        ("cardsim.games".to_string(), identity.games.to_string()),
        ("cardsim.version".to_string(), identity.version.clone()),
        (
            "cardsim.options".to_string(),
            serde_json::to_string(&identity.options).unwrap_or_default(),
        ),
    ];
    if let Some(s) = shard {
        kv.push((
            "cardsim.shard".to_string(),
            format!("{}/{}", s.index, s.count),
        ));
    }
    kv
}

/// The command as the metadata records it: without the flags that never
/// change the rows (threads, resume, quiet, progress), the outputs' paths
/// and format, and the shard (kept as `cardsim.shard`), so that a merged file and the
/// unsharded run's carry the same metadata.
pub fn stable_command(command: &[String]) -> Vec<String> {
    const WITH_VALUE: [&str; 11] = [
        "-j",
        "--format",
        "--threads",
        "--checkpoint-every",
        "-o",
        "--out",
        "--summary",
        "--hist",
        "--pots",
        "--phh",
        "--shard",
    ];
    const ALONE: [&str; 5] = ["--resume", "-q", "--quiet", "--progress", "--embedded"];
    let mut out = Vec::new();
    let mut words = command.iter();
    while let Some(w) = words.next() {
        let joined = w
            .split_once('=')
            .is_some_and(|(flag, _)| WITH_VALUE.contains(&flag) && flag.starts_with("--"));
        let glued = ["-j", "-o"]
            .iter()
            .any(|f| w.starts_with(f) && w.len() > 2 && !w.starts_with("--"));
        if WITH_VALUE.contains(&w.as_str()) {
            words.next();
        } else if !(ALONE.contains(&w.as_str()) || joined || glued) {
            out.push(w.clone());
        }
    }
    out
}

/// Joins the Parquet files of shards, in order, into one file on `out`:
/// the first file's schema and metadata (without `cardsim.shard`), row
/// groups cut as in an unsharded run, so the bytes are that run's.
pub fn join<W: Write + Send>(
    files: &[std::path::PathBuf],
    out: W,
) -> Result<Written<W>, ParquetError> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let open = |p: &std::path::Path| -> Result<_, ParquetError> {
        Ok(ParquetRecordBatchReaderBuilder::try_new(
            std::fs::File::open(p)?,
        )?)
    };
    let Some(first) = files.first() else {
        return Err(io::Error::other("no files to join").into());
    };
    let head = open(first)?;
    // The columns only: the reader's schema also carries the file's
    // key-value metadata, which the writer would embed a second time.
    let schema: SchemaRef = Arc::new(Schema::new(
        head.schema()
            .fields()
            .iter()
            .map(|f| Field::new(f.name(), f.data_type().clone(), f.is_nullable()))
            .collect::<Vec<_>>(),
    ));
    let metadata: Vec<(String, String)> = head
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .map(|kv| {
            kv.iter()
                .filter(|k| k.key != "ARROW:schema" && k.key != "cardsim.shard")
                .map(|k| (k.key.clone(), k.value.clone().unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default();
    let mut rows = ParquetRows::with_schema(out, schema.clone(), metadata)?;
    for path in files {
        let builder = open(path)?;
        let same = builder.schema().fields().len() == schema.fields().len()
            && builder
                .schema()
                .fields()
                .iter()
                .zip(schema.fields())
                .all(|(a, b)| a.name() == b.name() && a.data_type() == b.data_type());
        if !same {
            return Err(io::Error::other(format!(
                "{} has other columns than {}",
                path.display(),
                first.display()
            ))
            .into());
        }
        for batch in builder.with_batch_size(ROW_GROUP_ROWS).build()? {
            rows.write_batch(&batch?)?;
        }
    }
    rows.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_follow_the_python_table() {
        assert_eq!(column_type("holdem", "street"), ColumnType::Utf8);
        assert_eq!(column_type("holdem", "equity_s0"), ColumnType::Float64);
        assert_eq!(column_type("holdem", "net_s0"), ColumnType::Int64);
        assert_eq!(column_type("fishing", "outcome"), ColumnType::Utf8);
        assert_eq!(column_type("tienlen", "winner"), ColumnType::Int64);
        assert_eq!(column_type("solve", "winner"), ColumnType::Utf8);
    }

    #[test]
    fn the_bytes_depend_on_the_rows_not_on_how_they_arrive() {
        let cols = vec!["outcome".to_string(), "cards_played".to_string()];
        let rows: Vec<String> = (0..150_000)
            .map(|i| format!("{i},{},{}\n", if i % 3 == 0 { "" } else { "win" }, i * 7))
            .collect();
        let write = |cut: usize| {
            let mut w = ParquetRows::new(Vec::new(), "fishing", &cols, Vec::new()).unwrap();
            for part in rows.chunks(cut) {
                w.write_csv(part.concat().as_bytes()).unwrap();
            }
            let done = w.finish().unwrap();
            assert_eq!(done.rows, 150_000);
            assert_eq!(done.bytes, done.inner.len() as u64);
            done.inner
        };
        let a = write(1000);
        assert_eq!(a, write(777));
        assert_eq!(&a[..4], b"PAR1");
    }

    #[test]
    fn thread_and_resume_flags_leave_the_command() {
        let c: Vec<String> = [
            "fishing",
            "-n",
            "5",
            "-j",
            "2",
            "-j4",
            "--threads=3",
            "--resume",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(stable_command(&c), ["fishing", "-n", "5"]);
    }

    #[test]
    fn a_value_that_does_not_fit_its_column_is_an_error() {
        let cols = vec!["cards_played".to_string()];
        let mut w = ParquetRows::new(Vec::new(), "fishing", &cols, Vec::new()).unwrap();
        let e = w.write_csv(b"0,abc\n").unwrap_err().to_string();
        assert!(e.contains("cards_played") && e.contains("abc"), "{e}");
    }
}
