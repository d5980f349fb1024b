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

use crate::error::Error;
use crate::model::{Model, ModelMeta, Training, Weights};
use rosenblatt_kernels::{DenseRow, Examples, SparseRow, check_indices};
use rosenblatt_learners::{
    AnyModel, Configured, DataFacts, HyperParams, LearnError, Learner, LinearModel, Mixable, Mixing, OneProcess,
    OnlineLearner, Order, ParallelOptions, PassReport, Resume, Scales, Team, TrainOptions, TrainReport, Visit, state,
    train_parallel, train_with,
};
use rosenblatt_loader::{ExamplesView, with_examples};

/// Rows of a borrowed CSR matrix (zero-based `u32` column indices, `f32`
/// values), with a label per row or none (for prediction). Built only by
/// [`CsrRows::try_new`], which checks every row once; the kernels then read
/// them without further checks.
#[derive(Clone, Copy, Debug)]
pub struct CsrRows<'a> {
    dim: usize,
    indptr: &'a [u64],
    indices: &'a [u32],
    values: &'a [f32],
    labels: Option<&'a [f32]>,
}

impl<'a> CsrRows<'a> {
    /// `indptr.len() - 1` rows of dimension `dim`: row `i` holds
    /// `indices[indptr[i]..indptr[i + 1]]` and the same range of `values`.
    /// Refuses (naming the row) indices that are not strictly increasing
    /// within a row or not below `dim`, non-finite values, a malformed
    /// `indptr`, and labels of another length.
    pub fn try_new(
        dim: usize,
        indptr: &'a [u64],
        indices: &'a [u32],
        values: &'a [f32],
        labels: Option<&'a [f32]>,
    ) -> Result<Self, Error> {
        let bad = |what: String| Err(Error::Input(what));
        if dim > u32::MAX as usize {
            return bad(format!("dimension {dim} exceeds the 2^32 − 1 that u32 indices reach"));
        }
        let Some((&first, _)) = indptr.split_first() else {
            return bad("indptr is empty: it needs one entry more than there are rows".into());
        };
        let rows = indptr.len() - 1;
        if first != 0 {
            return bad(format!("indptr[0] is {first}, not 0"));
        }
        if indices.len() != values.len() {
            return bad(format!("{} indices but {} values", indices.len(), values.len()));
        }
        if indptr[rows] != indices.len() as u64 {
            return bad(format!("indptr ends at {}, but there are {} indices", indptr[rows], indices.len()));
        }
        if let Some(l) = labels
            && l.len() != rows
        {
            return bad(format!("{} labels for {rows} rows", l.len()));
        }
        if rows_fit(dim, indptr, indices) && bulk_valid(indices, values, boundary_descents(indptr, indices)) {
            return Ok(CsrRows { dim, indptr, indices, values, labels });
        }
        for i in 0..rows {
            let (s, e) = (indptr[i], indptr[i + 1]);
            if s > e {
                return bad(format!("row {i}: indptr decreases ({s} then {e})"));
            }
            if e > indices.len() as u64 {
                return bad(format!("row {i}: indptr[{}] is {e}, past the {} indices", i + 1, indices.len()));
            }
            let (s, e) = (s as usize, e as usize);
            check_indices(dim, &indices[s..e]).map_err(|err| Error::Input(format!("row {i}: {err}")))?;
            if let Some(k) = values[s..e].iter().position(|v| !v.is_finite()) {
                return bad(format!("row {i}: the value of feature {} is {}", indices[s + k], values[s + k]));
            }
        }
        Ok(CsrRows { dim, indptr, indices, values, labels })
    }
}

/// Entries per task of the check [`CsrRows::try_new`] and
/// [`DenseRows::try_new`] make of every entry, spread over the current
/// rayon pool: 1 MB of indices and values, large enough that a task's cost
/// dwarfs rayon's, small enough to spread a mini-batch over the pool. A
/// batch of no more entries is checked as one task: there is nothing for a
/// pool to share.
pub const CHECK_BLOCK: usize = 1 << 17;

/// Whether `indptr` (starting at 0 and ending at `indices.len()`) never
/// decreases, and the last index of each row is below `dim`: with indices
/// increasing within rows ([`bulk_valid`]), every index is then in range.
fn rows_fit(dim: usize, indptr: &[u64], indices: &[u32]) -> bool {
    indptr
        .windows(2)
        .all(|w| w[0] <= w[1] && (w[0] == w[1] || indices.get(w[1] as usize - 1).is_some_and(|&j| (j as usize) < dim)))
}

/// How many rows start with an index not above the last one of the row
/// before (the adjacent pairs of `indices` that cross a row boundary and do
/// not increase). `indptr` never decreases ([`rows_fit`]): the boundaries
/// are the starts of the non-empty rows after the first entry.
fn boundary_descents(indptr: &[u64], indices: &[u32]) -> u64 {
    indptr
        .windows(2)
        .filter(|w| w[0] < w[1] && w[0] > 0)
        .map(|w| u64::from(indices[w[0] as usize - 1] >= indices[w[0] as usize]))
        .sum()
}

/// Whether every value is finite and every adjacent pair of `indices`
/// increases except for `boundaries` pairs (those that cross a row
/// boundary and may not; `indices` is empty for dense rows). One pass over
/// both arrays, each block counted without a branch per entry (the
/// comparisons vectorise), the blocks spread over the current rayon pool:
/// a fit's check runs at memory speed; one block is counted on this thread
/// without rayon. On `false` the caller searches row by row to name the
/// culprit.
fn bulk_valid(indices: &[u32], values: &[f32], boundaries: u64) -> bool {
    use rayon::prelude::*;
    const EXPONENT: u32 = 0x7f80_0000;
    let next = indices.get(1..).unwrap_or_default();
    let pairs = next.len();
    let block = |b: usize| {
        let r = b * CHECK_BLOCK..((b + 1) * CHECK_BLOCK);
        let (lo, hi) = (r.start.min(pairs), r.end.min(pairs));
        let descents = indices[lo..hi].iter().zip(&next[lo..hi]).map(|(a, b)| u32::from(a >= b)).sum::<u32>();
        let (lo, hi) = (r.start.min(values.len()), r.end.min(values.len()));
        let infinite = values[lo..hi].iter().map(|v| u32::from(v.to_bits() & EXPONENT == EXPONENT)).sum::<u32>();
        (u64::from(descents), u64::from(infinite))
    };
    let blocks = values.len().max(pairs).div_ceil(CHECK_BLOCK);
    let (descents, infinite) = if blocks <= 1 {
        block(0)
    } else {
        (0..blocks).into_par_iter().map(block).reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    };
    descents == boundaries && infinite == 0
}

impl<'a> Examples for CsrRows<'a> {
    type Row = SparseRow<'a, u32, &'a [f32]>;
    fn len(&self) -> usize {
        self.indptr.len() - 1
    }
    fn dim(&self) -> usize {
        self.dim
    }
    #[inline]
    fn row(&self, i: usize) -> Self::Row {
        let (s, e) = (self.indptr[i] as usize, self.indptr[i + 1] as usize);
        // SAFETY: `try_new` checked that every row's indices are strictly
        // increasing and below `dim`, and that values and indices have the
        // same length; the slices are borrowed for 'a and cannot change.
        unsafe { SparseRow::new_unchecked(self.dim, &self.indices[s..e], &self.values[s..e]) }
    }
    #[inline]
    fn label(&self, i: usize) -> f32 {
        self.labels.map_or(0.0, |l| l[i])
    }
    /// The training loop asks for the next example's row ahead of time, as
    /// shards do: shuffled orders read rows at random.
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        if i + 1 < self.indptr.len() {
            let (s, e) = (self.indptr[i] as usize, self.indptr[i + 1] as usize);
            rosenblatt_kernels::prefetch(&self.indices[s..e]);
            rosenblatt_kernels::prefetch(&self.values[s..e]);
        }
    }
}

/// Rows of a borrowed row-major dense matrix: row `i` is
/// `values[i·dim..(i + 1)·dim]`.
#[derive(Clone, Copy, Debug)]
pub struct DenseRows<'a> {
    dim: usize,
    rows: usize,
    values: &'a [f32],
    labels: Option<&'a [f32]>,
}

impl<'a> DenseRows<'a> {
    /// `rows × dim` values, row by row. Refuses a length other than
    /// `rows·dim`, non-finite values (naming the row and column) and labels
    /// of another length.
    pub fn try_new(rows: usize, dim: usize, values: &'a [f32], labels: Option<&'a [f32]>) -> Result<Self, Error> {
        if rows.checked_mul(dim) != Some(values.len()) {
            return Err(Error::Input(format!("{} values for {rows} rows of {dim}", values.len())));
        }
        if let Some(l) = labels
            && l.len() != rows
        {
            return Err(Error::Input(format!("{} labels for {rows} rows", l.len())));
        }
        if !bulk_valid(&[], values, 0)
            && let Some(k) = values.iter().position(|v| !v.is_finite())
        {
            return Err(Error::Input(format!("row {}, column {}: the value is {}", k / dim, k % dim, values[k])));
        }
        Ok(DenseRows { dim, rows, values, labels })
    }
}

impl<'a> Examples for DenseRows<'a> {
    type Row = DenseRow<&'a [f32]>;
    fn len(&self) -> usize {
        self.rows
    }
    fn dim(&self) -> usize {
        self.dim
    }
    #[inline]
    fn row(&self, i: usize) -> Self::Row {
        DenseRow::new(&self.values[i * self.dim..(i + 1) * self.dim])
    }
    #[inline]
    fn label(&self, i: usize) -> f32 {
        self.labels.map_or(0.0, |l| l[i])
    }
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        if i < self.rows {
            rosenblatt_kernels::prefetch(&self.values[i * self.dim..(i + 1) * self.dim]);
        }
    }
}

/// A batch of rows in any of the forms the trainer reads in place.
#[derive(Clone, Debug)]
pub enum Rows<'a> {
    /// A borrowed CSR matrix.
    Csr(CsrRows<'a>),
    /// A borrowed dense matrix.
    Dense(DenseRows<'a>),
    /// A dataset's shards, in any encoding.
    View(ExamplesView<'a>),
}

/// Runs `$body` with `$ex` bound to the batch's rows as their own type.
macro_rules! with_rows {
    ($rows:expr, |$ex:ident| $body:expr) => {
        match $rows {
            Rows::Csr(c) => {
                let $ex = c;
                $body
            }
            Rows::Dense(d) => {
                let $ex = d;
                $body
            }
            Rows::View(v) => with_examples!(v, |$ex| $body),
        }
    };
}
pub(crate) use with_rows;

impl<'a> Rows<'a> {
    /// Borrowed CSR rows: zero-based row pointers `indptr` (one more than
    /// there are rows), column `indices` and `values`, `dim` features;
    /// checked once here (indices sorted, unique and below `dim`, values
    /// finite). Unlabelled: [`Rows::with_labels`] gives them labels.
    pub fn csr(indptr: &'a [u64], indices: &'a [u32], values: &'a [f32], dim: usize) -> Result<Rows<'a>, Error> {
        Ok(Rows::Csr(CsrRows::try_new(dim, indptr, indices, values, None)?))
    }

    /// Borrowed dense rows: `n_rows` rows of `dim` values, row after row;
    /// checked once here (values finite). Unlabelled.
    pub fn dense(values: &'a [f32], n_rows: usize, dim: usize) -> Result<Rows<'a>, Error> {
        Ok(Rows::Dense(DenseRows::try_new(n_rows, dim, values, None)?))
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        with_rows!(self, |e| e.len())
    }
    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The dimension.
    pub fn dim(&self) -> usize {
        with_rows!(self, |e| e.dim())
    }
    /// The same rows labelled `labels[i]` (one-vs-rest trainers share one
    /// checked batch, each with its own labels); refused unless there is
    /// one label per row.
    pub fn with_labels<'b>(&self, labels: &'b [f32]) -> Result<Rows<'b>, Error>
    where
        'a: 'b,
    {
        if labels.len() != self.len() {
            return Err(Error::Input(format!("{} labels for {} rows", labels.len(), self.len())));
        }
        Ok(match self {
            Rows::Csr(c) => Rows::Csr(CsrRows { labels: Some(labels), ..*c }),
            Rows::Dense(d) => Rows::Dense(DenseRows { labels: Some(labels), ..*d }),
            Rows::View(v) => Rows::View(v.with_labels(labels)),
        })
    }
    /// The labels as one slice: those of borrowed CSR or dense rows.
    fn labels(&self) -> Option<&[f32]> {
        match self {
            Rows::Csr(c) => c.labels,
            Rows::Dense(d) => d.labels,
            Rows::View(_) => None,
        }
    }
    /// Whether `self` and `other` borrow the same CSR or dense arrays
    /// (labels aside).
    fn same_rows(&self, other: &Rows<'_>) -> bool {
        fn same<T>(a: &[T], b: &[T]) -> bool {
            std::ptr::eq(a, b)
        }
        match (self, other) {
            (Rows::Csr(a), Rows::Csr(b)) => {
                a.dim == b.dim && same(a.indptr, b.indptr) && same(a.indices, b.indices) && same(a.values, b.values)
            }
            (Rows::Dense(a), Rows::Dense(b)) => (a.rows, a.dim) == (b.rows, b.dim) && same(a.values, b.values),
            _ => false,
        }
    }
    pub(crate) fn scales(&self) -> Scales {
        with_rows!(self, |e| rosenblatt_learners::scales(e))
    }
    pub(crate) fn spread(&self) -> f64 {
        with_rows!(self, |e| rosenblatt_learners::spread(e))
    }
}

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
    pub fn new(
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
        let passes = options.passes;
        let t = &mut self.training;
        t.batches += 1;
        t.examples += rows.len() as u64;
        t.passes += passes;
        t.passes_run += report.passes.len();
        t.mistakes += report.mistakes();
        t.updates += report.updates();
        t.mistakes_per_pass.extend(report.passes.iter().map(|p| p.mistakes));
        t.separated_at = report.separated_at;
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

/// The label and score of every row of `rows` under `weights` (outputs
/// `classes`) into `labels` and `scores`.
pub fn predict_into(
    weights: &Weights,
    classes: &[f64],
    rows: &Rows<'_>,
    labels: &mut [f32],
    scores: &mut [f32],
) -> Result<(), Error> {
    let n = rows.len();
    if labels.len() != n || scores.len() != n {
        return Err(Error::Input(format!("{} labels and {} scores for {n} rows", labels.len(), scores.len())));
    }
    let mut p = vec![crate::model::Prediction::default(); n];
    with_rows!(rows, |e| weights.predictions_into(classes, e, &mut p))?;
    for ((l, s), p) in labels.iter_mut().zip(scores.iter_mut()).zip(&p) {
        (*l, *s) = (p.label, p.score);
    }
    Ok(())
}

/// Rows per block of [`margins_into`].
const MARGIN_BLOCK: usize = 4096;

/// The margin `w·x + b` of every row of `rows` under each of `models`, row
/// by row into `out` (`out[i·k + c]` for model `c` of `k`): each row read
/// once for all the models (one-vs-rest's classes), each margin the bits
/// that model alone scores ([`Weights::Linear`]); features beyond a
/// model's dimension get weight 0. In blocks of rows over the current rayon
/// pool (one block on this thread).
pub fn margins_into(models: &[&LinearModel], rows: &Rows<'_>, out: &mut [f32]) -> Result<(), Error> {
    use rayon::prelude::*;
    let (n, k) = (rows.len(), models.len());
    if out.len() != n * k {
        return Err(Error::Input(format!("{} outputs for {n} rows and {k} models", out.len())));
    }
    if k == 0 {
        return Ok(());
    }
    let d = rows.dim();
    let padded: Vec<std::borrow::Cow<'_, LinearModel>> = models
        .iter()
        .map(|&m| {
            if d > m.weights.len() {
                let mut p = m.clone();
                p.weights.resize(d, 0.0);
                std::borrow::Cow::Owned(p)
            } else {
                std::borrow::Cow::Borrowed(m)
            }
        })
        .collect();
    with_rows!(rows, |e| {
        let score = |b: usize, chunk: &mut [f32]| {
            for (r, o) in chunk.chunks_mut(k).enumerate() {
                let x = e.row(b * MARGIN_BLOCK + r);
                o.iter_mut().zip(&padded).for_each(|(o, m)| *o = m.margin(&x));
            }
        };
        if n <= MARGIN_BLOCK {
            score(0, out);
        } else {
            out.par_chunks_mut(MARGIN_BLOCK * k).enumerate().for_each(|(b, chunk)| score(b, chunk));
        }
    });
    Ok(())
}

/// Trainers that learn from the same rows, trainer `k` from `rows[k]` (the
/// same rows, each with its own labels: one trainer per class, one-vs-rest),
/// each for `passes` passes, bit for bit as [`Trainer::learn`] one after
/// another would leave them. Binary learners of one kind, options and batch
/// count, in one part, over the same borrowed CSR or dense rows, learn
/// together when the `together` feature is on: each pass reads every row
/// once for all of them ([`rosenblatt_learners::Together`]) instead of once
/// per trainer. Others learn one after another. Returns each trainer's
/// report.
pub fn learn_together(
    trainers: &mut [&mut Trainer],
    rows: &[Rows<'_>],
    passes: f64,
) -> Result<Vec<TrainReport>, Error> {
    if rows.len() != trainers.len() {
        return Err(Error::Input(format!("{} batches for {} trainers", rows.len(), trainers.len())));
    }
    let Some((first, _)) = trainers.split_first() else { return Ok(Vec::new()) };
    let alike = |t: &Trainer| {
        (t.learner, t.options, t.training.batches) == (first.learner, first.options, first.training.batches)
    };
    let together = trainers.len() > 1
        && first.options.parts == 1
        && !first.learner.multiclass()
        && !first.learner.stops_when_separated()
        && trainers.iter().all(|t| alike(t))
        && rows.iter().all(|r| r.labels().is_some() && r.same_rows(&rows[0]));
    if !together {
        return trainers.iter_mut().zip(rows).map(|(t, r)| t.learn_passes(r, passes)).collect();
    }
    let options = trainers.iter_mut().zip(rows).map(|(t, r)| t.prepare(r, passes)).collect::<Result<Vec<_>, _>>()?;
    let labels: Vec<&[f32]> = rows.iter().filter_map(Rows::labels).collect();
    // Every trainer is configured now (`prepare`).
    let unconfigured = || Error::Input("the trainer is not configured".into());
    let mut learners = trainers
        .iter_mut()
        .map(|t| t.inner.as_mut().map(|i| &mut *i.learner).ok_or_else(unconfigured))
        .collect::<Result<Vec<&mut (dyn DynLearner + 'static)>, _>>()?;
    let (learner, others) = learners.split_first_mut().expect("more than one trainer");
    let reports = match learner.learn_together(others, &rows[0], &labels, &options[0]) {
        Some(reports) => reports?,
        // Not one learner type after all: one after another.
        None => {
            let runs = trainers.iter_mut().zip(rows).zip(&options);
            return runs.map(|((t, r), o)| t.run(r, o, BatchHooks::default())).collect();
        }
    };
    trainers.iter_mut().zip(rows).zip(reports).map(|((t, r), report)| t.record(r, &options[0], report, None)).collect()
}

/// Batch `b`'s seed (b ≥ 1): SplitMix64's finaliser over (seed, b).
fn batch_seed(seed: u64, b: u64) -> u64 {
    let mut z = seed ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A built learner behind the trait object the trainer holds: the one
/// boundary crossed per batch.
trait DynLearner: Send {
    fn learn(
        &mut self,
        rows: &Rows<'_>,
        options: &TrainOptions,
        par: &ParallelOptions,
        hooks: BatchHooks<'_>,
    ) -> Result<TrainReport, Error>;
    /// The model; the voted Perceptron copies its mistaken rows from `rows`
    /// (`releasing` each block of them after use).
    /// With a `team`, `rows` are this process's, and every process calls
    /// this (the voted Perceptron gathers its rows from all of them).
    fn weights(&self, rows: &Rows<'_>, releasing: bool, team: Option<&dyn Team>) -> Result<Weights, Error>;
    fn save(&mut self) -> Vec<u8>;
    /// Restores the state in `bytes`, checked against the `rows` training
    /// rows it continues on.
    fn restore(&mut self, bytes: &[u8], rows: usize) -> Result<(), Error>;
    #[cfg(feature = "together")]
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
    /// This learner and `others` learn together from one pass over `rows`
    /// per pass (in one part, no hooks), member `k` with `labels[k]` (this
    /// learner first); each one's report. `None` if an other is not of this
    /// learner's type, the rows are shards (whose labels are not one slice)
    /// or the `together` feature is off.
    fn learn_together(
        &mut self,
        _others: &mut [&mut (dyn DynLearner + 'static)],
        _rows: &Rows<'_>,
        _labels: &[&[f32]],
        _options: &TrainOptions,
    ) -> Option<Result<Vec<TrainReport>, Error>> {
        None
    }
}

/// A built learner, and for one whose state mixes, its run in parts (the
/// one thing the two kinds do differently; the trainer refuses parts > 1
/// for the others).
struct Built<L> {
    learner: L,
    in_parts: Option<InParts<L>>,
}

type InParts<L> = fn(
    &mut L,
    &Rows<'_>,
    &TrainOptions,
    &ParallelOptions,
    &dyn Team,
    rosenblatt_learners::Hooks<'_, L>,
) -> Result<TrainReport, LearnError>;

fn in_parts<L: Mixable>(
    l: &mut L,
    rows: &Rows<'_>,
    o: &TrainOptions,
    par: &ParallelOptions,
    team: &dyn Team,
    hooks: rosenblatt_learners::Hooks<'_, L>,
) -> Result<TrainReport, LearnError> {
    with_rows!(rows, |e| train_parallel(l, e, o, par, team, hooks))
}

/// `model` as weights that predict on their own (the voted Perceptron's
/// mistaken rows copied from `rows`, `releasing` each block after use).
pub(crate) fn weights_of<E: Examples>(model: AnyModel, rows: &E, releasing: bool) -> Weights {
    match model {
        AnyModel::Linear(m) => Weights::Linear(m),
        AnyModel::Multiclass(m) => Weights::Multiclass(m),
        AnyModel::Voted(v) if releasing => Weights::Voted(v.predictor_releasing(rows)),
        AnyModel::Voted(v) => Weights::Voted(v.predictor(rows)),
    }
}

impl<L> DynLearner for Built<L>
where
    L: OnlineLearner + Resume + Send + 'static,
    L::Model: Into<AnyModel>,
{
    fn learn(
        &mut self,
        rows: &Rows<'_>,
        o: &TrainOptions,
        par: &ParallelOptions,
        hooks: BatchHooks<'_>,
    ) -> Result<TrainReport, Error> {
        let BatchHooks { mut on_pass, progress, team } = hooks;
        let mut each = |l: &L, p: &PassReport| {
            if let Some(f) = on_pass.as_mut() {
                f(p, &|| l.model().into());
            }
        };
        let hooks = rosenblatt_learners::Hooks { on_pass: Some(&mut each), progress };
        Ok(match self.in_parts {
            Some(run) if par.parts > 1 || team.is_some() => {
                run(&mut self.learner, rows, o, par, team.unwrap_or(&OneProcess), hooks)
            }
            _ => with_rows!(rows, |e| train_with(&mut self.learner, e, o, hooks)),
        }?)
    }
    fn weights(&self, rows: &Rows<'_>, releasing: bool, team: Option<&dyn Team>) -> Result<Weights, Error> {
        Ok(match (self.learner.model().into(), team) {
            (AnyModel::Voted(v), Some(team)) => {
                let gathered = with_rows!(rows, |e| crate::cluster::gather_rows(team, e, v.distinct_rows()))?;
                Weights::Voted(v.predictor(&&gathered))
            }
            (model, _) => with_rows!(rows, |e| weights_of(model, e, releasing)),
        })
    }
    fn save(&mut self) -> Vec<u8> {
        state::save(&mut self.learner)
    }
    fn restore(&mut self, bytes: &[u8], rows: usize) -> Result<(), Error> {
        state::restore(&mut self.learner, bytes)?;
        Ok(self.learner.check_rows(rows)?)
    }
    #[cfg(feature = "together")]
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
    #[cfg(feature = "together")]
    fn learn_together(
        &mut self,
        others: &mut [&mut (dyn DynLearner + 'static)],
        rows: &Rows<'_>,
        labels: &[&[f32]],
        o: &TrainOptions,
    ) -> Option<Result<Vec<TrainReport>, Error>> {
        use rosenblatt_learners::Together;
        let mut members = vec![&mut self.learner];
        for other in others.iter_mut() {
            members.push(&mut other.as_any_mut().downcast_mut::<Built<L>>()?.learner);
        }
        let k = members.len();
        let mut together = Together::new(members, labels.to_vec());
        let all = match rows {
            Rows::Csr(c) => train_with(&mut together, c, o, rosenblatt_learners::Hooks::none()),
            Rows::Dense(d) => train_with(&mut together, d, o, rosenblatt_learners::Hooks::none()),
            Rows::View(_) => return None,
        };
        Some(all.map_err(Error::from).map(|all| {
            let member = |m: usize| TrainReport {
                passes: all
                    .passes
                    .iter()
                    .zip(together.passes(m))
                    .map(|(p, (mistakes, updates))| PassReport { mistakes, updates, ..*p })
                    .collect(),
                separated_at: all.separated_at,
            };
            (0..k).map(member).collect()
        }))
    }
}

/// Boxes the built learner.
struct Boxer;

impl Visit for Boxer {
    type Out = Box<dyn DynLearner>;
    fn mixable<L>(self, learner: L) -> Self::Out
    where
        L: Mixable + Resume + 'static,
        L::Model: Into<AnyModel>,
    {
        Box::new(Built { learner, in_parts: Some(in_parts::<L>) })
    }
    fn single<L>(self, learner: L) -> Self::Out
    where
        L: OnlineLearner + Resume + Send + 'static,
        L::Model: Into<AnyModel>,
    {
        Box::new(Built { learner, in_parts: None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same fast path on a batch of one block, which it counts
    /// without rayon: 1,000 rows of 0-9 increasing indices.
    #[test]
    fn the_one_block_check_says_yes_to_valid_rows_and_no_to_each_fault() {
        let (mut indptr, mut indices) = (vec![0u64], Vec::new());
        for r in 0..1000u32 {
            indices.extend((0..r % 10).map(|j| j * 7 + r % 3));
            indptr.push(indices.len() as u64);
        }
        assert!(indices.len() <= CHECK_BLOCK);
        let values = vec![0.25f32; indices.len()];
        let fast = |i: &[u32], v: &[f32]| rows_fit(70, &indptr, i) && bulk_valid(i, v, boundary_descents(&indptr, i));
        assert!(fast(&indices, &values));
        for k in [0, 1, indices.len() / 2, indices.len() - 1] {
            let mut v = values.clone();
            v[k] = f32::INFINITY;
            assert!(!fast(&indices, &v) && !bulk_valid(&[], &v, 0), "infinity at {k}");
            if !indptr.contains(&(k as u64)) {
                let mut i = indices.clone();
                i[k] = i[k - 1];
                assert!(!fast(&i, &values), "repeated index at {k}");
            }
        }
    }

    /// The fast path alone (the row-by-row search behind it would hide a
    /// fast path that says no to valid rows, or yes to a fault it missed):
    /// rows of every length across several blocks, including rows that
    /// start below where the row before them ended, then one fault at a
    /// time, at the blocks' edges and at random.
    #[test]
    fn the_bulk_check_says_yes_to_valid_rows_and_no_to_each_fault() {
        let mut state = 7u64;
        let mut next = |n: u64| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        let dim = 500usize;
        let (mut indptr, mut indices) = (vec![0u64], Vec::new());
        while indices.len() < 3 * CHECK_BLOCK {
            let mut row: Vec<u32> = (0..[0, 1, 3, 200][next(4) as usize]).map(|_| next(dim as u64) as u32).collect();
            row.sort_unstable();
            row.dedup();
            indices.extend(row);
            indptr.push(indices.len() as u64);
        }
        let values = vec![0.5f32; indices.len()];
        let fast = |i: &[u32], v: &[f32]| rows_fit(dim, &indptr, i) && bulk_valid(i, v, boundary_descents(&indptr, i));
        assert!(boundary_descents(&indptr, &indices) > 0);
        assert!(fast(&indices, &values));
        assert!(bulk_valid(&[], &values, 0));
        let mut places: Vec<usize> = (1..4).flat_map(|b| [b * CHECK_BLOCK - 1, b * CHECK_BLOCK]).collect();
        places.extend([0, indices.len() - 1]);
        places.extend((0..100).map(|_| next(indices.len() as u64) as usize));
        for k in places {
            let mut v = values.clone();
            v[k] = f32::NAN;
            assert!(!fast(&indices, &v) && !bulk_valid(&[], &v, 0), "NaN at {k}");
            let mut i = indices.clone();
            i[k] = dim as u32;
            assert!(!fast(&i, &values), "index {dim} at {k}");
            if !indptr.contains(&(k as u64)) {
                i[k] = i[k - 1];
                assert!(!fast(&i, &values), "repeated index at {k}");
            }
        }
    }
}
