//! Writing a dataset: the most compact lossless encoding for the rows
//! ([`choose_encoding`]), shards cut to size and each written atomically,
//! the manifest last ([`write_dataset`] for rows in memory,
//! [`DatasetWriter`] shard by shard for generators).

use crate::error::LoadError;
use crate::format::{self, Encoding, LabelKind, Layout, ValueEncoding};
use crate::fs::{AtomicFile, write_atomic, write_atomic_unsynced};
use crate::libsvm::Rows;
use crate::manifest::{FORMAT_NAME, MANIFEST, MANIFEST_VERSION, Manifest, ShardEntry};
use std::path::{Path, PathBuf};

mod encode;
pub(crate) use encode::{Columns, Scratch, encode_range};

pub use crate::encoding::{DENSE_MIN_DENSITY, choose_encoding, find_u8_scale, parse_encoding};
pub(crate) use crate::encoding::{Stats, encode_u8, u8_exact, u8_exact_par, u8_of};

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
    /// How the rows' features were hashed (VW text), recorded in the
    /// manifest.
    pub hashing: Option<crate::vw::Hashing>,
    /// Whether the dataset is on the disk when it is written: every shard
    /// and the manifest synced (a dataset the user asked for). A cache's
    /// entry need not wait for the disk: it is verified, checksums and
    /// all, whenever it is reused, and made again if a crash left it
    /// short.
    pub durable: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            shard_bytes: 256 << 20,
            encoding: None,
            dim: None,
            index_base: 1,
            label_kind: None,
            hashing: None,
            durable: true,
        }
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
    w.set_hashing(opts.hashing.clone());
    w.set_durable(opts.durable);
    w.write_cut(rows, opts.shard_bytes)?;
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
    /// Which optional columns the shards carry: set up front, or decided
    /// by the first shard.
    columns: Option<Columns>,
    finished: bool,
    scratch: Scratch,
    /// A sparse u8 encoding's bytes of the batch last checked (all its
    /// values, encoded while checking them), for `push` to write.
    batch_u8: Vec<u8>,
    /// Shards `..stale` were written with a smaller dimension than `dim`
    /// ([`DatasetWriter::raise_dim`]); `finish` sets it in their headers.
    stale: usize,
    /// How the rows were hashed (VW text), for the manifest.
    hashing: Option<crate::vw::Hashing>,
    /// Whether shards and manifest are synced ([`WriteOptions::durable`]).
    durable: bool,
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
            columns: None,
            finished: false,
            scratch: Scratch::default(),
            batch_u8: Vec::new(),
            stale: 0,
            hashing: None,
            durable: true,
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

    /// Says up front whether the shards carry query ids and importance
    /// weights (else the first shard decides): rows that stream in batches
    /// may have them in some batches only.
    pub(crate) fn set_columns(&mut self, qids: bool, weights: bool) {
        self.columns = Some(Columns { qids, weights });
    }

    /// Records how the rows were hashed (VW text).
    pub(crate) fn set_hashing(&mut self, hashing: Option<crate::vw::Hashing>) {
        self.hashing = hashing;
    }

    /// Whether shards and manifest are synced ([`WriteOptions::durable`]).
    pub(crate) fn set_durable(&mut self, durable: bool) {
        self.durable = durable;
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
        let here = Columns { qids: rows.has_qids(), weights: rows.has_weights() };
        let columns = *self.columns.get_or_insert(here);
        for (name, set, now) in
            [("query ids", columns.qids, here.qids), ("importance weights", columns.weights, here.weights)]
        {
            if now && !set {
                return Err(LoadError::Invalid(format!(
                    "shard {} of {}: {name} in some shards but not in others",
                    self.entries.len(),
                    self.dir.display()
                )));
            }
        }
        let file = format!("shard-{:05}.rbs", self.entries.len());
        let path = self.dir.join(&file);
        let (dim, enc, kind, base) = (self.dim, self.encoding, self.kind, self.index_base);
        let mut shard = AtomicFile::create(&path)?;
        // A sparse u8 batch's values were encoded by `check`.
        let checked_u8 = (enc.layout == Layout::Sparse && matches!(enc.values, ValueEncoding::U8 { .. }))
            .then_some(&self.batch_u8[..]);
        let (bytes, crc32) =
            encode_range(rows, a, b, dim, enc, kind, base, columns, checked_u8, &mut self.scratch, &mut shard)
                .map_err(|e| LoadError::io(&path, e))?;
        let out = shard.commit_unsynced()?;
        self.written.push(path.clone());
        if !self.durable {
            drop(out);
            return self.record(rows, a, b, file, bytes, crc32);
        }
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
        self.record(rows, a, b, file, bytes, crc32)
    }

    /// Counts rows `a..b` of `rows`, written as `file`, in the manifest to be.
    fn record(
        &mut self,
        rows: &Rows,
        a: usize,
        b: usize,
        file: String,
        bytes: u64,
        crc32: u32,
    ) -> Result<(), LoadError> {
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
            set_dim(path, self.dim, self.durable)?;
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
            has_qids: self.columns.is_some_and(|c| c.qids),
            has_weights: self.columns.is_some_and(|c| c.weights),
            shards: std::mem::take(&mut self.entries),
            hashing: self.hashing.clone(),
        };
        let json = serde_json::to_vec_pretty(&manifest).expect("manifest serialises");
        let path = self.dir.join(MANIFEST);
        if self.durable { write_atomic(&path, &json) } else { write_atomic_unsynced(&path, &json) }?;
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

/// Sets the dimension `dim` in the header of a sparse shard a writer wrote
/// at `path`, in place: the file is then the one writing its rows with that
/// dimension gives. Its CRC-32 (the manifest's) does not change: the header
/// ends with its own CRC-32 (then zeros), and the CRC-32 of any bytes
/// followed by their CRC-32 is one constant, so the file's CRC does not
/// depend on what the header holds (the tests verify every file's CRC).
fn set_dim(path: &Path, dim: u64, durable: bool) -> Result<(), LoadError> {
    use std::io::{Read, Seek, Write};
    let io = |e| LoadError::io(path, e);
    let mut f = std::fs::OpenOptions::new().read(true).write(true).open(path).map_err(io)?;
    let mut h = [0u8; format::HEADER_LEN];
    f.read_exact(&mut h).map_err(io)?;
    format::set_sparse_dim(&mut h, dim).map_err(|e| LoadError::shard(path, e))?;
    f.seek(std::io::SeekFrom::Start(0)).map_err(io)?;
    f.write_all(&h).map_err(io)?;
    if durable { f.sync_all().map_err(io) } else { Ok(()) }
}
