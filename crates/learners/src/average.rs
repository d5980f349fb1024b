//! Lazy averaging: the sum of every weight vector a run passes through,
//! kept in O(nonzeros) per update, shared by the binary and multi-class
//! averaged Perceptrons.
//!
//! Within a segment of at most [`SEGMENT`] steps, `u` collects
//! `(τ − 1)·a·x` for an update `a·x` at local step τ, so that the sum of
//! the segment's weight vectors is `L·w − u` (L steps). Segments are folded
//! into f64 sums, so that 10^8 steps average as accurately as 10^3: `u`
//! never holds more than one segment's worth.

use crate::error::{LearnError, zeros};
use crate::learner::Plan;

/// Steps per averaging segment (then folded into f64).
pub const SEGMENT: u64 = 1 << 20;

/// Lazy averaging of weights `w` and biases `b` over the steps of a run (or
/// its last half), shared by the binary and multi-class averaged learners.
#[derive(Clone, Debug)]
pub(crate) struct LazyAverage {
    /// `Σ (τ − 1)·a·x` of this segment's updates, like `w`.
    pub(crate) u: Vec<f32>,
    /// The same for the biases.
    pub(crate) ub: Vec<f32>,
    sum: Vec<f64>,
    sum_b: Vec<f64>,
    tau: u64,
    averaged: u64,
    step: u64,
    start: u64,
    last_half: bool,
}

impl LazyAverage {
    /// For `n` weights and `nb` biases.
    pub(crate) fn new(n: usize, nb: usize, last_half: bool) -> Result<Self, LearnError> {
        Ok(LazyAverage {
            u: zeros(n)?,
            ub: vec![0.0; nb],
            sum: zeros(n)?,
            sum_b: vec![0.0; nb],
            tau: 0,
            averaged: 0,
            step: 0,
            start: 0,
            last_half,
        })
    }

    pub(crate) fn begin(&mut self, plan: &Plan) {
        self.start = if self.last_half { plan.steps / 2 } else { 0 };
    }

    /// Starts a step. Inside the averaging window it returns `τ − 1`, the
    /// factor of this step's update in `u`; before the window, `None`.
    #[inline(always)]
    pub(crate) fn tick(&mut self) -> Option<f32> {
        self.step += 1;
        if self.step <= self.start {
            return None;
        }
        self.tau += 1;
        self.averaged += 1;
        Some((self.tau - 1) as f32)
    }

    /// Ends a step: folds the segment into f64 when it is full.
    #[inline(always)]
    pub(crate) fn end_step(&mut self, w: &[f32], b: &[f32]) {
        if self.tau == SEGMENT {
            self.fold(w, b);
        }
    }

    /// The averaged weights and biases, or `None` before any averaged step.
    pub(crate) fn average(&self, w: &[f32], b: &[f32]) -> Option<(Vec<f32>, Vec<f32>)> {
        if self.averaged == 0 {
            return None;
        }
        let (t, n) = (self.tau as f64, self.averaged as f64);
        let avg = |s: &[f64], w: &[f32], u: &[f32]| -> Vec<f32> {
            s.iter().zip(w).zip(u).map(|((s, &w), &u)| ((s + t * f64::from(w) - f64::from(u)) / n) as f32).collect()
        };
        Some((avg(&self.sum, w, &self.u), avg(&self.sum_b, b, &self.ub)))
    }

    /// Folds the open segment into the f64 sums (so the state is `w`, the
    /// sums and the counts alone).
    pub(crate) fn fold(&mut self, w: &[f32], b: &[f32]) {
        let t = self.tau as f64;
        for (sum, (u, w)) in [(&mut self.sum, (&mut self.u, w)), (&mut self.sum_b, (&mut self.ub, b))] {
            for ((s, &w), u) in sum.iter_mut().zip(w).zip(u.iter_mut()) {
                *s += t * f64::from(w) - f64::from(*u);
                *u = 0.0;
            }
        }
        self.tau = 0;
    }

    /// Appends the sums and counts (accumulated across parts when mixing).
    pub(crate) fn save_totals(&mut self, w: &[f32], b: &[f32], total: &mut Vec<f64>) {
        self.fold(w, b);
        total.extend_from_slice(&self.sum);
        total.extend_from_slice(&self.sum_b);
        total.extend([self.averaged as f64, self.step as f64]);
    }

    /// Reads what `save_totals` wrote.
    pub(crate) fn load_totals(&mut self, total: &[f64]) {
        let (n, nb) = (self.sum.len(), self.sum_b.len());
        self.sum.copy_from_slice(&total[..n]);
        self.sum_b.copy_from_slice(&total[n..n + nb]);
        self.averaged = total[n + nb] as u64;
        self.step = total[n + nb + 1] as u64;
        self.u.iter_mut().chain(self.ub.iter_mut()).for_each(|u| *u = 0.0);
        self.tau = 0;
    }
}

impl LazyAverage {
    /// Every counter and sum, for [`crate::state::Resume`] (the window's
    /// start is set again by `begin`).
    pub(crate) fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        f.f32s(&mut self.u);
        f.f32s(&mut self.ub);
        f.f64s(&mut self.sum);
        f.f64s(&mut self.sum_b);
        for c in [&mut self.tau, &mut self.averaged, &mut self.step] {
            f.u64(c);
        }
    }
}
