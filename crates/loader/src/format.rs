//! The binary shard format (`docs/shard-format.md`): a fixed header
//! decoded field by field with checked arithmetic, then 64-byte-aligned
//! sections (labels, row offsets, indices, values, qids, multi-label
//! offsets, importance weights), each with a CRC-32; and the encodings rows are stored in.
//! Writing a shard image ([`encode`]) and reading its header back
//! (`decode_header`) live here; opening and validating a whole shard is
//! [`crate::shard`].

use crate::EncodingKind;
use crate::error::LoadError;
use std::io::Write;
use std::path::Path;

/// File magic, 8 bytes.
pub const MAGIC: [u8; 8] = *b"RBLTSHRD";
/// The newest format version this code writes and reads: version 2 adds
/// the weights section. A shard without weights is written as version 1,
/// byte for byte what builds before weights wrote (and still read).
pub const VERSION: u32 = 2;
/// Header size in bytes.
pub const HEADER_LEN: usize = 256;
/// Section alignment in bytes.
pub const ALIGN: usize = 64;
/// Number of sections (version 2; version 1 has the first six).
pub const SECTIONS: usize = 7;
pub(crate) const SECTION_NAMES: [&str; SECTIONS] =
    ["labels", "offsets", "indices", "values", "qids", "label-offsets", "weights"];
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LabelKind {
    /// +1 / −1.
    Binary,
    /// Integer class ids (stored as f32, exact below 2^24).
    Classes,
    /// Arbitrary finite reals.
    Real,
    /// Lists of u32 class ids per row.
    #[serde(rename = "multilabel")]
    Multi,
}

impl LabelKind {
    /// The name the manifest uses: `binary`, `classes`, `real`, `multilabel`.
    pub fn name(self) -> &'static str {
        match self {
            LabelKind::Binary => "binary",
            LabelKind::Classes => "classes",
            LabelKind::Real => "real",
            LabelKind::Multi => "multilabel",
        }
    }
}

impl std::fmt::Display for LabelKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
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
    /// Which of the encodings this is (the scale aside).
    pub fn kind(&self) -> EncodingKind {
        use ValueEncoding::{F32, Ones, U8};
        match (self.layout, self.index_bytes, self.values) {
            (Layout::Sparse, 2, F32) => EncodingKind::SparseU16F32,
            (Layout::Sparse, 2, U8 { .. }) => EncodingKind::SparseU16U8,
            (Layout::Sparse, 2, Ones) => EncodingKind::SparseU16Binary,
            (Layout::Sparse, _, F32) => EncodingKind::SparseU32F32,
            (Layout::Sparse, _, U8 { .. }) => EncodingKind::SparseU32U8,
            (Layout::Sparse, _, Ones) => EncodingKind::SparseU32Binary,
            (Layout::Dense, _, U8 { .. }) => EncodingKind::DenseU8,
            // Dense binary rows are stored as u8 (`choose_encoding`).
            (Layout::Dense, _, F32 | Ones) => EncodingKind::DenseF32,
        }
    }

    /// A short name: `sparse-u16-u8`, `dense-f32`, `sparse-u32-binary`, …
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }
}

impl EncodingKind {
    /// The encoding, with `scale` for the u8 ones.
    pub fn encoding(self, scale: f32) -> Encoding {
        use EncodingKind::*;
        let (layout, index_bytes) = match self {
            SparseU16F32 | SparseU16U8 | SparseU16Binary => (Layout::Sparse, 2),
            SparseU32F32 | SparseU32U8 | SparseU32Binary => (Layout::Sparse, 4),
            DenseF32 | DenseU8 => (Layout::Dense, 0),
        };
        let values = match self {
            SparseU16F32 | SparseU32F32 | DenseF32 => ValueEncoding::F32,
            SparseU16U8 | SparseU32U8 | DenseU8 => ValueEncoding::U8 { scale },
            SparseU16Binary | SparseU32Binary => ValueEncoding::Ones,
        };
        Encoding { layout, index_bytes, values }
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
    /// Importance weights, empty if every row's is 1.
    pub weights: &'a [f32],
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
    let mut out = Vec::new();
    match write_image(header, data, &mut out) {
        Ok(_) => out,
        Err(e) => unreachable!("writing to a Vec cannot fail: {e}"),
    }
}

/// Writes a shard's image to `out` as it goes, section by section — the
/// bytes of [`encode`], without the image in memory first: a writer that
/// built each shard's image in a buffer paid a page fault and the kernel's
/// zeroing per 4 KiB of it, and a copy (SPEED.md#convert). Returns the image's
/// length and its CRC-32 (the manifest's). Each section's CRC goes into the
/// header, which comes first, so the sections are read twice: once for
/// their CRCs, once to write them; the file's CRC is combined from theirs.
pub fn write_image(header: &Header, data: &ShardData<'_>, out: &mut impl Write) -> std::io::Result<(u64, u32)> {
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
    let sections: [&[u8]; SECTIONS] = [
        labels,
        bytemuck::cast_slice(data.offsets),
        indices,
        values,
        bytemuck::cast_slice(data.qids),
        label_offsets,
        bytemuck::cast_slice(data.weights),
    ];
    // Version 1 (six sections) unless there are weights.
    let used = if data.weights.is_empty() { SECTIONS - 1 } else { SECTIONS };
    let sections = &sections[..used];
    let mut table = [Section::default(); SECTIONS];
    let mut at = HEADER_LEN;
    for (s, bytes) in sections.iter().enumerate() {
        at = round_up(at);
        table[s] = Section { offset: at as u64, len: bytes.len() as u64, crc: crc32fast::hash(bytes) };
        at += bytes.len();
    }
    let mut h = [0u8; HEADER_LEN];
    write_header(&mut h, header, &table[..used]);
    let mut w = Counted { out, crc: crc32fast::Hasher::new(), len: 0 };
    w.put(&h)?;
    for (sec, bytes) in table.iter().zip(sections.iter().copied()) {
        w.put(&[0u8; ALIGN][..sec.offset as usize - w.len])?;
        w.put_hashed(bytes, sec.crc)?;
    }
    w.put(&[0u8; ALIGN][..round_up(w.len) - w.len])?;
    Ok((w.len as u64, w.crc.finalize()))
}

/// A writer that keeps the length and CRC-32 of what went through it.
struct Counted<'w, W> {
    out: &'w mut W,
    crc: crc32fast::Hasher,
    len: usize,
}

impl<W: Write> Counted<'_, W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.crc.update(bytes);
        self.len += bytes.len();
        self.out.write_all(bytes)
    }

    /// As [`Counted::put`] for bytes whose CRC-32 is known: combined, not
    /// computed again.
    fn put_hashed(&mut self, bytes: &[u8], crc: u32) -> std::io::Result<()> {
        self.crc.combine(&crc32fast::Hasher::new_with_initial_len(crc, bytes.len() as u64));
        self.len += bytes.len();
        self.out.write_all(bytes)
    }
}

fn write_header(h: &mut [u8], header: &Header, table: &[Section]) {
    let version: u32 = if table.len() == SECTIONS { VERSION } else { 1 };
    h[0..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&version.to_le_bytes());
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

/// Sets the dimension in a sparse shard's header as [`write_image`] wrote
/// it, and renews the header's checksum: the header that shard would have
/// had, written with that dimension (sparse sections do not depend on it).
/// Refuses a header that is not a sparse shard's or whose sections' 16-bit
/// indices could not count that far.
pub(crate) fn set_sparse_dim(h: &mut [u8; HEADER_LEN], dim: u64) -> Result<(), String> {
    if h[0..8] != MAGIC || h[40] != 0 || (h[41] == 2 && dim > 1 << 16) || dim > 1 << 32 {
        return Err(format!("cannot set dimension {dim} in this header (not a sparse shard that can hold it)"));
    }
    h[32..40].copy_from_slice(&dim.to_le_bytes());
    let crc = crc32fast::hash(&h[..HEADER_CRC_AT]);
    h[HEADER_CRC_AT..HEADER_CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
    Ok(())
}

/// Decodes and checks a shard's header and section table against the
/// file's length `b.len()`.
pub(crate) fn decode_header(path: &Path, b: &[u8]) -> Result<(Header, [Section; SECTIONS]), LoadError> {
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
    if !(1..=VERSION).contains(&version) {
        return Err(bad(format!("format version {version}; this build reads versions 1 to {VERSION}")));
    }
    // Version 1 has no weights section: its slot in the table is reserved
    // (zero), and the section is empty.
    let sections = if version == 1 { SECTIONS - 1 } else { SECTIONS };
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
    for (s, sec) in table.iter_mut().enumerate().take(sections) {
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
    if version == 1 {
        // The empty weights section sits where the sixth ends (the CRC-32
        // of no bytes is 0).
        table[SECTIONS - 1] = Section { offset: end, len: 0, crc: 0 };
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
        None, // weights: 0 or rows × 4, checked below
    ];
    for (s, (sec, want)) in table.iter().zip(expect).enumerate() {
        let len = sec.len;
        let width = if s == SECTIONS - 1 { 4 } else { 8 };
        let ok = match want {
            Some(e) => len == e,
            None => len == 0 || Some(len) == rows.checked_mul(width),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A sparse shard written over a smaller dimension, its header then set
    /// to the larger one, is byte for byte the shard written over the larger
    /// one; and its file CRC-32 never changed (what `DatasetWriter::finish`
    /// relies on to keep the manifest's CRCs).
    #[test]
    fn a_sparse_header_set_to_a_larger_dimension_is_the_header_written_with_it() {
        for (index_bytes, small, large) in [(2u8, 40u64, 1 << 16), (4, 40, 1 << 32), (4, 70_000, 5_000_000)] {
            let (i16s, i32s) = ([3u16, 9, 1, 39], [3u32, 9, 1, 39]);
            let data = ShardData {
                labels: Labels::Single(&[1.0, -1.0]),
                offsets: &[0, 2, 4],
                indices: if index_bytes == 2 { Indices::U16(&i16s) } else { Indices::U32(&i32s) },
                values: ValueColumnData::F32(&[0.5, 2.0, -1.0, 3.0]),
                qids: &[],
                weights: &[],
            };
            let header = |dim| Header {
                rows: 2,
                nnz: 4,
                dim,
                encoding: Encoding { layout: Layout::Sparse, index_bytes, values: ValueEncoding::F32 },
                label_kind: LabelKind::Binary,
                index_base: 1,
                multilabels: 0,
            };
            let (mut image, want) = (encode(&header(small), &data), encode(&header(large), &data));
            assert_ne!(image, want);
            let crc = crc32fast::hash(&image);
            let h: &mut [u8; HEADER_LEN] = (&mut image[..HEADER_LEN]).try_into().unwrap();
            set_sparse_dim(h, large).unwrap();
            assert_eq!(image, want, "{index_bytes}-byte indices, {small} -> {large}");
            assert_eq!(crc32fast::hash(&image), crc);
            // Past what the indices or the format can count: refused.
            let h: &mut [u8; HEADER_LEN] = (&mut image[..HEADER_LEN]).try_into().unwrap();
            assert!(set_sparse_dim(h, if index_bytes == 2 { (1 << 16) + 1 } else { (1 << 32) + 1 }).is_err());
        }
        // A dense shard's rows are as long as the dimension: refused.
        let dense = encode(
            &Header {
                rows: 1,
                nnz: 2,
                dim: 2,
                encoding: Encoding { layout: Layout::Dense, index_bytes: 0, values: ValueEncoding::F32 },
                label_kind: LabelKind::Binary,
                index_base: 1,
                multilabels: 0,
            },
            &ShardData {
                labels: Labels::Single(&[1.0]),
                offsets: &[],
                indices: Indices::None,
                values: ValueColumnData::F32(&[1.0, 2.0]),
                qids: &[],
                weights: &[],
            },
        );
        let mut h: [u8; HEADER_LEN] = dense[..HEADER_LEN].try_into().unwrap();
        assert!(set_sparse_dim(&mut h, 3).is_err());
    }
}
