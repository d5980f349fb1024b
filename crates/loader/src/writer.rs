//! Writing a dataset: the most compact lossless encoding for the rows
//! ([`choose_encoding`]), shards cut to size and each written atomically,
//! the manifest last ([`write_dataset`] for rows in memory,
//! [`DatasetWriter`] shard by shard for generators).

use crate::EncodingKind;
use crate::error::LoadError;
use crate::format::{
    self, Encoding, Header, Indices, LabelKind, Labels, Layout, ShardData, ValueColumnData, ValueEncoding,
};
use crate::fs::{AtomicFile, write_atomic};
use crate::libsvm::Rows;
use crate::manifest::{FORMAT_NAME, MANIFEST, MANIFEST_VERSION, Manifest, ShardEntry};
use std::path::{Path, PathBuf};

/// Data density from which the dense layout is chosen. Measured on the
/// project machine (docs/shard-format.md): per row, dense u8 beats a sparse
/// u16/u8 gather from about 18% density for `dot` and 15% for the fused
/// update; a dot pass over MNIST (19% non-zero) costs the same either way.
pub const DENSE_MIN_DENSITY: f64 = 0.15;

/// Options for writing a dataset.
#[derive(Clone, Debug)]
pub struct WriteOptions {
    /// Target shard size in bytes (a shard holds at least one row).
    pub shard_bytes: u64,
    /// Force an encoding instead of choosing the most compact lossless one.
    pub encoding: Option<Encoding>,
    /// Dimension, if larger than the data's largest index + 1.
    pub dim: Option<u64>,
    /// Index base of the source (recorded for export).
    pub index_base: u8,
    /// Force a label kind (MNIST one-vs-rest is binary even if a shard's
    /// rows all have one label).
    pub label_kind: Option<LabelKind>,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions { shard_bytes: 256 << 20, encoding: None, dim: None, index_base: 1, label_kind: None }
    }
}

/// The u8 scale that decodes every value exactly, if there is one: values
/// in `1..=255 × scale`, checked bit for bit.
pub fn find_u8_scale(values: &[f32]) -> Option<f32> {
    let mut range = ValueRange::EMPTY;
    range.add(values);
    range.u8_scale(&mut |s| u8_exact(values, s))
}

/// What the value encodings depend on, over the values seen so far.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ValueRange {
    min: f32,
    max: f32,
    /// Every value > 0; every value 1; at least one value.
    positive: bool,
    binary: bool,
    any: bool,
}

impl ValueRange {
    const EMPTY: ValueRange = ValueRange { min: f32::INFINITY, max: 0.0, positive: true, binary: true, any: false };

    /// Takes `values` into the range in one sweep of `wide` lanes: masks
    /// and selects, the same on every target (with `<` and `>` a NaN
    /// leaves min and max alone, as `f32::min`/`max` do, and is not
    /// positive). One value at a time this was 5% of a conversion, and
    /// eight plain-Rust lanes of `bool`s and `if`s still 6% of its
    /// instructions (LLVM kept them scalar).
    fn add(&mut self, values: &[f32]) {
        use wide::f32x4;
        let (mut min, mut max) = ([f32x4::splat(self.min); 2], [f32x4::splat(self.max); 2]);
        let yes = f32x4::splat(f32::from_bits(u32::MAX)); // a mask lane that is true
        let (mut ones, mut positive) = ([yes; 2], [yes; 2]);
        let (blocks, tail) = values.as_chunks::<8>();
        for b in blocks {
            for (l, q) in b.as_chunks::<4>().0.iter().enumerate() {
                let v = f32x4::new(*q);
                min[l] = v.simd_lt(min[l]).select(v, min[l]);
                max[l] = v.simd_gt(max[l]).select(v, max[l]);
                ones[l] &= v.simd_eq(f32x4::ONE);
                positive[l] &= v.simd_gt(f32x4::ZERO);
            }
        }
        let lanes = |x: [f32x4; 2]| x.into_iter().flat_map(|x| x.to_array());
        let (mut min, mut max) = (lanes(min).fold(f32::INFINITY, f32::min), lanes(max).fold(0.0, f32::max));
        // A lane is all ones (true) or all zeros: its sign bit says which.
        let (mut binary, mut positive) = (
            self.binary && lanes(ones).all(|m| m.is_sign_negative()),
            self.positive && lanes(positive).all(|m| m.is_sign_negative()),
        );
        for &v in tail {
            min = if v < min { v } else { min };
            max = if v > max { v } else { max };
            binary &= v == 1.0;
            positive &= v > 0.0;
        }
        (self.min, self.max) = (min, max);
        (self.binary, self.positive) = (binary, positive);
        self.any |= !values.is_empty();
    }

    /// [`ValueRange::add`] in blocks spread over the current rayon pool
    /// (one thread, or called outside any pool: the plain sweep, and no
    /// global pool started). Minimum, maximum and the flags merge exactly,
    /// so the range is the same bit for bit.
    pub(crate) fn add_par(&mut self, values: &[f32]) {
        self.add_blocks(values, PAR_VALUES);
    }

    /// [`ValueRange::add_par`] in blocks of `block` values.
    fn add_blocks(&mut self, values: &[f32], block: usize) {
        use rayon::prelude::*;
        if rayon::current_thread_index().is_none() || rayon::current_num_threads() == 1 || values.len() <= block {
            return self.add(values);
        }
        let part = |c: &[f32]| {
            let mut r = ValueRange::EMPTY;
            r.add(c);
            r
        };
        let r = values.par_chunks(block).map(part).reduce(|| ValueRange::EMPTY, ValueRange::merge);
        *self = self.merge(r);
    }

    /// The range of both sets of values.
    fn merge(self, o: ValueRange) -> ValueRange {
        ValueRange {
            min: if o.min < self.min { o.min } else { self.min },
            max: if o.max > self.max { o.max } else { self.max },
            positive: self.positive && o.positive,
            binary: self.binary && o.binary,
            any: self.any || o.any,
        }
    }

    /// The candidate u8 scales, in the order they are tried: pixels
    /// (1/255), small integers (1), a full byte range (max/255), and a grid
    /// whose step is the smallest value (0.5, 1, 2 → 0.5).
    pub(crate) fn scale_candidates(&self) -> [f32; 4] {
        [1.0f32 / 255.0, 1.0, self.max / 255.0, self.min]
    }

    /// The first candidate scale for which `exact(scale)` says every value
    /// is a byte times it; none unless every value is positive.
    fn u8_scale(&self, exact: &mut dyn FnMut(f32) -> bool) -> Option<f32> {
        if !self.positive || !self.any {
            return None;
        }
        self.scale_candidates().into_iter().find(|&s| s.is_finite() && s > 0.0 && exact(s))
    }
}

/// `v / scale` as the byte `k` with `k·scale == v` exactly, if there is one
/// in 1..=255.
#[inline(always)]
fn u8_of(v: f32, scale: f32, inv: f32) -> Option<u8> {
    // Multiplying by the reciprocal is fast but may round to the wrong
    // neighbour; the exact test decides, and a miss is tried once more
    // with the division.
    // `as i32` truncates: for positive quotients, +0.5 makes it the nearest
    // integer, with no call into libm (the baseline x86-64 has no rounding
    // instruction); non-positive ones end up outside 1..=255.
    let fits = |k: f32| (1.0..=255.0).contains(&k) && (k * scale).to_bits() == v.to_bits();
    let k = ((v * inv) + 0.5) as i32 as f32;
    if fits(k) {
        return Some(k as u8);
    }
    let k = ((v / scale) + 0.5) as i32 as f32;
    fits(k).then_some(k as u8)
}

/// Values per block of [`encode_u8`] and [`u8_exact`].
const U8_LANES: usize = 16;

/// [`u8_of`]'s first try (the product by the reciprocal) on a block of
/// values, in lanes without a branch per value: the bytes, and whether the
/// try missed for any value (the caller then asks `u8_of` value by value).
#[inline(always)]
fn u8_block(block: &[f32; U8_LANES], scale: f32, inv: f32) -> ([u8; U8_LANES], bool) {
    use wide::{f32x4, i32x4};
    // 2^23: adding it rounds a float in [0, 2^23) to an integer, whose
    // value the low bits of the sum then hold.
    const MAGIC: f32 = 8_388_608.0;
    let (mut bytes, mut hits) = ([0u8; U8_LANES], true);
    let (quads, _) = block.as_chunks::<4>();
    for (q4, out) in quads.iter().zip(bytes.as_chunks_mut::<4>().0) {
        let v = f32x4::new(*q4);
        // `u8_of`'s candidate, `trunc(v·inv + 0.5)`, in float lanes alone
        // (a float-to-int conversion with Rust's saturation is scalar code):
        // clamped to [0, 256] (a clamped candidate misses there as here; a
        // NaN stays NaN or becomes 0 or 256, and misses either way), rounded
        // to the nearest integer, then one less if that rounded up.
        let q = (v * f32x4::splat(inv) + f32x4::splat(0.5)).fast_max(f32x4::ZERO).fast_min(f32x4::splat(256.0));
        let r = (q + f32x4::splat(MAGIC)) - f32x4::splat(MAGIC);
        let k = r - (r.simd_gt(q) & f32x4::ONE);
        let exact: i32x4 =
            bytemuck::cast::<f32x4, i32x4>(k * f32x4::splat(scale)).simd_eq(bytemuck::cast::<f32x4, i32x4>(v));
        let in_range = k.simd_ge(f32x4::ONE) & k.simd_le(f32x4::splat(255.0));
        hits &= (bytemuck::cast::<f32x4, i32x4>(in_range) & exact).all();
        let sums: [u32; 4] = bytemuck::cast(k + f32x4::splat(MAGIC));
        *out = sums.map(|b| b as u8);
    }
    (bytes, !hits)
}

/// Encodes `values` into `out` as [`u8_of`]'s bytes, or says the index of
/// the first value that is not `k × scale` for a `k` in 1..=255 (`out` then
/// holds an unfinished encoding).
pub(crate) fn encode_u8(values: &[f32], scale: f32, out: &mut Vec<u8>) -> Result<(), usize> {
    let inv = 1.0 / scale;
    out.clear();
    out.reserve(values.len());
    let (blocks, rest) = values.as_chunks::<U8_LANES>();
    for (b, block) in blocks.iter().enumerate() {
        let (mut bytes, miss) = u8_block(block, scale, inv);
        if miss {
            for (j, (o, &v)) in bytes.iter_mut().zip(block).enumerate() {
                *o = u8_of(v, scale, inv).ok_or(b * U8_LANES + j)?;
            }
        }
        out.extend_from_slice(&bytes);
    }
    let done = values.len() - rest.len();
    for (j, &v) in rest.iter().enumerate() {
        out.push(u8_of(v, scale, inv).ok_or(done + j)?);
    }
    Ok(())
}

/// Values per task of the sweeps spread over a pool ([`ValueRange::add_par`],
/// [`u8_exact_par`]): 256 KB, many times rayon's cost per task.
const PAR_VALUES: usize = 1 << 16;

/// [`u8_exact`] in blocks spread over the current rayon pool (called
/// outside any pool, on this thread).
pub(crate) fn u8_exact_par(values: &[f32], scale: f32) -> bool {
    u8_exact_blocks(values, scale, PAR_VALUES)
}

/// [`u8_exact_par`] in blocks of `block` values.
fn u8_exact_blocks(values: &[f32], scale: f32, block: usize) -> bool {
    use rayon::prelude::*;
    if rayon::current_thread_index().is_none() || rayon::current_num_threads() == 1 || values.len() <= block {
        return u8_exact(values, scale);
    }
    values.par_chunks(block).all(|c| u8_exact(c, scale))
}

/// Whether every value is `k × scale` for a `k` in 1..=255.
pub(crate) fn u8_exact(values: &[f32], scale: f32) -> bool {
    let inv = 1.0 / scale;
    let (blocks, rest) = values.as_chunks::<U8_LANES>();
    let exact = |v: &f32| u8_of(*v, scale, inv).is_some();
    blocks.iter().all(|block| !u8_block(block, scale, inv).1 || block.iter().all(exact)) && rest.iter().all(exact)
}

/// The most compact lossless encoding the kernels read.
pub fn choose_encoding(rows: &Rows, dim: u64) -> Encoding {
    Stats::of(rows).encoding(dim, &mut |scale| u8_exact(&rows.values, scale))
}

/// What choosing an encoding and a label kind needs to know of every row,
/// gathered batch by batch, so that rows can stream through a conversion
/// without being held all at once.
#[derive(Clone, Debug)]
pub(crate) struct Stats {
    pub(crate) rows: u64,
    pub(crate) nnz: u64,
    /// One past the largest index (explicit zeros included).
    pub(crate) dim: u64,
    pub(crate) values: ValueRange,
    /// Every label ±1; every label a class id.
    binary_labels: bool,
    class_labels: bool,
    multilabel: bool,
    pub(crate) qids: bool,
}

impl Stats {
    pub(crate) fn new(multilabel: bool) -> Self {
        Stats {
            rows: 0,
            nnz: 0,
            dim: 0,
            values: ValueRange::EMPTY,
            binary_labels: true,
            class_labels: true,
            multilabel,
            qids: false,
        }
    }

    pub(crate) fn of(rows: &Rows) -> Self {
        let mut s = Stats::new(!rows.label_offsets.is_empty());
        s.add(rows);
        s
    }

    pub(crate) fn add(&mut self, rows: &Rows) {
        self.add_from(rows, 0);
    }

    /// Adds rows `first..` of `rows` (those a block appended to a batch).
    pub(crate) fn add_from(&mut self, rows: &Rows, first: usize) {
        let (n, from) = (rows.len(), rows.offsets[first] as usize);
        self.rows += (n - first) as u64;
        self.nnz += (rows.indices.len() - from) as u64;
        // Indices are sorted within a row: its last is its largest.
        self.dim = self.dim.max(rows.dim);
        for r in first..n {
            let (s, e) = (rows.offsets[r] as usize, rows.offsets[r + 1] as usize);
            if e > s {
                self.dim = self.dim.max(u64::from(rows.indices[e - 1]) + 1);
            }
        }
        self.values.add_par(&rows.values[from..]);
        self.add_labels(rows.labels.get(first..).unwrap_or_default());
        self.qids |= rows.qids.get(first..).unwrap_or_default().iter().any(|&q| q != crate::libsvm::NO_QID);
    }

    fn add_labels(&mut self, labels: &[f32]) {
        for &l in labels {
            self.binary_labels &= l == 1.0 || l == -1.0;
            self.class_labels &= l >= 0.0 && l < (1 << 24) as f32 && l.fract() == 0.0;
        }
    }

    /// The kind of single labels `labels`, without reading the rows.
    fn label_kind_of(labels: &[f32]) -> LabelKind {
        let mut s = Stats::new(false);
        s.add_labels(labels);
        s.label_kind()
    }

    fn label_kind(&self) -> LabelKind {
        if self.multilabel {
            LabelKind::Multi
        } else if self.binary_labels {
            LabelKind::Binary
        } else if self.class_labels {
            LabelKind::Classes
        } else {
            LabelKind::Real
        }
    }

    /// The label kind and the encoding for rows over `dim` features: those
    /// `opts` forces (checked to hold the rows without loss) or else those
    /// the rows call for; `exact(scale)` says whether every value is a byte
    /// times `scale`.
    pub(crate) fn choose(
        &self,
        opts: &WriteOptions,
        dim: u64,
        exact: &mut dyn FnMut(f32) -> bool,
    ) -> Result<(LabelKind, Encoding), LoadError> {
        let kind = opts.label_kind.unwrap_or_else(|| self.label_kind());
        let encoding = match opts.encoding {
            Some(e) => self.check_forced(e, dim, exact)?,
            None => self.encoding(dim, exact),
        };
        Ok((kind, encoding))
    }

    /// The most compact lossless encoding for rows over `dim` features;
    /// `exact(scale)` says whether every value is a byte times `scale`.
    fn encoding(&self, dim: u64, exact: &mut dyn FnMut(f32) -> bool) -> Encoding {
        let cells = self.rows.saturating_mul(dim);
        let density = if cells == 0 { 0.0 } else { self.nnz as f64 / cells as f64 };
        let values = if self.values.binary {
            ValueEncoding::Ones
        } else if let Some(scale) = self.values.u8_scale(exact) {
            ValueEncoding::U8 { scale }
        } else {
            ValueEncoding::F32
        };
        if density >= DENSE_MIN_DENSITY && self.rows > 0 {
            let values = if self.values.binary { ValueEncoding::U8 { scale: 1.0 } } else { values };
            return Encoding { layout: Layout::Dense, index_bytes: 0, values };
        }
        Encoding { layout: Layout::Sparse, index_bytes: if dim <= 1 << 16 { 2 } else { 4 }, values }
    }

    /// A forced encoding, if it holds the rows without loss (a u8 one with
    /// the scale that does).
    fn check_forced(&self, e: Encoding, dim: u64, exact: &mut dyn FnMut(f32) -> bool) -> Result<Encoding, LoadError> {
        if e.layout == Layout::Sparse && e.index_bytes == 2 && dim > 1 << 16 {
            return Err(LoadError::Invalid(format!("encoding {} cannot hold dimension {dim} (u16 indices)", e.name())));
        }
        match e.values {
            ValueEncoding::Ones if !self.values.binary => {
                Err(LoadError::Invalid(format!("encoding {} would lose values: not every value is 1", e.name())))
            }
            ValueEncoding::U8 { .. } => match self.values.u8_scale(exact) {
                Some(scale) => Ok(Encoding { values: ValueEncoding::U8 { scale }, ..e }),
                None if self.nnz == 0 => Ok(Encoding { values: ValueEncoding::U8 { scale: 1.0 }, ..e }),
                None => Err(LoadError::Invalid(format!(
                    "encoding {} would lose values: they are not all k × one scale for k in 1..=255",
                    e.name()
                ))),
            },
            _ => Ok(e),
        }
    }
}

/// Parses an encoding name as `--encoding` takes it; `values_hint` is the
/// scale for the u8 encodings (the writer finds the exact one).
pub fn parse_encoding(name: &str, values_hint: Option<f32>) -> Result<Encoding, LoadError> {
    name.parse::<EncodingKind>().map(|k| k.encoding(values_hint.unwrap_or(1.0)))
}

impl std::str::FromStr for EncodingKind {
    type Err = LoadError;
    fn from_str(name: &str) -> Result<Self, LoadError> {
        EncodingKind::ALL.iter().copied().find(|k| k.name() == name).ok_or_else(|| {
            let names: Vec<&str> = EncodingKind::ALL.iter().map(|k| k.name()).collect();
            LoadError::Invalid(format!("unknown encoding `{name}` (use {})", names.join(", ")))
        })
    }
}

impl std::fmt::Display for EncodingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Writes `rows` as a dataset in `dir` (created if missing; refused if it
/// already holds a dataset). On error, the shards written so far are
/// removed and no manifest exists.
pub fn write_dataset(dir: &Path, rows: &Rows, opts: &WriteOptions) -> Result<Manifest, LoadError> {
    if dir.join(MANIFEST).exists() {
        return Err(LoadError::dataset(dir, "already holds a dataset; remove it or choose another directory"));
    }
    let min_dim = rows.min_dim();
    let dim = opts.dim.unwrap_or(min_dim);
    if dim < min_dim {
        return Err(LoadError::Invalid(format!("dimension {dim} is below the largest index + 1 ({min_dim})")));
    }
    let (kind, encoding) = Stats::of(rows).choose(opts, dim, &mut |scale| u8_exact(&rows.values, scale))?;
    let mut w = DatasetWriter::create(dir, dim, encoding, kind, opts.index_base)?;
    w.write_cut(rows, opts.shard_bytes)?;
    w.finish()
}

impl crate::Dataset {
    /// `rows` as a dataset held in memory, one shard, never written to
    /// disk (for predicting on text); `name` stands for it in messages.
    /// The encoding, dimension, index base and label kind follow `opts` as
    /// in [`write_dataset`].
    pub fn from_rows(name: &Path, rows: &Rows, opts: &WriteOptions) -> Result<crate::Dataset, LoadError> {
        rows.check_structure().map_err(|e| LoadError::dataset(name, e))?;
        let min_dim = rows.min_dim();
        let dim = opts.dim.unwrap_or(min_dim).max(min_dim);
        let (kind, encoding) = Stats::of(rows).choose(opts, dim, &mut |scale| u8_exact(&rows.values, scale))?;
        let (mut scratch, mut image) = (Scratch::default(), Vec::new());
        let qids = rows.has_qids();
        let (_, crc32) = encode_range(
            rows,
            0,
            rows.len(),
            dim,
            encoding,
            kind,
            opts.index_base,
            qids,
            None,
            &mut scratch,
            &mut image,
        )
        .map_err(|e| LoadError::io(name, e))?;
        let shard = crate::Shard::from_image(name.to_path_buf(), &image, false)?;
        let mut counts = std::collections::BTreeMap::<u64, u64>::new();
        if kind != LabelKind::Real && kind != LabelKind::Multi {
            rows.labels.iter().for_each(|&l| *counts.entry(f64::from(l).to_bits()).or_default() += 1);
        }
        let manifest = Manifest {
            format: FORMAT_NAME.into(),
            version: MANIFEST_VERSION,
            rows: rows.len() as u64,
            nnz: shard.header().nnz,
            nonzeros: rows.indices.len() as u64,
            dim,
            index_base: opts.index_base,
            encoding: encoding.kind(),
            scale: match encoding.values {
                ValueEncoding::U8 { scale } => Some(scale),
                _ => None,
            },
            label_kind: kind,
            label_counts: counts.into_iter().map(|(b, c)| (f64::from_bits(b), c)).collect(),
            has_qids: rows.has_qids(),
            shards: vec![ShardEntry {
                file: String::new(),
                rows: rows.len() as u64,
                nnz: shard.header().nnz,
                bytes: image.len() as u64,
                crc32,
            }],
        };
        Ok(crate::Dataset::from_parts(name.to_path_buf(), manifest, vec![shard]))
    }
}

/// Writes a dataset one shard at a time, for generators whose rows never
/// sit in memory all at once. The dimension, encoding and label kind are
/// fixed up front; every shard is checked against them (indices below the
/// dimension, values held by the encoding without loss, labels of the
/// kind) before it is written. Shards are written atomically as they come;
/// [`DatasetWriter::finish`] writes the manifest last. A writer dropped
/// before `finish` (an error, a panic upstream) removes its shards, so the
/// directory never holds a half-written dataset that opens.
#[derive(Debug)]
pub struct DatasetWriter {
    dir: PathBuf,
    dim: u64,
    encoding: Encoding,
    kind: LabelKind,
    index_base: u8,
    entries: Vec<ShardEntry>,
    written: Vec<PathBuf>,
    rows: u64,
    nonzeros: u64,
    counts: std::collections::BTreeMap<u64, u64>,
    has_qids: Option<bool>,
    finished: bool,
    scratch: Scratch,
    /// A sparse u8 encoding's bytes of the batch last checked (all its
    /// values, encoded while checking them), for `push` to write.
    batch_u8: Vec<u8>,
    /// Shards `..stale` were written with a smaller dimension than `dim`
    /// ([`DatasetWriter::raise_dim`]); `finish` sets it in their headers.
    stale: usize,
    /// The last shard written, being synced to the disk on a thread of its
    /// own while the next is made (a 256 MB shard's sync took this machine
    /// about 85 ms, most of it waiting on the disk).
    syncing: Option<(PathBuf, std::thread::JoinHandle<std::io::Result<()>>)>,
}

impl DatasetWriter {
    /// Starts a dataset in `dir` (created if missing; refused if it already
    /// holds one). A u8 encoding's scale is the one every value must be a
    /// multiple `k × scale`, `k` in 1..=255, of.
    pub fn create(
        dir: &Path,
        dim: u64,
        encoding: Encoding,
        kind: LabelKind,
        index_base: u8,
    ) -> Result<DatasetWriter, LoadError> {
        if dir.join(MANIFEST).exists() {
            return Err(LoadError::dataset(dir, "already holds a dataset; remove it or choose another directory"));
        }
        if dim > 1 << 32 {
            return Err(LoadError::Invalid(format!("dimension {dim} exceeds 2^32")));
        }
        if encoding.layout == Layout::Dense && encoding.values == ValueEncoding::Ones {
            return Err(LoadError::Invalid("dense rows store their values (binary ones as u8)".into()));
        }
        if encoding.layout == Layout::Sparse && encoding.index_bytes == 2 && dim > 1 << 16 {
            return Err(LoadError::Invalid(format!(
                "encoding {} cannot hold dimension {dim} (u16 indices)",
                encoding.name()
            )));
        }
        if let ValueEncoding::U8 { scale } = encoding.values
            && !(scale.is_finite() && scale > 0.0)
        {
            return Err(LoadError::Invalid(format!("u8 scale {scale} is not a positive finite number")));
        }
        std::fs::create_dir_all(dir).map_err(|e| LoadError::io(dir, e))?;
        Ok(DatasetWriter {
            dir: dir.to_path_buf(),
            dim,
            encoding,
            kind,
            index_base,
            entries: Vec::new(),
            written: Vec::new(),
            rows: 0,
            nonzeros: 0,
            counts: Default::default(),
            has_qids: None,
            finished: false,
            scratch: Scratch::default(),
            batch_u8: Vec::new(),
            stale: 0,
            syncing: None,
        })
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The shard files written so far, in order.
    pub(crate) fn written(&self) -> &[PathBuf] {
        &self.written
    }

    /// Raises the dimension to `dim` for the shards to come (sparse rows
    /// only: their bytes do not depend on it); [`DatasetWriter::finish`]
    /// sets it in the header of each shard written before.
    pub(crate) fn raise_dim(&mut self, dim: u64) -> Result<(), LoadError> {
        if dim < self.dim || (dim > self.dim && self.encoding.layout != Layout::Sparse) {
            return Err(LoadError::Invalid(format!(
                "cannot raise the dimension of {} from {} to {dim}",
                self.dir.display(),
                self.dim
            )));
        }
        if dim > self.dim {
            self.dim = dim;
            self.stale = self.entries.len();
        }
        Ok(())
    }

    /// Waits until the last shard written is on the disk.
    fn settle(&mut self) -> Result<(), LoadError> {
        if let Some((path, sync)) = self.syncing.take() {
            let synced = sync.join().unwrap_or_else(|_| Err(std::io::Error::other("the thread syncing it panicked")));
            synced.map_err(|e| LoadError::io(&path, e))?;
        }
        Ok(())
    }

    /// Gives up the dataset without removing its shards: their paths, for
    /// the caller to move away and read again (a conversion whose guessed
    /// encoding did not hold; whether they reached the disk no longer
    /// matters).
    pub(crate) fn abandon(mut self) -> Vec<PathBuf> {
        let _ = self.settle();
        self.finished = true;
        std::mem::take(&mut self.written)
    }

    /// Writes `rows` as the next shard.
    pub fn write_shard(&mut self, rows: &Rows) -> Result<(), LoadError> {
        self.check(rows)?;
        self.push(rows, 0, rows.len())
    }

    /// Says up front whether the shards carry query ids (else the first
    /// shard decides): rows that stream in batches may have them in some
    /// batches only.
    pub(crate) fn set_qids(&mut self, qids: bool) {
        self.has_qids = Some(qids);
    }

    /// Checks `rows` and writes them as the next shards, cut so that each
    /// holds about `shard_bytes` in this writer's encoding (at least one
    /// row).
    pub(crate) fn write_cut(&mut self, rows: &Rows, shard_bytes: u64) -> Result<(), LoadError> {
        self.check(rows)?;
        let (encoding, dim) = (self.encoding, self.dim);
        let row_bytes = |r: usize| -> u64 {
            let nnz = rows.offsets[r + 1] - rows.offsets[r];
            let vbytes = match encoding.values {
                ValueEncoding::F32 => 4,
                ValueEncoding::U8 { .. } => 1,
                ValueEncoding::Ones => 0,
            };
            let body = match encoding.layout {
                Layout::Dense => dim * vbytes,
                Layout::Sparse => 8 + nnz * (u64::from(encoding.index_bytes) + vbytes),
            };
            body + 4
        };
        let (n, mut start) = (rows.len(), 0);
        while start < n {
            let (mut end, mut bytes) = (start, 0u64);
            while end < n && (end == start || bytes + row_bytes(end) <= shard_bytes) {
                bytes += row_bytes(end);
                end += 1;
            }
            self.push(rows, start, end)?;
            start = end;
        }
        Ok(())
    }

    fn check(&mut self, rows: &Rows) -> Result<(), LoadError> {
        let at = |what: String| {
            LoadError::Invalid(format!("shard {} of {}: {what}", self.entries.len(), self.dir.display()))
        };
        rows.check_structure().map_err(at)?;
        if rows.min_dim() > self.dim {
            return Err(at(format!("index {} is beyond the dimension {}", rows.min_dim() - 1, self.dim)));
        }
        let multilabel = !rows.label_offsets.is_empty();
        if multilabel != (self.kind == LabelKind::Multi) {
            return Err(at(format!("label sets do not fit label kind {}", self.kind)));
        }
        if !multilabel && !rows.is_empty() {
            // The labels alone: the rows' values are not read for this.
            let fits = match Stats::label_kind_of(&rows.labels) {
                LabelKind::Binary => true,
                LabelKind::Classes => self.kind != LabelKind::Binary,
                _ => self.kind == LabelKind::Real,
            };
            if !fits {
                return Err(at(format!("labels do not fit label kind {}", self.kind)));
            }
        }
        match self.encoding.values {
            ValueEncoding::Ones => {
                if let Some(v) = rows.values.iter().find(|&&v| v != 1.0) {
                    return Err(at(format!("value {v} in a binary (ones) encoding")));
                }
            }
            ValueEncoding::U8 { scale } if self.encoding.layout == Layout::Sparse => {
                // Encoded while checked: `push` writes these bytes.
                if let Err(k) = encode_u8(&rows.values, scale, &mut self.batch_u8) {
                    return Err(at(format!("value {} is not k × {scale} for k in 1..=255", rows.values[k])));
                }
            }
            ValueEncoding::U8 { scale } => {
                let inv = 1.0 / scale;
                let exact = |v: f32| u8_of(v, scale, inv).is_some();
                // Dense layouts store zeros as 0; sparse ones never store them.
                let zero_ok = self.encoding.layout == Layout::Dense;
                if let Some(v) = rows.values.iter().find(|&&v| !(exact(v) || zero_ok && v == 0.0)) {
                    return Err(at(format!("value {v} is not k × {scale} for k in 1..=255")));
                }
            }
            ValueEncoding::F32 => {
                if let Some(v) = rows.values.iter().find(|v| !v.is_finite()) {
                    return Err(at(format!("value {v} is not finite")));
                }
            }
        }
        Ok(())
    }

    /// Writes rows `a..b` of `rows` as the next shard (checked by the caller).
    fn push(&mut self, rows: &Rows, a: usize, b: usize) -> Result<(), LoadError> {
        let qids = rows.has_qids();
        if !*self.has_qids.get_or_insert(qids) && qids {
            return Err(LoadError::Invalid(format!(
                "shard {} of {}: query ids in some shards but not in others",
                self.entries.len(),
                self.dir.display()
            )));
        }
        let file = format!("shard-{:05}.rbs", self.entries.len());
        let path = self.dir.join(&file);
        let (dim, enc, kind, base, qids) =
            (self.dim, self.encoding, self.kind, self.index_base, self.has_qids == Some(true));
        let mut shard = AtomicFile::create(&path)?;
        // A sparse u8 batch's values were encoded by `check`.
        let checked_u8 = (enc.layout == Layout::Sparse && matches!(enc.values, ValueEncoding::U8 { .. }))
            .then_some(&self.batch_u8[..]);
        let (bytes, crc32) =
            encode_range(rows, a, b, dim, enc, kind, base, qids, checked_u8, &mut self.scratch, &mut shard)
                .map_err(|e| LoadError::io(&path, e))?;
        let out = shard.commit_unsynced()?;
        self.written.push(path.clone());
        // One sync at a time: the shard before this one's, started when it
        // was written, has had this one's encoding to finish in.
        self.settle()?;
        let sync = std::thread::Builder::new().name("rosenblatt-sync".into()).spawn({
            let out = out.try_clone().map_err(|e| LoadError::io(&path, e))?;
            move || out.sync_all()
        });
        match sync {
            Ok(handle) => self.syncing = Some((path, handle)),
            Err(_) => out.sync_all().map_err(|e| LoadError::io(&path, e))?,
        }
        let nonzeros = rows.offsets[b] - rows.offsets[a];
        let nnz = match self.encoding.layout {
            Layout::Dense => (b - a) as u64 * self.dim,
            Layout::Sparse => nonzeros,
        };
        self.entries.push(ShardEntry { file, rows: (b - a) as u64, nnz, bytes, crc32 });
        self.rows += (b - a) as u64;
        self.nonzeros += nonzeros;
        match self.kind {
            LabelKind::Real => {}
            LabelKind::Multi => {
                let (s, e) = (rows.label_offsets[a] as usize, rows.label_offsets[b] as usize);
                rows.multilabels[s..e]
                    .iter()
                    .for_each(|&c| *self.counts.entry(f64::from(c).to_bits()).or_default() += 1)
            }
            _ => rows.labels[a..b].iter().for_each(|&l| *self.counts.entry(f64::from(l).to_bits()).or_default() += 1),
        }
        Ok(())
    }

    /// Writes the manifest (an empty dataset gets one empty shard) and
    /// returns it.
    pub fn finish(mut self) -> Result<Manifest, LoadError> {
        if self.entries.is_empty() {
            self.push(&Rows::empty(), 0, 0)?;
        }
        // Every shard on the disk before the manifest, written last and
        // synced with its directory (which makes the shards' renames
        // durable too), says they are a dataset.
        self.settle()?;
        for path in &self.written[..self.stale] {
            set_dim(path, self.dim)?;
        }
        let mut label_counts: Vec<(f64, u64)> = self.counts.iter().map(|(&b, &c)| (f64::from_bits(b), c)).collect();
        label_counts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let manifest = Manifest {
            format: FORMAT_NAME.into(),
            version: MANIFEST_VERSION,
            rows: self.rows,
            nnz: self.entries.iter().map(|e| e.nnz).sum(),
            nonzeros: self.nonzeros,
            dim: self.dim,
            index_base: self.index_base,
            encoding: self.encoding.kind(),
            scale: match self.encoding.values {
                ValueEncoding::U8 { scale } => Some(scale),
                _ => None,
            },
            label_kind: self.kind,
            label_counts,
            has_qids: self.has_qids.unwrap_or(false),
            shards: std::mem::take(&mut self.entries),
        };
        let json = serde_json::to_vec_pretty(&manifest).expect("manifest serialises");
        write_atomic(&self.dir.join(MANIFEST), &json)?;
        self.finished = true;
        Ok(manifest)
    }
}

impl Drop for DatasetWriter {
    fn drop(&mut self) {
        if !self.finished {
            let _ = self.settle();
            for p in &self.written {
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

/// The columns of a shard that differ from its rows' own (offsets from the
/// shard's start, bytes, u16 indices, dense rows, label offsets, absent
/// query ids), kept from one shard to the next: fresh ones would cost a
/// page fault and the kernel's zeroing per 4 KiB of each (SPEED.md#convert).
#[derive(Default)]
pub(crate) struct Scratch {
    offsets: Vec<u64>,
    u8s: Vec<u8>,
    u16s: Vec<u16>,
    dense: Vec<f32>,
    label_offsets: Vec<u64>,
    qids: Vec<u64>,
}

impl std::fmt::Debug for Scratch {
    // The buffers' sizes, not their bytes (an image is hundreds of MB).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch").field("offsets_capacity", &self.offsets.capacity()).finish_non_exhaustive()
    }
}

/// Writes rows `a..b` of `rows` to `out` as one shard image (see
/// [`format::write_image`]); returns its length and CRC-32. `checked_u8`:
/// in a sparse u8 encoding, every value of `rows` already encoded.
#[allow(clippy::too_many_arguments)]
fn encode_range(
    rows: &Rows,
    a: usize,
    b: usize,
    dim: u64,
    enc: Encoding,
    kind: LabelKind,
    base: u8,
    qids: bool,
    checked_u8: Option<&[u8]>,
    scratch: &mut Scratch,
    out: &mut impl std::io::Write,
) -> std::io::Result<(u64, u32)> {
    let Scratch { offsets, u8s, u16s, dense, label_offsets, qids: qid_column } = scratch;
    let (s, e) = (rows.offsets[a] as usize, rows.offsets[b] as usize);
    offsets.clear();
    offsets.extend(rows.offsets[a..=b].iter().map(|o| o - s as u64));
    let (idx, vals) = (&rows.indices[s..e], &rows.values[s..e]);
    let scale = match enc.values {
        ValueEncoding::U8 { scale } => scale,
        _ => 1.0,
    };
    let inv = 1.0 / scale;
    // Checked by the writer: every value is k·scale for a byte k.
    let to_u8 = |v: f32| u8_of(v, scale, inv).unwrap_or(0);
    let (indices, values, nnz, offs): (Indices<'_>, ValueColumnData<'_>, u64, &[u64]) = match enc.layout {
        Layout::Dense => {
            let d = dim as usize;
            dense.clear();
            dense.resize((b - a) * d, 0.0);
            for r in 0..b - a {
                for k in offsets[r] as usize..offsets[r + 1] as usize {
                    dense[r * d + idx[k] as usize] = vals[k];
                }
            }
            let values = match enc.values {
                ValueEncoding::U8 { .. } => {
                    u8s.clear();
                    u8s.extend(dense.iter().map(|&v| if v == 0.0 { 0 } else { to_u8(v) }));
                    ValueColumnData::U8(u8s)
                }
                _ => ValueColumnData::F32(dense),
            };
            (Indices::None, values, ((b - a) * d) as u64, &[])
        }
        Layout::Sparse => {
            let indices = if enc.index_bytes == 2 {
                u16s.clear();
                u16s.extend(idx.iter().map(|&i| i as u16));
                Indices::U16(u16s)
            } else {
                Indices::U32(idx)
            };
            let values = match enc.values {
                ValueEncoding::F32 => ValueColumnData::F32(vals),
                ValueEncoding::U8 { .. } => match checked_u8 {
                    Some(bytes) => ValueColumnData::U8(&bytes[s..e]),
                    None => {
                        u8s.clear();
                        u8s.extend(vals.iter().map(|&v| to_u8(v)));
                        ValueColumnData::U8(u8s)
                    }
                },
                ValueEncoding::Ones => ValueColumnData::Ones,
            };
            (indices, values, (e - s) as u64, offsets)
        }
    };
    let labels: Labels<'_>;
    let multilabels;
    if kind == LabelKind::Multi {
        let (ls, le) = (rows.label_offsets[a], rows.label_offsets[b]);
        label_offsets.clear();
        label_offsets.extend(rows.label_offsets[a..=b].iter().map(|o| o - ls));
        labels = Labels::Multi { offsets: label_offsets, ids: &rows.multilabels[ls as usize..le as usize] };
        multilabels = le - ls;
    } else {
        labels = Labels::Single(&rows.labels[a..b]);
        multilabels = 0;
    }
    let qids: &[u64] = if !qids {
        &[]
    } else if rows.qids.len() == rows.len() {
        &rows.qids[a..b]
    } else {
        qid_column.clear();
        qid_column.resize(b - a, crate::libsvm::NO_QID);
        qid_column
    };
    let header =
        Header { rows: (b - a) as u64, nnz, dim, encoding: enc, label_kind: kind, index_base: base, multilabels };
    format::write_image(&header, &ShardData { labels, offsets: offs, indices, values, qids }, out)
}

/// Sets the dimension `dim` in the header of a sparse shard a writer wrote
/// at `path`, in place: the file is then the one writing its rows with that
/// dimension gives. Its CRC-32 (the manifest's) does not change: the header
/// ends with its own CRC-32 (then zeros), and the CRC-32 of any bytes
/// followed by their CRC-32 is one constant, so the file's CRC does not
/// depend on what the header holds (the tests verify every file's CRC).
fn set_dim(path: &Path, dim: u64) -> Result<(), LoadError> {
    use std::io::{Read, Seek, Write};
    let io = |e| LoadError::io(path, e);
    let mut f = std::fs::OpenOptions::new().read(true).write(true).open(path).map_err(io)?;
    let mut h = [0u8; format::HEADER_LEN];
    f.read_exact(&mut h).map_err(io)?;
    format::set_sparse_dim(&mut h, dim).map_err(|e| LoadError::shard(path, e))?;
    f.seek(std::io::SeekFrom::Start(0)).map_err(io)?;
    f.write_all(&h).map_err(io)?;
    f.sync_all().map_err(io)
}

#[cfg(test)]
mod tests {
    use super::{ValueRange, encode_u8, u8_exact, u8_exact_blocks, u8_of};
    use proptest::prelude::*;

    /// Values a u8 scale meets: exact multiples `k × scale` (k in 0..=256:
    /// the edges and one past each), their neighbours one ulp away, and any
    /// bit pattern at all (NaN, infinities, subnormals, negatives).
    fn value(scale: f32) -> impl Strategy<Value = f32> {
        prop_oneof![
            4 => (0u32..=256).prop_map(move |k| k as f32 * scale),
            1 => prop_oneof![Just(0.0), Just(-0.0), Just(256.0 * scale)],
            1 => ((1u32..=255), prop::bool::ANY).prop_map(move |(k, up)| {
                let v = (k as f32 * scale).to_bits();
                f32::from_bits(if up { v + 1 } else { v - 1 })
            }),
            1 => any::<u32>().prop_map(f32::from_bits),
        ]
    }

    /// A scale, and values of which many are not multiples of it, or (half
    /// the cases) few or none, so that a whole block of 16 can hold a
    /// single fault.
    /// Three threads: the blocks of a sweep spread over the pool run in
    /// any order.
    fn pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap()
    }

    fn case() -> impl Strategy<Value = (f32, Vec<f32>)> {
        prop_oneof![Just(1.0f32 / 255.0), Just(0.0625), Just(1.0), Just(0.1), Just(3.0e-39), (1e-6f32..1e6)]
            .prop_flat_map(|scale| {
                let mostly = prop_oneof![100 => (1u32..=255).prop_map(move |k| k as f32 * scale), 1 => value(scale)];
                let values =
                    prop_oneof![prop::collection::vec(value(scale), 0..80), prop::collection::vec(mostly, 0..80)];
                (Just(scale), values)
            })
    }

    proptest! {
        /// The range in lanes is the plain fold of every value (NaN leaves
        /// min and max alone and is not positive), taken at once or in two
        /// parts.
        #[test]
        fn the_value_range_in_lanes_is_the_plain_fold(
            values in prop_oneof![
                prop::collection::vec(
                    prop_oneof![Just(1.0f32), Just(0.0), Just(-0.0), Just(f32::NAN), -3.0f32..3.0, any::<u32>().prop_map(f32::from_bits)],
                    0..70,
                ),
                // Mostly ones (binary) or mostly positive, with a rare other.
                prop::collection::vec(prop_oneof![30 => Just(1.0f32), 1 => Just(2.0), 1 => Just(0.0), 1 => Just(f32::NAN)], 0..70),
                prop::collection::vec(prop_oneof![30 => 0.5f32..9.0, 1 => Just(0.0), 1 => Just(-1.0)], 0..70),
            ],
            cut in 0usize..70,
        ) {
            let (mut min, mut max, mut binary, mut positive) = (f32::INFINITY, 0.0f32, true, true);
            for &v in &values {
                min = if v < min { v } else { min };
                max = if v > max { v } else { max };
                binary &= v == 1.0;
                positive &= v > 0.0;
            }
            let (mut whole, mut parts) = (ValueRange::EMPTY, ValueRange::EMPTY);
            whole.add(&values);
            let cut = cut.min(values.len());
            parts.add(&values[..cut]);
            parts.add(&values[cut..]);
            // And in blocks of eight spread over a pool, merged.
            let mut blocks = ValueRange::EMPTY;
            pool().install(|| blocks.add_blocks(&values, 8));
            for r in [whole, parts, blocks] {
                // Equal as numbers: of a 0.0 and a −0.0 either may come
                // out (lanes meet in `f32::min`), and a zero is no scale.
                prop_assert!(r.min == min && r.max == max, "{:?} against {min}, {max}", (r.min, r.max));
                prop_assert_eq!((r.binary, r.positive, r.any), (binary, positive, !values.is_empty()));
            }
        }

        /// The blocks in lanes give `u8_of`'s bytes, and fail exactly where
        /// `u8_of` first finds no byte.
        #[test]
        fn the_block_encoder_is_u8_of_value_by_value((scale, values) in case()) {
            let inv = 1.0 / scale;
            let oracle: Vec<Option<u8>> = values.iter().map(|&v| u8_of(v, scale, inv)).collect();
            let first_bad = oracle.iter().position(Option::is_none);
            let mut out = vec![7u8; 3];
            match encode_u8(&values, scale, &mut out) {
                Ok(()) => {
                    prop_assert_eq!(first_bad, None);
                    prop_assert_eq!(out, oracle.iter().map(|k| k.unwrap()).collect::<Vec<u8>>());
                }
                Err(k) => prop_assert_eq!(Some(k), first_bad),
            }
            prop_assert_eq!(u8_exact(&values, scale), first_bad.is_none());
            prop_assert_eq!(pool().install(|| u8_exact_blocks(&values, scale, 16)), first_bad.is_none());
        }
    }
}
