//! Files to a dataset, as `rosenblatt convert` does it: one or more LIBSVM
//! text files (plain, gzip or bzip2; joined in order), or an MNIST images
//! file and its labels file.
//!
//! Text streams through: it is read (and decoded) a block at a time, each
//! block parsed in parallel into a batch of rows, while the statistics
//! that choose the encoding (dimension, label kind, value range) are
//! gathered. The encoding is the whole input's, known only at its end, so
//! each full batch is written as shards in the encoding the rows so far
//! call for — the final one for most inputs, whose first hundreds of
//! megabytes look like the rest; a sparse dimension that grows later only
//! rewrites the shards' headers — and only the batches after one that
//! called for something else wait in temporary files inside the new
//! dataset's directory. If the final choice is not the guessed one, the
//! shards written ahead are read back and written again. Either way the
//! shards are those of writing each batch once in the final encoding.
//! With more than one thread, a batch is written on the pool while the
//! next is parsed. Memory holds a block of text and one batch of rows (two
//! with more than one thread), not the input: a multi-gigabyte `.gz`
//! converts in a few hundred megabytes.

use crate::dataset::append_rows;
use crate::error::{LoadError, ParseError};
use crate::format::{Encoding, LabelKind, Layout, ValueEncoding};
use crate::fs::DirLock;
use crate::idx::read_mnist;
use crate::input::for_each_block;
use crate::libsvm::{ParseOptions, Rows, parse_block_into};
use crate::manifest::{MANIFEST, Manifest};
use crate::shard::{OpenOptions, Shard};
use crate::writer::{DatasetWriter, Stats, WriteOptions, u8_exact, u8_exact_par, write_dataset};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;

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
            n.contains("idx") || n.contains("ubyte") || starts_as_idx(p)
        };
        if inputs.len() == 2 && inputs.iter().all(idx) { Format::Mnist } else { Format::Libsvm }
    }
}

/// Whether the file at `p` begins as an uncompressed IDX file of unsigned
/// bytes does: two zero bytes, the type 0x08, one to three dimensions. No
/// LIBSVM text starts with a NUL byte. Only a regular file is looked at: a
/// pipe's first bytes, once read, would be gone from the conversion
/// (`--format mnist` names such inputs).
fn starts_as_idx(p: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 4];
    // `metadata` follows the path without opening it: opening a named pipe
    // would wait for its writer.
    std::fs::metadata(p).is_ok_and(|m| m.is_file())
        && std::fs::File::open(p).and_then(|mut f| f.read_exact(&mut head)).is_ok()
        && matches!(head, [0, 0, 0x08, 1..=3])
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
    /// Rows parsed before they are written (as shards, or to a temporary
    /// file), in bytes of their columns (8 per entry): with a block of
    /// text, what a conversion holds in memory (twice, with more than one
    /// thread: a batch is written while the next is parsed).
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
    /// Rows written twice: shards are written as the first batches call
    /// for, and written again if the rest of the input calls for another
    /// encoding, dimension or label kind.
    pub rewritten_rows: u64,
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
    // A directory this conversion creates is removed again if it fails
    // (the writer has removed its shards by then; only an empty directory
    // goes).
    let created = create_dir(out)?;
    // One writer at a time: a second conversion into the same directory,
    // started before the first wrote anything, is refused here rather than
    // interleaving its shards with the first's. (Refused, it removes
    // nothing: the directory is the other writer's.)
    let lock = DirLock::acquire(out)?;
    // A dataset directory holds one dataset's shards and manifest, so an
    // existing directory is written into only when empty: nothing else
    // ends up beside the shards, and a failed conversion, which removes
    // what it wrote, leaves the directory as it found it.
    let result = if std::fs::read_dir(out).is_ok_and(|mut entries| entries.next().is_some()) {
        let why = if out.join(crate::manifest::MANIFEST).exists() {
            "already holds a dataset; remove it or choose another directory"
        } else {
            "is not empty; convert writes a dataset into a new or empty directory"
        };
        Err(LoadError::dataset(out, why))
    } else {
        convert_into(inputs, out, opts, progress)
    };
    if result.is_err() && created {
        let _ = std::fs::remove_dir(out);
    }
    drop(lock);
    result
}

/// Creates `dir` and any missing parents; whether `dir` itself was made
/// here (and so is this conversion's to remove if it fails).
fn create_dir(dir: &Path) -> Result<bool, LoadError> {
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| LoadError::io(parent, e))?;
    }
    match std::fs::create_dir(dir) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(false),
        Err(e) => Err(LoadError::io(dir, e)),
    }
}

fn convert_into(
    inputs: &[PathBuf],
    out: &Path,
    opts: &ConvertOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Converted, LoadError> {
    let mut wopts = opts.write.clone();
    let format = opts.format.unwrap_or_else(|| Format::guess(inputs));
    // One IDX file alone: its labels file was left out (as text it would
    // fail on its first NUL byte, which says nothing of the cause).
    if let [one] = inputs
        && opts.format.is_none()
        && Format::guess(&[one.clone(), one.clone()]) == Format::Mnist
    {
        return Err(LoadError::Invalid(format!(
            "{}: an MNIST IDX file alone; give the images file and then its labels file",
            one.display()
        )));
    }
    if format == Format::Libsvm {
        return convert_text(inputs, out, opts, progress);
    }
    let [images, labels] = inputs else {
        return Err(LoadError::Invalid("MNIST takes two inputs, the images file then the labels file".into()));
    };
    let p = &opts.parse;
    if p.zero_based || p.multilabel || p.sort_indices || p.skip_bad_lines {
        return Err(LoadError::Invalid(
            "`zero-based`, `multilabel`, `sort-indices` and `skip-bad-lines` apply to LIBSVM text, not MNIST".into(),
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
    Ok(Converted { manifest, input_bytes, skipped: Vec::new(), rewritten_rows: 0 })
}

/// LIBSVM text files into a dataset, streaming (the module's doc).
fn convert_text(
    inputs: &[PathBuf],
    out: &Path,
    opts: &ConvertOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Converted, LoadError> {
    if opts.target.is_some() {
        return Err(LoadError::Invalid("`target` applies to MNIST input; LIBSVM labels are used as they are".into()));
    }
    if out.join(MANIFEST).exists() {
        return Err(LoadError::dataset(out, "already holds a dataset; remove it or choose another directory"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.unwrap_or(0))
        .build()
        .map_err(|e| LoadError::Invalid(format!("cannot start the parser threads: {e}")))?;
    std::fs::create_dir_all(out).map_err(|e| LoadError::io(out, e))?;
    let w = &opts.write;
    let mut spool = Spool::new(out, opts);
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
            line += pool
                .install(|| parse_block_into(text, line, &opts.parse, opts.piece_bytes.max(1), batch, &mut pieces))
                .map_err(|error| LoadError::Parse { path: path.clone(), error })?;
            skipped.extend(batch.skipped.drain(..).map(|e| (path.clone(), e)));
            // The new values' range and scale checks, spread over the
            // parser threads too.
            pool.install(|| {
                stats.add_from(batch, first);
                scales.check(&stats, &batch.values[from..]);
            });
            if spool.full() {
                // What the rows so far call for (a guess: it never loses a
                // value, it may only turn out not to be the final choice).
                let mut exact = |scale| scales.verdict(scale).unwrap_or_else(|| spool.exact_so_far(scale));
                let guess = choose(&stats, w, &mut exact).ok();
                spool.spill(guess, &pool)?;
            }
            Ok(())
        })?;
    }
    if stats.rows == 0 {
        return Err(LoadError::Empty { path: inputs[0].clone() });
    }
    progress(&format!("writing {}", out.display()));
    spool.settle()?;
    // Whether every value is a byte times `scale`: known from the checks on
    // the way when the scale was the same for every block, else read again
    // from the batches written so far.
    let mut exact = |scale: f32| {
        scales.verdict(scale).unwrap_or_else(|| spool.all(|rows| u8_exact(&rows.values, scale)).unwrap_or(false))
    };
    let choice = choose(&stats, w, &mut exact)?;
    let (manifest, rewritten_rows) = spool.finish(choice)?;
    Ok(Converted { manifest, input_bytes, skipped, rewritten_rows })
}

/// What a dataset's shards are written as: what [`DatasetWriter::create`]
/// and [`DatasetWriter::set_qids`] take.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Choice {
    dim: u64,
    kind: LabelKind,
    encoding: Encoding,
    qids: bool,
}

impl Choice {
    /// A new dataset in `out` written as this choice.
    fn writer(&self, out: &Path, index_base: u8) -> Result<DatasetWriter, LoadError> {
        let mut writer = DatasetWriter::create(out, self.dim, self.encoding, self.kind, index_base)?;
        writer.set_qids(self.qids);
        Ok(writer)
    }

    /// Whether shards written as `self` are those `later` (the choice for
    /// more rows) would write: the same choice, or sparse rows over a
    /// dimension that grew, which only their headers record
    /// ([`DatasetWriter::raise_dim`]).
    fn grows_into(&self, later: &Choice) -> bool {
        let sparse = self.encoding.layout == Layout::Sparse;
        *self == *later || (sparse && later.dim > self.dim && Choice { dim: self.dim, ..*later } == *self)
    }
}

/// The choice for rows with these statistics: `opts`' dimension, encoding
/// and label kind where it forces them (refused if they would lose
/// something), else the most compact lossless ones.
fn choose(stats: &Stats, opts: &WriteOptions, exact: &mut dyn FnMut(f32) -> bool) -> Result<Choice, LoadError> {
    let dim = opts.dim.unwrap_or(stats.dim);
    if dim < stats.dim {
        return Err(LoadError::Invalid(format!("dimension {dim} is below the largest index + 1 ({})", stats.dim)));
    }
    let (kind, encoding) = stats.choose(opts, dim, exact)?;
    Ok(Choice { dim, kind, encoding, qids: stats.qids })
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
                Some(true) => Some(scale.is_finite() && scale > 0.0 && u8_exact_par(values, scale)),
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

/// Parsed rows on their way to shards, a batch at a time. While the
/// batches keep calling for the encoding the first full one did (over a
/// dimension that may grow, for sparse rows), each is
/// written as shards in it at once (`ahead`) — with more than one parser
/// thread, on the pool while the next batch is parsed: when that is the
/// final choice, as it usually is, no row is written twice. The batches
/// after the first that called for something else wait in files under
/// `dir` (removed when the spool is dropped), to be written once the final
/// choice is known; if that choice is not the guessed one, the shards
/// written ahead are moved into `dir`, read back and written again.
struct Spool {
    /// The new dataset's directory.
    out: PathBuf,
    dir: PathBuf,
    /// The batch being filled.
    batch: Rows,
    /// The first batches, written as shards in the encoding they called for.
    ahead: Option<Ahead>,
    /// A batch being written on the pool: its writer and buffers come back
    /// here when it is done.
    writing: Option<Receiver<Written>>,
    /// The buffers of a batch written, for the batch after next (parsing
    /// into fresh ones would cost a page fault per 4 KiB).
    spare: Rows,
    /// The batches after those written ahead, in order.
    files: Vec<PathBuf>,
    multilabel: bool,
    limit: u64,
    index_base: u8,
    shard_bytes: u64,
}

/// Batches written ahead in a guessed encoding.
struct Ahead {
    choice: Choice,
    /// `None` while it writes a batch on the pool.
    writer: Option<DatasetWriter>,
    /// Shards written for each batch (a batch is cut into shards by
    /// itself, so a batch written again is cut the same way as a batch
    /// written once).
    shards: Vec<usize>,
}

/// A batch written on the pool: the writer, the batch's buffers, and the
/// number of shards it became.
struct Written {
    writer: DatasetWriter,
    rows: Rows,
    shards: Result<usize, LoadError>,
}

/// Writes `rows` as the writer's next shards: how many.
fn write_batch_ahead(writer: &mut DatasetWriter, rows: &Rows, shard_bytes: u64) -> Result<usize, LoadError> {
    let before = writer.written().len();
    writer.write_cut(rows, shard_bytes)?;
    Ok(writer.written().len() - before)
}

impl Spool {
    fn new(out: &Path, opts: &ConvertOptions) -> Self {
        Spool {
            out: out.to_path_buf(),
            dir: out.join(".spool"),
            batch: Rows::default(),
            ahead: None,
            writing: None,
            spare: Rows::default(),
            files: Vec::new(),
            multilabel: opts.parse.multilabel,
            limit: opts.batch_bytes,
            index_base: u8::from(!opts.parse.zero_based),
            shard_bytes: opts.write.shard_bytes.max(1),
        }
    }

    /// The batch being filled: blocks are parsed straight into it. It
    /// keeps its buffers from one file to the next: fresh ones would cost a
    /// page fault per 4 KiB, a fifth of a conversion's time (SPEED.md#convert).
    fn batch(&mut self) -> &mut Rows {
        if self.batch.offsets.is_empty() {
            self.batch.clear(self.multilabel);
        }
        &mut self.batch
    }

    fn full(&self) -> bool {
        8 * self.batch.indices.len() as u64 >= self.limit
    }

    /// Waits for the batch being written on the pool, if any: its writer
    /// back in place, its buffers kept for a later batch.
    fn settle(&mut self) -> Result<(), LoadError> {
        let Some(done) = self.writing.take() else { return Ok(()) };
        let Written { writer, mut rows, shards } =
            done.recv().map_err(|_| LoadError::Invalid("the shard writer stopped".into()))?;
        if let Some(a) = &mut self.ahead {
            a.writer = Some(writer);
            a.shards.push(shards?);
        }
        rows.clear(self.multilabel);
        self.spare = rows;
        Ok(())
    }

    /// Writes the full batch: as shards if `guess` (the choice of every
    /// row so far) is the choice of the batches written ahead, or the
    /// first and nothing went to a file before; else to a file. With more
    /// than one thread in `pool`, the shards are written on it.
    fn spill(&mut self, guess: Option<Choice>, pool: &rayon::ThreadPool) -> Result<(), LoadError> {
        self.settle()?;
        let ahead = match (&mut self.ahead, guess) {
            _ if !self.files.is_empty() => None,
            (Some(a), Some(c)) if a.choice.grows_into(&c) => {
                if let Some(writer) = &mut a.writer {
                    writer.raise_dim(c.dim)?;
                }
                a.choice = c;
                Some(a)
            }
            (None, Some(choice)) => {
                let writer = choice.writer(&self.out, self.index_base)?;
                Some(self.ahead.insert(Ahead { choice, writer: Some(writer), shards: Vec::new() }))
            }
            _ => None,
        };
        match ahead.and_then(|a| a.writer.take().map(|w| (a, w))) {
            Some((a, mut writer)) if pool.current_num_threads() == 1 => {
                let shards = write_batch_ahead(&mut writer, &self.batch, self.shard_bytes);
                a.writer = Some(writer);
                a.shards.push(shards?);
            }
            Some((_, mut writer)) => {
                let rows = std::mem::replace(&mut self.batch, std::mem::take(&mut self.spare));
                let (done, writing) = std::sync::mpsc::sync_channel(1);
                let shard_bytes = self.shard_bytes;
                pool.spawn(move || {
                    let shards = write_batch_ahead(&mut writer, &rows, shard_bytes);
                    // The spool waits for this before it goes: it cannot
                    // have hung up.
                    let _ = done.send(Written { writer, rows, shards });
                });
                self.writing = Some(writing);
            }
            None => {
                let path = self.dir.join(format!("batch-{:05}", self.files.len()));
                std::fs::create_dir_all(&self.dir).map_err(|e| LoadError::io(&self.dir, e))?;
                write_batch(&path, &self.batch).map_err(|e| LoadError::io(&path, e))?;
                self.files.push(path);
            }
        }
        self.batch.clear(self.multilabel);
        Ok(())
    }

    /// Whether every value so far is known to be a byte times `scale`
    /// without reading a file: the batches written ahead are if they were
    /// written with that scale; the batch in memory is checked.
    fn exact_so_far(&self, scale: f32) -> bool {
        let ahead = match &self.ahead {
            None => true,
            Some(a) => {
                matches!(a.choice.encoding.values, ValueEncoding::U8 { scale: s } if s.to_bits() == scale.to_bits())
            }
        };
        ahead && self.files.is_empty() && u8_exact(&self.batch.values, scale)
    }

    /// Whether `f` holds for every batch, in order (stopping at the first
    /// that fails). Call [`Spool::settle`] first.
    fn all(&self, mut f: impl FnMut(&Rows) -> bool) -> Result<bool, LoadError> {
        let mut rows = Rows::default();
        if let Some(Ahead { writer: Some(writer), shards, .. }) = &self.ahead {
            let mut paths = writer.written();
            for &n in shards {
                read_shards(&paths[..n], self.multilabel, &mut rows)?;
                if !f(&rows) {
                    return Ok(false);
                }
                paths = &paths[n..];
            }
        }
        for path in &self.files {
            read_batch(path, &mut rows).map_err(|e| LoadError::io(path, e))?;
            if !f(&rows) {
                return Ok(false);
            }
        }
        Ok(self.batch.offsets.len() <= 1 || f(&self.batch))
    }

    /// Writes every batch not yet written as `choice` into the dataset and
    /// finishes it: its manifest, and how many rows were written twice.
    fn finish(mut self, choice: Choice) -> Result<(Manifest, u64), LoadError> {
        self.settle()?;
        // The batch in memory keeps only what it holds from here: the
        // batches read back need a buffer of their own.
        let b = &mut self.batch;
        b.offsets.shrink_to_fit();
        b.indices.shrink_to_fit();
        b.values.shrink_to_fit();
        b.labels.shrink_to_fit();
        let mut rows = std::mem::take(&mut self.spare);
        let mut rewritten = 0;
        let (ahead_writer, shards) = match self.ahead.take() {
            Some(Ahead { writer: Some(w), shards, choice: c }) => (Some((w, c)), shards),
            _ => (None, Vec::new()),
        };
        let mut writer = match ahead_writer {
            Some((mut w, c)) if c.grows_into(&choice) => {
                w.raise_dim(choice.dim)?;
                w
            }
            ahead => {
                // The shards written ahead move out of the way of the new
                // ones (same names), then are read back batch by batch.
                let mut moved = Vec::new();
                if let Some((w, _)) = ahead {
                    std::fs::create_dir_all(&self.dir).map_err(|e| LoadError::io(&self.dir, e))?;
                    rewritten = w.rows();
                    let written = w.abandon();
                    for (k, from) in written.iter().enumerate() {
                        let to = self.dir.join(format!("ahead-{k:05}.rbs"));
                        if let Err(e) = std::fs::rename(from, &to) {
                            // Those not moved are removed here; those moved,
                            // with the spool.
                            written[k..].iter().for_each(|p| drop(std::fs::remove_file(p)));
                            return Err(LoadError::io(from, e));
                        }
                        moved.push(to);
                    }
                }
                let mut writer = choice.writer(&self.out, self.index_base)?;
                let mut paths = moved.as_slice();
                for n in shards {
                    read_shards(&paths[..n], self.multilabel, &mut rows)?;
                    paths[..n].iter().for_each(|p| drop(std::fs::remove_file(p)));
                    writer.write_cut(&rows, self.shard_bytes)?;
                    paths = &paths[n..];
                }
                writer
            }
        };
        for path in std::mem::take(&mut self.files) {
            read_batch(&path, &mut rows).map_err(|e| LoadError::io(&path, e))?;
            debug_assert_eq!(self.multilabel, !rows.label_offsets.is_empty());
            let _ = std::fs::remove_file(&path);
            writer.write_cut(&rows, self.shard_bytes)?;
        }
        if self.batch.offsets.len() > 1 {
            writer.write_cut(&self.batch, self.shard_bytes)?;
        }
        Ok((writer.finish()?, rewritten))
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        // A batch still being written (the conversion failed elsewhere)
        // is waited for, so that its writer removes its shards before the
        // conversion returns.
        let _ = self.settle();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The rows of the shards at `paths`, in order, into `rows` (cleared
/// first).
fn read_shards(paths: &[PathBuf], multilabel: bool, rows: &mut Rows) -> Result<(), LoadError> {
    rows.clear(multilabel);
    rows.dim = 0;
    for path in paths {
        let shard = Shard::open(path, OpenOptions::default())?;
        append_rows(&shard, rows);
    }
    Ok(())
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
