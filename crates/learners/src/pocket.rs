//! The pocket (Gallant 1990, for the Perceptron; here for any linear
//! learner): train as usual and keep the best vector seen so far by
//! empirical hinge risk on the training set. It watches the learner
//! through a wrapper, so it runs on the shared loop unchanged.

use crate::error::{LearnError, param};
use crate::learner::{OnlineLearner, Plan, Step};
use crate::loss::Loss;
use crate::model::LinearModel;
use crate::train::{TrainOptions, TrainReport, train};
use rosenblatt_kernels::{Examples, Row};

/// When the pocket evaluates the current vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PocketEvery {
    /// Every this many updates.
    Updates(u64),
    /// At the end of every pass.
    Pass,
}

/// The best vector seen, by empirical hinge risk on the training set, and
/// the last one.
#[derive(Clone, Debug, PartialEq)]
pub struct Pocket {
    /// The vector with the lowest risk at an evaluation.
    pub best: LinearModel,
    /// Its mean hinge loss.
    pub best_risk: f64,
    /// Updates made when it was taken.
    pub best_at_update: u64,
    /// The final vector's mean hinge loss.
    pub last_risk: f64,
    /// Evaluations made (the final vector included).
    pub evaluations: u32,
}

/// Trains like [`train`] and keeps the best vector so far (the "pocket"),
/// evaluated by mean hinge loss over `data` every `every` and at the end.
/// Each evaluation is a parallel pass over the data.
pub fn train_pocket<L: OnlineLearner<Model = LinearModel>, E: Examples>(
    learner: &mut L,
    data: &E,
    opts: &TrainOptions,
    every: PocketEvery,
) -> Result<(TrainReport, Pocket), LearnError> {
    if every == PocketEvery::Updates(0) {
        return Err(param("pocket interval", 0, "at least 1 update"));
    }
    let mut watch = Watch { learner, data, every, updates: 0, pocket: None };
    let report = train(&mut watch, data, opts)?;
    let last = watch.consider();
    let mut pocket = watch.pocket.expect("the final vector was evaluated");
    pocket.last_risk = last;
    Ok((report, pocket))
}

/// A learner under watch: every update counted, the vector evaluated when
/// `every` says.
struct Watch<'a, L, E> {
    learner: &'a mut L,
    data: &'a E,
    every: PocketEvery,
    updates: u64,
    pocket: Option<Pocket>,
}

impl<L: OnlineLearner<Model = LinearModel>, E: Examples> Watch<'_, L, E> {
    /// Evaluates the current vector, pockets it if it is the best so far,
    /// and returns its risk.
    fn consider(&mut self) -> f64 {
        let m = self.learner.model();
        let risk = m.mean_loss(self.data, Loss::Hinge);
        match &mut self.pocket {
            Some(p) => {
                p.evaluations += 1;
                if risk < p.best_risk {
                    (p.best, p.best_risk, p.best_at_update) = (m, risk, self.updates);
                }
            }
            None => {
                self.pocket = Some(Pocket {
                    best: m,
                    best_risk: risk,
                    best_at_update: self.updates,
                    last_risk: risk,
                    evaluations: 1,
                })
            }
        }
        risk
    }
}

impl<L: OnlineLearner<Model = LinearModel>, E: Examples> OnlineLearner for Watch<'_, L, E> {
    type Model = LinearModel;
    fn dim(&self) -> usize {
        self.learner.dim()
    }
    fn check_labels<D: Examples>(&self, data: &D) -> Result<(), LearnError> {
        self.learner.check_labels(data)
    }
    fn begin(&mut self, plan: &Plan) {
        self.learner.begin(plan)
    }
    fn margin<R: Row>(&self, x: &R) -> f32 {
        self.learner.margin(x)
    }
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, example: usize) -> Step {
        let s = self.learner.learn(x, y, h, example);
        if s.updated {
            self.updates += 1;
            if let PocketEvery::Updates(n) = self.every
                && self.updates.is_multiple_of(n)
            {
                self.consider();
            }
        }
        s
    }
    fn end_pass(&mut self) {
        self.learner.end_pass();
        if self.every == PocketEvery::Pass {
            self.consider();
        }
    }
    fn model(&self) -> LinearModel {
        self.learner.model()
    }
}
