//! Passive-Aggressive (Crammer et al. 2006): on hinge loss `ℓ = max(0, 1 − y·m)`,
//! `w += τ·y·x` with `τ = ℓ/‖x‖²` (PA), `min(C, ℓ/‖x‖²)` (PA-I) or
//! `ℓ/(‖x‖² + 1/(2C))` (PA-II).

use crate::error::{LearnError, param};
use crate::learner::{Bias, OnlineLearner, Step};
use crate::linear::Linear;
use crate::mix::{MixState, MixView, Mixable};
use crate::model::LinearModel;
use rosenblatt_kernels::Row;

/// Which step size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PaVariant {
    /// `ℓ/‖x‖²`.
    Pa,
    /// `min(C, ℓ/‖x‖²)`.
    PaI {
        /// Aggressiveness (> 0).
        c: f32,
    },
    /// `ℓ/(‖x‖² + 1/(2C))`.
    PaII {
        /// Aggressiveness (> 0).
        c: f32,
    },
}

/// Passive-Aggressive classifier. With an explicit bias, `x` is treated as
/// lifted to `(x, β)` — `β = 1` unless [`PassiveAggressive::with_bias_input`]
/// says otherwise — so `‖x‖²` gains `β²` and the bias moves by `β²` times
/// the step.
#[derive(Clone, Debug)]
pub struct PassiveAggressive {
    s: Linear,
    variant: PaVariant,
    /// `β²`.
    beta_sq: f32,
}

impl PassiveAggressive {
    /// A zero learner over `dim` features.
    pub fn new(dim: usize, variant: PaVariant, bias: Bias) -> Result<Self, LearnError> {
        if let PaVariant::PaI { c } | PaVariant::PaII { c } = variant
            && !(c.is_finite() && c > 0.0)
        {
            return Err(param("C", c, "a finite number > 0"));
        }
        Ok(PassiveAggressive { s: Linear::new(dim, bias)?, variant, beta_sq: 1.0 })
    }

    /// Lifts rows to `(x, β)` rather than `(x, 1)`. `β = R = max ‖x‖` is the
    /// textbook lifting: the bias coordinate on the rows' own scale, so that
    /// the bias can move as fast as the weights.
    pub fn with_bias_input(mut self, beta: f64) -> Result<Self, LearnError> {
        if !(beta.is_finite() && beta > 0.0) {
            return Err(param("bias input", beta, "a finite number > 0"));
        }
        self.beta_sq = (beta * beta) as f32;
        Ok(self)
    }
}

impl OnlineLearner for PassiveAggressive {
    type Model = LinearModel;
    fn dim(&self) -> usize {
        self.s.w.len()
    }
    #[inline]
    fn margin<R: Row>(&self, x: &R) -> f32 {
        self.s.margin(x)
    }
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, _example: usize) -> Step {
        let ym = y * self.s.margin(x);
        let loss = 1.0 - ym;
        if loss <= 0.0 {
            return Step::default();
        }
        let sq = x.norm_sq() + if self.s.bias { self.beta_sq } else { 0.0 };
        let tau = match self.variant {
            _ if sq == 0.0 => 0.0,
            // The projection onto the row's constraint does not depend on
            // how much the row counts; PA-I and PA-II weigh its slack by
            // `h·C` (the cost-sensitive form of Crammer et al. 2006, §6).
            PaVariant::Pa => loss / sq,
            PaVariant::PaI { c } => (c * h).min(loss / sq),
            PaVariant::PaII { c } => loss / (sq + 1.0 / (2.0 * (c * h))),
        };
        x.axpy(tau * y, &mut self.s.w);
        if self.s.bias {
            self.s.b[0] += tau * y * self.beta_sq;
        }
        Step { mistake: ym <= 0.0, updated: tau != 0.0 }
    }
    fn model(&self) -> LinearModel {
        self.s.model()
    }
}

impl Mixable for PassiveAggressive {
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

impl crate::state::Resume for PassiveAggressive {
    fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        self.s.fields(f);
    }
}
