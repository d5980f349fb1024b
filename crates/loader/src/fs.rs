//! Crash-safe writes: a file appears under its name whole or not at all.

use crate::error::LoadError;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory, synced, then renamed over `path`. A crash leaves either no file
/// or the old one, never a partial one under `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // Make the rename itself durable.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        LoadError::io(path, e)
    })
}

/// A file written under a temporary name in its directory and renamed into
/// place by [`AtomicFile::commit`]; dropped without a commit (an error, a
/// panic upstream), the temporary file is removed and nothing appears
/// under the name. For output too large to build in memory first.
#[derive(Debug)]
pub struct AtomicFile {
    path: std::path::PathBuf,
    tmp: std::path::PathBuf,
    file: Option<std::io::BufWriter<std::fs::File>>,
}

impl AtomicFile {
    /// Starts writing what will become `path`.
    pub fn create(path: &Path) -> Result<AtomicFile, LoadError> {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
        let file = std::fs::File::create(&tmp).map_err(|e| LoadError::io(path, e))?;
        Ok(AtomicFile { path: path.to_path_buf(), tmp, file: Some(std::io::BufWriter::with_capacity(1 << 20, file)) })
    }

    /// Syncs the file and renames it into place.
    pub fn commit(mut self) -> Result<(), LoadError> {
        let file = self.file.take().expect("not yet committed");
        let result = (|| {
            let f = file.into_inner().map_err(|e| e.into_error())?;
            f.sync_all()?;
            drop(f);
            std::fs::rename(&self.tmp, &self.path)?;
            if let Some(d) = self.path.parent().filter(|d| !d.as_os_str().is_empty())
                && let Ok(d) = std::fs::File::open(d)
            {
                let _ = d.sync_all();
            }
            Ok(())
        })();
        result.map_err(|e: std::io::Error| LoadError::io(&self.path, e))
    }

    /// Renames the file into place without waiting for its bytes to reach
    /// the disk, and returns it for the caller to sync: a
    /// [`crate::DatasetWriter`] syncs each shard while it writes the next,
    /// and only its manifest, synced and written last, makes the shards a
    /// dataset.
    pub(crate) fn commit_unsynced(mut self) -> Result<std::fs::File, LoadError> {
        let file = self.file.take().expect("not yet committed");
        let result = file.into_inner().map_err(|e| e.into_error()).and_then(|f| {
            std::fs::rename(&self.tmp, &self.path)?;
            Ok(f)
        });
        result.map_err(|e| {
            let _ = std::fs::remove_file(&self.tmp);
            LoadError::io(&self.path, e)
        })
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
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
