//! A dataset is a directory: shard files and a versioned JSON manifest
//! (`dataset.json`) with totals, dimension, label kind and classes, and each
//! shard's size and CRC-32. Shards are written first, each atomically; the
//! manifest last. A directory without a manifest is not a dataset, so a
//! conversion that dies midway never leaves one that opens.

use crate::error::LoadError;
use crate::libsvm::{NO_QID, Rows};
use crate::shard::{
    self, Encoding, Header, Indices, LabelKind, Labels, Layout, OpenOptions, Shard, ShardData, ValueColumnData,
    ValueEncoding,
};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The manifest's file name.
pub const MANIFEST: &str = "dataset.json";
/// The manifest format this code writes and reads.
pub const MANIFEST_VERSION: u32 = 1;
const FORMAT_NAME: &str = "rosenblatt-dataset";

/// Data density from which the dense layout is chosen. Measured on the
/// project machine (docs/shard-format.md): per row, dense u8 beats a sparse
/// u16/u8 gather from about 18% density for `dot` and 15% for the fused
/// update; a dot pass over MNIST (19% non-zero) costs the same either way.
pub const DENSE_MIN_DENSITY: f64 = 0.15;

/// The JSON manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always `rosenblatt-dataset`.
    pub format: String,
    /// Manifest format version.
    pub version: u32,
    /// Total rows.
    pub rows: u64,
    /// Total stored entries (for dense shards, rows × dim).
    pub nnz: u64,
    /// Total non-zero values.
    pub nonzeros: u64,
    /// Dimension.
    pub dim: u64,
    /// Index base of the source text.
    pub index_base: u8,
    /// Encoding name (`sparse-u16-u8`, `dense-f32`, …).
    pub encoding: String,
    /// u8 scale, when the encoding is u8.
    pub scale: Option<f32>,
    /// `binary`, `classes`, `real` or `multilabel`.
    pub label_kind: String,
    /// Distinct labels with their counts (binary, classes, multilabel).
    pub label_counts: Vec<(f64, u64)>,
    /// Whether rows carry qids.
    pub has_qids: bool,
    /// The shards, in row order.
    pub shards: Vec<ShardEntry>,
}

/// One shard in the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardEntry {
    /// File name inside the dataset directory.
    pub file: String,
    /// Rows.
    pub rows: u64,
    /// Stored entries.
    pub nnz: u64,
    /// File size in bytes.
    pub bytes: u64,
    /// CRC-32 of the whole file.
    pub crc32: u32,
}

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
    let max = values.iter().fold(0.0f32, |m, &v| m.max(v));
    let min = values.iter().fold(f32::INFINITY, |m, &v| m.min(v));
    if values.iter().any(|&v| v <= 0.0) || values.is_empty() {
        return None;
    }
    let exact = |s: f32| {
        s.is_finite()
            && s > 0.0
            && values.iter().all(|&v| {
                let k = (v / s).round();
                (1.0..=255.0).contains(&k) && (k * s).to_bits() == v.to_bits()
            })
    };
    // Pixels (1/255), small integers (1), a full byte range (max/255), and
    // a grid whose step is the smallest value (0.5, 1, 2 → 0.5).
    [1.0f32 / 255.0, 1.0, max / 255.0, min].into_iter().find(|&s| exact(s))
}

/// The most compact lossless encoding the kernels read.
pub fn choose_encoding(rows: &Rows, dim: u64) -> Encoding {
    let nnz = rows.indices.len() as u64;
    let cells = (rows.len() as u64).saturating_mul(dim);
    let density = if cells == 0 { 0.0 } else { nnz as f64 / cells as f64 };
    let binary = rows.values.iter().all(|&v| v == 1.0);
    let values = if binary {
        ValueEncoding::Ones
    } else if let Some(scale) = find_u8_scale(&rows.values) {
        ValueEncoding::U8 { scale }
    } else {
        ValueEncoding::F32
    };
    if density >= DENSE_MIN_DENSITY && !rows.is_empty() {
        let values = if binary { ValueEncoding::U8 { scale: 1.0 } } else { values };
        return Encoding { layout: Layout::Dense, index_bytes: 0, values };
    }
    Encoding { layout: Layout::Sparse, index_bytes: if dim <= 1 << 16 { 2 } else { 4 }, values }
}

/// Parses an encoding name as `--encoding` takes it.
pub fn parse_encoding(name: &str, values_hint: Option<f32>) -> Result<Encoding, LoadError> {
    let bad = || {
        LoadError::Invalid(format!(
            "unknown encoding `{name}` (use sparse-u16-f32, sparse-u16-u8, sparse-u16-binary, sparse-u32-f32, \
             sparse-u32-u8, sparse-u32-binary, dense-f32 or dense-u8)"
        ))
    };
    let parts: Vec<&str> = name.split('-').collect();
    let values = |v: &str| match v {
        "f32" => Ok(ValueEncoding::F32),
        "u8" => Ok(ValueEncoding::U8 { scale: values_hint.unwrap_or(1.0) }),
        "binary" => Ok(ValueEncoding::Ones),
        _ => Err(bad()),
    };
    match parts.as_slice() {
        ["dense", v] if *v != "binary" => Ok(Encoding { layout: Layout::Dense, index_bytes: 0, values: values(v)? }),
        ["sparse", "u16", v] => Ok(Encoding { layout: Layout::Sparse, index_bytes: 2, values: values(v)? }),
        ["sparse", "u32", v] => Ok(Encoding { layout: Layout::Sparse, index_bytes: 4, values: values(v)? }),
        _ => Err(bad()),
    }
}

fn label_kind_of(rows: &Rows, multilabel: bool) -> LabelKind {
    if multilabel {
        LabelKind::Multi
    } else if rows.labels.iter().all(|&l| l == 1.0 || l == -1.0) {
        LabelKind::Binary
    } else if rows.labels.iter().all(|&l| l >= 0.0 && l < (1 << 24) as f32 && l.fract() == 0.0) {
        LabelKind::Classes
    } else {
        LabelKind::Real
    }
}

fn label_kind_name(k: LabelKind) -> &'static str {
    match k {
        LabelKind::Binary => "binary",
        LabelKind::Classes => "classes",
        LabelKind::Real => "real",
        LabelKind::Multi => "multilabel",
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
    let multilabel = !rows.label_offsets.is_empty();
    let kind = opts.label_kind.unwrap_or_else(|| label_kind_of(rows, multilabel));
    let encoding = match opts.encoding {
        Some(e) => check_forced(e, rows, dim)?,
        None => choose_encoding(rows, dim),
    };
    let mut w = DatasetWriter::create(dir, dim, encoding, kind, opts.index_base)?;
    let n = rows.len();
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
    let mut start = 0;
    loop {
        let mut end = start;
        let mut bytes = 0u64;
        while end < n && (end == start || bytes + row_bytes(end) <= opts.shard_bytes) {
            bytes += row_bytes(end);
            end += 1;
        }
        w.push(rows, start, end)?;
        start = end;
        if start >= n {
            break;
        }
    }
    w.finish()
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
        })
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Writes `rows` as the next shard.
    pub fn write_shard(&mut self, rows: &Rows) -> Result<(), LoadError> {
        self.check(rows)?;
        self.push(rows, 0, rows.len())
    }

    fn check(&self, rows: &Rows) -> Result<(), LoadError> {
        let at = |what: String| {
            LoadError::Invalid(format!("shard {} of {}: {what}", self.entries.len(), self.dir.display()))
        };
        rows.check_structure().map_err(at)?;
        if rows.min_dim() > self.dim {
            return Err(at(format!("index {} is beyond the dimension {}", rows.min_dim() - 1, self.dim)));
        }
        let multilabel = !rows.label_offsets.is_empty();
        if multilabel != (self.kind == LabelKind::Multi) {
            return Err(at(format!("label sets do not fit label kind {}", label_kind_name(self.kind))));
        }
        if !multilabel && !rows.is_empty() {
            let fits = match label_kind_of(rows, false) {
                LabelKind::Binary => true,
                LabelKind::Classes => self.kind != LabelKind::Binary,
                _ => self.kind == LabelKind::Real,
            };
            if !fits {
                return Err(at(format!("labels do not fit label kind {}", label_kind_name(self.kind))));
            }
        }
        match self.encoding.values {
            ValueEncoding::Ones => {
                if let Some(v) = rows.values.iter().find(|&&v| v != 1.0) {
                    return Err(at(format!("value {v} in a binary (ones) encoding")));
                }
            }
            ValueEncoding::U8 { scale } => {
                let exact = |v: f32| {
                    let k = (v / scale).round();
                    (1.0..=255.0).contains(&k) && (k * scale).to_bits() == v.to_bits()
                };
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
        if *self.has_qids.get_or_insert(qids) != qids {
            return Err(LoadError::Invalid(format!(
                "shard {} of {}: query ids in some shards but not in others",
                self.entries.len(),
                self.dir.display()
            )));
        }
        let file = format!("shard-{:05}.rbs", self.entries.len());
        let path = self.dir.join(&file);
        let image = encode_range(rows, a, b, self.dim, self.encoding, self.kind, self.index_base);
        shard::write_atomic(&path, &image)?;
        self.written.push(path);
        let nonzeros = rows.offsets[b] - rows.offsets[a];
        let nnz = match self.encoding.layout {
            Layout::Dense => (b - a) as u64 * self.dim,
            Layout::Sparse => nonzeros,
        };
        self.entries.push(ShardEntry {
            file,
            rows: (b - a) as u64,
            nnz,
            bytes: image.len() as u64,
            crc32: crc32fast::hash(&image),
        });
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
            encoding: self.encoding.name(),
            scale: match self.encoding.values {
                ValueEncoding::U8 { scale } => Some(scale),
                _ => None,
            },
            label_kind: label_kind_name(self.kind).into(),
            label_counts,
            has_qids: self.has_qids.unwrap_or(false),
            shards: std::mem::take(&mut self.entries),
        };
        let json = serde_json::to_vec_pretty(&manifest).expect("manifest serialises");
        shard::write_atomic(&self.dir.join(MANIFEST), &json)?;
        self.finished = true;
        Ok(manifest)
    }
}

impl Drop for DatasetWriter {
    fn drop(&mut self) {
        if !self.finished {
            for p in &self.written {
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

/// A forced encoding must hold the data without loss.
fn check_forced(e: Encoding, rows: &Rows, dim: u64) -> Result<Encoding, LoadError> {
    if e.layout == Layout::Sparse && e.index_bytes == 2 && dim > 1 << 16 {
        return Err(LoadError::Invalid(format!("encoding {} cannot hold dimension {dim} (u16 indices)", e.name())));
    }
    match e.values {
        ValueEncoding::Ones if rows.values.iter().any(|&v| v != 1.0) => {
            Err(LoadError::Invalid(format!("encoding {} would lose values: not every value is 1", e.name())))
        }
        ValueEncoding::U8 { .. } => match find_u8_scale(&rows.values) {
            Some(scale) => Ok(Encoding { values: ValueEncoding::U8 { scale }, ..e }),
            None if rows.values.is_empty() => Ok(Encoding { values: ValueEncoding::U8 { scale: 1.0 }, ..e }),
            None => Err(LoadError::Invalid(format!(
                "encoding {} would lose values: they are not all k × one scale for k in 1..=255",
                e.name()
            ))),
        },
        _ => Ok(e),
    }
}

/// Encodes rows `a..b` of `rows` as one shard image.
#[allow(clippy::too_many_arguments)]
fn encode_range(rows: &Rows, a: usize, b: usize, dim: u64, enc: Encoding, kind: LabelKind, base: u8) -> Vec<u8> {
    let (s, e) = (rows.offsets[a] as usize, rows.offsets[b] as usize);
    let offsets: Vec<u64> = rows.offsets[a..=b].iter().map(|o| o - s as u64).collect();
    let (idx, vals) = (&rows.indices[s..e], &rows.values[s..e]);
    let scale = match enc.values {
        ValueEncoding::U8 { scale } => scale,
        _ => 1.0,
    };
    let to_u8 = |v: f32| (v / scale).round() as u8;
    let (dense_f32, dense_u8);
    let (ind16, ind32): (Vec<u16>, Vec<u32>);
    let (indices, values, nnz, offs): (Indices<'_>, ValueColumnData<'_>, u64, &[u64]) = match enc.layout {
        Layout::Dense => {
            let d = dim as usize;
            let mut full = vec![0.0f32; (b - a) * d];
            for r in 0..b - a {
                for k in offsets[r] as usize..offsets[r + 1] as usize {
                    full[r * d + idx[k] as usize] = vals[k];
                }
            }
            let values = match enc.values {
                ValueEncoding::U8 { .. } => {
                    dense_u8 = full.iter().map(|&v| if v == 0.0 { 0 } else { to_u8(v) }).collect::<Vec<u8>>();
                    ValueColumnData::U8(&dense_u8)
                }
                _ => {
                    dense_f32 = full;
                    ValueColumnData::F32(&dense_f32)
                }
            };
            (Indices::None, values, ((b - a) * d) as u64, &[])
        }
        Layout::Sparse => {
            let indices = if enc.index_bytes == 2 {
                ind16 = idx.iter().map(|&i| i as u16).collect();
                Indices::U16(&ind16)
            } else {
                ind32 = idx.to_vec();
                Indices::U32(&ind32)
            };
            let values = match enc.values {
                ValueEncoding::F32 => ValueColumnData::F32(vals),
                ValueEncoding::U8 { .. } => {
                    dense_u8 = vals.iter().map(|&v| to_u8(v)).collect();
                    ValueColumnData::U8(&dense_u8)
                }
                ValueEncoding::Ones => ValueColumnData::Ones,
            };
            (indices, values, (e - s) as u64, &offsets)
        }
    };
    let (label_offsets, labels): (Vec<u64>, Labels<'_>);
    let multilabels;
    if kind == LabelKind::Multi {
        let (ls, le) = (rows.label_offsets[a], rows.label_offsets[b]);
        label_offsets = rows.label_offsets[a..=b].iter().map(|o| o - ls).collect();
        labels = Labels::Multi { offsets: &label_offsets, ids: &rows.multilabels[ls as usize..le as usize] };
        multilabels = le - ls;
    } else {
        labels = Labels::Single(&rows.labels[a..b]);
        multilabels = 0;
    }
    let qids: &[u64] = if rows.has_qids() { &rows.qids[a..b] } else { &[] };
    let header =
        Header { rows: (b - a) as u64, nnz, dim, encoding: enc, label_kind: kind, index_base: base, multilabels };
    shard::encode(&header, &ShardData { labels, offsets: offs, indices, values, qids })
}

/// An opened dataset: its manifest and validated shards.
#[derive(Debug)]
pub struct Dataset {
    dir: PathBuf,
    manifest: Manifest,
    shards: Vec<Shard>,
}

impl Dataset {
    /// Opens the dataset in `dir`, validating the manifest and every shard
    /// (and, with `verify_checksums`, every checksum).
    pub fn open(dir: impl AsRef<Path>, opts: OpenOptions) -> Result<Dataset, LoadError> {
        let dir = dir.as_ref();
        let mpath = dir.join(MANIFEST);
        let text = std::fs::read(&mpath).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                LoadError::dataset(
                    dir,
                    format!("no {MANIFEST} (not a dataset directory, or a conversion that did not finish)"),
                )
            } else {
                LoadError::io(&mpath, e)
            }
        })?;
        let manifest: Manifest = serde_json::from_slice(&text)
            .map_err(|e| LoadError::dataset(&mpath, format!("manifest is not valid JSON for this format: {e}")))?;
        if manifest.format != FORMAT_NAME {
            return Err(LoadError::dataset(&mpath, format!("format is `{}`, not `{FORMAT_NAME}`", manifest.format)));
        }
        if manifest.version != MANIFEST_VERSION {
            return Err(LoadError::dataset(
                &mpath,
                format!("manifest version {}; this build reads version {MANIFEST_VERSION}", manifest.version),
            ));
        }
        let mut shards = Vec::with_capacity(manifest.shards.len().min(1 << 16));
        let (mut rows, mut nnz) = (0u64, 0u64);
        for entry in &manifest.shards {
            if entry.file.contains(['/', '\\']) || entry.file.starts_with('.') {
                return Err(LoadError::dataset(
                    &mpath,
                    format!("shard name `{}` is not a plain file name", entry.file),
                ));
            }
            let shard = Shard::open(dir.join(&entry.file), opts)?;
            let h = shard.header();
            let agree = h.rows == entry.rows
                && h.nnz == entry.nnz
                && h.dim == manifest.dim
                && shard.file_len() == entry.bytes
                && h.encoding.name() == manifest.encoding;
            if !agree {
                return Err(LoadError::dataset(
                    &mpath,
                    format!(
                        "shard {} does not match the manifest (rows, entries, dimension, size or encoding)",
                        entry.file
                    ),
                ));
            }
            if opts.verify_checksums && crc32fast::hash(shard.raw()) != entry.crc32 {
                return Err(LoadError::dataset(&mpath, format!("shard {} fails its manifest checksum", entry.file)));
            }
            rows += h.rows;
            nnz += h.nnz;
            shards.push(shard);
        }
        if rows != manifest.rows || nnz != manifest.nnz {
            return Err(LoadError::dataset(&mpath, "shard totals do not match the manifest's rows and entries"));
        }
        Ok(Dataset { dir: dir.to_path_buf(), manifest, shards })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }
    /// The shards, in row order.
    pub fn shards(&self) -> &[Shard] {
        &self.shards
    }
    /// Total rows.
    pub fn rows(&self) -> u64 {
        self.manifest.rows
    }
    /// Dimension.
    pub fn dim(&self) -> u64 {
        self.manifest.dim
    }

    /// Every row back in columnar form (for export and interop).
    #[allow(clippy::needless_range_loop)] // `r` indexes rows, labels and multi-labels alike
    pub fn to_rows(&self) -> Rows {
        let multilabel = self.manifest.label_kind == "multilabel";
        let mut out = Rows {
            offsets: vec![0],
            label_offsets: if multilabel { vec![0] } else { Vec::new() },
            ..Default::default()
        };
        for shard in &self.shards {
            let labels = shard.labels();
            crate::with_rows!(shard.rows(), |rows| {
                use crate::shard::RowSet;
                use rosenblatt_kernels::Row;
                for r in 0..rows.len() {
                    let row = rows.row(r);
                    for k in 0..row.nnz() {
                        let (i, v) = row.entry(k);
                        if v != 0.0 {
                            out.indices.push(i as u32);
                            out.values.push(v);
                        }
                    }
                    out.offsets.push(out.indices.len() as u64);
                    if multilabel {
                        out.multilabels.extend_from_slice(shard.multilabels(r));
                        out.label_offsets.push(out.multilabels.len() as u64);
                    } else {
                        out.labels.push(labels[r]);
                    }
                    out.qids.push(shard.qid(r));
                }
            });
        }
        if !out.qids.iter().any(|&q| q != NO_QID) {
            out.qids.iter_mut().for_each(|q| *q = NO_QID);
        }
        out
    }
}
