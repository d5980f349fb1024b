//! The multi-class Perceptron: one weight vector per class; on a mistake,
//! add `x` to the true class's vector and subtract it from the predicted
//! class's. Plain, or averaged lazily like [`crate::AveragedPerceptron`].

use crate::average::LazyAverage;
use crate::error::{LearnError, param};
use crate::learner::{Bias, OnlineLearner, Plan, Step};
use crate::linear::PerceptronParams;
use crate::memory::{StateVec, zeros};
use crate::mix::{MixState, Mixable, put, take};
use crate::model::{MulticlassModel, argmax, class_scores};
use crate::sets::check_classes;
use rosenblatt_kernels::{Examples, Row};

/// The multi-class Perceptron, plain or averaged (lazily, as
/// [`crate::AveragedPerceptron`], over the whole run or its last half).
#[derive(Clone, Debug)]
pub struct MulticlassPerceptron {
    dim: usize,
    w: StateVec<f32>,
    b: Vec<f32>,
    eta: f32,
    bias: bool,
    scores: Vec<f32>,
    avg: Option<LazyAverage>,
}

impl MulticlassPerceptron {
    /// A zero learner over `dim` features and `classes` classes; `averaged`
    /// is `None` (plain), `Some(false)` (average every step) or
    /// `Some(true)` (average the last half).
    pub fn new(
        dim: usize,
        classes: usize,
        params: PerceptronParams,
        averaged: Option<bool>,
    ) -> Result<Self, LearnError> {
        let p = params.check()?;
        if classes < 2 {
            return Err(param("classes", classes, "at least 2"));
        }
        let n = classes.checked_mul(dim).ok_or_else(|| param("classes", classes, "classes × dim to fit memory"))?;
        Ok(MulticlassPerceptron {
            dim,
            w: zeros(n)?,
            b: vec![0.0; classes],
            eta: p.eta,
            bias: p.bias == Bias::Explicit,
            scores: vec![0.0; classes],
            avg: averaged.map(|last_half| LazyAverage::new(n, classes, last_half)).transpose()?,
        })
    }
}

impl OnlineLearner for MulticlassPerceptron {
    type Model = MulticlassModel;
    fn dim(&self) -> usize {
        self.dim
    }
    fn check_labels<E: Examples>(&self, data: &E) -> Result<(), LearnError> {
        check_classes(data, self.b.len())
    }
    fn begin(&mut self, plan: &Plan) {
        if let Some(a) = &mut self.avg {
            a.begin(plan);
        }
    }
    /// The margin of the true class over the best other class is not known
    /// without a label; this is the highest score.
    fn margin<R: Row>(&self, x: &R) -> f32 {
        let mut s = vec![0.0; self.b.len()];
        class_scores(&self.w, &self.b, self.dim, x, &mut s);
        s.iter().copied().fold(f32::NEG_INFINITY, f32::max)
    }
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, _example: usize) -> Step {
        let y = y as usize;
        class_scores(&self.w, &self.b, self.dim, x, &mut self.scores);
        let pred = argmax(&self.scores);
        let t = self.avg.as_mut().and_then(LazyAverage::tick);
        let mistake = pred != y;
        if mistake {
            let d = self.dim;
            let a = self.eta * h;
            for (class, a) in [(y, a), (pred, -a)] {
                let w = &mut self.w[class * d..(class + 1) * d];
                match (&mut self.avg, t) {
                    (Some(av), Some(t)) => {
                        av.add(x, a, w, t, class * d);
                        if self.bias {
                            av.ub[class] += t * a;
                        }
                    }
                    _ => x.axpy(a, w),
                }
                if self.bias {
                    self.b[class] += a;
                }
            }
        }
        if let Some(a) = &mut self.avg {
            a.end_step(&self.w, &self.b);
        }
        Step { mistake, updated: mistake }
    }
    fn end_pass(&mut self) {
        if let Some(a) = &mut self.avg {
            a.settle();
        }
    }
    fn model(&self) -> MulticlassModel {
        match self.avg.as_ref().and_then(|a| a.average(&self.w, &self.b)) {
            Some((weights, bias)) => MulticlassModel { dim: self.dim, weights, bias },
            None => MulticlassModel { dim: self.dim, weights: self.w.to_vec(), bias: self.b.clone() },
        }
    }
}

/// As for the binary learners: weights and biases mixed as means, the
/// averaging sums and counts accumulated.
impl Mixable for MulticlassPerceptron {
    fn save_state(&mut self, out: &mut MixState) {
        put(&mut out.mean, &[&self.w, &self.b]);
        out.total.clear();
        if let Some(a) = &mut self.avg {
            a.save_totals(&self.w, &self.b, &mut out.total);
        }
    }
    fn load_state(&mut self, s: &MixState) {
        take(&s.mean, &mut [&mut self.w, &mut self.b]);
        if let Some(a) = &mut self.avg {
            a.load_totals(&s.total);
        }
    }
}

impl crate::state::Resume for MulticlassPerceptron {
    fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        f.f32s(&mut self.w);
        f.f32s(&mut self.b);
        if let Some(a) = &mut self.avg {
            a.fields(f);
        }
    }
}
