//! The interface every online learner implements, and the small types it
//! speaks in. Algorithms implement [`OnlineLearner`]; drivers call it.

use crate::error::LearnError;
use rosenblatt_kernels::{Examples, Row};

/// What one example did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// The prediction before the update was wrong (`y · margin ≤ 0`).
    pub mistake: bool,
    /// The state changed.
    pub updated: bool,
}

/// What the training loop is about to do, told to the learner first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Examples in the training set.
    pub examples: usize,
    /// Total steps (examples presented) over all passes.
    pub steps: u64,
}

/// How the threshold is learned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bias {
    /// No bias: the separator passes through the origin (lift the rows with
    /// [`crate::Lifted`] to learn one as a weight).
    None,
    /// An explicit bias term updated with the weights.
    #[default]
    Explicit,
}

/// An online learner: margin for a row, update from (row, label).
pub trait OnlineLearner {
    /// The trained model this learner produces.
    type Model;
    /// The dimension of the rows it takes.
    fn dim(&self) -> usize;
    /// Checks every label before training (binary learners: ±1).
    fn check_labels<E: Examples>(&self, data: &E) -> Result<(), LearnError> {
        crate::sets::check_binary(data)
    }
    /// Called once before the first example.
    fn begin(&mut self, _plan: &Plan) {}
    /// `w · x + b` with the current state.
    fn margin<R: Row>(&self, x: &R) -> f32;
    /// Learns from example number `example` of the training set, `x` with
    /// label `y` (±1, or a class id for multi-class learners) and
    /// importance `h` (> 0, finite): the row's update is scaled by `h` (a
    /// gradient step's loss gradient, the Perceptron family's `η·y·x`, EG's
    /// and Winnow's exponents, PA-I's and PA-II's `C`); step counts, step
    /// sizes' schedules and averaging stay per row, as scikit-learn's SGD
    /// and Vowpal Wabbit's plain updates have it. `h = 1` is the
    /// unweighted step bit for bit (a product with 1 is exact).
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, example: usize) -> Step;
    /// Whether the training loop should call [`OnlineLearner::prefetch`]
    /// for the row a few steps ahead. It pays where each step is long and
    /// the state large (FTRL-Proximal, EG±, AdaGrad and NAG steps over many
    /// features); for the Perceptron family the processor already overlaps
    /// the gathers, and the hints cost more than they save (SPEED.md#adagrads-step).
    const PREFETCH: bool = false;
    /// Starts loading the state `x` will touch (a hint).
    #[inline(always)]
    fn prefetch<R: Row>(&self, _x: &R) {}
    /// Called after every pass (also a partial last one).
    fn end_pass(&mut self) {}
    /// The model as of now.
    fn model(&self) -> Self::Model;
}

/// Whether per-row hints to load a learner's state pay, for `bytes` of
/// the state its steps touch: from 512 KB (a Zen 3's L2). Smaller state
/// stays in cache, and a hint per entry of a row that is already there
/// costs time (SPEED.md#adagrads-step). A hint changes no result.
#[inline]
pub(crate) fn worth_prefetching(bytes: usize) -> bool {
    bytes >= 512 << 10
}
