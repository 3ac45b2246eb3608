//! Where output bytes go, and how an output becomes final.
//!
//! An output path is one of three kinds of [`Destination`]:
//! - a regular file or a new path: written under `<path>.partial` in the
//!   same directory, synced, then renamed over `<path>`, so a file under its
//!   final name is always complete;
//! - a symlink: resolved, and its target written as above, in the target's
//!   directory (the link itself is never replaced);
//! - a character device or a FIFO (`/dev/null`, `/dev/full`, a named pipe):
//!   opened and written directly. Renaming over it would replace the device
//!   with a file (as root, even `/dev/null`).
//!
//! `-` is standard output. Streamed outputs ([`StreamSink`]) count their
//! bytes and rows and hash what they write (BLAKE3), so a checkpoint and a
//! summary can vouch for exactly the bytes of a file.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

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

/// Symlinks followed before giving up (as the kernel's `ELOOP` limit).
const MAX_LINKS: usize = 40;

/// What an output path is, once resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// `-`: standard output.
    Stdout,
    /// A regular file or a new path (symlinks already followed): written
    /// under a temporary name and renamed into place.
    Atomic(PathBuf),
    /// A character device, FIFO or other special file: written in place.
    Direct(PathBuf),
}

impl Destination {
    /// Resolves an output path: follows symlinks (also dangling ones, to
    /// the path they name), refuses directories.
    pub fn resolve(path: &Path) -> io::Result<Destination> {
        if path == Path::new("-") {
            return Ok(Destination::Stdout);
        }
        let mut at = path.to_path_buf();
        for _ in 0..MAX_LINKS {
            let meta = match fs::symlink_metadata(&at) {
                Ok(m) => m,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    check_folder(&at)?;
                    return Ok(Destination::Atomic(at));
                }
                Err(e) => return Err(e),
            };
            let kind = meta.file_type();
            if kind.is_symlink() {
                let target = fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
                continue;
            }
            if kind.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "it is a directory",
                ));
            }
            return Ok(if kind.is_file() {
                Destination::Atomic(at)
            } else {
                Destination::Direct(at)
            });
        }
        Err(io::Error::other("too many levels of symbolic links"))
    }

    /// Whether the output is a file that can be resumed and renamed.
    pub fn is_regular(&self) -> bool {
        matches!(self, Destination::Atomic(_))
    }

    /// The path bytes are written to while the output is open.
    pub fn writing_path(&self) -> Option<PathBuf> {
        match self {
            Destination::Stdout => None,
            Destination::Atomic(p) => Some(partial_path(p)),
            Destination::Direct(p) => Some(p.clone()),
        }
    }

    /// The final path (`None` for stdout).
    pub fn final_path(&self) -> Option<&Path> {
        match self {
            Destination::Stdout => None,
            Destination::Atomic(p) | Destination::Direct(p) => Some(p),
        }
    }

    /// For messages: the path written to (the partial name while open).
    pub fn describe(&self) -> String {
        match self.writing_path() {
            None => "standard output".into(),
            Some(p) => p.display().to_string(),
        }
    }
}

/// Checks that the folder a new file would go in exists, so that a missing
/// one is named as such (not as the file's temporary name that could not be
/// created).
fn check_folder(path: &Path) -> io::Result<()> {
    let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(());
    };
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("'{}' is not a folder", dir.display()),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("the folder '{}' does not exist", dir.display()),
        )),
        Err(e) => Err(e),
    }
}

/// Opens a special file for writing, without creating or truncating it.
fn open_direct(path: &Path) -> io::Result<File> {
    OpenOptions::new().write(true).open(path)
}

/// A whole file, written and synced under its temporary name but not yet
/// renamed: [`Staged::commit`] makes it final. Lets a run write every
/// output before any of them appears under its final name.
#[derive(Debug)]
pub struct Staged {
    dest: Destination,
    /// Bytes still to be written at commit (special files and stdout,
    /// which have no temporary name).
    pending: Option<Vec<u8>>,
}

impl Staged {
    /// Writes `bytes` for `path`: to `<path>.partial` (synced) for a
    /// regular file, or nothing yet for a special file or stdout.
    pub fn write(path: &Path, bytes: Vec<u8>) -> io::Result<Staged> {
        let dest = Destination::resolve(path)?;
        if let Destination::Atomic(p) = &dest {
            let tmp = partial_path(p);
            let written = File::create(&tmp).and_then(|mut f| {
                f.write_all(&bytes)?;
                f.sync_all()
            });
            if let Err(e) = written {
                let _ = fs::remove_file(&tmp);
                return Err(e);
            }
            return Ok(Staged {
                dest,
                pending: None,
            });
        }
        Ok(Staged {
            dest,
            pending: Some(bytes),
        })
    }

    /// Makes the file final: a rename, or the direct write.
    pub fn commit(self) -> io::Result<()> {
        match (&self.dest, &self.pending) {
            (Destination::Atomic(p), _) => fs::rename(partial_path(p), p),
            (Destination::Direct(p), Some(bytes)) => {
                let mut f = open_direct(p)?;
                f.write_all(bytes)?;
                f.flush()
            }
            (Destination::Stdout, Some(bytes)) => {
                let mut out = io::stdout().lock();
                out.write_all(bytes)?;
                out.flush()
            }
            (_, None) => Ok(()),
        }
    }

    /// Removes the temporary file of a staged file that will not be
    /// committed.
    pub fn discard(self) {
        if let Destination::Atomic(p) = &self.dest {
            let _ = fs::remove_file(partial_path(p));
        }
    }
}

/// Reads a file cardsim wrote (a summary, a checkpoint) of at most `max`
/// bytes: a larger one is refused before it is read, so a wrong path or a
/// hostile file cannot exhaust memory. The error says why, for a message.
pub fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    let len = fs::metadata(path)
        .map_err(|e| format!("cannot be read ({e})"))?
        .len();
    if len > max {
        return Err(format!("is too large ({len} bytes)"));
    }
    fs::read(path).map_err(|e| format!("cannot be read ({e})"))
}

/// Writes a whole file at once, safely for its kind (see [`Destination`]).
pub fn write_whole(path: &Path, bytes: Vec<u8>) -> io::Result<()> {
    Staged::write(path, bytes)?.commit()
}

/// Stages several files, all or none: if one cannot be written, the ones
/// staged before it are removed, and the error names its path.
pub fn stage_all(
    files: Vec<(PathBuf, Vec<u8>)>,
) -> Result<Vec<(PathBuf, Staged)>, (PathBuf, io::Error)> {
    let mut staged = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        match Staged::write(&path, bytes) {
            Ok(s) => staged.push((path, s)),
            Err(e) => {
                staged.into_iter().for_each(|(_, s)| s.discard());
                return Err((path, e));
            }
        }
    }
    Ok(staged)
}

/// The hash of a file's content, as written in checkpoints and summaries.
pub fn hex_digest(hasher: &blake3::Hasher) -> String {
    hasher.finalize().to_hex().to_string()
}

/// Where a streamed output's bytes go.
enum Inner {
    Discard,
    Stdout(BufWriter<io::Stdout>),
    File(BufWriter<File>),
}

/// A streamed output (the CSV, the side CSV, a bundle of files): counts its
/// bytes and rows and hashes its content as it goes.
pub struct StreamSink {
    dest: Option<Destination>,
    inner: Inner,
    bytes: u64,
    rows: u64,
    hasher: blake3::Hasher,
}

/// A prefix of a partial file to resume from, as a checkpoint records it.
#[derive(Clone, Debug)]
pub struct ResumePoint {
    pub bytes: u64,
    pub rows: u64,
    pub blake3: String,
}

/// Why a partial file cannot be resumed.
#[derive(Debug)]
pub enum ResumeError {
    Io(io::Error),
    /// The file is not what the checkpoint vouches for.
    Mismatch(String),
}

impl StreamSink {
    /// An output that counts rows but writes nothing (no `--out`).
    pub fn discard() -> StreamSink {
        StreamSink {
            dest: None,
            inner: Inner::Discard,
            bytes: 0,
            rows: 0,
            hasher: blake3::Hasher::new(),
        }
    }

    /// Opens a fresh output at a resolved destination.
    pub fn create(dest: Destination) -> io::Result<StreamSink> {
        let inner = match &dest {
            Destination::Stdout => Inner::Stdout(BufWriter::with_capacity(1 << 16, io::stdout())),
            Destination::Atomic(p) => Inner::File(BufWriter::with_capacity(
                1 << 20,
                File::create(partial_path(p))?,
            )),
            Destination::Direct(p) => {
                Inner::File(BufWriter::with_capacity(1 << 16, open_direct(p)?))
            }
        };
        Ok(StreamSink {
            dest: Some(dest),
            inner,
            bytes: 0,
            rows: 0,
            hasher: blake3::Hasher::new(),
        })
    }

    /// Reopens the partial file of a regular output, checks that its first
    /// `at.bytes` bytes hash to what the checkpoint recorded, and cuts it
    /// back to them.
    pub fn reopen(path: &Path, at: &ResumePoint) -> Result<StreamSink, ResumeError> {
        let partial = partial_path(path);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&partial)
            .map_err(ResumeError::Io)?;
        let len = file.metadata().map_err(ResumeError::Io)?.len();
        if len < at.bytes {
            return Err(ResumeError::Mismatch(format!(
                "{} has {len} bytes, fewer than the {} its checkpoint vouches for",
                partial.display(),
                at.bytes
            )));
        }
        let mut hasher = blake3::Hasher::new();
        let copied = io::copy(
            &mut (&mut file).take(at.bytes),
            &mut HashWriter(&mut hasher),
        )
        .map_err(ResumeError::Io)?;
        if copied != at.bytes || hex_digest(&hasher) != at.blake3 {
            return Err(ResumeError::Mismatch(format!(
                "the first {} bytes of {} are not those its checkpoint vouches for (edited or \
                 damaged since)",
                at.bytes,
                partial.display()
            )));
        }
        file.set_len(at.bytes).map_err(ResumeError::Io)?;
        file.seek(SeekFrom::End(0)).map_err(ResumeError::Io)?;
        Ok(StreamSink {
            dest: Some(Destination::Atomic(path.to_path_buf())),
            inner: Inner::File(BufWriter::with_capacity(1 << 20, file)),
            bytes: at.bytes,
            rows: at.rows,
            hasher,
        })
    }

    /// Writes bytes holding `rows` complete rows (or files).
    pub fn write(&mut self, data: &[u8], rows: u64) -> io::Result<()> {
        match &mut self.inner {
            Inner::Discard => {}
            Inner::Stdout(w) => w.write_all(data)?,
            Inner::File(w) => w.write_all(data)?,
        }
        if !matches!(self.inner, Inner::Discard) {
            self.hasher.update(data);
            self.bytes += data.len() as u64;
        }
        self.rows += rows;
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Inner::Discard => Ok(()),
            Inner::Stdout(w) => w.flush(),
            Inner::File(w) => w.flush(),
        }
    }

    /// Flushes and syncs to disk: every byte written so far is durable.
    pub fn sync(&mut self) -> io::Result<()> {
        match self.to_sync()? {
            Some(file) => file.sync_all(),
            None => Ok(()),
        }
    }

    /// Flushes, and returns a second handle on the file when it is one a
    /// checkpoint needs durable (a regular output's partial file): syncing
    /// it makes every byte written so far durable, and can run on another
    /// thread while this one goes on writing.
    pub fn to_sync(&mut self) -> io::Result<Option<File>> {
        self.flush()?;
        match (&self.inner, &self.dest) {
            (Inner::File(w), Some(Destination::Atomic(_))) => w.get_ref().try_clone().map(Some),
            _ => Ok(None),
        }
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The hash of every byte written so far.
    pub fn digest(&self) -> String {
        hex_digest(&self.hasher)
    }

    /// Where a checkpoint taken now would resume this output.
    pub fn resume_point(&self) -> ResumePoint {
        ResumePoint {
            bytes: self.bytes,
            rows: self.rows,
            blake3: self.digest(),
        }
    }

    pub fn destination(&self) -> Option<&Destination> {
        self.dest.as_ref()
    }

    /// Counts rows written without [`StreamSink::write`]'s count (a merge
    /// copies files in blocks, and knows their rows from their summaries).
    pub fn add_rows(&mut self, rows: u64) {
        self.rows += rows;
    }

    /// Gives up an output that will not be completed: removes its partial
    /// file (special files and stdout keep what they were sent).
    pub fn abandon(self) {
        let StreamSink { dest, inner, .. } = self;
        drop(inner);
        if let Some(Destination::Atomic(p)) = dest {
            let _ = fs::remove_file(partial_path(&p));
        }
    }

    /// Makes a synced output final: renames a regular file into place.
    /// Call [`StreamSink::sync`] first.
    pub fn commit(self) -> io::Result<()> {
        let StreamSink { dest, inner, .. } = self;
        drop(inner);
        match dest {
            Some(Destination::Atomic(p)) => fs::rename(partial_path(&p), &p),
            _ => Ok(()),
        }
    }
}

/// Feeds `io::copy` into a hasher.
pub struct HashWriter<'a>(pub &'a mut blake3::Hasher);

impl Write for HashWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_tells_the_kinds_apart() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.csv");
        assert_eq!(
            Destination::resolve(&file).unwrap(),
            Destination::Atomic(file.clone())
        );
        fs::write(&file, b"x").unwrap();
        assert_eq!(
            Destination::resolve(&file).unwrap(),
            Destination::Atomic(file.clone())
        );
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink("a.csv", &link).unwrap();
        assert_eq!(
            Destination::resolve(&link).unwrap(),
            Destination::Atomic(dir.path().join("a.csv"))
        );
        let dangling = dir.path().join("dangling.csv");
        std::os::unix::fs::symlink("sub/new.csv", &dangling).unwrap();
        let err = Destination::resolve(&dangling).unwrap_err().to_string();
        assert!(err.ends_with("sub' does not exist"), "{err}");
        fs::create_dir(dir.path().join("sub")).unwrap();
        assert_eq!(
            Destination::resolve(&dangling).unwrap(),
            Destination::Atomic(dir.path().join("sub/new.csv"))
        );
        let looped = dir.path().join("loop");
        std::os::unix::fs::symlink("loop", &looped).unwrap();
        assert!(Destination::resolve(&looped).is_err());
        assert!(Destination::resolve(dir.path()).is_err());
        assert_eq!(
            Destination::resolve(Path::new("-")).unwrap(),
            Destination::Stdout
        );
    }

    #[test]
    fn a_symlinked_file_is_replaced_at_its_target_and_the_link_kept() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t.json");
        fs::write(&target, b"old").unwrap();
        let link = dir.path().join("l.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_whole(&link, b"new".to_vec()).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert!(!partial_path(&target).exists());
    }

    /// A character device node like the system's (`c 1 3` is null, `c 1 7`
    /// full) in `dir`, never the real one (a regression would replace it);
    /// `None` where mknod is not permitted.
    fn device(dir: &Path, name: &str, minor: u32) -> Option<PathBuf> {
        let path = dir.join(name);
        std::process::Command::new("mknod")
            .arg(&path)
            .args(["c", "1", &minor.to_string()])
            .status()
            .is_ok_and(|s| s.success())
            .then_some(path)
    }

    #[test]
    fn a_device_is_written_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let (Some(null), Some(full)) =
            (device(dir.path(), "null", 3), device(dir.path(), "full", 7))
        else {
            eprintln!("SKIPPED: mknod is not permitted here");
            return;
        };
        assert_eq!(
            Destination::resolve(&null).unwrap(),
            Destination::Direct(null.clone())
        );
        write_whole(&null, b"gone".to_vec()).unwrap();
        assert!(!fs::metadata(&null).unwrap().file_type().is_file());
        let err = write_whole(&full, b"x".to_vec()).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(28), "{err}");
        assert!(!fs::metadata(&full).unwrap().file_type().is_file());
    }

    #[test]
    fn nothing_is_committed_when_one_file_fails() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.hgrm");
        let bad = dir.path().join("missing/b.hgrm");
        let err = stage_all(vec![
            (a.clone(), b"a".to_vec()),
            (bad.clone(), b"b".to_vec()),
        ])
        .unwrap_err();
        assert_eq!(err.0, bad);
        assert!(!a.exists() && !partial_path(&a).exists());
    }

    #[test]
    fn reopen_verifies_the_prefix() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.csv");
        let mut sink = StreamSink::create(Destination::Atomic(path.clone())).unwrap();
        sink.write(b"game,a\n0,1\n", 1).unwrap();
        let at = sink.resume_point();
        sink.write(b"1,2\n", 1).unwrap();
        sink.sync().unwrap();
        drop(sink);
        // Intact: resumes, cut back to the checkpoint.
        let sink = StreamSink::reopen(&path, &at).unwrap();
        assert_eq!(
            (sink.bytes(), sink.rows(), sink.digest()),
            (at.bytes, 1, at.blake3.clone())
        );
        drop(sink);
        assert_eq!(fs::read(partial_path(&path)).unwrap(), b"game,a\n0,1\n");
        // One byte edited before the checkpoint: refused.
        fs::write(partial_path(&path), b"game,a\n0,7\n").unwrap();
        assert!(matches!(
            StreamSink::reopen(&path, &at),
            Err(ResumeError::Mismatch(_))
        ));
        // Shorter than the checkpoint: refused.
        fs::write(partial_path(&path), b"game,a\n").unwrap();
        assert!(matches!(
            StreamSink::reopen(&path, &at),
            Err(ResumeError::Mismatch(_))
        ));
    }
}
