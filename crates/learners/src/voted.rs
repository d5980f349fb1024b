//! The Voted Perceptron (Freund & Schapire 1999): the sequence of weight
//! vectors `w_k` the Perceptron passes through, each with its survival count
//! `c_k`, predicting `sign(Σ_k c_k · sign(w_k · x))`.
//!
//! The vectors are not stored. The model keeps the mistakes (references into
//! the training set, with their labels), and gets every `w_k · x` from the
//! running sum `Σ_{j<k} η·y_j·⟨x_j, x⟩`; each distinct mistaken example's
//! `⟨x_j, x⟩` is computed once per predicted row.

use crate::error::{LearnError, param};
use crate::learner::{OnlineLearner, Plan, Step};
use crate::perceptron::{Bias, PerceptronParams};
use rayon::prelude::*;
use rosenblatt_kernels::{Examples, Row, SparseRow};

/// The Voted Perceptron while training (it is a Perceptron that remembers).
#[derive(Clone, Debug)]
pub struct VotedPerceptron {
    w: Vec<f32>,
    b: f32,
    eta: f32,
    bias: bool,
    mistakes: Vec<(u32, f32)>,
    counts: Vec<u64>,
    step: u64,
    start: u64,
    last_half: bool,
}

impl VotedPerceptron {
    /// A zero learner over `dim` features; with `last_half`, survival is
    /// counted only over the last half of the run.
    pub fn new(dim: usize, params: PerceptronParams, last_half: bool) -> Result<Self, LearnError> {
        let p = params.check()?;
        Ok(VotedPerceptron {
            w: vec![0.0; dim],
            b: 0.0,
            eta: p.eta,
            bias: p.bias == Bias::Explicit,
            mistakes: Vec::new(),
            counts: vec![0],
            step: 0,
            start: 0,
            last_half,
        })
    }
}

impl OnlineLearner for VotedPerceptron {
    type Model = VotedModel;
    fn dim(&self) -> usize {
        self.w.len()
    }
    fn begin(&mut self, plan: &Plan) {
        self.start = if self.last_half { plan.steps / 2 } else { 0 };
    }
    #[inline]
    fn margin<R: Row>(&self, x: &R) -> f32 {
        x.dot(&self.w) + self.b
    }
    #[inline]
    fn learn<R: Row>(&mut self, x: &R, y: f32, example: usize) -> Step {
        self.step += 1;
        let mistake = y * self.margin(x) <= 0.0;
        if mistake {
            let a = self.eta * y;
            x.axpy(a, &mut self.w);
            if self.bias {
                self.b += a;
            }
            self.mistakes.push((example as u32, y));
            self.counts.push(0);
        }
        // Step t counts for the vector current after it (the new one on a mistake).
        if self.step > self.start {
            *self.counts.last_mut().expect("w_0 exists") += 1;
        }
        Step { mistake, updated: mistake }
    }
    fn model(&self) -> VotedModel {
        VotedModel::new(self.w.len(), self.eta, self.bias, self.mistakes.clone(), self.counts.clone())
    }
}

/// A trained Voted Perceptron: mistakes as references into the training
/// set, and survival counts. Predicting needs that training set.
#[derive(Clone, Debug, PartialEq)]
pub struct VotedModel {
    dim: usize,
    eta: f32,
    bias: bool,
    /// (training example, label) of each mistake, in order.
    mistakes: Vec<(u32, f32)>,
    /// `counts[k]`: survival of `w_k`; `w_0 = 0`.
    counts: Vec<u64>,
    /// Distinct mistaken examples, and each mistake's slot among them.
    distinct: Vec<u32>,
    slot: Vec<u32>,
}

impl VotedModel {
    fn new(dim: usize, eta: f32, bias: bool, mistakes: Vec<(u32, f32)>, counts: Vec<u64>) -> Self {
        let mut distinct: Vec<u32> = mistakes.iter().map(|m| m.0).collect();
        distinct.sort_unstable();
        distinct.dedup();
        let slot = mistakes.iter().map(|m| distinct.binary_search(&m.0).expect("present") as u32).collect();
        VotedModel { dim, eta, bias, mistakes, counts, distinct, slot }
    }

    /// Number of mistakes (vectors beyond `w_0`).
    pub fn mistakes(&self) -> usize {
        self.mistakes.len()
    }

    /// Distinct training examples among the mistakes.
    pub fn distinct_examples(&self) -> usize {
        self.distinct.len()
    }

    /// A predictor: the distinct mistaken examples copied out of `train`
    /// (the set the model was trained on) as compact sparse rows, so that
    /// voting pays only for their non-zeros. It owns everything it needs and
    /// no longer depends on the training set.
    pub fn predictor<T: Examples>(&self, train: &T) -> VotedPredictor {
        let mut offsets = Vec::with_capacity(self.distinct.len() + 1);
        offsets.push(0);
        let (mut indices, mut values) = (Vec::new(), Vec::new());
        for &j in &self.distinct {
            let row = train.row(j as usize);
            for k in 0..row.nnz() {
                let (i, v) = row.entry(k);
                if v != 0.0 {
                    indices.push(i as u32);
                    values.push(v);
                }
            }
            offsets.push(indices.len());
        }
        // The predictor's own copy names stored rows, not training examples,
        // so it equals what its parts rebuild.
        let model = VotedModel {
            mistakes: self.slot.iter().zip(&self.mistakes).map(|(&s, m)| (s, m.1)).collect(),
            distinct: (0..self.distinct.len() as u32).collect(),
            ..self.clone()
        };
        VotedPredictor { model, dim: self.dim.max(train.dim()), offsets, indices, values }
    }
}

/// A [`VotedPredictor`] taken apart into plain arrays, for storing in a file
/// and checking on the way back ([`VotedPredictor::from_parts`]).
#[derive(Clone, Debug, PartialEq)]
pub struct VotedParts {
    /// Dimension of the stored rows.
    pub dim: usize,
    /// The Perceptron's step size.
    pub eta: f32,
    /// Whether the Perceptron had an explicit bias.
    pub bias: bool,
    /// Row `u` of the distinct mistaken examples is
    /// `indices[offsets[u]..offsets[u + 1]]`, `values[…]`.
    pub offsets: Vec<u64>,
    /// Feature indices, strictly increasing within a row, below `dim`.
    pub indices: Vec<u32>,
    /// Feature values, finite and non-zero.
    pub values: Vec<f32>,
    /// For each mistake in order, the stored row it was made on.
    pub slots: Vec<u32>,
    /// For each mistake, its label (±1).
    pub labels: Vec<f32>,
    /// Survival counts `c_0 … c_k`: one more than the mistakes.
    pub counts: Vec<u64>,
}

/// A [`VotedModel`] ready to vote: its mistaken examples held as compact
/// sparse rows.
#[derive(Clone, Debug, PartialEq)]
pub struct VotedPredictor {
    model: VotedModel,
    dim: usize,
    offsets: Vec<usize>,
    indices: Vec<u32>,
    values: Vec<f32>,
}

impl VotedPredictor {
    fn stored(&self, u: usize) -> SparseRow<'_, u32, &[f32]> {
        let (s, e) = (self.offsets[u], self.offsets[u + 1]);
        // SAFETY: copied from a row's entries in order (strictly increasing
        // indices below the training set's dimension <= `self.dim`), zeros
        // dropped, one value per index; or checked so by `from_parts`.
        unsafe { SparseRow::new_unchecked(self.dim, &self.indices[s..e], &self.values[s..e]) }
    }

    /// The dimension of the rows it votes on (larger rows' extra features
    /// meet zero in every stored row).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Number of mistakes (vectors beyond `w_0`).
    pub fn mistakes(&self) -> usize {
        self.model.mistakes()
    }

    /// Distinct stored rows.
    pub fn stored_rows(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Everything, as plain arrays.
    pub fn to_parts(&self) -> VotedParts {
        let m = &self.model;
        VotedParts {
            dim: self.dim,
            eta: m.eta,
            bias: m.bias,
            offsets: self.offsets.iter().map(|&o| o as u64).collect(),
            indices: self.indices.clone(),
            values: self.values.clone(),
            slots: m.slot.clone(),
            labels: m.mistakes.iter().map(|m| m.1).collect(),
            counts: m.counts.clone(),
        }
    }

    /// Checks `p` and builds the predictor: offsets start at 0, never
    /// decrease and end at the number of entries; indices strictly increase
    /// within a row and stay below `dim`; values are finite and non-zero;
    /// every slot names a stored row; labels are ±1; counts are one more
    /// than the mistakes; `eta` is finite and positive.
    pub fn from_parts(p: VotedParts) -> Result<VotedPredictor, LearnError> {
        let invalid = |what: &'static str, value: String| Err(param(what, value, "a valid voted model"));
        if !(p.eta.is_finite() && p.eta > 0.0) {
            return invalid("eta", p.eta.to_string());
        }
        if p.indices.len() != p.values.len() {
            return invalid("entries", format!("{} indices, {} values", p.indices.len(), p.values.len()));
        }
        if p.offsets.first() != Some(&0) || p.offsets.last() != Some(&(p.indices.len() as u64)) {
            return invalid("offsets", format!("{:?}…{:?}", p.offsets.first(), p.offsets.last()));
        }
        if let Some(u) = p.offsets.windows(2).position(|w| w[0] > w[1]) {
            return invalid("offsets", format!("row {u} ends before it starts"));
        }
        let mut offsets = Vec::with_capacity(p.offsets.len());
        for (u, w) in p.offsets.windows(2).enumerate() {
            let row = &p.indices[w[0] as usize..w[1] as usize];
            if row.windows(2).any(|i| i[0] >= i[1]) || row.last().is_some_and(|&i| i as usize >= p.dim) {
                return invalid("indices", format!("row {u} has unsorted indices or one beyond dimension {}", p.dim));
            }
            offsets.push(w[0] as usize);
        }
        offsets.push(p.indices.len());
        if let Some(k) = p.values.iter().position(|v| !v.is_finite() || *v == 0.0) {
            return invalid("values", format!("entry {k} is {}", p.values[k]));
        }
        let rows = offsets.len() - 1;
        if p.slots.len() != p.labels.len() || p.counts.len() != p.slots.len() + 1 {
            return invalid(
                "mistakes",
                format!("{} slots, {} labels, {} counts", p.slots.len(), p.labels.len(), p.counts.len()),
            );
        }
        if let Some(k) = p.slots.iter().position(|&s| s as usize >= rows) {
            return invalid("slots", format!("mistake {k} names row {} of {rows}", p.slots[k]));
        }
        if let Some(k) = p.labels.iter().position(|&y| y != 1.0 && y != -1.0) {
            return invalid("labels", format!("mistake {k} has label {}", p.labels[k]));
        }
        let model = VotedModel {
            dim: p.dim,
            eta: p.eta,
            bias: p.bias,
            mistakes: p.slots.iter().zip(&p.labels).map(|(&s, &y)| (s, y)).collect(),
            counts: p.counts,
            distinct: (0..rows as u32).collect(),
            slot: p.slots,
        };
        Ok(VotedPredictor { model, dim: p.dim, offsets, indices: p.indices, values: p.values })
    }

    /// `Σ_k c_k · sign(w_k · x)` for one row (`sign(0) = 0`: a zero margin
    /// abstains).
    pub fn vote<R: Row>(&self, x: &R) -> f64 {
        self.vote_block(&[*x], &mut Vec::new(), &mut Vec::new())[0]
    }

    /// Votes for up to eight rows: their features laid out transposed
    /// (`t[i][lane]`), each stored mistake scored against all eight with one
    /// broadcast and FMA per non-zero (`Row::dot_t8`). Lanes never mix, so a
    /// row's vote is the same alone or in a block.
    fn vote_block<R: Row>(&self, xs: &[R], t: &mut Vec<[f32; 8]>, dots: &mut Vec<[f32; 8]>) -> [f64; 8] {
        debug_assert!(xs.len() <= 8);
        let m = &self.model;
        let dim = xs.iter().map(Row::dim).fold(self.dim, usize::max);
        t.clear();
        t.resize(dim, [0.0; 8]);
        for (lane, x) in xs.iter().enumerate() {
            for k in 0..x.nnz() {
                let (i, v) = x.entry(k);
                t[i][lane] = v;
            }
        }
        dots.clear();
        dots.extend((0..m.distinct.len()).map(|u| self.stored(u).dot_t8(&t[..self.dim])));
        // w_0 = 0 abstains. Selects rather than branches, so the eight
        // lanes vectorise.
        let (mut s, mut sb) = ([0.0f32; 8], 0.0f32);
        let mut vote = [0.0f64; 8];
        for (k, (&(_, y), &slot)) in m.mistakes.iter().zip(&m.slot).enumerate() {
            let a = m.eta * y;
            if m.bias {
                sb += a;
            }
            let d = &dots[slot as usize];
            let c = m.counts[k + 1] as f64;
            for lane in 0..8 {
                s[lane] += a * d[lane];
                let v = s[lane] + sb;
                vote[lane] += if v > 0.0 {
                    c
                } else if v < 0.0 {
                    -c
                } else {
                    0.0
                };
            }
        }
        vote
    }

    /// Votes for every row of `data` into `out`, eight rows at a time, in
    /// parallel over blocks.
    pub fn votes<D: Examples>(&self, data: &D, out: &mut [f64]) {
        assert_eq!(out.len(), data.len(), "one output per example");
        out.par_chunks_mut(8).enumerate().for_each_init(
            || (Vec::new(), Vec::new()),
            |(t, dots), (c, chunk)| {
                let rows: Vec<D::Row> = (0..chunk.len()).map(|k| data.row(c * 8 + k)).collect();
                let v = self.vote_block(&rows, t, dots);
                chunk.copy_from_slice(&v[..chunk.len()]);
            },
        );
    }

    /// Fraction of `data` the vote gets wrong (a tie predicts −1).
    pub fn error_rate<D: Examples>(&self, data: &D) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let mut v = vec![0.0; data.len()];
        self.votes(data, &mut v);
        let wrong = v.iter().enumerate().filter(|&(i, &s)| (if s > 0.0 { 1.0 } else { -1.0 }) != data.label(i)).count();
        wrong as f64 / data.len() as f64
    }
}
