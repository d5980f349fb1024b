//! Model files: versioned, checksummed, little-endian.
//!
//! ```text
//! offset  size  field
//! 0       8     magic "RBLTMODL"
//! 8       4     format version (u32) = 1
//! 12      4     kind (u32): 0 linear (binary), 1 multi-class
//! 16      8     metadata length M (u64)
//! 24      M     metadata, JSON: learner, hyper-parameters, dimension, classes, training summary
//! 24+M    4·P   weights (f32): linear dim + 1 (bias last); multi-class k·dim + k
//! end−4   4     CRC-32 of everything before it
//! ```
//!
//! Loading checks magic, version and checksum before anything else, then
//! that the weights are exactly as many as the metadata's dimension and
//! classes imply (checked arithmetic), and that they are finite. Models are
//! written under a temporary name and renamed.

use crate::error::Error;
use rosenblatt_learners::{LinearModel, MulticlassModel};
use serde::{Deserialize, Serialize};
use std::path::Path;

const MAGIC: &[u8; 8] = b"RBLTMODL";
/// The model format version this build writes and reads.
pub const VERSION: u32 = 1;

/// Everything about a model except its weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelMeta {
    /// Learner name, as `train --learner` takes it.
    pub learner: String,
    /// Hyper-parameters, by name.
    pub params: serde_json::Map<String, serde_json::Value>,
    /// Number of features.
    pub dim: u64,
    /// The class labels, in the order of the model's outputs: `[-1, 1]` for
    /// binary models, the class ids for multi-class ones.
    pub classes: Vec<f64>,
    /// Training summary: passes, examples, mistakes, seconds, seed, order.
    pub training: serde_json::Map<String, serde_json::Value>,
}

/// The weights.
#[derive(Clone, Debug, PartialEq)]
pub enum Weights {
    /// `sign(w·x + b)`.
    Linear(LinearModel),
    /// `argmax_c (w_c·x + b_c)`.
    Multiclass(MulticlassModel),
}

/// A model with its metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedModel {
    /// Learner, parameters, dimension, classes, training summary.
    pub meta: ModelMeta,
    /// The weights.
    pub weights: Weights,
}

fn bad(path: &Path, reason: impl Into<String>) -> Error {
    Error::Model { path: path.to_path_buf(), reason: reason.into() }
}

impl SavedModel {
    /// Scores every row of `data` into `out` (one per row): the margin
    /// `w·x + b` for linear models, the predicted class id for multi-class
    /// ones. Features beyond the model's dimension get weight 0.
    pub fn predict_into<E: rosenblatt_kernels::Examples>(&self, data: &E, out: &mut [f32]) -> Result<(), Error> {
        if out.len() != data.len() {
            return Err(Error::Input(format!("{} outputs for {} rows", out.len(), data.len())));
        }
        let dim = self.meta.dim as usize;
        match &self.weights {
            Weights::Linear(m) => {
                let mut w = m.clone();
                w.weights.resize(data.dim().max(dim), 0.0);
                w.margins(data, out);
            }
            Weights::Multiclass(m) => {
                let d = data.dim().max(dim);
                let mut padded = MulticlassModel { dim: d, weights: Vec::new(), bias: m.bias.clone() };
                for c in 0..m.classes() {
                    padded.weights.extend_from_slice(&m.weights[c * dim..(c + 1) * dim]);
                    padded.weights.resize((c + 1) * d, 0.0);
                }
                for (i, o) in out.iter_mut().enumerate() {
                    *o = padded.predict(&data.row(i)) as f32;
                }
            }
        }
        Ok(())
    }

    /// Scores every row of a dataset into `out`, as [`SavedModel::predict_into`].
    pub fn predict_dataset(&self, data: &rosenblatt_loader::Dataset, out: &mut [f32]) -> Result<(), Error> {
        rosenblatt_loader::with_examples!(data.examples()?, |ex| self.predict_into(&ex, out))
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let meta = serde_json::to_vec(&self.meta).expect("metadata serialises");
        let (kind, floats): (u32, Vec<f32>) = match &self.weights {
            Weights::Linear(m) => (0, m.weights.iter().copied().chain([m.bias]).collect()),
            Weights::Multiclass(m) => (1, m.weights.iter().chain(&m.bias).copied().collect()),
        };
        let mut out = Vec::with_capacity(28 + meta.len() + 4 * floats.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&kind.to_le_bytes());
        out.extend_from_slice(&(meta.len() as u64).to_le_bytes());
        out.extend_from_slice(&meta);
        floats.iter().for_each(|f| out.extend_from_slice(&f.to_le_bytes()));
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Writes the model to `path` (atomically).
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        Ok(rosenblatt_loader::shard::write_atomic(path, &self.to_bytes())?)
    }

    /// Reads and checks a model file.
    pub fn load(path: &Path) -> Result<SavedModel, Error> {
        let bytes = std::fs::read(path)
            .map_err(|e| Error::Load(rosenblatt_loader::LoadError::Io { path: path.into(), source: e }))?;
        Self::from_bytes(path, &bytes)
    }

    /// Checks and decodes a model file's bytes (`path` names it in errors).
    pub fn from_bytes(path: &Path, b: &[u8]) -> Result<SavedModel, Error> {
        if b.len() < 28 || &b[..8] != MAGIC {
            return Err(bad(path, "not a rosenblatt model file (bad magic or too short)"));
        }
        let version = u32::from_le_bytes(b[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(bad(path, format!("model format version {version}; this build reads version {VERSION}")));
        }
        let (body, tail) = b.split_at(b.len() - 4);
        let stored = u32::from_le_bytes(tail.try_into().expect("4 bytes"));
        if crc32fast::hash(body) != stored {
            return Err(bad(path, "checksum mismatch: the file is truncated or corrupted"));
        }
        let kind = u32::from_le_bytes(b[12..16].try_into().expect("4 bytes"));
        let mlen = u64::from_le_bytes(b[16..24].try_into().expect("8 bytes"));
        let mend = usize::try_from(mlen).ok().and_then(|m| m.checked_add(24)).filter(|&e| e <= body.len());
        let Some(mend) = mend else {
            return Err(bad(path, format!("metadata length {mlen} runs past the end of the file")));
        };
        let meta: ModelMeta =
            serde_json::from_slice(&b[24..mend]).map_err(|e| bad(path, format!("metadata is not valid: {e}")))?;
        let payload = &body[mend..];
        let dim = usize::try_from(meta.dim).map_err(|_| bad(path, format!("dimension {} too large", meta.dim)))?;
        let k = meta.classes.len();
        let want = match kind {
            0 => dim.checked_add(1),
            1 => dim.checked_mul(k).and_then(|n| n.checked_add(k)),
            x => return Err(bad(path, format!("unknown model kind {x}"))),
        };
        if want.and_then(|n| n.checked_mul(4)) != Some(payload.len()) {
            return Err(bad(
                path,
                format!("{} weight bytes do not fit dimension {dim} and {k} classes", payload.len()),
            ));
        }
        let floats: Vec<f32> = payload.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4"))).collect();
        if let Some(i) = floats.iter().position(|f| !f.is_finite()) {
            return Err(bad(path, format!("weight {i} is not finite")));
        }
        let weights = if kind == 0 {
            if k != 2 {
                return Err(bad(path, format!("a linear model needs 2 classes, the metadata lists {k}")));
            }
            let (w, b) = floats.split_at(dim);
            Weights::Linear(LinearModel { weights: w.to_vec(), bias: b[0] })
        } else {
            let (w, b) = floats.split_at(dim * k);
            Weights::Multiclass(MulticlassModel { dim, weights: w.to_vec(), bias: b.to_vec() })
        };
        Ok(SavedModel { meta, weights })
    }
}
