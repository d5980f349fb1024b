//! A trained model: its metadata (learner, hyper-parameters, dimension,
//! classes, the record of its training), its weights and what they do with
//! rows, and the learner's state to resume from. The file format, and
//! the checks loading makes, are in `model/file.rs`.

mod file;

use crate::error::Error;
use rayon::prelude::*;
use rosenblatt_kernels::Examples;
use rosenblatt_learners::{
    Event, Kernel, KernelForm, KernelModel, Learner, LinearModel, Mixing, MulticlassModel, Order, Outputs, VotedParts,
    VotedPredictor,
};
use rosenblatt_loader::{ExamplesView, with_examples};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

const MAGIC: &[u8; 8] = b"RBLTMODL";
/// The model format version this build writes.
pub const VERSION: u32 = 3;

/// Everything about a model except its weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelMeta {
    /// The learner.
    pub learner: Learner,
    /// Hyper-parameters by name (defaults filled in), and values derived
    /// from the data (`r`).
    pub params: BTreeMap<String, f64>,
    /// Number of features.
    pub dim: u64,
    /// The class labels, in the order of the model's outputs: `[-1, 1]` for
    /// binary models, the class ids for multi-class ones.
    pub classes: Vec<f64>,
    /// How the training data's text numbered features (1 or 0); LIBSVM
    /// text given to `predict` is read the same way unless told otherwise.
    pub index_base: u8,
    /// What training did.
    pub training: Training,
    /// How the training data's features were hashed (VW text): text given
    /// to `predict` is hashed the same way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hashing: Option<rosenblatt_loader::vw::Hashing>,
}

/// A training run's summary: what determines the model, and what it did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Training {
    /// Training examples (the holdout excluded).
    pub examples: u64,
    /// Rows held out at the end of the data.
    pub holdout: u64,
    /// Passes asked for (a limit for the batch Perceptron).
    pub passes: f64,
    /// Passes run.
    pub passes_run: usize,
    /// Example order.
    pub order: Order,
    /// Seed of the order (and of randomised learners' draws).
    pub seed: u64,
    /// Parts trained in parallel and mixed after every pass (1: the
    /// sequential algorithm).
    pub parts: usize,
    /// How parts were mixed, with more than one.
    pub mixing: Option<Mixing>,
    /// Online mistakes over the run.
    pub mistakes: u64,
    /// Updates over the run.
    pub updates: u64,
    /// Online mistakes, pass by pass.
    pub mistakes_per_pass: Vec<u64>,
    /// Batch Perceptron: the pass that made no mistake, if one did.
    pub separated_at: Option<usize>,
    /// Passes run before this record begins (0 from `train`, whose
    /// resumed runs carry on the record of the run they resume: passes,
    /// mistakes and updates are the whole history's).
    #[serde(default)]
    pub first_pass: usize,
    /// Batches an online trainer learned from ([`crate::online`]; 0 for
    /// `train`): the next batch's order is drawn from the seed and this.
    #[serde(default)]
    pub batches: u64,
}

impl Training {
    /// Counts one more batch of `rows` rows and `passes` passes, as
    /// `report` says it went.
    pub(crate) fn count(&mut self, rows: usize, passes: f64, report: &rosenblatt_learners::TrainReport) {
        self.batches += 1;
        self.examples += rows as u64;
        self.passes += passes;
        self.passes_run += report.passes.len();
        self.mistakes += report.mistakes();
        self.updates += report.updates();
        self.mistakes_per_pass.extend(report.passes.iter().map(|p| p.mistakes));
    }
}

/// The weights.
#[derive(Clone, Debug, PartialEq)]
pub enum Weights {
    /// `sign(w·x + b)`.
    Linear(LinearModel),
    /// `argmax_c (w_c·x + b_c)`.
    Multiclass(MulticlassModel),
    /// `sign(Σ_k c_k · sign(w_k·x))`, the Voted Perceptron.
    Voted(VotedPredictor),
    /// A kernel Perceptron: `Σ_s α_s k(x_s, x)` per output, or its vote.
    Kernel(KernelModel),
}

/// One row's prediction.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Prediction {
    /// The predicted label: ±1, or a class id.
    pub label: f32,
    /// The score behind it: the margin `w·x + b` (linear), the vote
    /// `Σ c_k·sign(w_k·x)` (voted), the winning class's `w_c·x + b_c`
    /// (multi-class).
    pub score: f32,
}

/// A model with its metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Learner, parameters, dimension, classes, training summary.
    pub meta: ModelMeta,
    /// The weights.
    pub weights: Weights,
    /// The learner's whole state, to resume training from (none in files
    /// older than version 3).
    pub state: Option<Vec<u8>>,
}

fn bad(path: &Path, reason: impl Into<String>) -> Error {
    Error::Model { path: path.to_path_buf(), reason: reason.into() }
}

/// Rows per parallel task when a linear model scores rows.
const LINEAR_BLOCK: usize = 4096;
/// Rows per parallel task when a multi-class model scores rows.
const MULTICLASS_BLOCK: usize = 1024;

impl Weights {
    /// The first weight of a linear or multi-class model that is not
    /// finite — "weight i" (as the model file numbers the weights) or "the
    /// bias" — with its value: a model file holding one does not load, so
    /// training that produced one has diverged.
    pub fn first_non_finite(&self) -> Option<(String, f32)> {
        let (w, b): (&[f32], &[f32]) = match self {
            Weights::Linear(m) => (&m.weights, std::slice::from_ref(&m.bias)),
            Weights::Multiclass(m) => (&m.weights, &m.bias),
            Weights::Voted(_) | Weights::Kernel(_) => return None,
        };
        let bad = |v: &[f32]| v.iter().position(|x| !x.is_finite());
        match (bad(w), bad(b)) {
            (Some(i), _) => Some((format!("weight {i}"), w[i])),
            (None, Some(c)) if b.len() > 1 => Some((format!("the bias of class {c}"), b[c])),
            (None, Some(c)) => Some(("the bias".into(), b[c])),
            (None, None) => None,
        }
    }

    /// Whether [`Weights::predictions_into`] scores `rows` rows on the
    /// calling thread without rayon: a linear or multi-class model and at
    /// most one block of rows. A caller outside any pool may then skip
    /// handing the work to one (the Python binding's mini-batches).
    pub fn predicts_on_this_thread(&self, rows: usize) -> bool {
        match self {
            Weights::Linear(_) => rows <= LINEAR_BLOCK,
            Weights::Multiclass(_) => rows <= MULTICLASS_BLOCK,
            Weights::Voted(_) | Weights::Kernel(_) => false,
        }
    }

    /// Label and score of every row of `data` into `out` (one per row), in
    /// parallel over blocks of rows (one block on this thread); `classes`
    /// names the model's outputs. Features beyond the model's dimension get
    /// weight 0.
    pub fn predictions_into<E: Examples>(
        &self,
        classes: &[f64],
        data: &E,
        out: &mut [Prediction],
    ) -> Result<(), Error> {
        if out.len() != data.len() {
            return Err(Error::Input(format!("{} outputs for {} rows", out.len(), data.len())));
        }
        let sign = |s: f32| if s > 0.0 { 1.0 } else { -1.0 };
        match self {
            Weights::Linear(m) => {
                let padded;
                let w = if data.dim() > m.weights.len() {
                    let mut p = m.clone();
                    p.weights.resize(data.dim(), 0.0);
                    padded = p;
                    &padded
                } else {
                    m
                };
                let score = |c: usize, chunk: &mut [Prediction]| {
                    for (k, o) in chunk.iter_mut().enumerate() {
                        let s = w.margin(&data.row(c * LINEAR_BLOCK + k));
                        *o = Prediction { label: sign(s), score: s };
                    }
                };
                if out.len() <= LINEAR_BLOCK {
                    score(0, out);
                } else {
                    out.par_chunks_mut(LINEAR_BLOCK).enumerate().for_each(|(c, chunk)| score(c, chunk));
                }
            }
            Weights::Voted(v) => {
                let mut votes = vec![0.0f64; data.len()];
                v.votes(data, &mut votes);
                out.iter_mut().zip(votes).for_each(|(o, s)| *o = Prediction { label: sign(s as f32), score: s as f32 });
            }
            Weights::Multiclass(m) => {
                let padded;
                let m = if data.dim() > m.dim {
                    let d = data.dim();
                    let mut p =
                        MulticlassModel { dim: d, weights: Vec::with_capacity(d * m.classes()), bias: m.bias.clone() };
                    for c in 0..m.classes() {
                        p.weights.extend_from_slice(&m.weights[c * m.dim..(c + 1) * m.dim]);
                        p.weights.resize((c + 1) * d, 0.0);
                    }
                    padded = p;
                    &padded
                } else {
                    m
                };
                let score = |scores: &mut Vec<f32>, c: usize, chunk: &mut [Prediction]| {
                    for (k, o) in chunk.iter_mut().enumerate() {
                        let (best, score) = m.predict_scored(&data.row(c * MULTICLASS_BLOCK + k), scores);
                        *o = Prediction { label: classes[best] as f32, score };
                    }
                };
                if out.len() <= MULTICLASS_BLOCK {
                    score(&mut vec![0.0f32; m.classes()], 0, out);
                } else {
                    out.par_chunks_mut(MULTICLASS_BLOCK)
                        .enumerate()
                        .for_each_init(|| vec![0.0f32; m.classes()], |scores, (c, chunk)| score(scores, c, chunk));
                }
            }
            Weights::Kernel(m) => {
                let c = m.outputs.count();
                let mut scores = vec![0f32; data.len() * c];
                m.scores_into(data, &mut scores);
                for (o, s) in out.iter_mut().zip(scores.chunks(c.max(1))) {
                    *o = if c == 1 {
                        Prediction { label: sign(s[0]), score: s[0] }
                    } else {
                        let (best, score) = rosenblatt_learners::kernel_best(s);
                        Prediction { label: classes[best] as f32, score }
                    };
                }
            }
        }
        Ok(())
    }

    /// [`Weights::predictions_into`] for a dataset's rows.
    pub fn predictions(&self, classes: &[f64], data: &ExamplesView<'_>) -> Result<Vec<Prediction>, Error> {
        let mut out = vec![Prediction::default(); data.len()];
        with_examples!(data, |ex| self.predictions_into(classes, ex, &mut out))?;
        Ok(out)
    }
}

impl Model {
    /// Label and score of every row of a dataset view (the commands'
    /// predictions; embedders use [`crate::Predict`]).
    pub(crate) fn predictions(&self, data: &ExamplesView<'_>) -> Result<Vec<Prediction>, Error> {
        self.weights.predictions(&self.meta.classes, data)
    }

    /// The features it was trained on (rows may have more: those get
    /// weight 0).
    pub fn dim(&self) -> usize {
        self.meta.dim as usize
    }

    /// The learner that trained it.
    pub fn learner(&self) -> Learner {
        self.meta.learner
    }

    /// Writes the model to `path` (atomically).
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        let mut file = rosenblatt_loader::fs::AtomicFile::create(path)?;
        self.write_to(&mut file).map_err(|e| rosenblatt_loader::LoadError::Io { path: path.into(), source: e })?;
        Ok(file.commit()?)
    }

    /// Whether `path` starts as a model file does (its magic bytes): to tell
    /// a model from other files before loading it.
    pub fn is_model_file(path: &Path) -> bool {
        use std::io::Read;
        let mut head = [0u8; 8];
        std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && &head == MAGIC
    }

    /// Reads and checks a model file.
    pub fn load(path: &Path) -> Result<Model, Error> {
        if path.is_dir() {
            return Err(bad(
                path,
                "is a directory, not a model file (a dataset? the model comes first: eval MODEL DATASET)",
            ));
        }
        let bytes = std::fs::read(path)
            .map_err(|e| Error::Load(rosenblatt_loader::LoadError::Io { path: path.into(), source: e }))?;
        Self::decode(path, &bytes)
    }

    /// Checks and decodes a model file's bytes ([`Model::to_bytes`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, Error> {
        Self::decode(Path::new("<bytes>"), bytes)
    }
}
