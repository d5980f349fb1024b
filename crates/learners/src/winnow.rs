//! Winnow (Littlestone 1988) for binary features: positive weights,
//! promoted or demoted multiplicatively on a mistake. Each weight is kept
//! as its exponent `θ_i` (`w_i = e^{θ_i}`, f64), and the decision is made
//! in log space, so no weight ever overflows.

use crate::error::{LearnError, param};
use crate::learner::{OnlineLearner, Step};
use crate::memory::{StateVec, zeros};
use crate::model::LinearModel;
use rosenblatt_kernels::{Examples, Row};

/// Winnow for binary features: positive weights starting at 1, predict +1
/// iff `Σ_{i: x_i = 1} w_i ≥ θ`; on a false negative multiply the active
/// weights by α, on a false positive divide them by α.
#[derive(Clone, Debug)]
pub struct Winnow {
    theta: StateVec<f64>,
    ln_alpha: f64,
    threshold: f64,
}

impl Winnow {
    /// Winnow over `dim` binary features with promotion factor `alpha` (> 1)
    /// and `threshold` (> 0; the textbook choice is `dim`).
    pub fn new(dim: usize, alpha: f64, threshold: f64) -> Result<Self, LearnError> {
        if !(alpha.is_finite() && alpha > 1.0) {
            return Err(param("alpha", alpha, "a finite number > 1"));
        }
        if !(threshold.is_finite() && threshold > 0.0) {
            return Err(param("threshold", threshold, "a finite number > 0"));
        }
        Ok(Winnow { theta: zeros(dim)?, ln_alpha: alpha.ln(), threshold })
    }

    /// The exponents of the active features: stored entries whose value is
    /// 1 (a dense row stores its zeros too).
    fn active<'a, R: Row>(&'a self, x: &'a R) -> impl Iterator<Item = usize> + 'a {
        (0..x.nnz()).map(|k| x.entry(k)).filter(|e| e.1 != 0.0).map(|e| e.0)
    }

    /// `ln(Σ_{active} w_i)`, computed stably; `-∞` for an empty row.
    fn log_sum<R: Row>(&self, x: &R) -> f64 {
        let m = self.active(x).map(|i| self.theta[i]).fold(f64::NEG_INFINITY, f64::max);
        if m == f64::NEG_INFINITY {
            return m;
        }
        m + self.active(x).map(|i| (self.theta[i] - m).exp()).sum::<f64>().ln()
    }
}

/// Binary rows: every stored value is 1.
fn check_binary_values<E: Examples>(data: &E) -> Result<(), LearnError> {
    for i in 0..data.len() {
        let x = data.row(i);
        if let Some(k) = (0..x.nnz()).find(|&k| !matches!(x.entry(k).1, 0.0 | 1.0)) {
            let (j, v) = x.entry(k);
            return Err(param(
                "feature value",
                format!("{v} (example {i}, feature {j})"),
                "0 or 1: Winnow needs binary features",
            ));
        }
    }
    Ok(())
}

impl OnlineLearner for Winnow {
    type Model = LinearModel;
    fn dim(&self) -> usize {
        self.theta.len()
    }
    fn check_labels<E: Examples>(&self, data: &E) -> Result<(), LearnError> {
        crate::sets::check_binary(data)?;
        check_binary_values(data)
    }
    /// `Σ w_i x_i − θ` (as f32; the decision itself is made in log space).
    fn margin<R: Row>(&self, x: &R) -> f32 {
        (self.log_sum(x).exp() - self.threshold) as f32
    }
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, _example: usize) -> Step {
        let positive = self.log_sum(x) >= self.threshold.ln();
        if positive == (y > 0.0) {
            return Step::default();
        }
        // α^h: the promotion of a row that counts h times.
        let d = if y > 0.0 { self.ln_alpha } else { -self.ln_alpha } * f64::from(h);
        for k in 0..x.nnz() {
            let (i, v) = x.entry(k);
            if v != 0.0 {
                self.theta[i] += d;
            }
        }
        Step { mistake: true, updated: true }
    }
    /// Weights `e^{θ_i}` and bias `−θ`: predicts as Winnow does (a margin of
    /// exactly 0 is +1 for Winnow, −1 for a `LinearModel`).
    fn model(&self) -> LinearModel {
        LinearModel { weights: self.theta.iter().map(|t| t.exp() as f32).collect(), bias: -self.threshold as f32 }
    }
}

impl crate::state::Resume for Winnow {
    fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        f.f64s(&mut self.theta);
    }
}
