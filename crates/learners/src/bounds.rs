//! Mistake-bound diagnostics: how the Perceptron's online mistakes compare
//! with Novikoff's `(R/γ)²` and Freund & Schapire's `((R+D)/γ)²` for a
//! reference separator `u`.
//!
//! With a bias, rows are lifted to `(x, 1)` and `u` to `(w, b)`, as the
//! Perceptron with a bias is the Perceptron on lifted rows. `u` is
//! normalised to unit length.

use crate::model::LinearModel;
use rosenblatt_kernels::{Examples, Row};

/// The quantities of the two bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct MistakeBounds {
    /// `R = max ‖x‖` (of the lifted rows with a bias).
    pub r: f64,
    /// The margin of the unit-length reference: `min_t y_t·u·x_t` (negative
    /// when `u` does not separate the data).
    pub margin: f64,
    /// `(R/γ)²` with `γ = margin`, when the margin is positive.
    pub novikoff: Option<f64>,
    /// The γ at which the Freund–Schapire bound is smallest (of the
    /// candidates tried: the margin, and quantiles of the positive margins).
    pub gamma: f64,
    /// `D = (Σ max(0, γ − y_t·u·x_t)²)^½` at that γ.
    pub deficit: f64,
    /// `((R + D)/γ)²` at that γ.
    pub freund_schapire: f64,
}

/// The bounds for `data` (labels ±1) and reference `u`; `lifted` counts the
/// bias as a weight of a constant feature 1. `None` if no row has a positive
/// margin under `u` (no γ > 0 to speak of).
pub fn mistake_bounds<E: Examples>(data: &E, u: &LinearModel, lifted: bool) -> Option<MistakeBounds> {
    let bias = if lifted { f64::from(u.bias) } else { 0.0 };
    let norm = (u.weights.iter().map(|w| f64::from(*w).powi(2)).sum::<f64>() + bias * bias).sqrt();
    if norm == 0.0 || data.is_empty() {
        return None;
    }
    let mut r2 = 0.0f64;
    let mut margins = Vec::with_capacity(data.len());
    for i in 0..data.len() {
        let x = data.row(i);
        let mut dot = bias;
        let mut sq = if lifted { 1.0 } else { 0.0 };
        for k in 0..x.nnz() {
            let (j, v) = x.entry(k);
            let v = f64::from(v);
            dot += f64::from(u.weights[j]) * v;
            sq += v * v;
        }
        r2 = r2.max(sq);
        margins.push(f64::from(data.label(i)) * dot / norm);
    }
    let r = r2.sqrt();
    let margin = margins.iter().copied().fold(f64::INFINITY, f64::min);
    let mut positive: Vec<f64> = margins.iter().copied().filter(|&m| m > 0.0).collect();
    if positive.is_empty() {
        return None;
    }
    positive.sort_by(f64::total_cmp);
    let fs = |g: f64| {
        let d = margins.iter().map(|m| (g - m).max(0.0).powi(2)).sum::<f64>().sqrt();
        (((r + d) / g).powi(2), d)
    };
    let mut candidates: Vec<f64> = (1..=64).map(|q| positive[(positive.len() - 1) * q / 64]).collect();
    if margin > 0.0 {
        candidates.push(margin);
    }
    let (gamma, (freund_schapire, deficit)) = candidates
        .into_iter()
        .map(|g| (g, fs(g)))
        .min_by(|a, b| a.1.0.total_cmp(&b.1.0))
        .expect("at least one candidate");
    Some(MistakeBounds {
        r,
        margin,
        novikoff: (margin > 0.0).then(|| (r / margin).powi(2)),
        gamma,
        deficit,
        freund_schapire,
    })
}
