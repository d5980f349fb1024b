//! The Averaged Perceptron: the Perceptron's updates, predicting with the
//! average of the weight vectors after every step (Freund & Schapire 1999),
//! kept in O(nonzeros) per mistake by lazy averaging.
//!
//! Within a segment of at most [`SEGMENT`] steps, `u` collects
//! `(τ − 1)·η·y·x` for a mistake at local step τ, so that the sum of the
//! segment's weight vectors is `L·w − u` (L steps). Segments are folded into
//! f64 sums, so that 10^8 steps average as accurately as 10^3: `u` never
//! holds more than one segment's worth.

use crate::error::LearnError;
use crate::learner::{OnlineLearner, Plan, Step};
use crate::model::LinearModel;
use crate::perceptron::{Bias, PerceptronParams};
use rosenblatt_kernels::Row;

/// Steps per averaging segment (then folded into f64).
pub const SEGMENT: u64 = 1 << 20;

/// The Averaged Perceptron.
#[derive(Clone, Debug)]
pub struct AveragedPerceptron {
    w: Vec<f32>,
    b: f32,
    u: Vec<f32>,
    ub: f32,
    sum: Vec<f64>,
    sum_b: f64,
    tau: u64,
    averaged: u64,
    step: u64,
    start: u64,
    last_half: bool,
    eta: f32,
    bias: bool,
}

impl AveragedPerceptron {
    /// A zero learner over `dim` features, averaging every step, or only the
    /// last half of the run with `last_half`.
    pub fn new(dim: usize, params: PerceptronParams, last_half: bool) -> Result<Self, LearnError> {
        let p = params.check()?;
        Ok(AveragedPerceptron {
            w: vec![0.0; dim],
            b: 0.0,
            u: vec![0.0; dim],
            ub: 0.0,
            sum: vec![0.0; dim],
            sum_b: 0.0,
            tau: 0,
            averaged: 0,
            step: 0,
            start: 0,
            last_half,
            eta: p.eta,
            bias: p.bias == Bias::Explicit,
        })
    }

    fn fold(&mut self) {
        let t = self.tau as f64;
        for ((s, &w), u) in self.sum.iter_mut().zip(&self.w).zip(self.u.iter_mut()) {
            *s += t * f64::from(w) - f64::from(*u);
            *u = 0.0;
        }
        self.sum_b += t * f64::from(self.b) - f64::from(self.ub);
        self.ub = 0.0;
        self.tau = 0;
    }

    /// The current (not averaged) weights.
    pub fn weights(&self) -> &[f32] {
        &self.w
    }
}

impl OnlineLearner for AveragedPerceptron {
    type Model = LinearModel;
    fn dim(&self) -> usize {
        self.w.len()
    }
    fn begin(&mut self, plan: &Plan) {
        self.start = if self.last_half { plan.steps / 2 } else { 0 };
    }
    #[inline]
    fn margin<R: Row>(&self, x: &R) -> f32 {
        x.dot(&self.w) + self.b
    }
    #[inline]
    fn learn<R: Row>(&mut self, x: &R, y: f32, _example: usize) -> Step {
        self.step += 1;
        let averaging = self.step > self.start;
        if averaging {
            self.tau += 1;
            self.averaged += 1;
        }
        let mistake = y * self.margin(x) <= 0.0;
        if mistake {
            let a = self.eta * y;
            if averaging {
                let c = (self.tau - 1) as f32 * a;
                x.axpy2(a, &mut self.w, c, &mut self.u);
                if self.bias {
                    self.ub += c;
                }
            } else {
                x.axpy(a, &mut self.w);
            }
            if self.bias {
                self.b += a;
            }
        }
        if self.tau == SEGMENT {
            self.fold();
        }
        Step { mistake, updated: mistake }
    }
    fn model(&self) -> LinearModel {
        if self.averaged == 0 {
            return LinearModel { weights: self.w.clone(), bias: self.b };
        }
        let (t, n) = (self.tau as f64, self.averaged as f64);
        let weights = self
            .sum
            .iter()
            .zip(&self.w)
            .zip(&self.u)
            .map(|((s, &w), &u)| ((s + t * f64::from(w) - f64::from(u)) / n) as f32)
            .collect();
        let bias = ((self.sum_b + t * f64::from(self.b) - f64::from(self.ub)) / n) as f32;
        LinearModel { weights, bias }
    }
}
