//! Opening a shard: map (or read) the file, decode its header
//! ([`crate::format`]), and validate everything the unchecked row
//! constructors rely on, in one pass; a [`Shard`]'s row views
//! ([`Shard::rows`]) can only be had after that check. Checksums are
//! verified on request.
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

use crate::RowsView;
use crate::error::LoadError;
use crate::format::{Header, LabelKind, Layout, SECTION_NAMES, SECTIONS, Section, ValueEncoding, decode_header};
use crate::libsvm::NO_QID;
use crate::rows::{DenseRows, SparseRows, U8Column};
use rosenblatt_kernels::{Index, Ones};
use std::path::{Path, PathBuf};

/// How to open a shard.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenOptions {
    /// Verify every section's CRC-32 (a full read of the file).
    pub verify_checksums: bool,
    /// Read the file into memory instead of mapping it (for untrusted
    /// files, or file systems where others may write).
    pub in_memory: bool,
}

impl OpenOptions {
    /// Mapped, every checksum verified: how a dataset whose values are to
    /// be trained on or predicted is opened (structure alone would let a
    /// flipped bit in a value pass).
    pub const VERIFIED: OpenOptions = OpenOptions { verify_checksums: true, in_memory: false };
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
        Self::from_bytes(path.to_path_buf(), Self::read(path, opts)?, opts.verify_checksums)
    }

    /// Opens and validates the shard at `path` as [`Shard::open`] does
    /// without its section checksums, and returns the whole file's CRC-32
    /// too (a manifest entry's), summed in the sweep that checks the rows:
    /// a sparse shard's indices are read once, not once to check and once
    /// to sum (SPEED.md, "Checksums at open").
    pub(crate) fn open_summed(path: &Path, opts: OpenOptions) -> Result<(Shard, u32), LoadError> {
        let shard = Self::decoded(path.to_path_buf(), Self::read(path, opts)?)?;
        let swept = shard.validate(true)?;
        let crc = shard.file_crc(swept);
        Ok((shard, crc))
    }

    /// The file's bytes, mapped or read as `opts` says.
    fn read(path: &Path, opts: OpenOptions) -> Result<Bytes, LoadError> {
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
        Ok(bytes)
    }

    /// The shard of `bytes`, its header decoded and nothing else checked.
    fn decoded(path: PathBuf, bytes: Bytes) -> Result<Shard, LoadError> {
        let (header, table) = decode_header(&path, bytes.as_slice())?;
        Ok(Shard { path, bytes, header, table })
    }

    fn from_bytes(path: PathBuf, bytes: Bytes, verify: bool) -> Result<Shard, LoadError> {
        let shard = Self::decoded(path, bytes)?;
        shard.validate(false)?;
        if verify {
            shard.verify_checksums()?;
        }
        Ok(shard)
    }

    /// Validates a shard held in memory (for tests and fuzzing).
    pub fn from_vec(data: &[u8], verify: bool) -> Result<Shard, LoadError> {
        Self::from_image(PathBuf::from("<memory>"), data, verify)
    }

    /// Validates a shard image held in memory, named `path` in errors.
    pub(crate) fn from_image(path: PathBuf, data: &[u8], verify: bool) -> Result<Shard, LoadError> {
        let mut words = vec![0u64; data.len().div_ceil(8)];
        bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..data.len()].copy_from_slice(data);
        Self::from_bytes(path, Bytes::Owned(words, data.len()), verify)
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

    /// Importance weights, empty if the shard has none (every row's is 1).
    pub fn weights(&self) -> &[f32] {
        bytemuck::cast_slice(self.section(SECTIONS - 1))
    }

    /// Row `r`'s importance weight.
    pub fn weight(&self, r: usize) -> f32 {
        self.weights().get(r).copied().unwrap_or(1.0)
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
                RowsView::DenseU8(DenseRows { dim, rows, col: U8Column::new(vals, scale) })
            }
            (Layout::Dense, _, ValueEncoding::Ones) => unreachable!("rejected by decode_header"),
            (Layout::Sparse, 2, v) => {
                let idx: &[u16] = bytemuck::cast_slice(self.section(2));
                match v {
                    ValueEncoding::F32 => {
                        RowsView::SparseU16F32(SparseRows::new(dim, offsets, idx, bytemuck::cast_slice(vals)))
                    }
                    ValueEncoding::U8 { scale } => {
                        RowsView::SparseU16U8(SparseRows::new(dim, offsets, idx, U8Column::new(vals, scale)))
                    }
                    ValueEncoding::Ones => RowsView::SparseU16Binary(SparseRows::new(dim, offsets, idx, Ones)),
                }
            }
            (Layout::Sparse, _, v) => {
                let idx: &[u32] = bytemuck::cast_slice(self.section(2));
                match v {
                    ValueEncoding::F32 => {
                        RowsView::SparseU32F32(SparseRows::new(dim, offsets, idx, bytemuck::cast_slice(vals)))
                    }
                    ValueEncoding::U8 { scale } => {
                        RowsView::SparseU32U8(SparseRows::new(dim, offsets, idx, U8Column::new(vals, scale)))
                    }
                    ValueEncoding::Ones => RowsView::SparseU32Binary(SparseRows::new(dim, offsets, idx, Ones)),
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

    /// The whole file's CRC-32, given the CRC states of the indices and
    /// the values when the rows' check summed them: the parts between are
    /// summed here, in blocks on the pool.
    fn file_crc(&self, swept: Option<Sums>) -> u32 {
        let b = self.raw();
        let Some([indices, values]) = swept else { return crc32_blocks(b, CRC_BLOCK).finalize() };
        // Sections lie in table order (checked by `decode_header`).
        let end = |s: Section| (s.offset + s.len) as usize;
        let (i, v) = (self.table[2], self.table[3]);
        let mut h = crc32_blocks(&b[..i.offset as usize], CRC_BLOCK);
        h.combine(&indices);
        h.combine(&crc32_blocks(&b[end(i)..v.offset as usize], CRC_BLOCK));
        h.combine(&values);
        h.combine(&crc32_blocks(&b[end(v)..], CRC_BLOCK));
        h.finalize()
    }

    /// The structural checks the unchecked row views rely on; with `sum`,
    /// a sparse shard's index and value bytes are summed (CRC-32) as its
    /// rows are checked.
    fn validate(&self, sum: bool) -> Result<Option<Sums>, LoadError> {
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
        let w = self.weights();
        if let Some(r) = w.iter().position(|x| !(x.is_finite() && *x >= 0.0)) {
            return bad(format!("importance weight of row {r} is {} (weights are finite and >= 0)", w[r]));
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
            let bytes = sum.then(|| [self.section(2), self.section(3)]);
            let r = if h.encoding.index_bytes == 2 {
                check_rows::<u16>(off, bytemuck::cast_slice(self.section(2)), h.dim, bytes)
            } else {
                check_rows::<u32>(off, bytemuck::cast_slice(self.section(2)), h.dim, bytes)
            };
            return r.or_else(bad);
        }
        Ok(None)
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

/// Rows per task of [`check_rows`] on the pool: about 1 MB of a sparse
/// shard's indices at 80 a row, enough that a task dwarfs rayon's cost.
const CHECK_ROWS: usize = 1 << 12;

/// Rows checked, then summed, at a time inside a task of [`check_rows`]
/// that sums: about 80 KB of a sparse shard's indices, still in the core's
/// cache when the CRC reads them after the check.
const SUM_ROWS: usize = 256;

/// CRC-32 states of a shard's index bytes and value bytes, or of a run of
/// rows' share of them.
type Sums = [crc32fast::Hasher; 2];

/// Every row's indices strictly increasing and below `dim`: blocks of rows
/// on the current pool (a shard's indices are most of its bytes, and this
/// check reads each once before any is used); the first bad row named.
/// With `sum` (the index and value sections' bytes), each block's share
/// of them is summed right after it is checked, and the sums are combined
/// in order.
fn check_rows<I: Index + Sync>(
    off: &[u64],
    idx: &[I],
    dim: u64,
    sum: Option<[&[u8]; 2]>,
) -> Result<Option<Sums>, String> {
    use rayon::prelude::*;
    let rows = off.len() - 1;
    let block = |b: usize| check_block(off, idx, dim, sum, b * CHECK_ROWS..((b + 1) * CHECK_ROWS).min(rows));
    let blocks: Vec<_> = match rows.div_ceil(CHECK_ROWS) {
        0 | 1 => vec![block(0)],
        n => (0..n).into_par_iter().map(block).collect(),
    };
    let mut total: Option<Sums> = None;
    for b in blocks {
        let Some(s) = b? else { continue };
        match &mut total {
            Some(t) => t.iter_mut().zip(&s).for_each(|(t, s)| t.combine(s)),
            None => total = Some(s),
        }
    }
    Ok(total)
}

/// [`check_rows`]' task: rows `range` checked in order and, with `sum`,
/// their bytes summed [`SUM_ROWS`] rows at a time.
fn check_block<I: Index>(
    off: &[u64],
    idx: &[I],
    dim: u64,
    sum: Option<[&[u8]; 2]>,
    range: std::ops::Range<usize>,
) -> Result<Option<Sums>, String> {
    let Some(sections) = sum else { return check_row_range(off, idx, dim, range).map(|()| None) };
    // Bytes an entry takes in each section (0 for values all one).
    let width = sections.map(|b| b.len().checked_div(idx.len()).unwrap_or(0));
    let mut sums = Sums::default();
    let mut at = range.start;
    while at < range.end {
        let end = (at + SUM_ROWS).min(range.end);
        check_row_range(off, idx, dim, at..end)?;
        // In bounds: the offsets were checked to rise to the entry count.
        let (s, e) = (off[at] as usize, off[end] as usize);
        for ((h, b), w) in sums.iter_mut().zip(sections).zip(width) {
            h.update(&b[s * w..e * w]);
        }
        at = end;
    }
    Ok(Some(sums))
}

/// Bytes per task of [`crc32_blocks`] when a file is summed.
const CRC_BLOCK: usize = 4 << 20;

/// The CRC-32 state of `bytes`, its `block`-byte pieces hashed on the
/// pool and combined in order.
fn crc32_blocks(bytes: &[u8], block: usize) -> crc32fast::Hasher {
    use rayon::prelude::*;
    let hash = |piece: &[u8]| {
        let mut h = crc32fast::Hasher::new();
        h.update(piece);
        h
    };
    let join = |mut a: crc32fast::Hasher, b: crc32fast::Hasher| {
        a.combine(&b);
        a
    };
    bytes.par_chunks(block.max(1)).map(hash).reduce(crc32fast::Hasher::new, join)
}

/// [`check_rows`] for rows `range`, in order.
fn check_row_range<I: Index>(off: &[u64], idx: &[I], dim: u64, range: std::ops::Range<usize>) -> Result<(), String> {
    for r in range {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows checked in blocks on the pool name the first bad row, as one
    /// block in order would: 20,000 rows of three indices, spoilt at rows
    /// 15,000 and 5,000 (in that order), each way a row can be bad.
    #[test]
    fn the_first_bad_row_is_named_however_the_blocks_run() {
        let rows = 20_000usize;
        let off: Vec<u64> = (0..=rows as u64).map(|r| 3 * r).collect();
        let good: Vec<u32> = (0..rows as u32).flat_map(|r| [r % 7, r % 7 + 2, r % 7 + 9]).collect();
        assert!(rows.div_ceil(CHECK_ROWS) > 2);
        assert!(matches!(check_rows(&off, &good, 16, None), Ok(None)));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
        for (spoil, says) in [
            ((1, 0), "row 5000: index 0 at position 1 does not increase"),
            ((2, 99), "row 5000: index 99 is not below the dimension 16"),
        ] {
            let mut bad = good.clone();
            for r in [15_000, 5_000] {
                bad[3 * r + spoil.0] = spoil.1;
            }
            assert_eq!(pool.install(|| check_rows(&off, &bad, 16, None)).unwrap_err(), says);
            let sum = Some([bytemuck::cast_slice::<u32, u8>(&bad), &[][..]]);
            assert_eq!(pool.install(|| check_rows(&off, &bad, 16, sum)).unwrap_err(), says);
            assert_eq!(check_row_range(&off, &bad, 16, 0..rows).unwrap_err(), says);
        }
    }

    #[test]
    fn blocks_hashed_in_parallel_give_the_whole_crc() {
        let bytes: Vec<u8> = (0..10_007u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for len in [0, 1, 63, 64, 1000, 10_007] {
            for block in [1, 7, 64, 4096, 20_000] {
                let got = pool.install(|| crc32_blocks(&bytes[..len], block)).finalize();
                assert_eq!(got, crc32fast::hash(&bytes[..len]), "{len} bytes in blocks of {block}");
            }
        }
    }

    /// The sums the rows' check keeps are the sections' CRC-32s, whatever
    /// the rows' lengths (empty rows, rows across the sub-blocks and
    /// blocks), the values' width (0, 1 or 4 bytes an entry) and the pool.
    #[test]
    fn the_rows_check_sums_the_index_and_value_bytes() {
        let rows = 3 * CHECK_ROWS + 17;
        let len = |r: usize| (r * 7919) % 13;
        let off: Vec<u64> = std::iter::once(0)
            .chain((0..rows).scan(0u64, |at, r| {
                *at += len(r) as u64;
                Some(*at)
            }))
            .collect();
        let idx: Vec<u32> = (0..rows).flat_map(|r| (0..len(r) as u32).map(move |k| 3 * k + (r % 3) as u32)).collect();
        let nnz = idx.len();
        assert_eq!(off[rows] as usize, nnz);
        let idx_bytes: &[u8] = bytemuck::cast_slice(&idx);
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            for width in [0, 1, 4] {
                let values: Vec<u8> = (0..nnz * width).map(|k| (k * 31 % 251) as u8).collect();
                let sums = pool.install(|| check_rows(&off, &idx, 64, Some([idx_bytes, &values]))).unwrap().unwrap();
                let got = sums.map(|h| h.finalize());
                assert_eq!(
                    got,
                    [crc32fast::hash(idx_bytes), crc32fast::hash(&values)],
                    "width {width}, {threads} threads"
                );
            }
        }
        let none: [u64; 1] = [0];
        let empty = check_rows::<u32>(&none, &[], 8, Some([&[][..], &[][..]])).unwrap().unwrap();
        assert_eq!(empty.map(|h| h.finalize()), [0, 0]);
    }
}
