//! A run's Parquet output: row groups written as the rows stream in, and,
//! to a regular file, the row-group index and the boundaries a checkpoint
//! resumes at.
//!
//! A Parquet file's footer (where every row group is, its statistics and
//! page index) comes after the last row group, so a file cut off by a kill
//! has none. Each finished row group therefore also appends a record of its
//! own metadata to the row-group index, `PATH.groups.partial`
//! ([`crate::sim::parquet::ParquetRows::keep_index`]). A checkpoint is
//! taken only at a row-group boundary (the end of a chunk whose rows close a
//! row group: row groups are 64 chunks): it vouches for the partial file's
//! prefix up to that row group, the index's prefix, the other outputs and
//! the statistics as they stood there. `--resume` verifies both prefixes,
//! cuts both files back to them, rebuilds the writer from the index over
//! the prefix, and plays on from the boundary.

use super::*;
use crate::sim::parquet::{run_metadata, ParquetRows, SinkWriter};

/// Where a regular Parquet file's row-group index goes: `PATH.groups`,
/// written (and kept) as `PATH.groups.partial` until the run ends, then
/// removed.
pub(super) fn index_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".groups");
    PathBuf::from(s)
}

/// A run's Parquet output.
pub(super) struct ParquetOut {
    pub(super) rows: ParquetRows<SinkWriter>,
    pub(super) dest: Destination,
    /// A regular file's row-group index; `None` for a stream (stdout, a
    /// FIFO, a device), which never resumes.
    pub(super) index: Option<StreamSink>,
    /// The newest row-group boundary: what a checkpoint records.
    pub(super) boundary: Option<Boundary>,
}

/// The state of a run at a row-group boundary.
pub(super) struct Boundary {
    pub(super) next_game: u64,
    pub(super) file: FileMark,
    pub(super) index: FileMark,
    pub(super) side: Option<FileMark>,
    pub(super) bundle: Option<FileMark>,
    /// The statistics' exact state there, as a checkpoint stores it: a
    /// copy of the accumulators themselves would hold every histogram's
    /// buckets twice (tens of MB for hold'em), the state only their counts.
    pub(super) state: Vec<crate::sim::stats::AccumulatorState>,
    pub(super) elapsed_s: f64,
}

impl ParquetOut {
    /// Opens the Parquet output: fresh, or reopened at the checkpoint's
    /// boundary (both prefixes verified, the writer rebuilt from the index).
    pub(super) fn open(
        dest: &Destination,
        start: &Start,
        game: &str,
        columns: &[String],
        metadata: Vec<(String, String)>,
    ) -> Result<ParquetOut, RunError> {
        let cannot_start = |e: crate::sim::parquet::ParquetError| {
            RunError::io("cannot start the Parquet file")(e.into_io())
        };
        let Destination::Atomic(path) = dest else {
            let sink = open_stream(Some(dest), None, "--out", None)?;
            let rows = ParquetRows::new(SinkWriter::new(sink), game, columns, metadata)
                .map_err(cannot_start)?;
            return Ok(ParquetOut {
                rows,
                dest: dest.clone(),
                index: None,
                boundary: None,
            });
        };
        let index_dest = Destination::Atomic(index_path(path));
        let (Some(file_mark), Some(index_mark)) = (&start.csv, &start.row_groups) else {
            let sink = open_stream(Some(dest), None, "--out", None)?;
            let index = open_stream(Some(&index_dest), None, "--out", None)?;
            let rows = ParquetRows::new(SinkWriter::new(sink), game, columns, metadata)
                .map_err(cannot_start)?
                .keep_index();
            return Ok(ParquetOut {
                rows,
                dest: dest.clone(),
                index: Some(index),
                boundary: None,
            });
        };
        let sink = open_stream(Some(dest), Some(file_mark), "--out", None)?;
        let index = open_stream(Some(&index_dest), Some(index_mark), "--out", None)?;
        let index_file = partial_path(&index_path(path));
        let refuse = |why: String| {
            RunError::Input(format!(
                "cannot resume --out: {why}; rerun without --resume to start over"
            ))
        };
        let records = std::fs::read(&index_file)
            .map_err(|e| refuse(format!("cannot read {}: {e}", index_file.display())))?;
        let partial = partial_path(path);
        let prefix = std::fs::File::open(&partial)
            .map_err(|e| refuse(format!("cannot read {}: {e}", partial.display())))?;
        if records.len() as u64 != index_mark.bytes {
            return Err(refuse(format!(
                "{} changed while it was reopened",
                index_file.display()
            )));
        }
        let rows = ParquetRows::resume(
            SinkWriter::resumed(sink),
            game,
            columns,
            metadata,
            &prefix,
            &records,
        )
        .map_err(|e| refuse(format!("{} cannot be rebuilt: {e}", partial.display())))?;
        if rows.bytes() != file_mark.bytes || rows.rows() != file_mark.rows {
            return Err(refuse(format!(
                "the row groups in {} do not end where its checkpoint says",
                index_file.display()
            )));
        }
        Ok(ParquetOut {
            rows,
            dest: dest.clone(),
            index: Some(index),
            boundary: Some(Boundary {
                next_game: start.next,
                file: file_mark.clone(),
                index: index_mark.clone(),
                side: start.side.clone(),
                bundle: start.bundle.clone(),
                state: start.accs.iter().map(|a| a.to_state("")).collect(),
                elapsed_s: start.elapsed_s,
            }),
        })
    }

    /// The metadata of a run's file.
    pub(super) fn metadata(identity: &RunIdentity, config: &RunConfig) -> Vec<(String, String)> {
        run_metadata(identity, &config.command, config.shard)
    }
}
