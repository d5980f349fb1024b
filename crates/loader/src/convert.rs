//! Files to a dataset, as `rosenblatt convert` does it: one or more LIBSVM
//! text files (plain, gzip or bzip2; joined in order), or an MNIST images
//! file and its labels file.
//!
//! Text streams through: it is read (and decoded) a block at a time, each
//! block parsed in parallel, and the rows spooled to temporary files inside
//! the new dataset's directory while the statistics that choose the
//! encoding (dimension, label kind, value range) are gathered. Then each
//! spooled batch is encoded and written as shards. Memory holds a block of
//! text and a batch of rows, not the input: a multi-gigabyte `.gz` converts
//! in a few hundred megabytes. Input that fits one batch never touches the
//! spool.

use crate::error::{LoadError, ParseError};
use crate::format::LabelKind;
use crate::idx::read_mnist;
use crate::input::for_each_block;
use crate::libsvm::{ParseOptions, Rows, parse_block_into};
use crate::manifest::{MANIFEST, Manifest};
use crate::writer::{DatasetWriter, Stats, WriteOptions, u8_exact, write_dataset};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// What the input files are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// LIBSVM/svmlight text.
    Libsvm,
    /// MNIST IDX: an images file, then a labels file.
    Mnist,
}

impl Format {
    /// MNIST for two files whose names say IDX (`idx`, `ubyte`), else LIBSVM.
    pub fn guess(inputs: &[PathBuf]) -> Format {
        let idx = |p: &PathBuf| {
            let n = p.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
            n.contains("idx") || n.contains("ubyte")
        };
        if inputs.len() == 2 && inputs.iter().all(idx) { Format::Mnist } else { Format::Libsvm }
    }
}

/// How to convert.
#[derive(Clone, Debug)]
pub struct ConvertOptions {
    /// The input format (`None`: [`Format::guess`]).
    pub format: Option<Format>,
    /// How to read LIBSVM text.
    pub parse: ParseOptions,
    /// MNIST one-vs-rest: this digit is +1, the others −1 (`None`: the
    /// digits as class ids).
    pub target: Option<u8>,
    /// Shard size, forced encoding and dimension; the index base and label
    /// kind follow from the input.
    pub write: WriteOptions,
    /// Parser threads (`None`: the current rayon pool).
    pub threads: Option<usize>,
    /// Text read and parsed at a time, in bytes.
    pub block_bytes: usize,
    /// Rows held before they are spooled to a file, in bytes of their
    /// columns (8 per entry): with a block of text, what a conversion holds
    /// in memory.
    pub batch_bytes: u64,
    /// Each block is parsed in pieces of about this many bytes, in
    /// parallel when there are threads for it.
    pub piece_bytes: usize,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        ConvertOptions {
            format: None,
            parse: ParseOptions::default(),
            target: None,
            write: WriteOptions::default(),
            threads: None,
            block_bytes: 64 << 20,
            batch_bytes: 256 << 20,
            piece_bytes: 4 << 20,
        }
    }
}

/// What a conversion did.
#[derive(Debug)]
pub struct Converted {
    /// The new dataset's manifest.
    pub manifest: Manifest,
    /// Bytes of input read (decompressed).
    pub input_bytes: u64,
    /// Lines skipped with `skip_bad_lines`, by file.
    pub skipped: Vec<(PathBuf, ParseError)>,
}

/// Converts `inputs` into a new dataset in `out` (refused if `out` already
/// holds one). `progress` hears what is being done.
pub fn convert(
    inputs: &[PathBuf],
    out: &Path,
    opts: &ConvertOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Converted, LoadError> {
    if inputs.is_empty() {
        return Err(LoadError::Invalid("no input files".into()));
    }
    for p in inputs {
        if p.is_dir() {
            let what = if p.join(crate::manifest::MANIFEST).exists() {
                "is already a dataset directory (convert reads text or IDX files)"
            } else {
                "is a directory; convert reads LIBSVM text files or an MNIST images and labels file"
            };
            return Err(LoadError::Invalid(format!("{}: {what}", p.display())));
        }
    }
    let mut wopts = opts.write.clone();
    let format = opts.format.unwrap_or_else(|| Format::guess(inputs));
    if format == Format::Libsvm {
        return convert_text(inputs, out, opts, progress);
    }
    let [images, labels] = inputs else {
        return Err(LoadError::Invalid("MNIST takes two inputs, the images file then the labels file".into()));
    };
    let p = &opts.parse;
    if p.zero_based || p.multilabel || p.sort_indices || p.skip_bad_lines {
        return Err(LoadError::Invalid(
            "--zero-based, --multilabel, --sort-indices and --skip-bad-lines apply to LIBSVM text, not MNIST".into(),
        ));
    }
    progress(&format!("reading {}", images.display()));
    let (rows, dim) = read_mnist(images, labels, opts.target)?;
    wopts.index_base = crate::libsvm::DEFAULT_BASE;
    wopts.label_kind = Some(if opts.target.is_some() { LabelKind::Binary } else { LabelKind::Classes });
    wopts.dim = Some(wopts.dim.unwrap_or(dim));
    let input_bytes = std::fs::metadata(images).map(|m| m.len()).unwrap_or(0);
    progress(&format!("writing {}", out.display()));
    let manifest = write_dataset(out, &rows, &wopts)?;
    Ok(Converted { manifest, input_bytes, skipped: Vec::new() })
}

/// LIBSVM text files into a dataset, streaming (the module's doc).
fn convert_text(
    inputs: &[PathBuf],
    out: &Path,
    opts: &ConvertOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Converted, LoadError> {
    if opts.target.is_some() {
        return Err(LoadError::Invalid("--target applies to MNIST input; LIBSVM labels are used as they are".into()));
    }
    if out.join(MANIFEST).exists() {
        return Err(LoadError::dataset(out, "already holds a dataset; remove it or choose another directory"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.unwrap_or(0))
        .build()
        .map_err(|e| LoadError::Invalid(format!("cannot start the parser threads: {e}")))?;
    std::fs::create_dir_all(out).map_err(|e| LoadError::io(out, e))?;
    let mut spool = Spool::new(out.join(".spool"), opts.parse.multilabel, opts.batch_bytes);
    let mut stats = Stats::new(opts.parse.multilabel);
    let mut scales = ScaleChecks::default();
    let mut pieces = Vec::new();
    let (mut input_bytes, mut skipped) = (0u64, Vec::new());
    for path in inputs {
        progress(&format!("parsing {}", path.display()));
        let mut line = 1u64;
        input_bytes += for_each_block(path, opts.block_bytes, 1 << 40, |text| {
            // A byte-order mark may start only the file.
            let text = if line == 1 { text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text) } else { text };
            // Parsed straight into the spool's batch, after its rows.
            let batch = spool.batch();
            let (first, from) = (batch.len(), batch.indices.len());
            pool.install(|| parse_block_into(text, line, &opts.parse, opts.piece_bytes.max(1), batch, &mut pieces))
                .map_err(|error| LoadError::Parse { path: path.clone(), error })?;
            line += memchr::memchr_iter(b'\n', text).count() as u64;
            skipped.extend(batch.skipped.drain(..).map(|e| (path.clone(), e)));
            stats.add_from(batch, first);
            scales.check(&stats, &batch.values[from..]);
            spool.spill_if_full()
        })?;
    }
    if stats.rows == 0 {
        return Err(LoadError::Empty { path: inputs[0].clone() });
    }
    progress(&format!("writing {}", out.display()));
    let w = &opts.write;
    let dim = w.dim.unwrap_or(stats.dim);
    if dim < stats.dim {
        return Err(LoadError::Invalid(format!("dimension {dim} is below the largest index + 1 ({})", stats.dim)));
    }
    // Whether every value is a byte times `scale`: known from the checks on
    // the way when the scale was the same for every block, else read again
    // from the spooled batches.
    let mut exact = |scale: f32| {
        scales.verdict(scale).unwrap_or_else(|| spool.all(|rows| u8_exact(&rows.values, scale)).unwrap_or(false))
    };
    let (kind, encoding) = stats.choose(w, dim, &mut exact)?;
    let mut writer = DatasetWriter::create(out, dim, encoding, kind, u8::from(!opts.parse.zero_based))?;
    writer.set_qids(stats.qids);
    spool.drain(|rows| writer.write_cut(rows, w.shard_bytes.max(1)))?;
    let manifest = writer.finish()?;
    Ok(Converted { manifest, input_bytes, skipped })
}

/// Whether the values are bytes times a scale, checked block by block as
/// the rows stream past (while they are in cache) for each candidate scale
/// of the rows so far, so that choosing a u8 encoding need not read the
/// spool again. A verdict holds only if the candidate was the same scale
/// for every block: a candidate that moves (a new minimum) is unknown.
#[derive(Default)]
struct ScaleChecks {
    /// Per candidate slot: the scale checked, and whether every value so
    /// far is a byte times it (`None`: unknown).
    slots: [Option<(f32, Option<bool>)>; 4],
}

impl ScaleChecks {
    fn check(&mut self, stats: &Stats, values: &[f32]) {
        let mut settled = false;
        for (slot, scale) in self.slots.iter_mut().zip(stats.values.scale_candidates()) {
            let verdict = match *slot {
                // The first block, or the same scale as every block before.
                None => Some(true),
                Some((was, v)) if was.to_bits() == scale.to_bits() => v,
                Some(_) => None,
            };
            // Once an earlier candidate holds, the later ones are only
            // needed if it fails in a later block: left unknown, not paid for.
            let verdict = match verdict {
                Some(true) if settled => None,
                Some(true) => Some(scale.is_finite() && scale > 0.0 && u8_exact(values, scale)),
                v => v,
            };
            settled |= verdict == Some(true);
            *slot = Some((scale, verdict));
        }
    }

    /// What the checks found for `scale`, if they know.
    fn verdict(&self, scale: f32) -> Option<bool> {
        self.slots.iter().flatten().find(|(s, v)| s.to_bits() == scale.to_bits() && v.is_some()).and_then(|&(_, v)| v)
    }
}

/// Parsed rows waiting for their encoding: the current batch in memory,
/// full batches in files under `dir` (removed when the spool is dropped).
struct Spool {
    dir: PathBuf,
    batch: Rows,
    files: Vec<PathBuf>,
    multilabel: bool,
    limit: u64,
}

impl Spool {
    fn new(dir: PathBuf, multilabel: bool, limit: u64) -> Self {
        Spool { dir, batch: Rows::default(), files: Vec::new(), multilabel, limit }
    }

    /// The batch being filled: blocks are parsed straight into it. It
    /// keeps its buffers from one file to the next: fresh ones would cost a
    /// page fault per 4 KiB, a fifth of a conversion's time (SPEED.md).
    fn batch(&mut self) -> &mut Rows {
        if self.batch.offsets.is_empty() {
            self.batch.clear(self.multilabel);
        }
        &mut self.batch
    }

    /// Writes the batch to a file if it is full.
    fn spill_if_full(&mut self) -> Result<(), LoadError> {
        if 8 * self.batch.indices.len() as u64 >= self.limit {
            let path = self.dir.join(format!("batch-{:05}", self.files.len()));
            std::fs::create_dir_all(&self.dir).map_err(|e| LoadError::io(&self.dir, e))?;
            write_batch(&path, &self.batch).map_err(|e| LoadError::io(&path, e))?;
            self.files.push(path);
            self.batch.clear(self.multilabel);
        }
        Ok(())
    }

    /// Whether `f` holds for every batch, in order (stopping at the first
    /// that fails).
    fn all(&self, mut f: impl FnMut(&Rows) -> bool) -> Result<bool, LoadError> {
        let mut rows = Rows::default();
        for path in &self.files {
            read_batch(path, &mut rows).map_err(|e| LoadError::io(path, e))?;
            if !f(&rows) {
                return Ok(false);
            }
        }
        Ok(self.batch.offsets.len() <= 1 || f(&self.batch))
    }

    /// Hands every batch to `f`, in order, deleting each file after.
    fn drain(&mut self, mut f: impl FnMut(&Rows) -> Result<(), LoadError>) -> Result<(), LoadError> {
        // The batch in memory keeps only what it holds from here: the
        // batches read back need a buffer of their own.
        let b = &mut self.batch;
        b.offsets.shrink_to_fit();
        b.indices.shrink_to_fit();
        b.values.shrink_to_fit();
        b.labels.shrink_to_fit();
        let mut rows = Rows::default();
        for path in std::mem::take(&mut self.files) {
            read_batch(&path, &mut rows).map_err(|e| LoadError::io(&path, e))?;
            debug_assert_eq!(self.multilabel, !rows.label_offsets.is_empty());
            let _ = std::fs::remove_file(&path);
            f(&rows)?;
        }
        if self.batch.offsets.len() > 1 {
            f(&self.batch)?;
        }
        Ok(())
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A batch's columns, each as its length then its little-endian bytes
/// (private to one conversion, never read by another build).
fn write_batch(path: &Path, rows: &Rows) -> std::io::Result<()> {
    fn column<T: bytemuck::Pod>(out: &mut impl Write, v: &[T]) -> std::io::Result<()> {
        out.write_all(&(v.len() as u64).to_le_bytes())?;
        out.write_all(bytemuck::cast_slice(v))
    }
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    column(&mut out, &rows.offsets)?;
    column(&mut out, &rows.indices)?;
    column(&mut out, &rows.values)?;
    column(&mut out, &rows.labels)?;
    column(&mut out, &rows.qids)?;
    column(&mut out, &rows.label_offsets)?;
    column(&mut out, &rows.multilabels)?;
    column(&mut out, &[rows.dim])?;
    out.flush()
}

/// Reads what [`write_batch`] wrote into `rows`, reusing its buffers.
fn read_batch(path: &Path, rows: &mut Rows) -> std::io::Result<()> {
    fn column<T: bytemuck::Pod + bytemuck::Zeroable + Clone>(r: &mut impl Read, v: &mut Vec<T>) -> std::io::Result<()> {
        let mut len = [0u8; 8];
        r.read_exact(&mut len)?;
        v.clear();
        v.resize(u64::from_le_bytes(len) as usize, T::zeroed());
        r.read_exact(bytemuck::cast_slice_mut(v))
    }
    let mut r = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(path)?);
    column(&mut r, &mut rows.offsets)?;
    column(&mut r, &mut rows.indices)?;
    column(&mut r, &mut rows.values)?;
    column(&mut r, &mut rows.labels)?;
    column(&mut r, &mut rows.qids)?;
    column(&mut r, &mut rows.label_offsets)?;
    column(&mut r, &mut rows.multilabels)?;
    let mut dim = Vec::new();
    column::<u64>(&mut r, &mut dim)?;
    rows.dim = dim.first().copied().unwrap_or(0);
    rows.skipped.clear();
    Ok(())
}
