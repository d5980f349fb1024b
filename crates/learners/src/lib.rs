//! The learning algorithms. Each learner holds its state, gives a margin for
//! a row and updates from (row, label) through [`OnlineLearner`]; the loop
//! around it (order, passes, mistake counting) is [`train`], written once for
//! all of them. A trained model is a plain value ([`LinearModel`],
//! [`VotedModel`]) that predicts without the training state.
//!
//! Learners read rows through [`rosenblatt_kernels::Row`] and datasets
//! through [`rosenblatt_kernels::Examples`]: they never parse, never allocate
//! per row and never re-check indices, and they do not depend on the loader.
//!
//! | learner | type |
//! |---|---|
//! | Perceptron (online, and batch with [`TrainOptions::stop_when_separated`]) | [`Perceptron`] |
//! | Averaged Perceptron (lazy averaging, whole run or last half) | [`AveragedPerceptron`] |
//! | Voted Perceptron (Freund & Schapire 1999) | [`VotedPerceptron`] |
//! | multi-class Perceptron, plain or averaged | [`MulticlassPerceptron`] |
//! | one-vs-rest over any binary learner, classes in parallel | [`one_vs_rest`] |
//! | gradient descent on the hinge, perceptron or logistic loss; Pegasos | [`Sgd`] |
//! | Passive-Aggressive: PA, PA-I, PA-II | [`PassiveAggressive`] |
//! | Winnow; exponentiated gradient (unnormalised, simplex, EG±) | [`Winnow`], [`ExponentiatedGradient`] |
//! | FTRL-Proximal (per-coordinate rates, L1/L2); the randomised FTRL classifier | [`FtrlProximal`], [`RandomizedFtrl`] |
//!
//! The bias is an explicit term ([`Bias::Explicit`]) or a lifted constant
//! feature ([`Lifted`], [`LiftedExamples`]); the two agree.

mod averaged;
mod bounds;
mod error;
mod examples;
mod ftrl;
mod learner;
mod model;
mod multiclass;
mod multiplicative;
mod pa;
mod parallel;
mod perceptron;
mod sgd;
mod train;
mod voted;

pub use averaged::AveragedPerceptron;
pub use bounds::{MistakeBounds, mistake_bounds};
pub use error::LearnError;
pub use examples::{InMemoryExamples, Lifted, LiftedExamples, Slice};
pub use ftrl::{FtrlParams, FtrlProximal, RandomizedFtrl, max_norm};
pub use learner::{OnlineLearner, Plan, Step};
pub use model::LinearModel;
pub use multiclass::{MulticlassModel, MulticlassPerceptron, OneVsRest, combine, one_vs_rest};
pub use multiplicative::{EgForm, ExponentiatedGradient, Winnow};
pub use pa::{PaVariant, PassiveAggressive};
pub use parallel::{LocalReducer, MixState, Mixable, Mixing, ParallelOptions, Reducer, train_parallel};
pub use perceptron::{Bias, Perceptron, PerceptronParams};
pub use sgd::{Loss, Schedule, Sgd, SgdParams};
pub use train::{
    BLOCK_ROWS, Event, Order, PROGRESS_EVERY, PassReport, Pocket, PocketEvery, TrainOptions, TrainReport, train,
    train_pocket, train_with,
};
pub use voted::{VotedModel, VotedParts, VotedPerceptron, VotedPredictor};
