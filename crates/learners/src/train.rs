//! The training loop shared by every learner: the order examples come in,
//! how many passes (fractional ones too), and the online mistake count.

use crate::error::{LearnError, param};
use crate::learner::{OnlineLearner, Plan, Step};
use crate::model::LinearModel;
use crate::sgd::Loss;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rosenblatt_kernels::Examples;
use std::time::Instant;

/// How many rows ahead a shuffled or sampled pass prefetches.
const PREFETCH_AHEAD: usize = 8;

/// The order examples are presented in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// As stored, every pass.
    Sequential,
    /// A fresh seeded permutation every pass.
    #[default]
    Shuffle,
    /// `n` draws with replacement every pass.
    Sample,
    /// The shuffle for data larger than memory: the rows cut into blocks
    /// of [`BLOCK_ROWS`] consecutive rows, the blocks in a fresh seeded
    /// order every pass and each block's rows in a fresh seeded order; after
    /// a block, its rows are released ([`Examples::release`]), so that
    /// memory-mapped data keeps about one block resident.
    Blocks,
}

/// Rows per block of [`Order::Blocks`] (the generators' shard size: 51 MB
/// of MNIST-sized dense rows).
pub const BLOCK_ROWS: usize = 1 << 16;

/// Reorders `order` (the rows `base..base + order.len()`) into shuffled
/// blocks of [`BLOCK_ROWS`] and returns where each block ends in it.
pub(crate) fn shuffle_blocks(order: &mut [u32], base: u32, rng: &mut Xoshiro256PlusPlus) -> Vec<usize> {
    let n = order.len();
    let mut blocks: Vec<usize> = (0..n.div_ceil(BLOCK_ROWS)).collect();
    blocks.shuffle(rng);
    let (mut at, mut ends) = (0, Vec::with_capacity(blocks.len()));
    for b in blocks {
        let rows = b * BLOCK_ROWS..((b + 1) * BLOCK_ROWS).min(n);
        let chunk = &mut order[at..at + rows.len()];
        chunk.iter_mut().zip(rows.clone()).for_each(|(o, r)| *o = base + r as u32);
        chunk.shuffle(rng);
        at += rows.len();
        ends.push(at);
    }
    ends
}

/// Presents `order[..len]` like [`present`]; in blocks (`ends` from
/// [`shuffle_blocks`]), releasing each block's rows after it.
pub(crate) fn present_order<L: OnlineLearner, E: Examples>(
    learner: &mut L,
    data: &E,
    order: &[u32],
    len: usize,
    kind: Order,
    ends: &[usize],
    mut after: impl FnMut(&L, Step),
) {
    if kind != Order::Blocks {
        return present(learner, data, &order[..len], kind != Order::Sequential, after);
    }
    let mut start = 0;
    for &end in ends {
        let block = &order[start..end.min(len)];
        present(learner, data, block, true, &mut after);
        if let (Some(lo), Some(hi)) = (block.iter().min(), block.iter().max()) {
            data.release(*lo as usize..*hi as usize + 1);
        }
        if end >= len {
            break;
        }
        start = end;
    }
}

/// How to train.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainOptions {
    /// Passes over the data; a fraction runs the first part of the last
    /// pass's order (0.1 = the first tenth).
    pub passes: f64,
    /// Example order.
    pub order: Order,
    /// Seed of the order's random generator.
    pub seed: u64,
    /// Stop after a whole pass without a mistake (the batch Perceptron).
    pub stop_when_separated: bool,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions { passes: 1.0, order: Order::Shuffle, seed: 0, stop_when_separated: false }
    }
}

/// One pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassReport {
    /// Examples presented.
    pub examples: u64,
    /// Online mistakes (before each update).
    pub mistakes: u64,
    /// Updates made.
    pub updates: u64,
    /// Wall time.
    pub seconds: f64,
}

/// The whole run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// Every pass, in order.
    pub passes: Vec<PassReport>,
    /// With `stop_when_separated`: the 1-based pass that made no mistake,
    /// `None` if none did within the limit.
    pub separated_at: Option<usize>,
}

impl TrainReport {
    /// Online mistakes over the whole run.
    pub fn mistakes(&self) -> u64 {
        self.passes.iter().map(|p| p.mistakes).sum()
    }
    /// Updates over the whole run.
    pub fn updates(&self) -> u64 {
        self.passes.iter().map(|p| p.updates).sum()
    }
    /// Examples presented over the whole run.
    pub fn steps(&self) -> u64 {
        self.passes.iter().map(|p| p.examples).sum()
    }
}

/// Trains `learner` on `data` (labels as the learner requires: ±1 for
/// binary learners).
pub fn train<L: OnlineLearner, E: Examples>(
    learner: &mut L,
    data: &E,
    opts: &TrainOptions,
) -> Result<TrainReport, LearnError> {
    train_with(learner, data, opts, |_, _| {})
}

/// What the loop tells an observer of [`train_with`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// An update was made; the run's updates so far.
    Update(u64),
    /// A pass (possibly partial) ended, with its report.
    PassEnd(PassReport),
    /// Another [`PROGRESS_EVERY`] examples of the run were presented; the
    /// run's examples so far (for progress bars).
    Progress(u64),
}

/// How often (in examples) [`train_with`] reports [`Event::Progress`].
pub const PROGRESS_EVERY: u64 = 1 << 16;

/// [`train`], calling `on` after every update and at the end of every pass
/// (a no-op closure compiles away).
pub fn train_with<L: OnlineLearner, E: Examples, F: FnMut(&L, Event)>(
    learner: &mut L,
    data: &E,
    opts: &TrainOptions,
    mut on: F,
) -> Result<TrainReport, LearnError> {
    if data.is_empty() {
        return Err(LearnError::Empty);
    }
    // Total steps must count in a u64.
    if !(opts.passes.is_finite() && opts.passes > 0.0 && opts.passes * data.len() as f64 <= 9.0e18) {
        return Err(param("passes", opts.passes, "a finite number > 0 (passes × examples below 9e18)"));
    }
    if data.dim() > learner.dim() {
        return Err(LearnError::Dimension { data: data.dim(), learner: learner.dim() });
    }
    learner.check_labels(data)?;
    let n = data.len();
    let full = opts.passes.floor() as usize;
    let tail = ((opts.passes - full as f64) * n as f64).round() as usize;
    let steps = full as u64 * n as u64 + tail as u64;
    learner.begin(&Plan { examples: n, steps });

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(opts.seed);
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut report = TrainReport { passes: Vec::new(), separated_at: None };
    let total_passes = full + usize::from(tail > 0);
    let mut updates = 0u64;
    let mut presented = 0u64;
    for pass in 0..total_passes {
        let len = if pass < full { n } else { tail };
        let mut ends = Vec::new();
        match opts.order {
            Order::Sequential => {}
            Order::Shuffle => order.shuffle(&mut rng),
            Order::Sample => order.iter_mut().for_each(|o| *o = rng.random_range(0..n as u32)),
            Order::Blocks => ends = shuffle_blocks(&mut order, 0, &mut rng),
        }
        let start = Instant::now();
        let mut p = PassReport { examples: len as u64, mistakes: 0, updates: 0, seconds: 0.0 };
        present_order(learner, data, &order, len, opts.order, &ends, |learner, s| {
            p.mistakes += u64::from(s.mistake);
            p.updates += u64::from(s.updated);
            if s.updated {
                updates += 1;
                on(learner, Event::Update(updates));
            }
            presented += 1;
            if presented.is_multiple_of(PROGRESS_EVERY) {
                on(learner, Event::Progress(presented));
            }
        });
        learner.end_pass();
        p.seconds = start.elapsed().as_secs_f64();
        on(learner, Event::PassEnd(p));
        report.passes.push(p);
        if opts.stop_when_separated && len == n && p.mistakes == 0 {
            report.separated_at = Some(pass + 1);
            break;
        }
    }
    Ok(report)
}

/// Presents the examples `run` (indices into `data`) to `learner` once, in
/// that order, calling `after` with each step's outcome; `prefetch` asks
/// for the row [`PREFETCH_AHEAD`] steps ahead (out of order, the hardware
/// prefetcher cannot guess the next row).
#[inline(always)]
pub(crate) fn present<L: OnlineLearner, E: Examples>(
    learner: &mut L,
    data: &E,
    run: &[u32],
    prefetch: bool,
    mut after: impl FnMut(&L, Step),
) {
    for (k, &i) in run.iter().enumerate() {
        if prefetch && let Some(&ahead) = run.get(k + PREFETCH_AHEAD) {
            data.prefetch(ahead as usize);
        }
        let i = i as usize;
        let s = learner.learn(&data.row(i), data.label(i), i);
        after(learner, s);
    }
}

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
    let mut pocket: Option<Pocket> = None;
    let mut updates = 0u64;
    let consider = |m: LinearModel, at: u64, pocket: &mut Option<Pocket>| {
        let risk = m.mean_loss(data, Loss::Hinge);
        match pocket {
            Some(p) => {
                p.evaluations += 1;
                if risk < p.best_risk {
                    (p.best, p.best_risk, p.best_at_update) = (m, risk, at);
                }
            }
            None => {
                *pocket = Some(Pocket { best: m, best_risk: risk, best_at_update: at, last_risk: risk, evaluations: 1 })
            }
        }
        risk
    };
    let report = train_with(learner, data, opts, |l, e| match (e, every) {
        (Event::Update(u), PocketEvery::Updates(n)) => {
            updates = u;
            if u % n == 0 {
                consider(l.model(), u, &mut pocket);
            }
        }
        (Event::Update(u), PocketEvery::Pass) => updates = u,
        (Event::PassEnd(_), PocketEvery::Pass) => {
            consider(l.model(), updates, &mut pocket);
        }
        (Event::PassEnd(_), PocketEvery::Updates(_)) | (Event::Progress(_), _) => {}
    })?;
    let last = consider(learner.model(), updates, &mut pocket);
    let mut pocket = pocket.expect("the final vector was evaluated");
    pocket.last_risk = last;
    Ok((report, pocket))
}
