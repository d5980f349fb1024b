//! Helpers shared by the learner tests.
#![allow(dead_code)]

use rosenblatt_kernels::{Examples, Row};
use rosenblatt_learners::{LearnError, OnlineLearner, Order, Plan, Step, TrainOptions};

/// Sequential order, `passes` passes.
pub fn seq(passes: f64) -> TrainOptions {
    TrainOptions { passes, order: Order::Sequential, seed: 0, stop_when_separated: false }
}

/// Records which examples were mistakes, around any learner.
pub struct Spy<L> {
    pub inner: L,
    pub mistakes: Vec<usize>,
}

impl<L> Spy<L> {
    pub fn new(inner: L) -> Self {
        Spy { inner, mistakes: Vec::new() }
    }
}

impl<L: OnlineLearner> OnlineLearner for Spy<L> {
    type Model = L::Model;
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn check_labels<E: Examples>(&self, data: &E) -> Result<(), LearnError> {
        self.inner.check_labels(data)
    }
    fn begin(&mut self, plan: &Plan) {
        self.inner.begin(plan)
    }
    fn margin<R: Row>(&self, x: &R) -> f32 {
        self.inner.margin(x)
    }
    fn learn<R: Row>(&mut self, x: &R, y: f32, e: usize) -> Step {
        let s = self.inner.learn(x, y, e);
        if s.mistake {
            self.mistakes.push(e);
        }
        s
    }
    fn model(&self) -> L::Model {
        self.inner.model()
    }
}
