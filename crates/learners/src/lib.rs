//! The learning algorithms. Each learner holds its state, gives a margin for
//! a row and updates from (row, label) through [`OnlineLearner`]; the loop
//! around it (checks, order, passes, parts, mixing, mistake counting) is
//! written once ([`train`], [`train_parallel`]). A trained model is a plain
//! value ([`LinearModel`], [`MulticlassModel`], [`VotedModel`]) that
//! predicts without the training state.
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
//! [`Learner`] names them all, with their hyper-parameters and defaults,
//! and turns a name and user-given values into a typed [`Config`].
//!
//! The bias is an explicit term ([`Bias::Explicit`]) or a lifted constant
//! feature ([`Lifted`], [`LiftedExamples`]); the two agree.
//!
//! # Layers
//!
//! Modules depend only on those above them in this list, never below:
//!
//! 1. `error`, `loss`, `memory` — errors; loss functions; the state
//!    arrays (`StateVec`: zeroed, on a cache line, in 2 MB pages when
//!    large).
//! 2. `learner`, `model`, `sets` — the [`OnlineLearner`] trait and
//!    [`Bias`]; trained models; example sets and label checks.
//! 3. `mix`, `linear`, `defer`, `average` — mixing state and reducers;
//!    the linear state the Perceptron family and PA share; updates held
//!    back while their cells load; lazy averaging.
//! 4. the algorithms: `perceptron`, `averaged`, `voted`, `sgd`, `pa`,
//!    `multiclass`, `winnow`, `eg`, `ftrl`; `kernel`, the kernel
//!    Perceptrons (their own loop over blocks of examples); and `bounds`,
//!    the mistake-bound diagnostics.
//! 5. the drivers: `train` (the one outer loop, sequential and parallel),
//!    `pocket`, `ovr` (one-vs-rest); the learner table (`table`: every
//!    learner and its facts, declared once) over the parameter table
//!    (`params`); and `registry` (a learner and given values to a typed
//!    configuration, and that to a learner).
//!
//! The algorithms never import a driver.

mod average;
mod averaged;
mod bounds;
mod defer;
mod eg;
mod error;
mod ftrl;
mod kernel;
mod learner;
mod linear;
mod loss;
mod memory;
mod mix;
mod model;
mod multiclass;
mod ovr;
mod pa;
pub mod params;
mod perceptron;
mod pocket;
pub mod registry;
mod sets;
mod sgd;
mod sgd_state;
pub mod state;
pub mod table;
mod train;
mod voted;
mod winnow;

pub use average::SEGMENT;
pub use averaged::AveragedPerceptron;
pub use bounds::{MistakeBounds, mistake_bounds};
pub use eg::{EgForm, ExponentiatedGradient};
pub use error::LearnError;
pub use ftrl::{FtrlParams, FtrlProximal, RandomizedFtrl, Scales, max_norm, scales, scales_over, spread, spread_over};
pub use kernel::{
    BLOCK as KERNEL_BLOCK, CHUNK as KERNEL_CHUNK, Event, Kernel, KernelConfig, KernelForm, KernelModel, KernelParams,
    KernelPass, KernelTrainer, MAX_DIM as KERNEL_MAX_DIM, Outputs, best as kernel_best, train_kernel,
};
pub use learner::{Bias, OnlineLearner, Plan, Step};
pub use linear::PerceptronParams;
pub use loss::Loss;
pub use mix::{MixState, MixView, Mixable, Mixing, OneProcess, Team, failures, held, mix, rows_of};
pub use model::{LinearModel, MulticlassModel};
pub use multiclass::MulticlassPerceptron;
pub use ovr::{OneVsRest, Together, combine, one_vs_rest};
pub use pa::{PaVariant, PassiveAggressive};
pub use params::{Axis, DataFacts, HyperParams, Param, ParamDefault, ParamKind};
pub use perceptron::Perceptron;
pub use pocket::{Pocket, PocketEvery, train_pocket};
pub use registry::{AnyModel, Config, Configured, Visit};
pub use sets::{BLOCK_ROWS, InMemoryExamples, Lifted, LiftedExamples, Slice, Weighted, check_weights};
pub use sgd::{Schedule, Sgd, SgdParams};
pub use state::Resume;
pub use table::{Labels, Learner};
pub use train::{
    CHUNK_ROWS, Hooks, Order, PROGRESS_EVERY, ParallelOptions, PassReport, TrainOptions, TrainReport, WINDOW_CHUNKS,
    train, train_parallel, train_with,
};
pub use voted::{VotedModel, VotedParts, VotedPerceptron, VotedPredictor};
pub use winnow::Winnow;
