//! Reading an input file: memory-mapped when plain, decoded when gzip or
//! bzip2 (detected by magic bytes, not by name).

use crate::error::LoadError;
use std::io::Read;
use std::path::Path;

/// An input's bytes: a read-only map of a plain file, or the decompressed
/// contents.
pub enum InputBytes {
    /// A plain file, mapped.
    Mapped(memmap2::Mmap),
    /// Decompressed (or empty-file) contents.
    Owned(Vec<u8>),
}

impl std::ops::Deref for InputBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            InputBytes::Mapped(m) => m,
            InputBytes::Owned(v) => v,
        }
    }
}

/// Reads `path`, decompressing gzip (`1f 8b`) and bzip2 (`BZh`) streams.
/// At most `limit` decompressed bytes are accepted (a guard against
/// decompression bombs); the buffer grows only as data actually arrives.
pub fn read_input(path: &Path, limit: u64) -> Result<InputBytes, LoadError> {
    let file = std::fs::File::open(path).map_err(|e| LoadError::io(path, e))?;
    let len = file.metadata().map_err(|e| LoadError::io(path, e))?.len();
    if len == 0 {
        return Ok(InputBytes::Owned(Vec::new()));
    }
    let mut magic = [0u8; 3];
    let got = (&file).read(&mut magic).map_err(|e| LoadError::io(path, e))?;
    let magic = &magic[..got];
    let decode = |reader: Box<dyn Read>, format: &'static str| -> Result<InputBytes, LoadError> {
        let mut out = Vec::new();
        reader.take(limit.saturating_add(1)).read_to_end(&mut out).map_err(|source| LoadError::Decompress {
            path: path.to_path_buf(),
            format,
            source,
        })?;
        if out.len() as u64 > limit {
            return Err(LoadError::Invalid(format!(
                "{}: decompresses to more than {limit} bytes (raise the limit if this is intended)",
                path.display()
            )));
        }
        Ok(InputBytes::Owned(out))
    };
    let reopen = || std::fs::File::open(path).map_err(|e| LoadError::io(path, e));
    if magic.starts_with(&[0x1f, 0x8b]) {
        let f = std::io::BufReader::new(reopen()?);
        decode(Box::new(flate2::bufread::MultiGzDecoder::new(f)), "gzip")
    } else if magic == b"BZh" {
        let f = std::io::BufReader::new(reopen()?);
        decode(Box::new(bzip2::bufread::MultiBzDecoder::new(f)), "bzip2")
    } else {
        // SAFETY: read-only private mapping of an input the user named; we
        // only read it, and a concurrent truncation can only raise SIGBUS
        // (the same contract as shards, documented in `shard`).
        let m = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| LoadError::io(path, e))?;
        Ok(InputBytes::Mapped(m))
    }
}
