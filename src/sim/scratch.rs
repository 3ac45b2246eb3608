//! Private temporary folders (`verify --rerun` writes its rerun into one)
//! that never outlive their owner for long: removed when dropped (on
//! success, error or a handled signal), and, when the owner was killed
//! outright, removed by the next owner of the same kind.
//!
//! Each folder `<tmp>/<prefix>-<pid>-<nanos>` is locked for its owner's
//! lifetime through [`OutputLock`] (the lock file sits beside it). The
//! lock is taken before the folder is made and released after it is
//! removed, so a folder whose lock can be taken belongs to nobody: its
//! owner died. [`ScratchDir::new`] sweeps those first.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::lock::OutputLock;

/// A private temporary folder, removed when dropped.
#[derive(Debug)]
pub struct ScratchDir {
    path: PathBuf,
    /// Declared after `path` and released in `drop` after the removal.
    lock: Option<OutputLock>,
}

impl ScratchDir {
    /// Makes a new folder in the system's temporary directory, after
    /// removing the folders of the same prefix left by killed processes.
    pub fn new(prefix: &str) -> io::Result<ScratchDir> {
        Self::new_in(&std::env::temp_dir(), prefix)
    }

    /// [`ScratchDir::new`] in `parent`.
    pub fn new_in(parent: &Path, prefix: &str) -> io::Result<ScratchDir> {
        remove_stale(parent, prefix);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = parent.join(format!("{prefix}-{}-{nanos}", std::process::id()));
        let lock = OutputLock::acquire(&path).map_err(io::Error::other)?;
        fs::create_dir(&path)?;
        Ok(ScratchDir {
            path,
            lock: Some(lock),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
        drop(self.lock.take());
    }
}

/// Removes the folders (and lock files) named `<prefix>-*` in `parent`
/// whose owner is gone; returns how many folders it removed.
pub fn remove_stale(parent: &Path, prefix: &str) -> usize {
    let Ok(entries) = fs::read_dir(parent) else {
        return 0;
    };
    let start = format!("{prefix}-");
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !name.starts_with(&start) || name.ends_with(".lock") {
            continue;
        }
        let path = entry.path();
        // Taken only if its owner is gone; dropping it removes the lock file.
        if let Ok(lock) = OutputLock::acquire(&path) {
            if fs::remove_dir_all(&path).is_ok() {
                removed += 1;
            }
            drop(lock);
        }
    }
    // Lock files whose folder is gone (a kill between removal and release).
    if let Ok(entries) = fs::read_dir(parent) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".lock")) else {
                continue;
            };
            let folder = parent.join(stem);
            if stem.starts_with(&start) && !folder.exists() {
                if let Ok(lock) = OutputLock::acquire(&folder) {
                    drop(lock);
                }
            }
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::super::lock::lock_path;
    use super::*;

    #[test]
    fn a_folder_is_removed_when_dropped_and_a_dead_owners_folder_by_the_next() {
        let parent = tempfile::tempdir().unwrap();
        let live = ScratchDir::new_in(parent.path(), "t").unwrap();
        fs::write(live.path().join("f"), b"x").unwrap();
        // What a killed process leaves: its folder and an unheld lock file.
        let dead = parent.path().join("t-1-2");
        fs::create_dir(&dead).unwrap();
        fs::write(dead.join("out.csv.partial"), b"rows").unwrap();
        fs::write(lock_path(&dead), b"1\n").unwrap();
        let orphan_lock = lock_path(&parent.path().join("t-3-4"));
        fs::write(&orphan_lock, b"3\n").unwrap();
        let other = parent.path().join("other-1-2");
        fs::create_dir(&other).unwrap();

        let next = ScratchDir::new_in(parent.path(), "t").unwrap();
        assert!(!dead.exists() && !lock_path(&dead).exists());
        assert!(!orphan_lock.exists());
        assert!(
            live.path().join("f").exists(),
            "a live owner's folder is kept"
        );
        assert!(other.exists(), "another prefix is not touched");
        let (a, b) = (live.path().to_path_buf(), next.path().to_path_buf());
        drop(live);
        drop(next);
        assert!(!a.exists() && !lock_path(&a).exists());
        assert!(!b.exists() && !lock_path(&b).exists());
    }
}
