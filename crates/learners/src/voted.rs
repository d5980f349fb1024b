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
use rosenblatt_kernels::{Examples, Row};

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

    /// `Σ_k c_k · sign(w_k · x)` (`sign(0) = 0`: a zero margin abstains) for
    /// one row, given the training set the model was trained on and a scratch
    /// buffer of the model's dimension.
    pub fn vote<T: Examples, R: Row>(&self, train: &T, x: &R, dense: &mut Vec<f32>, dots: &mut Vec<f32>) -> f64 {
        dense.clear();
        dense.resize(self.dim.max(x.dim()), 0.0);
        for k in 0..x.nnz() {
            let (i, v) = x.entry(k);
            dense[i] = v;
        }
        dots.clear();
        dots.extend(self.distinct.iter().map(|&j| train.row(j as usize).dot(dense)));
        let sign = |m: f32| f64::from(u8::from(m > 0.0)) - f64::from(u8::from(m < 0.0));
        let (mut s, mut sb) = (0.0f32, 0.0f32);
        let mut vote = self.counts[0] as f64 * sign(0.0);
        for (k, (&(_, y), &slot)) in self.mistakes.iter().zip(&self.slot).enumerate() {
            let a = self.eta * y;
            s += a * dots[slot as usize];
            if self.bias {
                sb += a;
            }
            vote += self.counts[k + 1] as f64 * sign(s + sb);
        }
        vote
    }

    /// Votes for every row of `data` into `out`, in parallel over rows.
    pub fn votes<T: Examples, D: Examples>(&self, train: &T, data: &D, out: &mut [f64]) {
        assert_eq!(out.len(), data.len(), "one output per example");
        out.par_chunks_mut(64).enumerate().for_each(|(c, chunk)| {
            let (mut dense, mut dots) = (Vec::new(), Vec::with_capacity(self.distinct.len()));
            for (k, o) in chunk.iter_mut().enumerate() {
                *o = self.vote(train, &data.row(c * 64 + k), &mut dense, &mut dots);
            }
        });
    }

    /// Fraction of `data` the vote gets wrong (a tie predicts −1).
    pub fn error_rate<T: Examples, D: Examples>(&self, train: &T, data: &D) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let mut v = vec![0.0; data.len()];
        self.votes(train, data, &mut v);
        let wrong = v.iter().enumerate().filter(|&(i, &s)| (if s > 0.0 { 1.0 } else { -1.0 }) != data.label(i)).count();
        wrong as f64 / data.len() as f64
    }
}
