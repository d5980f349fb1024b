//! The Perceptron (Rosenblatt 1958): on a mistake, `w += η·y·x`, `b += η·y`.

use crate::error::LearnError;
use crate::learner::{OnlineLearner, Step};
use crate::linear::{Linear, PerceptronParams};
use crate::mix::{MixState, MixView, Mixable};
use crate::model::LinearModel;
use rosenblatt_kernels::Row;

/// The online Perceptron.
#[derive(Clone, Debug)]
pub struct Perceptron {
    s: Linear,
    eta: f32,
}

impl Perceptron {
    /// A zero Perceptron over `dim` features.
    pub fn new(dim: usize, params: PerceptronParams) -> Result<Self, LearnError> {
        let p = params.check()?;
        Ok(Perceptron { s: Linear::new(dim, p.bias)?, eta: p.eta })
    }
    /// The current weights.
    pub fn weights(&self) -> &[f32] {
        &self.s.w
    }
    /// The current bias.
    pub fn bias(&self) -> f32 {
        self.s.b[0]
    }
}

impl OnlineLearner for Perceptron {
    type Model = LinearModel;
    fn dim(&self) -> usize {
        self.s.w.len()
    }
    #[inline]
    fn margin<R: Row>(&self, x: &R) -> f32 {
        self.s.margin(x)
    }
    #[inline]
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, _example: usize) -> Step {
        let mistake = self.s.perceptron_step(x, y, self.eta * h);
        Step { mistake, updated: mistake }
    }
    fn model(&self) -> LinearModel {
        self.s.model()
    }
}

impl Mixable for Perceptron {
    fn save_state(&mut self, out: &mut MixState) {
        self.s.save(out);
    }
    fn load_state(&mut self, s: &MixState) {
        self.s.load(s);
    }
    /// Mixed from `w` and `b` in place (nothing is kept lazily).
    fn ready_to_mix(&mut self, _: &mut MixState) {}
    fn mix_view<'a>(&'a self, _: &'a MixState) -> &'a dyn MixView {
        &self.s
    }
}

impl crate::state::Resume for Perceptron {
    fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        self.s.fields(f);
    }
}
