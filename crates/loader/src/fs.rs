//! Crash-safe writes: a file appears under its name whole or not at all;
//! a directory has one writer at a time ([`DirLock`]).
//!
//! An output that is not a regular file — a terminal, a pipe, `/dev/null`,
//! `/dev/stdout` — cannot be replaced by a rename (the rename would swap the
//! device node itself for a regular file, and where the directory is
//! writable, as `/dev` is to root, it would succeed). Such a path, and a
//! symbolic link (`/dev/stdout` is one, to whatever the shell redirected
//! to), is written in place, with every error reported. A symbolic link
//! to a regular file stays a link: the file it resolves to is replaced,
//! atomically, by a rename in that file's directory.

use crate::error::LoadError;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory, synced, then renamed over `path`. A crash leaves either no file
/// or the old one, never a partial one under `path`. A `path` that names a
/// device or a pipe is written in place.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes).map_err(|e| LoadError::io(path, e))?;
    f.commit()
}

/// [`write_atomic`] without waiting for the bytes to reach the disk: for
/// what is checked when it is read again (a cache's entry).
pub(crate) fn write_atomic_unsynced(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes).map_err(|e| LoadError::io(path, e))?;
    f.commit_unsynced().map(drop)
}

/// A file written under a temporary name in its directory and renamed into
/// place by [`AtomicFile::commit`]; dropped without a commit (an error, a
/// panic upstream), the temporary file is removed and nothing appears
/// under the name. For output too large to build in memory first.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    /// The temporary file and what it is renamed onto (`path`, or the
    /// regular file a link at `path` resolves to); `None` when `path` is
    /// written in place.
    rename: Option<(PathBuf, PathBuf)>,
    file: Option<std::io::BufWriter<std::fs::File>>,
}

/// What a rename replaces to write `path`: `path` itself when it is a
/// regular file, a directory (the rename then reports it) or nothing yet;
/// the regular file a symbolic link resolves to, so that the link stays.
/// `None` for anything else — a device, a pipe, a link to one
/// (`/dev/stdout`), a link to nothing — which is written in place.
fn rename_target(path: &Path) -> Option<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).ok().filter(|t| std::fs::metadata(t).is_ok_and(|m| m.is_file()))
        }
        Ok(m) if !(m.is_file() || m.is_dir()) => None,
        _ => Some(path.to_path_buf()),
    }
}

impl AtomicFile {
    /// Checks that `path` can be written — its directory exists and takes a
    /// new file, and `path` is not a directory — by creating its temporary
    /// file and removing it at once: for a command that works a long time
    /// before it writes, so that a bad output path fails first, not after
    /// the work. A device or a pipe is not opened (a pipe's reader would see
    /// its end).
    pub fn probe(path: &Path) -> Result<(), LoadError> {
        if rename_target(path).is_some() {
            drop(AtomicFile::create(path)?);
        }
        Ok(())
    }

    /// Starts writing what will become `path`.
    pub fn create(path: &Path) -> Result<AtomicFile, LoadError> {
        let (file, rename) = if let Some(target) = rename_target(path) {
            if target.is_dir() {
                let e = std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a directory, not a file");
                return Err(LoadError::io(path, e));
            }
            let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
            (std::fs::File::create(&tmp).map_err(|e| LoadError::io(path, e))?, Some((tmp, target)))
        } else {
            // A device or a pipe cannot be truncated; a link to nothing
            // creates its target, as a shell's `>` would (and a regular
            // file the link could not be resolved to is truncated so).
            let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
            let file = std::fs::OpenOptions::new().write(true).create(true).truncate(regular).open(path);
            (file.map_err(|e| LoadError::io(path, e))?, None)
        };
        Ok(AtomicFile {
            path: path.to_path_buf(),
            rename,
            file: Some(std::io::BufWriter::with_capacity(1 << 20, file)),
        })
    }

    /// Syncs the file and renames it into place (written in place: flushes
    /// it, and reports what the device or pipe refused).
    pub fn commit(mut self) -> Result<(), LoadError> {
        let file = self.file.take().expect("not yet committed");
        let result = (|| {
            let f = file.into_inner().map_err(|e| e.into_error())?;
            let Some((tmp, target)) = &self.rename else { return Ok(()) };
            f.sync_all()?;
            drop(f);
            std::fs::rename(tmp, target)?;
            if let Some(d) = target.parent().filter(|d| !d.as_os_str().is_empty())
                && let Ok(d) = std::fs::File::open(d)
            {
                let _ = d.sync_all();
            }
            Ok(())
        })();
        result.map_err(|e: std::io::Error| {
            self.remove_temporary();
            LoadError::io(&self.path, e)
        })
    }

    /// Renames the file into place without waiting for its bytes to reach
    /// the disk, and returns it for the caller to sync: a
    /// [`crate::DatasetWriter`] syncs each shard while it writes the next,
    /// and only its manifest, synced and written last, makes the shards a
    /// dataset.
    pub(crate) fn commit_unsynced(mut self) -> Result<std::fs::File, LoadError> {
        let file = self.file.take().expect("not yet committed");
        let result = file.into_inner().map_err(|e| e.into_error()).and_then(|f| {
            if let Some((tmp, target)) = &self.rename {
                std::fs::rename(tmp, target)?;
            }
            Ok(f)
        });
        result.map_err(|e| {
            self.remove_temporary();
            LoadError::io(&self.path, e)
        })
    }

    fn remove_temporary(&self) {
        if let Some((tmp, _)) = &self.rename {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("not yet committed").write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("not yet committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            self.remove_temporary();
        }
    }
}

/// A directory held by one writer at a time: an exclusive advisory lock
/// (`flock`) on the directory itself, taken without waiting. The kernel
/// releases it when the holder exits, however it exits, so a crashed
/// writer never leaves a stale lock behind, and nothing is written beside
/// the data to hold it. Two writers into one directory would interleave
/// their shards; the second is refused instead.
#[derive(Debug)]
pub struct DirLock {
    _dir: std::fs::File,
}

impl DirLock {
    /// Takes `dir`'s lock (`dir` must exist), or fails with
    /// [`LoadError::Busy`] while another holder has it.
    pub fn acquire(dir: &Path) -> Result<DirLock, LoadError> {
        let f = std::fs::File::open(dir).map_err(|e| LoadError::io(dir, e))?;
        match f.try_lock() {
            Ok(()) => Ok(DirLock { _dir: f }),
            Err(std::fs::TryLockError::WouldBlock) => Err(LoadError::Busy { path: dir.to_path_buf() }),
            Err(std::fs::TryLockError::Error(e)) => Err(LoadError::io(dir, e)),
        }
    }

    /// Takes `dir`'s lock (`dir` must exist), waiting while another holder
    /// has it: for work that the waiter may then find done.
    pub fn wait(dir: &Path) -> Result<DirLock, LoadError> {
        let f = std::fs::File::open(dir).map_err(|e| LoadError::io(dir, e))?;
        f.lock().map_err(|e| LoadError::io(dir, e))?;
        Ok(DirLock { _dir: f })
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("rosenblatt-fs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_regular_file_is_replaced_whole_and_no_temporary_is_left() {
        let d = temp_dir("regular");
        let p = d.join("out");
        std::fs::write(&p, b"old contents, longer").unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_symbolic_link_stays_a_link_and_its_target_is_replaced_whole() {
        use std::os::unix::fs::MetadataExt;
        let d = temp_dir("link");
        let sub = d.join("sub");
        std::fs::create_dir_all(&sub).unwrap();
        // A relative link, through a link to a directory: the file it
        // resolves to is replaced in its own directory.
        let target = sub.join("target");
        std::fs::write(&target, b"old contents, longer").unwrap();
        std::os::unix::fs::symlink("sub", d.join("dir")).unwrap();
        let link = d.join("link");
        std::os::unix::fs::symlink("dir/target", &link).unwrap();
        let inode = std::fs::metadata(&target).unwrap().ino();
        let mut f = AtomicFile::create(&link).unwrap();
        f.write_all(b"new").unwrap();
        // Until the commit, the old contents stay under both names.
        assert_eq!(std::fs::read(&link).unwrap(), b"old contents, longer");
        f.commit().unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        assert_ne!(std::fs::metadata(&target).unwrap().ino(), inode, "replaced by a rename, not rewritten");
        assert_eq!(std::fs::read_dir(&sub).unwrap().count(), 1, "no temporary left");
        // Dropped without a commit: the target keeps its contents.
        let mut f = AtomicFile::create(&link).unwrap();
        f.write_all(b"never").unwrap();
        drop(f);
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(&sub).unwrap().count(), 1);
        // A link to nothing creates what it points to, as a shell's `>`.
        let dangling = d.join("dangling");
        std::os::unix::fs::symlink("sub/new", &dangling).unwrap();
        write_atomic(&dangling, b"made").unwrap();
        assert_eq!(std::fs::read(sub.join("new")).unwrap(), b"made");
        assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_probe_checks_the_path_and_leaves_nothing() {
        let d = temp_dir("probe");
        let p = d.join("model");
        AtomicFile::probe(&p).unwrap();
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "nothing created");
        std::fs::write(&p, b"old").unwrap();
        AtomicFile::probe(&p).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"old", "an existing file is left as it is");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        // A missing directory, and a directory where the file should be,
        // fail up front and name the path.
        let e = AtomicFile::probe(&d.join("missing/model")).unwrap_err();
        assert!(matches!(&e, LoadError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound), "{e}");
        let e = AtomicFile::probe(&d).unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
        assert!(e.to_string().contains(&*d.to_string_lossy()), "{e}");
        assert!(write_atomic(&d, b"x").is_err());
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1, "no temporary left beside the directory");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_directory_has_one_writer_at_a_time_and_its_lock_goes_with_it() {
        let d = temp_dir("lock");
        let held = DirLock::acquire(&d).unwrap();
        // A second holder, in this process or another, is refused by name.
        let e = DirLock::acquire(&d).unwrap_err();
        assert!(matches!(&e, LoadError::Busy { path } if *path == d), "{e}");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "nothing written to hold it");
        drop(held);
        drop(DirLock::acquire(&d).unwrap());
        let e = DirLock::acquire(&d.join("missing")).unwrap_err();
        assert!(matches!(&e, LoadError::Io { .. }), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_device_is_written_in_place_and_its_errors_reported() {
        use std::os::unix::fs::FileTypeExt;
        // /dev/null takes everything and stays a device.
        write_atomic(Path::new("/dev/null"), b"bytes").unwrap();
        assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
        // /dev/full refuses every write: the error names the path, and the
        // device node is still there (a rename would have replaced it).
        let full = Path::new("/dev/full");
        if std::fs::metadata(full).is_ok_and(|m| m.file_type().is_char_device()) {
            let e = write_atomic(full, b"bytes").unwrap_err();
            assert!(
                matches!(&e, LoadError::Io { path, source } if path == full && source.raw_os_error() == Some(28)),
                "{e}"
            );
            let mut f = AtomicFile::create(full).unwrap();
            f.write_all(&[7u8; 100]).unwrap(); // buffered
            assert!(f.commit().is_err());
            assert!(std::fs::metadata(full).unwrap().file_type().is_char_device());
        }
    }
}
