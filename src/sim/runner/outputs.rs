//! A run's outputs before any game is played: resolved (symlinks followed,
//! special files told apart), checked to be distinct, locked for this run,
//! their folders made, and opened fresh or reopened to resume.

use super::*;

/// The run's outputs, resolved (symlinks followed, special files told
/// apart), checked and locked before any game is played.
pub(super) struct Outputs {
    pub(super) csv: Option<Destination>,
    pub(super) side: Option<Destination>,
    pub(super) bundle: Option<Destination>,
    /// Held until the run ends: no other run writes these outputs.
    pub(super) _locks: Vec<OutputLock>,
    /// Folders this run created (`--hist`, the game's files), removed
    /// again if the run fails before anything in them can resume.
    pub(super) created_dirs: Vec<PathBuf>,
}

impl Outputs {
    pub(super) fn resolve(config: &RunConfig) -> Result<Outputs, RunError> {
        let resolve =
            |flag: &str, path: &Option<PathBuf>| -> Result<Option<Destination>, RunError> {
                path.as_deref()
                    .map(|p| {
                        Destination::resolve(p).map_err(|e| {
                            RunError::Input(format!("cannot write {flag} '{}': {e}", p.display()))
                        })
                    })
                    .transpose()
            };
        let csv = resolve("--out", &config.out)?;
        let side = resolve("--pots", &config.side_out)?;
        let bundle = resolve("--phh", &config.files_bundle)?;
        let summary = resolve("--summary", &config.summary)?;
        check_distinct(&[
            ("--out", csv.as_ref()),
            ("--pots", side.as_ref()),
            ("--phh", bundle.as_ref()),
            ("--summary", summary.as_ref()),
        ])?;
        for (flag, dest) in [("--pots", &side), ("--phh", &bundle)] {
            if dest == &Some(Destination::Stdout) {
                return Err(RunError::Input(format!(
                    "{flag} cannot be '-': it must be a file of its own"
                )));
            }
        }
        if config.resume && !matches!(csv, Some(Destination::Atomic(_))) {
            let what = match (&csv, &config.out) {
                (Some(Destination::Direct(_)), Some(p)) => {
                    format!("'{}' is a device or FIFO", p.display())
                }
                _ => "stdout cannot be resumed".to_string(),
            };
            return Err(RunError::Input(format!(
                "--resume needs --out to be a regular file: {what}"
            )));
        }
        // Every file and folder this run will write, owned by it alone from
        // here on: a second run on any of them is refused before it writes.
        let owned: Vec<PathBuf> = [&csv, &side, &bundle, &summary]
            .into_iter()
            .filter_map(|d| match d {
                Some(Destination::Atomic(p)) => Some(p.clone()),
                _ => None,
            })
            .collect();
        let mut locks = acquire_all(owned.iter().map(PathBuf::as_path))
            .map_err(|e| RunError::Input(e.to_string()))?;
        if let Some(Destination::Atomic(path)) = &summary {
            // Fail now (exit 2) rather than after a long run.
            let probe = partial_path(path);
            std::fs::write(&probe, b"")
                .and_then(|()| std::fs::remove_file(&probe))
                .map_err(|e| {
                    RunError::Input(format!(
                        "cannot write --summary '{}': {e}",
                        config.summary.as_deref().unwrap_or(path).display()
                    ))
                })?;
        }
        let mut outputs = Outputs {
            csv,
            side,
            bundle,
            _locks: Vec::new(),
            created_dirs: Vec::new(),
        };
        for (flag, dir) in [("--hist", &config.hist), ("--phh", &config.files_dir)] {
            let Some(dir) = dir else { continue };
            let created = create_folders(dir).map_err(|e| {
                outputs.remove_created_dirs();
                RunError::Input(format!("cannot create {flag} '{}': {e}", dir.display()))
            })?;
            outputs.created_dirs.extend(created);
            let lock = OutputLock::acquire(dir).map_err(|e| {
                outputs.remove_created_dirs();
                RunError::Input(e.to_string())
            })?;
            locks.push(lock);
        }
        outputs._locks = locks;
        Ok(outputs)
    }

    /// After a failure that left nothing to resume: removes the folders this
    /// run created, if they are still empty.
    pub(super) fn remove_created_dirs(&self) {
        for dir in self.created_dirs.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Creates a folder and any missing parents, and returns the ones it
/// created, outermost first.
fn create_folders(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let missing: Vec<PathBuf> = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .take_while(|a| !a.exists())
        .map(Path::to_path_buf)
        .collect();
    std::fs::create_dir_all(dir)?;
    Ok(missing.into_iter().rev().collect())
}

/// Refuses two outputs on one path (stdout, or one file), which would
/// interleave or overwrite each other; a device such as `/dev/null` may
/// take several.
pub(crate) fn check_distinct(outputs: &[(&str, Option<&Destination>)]) -> Result<(), RunError> {
    for (i, (a, da)) in outputs.iter().enumerate() {
        for (b, db) in &outputs[i + 1..] {
            let clash = match (da, db) {
                (Some(Destination::Stdout), Some(Destination::Stdout)) => true,
                (Some(Destination::Atomic(x)), Some(Destination::Atomic(y))) => x == y,
                _ => false,
            };
            if clash {
                let on = match da {
                    Some(Destination::Atomic(p)) => format!("'{}'", p.display()),
                    _ => "stdout ('-')".into(),
                };
                return Err(RunError::Input(format!(
                    "{a} and {b} both write to {on}: give each output its own path"
                )));
            }
        }
    }
    Ok(())
}

/// Opens a streamed output: fresh (with its header, if any), or, when the
/// run resumes, its partial file verified against the checkpoint's mark.
pub(super) fn open_stream(
    dest: Option<&Destination>,
    resume_at: Option<&FileMark>,
    flag: &str,
    header: Option<&[u8]>,
) -> Result<StreamSink, RunError> {
    let Some(dest) = dest else {
        return Ok(StreamSink::discard());
    };
    if let (Some(mark), Destination::Atomic(path)) = (resume_at, dest) {
        return StreamSink::reopen(path, &mark.into()).map_err(|e| match e {
            ResumeError::Io(e) => RunError::Input(format!(
                "cannot resume {flag}: cannot open {}: {e}",
                partial_path(path).display()
            )),
            ResumeError::Mismatch(why) => RunError::Input(format!(
                "cannot resume {flag}: {why}; rerun without --resume to start over"
            )),
        });
    }
    let mut sink = StreamSink::create(dest.clone())
        .map_err(|e| RunError::Input(format!("cannot write {flag} '{}': {e}", dest.describe())))?;
    if let Some(h) = header {
        sink.write(h, 0)
            .map_err(RunError::io(format!("cannot write {}", dest.describe())))?;
    }
    Ok(sink)
}

/// Opens an output beside the main CSV, when asked for; a resumed run must
/// have written it before.
pub(super) fn open_extra(
    dest: Option<&Destination>,
    start: &Start,
    mark: Option<&FileMark>,
    flag: &str,
    header: Option<&[u8]>,
) -> Result<Option<StreamSink>, RunError> {
    let Some(dest) = dest else {
        return Ok(None);
    };
    if start.resumed && mark.is_none() {
        return Err(RunError::Input(format!(
            "cannot resume with {flag}: the interrupted run did not write it; rerun without \
             --resume, or without {flag}"
        )));
    }
    open_stream(Some(dest), mark, flag, header).map(Some)
}
