//! Multi-class learning: the multi-class Perceptron (on a mistake, add `x`
//! to the true class's vector and subtract it from the predicted class's),
//! its averaged form, and one-vs-rest over any binary learner.

use crate::averaged::LazyAverage;
use crate::error::{LearnError, param};
use crate::learner::{OnlineLearner, Plan, Step};
use crate::model::LinearModel;
use crate::perceptron::{Bias, PerceptronParams};
use crate::train::{TrainOptions, TrainReport, train};
use rayon::prelude::*;
use rosenblatt_kernels::{Examples, Row};

/// One weight vector (and bias) per class; predicts the highest score.
#[derive(Clone, Debug, PartialEq)]
pub struct MulticlassModel {
    /// Number of features.
    pub dim: usize,
    /// `classes × dim` weights, class by class.
    pub weights: Vec<f32>,
    /// One bias per class.
    pub bias: Vec<f32>,
}

/// Scores of every class for `x` into `out`: eight classes per pass over
/// the row (`Row::dot8`).
fn scores<R: Row>(w: &[f32], b: &[f32], dim: usize, x: &R, out: &mut [f32]) {
    let k = b.len();
    let mut c = 0;
    while c + 8 <= k {
        let ws: [&[f32]; 8] = std::array::from_fn(|j| &w[(c + j) * dim..(c + j + 1) * dim]);
        out[c..c + 8].copy_from_slice(&x.dot8(ws));
        c += 8;
    }
    for j in c..k {
        out[j] = x.dot(&w[j * dim..(j + 1) * dim]);
    }
    out.iter_mut().zip(b).for_each(|(o, b)| *o += b);
}

/// The first class with the highest score.
fn argmax(s: &[f32]) -> usize {
    let mut best = 0;
    for (c, &v) in s.iter().enumerate() {
        if v > s[best] {
            best = c;
        }
    }
    best
}

impl MulticlassModel {
    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.bias.len()
    }
    /// Every class's score for `x` into `out` (one per class).
    pub fn scores<R: Row>(&self, x: &R, out: &mut [f32]) {
        scores(&self.weights, &self.bias, self.dim, x, out)
    }
    /// The predicted class.
    pub fn predict<R: Row>(&self, x: &R) -> usize {
        let mut s = vec![0.0; self.classes()];
        self.scores(x, &mut s);
        argmax(&s)
    }
    /// Fraction of examples whose class id label is not the prediction.
    pub fn error_rate<E: Examples>(&self, data: &E) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let wrong = (0..data.len())
            .into_par_iter()
            .with_min_len(256)
            .map_init(
                || vec![0.0; self.classes()],
                |s, i| {
                    self.scores(&data.row(i), s);
                    usize::from(argmax(s) as f32 != data.label(i))
                },
            )
            .sum::<usize>();
        wrong as f64 / data.len() as f64
    }
}

fn check_classes<E: Examples>(data: &E, k: usize) -> Result<(), LearnError> {
    let bad = |l: f32| !(l >= 0.0 && l.fract() == 0.0 && (l as usize) < k);
    match (0..data.len()).find(|&i| bad(data.label(i))) {
        Some(index) => Err(LearnError::NotAClass { index, label: data.label(index), classes: k }),
        None => Ok(()),
    }
}

/// The multi-class Perceptron, plain or averaged (lazily, as
/// [`crate::AveragedPerceptron`], over the whole run or its last half).
#[derive(Clone, Debug)]
pub struct MulticlassPerceptron {
    dim: usize,
    w: Vec<f32>,
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
            w: vec![0.0; n],
            b: vec![0.0; classes],
            eta: p.eta,
            bias: p.bias == Bias::Explicit,
            scores: vec![0.0; classes],
            avg: averaged.map(|last_half| LazyAverage::new(n, classes, last_half)),
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
        scores(&self.w, &self.b, self.dim, x, &mut s);
        s.iter().copied().fold(f32::NEG_INFINITY, f32::max)
    }
    fn learn<R: Row>(&mut self, x: &R, y: f32, _example: usize) -> Step {
        let y = y as usize;
        scores(&self.w, &self.b, self.dim, x, &mut self.scores);
        let pred = argmax(&self.scores);
        let t = self.avg.as_mut().and_then(LazyAverage::tick);
        let mistake = pred != y;
        if mistake {
            let d = self.dim;
            for (class, a) in [(y, self.eta), (pred, -self.eta)] {
                let w = &mut self.w[class * d..(class + 1) * d];
                match (&mut self.avg, t) {
                    (Some(av), Some(t)) => {
                        x.axpy2(a, w, t * a, &mut av.u[class * d..(class + 1) * d]);
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
    fn model(&self) -> MulticlassModel {
        match self.avg.as_ref().and_then(|a| a.average(&self.w, &self.b)) {
            Some((weights, bias)) => MulticlassModel { dim: self.dim, weights, bias },
            None => MulticlassModel { dim: self.dim, weights: self.w.clone(), bias: self.b.clone() },
        }
    }
}

/// One class against the rest: label +1 for `class`, −1 for every other.
#[derive(Clone, Copy, Debug)]
pub struct OneVsRest<'e, E> {
    /// The multi-class examples.
    pub data: &'e E,
    /// The positive class.
    pub class: f32,
}

impl<E: Examples> Examples for OneVsRest<'_, E> {
    type Row = E::Row;
    fn len(&self) -> usize {
        self.data.len()
    }
    fn dim(&self) -> usize {
        self.data.dim()
    }
    fn row(&self, i: usize) -> E::Row {
        self.data.row(i)
    }
    fn label(&self, i: usize) -> f32 {
        if self.data.label(i) == self.class { 1.0 } else { -1.0 }
    }
    fn prefetch(&self, i: usize) {
        self.data.prefetch(i)
    }
    fn release(&self, range: std::ops::Range<usize>) {
        self.data.release(range)
    }
}

/// Trains one binary learner per class (`make(class)` builds each), the
/// classes in parallel, each on the examples relabelled one-vs-rest.
/// Returns the per-class models (turn them into a [`MulticlassModel`] with
/// [`combine`]) and reports.
pub fn one_vs_rest<E, L, F>(
    data: &E,
    classes: usize,
    make: F,
    opts: &TrainOptions,
) -> Result<Vec<(L::Model, TrainReport)>, LearnError>
where
    E: Examples,
    L: OnlineLearner,
    L::Model: Send,
    F: Fn(usize) -> Result<L, LearnError> + Sync,
{
    check_classes(data, classes)?;
    (0..classes)
        .into_par_iter()
        .map(|c| {
            let mut l = make(c)?;
            let r = train(&mut l, &OneVsRest { data, class: c as f32 }, opts)?;
            Ok((l.model(), r))
        })
        .collect()
}

/// Per-class linear models as one multi-class model.
pub fn combine(models: &[LinearModel]) -> MulticlassModel {
    let dim = models.first().map_or(0, |m| m.weights.len());
    MulticlassModel {
        dim,
        weights: models.iter().flat_map(|m| m.weights.iter().copied()).collect(),
        bias: models.iter().map(|m| m.bias).collect(),
    }
}

/// As for the binary learners: weights and biases mixed as means, the
/// averaging sums and counts accumulated.
impl crate::parallel::Mixable for MulticlassPerceptron {
    fn save_state(&mut self, out: &mut crate::MixState) {
        crate::parallel::put(&mut out.mean, &[&self.w, &self.b]);
        out.total.clear();
        if let Some(a) = &mut self.avg {
            a.save_totals(&self.w, &self.b, &mut out.total);
        }
    }
    fn load_state(&mut self, s: &crate::MixState) {
        crate::parallel::take(&s.mean, &mut [&mut self.w, &mut self.b]);
        if let Some(a) = &mut self.avg {
            a.load_totals(&s.total);
        }
    }
}
