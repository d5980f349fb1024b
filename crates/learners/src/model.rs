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
