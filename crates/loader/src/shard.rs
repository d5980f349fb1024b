//! The binary shard file (format in `docs/shard-format.md`): a fixed header
//! decoded field by field with checked arithmetic, then 64-byte-aligned
//! sections (labels, row offsets, indices, values, qids, multi-label
//! offsets), each with a CRC-32.
//!
//! Opening validates everything the unchecked row constructors rely on, in
//! one pass, and returns a [`Shard`] whose row views can only be obtained
//! through that check. Checksums are verified on request.
//!
//! # The memory-map contract
//!
//! By default a shard is memory-mapped read-only. Shards are immutable once
//! written (written under a temporary name and renamed), and nothing in this
//! project modifies one in place. If another process truncates or rewrites a
//! mapped file anyway, reads of the vanished pages raise SIGBUS and the
//! process dies; it cannot read inconsistent data silently, because the
//! validation was done on the mapped bytes and the mapping is private and
//! read-only. For files from untrusted places, or on file systems where
//! others may write, open with [`OpenOptions::in_memory`], which reads the
//! file into memory once.

use crate::error::LoadError;
use crate::libsvm::NO_QID;
use rosenblatt_kernels::{DenseRow, Index, Ones, Row, SparseRow, StoredValues, U8Values, Values};
use std::io::Write;
use std::path::{Path, PathBuf};

/// File magic, 8 bytes.
pub const MAGIC: [u8; 8] = *b"RBLTSHRD";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 256;
/// Section alignment in bytes.
pub const ALIGN: usize = 64;
/// Number of sections.
pub const SECTIONS: usize = 6;
const SECTION_NAMES: [&str; SECTIONS] = ["labels", "offsets", "indices", "values", "qids", "label-offsets"];
const TABLE_AT: usize = 64;
const HEADER_CRC_AT: usize = HEADER_LEN - 8;

/// Sparse rows (index lists) or dense rows (one value per feature).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Row offsets, indices and values.
    Sparse,
    /// `dim` values per row, no indices.
    Dense,
}

/// How feature values are stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueEncoding {
    /// One f32 per entry.
    F32,
    /// One byte per entry, decoding as `byte as f32 * scale`.
    U8 {
        /// The decode factor.
        scale: f32,
    },
    /// No values: every stored entry is 1 (binary features).
    Ones,
}

/// What the labels mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabelKind {
    /// +1 / −1.
    Binary,
    /// Integer class ids (stored as f32, exact below 2^24).
    Classes,
    /// Arbitrary finite reals.
    Real,
    /// Lists of u32 class ids per row.
    Multi,
}

/// A shard's encoding: how rows are laid out and stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Encoding {
    /// Sparse or dense.
    pub layout: Layout,
    /// Index width in bytes for sparse rows: 2 or 4.
    pub index_bytes: u8,
    /// Value storage.
    pub values: ValueEncoding,
}

impl Encoding {
    /// A short name: `sparse-u16-u8`, `dense-f32`, `sparse-u32-binary`, …
    pub fn name(&self) -> String {
        let v = match self.values {
            ValueEncoding::F32 => "f32",
            ValueEncoding::U8 { .. } => "u8",
            ValueEncoding::Ones => "binary",
        };
        match self.layout {
            Layout::Dense => format!("dense-{v}"),
            Layout::Sparse => format!("sparse-u{}-{v}", u32::from(self.index_bytes) * 8),
        }
    }
}

/// Everything the header says besides the section table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Header {
    /// Rows in this shard.
    pub rows: u64,
    /// Stored entries (dense: rows × dim).
    pub nnz: u64,
    /// Dimension.
    pub dim: u64,
    /// The encoding.
    pub encoding: Encoding,
    /// What the labels are.
    pub label_kind: LabelKind,
    /// Index base of the source text (0 or 1), kept for export.
    pub index_base: u8,
    /// Multi-label mode: total class ids stored.
    pub multilabels: u64,
}

/// One section's place and checksum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Section {
    /// Byte offset from the file start (multiple of 64).
    pub offset: u64,
    /// Length in bytes.
    pub len: u64,
    /// CRC-32 of the section's bytes.
    pub crc: u32,
}

/// The columns of a shard to write. Slices must agree with `header`.
pub struct ShardData<'a> {
    /// Labels (single-label kinds), or class ids (multi-label).
    pub labels: Labels<'a>,
    /// Row offsets (sparse), `rows + 1` entries from 0 to nnz.
    pub offsets: &'a [u64],
    /// Indices as bytes (u16 or u32 little-endian), sparse only.
    pub indices: Indices<'a>,
    /// Values: f32, bytes, or none.
    pub values: ValueColumnData<'a>,
    /// Group ids, empty if no row has one.
    pub qids: &'a [u64],
}

/// Label column to write.
pub enum Labels<'a> {
    /// One f32 per row.
    Single(&'a [f32]),
    /// `offsets` (rows + 1) into `ids`.
    Multi {
        /// Row starts into `ids`.
        offsets: &'a [u64],
        /// Class ids.
        ids: &'a [u32],
    },
}

/// Index column to write.
pub enum Indices<'a> {
    /// Dense rows: none.
    None,
    /// 16-bit.
    U16(&'a [u16]),
    /// 32-bit.
    U32(&'a [u32]),
}

/// Value column to write.
pub enum ValueColumnData<'a> {
    /// f32 values.
    F32(&'a [f32]),
    /// Bytes (scale in the header's encoding).
    U8(&'a [u8]),
    /// None.
    Ones,
}

fn round_up(x: usize) -> usize {
    x.div_ceil(ALIGN) * ALIGN
}

/// Serialises a shard into bytes.
pub fn encode(header: &Header, data: &ShardData<'_>) -> Vec<u8> {
    let (labels, label_offsets): (&[u8], &[u8]) = match data.labels {
        Labels::Single(l) => (bytemuck::cast_slice(l), &[]),
        Labels::Multi { offsets, ids } => (bytemuck::cast_slice(ids), bytemuck::cast_slice(offsets)),
    };
    let indices: &[u8] = match data.indices {
        Indices::None => &[],
        Indices::U16(i) => bytemuck::cast_slice(i),
        Indices::U32(i) => bytemuck::cast_slice(i),
    };
    let values: &[u8] = match data.values {
        ValueColumnData::F32(v) => bytemuck::cast_slice(v),
        ValueColumnData::U8(v) => v,
        ValueColumnData::Ones => &[],
    };
    let sections: [&[u8]; SECTIONS] =
        [labels, bytemuck::cast_slice(data.offsets), indices, values, bytemuck::cast_slice(data.qids), label_offsets];
    let mut out = vec![0u8; HEADER_LEN];
    let mut table = [Section::default(); SECTIONS];
    for (s, bytes) in sections.iter().enumerate() {
        out.resize(round_up(out.len()), 0);
        table[s] = Section { offset: out.len() as u64, len: bytes.len() as u64, crc: crc32fast::hash(bytes) };
        out.extend_from_slice(bytes);
    }
    out.resize(round_up(out.len()), 0);
    write_header(&mut out[..HEADER_LEN], header, &table);
    out
}

fn write_header(h: &mut [u8], header: &Header, table: &[Section; SECTIONS]) {
    h[0..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    h[16..24].copy_from_slice(&header.rows.to_le_bytes());
    h[24..32].copy_from_slice(&header.nnz.to_le_bytes());
    h[32..40].copy_from_slice(&header.dim.to_le_bytes());
    let e = header.encoding;
    h[40] = match e.layout {
        Layout::Sparse => 0,
        Layout::Dense => 1,
    };
    h[41] = if e.layout == Layout::Dense { 0 } else { e.index_bytes };
    let (vk, scale) = match e.values {
        ValueEncoding::F32 => (0, 1.0f32),
        ValueEncoding::U8 { scale } => (1, scale),
        ValueEncoding::Ones => (2, 1.0),
    };
    h[42] = vk;
    h[43] = match header.label_kind {
        LabelKind::Binary => 0,
        LabelKind::Classes => 1,
        LabelKind::Real => 2,
        LabelKind::Multi => 3,
    };
    h[44] = header.index_base;
    h[48..52].copy_from_slice(&scale.to_le_bytes());
    h[56..64].copy_from_slice(&header.multilabels.to_le_bytes());
    for (s, sec) in table.iter().enumerate() {
        let at = TABLE_AT + s * 24;
        h[at..at + 8].copy_from_slice(&sec.offset.to_le_bytes());
        h[at + 8..at + 16].copy_from_slice(&sec.len.to_le_bytes());
        h[at + 16..at + 20].copy_from_slice(&sec.crc.to_le_bytes());
    }
    let crc = crc32fast::hash(&h[..HEADER_CRC_AT]);
    h[HEADER_CRC_AT..HEADER_CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
}

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory, synced, then renamed over `path`. A crash leaves either no file
/// or the old one, never a partial one under `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // Make the rename itself durable.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        LoadError::io(path, e)
    })
}

/// How to open a shard.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenOptions {
    /// Verify every section's CRC-32 (a full read of the file).
    pub verify_checksums: bool,
    /// Read the file into memory instead of mapping it (for untrusted
    /// files, or file systems where others may write).
    pub in_memory: bool,
}

enum Bytes {
    Mapped(memmap2::Mmap),
    // u64 words keep the in-memory copy 8-byte aligned like a mapping.
    Owned(Vec<u64>, usize),
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v, len) => &bytemuck::cast_slice::<u64, u8>(v)[..*len],
        }
    }
}

/// An opened, validated shard.
pub struct Shard {
    path: PathBuf,
    bytes: Bytes,
    header: Header,
    table: [Section; SECTIONS],
}

impl std::fmt::Debug for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shard").field("path", &self.path).field("header", &self.header).finish()
    }
}

impl Shard {
    /// Opens and validates the shard at `path`.
    pub fn open(path: impl AsRef<Path>, opts: OpenOptions) -> Result<Shard, LoadError> {
        let path = path.as_ref();
        let file = std::fs::File::open(path).map_err(|e| LoadError::io(path, e))?;
        let bytes = if opts.in_memory {
            use std::io::Read;
            let len = file.metadata().map_err(|e| LoadError::io(path, e))?.len();
            let len = usize::try_from(len).map_err(|_| LoadError::shard(path, "file larger than memory"))?;
            let mut words = vec![0u64; len.div_ceil(8)];
            let buf: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
            (&file).read_exact(&mut buf[..len]).map_err(|e| LoadError::io(path, e))?;
            Bytes::Owned(words, len)
        } else {
            // SAFETY: the mapping is read-only and private; shards are
            // immutable once renamed into place (see the module's contract).
            // A concurrent truncation can only raise SIGBUS, never let a read
            // see bytes that escaped validation below.
            let m = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| LoadError::io(path, e))?;
            Bytes::Mapped(m)
        };
        Self::from_bytes(path.to_path_buf(), bytes, opts.verify_checksums)
    }

    fn from_bytes(path: PathBuf, bytes: Bytes, verify: bool) -> Result<Shard, LoadError> {
        let b = bytes.as_slice();
        let (header, table) = decode_header(&path, b)?;
        let shard = Shard { path, bytes, header, table };
        shard.validate()?;
        if verify {
            shard.verify_checksums()?;
        }
        Ok(shard)
    }

    /// Validates a shard held in memory (for tests and fuzzing).
    pub fn from_vec(data: &[u8], verify: bool) -> Result<Shard, LoadError> {
        let mut words = vec![0u64; data.len().div_ceil(8)];
        bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..data.len()].copy_from_slice(data);
        Self::from_bytes(PathBuf::from("<memory>"), Bytes::Owned(words, data.len()), verify)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }
    /// The section table.
    pub fn sections(&self) -> &[Section; SECTIONS] {
        &self.table
    }
    /// File size in bytes.
    pub fn file_len(&self) -> u64 {
        self.bytes.as_slice().len() as u64
    }
    /// The whole file's bytes (for read-only baselines and checksums).
    pub fn raw(&self) -> &[u8] {
        self.bytes.as_slice()
    }

    fn section(&self, s: usize) -> &[u8] {
        let sec = self.table[s];
        // In bounds: checked by `decode_header`.
        &self.bytes.as_slice()[sec.offset as usize..(sec.offset + sec.len) as usize]
    }

    /// Checks every section's CRC-32.
    pub fn verify_checksums(&self) -> Result<(), LoadError> {
        for (s, name) in SECTION_NAMES.iter().enumerate() {
            let got = crc32fast::hash(self.section(s));
            if got != self.table[s].crc {
                return Err(LoadError::shard(
                    &self.path,
                    format!(
                        "checksum mismatch in section {} (stored {:08x}, computed {got:08x}): the file is corrupted",
                        name, self.table[s].crc
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Labels (single-label kinds); empty for multi-label shards.
    pub fn labels(&self) -> &[f32] {
        if self.header.label_kind == LabelKind::Multi { &[] } else { bytemuck::cast_slice(self.section(0)) }
    }

    /// Row `r`'s class ids (multi-label shards); empty otherwise.
    pub fn multilabels(&self, r: usize) -> &[u32] {
        if self.header.label_kind != LabelKind::Multi {
            return &[];
        }
        let off: &[u64] = bytemuck::cast_slice(self.section(5));
        let ids: &[u32] = bytemuck::cast_slice(self.section(0));
        &ids[off[r] as usize..off[r + 1] as usize]
    }

    /// Group ids, empty if the shard has none.
    pub fn qids(&self) -> &[u64] {
        bytemuck::cast_slice(self.section(4))
    }

    /// Row `r`'s qid, [`NO_QID`] if none.
    pub fn qid(&self, r: usize) -> u64 {
        self.qids().get(r).copied().unwrap_or(NO_QID)
    }

    /// The row views, typed by encoding.
    pub fn rows(&self) -> RowsView<'_> {
        let h = &self.header;
        let dim = h.dim as usize;
        let rows = h.rows as usize;
        let vals = self.section(3);
        let offsets: &[u64] = bytemuck::cast_slice(self.section(1));
        match (h.encoding.layout, h.encoding.index_bytes, h.encoding.values) {
            (Layout::Dense, _, ValueEncoding::F32) => {
                RowsView::DenseF32(DenseRows { dim, rows, col: bytemuck::cast_slice(vals) })
            }
            (Layout::Dense, _, ValueEncoding::U8 { scale }) => {
                RowsView::DenseU8(DenseRows { dim, rows, col: U8Column { bytes: vals, scale } })
            }
            (Layout::Dense, _, ValueEncoding::Ones) => unreachable!("rejected by decode_header"),
            (Layout::Sparse, 2, v) => {
                let idx: &[u16] = bytemuck::cast_slice(self.section(2));
                match v {
                    ValueEncoding::F32 => {
                        RowsView::SparseU16F32(SparseRows::new(dim, offsets, idx, bytemuck::cast_slice(vals)))
                    }
                    ValueEncoding::U8 { scale } => {
                        RowsView::SparseU16U8(SparseRows::new(dim, offsets, idx, U8Column { bytes: vals, scale }))
                    }
                    ValueEncoding::Ones => RowsView::SparseU16Ones(SparseRows::new(dim, offsets, idx, Ones)),
                }
            }
            (Layout::Sparse, _, v) => {
                let idx: &[u32] = bytemuck::cast_slice(self.section(2));
                match v {
                    ValueEncoding::F32 => {
                        RowsView::SparseU32F32(SparseRows::new(dim, offsets, idx, bytemuck::cast_slice(vals)))
                    }
                    ValueEncoding::U8 { scale } => {
                        RowsView::SparseU32U8(SparseRows::new(dim, offsets, idx, U8Column { bytes: vals, scale }))
                    }
                    ValueEncoding::Ones => RowsView::SparseU32Ones(SparseRows::new(dim, offsets, idx, Ones)),
                }
            }
        }
    }

    /// Tells the kernel that rows `a..b` will not be read again soon, so that
    /// a mapped shard's pages holding only those rows leave the process's
    /// resident set (`madvise(MADV_DONTNEED)`; they stay in the page cache
    /// and come back on the next read). A hint: it does nothing for shards
    /// read into memory, for ranges out of bounds, or where the call fails.
    /// Training on data larger than memory calls it after each block of
    /// rows, which keeps resident memory at about a block.
    pub fn release_rows(&self, a: usize, b: usize) {
        let Bytes::Mapped(map) = &self.bytes else { return };
        let h = &self.header;
        if a >= b || b as u64 > h.rows {
            return;
        }
        let vb: u64 = match h.encoding.values {
            ValueEncoding::F32 => 4,
            ValueEncoding::U8 { .. } => 1,
            ValueEncoding::Ones => 0,
        };
        let (a, b) = (a as u64, b as u64);
        let mut ranges = [(0u64, 0u64); 3];
        ranges[0] = (self.table[0].offset + 4 * a, self.table[0].offset + 4 * b);
        match h.encoding.layout {
            Layout::Dense => {
                let (s, e) = (a * h.dim * vb, b * h.dim * vb);
                ranges[1] = (self.table[3].offset + s, self.table[3].offset + e);
            }
            Layout::Sparse => {
                let offsets: &[u64] = bytemuck::cast_slice(self.section(1));
                let (s, e) = (offsets[a as usize], offsets[b as usize]);
                let ib = u64::from(h.encoding.index_bytes);
                ranges[1] = (self.table[2].offset + s * ib, self.table[2].offset + e * ib);
                ranges[2] = (self.table[3].offset + s * vb, self.table[3].offset + e * vb);
            }
        }
        const PAGE: u64 = 4096;
        for (s, e) in ranges {
            // Only whole pages inside the range: a page shared with a row
            // outside it stays (releasing it would cost that row a fault,
            // not correctness, but keep the hint exact).
            let (s, e) = (s.div_ceil(PAGE) * PAGE, e / PAGE * PAGE);
            if s < e && e <= map.len() as u64 {
                // SAFETY: `Mmap` is a read-only mapping of an immutable file,
                // so after MADV_DONTNEED its pages read back as the same file
                // bytes (the hazard the unchecked advice guards against is a
                // private writable mapping losing its changes). The range is
                // inside the mapping.
                let _ = unsafe {
                    map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, s as usize, (e - s) as usize)
                };
            }
        }
    }

    /// The structural checks the unchecked row views rely on.
    fn validate(&self) -> Result<(), LoadError> {
        let h = self.header;
        let bad = |msg: String| Err(LoadError::shard(&self.path, msg));
        let labels = self.section(0);
        if h.label_kind == LabelKind::Multi {
            let off: &[u64] = bytemuck::cast_slice(self.section(5));
            if let Some(e) = check_offsets(off, h.multilabels) {
                return bad(format!("label offsets: {e}"));
            }
        } else {
            let l: &[f32] = bytemuck::cast_slice(labels);
            if let Some(r) = l.iter().position(|x| !x.is_finite()) {
                return bad(format!("label of row {r} is not finite ({})", l[r]));
            }
        }
        match h.encoding.values {
            ValueEncoding::F32 => {
                let v: &[f32] = bytemuck::cast_slice(self.section(3));
                if let Some(k) = v.iter().position(|x| !x.is_finite()) {
                    return bad(format!("value {k} is not finite ({})", v[k]));
                }
            }
            ValueEncoding::U8 { scale } if !scale.is_finite() => return bad(format!("u8 scale {scale} is not finite")),
            _ => {}
        }
        if h.encoding.layout == Layout::Sparse {
            let off: &[u64] = bytemuck::cast_slice(self.section(1));
            if let Some(e) = check_offsets(off, h.nnz) {
                return bad(format!("row offsets: {e}"));
            }
            let r = if h.encoding.index_bytes == 2 {
                check_rows::<u16>(off, bytemuck::cast_slice(self.section(2)), h.dim)
            } else {
                check_rows::<u32>(off, bytemuck::cast_slice(self.section(2)), h.dim)
            };
            if let Err(e) = r {
                return bad(e);
            }
        }
        Ok(())
    }
}

/// `None` if `off` starts at 0, never decreases and ends at `total`.
fn check_offsets(off: &[u64], total: u64) -> Option<String> {
    if off.first() != Some(&0) {
        return Some(format!("first offset is {:?}, not 0", off.first()));
    }
    if let Some(r) = off.windows(2).position(|w| w[1] < w[0]) {
        return Some(format!("offset of row {} ({}) is below the previous ({})", r + 1, off[r + 1], off[r]));
    }
    if off.last() != Some(&total) {
        return Some(format!("last offset is {:?}, not the entry count {total}", off.last()));
    }
    None
}

/// Every row's indices strictly increasing and below `dim`.
fn check_rows<I: Index>(off: &[u64], idx: &[I], dim: u64) -> Result<(), String> {
    for r in 0..off.len() - 1 {
        let row = &idx[off[r] as usize..off[r + 1] as usize];
        // Branch-free over the row so the compiler vectorises it.
        let sorted = row.windows(2).fold(true, |ok, w| ok & (w[0] < w[1]));
        if !sorted {
            let k = row.windows(2).position(|w| w[0] >= w[1]).unwrap_or(0);
            return Err(format!("row {r}: index {:?} at position {} does not increase", row[k + 1], k + 1));
        }
        if let Some(&last) = row.last()
            && last.to_usize() as u64 >= dim
        {
            return Err(format!("row {r}: index {last:?} is not below the dimension {dim}"));
        }
    }
    Ok(())
}

fn decode_header(path: &Path, b: &[u8]) -> Result<(Header, [Section; SECTIONS]), LoadError> {
    let bad = |msg: String| LoadError::shard(path, msg);
    if b.len() < HEADER_LEN {
        return Err(bad(format!("file is {} bytes, shorter than the {HEADER_LEN}-byte header (truncated?)", b.len())));
    }
    if b[0..8] != MAGIC {
        return Err(bad(format!("bad magic {:02x?} (not a rosenblatt shard)", &b[0..8])));
    }
    let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
    let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    let version = u32_at(8);
    if version != VERSION {
        return Err(bad(format!("format version {version}; this build reads version {VERSION}")));
    }
    let stored = u32_at(HEADER_CRC_AT);
    let crc = crc32fast::hash(&b[..HEADER_CRC_AT]);
    if stored != crc {
        return Err(bad(format!("header checksum mismatch (stored {stored:08x}, computed {crc:08x})")));
    }
    if u32_at(12) as usize != HEADER_LEN {
        return Err(bad(format!("header length {} (expected {HEADER_LEN})", u32_at(12))));
    }
    let (rows, nnz, dim) = (u64_at(16), u64_at(24), u64_at(32));
    let layout = match b[40] {
        0 => Layout::Sparse,
        1 => Layout::Dense,
        x => return Err(bad(format!("unknown layout {x}"))),
    };
    let index_bytes = b[41];
    match (layout, index_bytes) {
        (Layout::Dense, 0) | (Layout::Sparse, 2 | 4) => {}
        _ => return Err(bad(format!("index width {index_bytes} is not valid for a {layout:?} shard"))),
    }
    let scale = f32::from_le_bytes(b[48..52].try_into().expect("4 bytes"));
    let values = match b[42] {
        0 => ValueEncoding::F32,
        1 => ValueEncoding::U8 { scale },
        2 if layout == Layout::Sparse => ValueEncoding::Ones,
        x => return Err(bad(format!("value encoding {x} is not valid for a {layout:?} shard"))),
    };
    let label_kind = match b[43] {
        0 => LabelKind::Binary,
        1 => LabelKind::Classes,
        2 => LabelKind::Real,
        3 => LabelKind::Multi,
        x => return Err(bad(format!("unknown label kind {x}"))),
    };
    let index_base = b[44];
    if index_base > 1 {
        return Err(bad(format!("index base {index_base} (must be 0 or 1)")));
    }
    let multilabels = u64_at(56);
    if index_bytes == 2 && dim > 1 << 16 {
        return Err(bad(format!("dimension {dim} does not fit 16-bit indices")));
    }
    if dim > 1 << 32 {
        return Err(bad(format!("dimension {dim} exceeds 2^32")));
    }
    if layout == Layout::Dense && rows.checked_mul(dim) != Some(nnz) {
        return Err(bad(format!("dense shard with {rows} rows × {dim} columns cannot hold {nnz} entries")));
    }
    let mut table = [Section::default(); SECTIONS];
    let mut end = HEADER_LEN as u64;
    for (s, sec) in table.iter_mut().enumerate() {
        let at = TABLE_AT + s * 24;
        *sec = Section { offset: u64_at(at), len: u64_at(at + 8), crc: u32_at(at + 16) };
        let name = SECTION_NAMES[s];
        if sec.offset % ALIGN as u64 != 0 {
            return Err(bad(format!("section {name} at offset {} is not {ALIGN}-byte aligned", sec.offset)));
        }
        if sec.offset < end {
            return Err(bad(format!("section {name} at offset {} overlaps what precedes it", sec.offset)));
        }
        end = sec.offset.checked_add(sec.len).ok_or_else(|| bad(format!("section {name} length overflows")))?;
        if end > b.len() as u64 {
            return Err(bad(format!(
                "section {name} ends at byte {end}, past the end of the {}-byte file (truncated?)",
                b.len()
            )));
        }
    }
    // Every section's length must be what the counts say: no reading past a
    // section, no trusting a count the bytes do not back.
    let need = |count: Option<u64>, width: u64| count.and_then(|c| c.checked_mul(width));
    let vbytes = match values {
        ValueEncoding::F32 => 4,
        ValueEncoding::U8 { .. } => 1,
        ValueEncoding::Ones => 0,
    };
    let multi = label_kind == LabelKind::Multi;
    let expect = [
        if multi { need(Some(multilabels), 4) } else { need(Some(rows), 4) },
        if layout == Layout::Sparse { need(rows.checked_add(1), 8) } else { Some(0) },
        need(Some(nnz), u64::from(index_bytes)),
        need(Some(nnz), vbytes),
        None, // qids: 0 or rows × 8, checked below
        if multi { need(rows.checked_add(1), 8) } else { Some(0) },
    ];
    for (s, (sec, want)) in table.iter().zip(expect).enumerate() {
        let len = sec.len;
        let ok = match want {
            Some(e) => len == e,
            None => len == 0 || Some(len) == rows.checked_mul(8),
        };
        if !ok {
            return Err(bad(format!(
                "section {} is {len} bytes, which does not match {rows} rows, {nnz} entries",
                SECTION_NAMES[s]
            )));
        }
    }
    let encoding = Encoding { layout, index_bytes, values };
    Ok((Header { rows, nnz, dim, encoding, label_kind, index_base, multilabels }, table))
}

/// A column of values that yields one row's [`Values`].
pub trait ValueColumn: Copy + Send + Sync {
    /// The per-row view.
    type V: Values;
    /// Entries `s..e`.
    fn slice(&self, s: usize, e: usize) -> Self::V;
    /// Starts loading entries `s..e` into cache.
    fn prefetch(&self, s: usize, e: usize);
}

impl<'a> ValueColumn for &'a [f32] {
    type V = &'a [f32];
    #[inline(always)]
    fn slice(&self, s: usize, e: usize) -> &'a [f32] {
        &self[s..e]
    }
    #[inline(always)]
    fn prefetch(&self, s: usize, e: usize) {
        rosenblatt_kernels::prefetch(&self[s..e]);
    }
}

/// Bytes with a scale, for whole shards.
#[derive(Clone, Copy, Debug)]
pub struct U8Column<'a> {
    bytes: &'a [u8],
    scale: f32,
}

impl<'a> ValueColumn for U8Column<'a> {
    type V = U8Values<'a>;
    #[inline(always)]
    fn slice(&self, s: usize, e: usize) -> U8Values<'a> {
        U8Values::new(&self.bytes[s..e], self.scale)
    }
    #[inline(always)]
    fn prefetch(&self, s: usize, e: usize) {
        rosenblatt_kernels::prefetch(&self.bytes[s..e]);
    }
}

impl ValueColumn for Ones {
    type V = Ones;
    #[inline(always)]
    fn slice(&self, _: usize, _: usize) -> Ones {
        Ones
    }
    #[inline(always)]
    fn prefetch(&self, _: usize, _: usize) {}
}

/// Validated sparse rows of one shard.
#[derive(Clone, Copy, Debug)]
pub struct SparseRows<'a, I: Index, C> {
    dim: usize,
    offsets: &'a [u64],
    indices: &'a [I],
    col: C,
}

impl<'a, I: Index, C: ValueColumn> SparseRows<'a, I, C> {
    // Private: only `Shard::rows`, after validation, builds one.
    fn new(dim: usize, offsets: &'a [u64], indices: &'a [I], col: C) -> Self {
        SparseRows { dim, offsets, indices, col }
    }
}

/// Validated dense rows of one shard.
#[derive(Clone, Copy, Debug)]
pub struct DenseRows<C> {
    dim: usize,
    rows: usize,
    col: C,
}

/// A set of rows that can be read by index.
pub trait RowSet: Send + Sync {
    /// The row view type.
    type Row: Row;
    /// Number of rows.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Row `r`. Panics if `r >= len()`.
    fn row(&self, r: usize) -> Self::Row;
    /// The dimension.
    fn dim(&self) -> usize;
    /// Starts loading row `r`'s bytes into cache.
    #[inline(always)]
    fn prefetch(&self, _r: usize) {}
}

impl<'a, I: Index, C: ValueColumn> RowSet for SparseRows<'a, I, C> {
    type Row = SparseRow<'a, I, C::V>;
    #[inline]
    fn len(&self) -> usize {
        self.offsets.len() - 1
    }
    #[inline]
    fn row(&self, r: usize) -> Self::Row {
        let (s, e) = (self.offsets[r] as usize, self.offsets[r + 1] as usize);
        // SAFETY: `Shard::validate` checked that offsets are monotone and end
        // at the entry count (so `s..e` is in range for indices and values),
        // and that each row's indices strictly increase below `dim`.
        unsafe { SparseRow::new_unchecked(self.dim, &self.indices[s..e], self.col.slice(s, e)) }
    }
    #[inline]
    fn dim(&self) -> usize {
        self.dim
    }
    #[inline(always)]
    fn prefetch(&self, r: usize) {
        if let (Some(&s), Some(&e)) = (self.offsets.get(r), self.offsets.get(r + 1)) {
            let (s, e) = (s as usize, e as usize);
            rosenblatt_kernels::prefetch(&self.indices[s..e]);
            self.col.prefetch(s, e);
        }
    }
}

impl<C: ValueColumn> RowSet for DenseRows<C>
where
    C::V: StoredValues,
{
    type Row = DenseRow<C::V>;
    #[inline]
    fn len(&self) -> usize {
        self.rows
    }
    #[inline]
    fn row(&self, r: usize) -> Self::Row {
        DenseRow::new(self.col.slice(r * self.dim, (r + 1) * self.dim))
    }
    #[inline]
    fn dim(&self) -> usize {
        self.dim
    }
    #[inline(always)]
    fn prefetch(&self, r: usize) {
        if r < self.rows {
            self.col.prefetch(r * self.dim, (r + 1) * self.dim);
        }
    }
}

/// A shard's rows in whichever encoding it holds. Use [`with_rows!`] to run
/// generic code over any of them.
#[derive(Clone, Copy, Debug)]
#[allow(missing_docs)]
pub enum RowsView<'a> {
    SparseU16F32(SparseRows<'a, u16, &'a [f32]>),
    SparseU16U8(SparseRows<'a, u16, U8Column<'a>>),
    SparseU16Ones(SparseRows<'a, u16, Ones>),
    SparseU32F32(SparseRows<'a, u32, &'a [f32]>),
    SparseU32U8(SparseRows<'a, u32, U8Column<'a>>),
    SparseU32Ones(SparseRows<'a, u32, Ones>),
    DenseF32(DenseRows<&'a [f32]>),
    DenseU8(DenseRows<U8Column<'a>>),
}

/// Runs `$body` with `$rows` bound to the concrete [`RowSet`] inside a
/// [`RowsView`]: one dispatch per call, monomorphic code inside.
#[macro_export]
macro_rules! with_rows {
    ($view:expr, |$rows:ident| $body:expr) => {
        match $view {
            $crate::RowsView::SparseU16F32($rows) => $body,
            $crate::RowsView::SparseU16U8($rows) => $body,
            $crate::RowsView::SparseU16Ones($rows) => $body,
            $crate::RowsView::SparseU32F32($rows) => $body,
            $crate::RowsView::SparseU32U8($rows) => $body,
            $crate::RowsView::SparseU32Ones($rows) => $body,
            $crate::RowsView::DenseF32($rows) => $body,
            $crate::RowsView::DenseU8($rows) => $body,
        }
    };
}
