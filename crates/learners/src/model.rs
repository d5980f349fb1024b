//! A trained linear classifier: weights and a bias, nothing else.

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
        self.mean_loss(data, crate::sgd::Loss::Logistic)
    }

    /// Mean of `loss` at each example's margin `y·(w·x + b)`.
    pub fn mean_loss<E: Examples>(&self, data: &E, loss: crate::sgd::Loss) -> f64 {
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
