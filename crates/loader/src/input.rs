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

/// An input opened, with its first bytes read to tell its format.
struct Opened {
    file: std::fs::File,
    magic: [u8; 3],
    got: usize,
    /// A regular file: it can be mapped, and reopened to read it again from
    /// its start. Anything else (a pipe, `/dev/stdin`, a process
    /// substitution) is read once, as a stream.
    regular: bool,
}

impl Opened {
    fn new(path: &Path) -> Result<Opened, LoadError> {
        let file = std::fs::File::open(if is_stdin(path) { Path::new("/dev/stdin") } else { path })
            .map_err(|e| LoadError::io(path, e))?;
        let regular = file.metadata().map_err(|e| LoadError::io(path, e))?.is_file();
        let mut magic = [0u8; 3];
        let mut got = 0;
        // A pipe may hand over fewer bytes than asked: read until three or
        // the end.
        while got < magic.len() {
            match (&file).read(&mut magic[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(LoadError::io(path, e)),
            }
        }
        Ok(Opened { file, magic, got, regular })
    }

    /// `gzip` (`1f 8b`), `bzip2` (`BZh`), or `None` for plain text.
    fn compression(&self) -> Option<&'static str> {
        match &self.magic[..self.got] {
            [0x1f, 0x8b, ..] => Some("gzip"),
            b"BZh" => Some("bzip2"),
            _ => None,
        }
    }

    /// The input's bytes from its start: a regular file rewound; a stream
    /// with the bytes already read put back in front.
    fn into_reader(mut self, path: &Path) -> Result<Box<dyn Read + Send>, LoadError> {
        if self.regular {
            std::io::Seek::rewind(&mut self.file).map_err(|e| LoadError::io(path, e))?;
            return Ok(Box::new(self.file));
        }
        Ok(Box::new(std::io::Cursor::new(self.magic[..self.got].to_vec()).chain(self.file)))
    }

    /// A plain regular file's bytes, mapped (empty: nothing to map, and a
    /// map of no bytes fails).
    fn map(&self, path: &Path) -> Result<InputBytes, LoadError> {
        if self.got == 0 {
            return Ok(InputBytes::Owned(Vec::new()));
        }
        // SAFETY: read-only private mapping of an input the user named; we
        // only read it, and a concurrent truncation can only raise SIGBUS
        // (the same contract as shards, documented in `shard`).
        let m = unsafe { memmap2::Mmap::map(&self.file) }.map_err(|e| LoadError::io(path, e))?;
        Ok(InputBytes::Mapped(m))
    }

    /// The decompressed text, for a compressed input.
    fn into_decoder(self, path: &Path, format: &'static str) -> Result<Box<dyn Read + Send>, LoadError> {
        let raw = std::io::BufReader::new(self.into_reader(path)?);
        Ok(if format == "gzip" {
            Box::new(flate2::bufread::MultiGzDecoder::new(raw))
        } else {
            Box::new(bzip2::bufread::MultiBzDecoder::new(raw))
        })
    }
}

/// The error for a read of `path`'s text that failed: a decoder's names
/// its format.
fn read_error(path: &Path, format: Option<&'static str>, source: std::io::Error) -> LoadError {
    match format {
        Some(format) => LoadError::Decompress { path: path.to_path_buf(), format, source },
        None => LoadError::io(path, source),
    }
}

/// The error for text past `limit` bytes.
fn too_long(path: &Path, format: Option<&'static str>, limit: u64) -> LoadError {
    let what = if format.is_some() { "decompresses to" } else { "holds" };
    LoadError::Invalid(format!(
        "{}: {what} more than {limit} bytes of text (raise the limit if this is intended)",
        path.display()
    ))
}

/// Whether `path` is `-`, which names standard input wherever an input
/// file is read.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads `path` (`-`: standard input), decompressing gzip (`1f 8b`) and bzip2 (`BZh`) streams.
/// A plain regular file is mapped; a pipe or another stream
/// (`/dev/stdin`, `<(zcat …)`) is read to its end. At most `limit` bytes of
/// text are accepted from a decoder or a stream (a guard against
/// decompression bombs); the buffer grows only as data actually arrives.
pub fn read_input(path: &Path, limit: u64) -> Result<InputBytes, LoadError> {
    let opened = Opened::new(path)?;
    let format = opened.compression();
    let reader = match format {
        Some(f) => opened.into_decoder(path, f)?,
        None if opened.regular => return opened.map(path),
        None => opened.into_reader(path)?,
    };
    let mut out = Vec::new();
    reader.take(limit.saturating_add(1)).read_to_end(&mut out).map_err(|e| read_error(path, format, e))?;
    if out.len() as u64 > limit {
        return Err(too_long(path, format, limit));
    }
    Ok(InputBytes::Owned(out))
}

/// Calls `f` with consecutive pieces of `path`'s text, in order, each ending
/// just after a line end (the last one may not) and about `block` bytes
/// long: a plain regular file is mapped and cut; a gzip or bzip2 stream is
/// decoded as it is read, and a pipe read as it comes, so that memory holds
/// one piece (and a line longer than `block`, whole). At most `limit` bytes
/// of text are accepted from a decoder or a stream. Returns the bytes of
/// text read.
pub fn for_each_block(
    path: &Path,
    block: usize,
    limit: u64,
    mut f: impl FnMut(&[u8]) -> Result<(), LoadError>,
) -> Result<u64, LoadError> {
    let opened = Opened::new(path)?;
    let format = opened.compression();
    let reader = match format {
        Some(fmt) => opened.into_decoder(path, fmt)?,
        None if opened.regular => {
            let text = opened.map(path)?;
            for piece in crate::libsvm::split_lines(&text, block.max(1)) {
                f(piece)?;
            }
            return Ok(text.len() as u64);
        }
        None => opened.into_reader(path)?,
    };
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
                    let n = reader.read(&mut buf[at..]).map_err(|e| read_error(path, format, e))?;
                    buf.truncate(at + n);
                    total += n as u64;
                    if n == 0 {
                        ended = true;
                        break;
                    }
                }
                if total > limit {
                    return Err(too_long(path, format, limit));
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
