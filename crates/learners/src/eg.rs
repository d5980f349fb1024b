//! Exponentiated gradient (Kivinen & Warmuth 1997): unnormalised,
//! normalised on the simplex scaled to `‖w‖₁ = B`, and EG± for signed
//! weights.
//!
//! Every weight is a function of one cumulative exponent per coordinate,
//! `θ_i` (f64): unnormalised EG uses `w_i = w0·e^{θ_i}`, normalised EG
//! `w_i = B·e^{θ_i}/Z`, EG± `w_i = B·(e^{θ_i} − e^{−θ_i})/Z`. Exponents
//! never overflow (10^7 updates add at most 10^7·η·|x| to one), and weights
//! are formed as `e^{θ_i − c}` against a running shift `c`, so they never
//! overflow either; a weight far below the others may round to zero in a
//! sum but its `θ_i` is exact, so it can come back. `Z` is kept up to date
//! on the touched coordinates and recomputed exactly once as many
//! coordinates have been touched as there are features: O(nonzeros) per
//! update, amortised.
//!
//! A bias is learned as extra coordinates whose input is a constant `c`
//! (the rows' largest `|x_i|`, so that it lives on the features' scale):
//! one coordinate for EG±, whose weight takes either sign; a pair with
//! inputs `+c` and `−c` for the positive forms, whose weights are ≥ 0. The
//! bias shares the norm `B` with the weights: that is the algorithm on the
//! lifted rows `(x, c)` (or `(x, c, −c)`), and its bounds hold for them.

use crate::error::{LearnError, param};
use crate::learner::{OnlineLearner, Step};
use crate::loss::Loss;
use crate::memory::{StateVec, zeros};
use crate::model::LinearModel;
use rosenblatt_kernels::Row;

/// Exponents beyond `c ± SPAN` trigger a new shift.
const SPAN: f64 = 600.0;

/// `Z` and the terms are recomputed exactly after this many sweeps' worth
/// of touched coordinates. Each update rounds `Z` and a term once (about
/// 1e-16 relative), so 64 sweeps drift by about 1e-14 at most per
/// coordinate touched 64·d times; a renormalisation costs two exponentials
/// per feature, which every sweep (as first written) made as costly as the
/// updates themselves (SPEED.md#ftrl-proximal-and-eg).
const RENORMALIZE_AFTER: usize = 64;

/// One coordinate's `[θ_i, e^{θ_i − c}, e^{−θ_i − c}]`, on 32 bytes
/// aligned to 32: one cache line holds every cell it starts (unpadded, a
/// 24-byte cell straddled two lines one time in four, and the prefetch of
/// its start brought in only the first).
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Zeroable)]
#[repr(C, align(32))]
struct Cell([f64; 3]);

impl std::ops::Index<usize> for Cell {
    type Output = f64;
    #[inline(always)]
    fn index(&self, k: usize) -> &f64 {
        &self.0[k]
    }
}

impl std::ops::IndexMut<usize> for Cell {
    #[inline(always)]
    fn index_mut(&mut self, k: usize) -> &mut f64 {
        &mut self.0[k]
    }
}

/// How exponentiated-gradient weights are normalised.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EgForm {
    /// `w_i = w0·e^{θ_i}`, positive, unnormalised.
    Unnormalized {
        /// Initial weight (> 0).
        w0: f64,
    },
    /// `w_i = B·e^{θ_i}/Σ_j e^{θ_j}`: positive, on the simplex scaled to B.
    Simplex {
        /// `‖w‖₁` (> 0).
        b: f64,
    },
    /// EG±: `w_i = B·(e^{θ_i} − e^{−θ_i})/Σ_j (e^{θ_j} + e^{−θ_j})`.
    PlusMinus {
        /// `Σ (w⁺ + w⁻)` (> 0).
        b: f64,
    },
}

/// Exponentiated gradient on a named loss: `θ_i += η·g·y·x_i` when the
/// loss's (sub)gradient factor `g` is non-zero. Unnormalised weights grow
/// without bound if the data keeps pushing them (that is the algorithm);
/// the normalised forms stay on their simplex.
///
/// Each coordinate keeps its exponent `θ_i` exactly and its terms
/// `e^{θ_i − c}` (and `e^{−θ_i − c}` for EG±) alongside, updated by
/// multiplication with `e^{Δθ}`: a margin costs no exponential and an update
/// one per non-zero. Renormalisation recomputes the terms from `θ`, so
/// rounding in the products never accumulates past one sweep of the
/// features.
#[derive(Clone, Debug)]
pub struct ExponentiatedGradient {
    /// `[θ_i, e^{θ_i − c}, e^{−θ_i − c}]` per coordinate, side by side; the
    /// bias coordinates last.
    cells: StateVec<Cell>,
    /// The features (the cells past them are the bias's).
    dim: usize,
    /// The bias coordinates' constant input `c` (0: no bias).
    bias_input: f64,
    form: EgForm,
    eta: f64,
    loss: Loss,
    /// Shift `c` and `Z = Σ_j e^{θ_j − c}` (+ `e^{−θ_j − c}` for EG±).
    shift: f64,
    z: f64,
    touched: usize,
}

impl ExponentiatedGradient {
    /// A learner over `dim` features.
    pub fn new(dim: usize, form: EgForm, eta: f64, loss: Loss) -> Result<Self, LearnError> {
        if !(eta.is_finite() && eta > 0.0) {
            return Err(param("eta", eta, "a finite number > 0"));
        }
        let (EgForm::Unnormalized { w0: v } | EgForm::Simplex { b: v } | EgForm::PlusMinus { b: v }) = form;
        if !(v.is_finite() && v > 0.0) {
            return Err(param("scale", v, "a finite number > 0 (w0 or B)"));
        }
        let mut eg = ExponentiatedGradient {
            cells: zeros(dim)?,
            dim,
            bias_input: 0.0,
            form,
            eta,
            loss,
            shift: 0.0,
            z: 0.0,
            touched: 0,
        };
        eg.renormalize();
        Ok(eg)
    }

    /// The learner with a bias: coordinates of constant input `c` (> 0;
    /// the rows' largest `|x_i|` puts it on their scale) added to every row.
    pub fn with_bias(mut self, c: f64) -> Result<Self, LearnError> {
        if !(c.is_finite() && c > 0.0) {
            return Err(param("bias input", c, "a finite number > 0 (the rows' largest |x_i|)"));
        }
        let extra = if matches!(self.form, EgForm::PlusMinus { .. }) { 1 } else { 2 };
        // The features' cells as they are, the bias's zero (`Cell`'s default).
        let mut cells = zeros::<Cell>(self.dim + extra)?;
        cells[..self.dim].copy_from_slice(&self.cells[..self.dim]);
        self.cells = cells;
        self.bias_input = c;
        self.renormalize();
        Ok(self)
    }

    /// The bias coordinates as (cell, input) pairs.
    fn bias_entries(&self) -> impl Iterator<Item = (usize, f64)> + use<> {
        let (d, c) = (self.dim, self.bias_input);
        (d..self.cells.len()).map(move |i| (i, if i == d { c } else { -c }))
    }

    /// The terms of exponent `t` against the current shift.
    fn terms(&self, t: f64) -> (f64, f64) {
        match self.form {
            EgForm::Unnormalized { .. } => (t.exp(), 0.0),
            EgForm::Simplex { .. } => ((t - self.shift).exp(), 0.0),
            EgForm::PlusMinus { .. } => ((t - self.shift).exp(), (-t - self.shift).exp()),
        }
    }

    /// The largest exponent among the terms of `Z`: `θ_j` (simplex) or
    /// `|θ_j|` (EG±), so the largest term is 1 and `Z ≥ 1` after a
    /// renormalisation.
    fn exponent(&self, t: f64) -> f64 {
        if matches!(self.form, EgForm::PlusMinus { .. }) { t.abs() } else { t }
    }

    /// Recomputes the shift, every term and `Z` exactly from the exponents
    /// (O(d)).
    fn renormalize(&mut self) {
        let m = self.cells.iter().fold(f64::NEG_INFINITY, |a, c| a.max(self.exponent(c[0])));
        self.shift = if m.is_finite() { m } else { 0.0 };
        let mut z = 0.0;
        for k in 0..self.cells.len() {
            let (p, n) = self.terms(self.cells[k][0]);
            self.cells[k][1] = p;
            self.cells[k][2] = n;
            z += p + n;
        }
        self.z = z;
        self.touched = 0;
    }

    /// `w_i = scale · (e⁺ − e⁻)`: the factor, common to every coordinate.
    fn scale(&self) -> f64 {
        match self.form {
            EgForm::Unnormalized { w0 } => w0,
            EgForm::Simplex { b } | EgForm::PlusMinus { b } => b / self.z,
        }
    }

    fn margin64<R: Row>(&self, x: &R) -> f64 {
        let term = |i: usize, v: f64| (self.cells[i][1] - self.cells[i][2]) * v;
        let sum: f64 = (0..x.nnz())
            .map(|k| {
                let (i, v) = x.entry(k);
                term(i, f64::from(v))
            })
            .sum::<f64>()
            + self.bias_entries().map(|(i, v)| term(i, v)).sum::<f64>();
        self.scale() * sum
    }

    /// `θ_i += c·v` and its terms; returns the change in `Z`'s terms and
    /// the exponent that counts for the shift.
    #[inline(always)]
    fn step(&mut self, i: usize, cv: f64, plus_minus: bool) -> (f64, f64) {
        let f = cv.exp();
        let cell = &mut self.cells[i];
        let old = cell[1] + cell[2];
        cell[0] += cv;
        cell[1] *= f;
        if plus_minus {
            cell[2] /= f;
        }
        (cell[1] + cell[2] - old, if plus_minus { cell[0].abs() } else { cell[0] })
    }
}

impl OnlineLearner for ExponentiatedGradient {
    type Model = LinearModel;
    fn dim(&self) -> usize {
        self.dim
    }
    fn margin<R: Row>(&self, x: &R) -> f32 {
        self.margin64(x) as f32
    }
    const PREFETCH: bool = true;
    #[inline(always)]
    fn prefetch<R: Row>(&self, x: &R) {
        if crate::learner::worth_prefetching(size_of_val(&self.cells[..])) {
            x.prefetch_state(&self.cells);
        }
    }
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, _example: usize) -> Step {
        let ym = f64::from(y) * self.margin64(x);
        let g = self.loss.gradient_factor(ym as f32);
        if g == 0.0 {
            return Step { mistake: ym <= 0.0, updated: false };
        }
        // The exponent of a row that counts h times.
        let c = self.eta * (f64::from(g) * f64::from(h)) * f64::from(y);
        let normalized = !matches!(self.form, EgForm::Unnormalized { .. });
        let plus_minus = matches!(self.form, EgForm::PlusMinus { .. });
        let (mut dz, mut top) = (0.0, f64::NEG_INFINITY);
        for k in 0..x.nnz() {
            let (i, v) = x.entry(k);
            if v == 0.0 {
                continue;
            }
            let (d, t) = self.step(i, c * f64::from(v), plus_minus);
            dz += d;
            top = top.max(t);
        }
        for (i, v) in self.bias_entries() {
            let (d, t) = self.step(i, c * v, plus_minus);
            dz += d;
            top = top.max(t);
        }
        if normalized {
            self.z += dz;
            self.touched += x.nnz() + self.cells.len() - self.dim;
            // Z may also have shrunk far below 1 (the largest weights fell):
            // recompute before it loses precision.
            if top > self.shift + SPAN || self.touched >= RENORMALIZE_AFTER * self.cells.len() || self.z < 1e-100 {
                self.renormalize();
            }
        }
        Step { mistake: ym <= 0.0, updated: true }
    }
    fn model(&self) -> LinearModel {
        let s = self.scale();
        let bias: f64 = self.bias_entries().map(|(i, v)| (self.cells[i][1] - self.cells[i][2]) * v).sum();
        LinearModel {
            weights: self.cells[..self.dim].iter().map(|c| (s * (c[1] - c[2])) as f32).collect(),
            bias: (s * bias) as f32,
        }
    }
}

impl crate::state::Resume for ExponentiatedGradient {
    fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        // Saved as three f64 a cell, as before the padding.
        let mut flat: Vec<[f64; 3]> = self.cells.iter().map(|c| c.0).collect();
        f.f64s(flat.as_flattened_mut());
        self.cells.iter_mut().zip(flat).for_each(|(c, v)| c.0 = v);
        f.f64(&mut self.shift);
        f.f64(&mut self.z);
        let mut touched = self.touched as u64;
        f.u64(&mut touched);
        self.touched = touched as usize;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell sits inside one 64-byte cache line: 32 bytes, on a
    /// 32-byte boundary, in the learner's own vector too.
    #[test]
    fn a_cell_never_straddles_a_cache_line() {
        assert_eq!((size_of::<Cell>(), align_of::<Cell>()), (32, 32));
        let eg = ExponentiatedGradient::new(1000, EgForm::PlusMinus { b: 1.0 }, 0.1, Loss::Hinge).unwrap();
        assert!(eg.cells.iter().all(|c| (c as *const Cell as usize) % 64 + 32 <= 64));
    }
}
