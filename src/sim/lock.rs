//! One run per output: an exclusive lock taken on every output before
//! anything is written, so a second run on the same path is refused at once
//! instead of interleaving its bytes with the first run's.
//!
//! The lock is an advisory `flock` on a small file beside the output,
//! `<output>.lock`, holding the owner's process id (for the refusal's
//! message). The kernel releases a `flock` when its owner dies, however it
//! dies, so a lock file left by a killed run is stale by construction: the
//! next run (a `--resume`, or a fresh start) simply takes it over. A run
//! that ends removes its lock file.
//!
//! Removing a lock file races with a newcomer that opened it just before:
//! the newcomer would lock an inode no path names any more. So after
//! locking, the newcomer checks that the path still names the file it
//! locked, and starts again if not.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Why an output could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another live run (or another output of this run) holds it.
    #[error("{output} is being written by {holder}: wait for it to end, or choose another path")]
    Busy { output: String, holder: String },
    #[error("cannot lock {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
}

/// The lock file of an output: `<output>.lock` beside it (a trailing `/` of
/// a directory's path is ignored, so `hist/` locks `hist.lock`).
pub fn lock_path(output: &Path) -> PathBuf {
    match (output.parent(), output.file_name()) {
        (Some(dir), Some(name)) => {
            let mut name = name.to_owned();
            name.push(".lock");
            dir.join(name)
        }
        _ => {
            let mut s = output.as_os_str().to_owned();
            s.push(".lock");
            PathBuf::from(s)
        }
    }
}

/// An output owned by this run until the value is dropped (which removes
/// the lock file, then releases the lock).
#[derive(Debug)]
pub struct OutputLock {
    path: PathBuf,
    _file: File,
}

/// Attempts before giving up on a lock file that keeps being replaced.
const ATTEMPTS: usize = 32;

impl OutputLock {
    /// Locks `output` for this run, or says who holds it.
    pub fn acquire(output: &Path) -> Result<OutputLock, LockError> {
        let path = lock_path(output);
        let io_err = |source| LockError::Io {
            path: path.display().to_string(),
            source,
        };
        for _ in 0..ATTEMPTS {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(io_err)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(LockError::Busy {
                        output: output.display().to_string(),
                        holder: holder(&mut file),
                    });
                }
                Err(fs::TryLockError::Error(e)) => return Err(io_err(e)),
            }
            let mine = file.metadata().map_err(io_err)?;
            let named = fs::metadata(&path).ok();
            if named.is_some_and(|m| m.dev() == mine.dev() && m.ino() == mine.ino()) {
                file.set_len(0).map_err(io_err)?;
                writeln!(file, "{}", std::process::id()).map_err(io_err)?;
                return Ok(OutputLock { path, _file: file });
            }
            // Its last owner removed it between our open and our lock.
        }
        Err(io_err(io::Error::other(
            "the lock file keeps being replaced",
        )))
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Removed while still locked; the lock goes with the file handle.
        let _ = fs::remove_file(&self.path);
    }
}

/// Who holds a lock, from the pid its owner wrote.
fn holder(file: &mut File) -> String {
    let mut text = String::new();
    let _ = file.take(64).read_to_string(&mut text);
    match text.trim().parse::<u32>() {
        Ok(pid) if pid == std::process::id() => {
            "this same run (two of its outputs are one file)".into()
        }
        Ok(pid) => format!("another cardsim run (pid {pid})"),
        Err(_) => "another cardsim run".into(),
    }
}

/// Locks every output of a run, all or none.
pub fn acquire_all<'a>(
    outputs: impl IntoIterator<Item = &'a Path>,
) -> Result<Vec<OutputLock>, LockError> {
    outputs.into_iter().map(OutputLock::acquire).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_one_output_is_refused_until_the_first_ends() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("x.csv");
        let first = OutputLock::acquire(&out).unwrap();
        assert_eq!(
            fs::read_to_string(lock_path(&out)).unwrap().trim(),
            std::process::id().to_string()
        );
        let err = OutputLock::acquire(&out).unwrap_err().to_string();
        assert!(
            err.contains("x.csv is being written by this same run"),
            "{err}"
        );
        drop(first);
        assert!(
            !lock_path(&out).exists(),
            "the lock file is removed at the end"
        );
        let again = OutputLock::acquire(&out).unwrap();
        drop(again);
    }

    #[test]
    fn a_stale_lock_file_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("x.csv");
        // What a killed run leaves: the file, with nobody holding the lock.
        fs::write(lock_path(&out), "999999999\n").unwrap();
        let lock = OutputLock::acquire(&out).unwrap();
        assert_eq!(
            fs::read_to_string(lock_path(&out)).unwrap().trim(),
            std::process::id().to_string()
        );
        drop(lock);
    }

    #[test]
    fn lock_paths_sit_beside_files_and_folders() {
        assert_eq!(lock_path(Path::new("a/x.csv")), Path::new("a/x.csv.lock"));
        assert_eq!(lock_path(Path::new("hist/")), Path::new("hist.lock"));
        assert_eq!(lock_path(Path::new("x")), Path::new("x.lock"));
    }
}
