//! The Voted Perceptron (Freund & Schapire 1999): the sequence of weight
//! vectors `w_k` the Perceptron passes through, each with its survival count
//! `c_k`, predicting `sign(Σ_k c_k · sign(w_k · x))`.
//!
//! The vectors are not stored. The model keeps the mistakes (references into
//! the training set, with their labels), and gets every `w_k · x` from the
//! running sum `Σ_{j<k} η·y_j·⟨x_j, x⟩`; each distinct mistaken example's
//! `⟨x_j, x⟩` is computed once per predicted row.

use crate::error::LearnError;
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
    /// voting pays only for their non-zeros.
    pub fn predictor<T: Examples>(&self, train: &T) -> VotedPredictor<'_> {
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
        VotedPredictor { model: self, dim: self.dim.max(train.dim()), offsets, indices, values }
    }
}

/// A [`VotedModel`] ready to vote: its mistaken examples held as compact
/// sparse rows.
#[derive(Clone, Debug)]
pub struct VotedPredictor<'m> {
    model: &'m VotedModel,
    dim: usize,
    offsets: Vec<usize>,
    indices: Vec<u32>,
    values: Vec<f32>,
}

impl VotedPredictor<'_> {
    fn stored(&self, u: usize) -> SparseRow<'_, u32, &[f32]> {
        let (s, e) = (self.offsets[u], self.offsets[u + 1]);
        // SAFETY: copied from a row's entries in order (strictly increasing
        // indices below the training set's dimension <= `self.dim`), zeros
        // dropped, one value per index.
        unsafe { SparseRow::new_unchecked(self.dim, &self.indices[s..e], &self.values[s..e]) }
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
        let m = self.model;
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
