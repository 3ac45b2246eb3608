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

use arrow_array::RecordBatch;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::column::writer::ColumnCloseResult;
use parquet::file::metadata::KeyValue;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::page_index::offset_index::OffsetIndexMetaData;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;

mod chunk;
mod columns;

use chunk::ChunkEncoder;
use columns::Column;
pub(crate) use columns::{Book, RowColumns, Typed};

/// Rows per row group.
pub const ROW_GROUP_ROWS: usize = 65_536;
/// Rows per slice: rows that come as CSV text or Arrow batches are held as
/// columns a slice at a time and handed to the row group's column encoders
/// at each slice's end (a worker's typed rows go to them straight). The
/// encoders take the values one by one in order, so the bytes never depend
/// on how the rows arrive.
pub const SLICE_ROWS: usize = 8_192;
/// The zstd level of every column.
pub const ZSTD_LEVEL: i32 = 1;
/// The zstd window (log2 of its bytes) of every page: 64 KiB. On hold'em's
/// pages it costs no size (the file came out 0.06% smaller than with the
/// level's own window) and 10% less compression time (measured in
/// docs/performance.md); a reader needs less memory to decode it.
pub const ZSTD_WINDOW_LOG: u32 = 16;

/// The compressor of every page cardsim encodes.
fn page_compressor() -> io::Result<zstd::bulk::Compressor<'static>> {
    let mut c = zstd::bulk::Compressor::new(ZSTD_LEVEL)?;
    c.set_parameter(zstd::zstd_safe::CParameter::WindowLog(ZSTD_WINDOW_LOG))?;
    Ok(c)
}

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
/// `io::Write` the Parquet writer writes to: the sink counts and hashes
/// the bytes, and is renamed into place like a CSV. A resumed file's sink
/// already holds the prefix its checkpoint vouches for: the writer, rebuilt
/// from the row-group index, passes those bytes again, and they are let
/// through without being written twice ([`SinkWriter::resumed`]).
///
/// The Parquet writer passes its bytes in pieces of a few KiB (its own
/// buffer's) or a column chunk at a time. They are gathered here into
/// pieces of [`SINK_PIECE`] bytes before they reach the sink, which hashes
/// a large piece several chunks at a time where small ones are hashed one
/// chunk at a time. The bytes gathered reach the sink at every flush (the
/// Parquet writer flushes at each row group's end): the sink's count and
/// hash, which a checkpoint records, are read through
/// [`SinkWriter::settled`], which passes on what is held first.
pub struct SinkWriter {
    sink: super::sink::StreamSink,
    /// Bytes still to let through unwritten: the resumed prefix.
    skip: u64,
    /// Bytes gathered, not yet in the sink.
    held: Vec<u8>,
}

/// The bytes a [`SinkWriter`] gathers before passing them on: the size of a
/// regular file's buffer, so a piece goes past that buffer to the file.
const SINK_PIECE: usize = 1 << 20;

impl SinkWriter {
    pub fn new(sink: super::sink::StreamSink) -> SinkWriter {
        SinkWriter {
            sink,
            skip: 0,
            held: Vec::new(),
        }
    }

    /// A sink reopened at a checkpoint: its first `sink.bytes()` bytes are
    /// on disk and hashed already.
    pub fn resumed(sink: super::sink::StreamSink) -> SinkWriter {
        let skip = sink.bytes();
        SinkWriter {
            sink,
            skip,
            held: Vec::new(),
        }
    }

    /// Passes the bytes held on to the sink.
    fn pass_on(&mut self) -> io::Result<()> {
        if !self.held.is_empty() {
            self.sink.write(&self.held, 0)?;
            self.held.clear();
        }
        Ok(())
    }

    /// The sink, with every byte written so far in it (counted and hashed).
    pub fn settled(&mut self) -> io::Result<&mut super::sink::StreamSink> {
        self.pass_on()?;
        Ok(&mut self.sink)
    }

    /// The sink, with every byte written so far in it.
    pub fn into_sink(mut self) -> io::Result<super::sink::StreamSink> {
        self.pass_on()?;
        Ok(self.sink)
    }
}

impl Write for SinkWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let skipped = usize::try_from(self.skip).map_or(buf.len(), |s| s.min(buf.len()));
        self.skip -= skipped as u64;
        let data = &buf[skipped..];
        if self.held.is_empty() && data.len() >= SINK_PIECE {
            self.sink.write(data, 0)?;
        } else if !data.is_empty() {
            if self.held.capacity() == 0 {
                self.held.reserve(SINK_PIECE);
            }
            self.held.extend_from_slice(data);
            if self.held.len() >= SINK_PIECE {
                self.pass_on()?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.pass_on()?;
        self.sink.flush()
    }
}

/// A Parquet file being written from CSV rows (or batches), one row group
/// of [`ROW_GROUP_ROWS`] rows at a time.
///
/// With an index ([`ParquetRows::keep_index`]), each finished row group
/// also leaves a record of its metadata (its column chunks' places, sizes
/// and statistics, and its page index): the part of the footer that a file
/// cut off before its end lacks. [`ParquetRows::resume`] rebuilds the
/// writer from those records over the file's prefix, and the file then
/// ends byte for byte as if it had never stopped.
pub struct ParquetRows<W: Write + Send> {
    file: SerializedFileWriter<W>,
    schema: SchemaRef,
    /// The slice of CSV or batch rows being filled.
    columns: Vec<Column>,
    /// The row group's columns being encoded.
    chunks: Vec<ChunkEncoder>,
    zstd: zstd::bulk::Compressor<'static>,
    /// Rows of the row group not yet finished (in its encoders, or in the
    /// slice being filled).
    pending: usize,
    rows: u64,
    groups: usize,
    /// Index records of the row groups finished since the last
    /// [`ParquetRows::take_index`], when an index is kept.
    index: Option<Vec<u8>>,
}

/// What a finished Parquet file holds.
#[derive(Debug)]
pub struct Written<W> {
    pub inner: W,
    pub rows: u64,
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

/// How a per-game column is encoded when a dictionary does not pay: the
/// `game` column counts up by one (delta-encoded, it takes a few bytes a
/// row group, against about 180 KB as a dictionary's indices), and the
/// text columns that are new on almost every row (hold'em's `board`,
/// solve's hands and first moves) are their lengths delta-encoded and
/// their bytes end to end, which zstd packs tighter than the plain
/// encoding's length before each value (the dictionary, which fills up
/// and falls back to plain, only costs time). Every other column keeps the
/// dictionary, which wins for them: few distinct values per row group.
/// Readers need no more than the Parquet format: both are its standard
/// encodings, and the logical types (`int64`, `string`) are unchanged.
pub fn column_encoding(name: &str) -> Option<Encoding> {
    match name {
        "game" => Some(Encoding::DELTA_BINARY_PACKED),
        "board" | "hand_a" | "hand_b" | "winning_first_moves" => {
            Some(Encoding::DELTA_LENGTH_BYTE_ARRAY)
        }
        _ => None,
    }
}

/// The types of a schema's columns (of `int64`, `float64` and `utf8`).
fn column_types(schema: &SchemaRef) -> Result<Vec<ColumnType>, ParquetError> {
    let mut columns = Vec::new();
    for f in schema.fields() {
        let kind = match f.data_type() {
            DataType::Int64 => ColumnType::Int64,
            DataType::Float64 => ColumnType::Float64,
            DataType::Utf8 => ColumnType::Utf8,
            other => {
                return Err(io::Error::other(format!(
                    "column {} is {other}, which cardsim does not write",
                    f.name()
                ))
                .into())
            }
        };
        columns.push(kind);
    }
    Ok(columns)
}

/// A column's encoding: its [`column_encoding`] where that fits its type,
/// else (`None`) a dictionary.
fn encoding_of(field: &Field) -> Option<Encoding> {
    column_encoding(field.name()).filter(|e| match e {
        Encoding::DELTA_BINARY_PACKED => *field.data_type() == DataType::Int64,
        _ => *field.data_type() == DataType::Utf8,
    })
}

/// Bytes before each index record: its length (u32, little-endian).
const RECORD_HEAD: usize = 4;

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
        let types = column_types(&schema)?;
        let columns = types.iter().map(|&t| Column::new(t, SLICE_ROWS)).collect();
        let chunks = types
            .iter()
            .zip(schema.fields())
            .map(|(&t, f)| ChunkEncoder::new(t, encoding_of(f)))
            .collect();
        // The Arrow writer's own start (the magic bytes, the Arrow schema
        // in the metadata), then row groups encoded here one by one.
        let (file, _) = ArrowWriter::try_new(out, schema.clone(), Some(properties(metadata)?))?
            .into_serialized_writer()?;
        Ok(ParquetRows {
            file,
            schema,
            columns,
            chunks,
            zstd: page_compressor()?,
            pending: 0,
            rows: 0,
            groups: 0,
            index: None,
        })
    }

    /// Keeps an index record of every row group from here on (see
    /// [`ParquetRows::take_index`]).
    pub fn keep_index(mut self) -> Self {
        self.index = Some(Vec::new());
        self
    }

    /// Continues a file cut off after whole row groups: `index` holds the
    /// records of those row groups (what [`ParquetRows::take_index`] gave,
    /// in order), `prefix` the file, at least as far as they reach. `out`
    /// lets through unwritten the bytes the rebuilt writer passes again
    /// up to the end of the last row group ([`SinkWriter::resumed`]), and
    /// [`ParquetRows::bytes`] says how many that is, for the caller to
    /// check against its checkpoint. The index is kept from here on.
    pub fn resume(
        out: W,
        game: &str,
        columns: &[String],
        metadata: Vec<(String, String)>,
        prefix: &std::fs::File,
        index: &[u8],
    ) -> Result<Self, ParquetError> {
        use parquet::file::metadata::{
            PageIndexPolicy, ParquetMetaDataOptions, ParquetMetaDataReader,
        };
        let mut rows = Self::new(out, game, columns, metadata)?.keep_index();
        // Every statistic as written (the page encoding statistics too,
        // not their summary as a mask), so the footer is written again the
        // same.
        let options = ParquetMetaDataOptions::new().with_encoding_stats_as_mask(false);
        let bad = |why: &str| io::Error::other(format!("the row-group index {why}"));
        let mut at = 0;
        while at < index.len() {
            let head = index
                .get(at..at + RECORD_HEAD)
                .ok_or_else(|| bad("ends inside a record"))?;
            let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
            let record = index
                .get(at + RECORD_HEAD..at + RECORD_HEAD + len)
                .ok_or_else(|| bad("ends inside a record"))?;
            at += RECORD_HEAD + len;
            let meta = ParquetMetaDataReader::new()
                .with_metadata_options(Some(options.clone()))
                .with_page_index_policy(PageIndexPolicy::Optional)
                .parse_and_finish(&bytes::Bytes::copy_from_slice(record))?;
            if meta.num_row_groups() != 1 {
                return Err(bad("holds a record that is not one row group").into());
            }
            let group = meta.row_group(0);
            let pages = meta.page_index_for_row_group(0);
            let compatible = meta
                .file_metadata()
                .key_value_metadata()
                .and_then(|kv| kv.iter().find(|k| k.key == COMPATIBLE_KEY))
                .and_then(|k| k.value.as_deref())
                .unwrap_or_default()
                .as_bytes();
            let count = u64::try_from(group.num_rows()).map_err(|_| bad("is damaged"))?;
            let mut writer = rows.file.next_row_group()?;
            for (c, chunk) in group.columns().iter().enumerate() {
                writer.append_column(
                    prefix,
                    ColumnCloseResult {
                        bytes_written: chunk.compressed_size().max(0) as u64,
                        rows_written: count,
                        metadata: with_min_max(chunk, compatible.get(c) == Some(&b'1'))?,
                        bloom_filter: None,
                        column_index: pages.column_index(c).cloned(),
                        offset_index: pages.offset_index(c).cloned(),
                    },
                )?;
            }
            writer.close()?;
            rows.file.flush()?;
            rows.groups += 1;
            rows.rows += count;
        }
        Ok(rows)
    }

    /// Index records of the row groups finished since the last call, each
    /// its length (4 bytes, little-endian) and a Parquet footer of that
    /// row group alone with its page index; empty without an index.
    pub fn take_index(&mut self) -> Vec<u8> {
        self.index.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Bytes of the file so far (row groups end on the sink once
    /// finished: nothing of one is held back).
    pub fn bytes(&self) -> u64 {
        self.file.bytes_written() as u64
    }

    /// Rows not yet in a finished row group.
    pub fn pending(&self) -> usize {
        self.pending
    }

    /// The output.
    pub fn inner(&self) -> &W {
        self.file.inner()
    }

    /// The output.
    pub fn inner_mut(&mut self) -> &mut W {
        self.file.inner_mut()
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
            let take = self.room().min(batch.num_rows() - at);
            for (col, array) in self.columns.iter_mut().zip(batch.columns()) {
                let part = array.slice(at, take);
                let wrong = || io::Error::other("a column of another type");
                match col {
                    Column::Int(b) => b.extend(
                        part.as_primitive_opt::<Int64Type>()
                            .ok_or_else(wrong)?
                            .iter(),
                    ),
                    c @ (Column::Float(_) | Column::Scaled(_)) => {
                        c.reals_mut().ok_or_else(wrong)?.extend(
                            part.as_primitive_opt::<Float64Type>()
                                .ok_or_else(wrong)?
                                .iter(),
                        )
                    }
                    c @ (Column::Text(_) | Column::Codes(_)) => {
                        let b = c.texts_mut().ok_or_else(wrong)?;
                        for v in part.as_string_opt::<i32>().ok_or_else(wrong)?.iter() {
                            b.append_option(v);
                        }
                    }
                }
            }
            at += take;
            self.pending += take - 1;
            self.rows += take as u64 - 1;
            self.row_added()?;
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

    /// Adds the rows of a chunk written by [`super::row::Row::columns`]
    /// (each of this file's columns, `game` first): the same values, nulls
    /// and errors as their CSV text through [`ParquetRows::write_csv`],
    /// copied column by column; row groups are cut by count as when the
    /// rows came one by one.
    pub(crate) fn write_columns(&mut self, chunk: &RowColumns) -> Result<(), ParquetError> {
        chunk.check(&self.schema)?;
        if chunk.columns.len() != self.columns.len() {
            return Err(io::Error::other("rows of another schema").into());
        }
        let rows = chunk.rows();
        if chunk.columns.iter().any(|c| c.len() != rows) {
            return Err(io::Error::other("a row cut short").into());
        }
        // The rows go to the encoders straight, after any held in the
        // slice.
        self.end_slice()?;
        let mut at = 0;
        while at < rows {
            let take = (ROW_GROUP_ROWS - self.pending).min(rows - at);
            for (encoder, from) in self.chunks.iter_mut().zip(&chunk.columns) {
                encoder.append(from, at, at + take)?;
            }
            at += take;
            self.pending += take;
            self.rows += take as u64;
            if self.pending == ROW_GROUP_ROWS {
                self.end_row_group()?;
            }
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
                _ if field.is_empty() => col.append_null(),
                Column::Int(b) => b.append_value(text.parse().map_err(|_| bad("an integer"))?),
                c @ (Column::Float(_) | Column::Scaled(_)) => {
                    let v = text.parse().map_err(|_| bad("a number"))?;
                    if let Some(b) = c.reals_mut() {
                        b.append_value(v);
                    }
                }
                c @ (Column::Text(_) | Column::Codes(_)) => {
                    if let Some(b) = c.texts_mut() {
                        b.append_value(text);
                    }
                }
            }
        }
        self.row_added()
    }

    /// Rows the slice takes before it or the row group is full.
    fn room(&self) -> usize {
        let held = self.columns.first().map_or(0, Column::len);
        (SLICE_ROWS - held).min(ROW_GROUP_ROWS - self.pending)
    }

    /// Counts a row in (the last of a batch's, which the caller counted
    /// but this one); ends its slice and its row group when it fills them.
    fn row_added(&mut self) -> Result<(), ParquetError> {
        self.pending += 1;
        self.rows += 1;
        if self.pending == ROW_GROUP_ROWS {
            self.end_row_group()
        } else if self.room() == 0 {
            self.end_slice()
        } else {
            Ok(())
        }
    }

    /// Hands the slice's rows to the row group's encoders.
    fn end_slice(&mut self) -> Result<(), ParquetError> {
        let held = self.columns.first().map_or(0, Column::len);
        if held == 0 {
            return Ok(());
        }
        for (encoder, column) in self.chunks.iter_mut().zip(&mut self.columns) {
            encoder.append(column, 0, held)?;
            column.clear();
        }
        Ok(())
    }

    /// Writes the rows held as a row group (none: nothing), through to the
    /// output, with its index record when an index is kept.
    pub fn end_row_group(&mut self) -> Result<(), ParquetError> {
        if self.pending == 0 {
            return Ok(());
        }
        self.end_slice()?;
        let descr = self.file.schema_descr().clone();
        let mut chunks = Vec::with_capacity(self.chunks.len());
        for (c, encoder) in self.chunks.iter_mut().enumerate() {
            if encoder.rows() != self.pending {
                return Err(io::Error::other("columns of unequal rows").into());
            }
            chunks.push(encoder.finish(&descr.column(c), &mut self.zstd)?);
        }
        let pages: Option<Vec<_>> = self.index.is_some().then(|| {
            chunks
                .iter()
                .map(|(_, c)| (c.column_index.clone(), c.offset_index.clone()))
                .collect()
        });
        let mut group = self.file.next_row_group()?;
        for (bytes, chunk) in chunks {
            group.append_column(&bytes, chunk)?;
        }
        let meta = group.close()?;
        self.file.flush()?;
        self.groups += 1;
        self.pending = 0;
        if let (Some(index), Some(pages)) = (&mut self.index, pages) {
            let record = index_record(&meta, pages)?;
            let len = u32::try_from(record.len())
                .map_err(|_| io::Error::other("a row group's metadata over 4 GiB"))?;
            index.extend_from_slice(&len.to_le_bytes());
            index.extend_from_slice(&record);
        }
        Ok(())
    }

    /// Writes the last row group and the footer; returns the output.
    pub fn finish(mut self) -> Result<Written<W>, ParquetError> {
        self.end_row_group()?;
        let mut out = self.file.into_inner()?;
        out.flush()?;
        Ok(Written {
            inner: out,
            rows: self.rows,
        })
    }
}

/// The index record's key for which columns' statistics are also written in
/// the deprecated min and max fields (`1` or `0` per column).
const COMPATIBLE_KEY: &str = "cardsim.min_max_compatible";

/// A column chunk's metadata read back from an index record, its
/// statistics marked to fill the deprecated min and max fields again when
/// they did.
fn with_min_max(
    chunk: &parquet::file::metadata::ColumnChunkMetaData,
    compatible: bool,
) -> Result<parquet::file::metadata::ColumnChunkMetaData, ParquetError> {
    use parquet::file::statistics::Statistics as S;
    let Some(stats) = chunk.statistics().filter(|_| compatible) else {
        return Ok(chunk.clone());
    };
    let stats = match stats.clone() {
        S::Boolean(v) => S::Boolean(v.with_backwards_compatible_min_max(true)),
        S::Int32(v) => S::Int32(v.with_backwards_compatible_min_max(true)),
        S::Int64(v) => S::Int64(v.with_backwards_compatible_min_max(true)),
        S::Int96(v) => S::Int96(v.with_backwards_compatible_min_max(true)),
        S::Float(v) => S::Float(v.with_backwards_compatible_min_max(true)),
        S::Double(v) => S::Double(v.with_backwards_compatible_min_max(true)),
        S::ByteArray(v) => S::ByteArray(v.with_backwards_compatible_min_max(true)),
        S::FixedLenByteArray(v) => S::FixedLenByteArray(v.with_backwards_compatible_min_max(true)),
    };
    Ok(chunk.clone().into_builder().set_statistics(stats).build()?)
}

/// A row group's index record: a Parquet footer of that row group alone,
/// with its page index. The offset index's page locations are placed where
/// the row group put the pages (the dictionary page first, the data pages
/// after it, in order), as the file's own footer will have them.
fn index_record(
    meta: &parquet::file::metadata::RowGroupMetaData,
    pages: Vec<(Option<ColumnIndexMetaData>, Option<OffsetIndexMetaData>)>,
) -> Result<Vec<u8>, ParquetError> {
    use parquet::file::metadata::page_index::PageIndexBuilder;
    use parquet::file::metadata::{FileMetaData, ParquetMetaDataBuilder, ParquetMetaDataWriter};
    let mut index = PageIndexBuilder::new(1, meta.num_columns());
    for (c, (column_index, offset_index)) in pages.into_iter().enumerate() {
        if let Some(ci) = column_index {
            index.put_column_index(ci, 0, c);
        }
        if let Some(mut oi) = offset_index {
            let mut at = meta.column(c).data_page_offset();
            for location in &mut oi.page_locations {
                location.offset = at;
                at += i64::from(location.compressed_page_size);
            }
            index.put_offset_index(oi, 0, c);
        }
    }
    // Which statistics also fill the deprecated min and max fields: a
    // footer read back does not say, and the file's own footer has them.
    let compatible: String = meta
        .columns()
        .iter()
        .map(|c| match c.statistics() {
            Some(st) if st.is_min_max_backwards_compatible() => '1',
            _ => '0',
        })
        .collect();
    let file = FileMetaData::new(
        2,
        meta.num_rows(),
        None,
        Some(vec![KeyValue::new(COMPATIBLE_KEY.to_string(), compatible)]),
        meta.schema_descr_ptr(),
        None,
    );
    let all = ParquetMetaDataBuilder::new(file)
        .add_row_group(meta.clone())
        .set_page_index(Some(Arc::new(index.build())))
        .build();
    let mut out = Vec::new();
    ParquetMetaDataWriter::new(&mut out, &all).finish()?;
    Ok(out)
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
    use parquet::schema::types::ColumnPath;

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
            done.inner
        };
        let a = write(1000);
        assert_eq!(a, write(777));
        assert_eq!(&a[..4], b"PAR1");
    }

    /// A column's values as a test draws them (`None`: null).
    #[derive(Clone, Debug, PartialEq)]
    enum Cell {
        Int(Option<i64>),
        Real(Option<f64>),
        Text(Option<String>),
    }

    /// Rows of `game`'s `columns` (`game` first), each column drawn from
    /// its own kind of values: constant, a few small ones, wide-ranging
    /// ones, ones counting up, texts few or all distinct (long enough for
    /// a text dictionary past its limit), with nulls here and there or
    /// throughout a row group.
    fn draw(game: &str, columns: &[String], rows: usize, seed: u64) -> Vec<Vec<Cell>> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state >> 17
        };
        let (_, types) = schema(game, columns);
        let mut out: Vec<Vec<Cell>> = (0..rows).map(|i| vec![Cell::Int(Some(i as i64))]).collect();
        for (c, t) in types.iter().enumerate().skip(1) {
            let kind = (c as u64 + seed) % 5;
            let nulls = [0, 3, 50, 0, 7][c % 5];
            for (i, row) in out.iter_mut().enumerate() {
                let r = next();
                // The second row group's first 70,000 rows are all null
                // in the columns whose kind is 4.
                let null = (nulls > 0 && r % 100 < nulls)
                    || (kind == 4 && (ROW_GROUP_ROWS..ROW_GROUP_ROWS + 70_000).contains(&i));
                row.push(match t {
                    ColumnType::Int64 => Cell::Int((!null).then(|| {
                        match kind {
                            0 => 42,
                            1 => (r % 7) as i64 - 3,
                            2 => [i64::MIN, i64::MAX, -70_000, 1 << 40][(r % 4) as usize]
                                .wrapping_add((r % 1000) as i64 * if r & 1 == 0 { 1 } else { -1 }),
                            3 => i as i64 * 3 - 5_000,
                            _ => (r % 40_000) as i64 - 20_000,
                        }
                    })),
                    ColumnType::Float64 => Cell::Real((!null).then(|| match kind {
                        0 => 0.25,
                        1 => [0.0, -0.0, 1.5, -2.125][(r % 4) as usize],
                        2 => (r % 100_000) as f64 / 10_000.0 - 5.0,
                        3 => i as f64 * 1e-3,
                        _ => f64::from_bits(r.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 2),
                    })),
                    ColumnType::Utf8 => Cell::Text((!null).then(|| match kind {
                        0 => "flop".to_string(),
                        1 => ["Ah", "Kd", "AhKd", "é"][(r % 4) as usize].to_string(),
                        2 => format!("{:032x}", r.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                        3 => format!("{i}"),
                        _ => format!("w{}", r % 3000),
                    })),
                });
            }
        }
        out
    }

    /// A row as CSV text (a text with a comma or quote quoted).
    fn csv_row(row: &[Cell]) -> String {
        let fields: Vec<String> = row
            .iter()
            .map(|c| match c {
                Cell::Int(v) => v.map(|v| v.to_string()).unwrap_or_default(),
                Cell::Real(v) => v.map(|v| format!("{v:?}")).unwrap_or_default(),
                Cell::Text(v) => v.clone().unwrap_or_default(),
            })
            .collect();
        fields.join(",") + "\n"
    }

    /// The reference's writer properties for a per-game file of
    /// `schema`: [`properties`], with each column's [`column_encoding`]
    /// (and no dictionary) where it has one, as cardsim's encoder encodes
    /// it.
    fn rows_properties(
        schema: &Schema,
        metadata: Vec<(String, String)>,
    ) -> Result<WriterProperties, ParquetError> {
        let mut builder = properties(metadata)?.into_builder();
        for f in schema.fields() {
            if let Some(encoding) = encoding_of(f) {
                let path = ColumnPath::from(f.name().as_str());
                builder = builder
                    .set_column_dictionary_enabled(path.clone(), false)
                    .set_column_encoding(path, encoding);
            }
        }
        Ok(builder.build())
    }

    /// The reference: the rows as one Arrow batch, written by the Parquet
    /// crate's own Arrow writer with the per-column encodings.
    fn reference_file(game: &str, columns: &[String], rows: &[Vec<Cell>]) -> Vec<u8> {
        use arrow_array::{ArrayRef, Float64Array, Int64Array, StringArray};
        let (schema, types) = schema(game, columns);
        let arrays: Vec<ArrayRef> = types
            .iter()
            .enumerate()
            .map(|(c, t)| -> ArrayRef {
                let cells = rows.iter().map(|r| &r[c]);
                match t {
                    ColumnType::Int64 => Arc::new(Int64Array::from_iter(cells.map(|x| match x {
                        Cell::Int(v) => *v,
                        _ => unreachable!(),
                    }))),
                    ColumnType::Float64 => {
                        Arc::new(Float64Array::from_iter(cells.map(|x| match x {
                            Cell::Real(v) => *v,
                            _ => unreachable!(),
                        })))
                    }
                    ColumnType::Utf8 => Arc::new(StringArray::from_iter(cells.map(|x| match x {
                        Cell::Text(v) => v.clone(),
                        _ => unreachable!(),
                    }))),
                }
            })
            .collect();
        let batch = RecordBatch::try_new(schema.clone(), arrays).unwrap();
        let mut w = ArrowWriter::try_new(
            Vec::new(),
            schema.clone(),
            Some(rows_properties(&schema, Vec::new()).unwrap()),
        )
        .unwrap();
        w.write(&batch).unwrap();
        w.into_inner().unwrap()
    }

    /// A file's rows read back by the Parquet crate's Arrow reader (with
    /// its page index), and its column chunks' statistics.
    #[allow(clippy::type_complexity)]
    fn read_back(
        file: &[u8],
    ) -> (
        Vec<Vec<Cell>>,
        Vec<(Option<Vec<u8>>, Option<Vec<u8>>, Option<u64>)>,
    ) {
        use arrow_array::cast::AsArray;
        use arrow_array::types::{Float64Type, Int64Type};
        use arrow_array::Array;
        use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
        let bytes = bytes::Bytes::copy_from_slice(file);
        let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(
            bytes,
            ArrowReaderOptions::new()
                .with_page_index_policy(parquet::file::metadata::PageIndexPolicy::Required),
        )
        .unwrap();
        let stats = builder
            .metadata()
            .row_groups()
            .iter()
            .flat_map(|g| g.columns().iter())
            .map(|c| {
                let s = c.statistics();
                (
                    s.and_then(|s| s.min_bytes_opt()).map(<[u8]>::to_vec),
                    s.and_then(|s| s.max_bytes_opt()).map(<[u8]>::to_vec),
                    s.and_then(|s| s.null_count_opt()),
                )
            })
            .collect();
        let mut rows = Vec::new();
        for batch in builder.with_batch_size(10_000).build().unwrap() {
            let batch = batch.unwrap();
            let mut part: Vec<Vec<Cell>> = vec![Vec::new(); batch.num_rows()];
            for col in batch.columns() {
                for (i, row) in part.iter_mut().enumerate() {
                    row.push(if let Some(a) = col.as_primitive_opt::<Int64Type>() {
                        Cell::Int(a.is_valid(i).then(|| a.value(i)))
                    } else if let Some(a) = col.as_primitive_opt::<Float64Type>() {
                        Cell::Real(a.is_valid(i).then(|| a.value(i)))
                    } else {
                        let a = col.as_string::<i32>();
                        Cell::Text(a.is_valid(i).then(|| a.value(i).to_string()))
                    });
                }
            }
            rows.extend(part);
        }
        (rows, stats)
    }

    /// Reals compared by their bits (so -0 is not +0).
    fn same(a: &[Vec<Cell>], b: &[Vec<Cell>]) -> bool {
        let bits = |r: &Vec<Cell>| -> Vec<Cell> {
            r.iter()
                .map(|c| match c {
                    Cell::Real(v) => Cell::Int(v.map(|v| v.to_bits() as i64)),
                    other => other.clone(),
                })
                .collect()
        };
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| bits(x) == bits(y))
    }

    /// cardsim's encoder against the Parquet crate's Arrow writer: the same
    /// rows (of every game's kinds of columns, with nulls, across row
    /// groups) read back the same, with the same statistics, whether they
    /// come as CSV text or as a worker's typed columns.
    #[test]
    fn the_encoder_reads_back_as_the_arrow_writer_file() {
        use super::super::row::Row;
        let games: [(&str, &[&str]); 4] = [
            (
                "holdem",
                &[
                    "players",
                    "street",
                    "board",
                    "hole_s1",
                    "net_s1",
                    "equity_s1",
                    "ev_net_s1",
                    "agent_x",
                    "pot_total",
                    "winning_category",
                ],
            ),
            ("fishing", &["outcome", "cards_played", "winner"]),
            ("tienlen", &["winner", "turns", "cards_left_s1", "passes"]),
            (
                "solve",
                &["hand_a", "hand_b", "winner", "winning_first_moves", "value"],
            ),
        ];
        for (seed, (game, cols)) in games.iter().enumerate() {
            let cols: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
            let n = 2 * ROW_GROUP_ROWS + 12_345;
            let rows = draw(game, &cols, n, seed as u64 + 1);
            let reference = reference_file(game, &cols, &rows);
            let (want, want_stats) = read_back(&reference);
            assert!(
                same(&want, &rows),
                "{game}: the reference reads back its rows"
            );

            let mut w = ParquetRows::new(Vec::new(), game, &cols, Vec::new()).unwrap();
            for part in rows.chunks(5_000 + seed * 777) {
                let text: String = part.iter().map(|r| csv_row(r)).collect();
                w.write_csv(text.as_bytes()).unwrap();
            }
            let from_csv = w.finish().unwrap().inner;
            let (got, got_stats) = read_back(&from_csv);
            assert!(same(&got, &want), "{game}: CSV rows read back otherwise");
            assert_eq!(got_stats, want_stats, "{game}: statistics");

            let (_, types) = schema(game, &cols);
            let mut w = ParquetRows::new(Vec::new(), game, &cols, Vec::new()).unwrap();
            let mut buf = Vec::new();
            for part in rows.chunks(3_000 + seed * 1_001) {
                let mut columns = RowColumns::new(&types, part.len());
                for r in part {
                    let mut row = Row::columns(&mut buf, &mut columns);
                    for cell in r {
                        match cell {
                            Cell::Int(Some(v)) => row.int(*v),
                            Cell::Real(Some(v)) => row.text(&format!("{v:?}")),
                            Cell::Text(Some(t)) => row.text(t),
                            _ => row.empty(),
                        }
                    }
                    row.end();
                }
                w.write_columns(&columns).unwrap();
            }
            let typed = w.finish().unwrap().inner;
            assert!(typed == from_csv, "{game}: typed rows give other bytes");
        }
    }

    /// A file cut off after whole row groups, rebuilt from its row-group
    /// index, ends as the uncut file: the rebuilt writer passes the prefix
    /// again (the same bytes) and goes on.
    #[test]
    fn a_file_resumed_from_its_index_is_the_uncut_file() {
        let cols = vec![
            "outcome".to_string(),
            "cards_played".to_string(),
            "winner".to_string(),
        ];
        let row = |i: usize| {
            format!(
                "{i},{},{},{}\n",
                ["win", "", "cycle"][i % 3],
                (i * 7919) % 1000,
                if i.is_multiple_of(5) {
                    String::new()
                } else {
                    (i % 4).to_string()
                }
            )
        };
        let meta = vec![("cardsim.seed".to_string(), "9".to_string())];
        let mut uncut = ParquetRows::new(Vec::new(), "fishing", &cols, meta.clone())
            .unwrap()
            .keep_index();
        let (mut cut_at, mut index) = (0, Vec::new());
        for i in 0..200_000 {
            uncut.write_csv(row(i).as_bytes()).unwrap();
            if i + 1 == 2 * ROW_GROUP_ROWS {
                assert_eq!(uncut.pending(), 0);
                cut_at = uncut.bytes() as usize;
                index = uncut.take_index();
            }
        }
        let uncut = uncut.finish().unwrap().inner;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cut.parquet");
        // The cut file: its prefix and some of the row group after it.
        std::fs::write(&path, &uncut[..cut_at + 5000]).unwrap();
        let prefix = std::fs::File::open(&path).unwrap();
        let mut resumed =
            ParquetRows::resume(Vec::new(), "fishing", &cols, meta, &prefix, &index).unwrap();
        assert_eq!(
            (resumed.rows(), resumed.bytes()),
            (2 * ROW_GROUP_ROWS as u64, cut_at as u64)
        );
        for i in 2 * ROW_GROUP_ROWS..200_000 {
            resumed.write_csv(row(i).as_bytes()).unwrap();
        }
        let resumed = resumed.finish().unwrap().inner;
        let first = resumed.iter().zip(&uncut).position(|(a, b)| a != b);
        assert!(
            resumed == uncut,
            "the resumed file differs: {} vs {} bytes, first at {first:?} (cut at {cut_at})",
            resumed.len(),
            uncut.len()
        );
        // A damaged index is refused, not trusted.
        let short = &index[..index.len() - 1];
        assert!(
            ParquetRows::resume(Vec::new(), "fishing", &cols, Vec::new(), &prefix, short).is_err()
        );
    }

    /// Every kind of field a game writes, into an integer, a real and a
    /// text column: typed rows give the file (or the error) that their CSV
    /// text gives.
    #[test]
    fn typed_rows_are_their_csv_text() {
        use super::super::row::Row;
        type Op = fn(&mut Row<'_>);
        let ops: Vec<(&str, Op)> = vec![
            ("int 0", |r| r.int(0)),
            ("int -7", |r| r.int(-7i64)),
            ("int min", |r| r.int(i64::MIN)),
            ("int u64 max", |r| r.int(u64::MAX)),
            ("int 128-bit", |r| {
                r.int(-170_141_183_460_469_231_731_687i128)
            }),
            ("ints", |r| r.ints([12_345_678_901_234i64])),
            ("flag", |r| r.flag(true)),
            ("fixed", |r| r.fixed(0.123_456, 4)),
            ("fixed neg", |r| r.fixed(-2.5, 2)),
            ("fixed tiny neg", |r| r.fixed(-0.000_01, 4)),
            ("fixed huge", |r| r.fixed(1.234_567_890_123e17, 3)),
            ("fixed 0 decimals", |r| r.fixed(3.6, 0)),
            ("fixed 9 decimals", |r| r.fixed(-0.1, 9)),
            ("fixed_int", |r| r.fixed_int(5, 2)),
            ("fixed_int 0", |r| r.fixed_int(-5, 0)),
            ("fixed_ints", |r| r.fixed_ints([-40], 1)),
            ("real", |r| r.real(1.0 / 3.0, 6)),
            ("word", |r| r.word("flop")),
            ("text quoted", |r| r.text("a,b\"c")),
            ("text empty", |r| r.text("")),
            ("text int", |r| r.text("42")),
            ("text real", |r| r.text("-1.5")),
            ("empty", |r| r.empty()),
            ("empties", |r| r.empties(1)),
            ("code", |r| r.code(1, &BOOK)),
            ("code of a number", |r| r.code(2, &BOOK)),
            ("code past the book", |r| r.code(9, &BOOK)),
        ];
        for (kind, column) in [
            (DataType::Int64, ColumnType::Int64),
            (DataType::Float64, ColumnType::Float64),
            (DataType::Utf8, ColumnType::Utf8),
        ] {
            let schema: SchemaRef = Arc::new(Schema::new(vec![
                Field::new("game", DataType::Int64, true),
                Field::new("x", kind.clone(), true),
            ]));
            for (name, op) in &ops {
                let write = |typed: bool| {
                    let mut buf = Vec::new();
                    let mut columns = RowColumns::new(&[ColumnType::Int64, column], 1);
                    let mut row = if typed {
                        Row::columns(&mut buf, &mut columns)
                    } else {
                        Row::new(&mut buf)
                    };
                    row.int(3);
                    op(&mut row);
                    row.end();
                    let mut w =
                        ParquetRows::with_schema(Vec::new(), schema.clone(), Vec::new()).unwrap();
                    let r = if typed {
                        assert!(buf.is_empty(), "{name}: typed fields as text too");
                        w.write_columns(&columns)
                    } else {
                        w.write_csv(&buf)
                    };
                    r.map(|()| w.finish().unwrap().inner)
                        .map_err(|e| e.to_string())
                };
                assert_eq!(write(true), write(false), "{name} into {kind}");
            }
        }
    }

    /// A book of texts for the tests: short, long, a number.
    static BOOK: Book = Book {
        len: 3,
        text: |c| ["flop", "a text of more than 8 bytes", "42"][usize::from(c)],
    };
    /// Another book, one of whose texts is also in [`BOOK`].
    static OTHER: Book = Book {
        len: 2,
        text: |c| ["flop", "turn"][usize::from(c)],
    };

    /// Writes 150,000 rows by `write_row` (told whether the writer takes
    /// typed columns) once as CSV text and once as typed column chunks of
    /// 1,000 and 8,199 rows, each through a writer `new` makes, and checks
    /// that the files are equal; `check` sees each chunk's columns.
    fn chunked_rows_give_the_text_file<W: Fn(&mut super::super::row::Row<'_>, usize, bool)>(
        new: impl Fn() -> ParquetRows<Vec<u8>>,
        types: &[ColumnType],
        write_row: W,
        check: impl Fn(&RowColumns),
        what: &str,
    ) {
        use super::super::row::Row;
        let csv = {
            let mut w = new();
            let mut buf = Vec::new();
            for i in 0..150_000 {
                let mut row = Row::new(&mut buf);
                write_row(&mut row, i, false);
                row.end();
            }
            w.write_csv(&buf).unwrap();
            w.finish().unwrap().inner
        };
        for chunk in [1000, 8192 + 7] {
            let mut w = new();
            let mut buf = Vec::new();
            // One chunk's columns, reused as the runner reuses them.
            let mut columns = RowColumns::new(types, chunk);
            for start in (0..150_000).step_by(chunk) {
                columns.clear();
                for i in start..(start + chunk).min(150_000) {
                    let mut row = Row::columns(&mut buf, &mut columns);
                    write_row(&mut row, i, true);
                    row.end();
                }
                check(&columns);
                w.write_columns(&columns).unwrap();
            }
            assert!(
                w.finish().unwrap().inner == csv,
                "chunks of {chunk} rows, {what}"
            );
        }
    }

    /// Text columns written as codes give the file their texts give:
    /// codes alone (and nulls), and codes mixed in one chunk with texts
    /// and with another book's codes, however the chunks fall.
    #[test]
    fn coded_texts_are_their_texts() {
        use super::super::row::Row;
        let cols = vec!["outcome".to_string(), "cards_played".to_string()];
        let (_, types) = schema("fishing", &cols);
        for mixed in [false, true] {
            let write_row = |row: &mut Row<'_>, i: usize, coded: bool| {
                row.int(i);
                let k = ((i * 7919) % 3) as u16;
                // Mixed: stretches of 2,500 rows of codes, of texts (some
                // of them codes), of another book's codes.
                let phase = if mixed { i / 2_500 % 3 } else { 0 };
                match (i % 7, phase) {
                    (5, _) => row.empty(),
                    (3, 1) if coded => row.code(k, &BOOK),
                    (_, 1) => row.word(BOOK.text(k)),
                    (_, 2) if coded => row.code(k % 2, &OTHER),
                    (_, 2) => row.word(OTHER.text(k % 2)),
                    _ if coded => row.code(k, &BOOK),
                    _ => row.word(BOOK.text(k)),
                }
                row.int(i % 11);
            };
            chunked_rows_give_the_text_file(
                || ParquetRows::new(Vec::new(), "fishing", &cols, Vec::new()).unwrap(),
                &types,
                write_row,
                |columns| {
                    if !mixed {
                        assert!(matches!(columns.columns[1], Column::Codes(_)));
                    }
                },
                &format!("mixed: {mixed}"),
            );
        }
    }

    /// Real columns written as decimals give the file their reals give:
    /// decimals alone (near zero and far from it, and nulls, which start
    /// a chunk), and decimals mixed in one chunk or row group with reals,
    /// integers, texts and decimals of another scale, however the chunks
    /// fall.
    #[test]
    fn decimal_reals_are_their_reals() {
        use super::super::row::Row;
        let schema: SchemaRef = Arc::new(Schema::new(vec![
            Field::new("game", DataType::Int64, true),
            Field::new("x", DataType::Float64, true),
            Field::new("y", DataType::Float64, true),
        ]));
        for mixed in [false, true] {
            let write_row = |row: &mut Row<'_>, i: usize| {
                row.int(i);
                let r = (i * 7919 % 100_003) as i64;
                // Near zero mostly, every seventh far from it.
                let v = if i % 7 == 2 {
                    r * 1_000 - 50_000_000
                } else {
                    r % 3_000 - 1_500
                };
                // Mixed: stretches of 2,500 rows of 2 decimals, of the
                // same reals with 4 decimals, of reals mixed with texts,
                // integers and a whole number too large for a decimal.
                let phase = if mixed { i / 2_500 % 3 } else { 0 };
                match (i % 11, phase) {
                    (0..=2, _) => row.empty(),
                    (6, 1) => row.fixed_int(v / 100, 4),
                    (_, 1) => row.fixed(v as f64 / 100.0, 4),
                    (4, 2) => row.real(v as f64 / 100.0, 2),
                    (5, 2) => row.int(v / 100),
                    (6, 2) if i.is_multiple_of(5) => row.fixed_int(i64::MAX / 3, 2),
                    (6 | 7, _) => row.fixed_int(v / 100, 2),
                    _ => row.fixed(v as f64 / 100.0, 2),
                }
                // Nulls for whole chunks (as a seat's equity may be).
                if (i / 3000).is_multiple_of(2) {
                    row.empty();
                } else {
                    row.fixed((i % 10_001) as f64 / 1e4, 4);
                }
            };
            let types = [ColumnType::Int64, ColumnType::Float64, ColumnType::Float64];
            chunked_rows_give_the_text_file(
                || ParquetRows::with_schema(Vec::new(), schema.clone(), Vec::new()).unwrap(),
                &types,
                |row: &mut Row<'_>, i: usize, _typed: bool| write_row(row, i),
                |columns| {
                    if !mixed {
                        assert!(matches!(columns.columns[1], Column::Scaled(_)));
                    }
                },
                &format!("mixed: {mixed}"),
            );
        }
    }

    /// Chunks of typed columns give the file that the same rows as CSV
    /// text give, however the chunks fall against slices and row groups.
    #[test]
    fn typed_chunks_are_cut_like_csv_rows() {
        use super::super::row::Row;
        let cols = vec![
            "outcome".to_string(),
            "cards_played".to_string(),
            "winner".to_string(),
        ];
        let (_, types) = schema("fishing", &cols);
        let write_row = |row: &mut Row<'_>, i: usize| {
            row.int(i);
            match i % 3 {
                0 => row.word("win"),
                1 => row.empty(),
                _ => row.text("cycle, long"),
            }
            row.int((i * 7919) % 1000);
            if i.is_multiple_of(5) {
                row.empty();
            } else {
                row.int(i % 4);
            }
        };
        let csv = {
            let mut w = ParquetRows::new(Vec::new(), "fishing", &cols, Vec::new()).unwrap();
            let mut buf = Vec::new();
            for i in 0..150_000 {
                let mut row = Row::new(&mut buf);
                write_row(&mut row, i);
                row.end();
            }
            w.write_csv(&buf).unwrap();
            w.finish().unwrap().inner
        };
        for chunk in [1000, 1024, 8192 + 7] {
            let mut w = ParquetRows::new(Vec::new(), "fishing", &cols, Vec::new()).unwrap();
            let mut buf = Vec::new();
            for start in (0..150_000).step_by(chunk) {
                let mut columns = RowColumns::new(&types, chunk);
                for i in start..(start + chunk).min(150_000) {
                    let mut row = Row::columns(&mut buf, &mut columns);
                    write_row(&mut row, i);
                    row.end();
                }
                w.write_columns(&columns).unwrap();
            }
            assert!(w.finish().unwrap().inner == csv, "chunks of {chunk} rows");
        }
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
