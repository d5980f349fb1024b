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

/// Calls `f` with consecutive pieces of `path`'s text, in order, each ending
/// just after a line end (the last one may not) and about `block` bytes
/// long: a plain file is mapped and cut, a gzip or bzip2 stream is decoded
/// as it is read, so that memory holds one piece (and a line longer than
/// `block`, whole). At most `limit` decompressed bytes are accepted.
/// Returns the bytes of text read.
pub fn for_each_block(
    path: &Path,
    block: usize,
    limit: u64,
    mut f: impl FnMut(&[u8]) -> Result<(), LoadError>,
) -> Result<u64, LoadError> {
    let file = std::fs::File::open(path).map_err(|e| LoadError::io(path, e))?;
    let mut magic = [0u8; 3];
    let got = (&file).read(&mut magic).map_err(|e| LoadError::io(path, e))?;
    let reopen = || std::fs::File::open(path).map_err(|e| LoadError::io(path, e));
    let reader: Box<dyn Read + Send> = match &magic[..got] {
        [0x1f, 0x8b, ..] => Box::new(flate2::bufread::MultiGzDecoder::new(std::io::BufReader::new(reopen()?))),
        b"BZh" => Box::new(bzip2::bufread::MultiBzDecoder::new(std::io::BufReader::new(reopen()?))),
        _ => {
            let text = read_input(path, limit)?;
            for piece in crate::libsvm::split_lines(&text, block.max(1)) {
                f(piece)?;
            }
            return Ok(text.len() as u64);
        }
    };
    let format = if magic[0] == 0x1f { "gzip" } else { "bzip2" };
    // The decoder runs on a thread of its own, a block ahead of `f`, so that
    // decoding and parsing overlap: the conversion runs at the decoder's
    // speed when parsing is faster.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<u8>>(1);
    std::thread::scope(|scope| {
        let decoder = scope.spawn(move || -> Result<u64, LoadError> {
            let mut reader = reader.take(limit.saturating_add(1));
            let (mut buf, mut total) = (Vec::with_capacity(block + (1 << 20)), 0u64);
            let mut want = block.max(1);
            loop {
                // Fill to at least `want` bytes, or to the end of the stream.
                let mut ended = false;
                while buf.len() < want {
                    let at = buf.len();
                    buf.resize(at + (1 << 20), 0);
                    let n = reader.read(&mut buf[at..]).map_err(|source| LoadError::Decompress {
                        path: path.to_path_buf(),
                        format,
                        source,
                    })?;
                    buf.truncate(at + n);
                    total += n as u64;
                    if n == 0 {
                        ended = true;
                        break;
                    }
                }
                if total > limit {
                    return Err(LoadError::Invalid(format!(
                        "{}: decompresses to more than {limit} bytes (raise the limit if this is intended)",
                        path.display()
                    )));
                }
                if ended {
                    if !buf.is_empty() {
                        // A consumer that stopped has its own error to tell.
                        let _ = tx.send(buf);
                    }
                    return Ok(total);
                }
                // Hand over whole lines; keep the partial last one for the
                // next block (a line longer than the block makes it grow).
                match memchr::memrchr(b'\n', &buf) {
                    Some(p) => {
                        let rest = buf.split_off(p + 1);
                        if tx.send(std::mem::replace(&mut buf, rest)).is_err() {
                            // The consumer stopped (an error): stop too.
                            return Ok(total);
                        }
                        buf.reserve(block);
                        want = block.max(1);
                    }
                    None => want = buf.len() + block.max(1),
                }
            }
        });
        let consumed = rx.iter().try_for_each(|b| f(&b));
        drop(rx);
        let decoded = decoder.join().expect("the decoder thread does not panic");
        consumed?;
        decoded
    })
}
