//! One shard's image from rows in memory: the columns that differ from
//! the rows' own (offsets from the shard's start, bytes, u16 indices,
//! dense rows, label offsets), made in buffers kept from shard to shard.

use super::u8_of;
use crate::format::{
    self, Encoding, Header, Indices, LabelKind, Labels, Layout, ShardData, ValueColumnData, ValueEncoding,
};
use crate::libsvm::Rows;

/// Which optional per-row columns a dataset's shards carry (every shard
/// alike).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Columns {
    /// Query ids.
    pub(crate) qids: bool,
    /// Importance weights.
    pub(crate) weights: bool,
}

/// The columns of a shard that differ from its rows' own (offsets from the
/// shard's start, bytes, u16 indices, dense rows, label offsets, absent
/// query ids, weights of 1), kept from one shard to the next: fresh ones would cost a
/// page fault and the kernel's zeroing per 4 KiB of each (SPEED.md#convert).
#[derive(Default)]
pub(crate) struct Scratch {
    offsets: Vec<u64>,
    u8s: Vec<u8>,
    u16s: Vec<u16>,
    dense: Vec<f32>,
    label_offsets: Vec<u64>,
    qids: Vec<u64>,
    ones: Vec<f32>,
}

impl std::fmt::Debug for Scratch {
    // The buffers' sizes, not their bytes (an image is hundreds of MB).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch").field("offsets_capacity", &self.offsets.capacity()).finish_non_exhaustive()
    }
}

/// Writes rows `a..b` of `rows` to `out` as one shard image (see
/// [`format::write_image`]); returns its length and CRC-32. `checked_u8`:
/// in a sparse u8 encoding, every value of `rows` already encoded;
/// `columns`: which optional columns the dataset's shards carry.
#[allow(clippy::too_many_arguments)]
pub(crate) fn encode_range(
    rows: &Rows,
    a: usize,
    b: usize,
    dim: u64,
    enc: Encoding,
    kind: LabelKind,
    base: u8,
    columns: Columns,
    checked_u8: Option<&[u8]>,
    scratch: &mut Scratch,
    out: &mut impl std::io::Write,
) -> std::io::Result<(u64, u32)> {
    let Scratch { offsets, u8s, u16s, dense, label_offsets, qids: qid_column, ones } = scratch;
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
    let qids = optional_column(columns.qids, &rows.qids, rows.len(), a..b, crate::libsvm::NO_QID, qid_column);
    let weights = optional_column(columns.weights, &rows.weights, rows.len(), a..b, 1.0, ones);
    let header =
        Header { rows: (b - a) as u64, nnz, dim, encoding: enc, label_kind: kind, index_base: base, multilabels };
    format::write_image(&header, &ShardData { labels, offsets: offs, indices, values, qids, weights }, out)
}

/// An optional per-row column's rows `range` for a shard: none when the
/// shards do not carry it (`carried` false), the rows' own when they hold
/// one per row (`n` rows), else `absent` for each row, made in `scratch`.
fn optional_column<'a, T: Copy>(
    carried: bool,
    column: &'a [T],
    n: usize,
    range: std::ops::Range<usize>,
    absent: T,
    scratch: &'a mut Vec<T>,
) -> &'a [T] {
    if !carried {
        &[]
    } else if column.len() == n {
        &column[range]
    } else {
        scratch.clear();
        scratch.resize(range.len(), absent);
        scratch
    }
}
