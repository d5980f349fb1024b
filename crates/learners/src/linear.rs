//! The linear state shared by the Perceptron family and passive-aggressive:
//! weights, a bias (learned or fixed at zero), the margin, the additive
//! update, the Perceptron's step, and the state's layout for mixing —
//! written once here instead of once per learner.

use crate::error::{LearnError, param};
use crate::learner::Bias;
use crate::memory::{StateVec, zeros};
use crate::mix::{MixState, MixView, put, read, take};
use crate::model::LinearModel;
use rosenblatt_kernels::Row;

/// Perceptron hyper-parameters, checked by [`PerceptronParams::check`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerceptronParams {
    /// Step size η (> 0). It scales the weights and changes no prediction.
    pub eta: f32,
    /// Bias handling.
    pub bias: Bias,
}

impl Default for PerceptronParams {
    fn default() -> Self {
        PerceptronParams { eta: 1.0, bias: Bias::Explicit }
    }
}

impl PerceptronParams {
    /// Validates the parameters.
    pub fn check(self) -> Result<Self, LearnError> {
        if !(self.eta.is_finite() && self.eta > 0.0) {
            return Err(param("eta", self.eta, "a finite number > 0"));
        }
        Ok(self)
    }
}

/// Weights `w` and bias `b`; `w · x + b`.
#[derive(Clone, Debug)]
pub(crate) struct Linear {
    pub(crate) w: StateVec<f32>,
    /// A one-element array so it can travel with `w` as a slice.
    pub(crate) b: [f32; 1],
    /// Whether the bias learns (else it stays 0).
    pub(crate) bias: bool,
}

impl Linear {
    pub(crate) fn new(dim: usize, bias: Bias) -> Result<Self, LearnError> {
        Ok(Linear { w: zeros(dim)?, b: [0.0], bias: bias == Bias::Explicit })
    }

    #[inline(always)]
    pub(crate) fn margin<R: Row>(&self, x: &R) -> f32 {
        x.dot(&self.w) + self.b[0]
    }

    /// `w += a·x`, `b += a`.
    #[inline(always)]
    pub(crate) fn add<R: Row>(&mut self, x: &R, a: f32) {
        x.axpy(a, &mut self.w);
        if self.bias {
            self.b[0] += a;
        }
    }

    /// The Perceptron's step: on a mistake (`y·m ≤ 0`), `w += η·y·x`.
    #[inline(always)]
    pub(crate) fn perceptron_step<R: Row>(&mut self, x: &R, y: f32, eta: f32) -> bool {
        let mistake = y * self.margin(x) <= 0.0;
        if mistake {
            self.add(x, eta * y);
        }
        mistake
    }

    pub(crate) fn model(&self) -> LinearModel {
        LinearModel { weights: self.w.to_vec(), bias: self.b[0] }
    }

    /// Mixed as a mean: `[w, b]`.
    pub(crate) fn save(&self, out: &mut MixState) {
        put(&mut out.mean, &[&self.w, &self.b]);
        out.total.clear();
    }

    pub(crate) fn load(&mut self, s: &MixState) {
        take(&s.mean, &mut [&mut self.w, &mut self.b]);
    }
}

/// What [`Linear::save`] writes, read in place.
impl MixView for Linear {
    fn lens(&self) -> (usize, usize) {
        (self.w.len() + self.b.len(), 0)
    }
    fn mean_into(&self, at: usize, out: &mut [f64]) {
        read(&[&self.w, &self.b], at, out);
    }
    fn total_into(&self, _: usize, out: &mut [f64]) {
        debug_assert!(out.is_empty(), "a linear state has no totals");
    }
}

impl Linear {
    /// The weights and the bias, for [`crate::state::Resume`].
    pub(crate) fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        f.f32s(&mut self.w);
        f.f32s(&mut self.b);
    }
}
