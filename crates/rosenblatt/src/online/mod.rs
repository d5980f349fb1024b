//! The online trainer: a learner fed batch after batch by a program that
//! embeds the engine — the Python estimator's `fit` and `partial_fit`, the
//! C ABI's trainer — over rows it already holds: a borrowed CSR matrix
//! ([`CsrRows`]), a borrowed row-major dense matrix ([`DenseRows`]), or a
//! dataset's shards ([`ExamplesView`]).
//!
//! A batch's rows are checked once, where they come in (indices sorted,
//! unique and in range; values finite; labels valid for the classes), and
//! then read in place by the training loop: one instance per learner and
//! row type, behind a trait object crossed once per batch
//! ([`DynLearner`]). `rosenblatt train` runs on this trainer too (its
//! dataset's shards as one batch, with [`BatchHooks`] for its pass lines),
//! so the engine has one place where a learner's run is instantiated.
//!
//! Defaults derived from the data (EG's norm, PA's bias input, the
//! randomised classifier's `R`) are derived from the first batch. Batch
//! `b`'s order is drawn from the seed and `b` alone, so the same batches
//! in the same order give the same model on any number of threads. One
//! batch trained with [`Trainer::learn`] for `P` passes is `train` on the
//! same rows with the same seed and `P` passes, bit for bit.

mod dynamic;
mod rows;
mod together;

pub(crate) use dynamic::{Boxer, DynLearner, weights_of};
pub(crate) use rows::with_rows;
pub use rows::{CHECK_BLOCK, CsrRows, DenseRows, Rows};
pub use together::{learn_together, margins_into, predict_into};

use crate::error::Error;
use crate::model::{Model, ModelMeta, Training, Weights};
use rosenblatt_kernels::{DenseRow, Examples, SparseRow, check_indices};
use rosenblatt_learners::{
    AnyModel, Configured, DataFacts, HyperParams, LearnError, Learner, LinearModel, Mixable, Mixing, OneProcess,
    OnlineLearner, Order, ParallelOptions, PassReport, Resume, Scales, Team, TrainOptions, TrainReport, Visit, state,
    train_parallel, train_with,
};
use rosenblatt_loader::{ExamplesView, with_examples};

/// How a [`Trainer`] trains, besides the learner and its hyper-parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainerOptions {
    /// The seed of every batch's order and of randomised learners' draws.
    pub seed: u64,
    /// The order of each batch's rows (the batch Perceptron: sequential).
    pub order: Order,
    /// Parts trained in parallel within each batch and mixed after every
    /// pass (1: the sequential algorithm).
    pub parts: usize,
    /// How parts are weighted when mixed.
    pub mixing: Mixing,
}

impl Default for TrainerOptions {
    fn default() -> Self {
        TrainerOptions { seed: 0, order: Order::Chunks, parts: 1, mixing: Mixing::Uniform }
    }
}

/// What a batch's run tells its caller while it goes; every hook optional.
#[derive(Default)]
pub struct BatchHooks<'h> {
    /// After every pass: its report, and the model so far, made on demand.
    #[allow(clippy::type_complexity)]
    pub on_pass: Option<&'h mut dyn FnMut(&PassReport, &dyn Fn() -> AnyModel)>,
    /// Examples presented so far, at least every
    /// [`rosenblatt_learners::PROGRESS_EVERY`] examples and at every pass's
    /// end (from the threads that train).
    pub progress: Option<&'h (dyn Fn(u64) + Sync)>,
    /// The processes that train together (default: this one alone).
    pub team: Option<&'h dyn Team>,
}

/// A learner with its state, fed batch by batch; see the module docs.
pub struct Trainer {
    pub(crate) learner: Learner,
    pub(crate) params: HyperParams,
    dim: usize,
    pub(crate) classes: Vec<f64>,
    pub(crate) options: TrainerOptions,
    /// Scales recorded in a model this trainer resumes: its data-derived
    /// values are re-derived from them, not from the next batch.
    recorded: Option<Scales>,
    /// The model resumed from: it predicts until the next batch, when its
    /// state is restored into the learner.
    resumed: Option<Model>,
    inner: Option<Inner>,
    /// A kernel learner's run (they learn from one batch, whole).
    pub(crate) whole: Option<crate::whole::Whole>,
    pub(crate) training: Training,
}

struct Inner {
    configured: Configured,
    learner: Box<dyn DynLearner>,
    /// The model as of the last batch (none before the first).
    weights: Option<Weights>,
}

impl std::fmt::Debug for Trainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trainer")
            .field("learner", &self.learner)
            .field("dim", &self.dim)
            .field("classes", &self.classes)
            .field("batches", &self.training.batches)
            .finish_non_exhaustive()
    }
}

impl Trainer {
    /// A trainer for `learner` with the hyper-parameters `params` (the rest
    /// take their defaults at the first batch) over `dim` features. Binary
    /// learners take labels ±1 (`classes` = 2); the multi-class learners
    /// take class ids `0..classes`.
    pub(crate) fn new(
        learner: Learner,
        params: HyperParams,
        dim: usize,
        classes: usize,
        options: TrainerOptions,
    ) -> Result<Trainer, Error> {
        // The kernel learners that take ±1 and class ids alike train one
        // output per class over one support set.
        let classes = if learner.multiclass() || (learner.any_labels() && classes > 2) {
            if classes < 2 {
                return Err(Error::Input(format!("{learner} needs at least 2 classes, not {classes}")));
            }
            (0..classes).map(|c| c as f64).collect()
        } else if classes == 2 {
            vec![-1.0, 1.0]
        } else {
            return Err(Error::Input(format!(
                "{learner} is binary (labels ±1); {classes} classes need a multiclass- learner or one trainer per class"
            )));
        };
        if options.parts == 0 {
            return Err(Error::Input("parts = 0: give at least 1 part".into()));
        }
        if options.parts > 1 && !learner.mixes() {
            return Err(Error::Input(format!(
                "{learner} trains in one part (its state does not mix by averaging); use parts = 1"
            )));
        }
        let options = TrainerOptions {
            order: if learner.stops_when_separated() { Order::Sequential } else { options.order },
            ..options
        };
        let training = Training {
            order: options.order,
            seed: options.seed,
            parts: options.parts,
            mixing: (options.parts > 1).then_some(options.mixing),
            ..Training::default()
        };
        Ok(Trainer {
            learner,
            params,
            dim,
            classes,
            options,
            recorded: None,
            resumed: None,
            inner: None,
            whole: None,
            training,
        })
    }

    /// A trainer that continues `model`'s learner (its file must carry the
    /// learner's state: format version 3): its hyper-parameters, the
    /// values it derived from its data, its state and seed.
    pub fn resume(model: &Model) -> Result<Trainer, Error> {
        let t = &model.meta.training;
        let options = TrainerOptions { order: t.order, parts: t.parts.max(1), ..TrainerOptions::default() };
        Self::resume_with(model, TrainerOptions { mixing: t.mixing.unwrap_or(options.mixing), ..options })
    }

    /// [`Trainer::resume`] with `options` for the batches to come (the seed
    /// is always the model's).
    pub fn resume_with(model: &Model, options: TrainerOptions) -> Result<Trainer, Error> {
        let m = &model.meta;
        // A kernel model predicts; it learns no further (its learner trains
        // on one whole batch), so it needs no state.
        if model.state.is_none() && !m.learner.kernel() {
            return Err(Error::Input(
                "the model carries no learner state (written before format version 3); it predicts, but \
                 training cannot resume from it"
                    .into(),
            ));
        }
        let mut params = HyperParams::default();
        for &(p, _) in m.learner.params() {
            params.set(p, m.params.get(p.name()).copied());
        }
        let dim = usize::try_from(m.dim).map_err(|_| Error::Input(format!("dimension {} is too large", m.dim)))?;
        let options = TrainerOptions { seed: m.training.seed, ..options };
        let mut t = Trainer::new(m.learner, params, dim, m.classes.len(), options)?;
        let r = m.params.get("r").or_else(|| m.params.get("bias_input")).copied().unwrap_or(1.0);
        t.recorded = Some(Scales { max_norm: r, max_abs: m.params.get("bias_input").copied().unwrap_or(r) });
        t.training = m.training.clone();
        t.resumed = Some(model.clone());
        Ok(t)
    }

    /// The learner.
    pub fn learner(&self) -> Learner {
        self.learner
    }
    /// The dimension.
    pub fn dim(&self) -> usize {
        self.dim
    }
    /// The labels the model's outputs stand for: `[-1, 1]`, or the class ids.
    pub fn classes(&self) -> &[f64] {
        &self.classes
    }
    /// The parts each pass is cut into (1: the sequential algorithm).
    pub fn parts(&self) -> usize {
        self.options.parts
    }
    /// Batches learned from so far (a resumed model's included).
    pub fn batches(&self) -> u64 {
        self.training.batches
    }

    /// Learns from `rows` for `passes` passes (fractions allowed; the batch
    /// Perceptron stops early at a pass without mistakes). The first batch
    /// configures the learner: data-derived defaults come from it, and
    /// `passes × rows` is its planned number of steps.
    pub fn learn_passes(&mut self, rows: &Rows<'_>, passes: f64) -> Result<TrainReport, Error> {
        self.learn_with(rows, passes, BatchHooks::default())
    }

    /// Learns from `rows` for one pass ([`Trainer::learn_passes`]).
    pub fn learn(&mut self, rows: &Rows<'_>) -> Result<TrainReport, Error> {
        self.learn_passes(rows, 1.0)
    }

    /// [`Trainer::learn`], reporting through `hooks` as it goes.
    pub fn learn_with(&mut self, rows: &Rows<'_>, passes: f64, hooks: BatchHooks<'_>) -> Result<TrainReport, Error> {
        if self.learner.kernel() {
            self.check_batch(rows, passes)?;
            return crate::whole::learn(self, rows, passes, hooks);
        }
        let options = self.prepare(rows, passes)?;
        self.run(rows, &options, hooks)
    }

    /// What [`Trainer::learn_with`] does before it trains: the batch's
    /// checks and, on the first batch, the learner's configuration; returns
    /// the batch's options.
    fn prepare(&mut self, rows: &Rows<'_>, passes: f64) -> Result<TrainOptions, Error> {
        self.check_batch(rows, passes)?;
        if self.learner == Learner::VotedPerceptron && self.training.batches > 0 {
            return Err(Error::Input(
                "voted-perceptron learns from one batch: its model keeps its mistaken rows by their position in \
                 the batch (use averaged-perceptron to learn batch by batch)"
                    .into(),
            ));
        }
        if self.inner.is_none() {
            self.inner = Some(self.configure(rows, passes)?);
        }
        let b = self.training.batches;
        let seed = if b == 0 { self.options.seed } else { batch_seed(self.options.seed, b) };
        Ok(TrainOptions {
            passes,
            order: self.options.order,
            seed,
            stop_when_separated: self.learner.stops_when_separated(),
            first_pass: 0,
        })
    }

    /// A batch's checks: passes, dimension, rows, labels.
    fn check_batch(&self, rows: &Rows<'_>, passes: f64) -> Result<(), Error> {
        if !(passes.is_finite() && passes > 0.0) {
            return Err(Error::Input(format!("passes = {passes}: give a number > 0")));
        }
        if rows.dim() > self.dim {
            return Err(Error::Input(format!(
                "the rows have {} features; the trainer was made for {}",
                rows.dim(),
                self.dim
            )));
        }
        if rows.is_empty() {
            return Err(Error::Input("a batch of no rows".into()));
        }
        self.check_labels(rows)
    }

    /// A trainer whose learner `configured` is already configured (from a
    /// dataset, by `rosenblatt train`), over `dim` features with outputs
    /// `classes`; with `init`, the learner's state restored from it and
    /// checked against the rows it continues on.
    pub(crate) fn configured(
        configured: Configured,
        dim: usize,
        classes: Vec<f64>,
        options: TrainerOptions,
        init: Option<(&[u8], usize)>,
    ) -> Result<Trainer, Error> {
        let mut learner = configured.config.build(dim, Boxer)?;
        if let Some((state, rows)) = init {
            learner.restore(state, rows)?;
        }
        let training =
            Training { order: options.order, seed: options.seed, parts: options.parts, ..Training::default() };
        Ok(Trainer {
            learner: configured.learner,
            params: HyperParams::default(),
            dim,
            classes,
            options,
            recorded: None,
            resumed: None,
            inner: Some(Inner { configured, learner, weights: None }),
            whole: None,
            training,
        })
    }

    /// Runs the configured learner over `rows` as `options` says, then
    /// takes its model and counts the batch: the step [`Trainer::learn`]
    /// and `rosenblatt train` share.
    pub(crate) fn run(
        &mut self,
        rows: &Rows<'_>,
        options: &TrainOptions,
        hooks: BatchHooks<'_>,
    ) -> Result<TrainReport, Error> {
        let inner = self.inner.as_mut().ok_or_else(|| Error::Input("the trainer is not configured".into()))?;
        let par = ParallelOptions { parts: self.options.parts, mixing: self.options.mixing };
        let team = hooks.team.filter(|t| t.size() > 1);
        let report = inner.learner.learn(rows, options, &par, hooks)?;
        self.record(rows, options, report, team)
    }

    /// After the learner ran over `rows` as `options` says: takes its model
    /// and counts the batch.
    fn record(
        &mut self,
        rows: &Rows<'_>,
        options: &TrainOptions,
        report: TrainReport,
        team: Option<&dyn Team>,
    ) -> Result<TrainReport, Error> {
        let inner = self.inner.as_mut().ok_or_else(|| Error::Input("the trainer is not configured".into()))?;
        // Blocks are for data beyond memory: the voted Perceptron's copy of
        // its mistaken rows releases each block after use.
        let weights = inner.learner.weights(rows, options.order == Order::Blocks, team)?;
        if let Some((which, v)) = weights.first_non_finite() {
            return Err(Error::Input(format!(
                "training diverged: {which} is {v}; a smaller step size (eta) or features scaled to about 1 keep the weights finite"
            )));
        }
        inner.weights = Some(weights);
        self.training.count(rows.len(), options.passes, &report);
        self.training.separated_at = report.separated_at;
        Ok(report)
    }

    fn check_labels(&self, rows: &Rows<'_>) -> Result<(), Error> {
        let k = self.classes.len();
        let binary = self.classes == [-1.0, 1.0] && !self.learner.multiclass();
        let ok = |y: f32| if binary { y == 1.0 || y == -1.0 } else { y >= 0.0 && y.fract() == 0.0 && (y as usize) < k };
        let bad = with_rows!(rows, |e| (0..e.len()).map(|i| (i, e.label(i))).find(|&(_, y)| !ok(y)));
        if let Some((i, y)) = bad {
            let want = if binary { "±1".to_string() } else { format!("a class id in 0..{k}") };
            return Err(Error::Input(format!("row {i}: label {y} is not {want}")));
        }
        Ok(())
    }

    fn configure(&mut self, rows: &Rows<'_>, passes: f64) -> Result<Inner, Error> {
        let (scales, spread) = (std::cell::OnceCell::new(), std::cell::OnceCell::new());
        let recorded = self.recorded;
        let facts = DataFacts {
            dim: self.dim,
            classes: self.classes.len(),
            steps: (passes * rows.len() as f64).round() as u64,
            scales: &|| *scales.get_or_init(|| recorded.unwrap_or_else(|| rows.scales())),
            // A resumed model records no spread (its kernel's γ is in its
            // parameters): 0, as its recorded scales always said.
            spread: &|| *spread.get_or_init(|| if recorded.is_some() { 0.0 } else { rows.spread() }),
        };
        let configured = self.learner.configure(&self.params, &facts, self.options.seed)?;
        let mut learner = configured.config.build(self.dim, Boxer)?;
        if let Some(state) = self.resumed.take().and_then(|m| m.state) {
            learner.restore(&state, rows.len())?;
        }
        Ok(Inner { configured, learner, weights: None })
    }

    /// The model's weights as of the last batch (or as resumed), without
    /// the copy and state that [`Trainer::model`] makes.
    pub fn weights(&self) -> Option<&Weights> {
        if let Some(w) = &self.whole {
            return Some(&w.weights);
        }
        match (&self.inner, &self.resumed) {
            (Some(Inner { weights: Some(w), .. }), _) => Some(w),
            (_, Some(m)) => Some(&m.weights),
            _ => None,
        }
    }

    /// How each default derived from the data was chosen (after the first
    /// batch).
    pub fn notes(&self) -> &[String] {
        if let Some(w) = &self.whole {
            return &w.configured.notes;
        }
        self.inner.as_ref().map_or(&[], |i| &i.configured.notes)
    }

    /// The model as of the last batch, with the learner's whole state (to
    /// resume from); an error before the first batch.
    pub fn model(&mut self) -> Result<Model, Error> {
        if let Some(w) = &self.whole {
            return Ok(w.model(self));
        }
        let Some(inner @ Inner { weights: Some(_), .. }) = self.inner.as_mut() else {
            return self
                .resumed
                .clone()
                .ok_or_else(|| Error::Input("the trainer has learned from no batch yet".into()));
        };
        let meta = ModelMeta {
            learner: self.learner,
            params: inner.configured.params.iter().map(|&(k, v)| (k.to_string(), v)).collect(),
            dim: self.dim as u64,
            classes: self.classes.clone(),
            index_base: 0,
            training: self.training.clone(),
            hashing: None,
        };
        let weights = inner.weights.clone().expect("matched above");
        Ok(Model { meta, weights, state: Some(inner.learner.save()) })
    }

    /// The model as of the last batch and the learner's whole state,
    /// without copying either; an error before the first batch.
    pub(crate) fn into_model(self) -> Result<(Weights, Vec<u8>), Error> {
        match self.inner {
            Some(Inner { weights: Some(w), mut learner, .. }) => Ok((w, learner.save())),
            _ => Err(Error::Input("the trainer has learned from no batch yet".into())),
        }
    }

    /// The label and score of every row of `rows` into `labels` and
    /// `scores` (one each per row), in parallel, as of the last batch: the
    /// margin (linear), the vote (voted), the winning class's score
    /// (multi-class). Features beyond the trainer's dimension get weight 0.
    pub fn predict_into(&self, rows: &Rows<'_>, labels: &mut [f32], scores: &mut [f32]) -> Result<(), Error> {
        let Some(weights) = self.weights() else {
            return Err(Error::Input("the trainer has learned from no batch yet".into()));
        };
        predict_into(weights, &self.classes, rows, labels, scores)
    }
}

impl Trainer {
    /// The scores a model gives each row, one per output: 1 for a binary
    /// model, a score per class for a multi-class or kernel one (after the
    /// first batch).
    pub fn outputs(&self) -> usize {
        match self.weights() {
            Some(Weights::Kernel(m)) => m.outputs.count(),
            Some(Weights::Multiclass(m)) => m.bias.len(),
            _ => 1,
        }
    }

    /// Every output's score for every row of `rows`, row by row into `out`
    /// ([`Trainer::outputs`] per row): the margin (or vote) of a binary
    /// model, each class's margin (or vote) for a multi-class or kernel
    /// one — what a per-class decision function shows.
    pub fn outputs_into(&self, rows: &Rows<'_>, out: &mut [f32]) -> Result<(), Error> {
        let (n, c) = (rows.len(), self.outputs());
        if out.len() != n * c {
            return Err(Error::Input(format!("{} scores for {n} rows and {c} outputs", out.len())));
        }
        match self.weights() {
            None => Err(Error::Input("the trainer has learned from no batch yet".into())),
            Some(Weights::Kernel(m)) => {
                with_rows!(rows, |e| m.scores_into(e, out));
                Ok(())
            }
            Some(Weights::Multiclass(m)) => {
                with_rows!(rows, |e| {
                    for (i, o) in out.chunks_mut(c).enumerate() {
                        m.scores(&e.row(i), o);
                    }
                });
                Ok(())
            }
            Some(_) => self.predict_into(rows, &mut vec![0.0; n], out),
        }
    }
}

/// Batch `b`'s seed (b ≥ 1): SplitMix64's finaliser over (seed, b).
pub(crate) fn batch_seed(seed: u64, b: u64) -> u64 {
    let mut z = seed ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
