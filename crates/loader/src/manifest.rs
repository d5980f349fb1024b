//! The dataset manifest, `dataset.json`: versioned JSON with the totals,
//! dimension, encoding, label kind and label counts, and each shard's name,
//! size and CRC-32. Written last, so a directory with a manifest holds a
//! whole dataset.

use crate::EncodingKind;
use crate::format::LabelKind;
use serde::{Deserialize, Serialize};

/// The manifest's file name.
pub const MANIFEST: &str = "dataset.json";
/// The manifest format this code writes and reads.
pub const MANIFEST_VERSION: u32 = 1;
pub(crate) const FORMAT_NAME: &str = "rosenblatt-dataset";

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
    /// How the source text numbered features: 1 (the LIBSVM convention,
    /// also recorded for MNIST) or 0 (text converted with `--zero-based`).
    /// Rows store zero-based indices either way.
    pub index_base: u8,
    /// The encoding (`sparse-u16-u8`, `dense-f32`, …).
    pub encoding: EncodingKind,
    /// u8 scale, when the encoding is u8.
    pub scale: Option<f32>,
    /// `binary`, `classes`, `real` or `multilabel`.
    pub label_kind: LabelKind,
    /// Distinct labels with their counts (binary, classes, multilabel).
    pub label_counts: Vec<(f64, u64)>,
    /// Whether rows carry qids.
    pub has_qids: bool,
    /// Whether rows carry importance weights (written only when they do,
    /// so that datasets without keep their manifests' bytes).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_weights: bool,
    /// The shards, in row order.
    pub shards: Vec<ShardEntry>,
    /// How the rows' features were hashed, for data converted from VW
    /// text: text read for this data must be hashed the same way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hashing: Option<crate::vw::Hashing>,
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

impl Manifest {
    /// Bytes of all shards together.
    pub fn bytes(&self) -> u64 {
        self.shards.iter().map(|s| s.bytes).sum()
    }
}
