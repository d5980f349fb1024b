//! Files to a dataset, as `rosenblatt convert` does it: one or more LIBSVM
//! or VW text files (plain, gzip or bzip2; joined in order), or an MNIST
//! images file and its labels file.
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

mod spool;

use spool::Spool;

/// What the input files are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// LIBSVM/svmlight text.
    Libsvm,
    /// MNIST IDX: an images file, then a labels file.
    Mnist,
    /// Vowpal Wabbit's text format, hashed ([`crate::vw`]).
    Vw,
    /// CSV with a header, its columns hashed as VW features ([`crate::csv`]).
    Csv,
}

impl Format {
    /// MNIST for two files whose names say IDX (`idx`, `ubyte`); VW for
    /// files named `.vw` (`.vw.gz`, `.vw.bz2`); CSV for `.csv` (also
    /// compressed); else LIBSVM.
    pub fn guess(inputs: &[PathBuf]) -> Format {
        let name = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        let idx = |p: &PathBuf| {
            let n = name(p);
            n.contains("idx") || n.contains("ubyte") || starts_as_idx(p)
        };
        let named = |ext: &str| {
            let exts = [ext.to_string(), format!("{ext}.gz"), format!("{ext}.bz2")];
            !inputs.is_empty() && inputs.iter().all(|p| exts.iter().any(|e| name(p).ends_with(e.as_str())))
        };
        if inputs.len() == 2 && inputs.iter().all(idx) {
            Format::Mnist
        } else if named(".vw") {
            Format::Vw
        } else if named(".csv") {
            Format::Csv
        } else {
            Format::Libsvm
        }
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
    /// How to hash VW text.
    pub hashing: crate::vw::Hashing,
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
            hashing: crate::vw::Hashing::default(),
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
    /// What the reading noticed that the user should hear (VW rows
    /// labelled 0 read as -1, initial predictions ignored).
    pub notes: Vec<String>,
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
        return convert_text(inputs, out, opts, None, progress);
    }
    if format == Format::Csv {
        return convert_csv(inputs, out, opts, progress);
    }
    if format == Format::Vw {
        let p = &opts.parse;
        if p.zero_based || p.multilabel || p.sort_indices {
            return Err(LoadError::Invalid(
                "`zero-based`, `multilabel` and `sort-indices` apply to LIBSVM text, not VW text".into(),
            ));
        }
        let hashing = &opts.hashing;
        if hashing.label_column.is_some() {
            return Err(LoadError::Invalid("`label-column` applies to CSV; VW text's label leads each line".into()));
        }
        let compiled = hashing.compile().map_err(|e| LoadError::Invalid(e.to_string()))?;
        // Hashed rows: zero-based indices below 2^bits, ±1 labels or
        // class ids, the settings recorded.
        let mut vw = opts.clone();
        vw.parse.zero_based = true;
        vw.write = hashing.write_options(&opts.write);
        return convert_text(inputs, out, &vw, Some(&compiled), progress);
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
    Ok(Converted { manifest, input_bytes, skipped: Vec::new(), rewritten_rows: 0, notes: Vec::new() })
}

/// LIBSVM text files (or VW text, with `vw` its hashing) into a dataset,
/// streaming (the module's doc).
fn convert_text(
    inputs: &[PathBuf],
    out: &Path,
    opts: &ConvertOptions,
    vw: Option<&crate::vw::Compiled>,
    progress: &mut dyn FnMut(&str),
) -> Result<Converted, LoadError> {
    if opts.target.is_some() {
        return Err(LoadError::Invalid("`target` applies to MNIST input; text labels are used as they are".into()));
    }
    let mut notes = crate::vw::Notes::default();
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
            let pieces_of = opts.piece_bytes.max(1);
            line += pool
                .install(|| match vw {
                    None => parse_block_into(text, line, &opts.parse, pieces_of, batch, &mut pieces),
                    Some(c) => {
                        let reading = crate::vw::Reading {
                            labels: crate::vw::Labels::Required,
                            skip_bad_lines: opts.parse.skip_bad_lines,
                        };
                        crate::vw::parse_block_into(text, line, c, pieces_of, reading, batch, &mut pieces, &mut notes)
                    }
                })
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
    let said = notes.sentences(vw.is_some_and(|c| c.settings().multiclass));
    progress(&format!("writing {}", out.display()));
    spool.settle()?;
    // Whether every value is a byte times `scale`: known from the checks on
    // the way when the scale was the same for every block, else read again
    // from the batches written so far.
    let mut exact = |scale: f32| {
        scales.verdict(scale).unwrap_or_else(|| spool.all_values(|values| u8_exact(values, scale)).unwrap_or(false))
    };
    let choice = choose(&stats, w, &mut exact)?;
    let (manifest, rewritten_rows) = spool.finish(choice)?;
    Ok(Converted { manifest, input_bytes, skipped, rewritten_rows, notes: said })
}

/// CSV files (each with its header) into a dataset: read whole, in order.
fn convert_csv(
    inputs: &[PathBuf],
    out: &Path,
    opts: &ConvertOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Converted, LoadError> {
    let p = &opts.parse;
    if p.zero_based || p.multilabel || p.sort_indices || p.skip_bad_lines || opts.target.is_some() {
        return Err(LoadError::Invalid(
            "`zero-based`, `multilabel`, `sort-indices`, `skip-bad-lines` and `target` do not apply to CSV".into(),
        ));
    }
    let hashing = &opts.hashing;
    let Some(label) = hashing.label_column.as_deref() else {
        return Err(LoadError::Invalid("CSV input needs the name of its label column (`label-column`)".into()));
    };
    let compiled = hashing.compile().map_err(|e| LoadError::Invalid(e.to_string()))?;
    let (mut rows, mut notes, mut input_bytes) = (Rows::empty(), crate::vw::Notes::default(), 0u64);
    for path in inputs {
        progress(&format!("parsing {}", path.display()));
        let text = crate::input::read_input(path, 1 << 40)?;
        input_bytes += text.len() as u64;
        let (r, n) = crate::csv::parse(path, &text, label, &compiled, crate::vw::Labels::Required)?;
        rows.append(&r);
        notes.zero_labels += n.zero_labels;
    }
    if rows.is_empty() {
        return Err(LoadError::Empty { path: inputs[0].clone() });
    }
    let said = notes.sentences(hashing.multiclass);
    let wopts = hashing.write_options(&opts.write);
    progress(&format!("writing {}", out.display()));
    let manifest = write_dataset(out, &rows, &wopts)?;
    Ok(Converted { manifest, input_bytes, skipped: Vec::new(), rewritten_rows: 0, notes: said })
}

/// What a dataset's shards are written as: what [`DatasetWriter::create`]
/// and [`DatasetWriter::set_columns`] take.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Choice {
    dim: u64,
    kind: LabelKind,
    encoding: Encoding,
    qids: bool,
    weights: bool,
}

impl Choice {
    /// A new dataset in `out` written as this choice.
    fn writer(&self, out: &Path, w: &WriteOptions) -> Result<DatasetWriter, LoadError> {
        let mut writer = DatasetWriter::create(out, self.dim, self.encoding, self.kind, w.index_base)?;
        writer.set_columns(self.qids, self.weights);
        writer.set_hashing(w.hashing.clone());
        writer.set_durable(w.durable);
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
    Ok(Choice { dim, kind, encoding, qids: stats.qids, weights: stats.weights })
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
