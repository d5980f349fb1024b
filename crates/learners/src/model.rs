//! Trained models as plain values: a linear classifier (weights and a
//! bias) and a multi-class one (a weight vector and bias per class). They
//! predict without any training state.

use crate::loss::Loss;
use rayon::prelude::*;
use rosenblatt_kernels::{Examples, Row};

/// `sign(w · x + b)`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearModel {
    /// The weights, one per feature.
    pub weights: Vec<f32>,
    /// The bias.
    pub bias: f32,
}

impl LinearModel {
    /// `w · x + b`. Panics if `x` has a larger dimension than the model.
    #[inline]
    pub fn margin<R: Row>(&self, x: &R) -> f32 {
        x.dot(&self.weights) + self.bias
    }

    /// +1 or −1 (a zero margin predicts −1).
    #[inline]
    pub fn predict<R: Row>(&self, x: &R) -> f32 {
        if self.margin(x) > 0.0 { 1.0 } else { -1.0 }
    }

    /// `σ(w · x + b)`: the probability of +1 for a logistic model.
    #[inline]
    pub fn probability<R: Row>(&self, x: &R) -> f64 {
        let m = f64::from(self.margin(x));
        if m >= 0.0 { 1.0 / (1.0 + (-m).exp()) } else { m.exp() / (1.0 + m.exp()) }
    }

    /// Mean log loss `ln(1 + e^(−y·m))` over the examples.
    pub fn log_loss<E: Examples>(&self, data: &E) -> f64 {
        self.mean_loss(data, Loss::Logistic)
    }

    /// Mean of `loss` at each example's margin `y·(w·x + b)`.
    pub fn mean_loss<E: Examples>(&self, data: &E, loss: Loss) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let total: f64 = (0..data.len())
            .into_par_iter()
            .with_min_len(1024)
            .map(|i| loss.value(f64::from(data.label(i)) * f64::from(self.margin(&data.row(i)))))
            .sum();
        total / data.len() as f64
    }

    /// Margins of every example into `out` (one per example), in parallel.
    pub fn margins<E: Examples>(&self, data: &E, out: &mut [f32]) {
        assert_eq!(out.len(), data.len(), "one output per example");
        out.par_chunks_mut(4096).enumerate().for_each(|(c, chunk)| {
            for (k, o) in chunk.iter_mut().enumerate() {
                *o = self.margin(&data.row(c * 4096 + k));
            }
        });
    }

    /// Fraction of examples whose label disagrees with the prediction.
    pub fn error_rate<E: Examples>(&self, data: &E) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let wrong: usize = (0..data.len())
            .into_par_iter()
            .with_min_len(1024)
            .filter(|&i| self.predict(&data.row(i)) != data.label(i))
            .count();
        wrong as f64 / data.len() as f64
    }
}

/// One weight vector (and bias) per class; predicts the highest score.
#[derive(Clone, Debug, PartialEq)]
pub struct MulticlassModel {
    /// Number of features.
    pub dim: usize,
    /// `classes × dim` weights, class by class.
    pub weights: Vec<f32>,
    /// One bias per class.
    pub bias: Vec<f32>,
}

/// Scores of every class for `x` into `out`: eight classes per pass over
/// the row (`Row::dot8`). `w` holds `out.len()` vectors of `dim` weights.
#[inline]
pub(crate) fn class_scores<R: Row>(w: &[f32], b: &[f32], dim: usize, x: &R, out: &mut [f32]) {
    let k = b.len();
    let mut c = 0;
    while c + 8 <= k {
        let ws: [&[f32]; 8] = std::array::from_fn(|j| &w[(c + j) * dim..(c + j + 1) * dim]);
        out[c..c + 8].copy_from_slice(&x.dot8(ws));
        c += 8;
    }
    for j in c..k {
        out[j] = x.dot(&w[j * dim..(j + 1) * dim]);
    }
    out.iter_mut().zip(b).for_each(|(o, b)| *o += b);
}

/// The first class with the highest score.
#[inline]
pub(crate) fn argmax(s: &[f32]) -> usize {
    let mut best = 0;
    for (c, &v) in s.iter().enumerate() {
        if v > s[best] {
            best = c;
        }
    }
    best
}

impl MulticlassModel {
    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.bias.len()
    }
    /// Every class's score for `x` into `out` (one per class).
    pub fn scores<R: Row>(&self, x: &R, out: &mut [f32]) {
        class_scores(&self.weights, &self.bias, self.dim, x, out)
    }
    /// The predicted class.
    pub fn predict<R: Row>(&self, x: &R) -> usize {
        let mut s = vec![0.0; self.classes()];
        self.scores(x, &mut s);
        argmax(&s)
    }
    /// The predicted class and its score for `x`; `scores` is scratch space
    /// of one entry per class.
    pub fn predict_scored<R: Row>(&self, x: &R, scores: &mut [f32]) -> (usize, f32) {
        self.scores(x, scores);
        let best = argmax(scores);
        (best, scores[best])
    }
    /// Fraction of examples whose class id label is not the prediction.
    pub fn error_rate<E: Examples>(&self, data: &E) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let wrong = (0..data.len())
            .into_par_iter()
            .with_min_len(256)
            .map_init(
                || vec![0.0; self.classes()],
                |s, i| usize::from(self.predict_scored(&data.row(i), s).0 as f32 != data.label(i)),
            )
            .sum::<usize>();
        wrong as f64 / data.len() as f64
    }
}
