//! Online (sub)gradient descent on a named loss — hinge, perceptron, or
//! logistic — with a step schedule and optional L2 regularisation, and
//! Pegasos (the hinge loss, `η_t = 1/(λt)`, projection onto the ball of
//! radius `1/√λ`). Projection onto any ball is also available on its own.
//!
//! Sparse cost: the weights are `w = s·v`. Shrinking by `(1 − ηλ)` scales
//! `s` (O(1)); an update adds to `v` on the row's non-zeros; `‖v‖²` is kept
//! up to date from the margin already computed, so the projection is O(1)
//! too. A step is O(nonzeros) whatever the dimension; `v` is rescaled in
//! O(d) only when `s` drifts below 2^-60 (rare).

use crate::error::{LearnError, param};
use crate::learner::{Bias, OnlineLearner, Step};
use crate::loss::Loss;
use crate::mix::{MixState, Mixable, put, take};
use crate::model::LinearModel;
use rosenblatt_kernels::Row;

/// Step size at step `k` (0-based).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// `η0`.
    Constant,
    /// `η0 / (k + 1)`.
    InverseK,
    /// `η0 / √(k + 1)`.
    InverseSqrtK,
    /// Pegasos: `1 / (λ·(k + 1))` (η0 unused).
    Pegasos,
}

/// Parameters of [`Sgd`], checked by [`SgdParams::check`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgdParams {
    /// The loss.
    pub loss: Loss,
    /// The schedule.
    pub schedule: Schedule,
    /// η0 (> 0).
    pub eta0: f32,
    /// L2 strength λ (≥ 0; > 0 for Pegasos).
    pub lambda: f32,
    /// Project onto the ball of this radius after every step (Pegasos:
    /// `1/√λ`).
    pub radius: Option<f32>,
    /// Bias handling (the bias is not regularised or projected).
    pub bias: Bias,
}

impl Default for SgdParams {
    fn default() -> Self {
        SgdParams {
            loss: Loss::Hinge,
            schedule: Schedule::InverseSqrtK,
            eta0: 0.1,
            lambda: 0.0,
            radius: None,
            bias: Bias::Explicit,
        }
    }
}

impl SgdParams {
    /// Pegasos with strength λ.
    pub fn pegasos(lambda: f32) -> Self {
        let radius = Some(1.0 / lambda.sqrt());
        SgdParams { loss: Loss::Hinge, schedule: Schedule::Pegasos, eta0: 1.0, lambda, radius, bias: Bias::None }
    }

    /// Validates the parameters.
    pub fn check(self) -> Result<Self, LearnError> {
        if !(self.eta0.is_finite() && self.eta0 > 0.0) {
            return Err(param("eta0", self.eta0, "a finite number > 0"));
        }
        if !(self.lambda.is_finite() && self.lambda >= 0.0) {
            return Err(param("lambda", self.lambda, "a finite number >= 0"));
        }
        if self.schedule == Schedule::Pegasos && self.lambda <= 0.0 {
            return Err(param("lambda", self.lambda, "> 0 for Pegasos"));
        }
        if let Some(r) = self.radius
            && !(r.is_finite() && r > 0.0)
        {
            return Err(param("radius", r, "a finite number > 0"));
        }
        Ok(self)
    }
}

/// Online gradient descent.
#[derive(Clone, Debug)]
pub struct Sgd {
    v: Vec<f32>,
    s: f64,
    /// `‖v‖²`, kept exact enough by recomputing at every rescale.
    v_norm_sq: f64,
    b: f32,
    k: u64,
    p: SgdParams,
}

const RESCALE_BELOW: f64 = 1.0 / (1u64 << 60) as f64;

impl Sgd {
    /// A zero learner over `dim` features.
    pub fn new(dim: usize, params: SgdParams) -> Result<Self, LearnError> {
        Ok(Sgd { v: vec![0.0; dim], s: 1.0, v_norm_sq: 0.0, b: 0.0, k: 0, p: params.check()? })
    }

    fn eta(&self) -> f64 {
        let k = self.k as f64;
        let e0 = f64::from(self.p.eta0);
        match self.p.schedule {
            Schedule::Constant => e0,
            Schedule::InverseK => e0 / (k + 1.0),
            Schedule::InverseSqrtK => e0 / (k + 1.0).sqrt(),
            Schedule::Pegasos => 1.0 / (f64::from(self.p.lambda) * (k + 1.0)),
        }
    }

    /// Folds `s` into `v` (O(d)).
    fn rescale(&mut self) {
        let s = self.s as f32;
        self.v.iter_mut().for_each(|x| *x *= s);
        self.v_norm_sq = self.v.iter().map(|&x| f64::from(x) * f64::from(x)).sum();
        self.s = 1.0;
    }
}

impl OnlineLearner for Sgd {
    type Model = LinearModel;
    fn dim(&self) -> usize {
        self.v.len()
    }
    #[inline]
    fn margin<R: Row>(&self, x: &R) -> f32 {
        (self.s * f64::from(x.dot(&self.v))) as f32 + self.b
    }
    fn learn<R: Row>(&mut self, x: &R, y: f32, _example: usize) -> Step {
        let vx = f64::from(x.dot(&self.v));
        let m = (self.s * vx) as f32 + self.b;
        let ym = y * m;
        let eta = self.eta();
        self.k += 1;
        let lambda = f64::from(self.p.lambda);
        // Shrink first (the gradient of λ/2‖w‖² at the current w). Shrinking
        // changes s only, so v·x stays `vx` unless the shrink zeroes w (the
        // first Pegasos step, ηλ = 1).
        let mut vx = vx;
        if lambda > 0.0 {
            let f = 1.0 - eta * lambda;
            if f <= 0.0 {
                self.v.iter_mut().for_each(|x| *x = 0.0);
                self.v_norm_sq = 0.0;
                self.s = 1.0;
                vx = 0.0;
            } else {
                self.s *= f;
            }
        }
        let g = self.p.loss.gradient_factor(ym);
        let updated = g != 0.0;
        if updated {
            let c = eta * f64::from(g) * f64::from(y);
            let cv = c / self.s;
            // ‖v + cv·x‖² = ‖v‖² + 2cv·(v·x) + cv²‖x‖².
            self.v_norm_sq += 2.0 * cv * vx + cv * cv * f64::from(x.norm_sq());
            x.axpy(cv as f32, &mut self.v);
            if self.p.bias == Bias::Explicit {
                self.b += c as f32;
            }
        }
        if let Some(radius) = self.p.radius {
            let radius = f64::from(radius);
            let norm = self.s * self.v_norm_sq.max(0.0).sqrt();
            if norm > radius {
                self.s *= radius / norm;
            }
        }
        if self.s.abs() < RESCALE_BELOW {
            self.rescale();
        }
        Step { mistake: ym <= 0.0, updated }
    }
    fn model(&self) -> LinearModel {
        let s = self.s as f32;
        LinearModel { weights: self.v.iter().map(|&x| x * s).collect(), bias: self.b }
    }
}

/// The mixed state is the effective `w = s·v` (then `s = 1`), the bias, and
/// the step count `k` as a total, so the schedule decays with every part's
/// steps.
impl Mixable for Sgd {
    fn save_state(&mut self, out: &mut MixState) {
        let w = self.model();
        put(&mut out.mean, &[&w.weights, &[w.bias]]);
        out.total.clear();
        out.total.push(self.k as f64);
    }
    fn load_state(&mut self, s: &MixState) {
        let mut b = [0.0];
        take(&s.mean, &mut [&mut self.v, &mut b]);
        self.b = b[0];
        self.s = 1.0;
        self.v_norm_sq = self.v.iter().map(|&x| f64::from(x) * f64::from(x)).sum();
        self.k = s.total[0] as u64;
    }
}
