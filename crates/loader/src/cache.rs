//! Converted datasets kept for reuse, keyed on what they were made from.
//!
//! A cache entry is a directory holding a dataset and `source.json`: the
//! identity of every input file (its canonical path, size, modification
//! time and CRC-32s of its first and last 64 KiB) and a key naming the
//! conversion's options. It is reused only while both match; otherwise it
//! is converted again, and the caller is told why — never another file's
//! numbers under the old name. The entry's directory name is a readable
//! label and a hash of the inputs' paths and the options, so different
//! inputs get different entries; the hash only places the entry, the
//! recorded identity decides whether it is reused.

use crate::Dataset;
use crate::convert::{ConvertOptions, convert};
use crate::error::LoadError;
use crate::fs::{DirLock, write_atomic_unsynced};
use crate::shard::OpenOptions;
use crate::writer::WriteOptions;
use serde::{Deserialize, Serialize};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The record beside a cached dataset.
pub const SOURCE_FILE: &str = "source.json";
/// The cached dataset's directory inside its entry.
pub const DATASET_DIR: &str = "dataset";
/// Bytes read at each end of an input for its checksums.
const ENDS: u64 = 64 << 10;

/// What identifies an input file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceId {
    /// The canonical path.
    pub path: PathBuf,
    /// Size in bytes.
    pub bytes: u64,
    /// Modification time, nanoseconds since the Unix epoch (0 where the
    /// file system has none).
    pub modified_ns: u64,
    /// CRC-32 of the first 64 KiB.
    pub head_crc32: u32,
    /// CRC-32 of the last 64 KiB.
    pub tail_crc32: u32,
}

impl SourceId {
    /// Reads `path`'s identity.
    pub fn of(path: &Path) -> Result<SourceId, LoadError> {
        let io = |e| LoadError::io(path, e);
        let canonical = std::fs::canonicalize(path).map_err(io)?;
        let mut f = std::fs::File::open(&canonical).map_err(io)?;
        let meta = f.metadata().map_err(io)?;
        let modified_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
        let mut crc_at = |from: u64| -> std::io::Result<u32> {
            f.seek(SeekFrom::Start(from))?;
            let mut buf = Vec::with_capacity(ENDS as usize);
            (&mut f).take(ENDS).read_to_end(&mut buf)?;
            Ok(crc32fast::hash(&buf))
        };
        let head_crc32 = crc_at(0).map_err(io)?;
        let tail_crc32 = crc_at(meta.len().saturating_sub(ENDS)).map_err(io)?;
        Ok(SourceId { path: canonical, bytes: meta.len(), modified_ns, head_crc32, tail_crc32 })
    }

    /// How `self` (recorded) differs from `now`, in words; `None` if it does not.
    fn differs(&self, now: &SourceId) -> Option<String> {
        let name = now.path.display();
        if self.path != now.path {
            Some(format!("it was made from {}, not {name}", self.path.display()))
        } else if self.bytes != now.bytes {
            Some(format!("{name} was {} bytes and is now {}", self.bytes, now.bytes))
        } else if (self.head_crc32, self.tail_crc32) != (now.head_crc32, now.tail_crc32) {
            Some(format!("{name} has other contents than when the cache was made"))
        } else if self.modified_ns != now.modified_ns {
            Some(format!("{name} was modified after the cache was made"))
        } else {
            None
        }
    }
}

/// What an entry was made from: its inputs and the options' key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Record {
    sources: Vec<SourceId>,
    options: String,
}

/// How a cached dataset came to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Made {
    /// Reused: its inputs and options are those it was made from.
    Reused,
    /// Converted: the cache had no such entry.
    Fresh,
    /// Converted again, for this reason (other inputs, changed inputs,
    /// other options, or shards that failed their checks).
    Rebuilt(String),
}

/// A dataset from the cache under `root`.
#[derive(Debug)]
pub struct Cached {
    /// The dataset, opened.
    pub dataset: Dataset,
    /// Whether it was reused or converted, and why.
    pub made: Made,
    /// The entry's directory.
    pub entry: PathBuf,
}

/// The dataset that converting `inputs` with `opts` gives, from the cache
/// under `root` if an entry made from these very inputs with the same
/// options (`key`: every option that changes the dataset, in words) is
/// there and whole, else converted into it (`progress` hears so first).
/// `label` starts the entry's name. Two processes asking at once for the
/// same entry take turns: the second waits, then reuses what the first
/// made.
pub fn cached_convert(
    root: &Path,
    label: &str,
    inputs: &[PathBuf],
    opts: &ConvertOptions,
    key: &str,
    progress: &mut dyn FnMut(&str),
) -> Result<Cached, LoadError> {
    let sources = inputs.iter().map(|p| SourceId::of(p)).collect::<Result<Vec<_>, _>>()?;
    let mut placed = crc32fast::Hasher::new();
    for s in &sources {
        placed.update(s.path.as_os_str().as_encoded_bytes());
        placed.update(&[0]);
    }
    placed.update(key.as_bytes());
    let entry = root.join(format!("{label}-{:08x}", placed.finalize()));
    std::fs::create_dir_all(&entry).map_err(|e| LoadError::io(&entry, e))?;
    let _lock = DirLock::wait(&entry)?;
    let record = Record { sources, options: key.to_string() };
    let (data, source) = (entry.join(DATASET_DIR), entry.join(SOURCE_FILE));
    let made = match std::fs::read(&source) {
        Err(_) => Made::Fresh,
        Ok(bytes) => match serde_json::from_slice::<Record>(&bytes) {
            Err(_) => Made::Rebuilt(format!("{} is not readable", source.display())),
            Ok(old) => match why_not_reused(&old, &record) {
                Some(why) => Made::Rebuilt(why),
                None => match Dataset::open(&data, OpenOptions::VERIFIED) {
                    Ok(dataset) => return Ok(Cached { dataset, made: Made::Reused, entry }),
                    Err(e) => Made::Rebuilt(format!("its dataset fails its checks ({e})")),
                },
            },
        },
    };
    progress(&match &made {
        Made::Rebuilt(why) => format!("converting into {} again: {why}", entry.display()),
        _ => format!("converting into {} (first use)", entry.display()),
    });
    // The record goes first and comes back last: an entry interrupted
    // half-way is never taken for a whole one.
    remove(&source, std::fs::remove_file(&source))?;
    remove(&data, std::fs::remove_dir_all(&data))?;
    // Nothing here waits for the disk: an entry a crash left short fails
    // the checks it is reused under, and is made again.
    let opts = ConvertOptions { write: WriteOptions { durable: false, ..opts.write.clone() }, ..opts.clone() };
    convert(inputs, &data, &opts, progress)?;
    let json = serde_json::to_vec_pretty(&record).expect("a record serialises");
    write_atomic_unsynced(&source, &json)?;
    Ok(Cached { dataset: Dataset::open(&data, OpenOptions::default())?, made, entry })
}

/// Why an entry made as `old` does not serve `now`; `None` if it does.
fn why_not_reused(old: &Record, now: &Record) -> Option<String> {
    if old.options != now.options {
        return Some(format!("it was made with {}, not {}", old.options, now.options));
    }
    if old.sources.len() != now.sources.len() {
        return Some(format!("it was made from {} files, not {}", old.sources.len(), now.sources.len()));
    }
    old.sources.iter().zip(&now.sources).find_map(|(o, n)| o.differs(n))
}

/// A removal's result, where nothing there to remove is no failure.
fn remove(path: &Path, r: std::io::Result<()>) -> Result<(), LoadError> {
    match r {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(LoadError::io(path, e)),
        _ => Ok(()),
    }
}
