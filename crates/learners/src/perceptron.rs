//! The Perceptron (Rosenblatt 1958): on a mistake, `w += η·y·x`, `b += η·y`.

use crate::error::{LearnError, param};
use crate::learner::{OnlineLearner, Step};
use crate::model::LinearModel;
use rosenblatt_kernels::Row;

/// How the threshold is learned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bias {
    /// No bias: the separator passes through the origin (lift the rows with
    /// [`crate::Lifted`] to learn one as a weight).
    None,
    /// An explicit bias term updated with the weights.
    #[default]
    Explicit,
}

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

/// The online Perceptron.
#[derive(Clone, Debug)]
pub struct Perceptron {
    w: Vec<f32>,
    b: f32,
    eta: f32,
    bias: bool,
}

impl Perceptron {
    /// A zero Perceptron over `dim` features.
    pub fn new(dim: usize, params: PerceptronParams) -> Result<Self, LearnError> {
        let p = params.check()?;
        Ok(Perceptron { w: vec![0.0; dim], b: 0.0, eta: p.eta, bias: p.bias == Bias::Explicit })
    }
    /// The current weights.
    pub fn weights(&self) -> &[f32] {
        &self.w
    }
    /// The current bias.
    pub fn bias(&self) -> f32 {
        self.b
    }
}

impl OnlineLearner for Perceptron {
    type Model = LinearModel;
    fn dim(&self) -> usize {
        self.w.len()
    }
    #[inline]
    fn margin<R: Row>(&self, x: &R) -> f32 {
        x.dot(&self.w) + self.b
    }
    #[inline]
    fn learn<R: Row>(&mut self, x: &R, y: f32, _example: usize) -> Step {
        if y * self.margin(x) > 0.0 {
            return Step::default();
        }
        let a = self.eta * y;
        x.axpy(a, &mut self.w);
        if self.bias {
            self.b += a;
        }
        Step { mistake: true, updated: true }
    }
    fn model(&self) -> LinearModel {
        LinearModel { weights: self.w.clone(), bias: self.b }
    }
}

impl crate::parallel::Mixable for Perceptron {
    fn save_state(&mut self, out: &mut crate::MixState) {
        crate::parallel::put(&mut out.mean, &[&self.w, &[self.b]]);
        out.total.clear();
    }
    fn load_state(&mut self, s: &crate::MixState) {
        let mut b = [0.0];
        crate::parallel::take(&s.mean, &mut [&mut self.w, &mut b]);
        self.b = b[0];
    }
}
