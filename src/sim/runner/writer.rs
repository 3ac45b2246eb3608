//! The writer thread of a run: takes played chunks in game order, writes
//! the outputs, folds the statistics, makes checkpoints durable on a thread
//! of their own, and ends the run (finished, failed or interrupted) saying
//! exactly what it left on disk.

use super::parquet_out::{Boundary, ParquetOut};
use super::*;
use crate::sim::parquet::ParquetError;

/// One of the writer's streamed outputs, for error messages.
#[derive(Clone, Copy)]
pub(super) enum Which {
    Csv,
    Side,
    Bundle,
}

/// A checkpoint whose outputs are flushed and whose content is sealed:
/// left to do, the syncs and the write.
pub(super) struct CheckpointJob {
    /// Each output to sync, with its name for an error.
    files: Vec<(String, std::fs::File)>,
    path: PathBuf,
    sealed: Vec<u8>,
    next_game: u64,
}

impl CheckpointJob {
    /// Syncs the outputs, then atomically replaces the checkpoint file.
    fn run(self) -> Result<(), RunError> {
        for (name, file) in &self.files {
            file.sync_all()
                .map_err(RunError::io(format!("cannot write {name}")))?;
        }
        write_whole(&self.path, self.sealed).map_err(RunError::io(format!(
            "cannot write the checkpoint {}",
            self.path.display()
        )))
    }
}

/// A checkpoint running on its own thread ([`Writer::begin_checkpoint`]).
pub(super) struct PendingCheckpoint {
    next_game: u64,
    done: std::thread::JoinHandle<Result<(), RunError>>,
}

impl PendingCheckpoint {
    fn is_done(&self) -> bool {
        self.done.is_finished()
    }
}

/// The writer thread's state: the sinks, the statistics, checkpoints,
/// progress.
pub(super) struct Writer {
    pub(super) csv: StreamSink,
    /// With Parquet output: the rows go here (and `csv` discards them)
    /// until [`Writer::finish`] puts the finished file's sink in `csv`.
    pub(super) parquet: Option<ParquetOut>,
    pub(super) side: Option<StreamSink>,
    pub(super) bundle: Option<StreamSink>,
    pub(super) files_dir: Option<PathBuf>,
    /// The game's whole files written into `files_dir` that no checkpoint
    /// covers yet: removed if the run ends with nothing to resume. `None`
    /// once there were too many to track (then a failure names the folder).
    pub(super) files_written: Option<Vec<PathBuf>>,
    pub(super) accs: Vec<Accumulator>,
    /// Where checkpoints go (only when the CSV is a regular file).
    pub(super) checkpoint: Option<PathBuf>,
    /// The game the newest checkpoint on disk resumes at.
    pub(super) saved_at: Option<u64>,
    /// A checkpoint being made durable on its own thread.
    pub(super) pending: Option<PendingCheckpoint>,
    pub(super) identity: RunIdentity,
    pub(super) shard: Option<ShardInfo>,
    pub(super) every: Duration,
    pub(super) last_checkpoint: Instant,
    pub(super) elapsed_before: f64,
    pub(super) started: Instant,
    pub(super) started_unix_s: f64,
    pub(super) progress: Progress,
}

impl Writer {
    /// Takes the played chunks in game order until there are no more, or
    /// until `stop` says a signal asked the run to end (then the rows
    /// written so far are what an interrupted run keeps).
    ///
    /// A chunk's typed rows, once written, go back through `recycle` for
    /// a later chunk to fill (their buffers kept).
    pub(super) fn consume(
        &mut self,
        chunks: impl Iterator<Item = Result<ChunkOut, RunError>>,
        stop: impl Fn() -> bool,
        recycle: impl Fn(RowColumns),
    ) -> Result<(), RunError> {
        let consumed = self.consume_chunks(chunks, stop, recycle);
        if consumed.is_err() {
            // Not leaving a checkpoint half-way (its thread would die with
            // the process); the first error is the one reported.
            let _ = self.settle_checkpoint();
        }
        consumed
    }

    fn consume_chunks(
        &mut self,
        chunks: impl Iterator<Item = Result<ChunkOut, RunError>>,
        stop: impl Fn() -> bool,
        recycle: impl Fn(RowColumns),
    ) -> Result<(), RunError> {
        for chunk in chunks {
            if stop() {
                break;
            }
            let mut chunk = chunk?;
            let r = match &mut self.parquet {
                Some(pq) => match chunk.columns.take() {
                    Some(columns) => {
                        let written = pq.rows.write_columns(&columns);
                        recycle(columns);
                        written.map_err(ParquetError::into_io)
                    }
                    None => Err(io::Error::other("a chunk without its typed rows")),
                },
                None => self.csv.write(&chunk.csv, chunk.games),
            };
            self.check(r, Which::Csv)?;
            if let Some(side) = &mut self.side {
                let r = side.write(&chunk.side, chunk.side_rows);
                self.check(r, Which::Side)?;
            }
            if let Some(bundle) = &mut self.bundle {
                let r = chunk.files.iter().try_for_each(|(_, b)| bundle.write(b, 1));
                self.check(r, Which::Bundle)?;
            } else if let Some(dir) = &self.files_dir {
                for (name, bytes) in chunk.files {
                    let path = dir.join(name);
                    if let Err(e) = write_whole(&path, bytes) {
                        self.settle_checkpoint()?;
                        let what = format!("cannot write {}", path.display());
                        return Err(RunError::io(what)(e).leaving(&self.left()));
                    }
                    if let (Some(written), None) = (&mut self.files_written, self.saved_at) {
                        written.push(path);
                        if written.len() > MAX_TRACKED_FILES {
                            self.files_written = None;
                        }
                    }
                }
            }
            for (acc, folded) in self.accs.iter_mut().zip(&chunk.stats) {
                acc.absorb(folded);
            }
            self.progress.advance(chunk.games);
            if let Some(failure) = chunk.failed {
                return Err(self.game_failed(failure));
            }
            self.parquet_boundary(self.progress.first + self.progress.done)?;
            if self
                .pending
                .as_ref()
                .is_some_and(PendingCheckpoint::is_done)
            {
                self.settle_checkpoint()?;
            }
            let due = self.last_checkpoint.elapsed() >= self.every;
            if self.checkpoint.is_some() && due && self.pending.is_none() && self.news() {
                self.begin_checkpoint()?;
            }
        }
        Ok(())
    }

    /// Ends the run at a game that could not be played: every game before
    /// it is written; a run that can resume checkpoints them, so that the
    /// same command with `--resume` starts again at the failed game.
    fn game_failed(&mut self, failure: GameFailure) -> RunError {
        if self.checkpoint.is_some() {
            if let Err(e) = self.save_checkpoint() {
                return e;
            }
        }
        RunError::GameFailed(format!("{failure}{}", self.left()))
    }

    /// Turns a failed write into an error naming the output and saying what
    /// was left on disk.
    fn check<T>(&mut self, result: io::Result<T>, which: Which) -> Result<T, RunError> {
        if result.is_err() {
            // What is left on disk depends on the checkpoint in flight.
            self.settle_checkpoint()?;
        }
        result.map_err(|e| {
            let sink = match which {
                Which::Csv => Some(&self.csv),
                Which::Side => self.side.as_ref(),
                Which::Bundle => self.bundle.as_ref(),
            };
            let name = match (which, &self.parquet) {
                (Which::Csv, Some(pq)) => pq.dest.describe(),
                _ => sink
                    .and_then(StreamSink::destination)
                    .map_or("the output".into(), Destination::describe),
            };
            RunError::io(format!("cannot write {name}"))(e).leaving(&self.left())
        })
    }

    /// The partial files of a regular-file run.
    fn partials(&self) -> Vec<String> {
        let parquet = self.parquet.as_ref().map(|pq| &pq.dest);
        let index = self.parquet.as_ref().and_then(|pq| pq.index.as_ref());
        let sinks = [
            Some(&self.csv),
            self.side.as_ref(),
            self.bundle.as_ref(),
            index,
        ];
        parquet
            .into_iter()
            .chain(
                sinks
                    .into_iter()
                    .flatten()
                    .filter_map(StreamSink::destination),
            )
            .filter(|d| d.is_regular())
            .filter_map(Destination::writing_path)
            .map(|p| p.display().to_string())
            .collect()
    }

    /// What a failure while playing leaves on disk, for its message: the
    /// partial files and their checkpoint when one was saved, else nothing
    /// ([`Writer::give_up`] removes what could not resume).
    fn left(&self) -> String {
        match (&self.checkpoint, self.saved_at) {
            (Some(ckpt), Some(game)) => format!(
                "; kept {} and its checkpoint {} (complete up to game {game}): run the same \
                 command with --resume to continue",
                self.partials().join(", "),
                ckpt.display()
            ),
            _ => {
                let mut removed = self.partials();
                if self.files_dir.is_some() && self.files_written.is_some() {
                    removed.push("the files written into the --phh folder".into());
                }
                let mut note = String::new();
                if !removed.is_empty() {
                    note = format!(
                        "; removed {} (no checkpoint to resume from yet)",
                        removed.join(", ")
                    );
                }
                if let (Some(dir), None) = (&self.files_dir, &self.files_written) {
                    note.push_str(&format!(
                        "; the files already written stay in {}",
                        dir.display()
                    ));
                }
                note
            }
        }
    }

    /// Ends a failed run: when no checkpoint was saved, nothing can resume,
    /// so its partial files and the game's files it wrote are removed (the
    /// error's message, built by [`Writer::left`], says so).
    pub(super) fn give_up(mut self, error: RunError) -> RunError {
        let _ = self.settle_checkpoint();
        if self.saved_at.is_none() {
            self.discard_unresumable();
        }
        error
    }

    /// Removes what a run that cannot resume wrote: the partial files and
    /// the game's files in `files_dir`.
    fn discard_unresumable(&mut self) {
        let csv = std::mem::replace(&mut self.csv, StreamSink::discard());
        csv.abandon();
        if let Some(pq) = self.parquet.take() {
            let ParquetOut {
                rows, dest, index, ..
            } = pq;
            drop(rows);
            if let Destination::Atomic(p) = &dest {
                let _ = std::fs::remove_file(partial_path(p));
            }
            index.into_iter().for_each(StreamSink::abandon);
        }
        self.side.take().into_iter().for_each(StreamSink::abandon);
        self.bundle.take().into_iter().for_each(StreamSink::abandon);
        for path in self.files_written.iter().flatten() {
            let _ = std::fs::remove_file(path);
        }
    }

    /// Ends a run stopped by `signal`: every output synced and, for a run
    /// that can resume, a checkpoint of the rows written; the error says
    /// what was kept and the command that continues.
    pub(super) fn interrupted(
        mut self,
        signal: i32,
        config: &RunConfig,
        range: &Range<u64>,
    ) -> RunError {
        self.progress.finish();
        let at = self.progress.first + self.progress.done;
        let head = format!(
            "interrupted by {} at game {} of {}",
            signal_name(signal),
            grouped(at),
            grouped(range.end)
        );
        if self.checkpoint.is_some() {
            if let Err(e) = self.save_checkpoint() {
                return e;
            }
        }
        // A Parquet file resumes at its last whole row group (none yet:
        // nothing to resume).
        let kept = if let (Some(_), Some(saved)) = (&self.checkpoint, self.saved_at) {
            let ckpt = self.checkpoint.as_ref().map(|p| p.display().to_string());
            let from = if saved < at {
                format!(" (whole row groups up to game {})", grouped(saved))
            } else {
                String::new()
            };
            format!(
                ": kept {}{from} and its checkpoint {}; to continue, run: {}",
                self.partials().join(", "),
                ckpt.unwrap_or_default(),
                resume_command(&config.command)
            )
        } else {
            let r = self.csv.flush();
            if let Err(e) = self.check(r, Which::Csv) {
                return e;
            }
            let kept = match self.csv.destination() {
                Some(d) if !d.is_regular() => format!(
                    ": the rows written to {} end before game {}; nothing can resume \
                     (a run resumes only with --out FILE)",
                    d.describe(),
                    grouped(at)
                ),
                _ if self.parquet.as_ref().is_some_and(|pq| pq.index.is_some()) => format!(
                    ": nothing was kept (a Parquet file resumes from its first whole row group \
                     of {} games)",
                    grouped(crate::sim::parquet::ROW_GROUP_ROWS as u64)
                ),
                _ => ": nothing was kept (a run resumes only with --out FILE)".to_string(),
            };
            self.discard_unresumable();
            match (&self.files_dir, &self.files_written) {
                (Some(dir), None) => format!(
                    "{kept}; the files already written stay in {}",
                    dir.display()
                ),
                (Some(_), Some(w)) if !w.is_empty() => {
                    format!("{kept}; removed the files written into the --phh folder")
                }
                _ => kept,
            }
        };
        RunError::Interrupted {
            signal,
            message: format!("{head}{kept}"),
        }
    }

    fn elapsed(&self) -> f64 {
        self.elapsed_before + self.started.elapsed().as_secs_f64()
    }

    /// Syncs every output, then atomically replaces the checkpoint: a kill
    /// (or a power cut) at any instant leaves a checkpoint whose rows are
    /// all on disk. Waits for a checkpoint in flight first, so that an older
    /// one never lands over this one.
    fn save_checkpoint(&mut self) -> Result<(), RunError> {
        self.settle_checkpoint()?;
        let Some(job) = self.checkpoint_job()? else {
            return Ok(());
        };
        let next_game = job.next_game;
        if let Err(e) = job.run() {
            return Err(e.leaving(&self.left()));
        }
        self.saved_at = Some(next_game);
        self.last_checkpoint = Instant::now();
        Ok(())
    }

    /// Starts a checkpoint on its own thread: the rows are flushed to the
    /// files here, and the syncs (which on a large file can take a good
    /// part of a second) and the checkpoint's write happen there, while
    /// this thread goes on writing rows. Syncing a file makes durable every
    /// byte written to it so far, the checkpoint's rows and perhaps more,
    /// and the checkpoint is written only after: the guarantee of
    /// [`Writer::save_checkpoint`] holds. One at a time: the caller starts
    /// one only when none is in flight.
    fn begin_checkpoint(&mut self) -> Result<(), RunError> {
        debug_assert!(self.pending.is_none());
        let Some(job) = self.checkpoint_job()? else {
            return Ok(());
        };
        let next_game = job.next_game;
        let done = std::thread::Builder::new()
            .name("checkpoint".into())
            .spawn(move || job.run())
            .map_err(|e| RunError::Internal(format!("cannot start a checkpoint thread: {e}")))?;
        self.pending = Some(PendingCheckpoint { next_game, done });
        self.last_checkpoint = Instant::now();
        Ok(())
    }

    /// Waits for the checkpoint in flight, if any: once it is on disk the
    /// run can resume from it.
    pub(super) fn settle_checkpoint(&mut self) -> Result<(), RunError> {
        let Some(pending) = self.pending.take() else {
            return Ok(());
        };
        match pending.done.join() {
            Ok(Ok(())) => {
                self.saved_at = Some(pending.next_game);
                Ok(())
            }
            Ok(Err(e)) => Err(e.leaving(&self.left())),
            Err(_) => Err(RunError::Internal("the checkpoint thread panicked".into())),
        }
    }

    /// Flushes every output and seals a checkpoint of where they stand:
    /// what is left to do is the syncs and the write ([`CheckpointJob::run`]).
    fn checkpoint_job(&mut self) -> Result<Option<CheckpointJob>, RunError> {
        let Some(path) = self.checkpoint.clone() else {
            return Ok(None);
        };
        let mut files = Vec::new();
        for which in [Which::Csv, Which::Side, Which::Bundle] {
            let sink = match which {
                Which::Csv => Some(&mut self.csv),
                Which::Side => self.side.as_mut(),
                Which::Bundle => self.bundle.as_mut(),
            };
            let Some(sink) = sink else { continue };
            let name = sink
                .destination()
                .map_or("the output".into(), Destination::describe);
            let r = sink.to_sync();
            if let Some(file) = self.check(r, which)? {
                files.push((name, file));
            }
        }
        let ckpt = match &mut self.parquet {
            // A Parquet file: at its last row-group boundary, or not yet.
            Some(ParquetOut {
                rows,
                dest,
                index: Some(index),
                boundary,
            }) => {
                let Some(b) = boundary.as_ref() else {
                    return Ok(None);
                };
                let index_name = index
                    .destination()
                    .map_or(String::new(), Destination::describe);
                let name = dest.describe();
                let file = rows
                    .inner_mut()
                    .settled()
                    .map_err(RunError::io(format!("cannot write {name}")))?;
                for (sink, name) in [(file, name), (index, index_name)] {
                    let file = sink
                        .to_sync()
                        .map_err(RunError::io(format!("cannot write {name}")))?;
                    files.extend(file.map(|f| (name, f)));
                }
                Checkpoint {
                    identity: self.identity.clone(),
                    shard: self.shard,
                    next_game: b.next_game,
                    csv: b.file.clone(),
                    side: b.side.clone(),
                    bundle: b.bundle.clone(),
                    row_groups: Some(b.index.clone()),
                    elapsed_s: b.elapsed_s,
                    started_unix_s: self.started_unix_s,
                    state: b.state.clone(),
                }
            }
            _ => Checkpoint {
                identity: self.identity.clone(),
                shard: self.shard,
                next_game: self.progress.first + self.progress.done,
                csv: self.csv.resume_point().into(),
                side: self.side.as_ref().map(|s| s.resume_point().into()),
                bundle: self.bundle.as_ref().map(|s| s.resume_point().into()),
                row_groups: None,
                elapsed_s: self.elapsed(),
                started_unix_s: self.started_unix_s,
                state: self.state(),
            },
        };
        let next_game = ckpt.next_game;
        let sealed = ckpt
            .seal()
            .map_err(|e| RunError::Internal(format!("checkpoint: {e}")))?;
        Ok(Some(CheckpointJob {
            files,
            path,
            sealed,
            next_game,
        }))
    }

    /// Whether a checkpoint taken now would say more than the one on disk:
    /// always for a CSV; for a Parquet file, once a row group has ended
    /// since.
    fn news(&self) -> bool {
        match &self.parquet {
            Some(ParquetOut {
                index: Some(_),
                boundary,
                ..
            }) => boundary.as_ref().map(|b| b.next_game) > self.saved_at,
            _ => true,
        }
    }

    /// After a chunk: appends the index records of the row groups it ended
    /// and, when its rows ended one (row groups hold whole chunks), takes
    /// the run's state there, where the next checkpoint resumes.
    fn parquet_boundary(&mut self, next_game: u64) -> Result<(), RunError> {
        let Some(ParquetOut {
            rows,
            dest,
            index: Some(index),
            boundary,
        }) = &mut self.parquet
        else {
            return Ok(());
        };
        let records = rows.take_index();
        if records.is_empty() {
            return Ok(());
        }
        if let Err(e) = index.write(&records, 0) {
            let name = index
                .destination()
                .map_or(String::new(), Destination::describe);
            self.settle_checkpoint()?;
            return Err(RunError::io(format!("cannot write {name}"))(e).leaving(&self.left()));
        }
        if rows.pending() > 0 {
            return Ok(());
        }
        let written = rows.rows();
        let (bytes, blake3) = match rows.inner_mut().settled() {
            Ok(sink) => (sink.bytes(), sink.digest()),
            Err(e) => {
                let name = dest.describe();
                self.settle_checkpoint()?;
                return Err(RunError::io(format!("cannot write {name}"))(e).leaving(&self.left()));
            }
        };
        let file = FileMark {
            bytes,
            rows: written,
            blake3,
        };
        let index = index.resume_point().into();
        let elapsed_s = self.elapsed_before + self.started.elapsed().as_secs_f64();
        *boundary = Some(Boundary {
            next_game,
            file,
            index,
            side: self.side.as_ref().map(|s| s.resume_point().into()),
            bundle: self.bundle.as_ref().map(|s| s.resume_point().into()),
            state: self.accs.iter().map(|a| a.to_state("")).collect(),
            elapsed_s,
        });
        Ok(())
    }

    fn state(&self) -> Vec<crate::sim::stats::AccumulatorState> {
        // Names are filled in by the caller that knows the metrics; the
        // checkpoint only needs the order.
        self.accs.iter().map(|a| a.to_state("")).collect()
    }

    /// Completes the run in an order that never lets a file claim more than
    /// is true: every output synced (and a last checkpoint saved), the
    /// histograms and summary written under temporary names, then the CSVs
    /// renamed into place, then the histograms, and the summary last.
    pub(super) fn finish(
        mut self,
        config: &RunConfig,
        metrics: &[Metric],
        range: Range<u64>,
        threads: usize,
    ) -> Result<RunOutcome, RunError> {
        self.progress.finish();
        // A Parquet file: its last row group ends the last boundary, which
        // a last checkpoint vouches for; then the footer, and the file is
        // synced and kept in `csv` to be renamed with the others.
        let mut parquet_index = None;
        if let Some(pq) = &mut self.parquet {
            let r = pq.rows.end_row_group().map_err(ParquetError::into_io);
            self.check(r, Which::Csv)?;
            self.parquet_boundary(range.end)?;
        }
        if self.checkpoint.is_some() {
            self.save_checkpoint()?;
        }
        if let Some(pq) = self.parquet.take() {
            let left = match self.saved_at {
                Some(_) => self.left(),
                None => String::new(),
            };
            let ParquetOut {
                rows, dest, index, ..
            } = pq;
            let name = dest.describe();
            let fail =
                |e: io::Error| RunError::io(format!("cannot write {name}"))(e).leaving(&left);
            let finished = rows
                .finish()
                .and_then(|done| Ok((done.inner.into_sink()?, done.rows)));
            let mut sink = match finished {
                Ok((mut sink, rows)) => {
                    sink.add_rows(rows.saturating_sub(sink.rows()));
                    sink
                }
                Err(e) => {
                    if self.saved_at.is_none() {
                        // Nothing to resume (a stream): nothing kept.
                        if let Destination::Atomic(p) = &dest {
                            let _ = std::fs::remove_file(partial_path(p));
                        }
                        index.into_iter().for_each(StreamSink::abandon);
                        self.discard_unresumable();
                    }
                    return Err(fail(e.into_io()));
                }
            };
            if let Err(e) = sink.sync() {
                return Err(fail(e));
            }
            self.csv = sink;
            parquet_index = index;
        } else if self.checkpoint.is_none() {
            let r = self.csv.flush();
            self.check(r, Which::Csv)?;
        }
        let wall = self.elapsed();
        let played = range.end - range.start;
        let summary_at = config.summary.as_deref().unwrap_or(Path::new("-"));
        let record = |sink: Option<&StreamSink>, given: Option<&Path>| {
            let sink = sink?;
            let dest = sink.destination()?;
            Some(FileRecord::new(
                given
                    .filter(|_| dest.is_regular())
                    .map(|p| recorded_path(p, summary_at)),
                sink.rows(),
                sink.bytes(),
                sink.digest(),
            ))
        };
        let mut summary = Summary {
            format: SUMMARY_FORMAT.to_string(),
            identity: self.identity.clone(),
            command: config.command.clone(),
            shard: self.shard,
            first_game: range.start,
            end_game: range.end,
            threads,
            started_unix_s: self.started_unix_s,
            finished_unix_s: unix_now(),
            wall_time_s: wall,
            games_per_s: if wall > 0.0 {
                played as f64 / wall
            } else {
                0.0
            },
            merged: None,
            csv: record(Some(&self.csv), config.out.as_deref()),
            side_csv: record(self.side.as_ref(), config.side_out.as_deref()),
            bundle: record(self.bundle.as_ref(), config.files_bundle.as_deref()),
            metrics: metrics
                .iter()
                .zip(&self.accs)
                .map(|(m, a)| a.summarize(&m.name))
                .collect(),
            state: metrics
                .iter()
                .zip(&self.accs)
                .map(|(m, a)| a.to_state(&m.name))
                .collect(),
            agents: Vec::new(),
            checksum: String::new(),
        };
        summary.agents = crate::holdem::duplicate::agent_table(&summary.identity, &summary.metrics);
        let reports = stage_reports(
            &mut summary,
            metrics,
            &self.accs,
            config.summary.as_deref(),
            config.hist.as_deref(),
        )
        .map_err(|e| {
            let note = match &self.checkpoint {
                Some(ckpt) => format!(
                    "; nothing was renamed into place: the complete {} kept with the \
                     checkpoint {}: run the same command with --resume to finish",
                    self.partials().join(", "),
                    ckpt.display()
                ),
                None => String::new(),
            };
            e.leaving(&note)
        })?;
        let Writer {
            csv,
            side,
            bundle,
            checkpoint,
            ..
        } = self;
        for sink in [Some(csv), side, bundle].into_iter().flatten() {
            let name = sink
                .destination()
                .and_then(Destination::final_path)
                .map_or("the output".into(), |p| p.display().to_string());
            sink.commit()
                .map_err(RunError::io(format!("cannot rename {name} into place")))?;
        }
        if let Some(ckpt) = &checkpoint {
            let _ = std::fs::remove_file(ckpt);
        }
        // The row-group index goes once the checkpoint that needs it is gone.
        parquet_index.into_iter().for_each(StreamSink::abandon);
        commit_reports(reports)?;
        if !config.quiet {
            let _ = io::stderr().write_all(summary_table(&summary).as_bytes());
        }
        Ok(RunOutcome { summary })
    }
}
