//! The drivers' one outer loop: checks, the plan, the order examples come
//! in, passes (fractional ones too), reports and progress — written once
//! for sequential training ([`train`], [`train_with`]) and for parallel
//! training by iterative parameter mixing ([`train_parallel`]; McDonald,
//! Hall & Mann 2010).
//!
//! The rows are cut into `P` contiguous parts, each with its own seeded
//! order (part 0's generator is seeded with the run's seed, so one part is
//! the sequential algorithm exactly). With one part the learner trains in
//! place on the calling thread. With `P > 1` every pass runs one copy of
//! the learner per part on rayon's threads, all starting from the same mixed
//! state, and the parts' states are then mixed ([`crate::mix`]) into the
//! next pass's. Parts never share state within a pass and mixing sums
//! parts in a fixed order, so the same data, seed and `P` give a
//! bit-identical model however many threads run them.
//!
//! Only a part's pass ([`part_pass`] and its loop, [`present`]) is generic
//! over the learner and the rows: it is the code that runs per example.
//! The outer loop, the checks and the parallel pass reach it through a
//! [`PartPass`] (a function object, called once per part and pass), so
//! that they are compiled once per learner, not once per learner and row
//! encoding (SPEED.md#build-weight).

use crate::error::{LearnError, param};
use crate::learner::{OnlineLearner, Plan, Step};
use crate::mix::{MixState, MixView, Mixable, Mixing, Team, failures, held, mix, rows_of};
use crate::sets::BLOCK_ROWS;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use rosenblatt_kernels::Examples;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

mod engine;
mod order;

use engine::{Alone, Engine, Mixed};
use order::{PartOrder, part_seed};

/// How many rows ahead a shuffled or sampled pass prefetches.
const PREFETCH_AHEAD: usize = 8;

/// How many rows ahead the sequential order prefetches. On an Intel Xeon
/// (2 MB L2 a core; 2026-11-25) the hardware prefetcher alone left a
/// sequential Perceptron pass 1.5-1.9× slower than with this read-ahead
/// (MNIST dense-u8 6.85 → 3.86 ms, sparse-f32 8.40 → 5.80 ms, the 2M-row
/// sparse set 369 → 226 ms); 4 was best or within 5% of best of 4 to 64
/// (SPEED.md#the-default-order).
const SEQUENTIAL_AHEAD: usize = 4;

/// How many rows ahead, in training order, [`Order::Chunks`] also
/// prefetches the row itself, from the cache the window's read-ahead filled
/// (at 2, MNIST Perceptron and averaged passes took 9–19% less time than
/// without on a Zen 3 and 6–12% less on an Intel Xeon; earlier sessions on
/// a Zen 4 measured no gain at 1 to 8: SPEED.md#the-default-order).
const ROW_AHEAD: usize = 2;

/// How many rows ahead a learner that asks for it ([`OnlineLearner::PREFETCH`])
/// has its state prefetched (measured: SPEED.md#the-default-order).
const STATE_AHEAD: usize = 4;

/// Rows per chunk of [`Order::Chunks`]: consecutive rows read as one run
/// (50 KB of MNIST rows, 25 KB of the sparse set's).
pub const CHUNK_ROWS: usize = 64;
/// Chunks per window of [`Order::Chunks`]: the rows of this many chunks are
/// shuffled together (1,024 rows: 800 KB of MNIST, so that the window in
/// training and the one read ahead stay in cache; SPEED.md#the-default-order has the sizes
/// tried).
pub const WINDOW_CHUNKS: usize = 16;

/// The order examples are presented in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// As stored, every pass.
    Sequential,
    /// Random at the scale that matters for learning, read in runs: the
    /// rows cut into chunks of [`CHUNK_ROWS`] consecutive rows, the chunks
    /// laid end to end in a fresh seeded order every pass, and that stream
    /// cut into windows of [`WINDOW_CHUNKS`] chunks' worth of rows, each
    /// shuffled within itself. While one window trains, the next is read
    /// ahead in stream order — whole chunks, in storage order — and each
    /// row is prefetched again two steps before its turn. Consecutive
    /// examples come from about 16 random places in the data, and memory is
    /// read in runs.
    #[default]
    Chunks,
    /// A fresh seeded permutation of all rows every pass (every row read at
    /// random).
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

impl std::fmt::Display for Order {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Order::Sequential => "sequential",
            Order::Chunks => "chunks",
            Order::Shuffle => "shuffle",
            Order::Sample => "sample",
            Order::Blocks => "blocks",
        })
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
    /// Passes already run (resuming a saved learner): the orders of those
    /// passes are drawn and skipped, so that pass `k` has the same order
    /// whether the run started at pass 0 or resumed; `passes` more follow.
    pub first_pass: usize,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions { passes: 1.0, order: Order::Chunks, seed: 0, stop_when_separated: false, first_pass: 0 }
    }
}

/// What parallel training adds to [`TrainOptions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParallelOptions {
    /// Parts `P`: the model is a function of this number, never of the
    /// threads that run the parts.
    pub parts: usize,
    /// How the parts are weighted when mixed.
    pub mixing: Mixing,
}

/// One pass.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PassReport {
    /// Examples presented.
    pub examples: u64,
    /// Online mistakes (before each update).
    pub mistakes: u64,
    /// Updates made.
    pub updates: u64,
    /// Wall time of the pass (order, training and mixing).
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

/// How often (in examples, per part) the progress hook hears of a run.
pub const PROGRESS_EVERY: u64 = 1 << 16;

/// The per-pass hook: the learner and the pass's report.
pub type OnPass<'h, L> = &'h mut dyn FnMut(&L, &PassReport);

/// What a run tells its caller while it goes.
pub struct Hooks<'h, L> {
    /// After every pass: the learner whose model is the run's so far (with
    /// several parts, part 0's, or for learners whose parts keep their own
    /// history, every part's gathered) and the pass's report, its counts
    /// summed over the parts.
    pub on_pass: Option<OnPass<'h, L>>,
    /// The run's examples presented so far: every [`PROGRESS_EVERY`]
    /// examples of each part and at the end of each part's pass (for
    /// progress bars). Called from the threads that run the parts.
    pub progress: Option<&'h (dyn Fn(u64) + Sync)>,
}

impl<L> Hooks<'_, L> {
    /// No hooks.
    pub fn none() -> Self {
        Hooks { on_pass: None, progress: None }
    }
}

impl<'h, L> Hooks<'h, L> {
    /// Only an `on_pass` hook.
    pub fn on_pass(f: OnPass<'h, L>) -> Self {
        Hooks { on_pass: Some(f), progress: None }
    }
}

/// Trains `learner` on `data` (labels as the learner requires: ±1 for
/// binary learners), in one part on this thread.
pub fn train<L: OnlineLearner, E: Examples>(
    learner: &mut L,
    data: &E,
    opts: &TrainOptions,
) -> Result<TrainReport, LearnError> {
    train_with(learner, data, opts, Hooks::none())
}

/// [`train`], telling `hooks` of every pass and of progress.
pub fn train_with<L: OnlineLearner, E: Examples>(
    learner: &mut L,
    data: &E,
    opts: &TrainOptions,
    hooks: Hooks<'_, L>,
) -> Result<TrainReport, LearnError> {
    run(learner, data, opts, 1, Alone, hooks)
}

/// Trains `learner` on `data` by iterative parameter mixing over
/// `par.parts` contiguous parts. With one part this is [`train`] exactly;
/// with more, each pass's parts run on rayon's threads and are mixed
/// ([`mix`]). Fractional passes run the first part of each part's order.
/// `stop_when_separated` needs one part (separation is a property of one
/// sequential pass).
///
/// With a `team` of several processes, each holds in `data` only its own
/// consecutive run of the training rows (rank 0 the first), which must be
/// exactly the rows of its parts: process `r` of `N` trains parts
/// `r·P/N..(r+1)·P/N`, and `P` must be a multiple of `N`. Every process
/// ends with the same learner, bit for bit the one a single process
/// training all `P` parts ends with. A check that fails on any process
/// fails the run on all of them ([`LearnError::Process`] names it).
pub fn train_parallel<L: Mixable, E: Examples>(
    learner: &mut L,
    data: &E,
    opts: &TrainOptions,
    par: &ParallelOptions,
    team: &dyn Team,
    hooks: Hooks<'_, L>,
) -> Result<TrainReport, LearnError> {
    let engine = Mixed {
        mixing: par.mixing,
        team,
        first: 0,
        first_row: 0,
        copies: Vec::new(),
        states: Vec::new(),
        base: MixState::default(),
        mixed: MixState::default(),
        behind: false,
    };
    run(learner, data, opts, par.parts, engine, hooks)
}

/// One part's pass over the rows ([`part_pass`] on them), the rows' type
/// erased: learner, the global index of the first row held, the part's
/// order, the examples to present, the order's kind and the run's progress.
type PartPass<'d, L> = dyn Fn(&mut L, usize, &mut PartOrder, usize, Order, &Progress<'_>) -> PassReport + Sync + 'd;

/// The outer loop over `data`: the rows' type stops here.
fn run<L: OnlineLearner, E: Examples, M: Engine<L>>(
    learner: &mut L,
    data: &E,
    opts: &TrainOptions,
    parts: usize,
    engine: M,
    hooks: Hooks<'_, L>,
) -> Result<TrainReport, LearnError> {
    let source = Source {
        len: data.len(),
        dim: data.dim(),
        labels: &|l: &L| l.check_labels(data),
        pass: &|l: &mut L, first_row, order: &mut PartOrder, len, kind, progress: &Progress<'_>| {
            part_pass(l, data, first_row, order, len, kind, progress)
        },
    };
    drive(learner, &source, opts, parts, engine, hooks)
}

/// What the outer loop needs of the rows: their size, and the generic code
/// that reads them behind function objects.
struct Source<'d, L> {
    len: usize,
    dim: usize,
    /// The learner's check of the labels ([`OnlineLearner::check_labels`]).
    labels: &'d (dyn Fn(&L) -> Result<(), LearnError> + 'd),
    pass: &'d PartPass<'d, L>,
}

/// The outer loop, compiled once per learner and engine.
fn drive<L: OnlineLearner, M: Engine<L>>(
    learner: &mut L,
    data: &Source<'_, L>,
    opts: &TrainOptions,
    parts: usize,
    mut engine: M,
    mut hooks: Hooks<'_, L>,
) -> Result<TrainReport, LearnError> {
    // Every process's rows, then every process's checks: a check that
    // fails anywhere fails everywhere, before the first pass.
    let place = engine.place(data.len);
    let checked = check(learner, data, opts, parts, &place);
    engine.agree(checked)?;
    let Place { rows: n, first_row, .. } = place;
    let local = place.parts(parts);
    let full = opts.passes.floor() as usize;
    let frac = opts.passes - full as f64;
    // Part `p`'s rows: the rows of process `p` of `parts`, one part each.
    let bounds = |p: usize| rows_of(p, parts, parts, n);
    let whole: Vec<usize> = (0..parts).map(|p| bounds(p).len()).collect();
    let tails: Vec<usize> = whole.iter().map(|&len| tail_rows(frac, len)).collect();
    let tail: usize = tails.iter().sum();
    let mut orders: Vec<PartOrder> = local
        .clone()
        .map(|p| {
            let rows = bounds(p);
            PartOrder::new(rows.start - first_row..rows.end - first_row, part_seed(opts.seed, p))
        })
        .collect();
    let (whole, tails) = (&whole[local.clone()], &tails[local]);
    // The orders of the passes already run, drawn and dropped: an order
    // depends on the seed and the pass number only.
    for _ in 0..opts.first_pass {
        orders.iter_mut().for_each(|o| o.next(opts.order));
    }
    learner.begin(&Plan { examples: n, steps: full as u64 * n as u64 + tail as u64 });
    engine.start(learner, place.parts(parts));

    let progress = Progress { done: AtomicU64::new(0), report: hooks.progress };
    let mut report = TrainReport { passes: Vec::new(), separated_at: None };
    for pass in 0..full + usize::from(tail > 0) {
        let started = Instant::now();
        let lens = if pass < full { whole } else { tails };
        let mut p = PassReport::default();
        for r in engine.pass(learner, data.pass, &mut orders, lens, opts.order, &progress)? {
            p.examples += r.examples;
            p.mistakes += r.mistakes;
            p.updates += r.updates;
        }
        p.seconds = started.elapsed().as_secs_f64();
        report.passes.push(p);
        // (Every process observes, for learners that gather from all.)
        let mut hook = hooks.on_pass.as_mut().map(|f| move |l: &L| f(l, &p));
        engine.observe(learner, hook.as_mut().map(|f| f as &mut dyn FnMut(&L)))?;
        if opts.stop_when_separated && pass < full && p.mistakes == 0 {
            report.separated_at = Some(pass + 1);
            break;
        }
    }
    engine.finish(learner)?;
    Ok(report)
}

/// Where this process's rows sit among all the training rows.
#[derive(Clone, Debug)]
struct Place {
    /// Training rows over all processes.
    rows: usize,
    /// The global index of this process's first row.
    first_row: usize,
    /// This process's rank and the team's size.
    rank: usize,
    size: usize,
    /// Every process's row count, in rank order.
    held: Vec<usize>,
}

impl Place {
    /// The parts this process trains, of `parts` (a multiple of the size).
    fn parts(&self, parts: usize) -> Range<usize> {
        let per = parts / self.size;
        self.rank * per..(self.rank + 1) * per
    }
}

/// The rows a part of `len` rows runs in a pass's fraction `frac`: that
/// share of its order, rounded.
fn tail_rows(frac: f64, len: usize) -> usize {
    (frac * len as f64).round() as usize
}

/// The checks before training, on this process's rows.
fn check<L: OnlineLearner>(
    learner: &L,
    data: &Source<'_, L>,
    opts: &TrainOptions,
    parts: usize,
    place: &Place,
) -> Result<(), LearnError> {
    let n = place.rows;
    if n == 0 {
        return Err(LearnError::Empty);
    }
    // Total steps must count in a u64.
    if !(opts.passes.is_finite() && opts.passes > 0.0 && opts.passes * n as f64 <= 9.0e18) {
        return Err(param("passes", opts.passes, "a finite number > 0 (passes × examples below 9e18)"));
    }
    if parts == 0 || parts > n {
        return Err(param("parts", parts, "between 1 and the number of examples"));
    }
    if !parts.is_multiple_of(place.size) {
        return Err(LearnError::Processes { parts, processes: place.size });
    }
    if opts.stop_when_separated && parts > 1 {
        return Err(param("parts", parts, "1 for the batch Perceptron (stop when separated)"));
    }
    // A fraction of a pass that reaches no row of any part trains nothing.
    if opts.passes < 1.0 && (0..parts).all(|p| tail_rows(opts.passes, rows_of(p, parts, parts, n).len()) == 0) {
        return Err(param("passes", opts.passes, "enough of a pass for one example (passes × a part's rows ≥ 0.5)"));
    }
    // Each process must hold exactly the rows of its parts.
    let mut at = 0;
    for (r, &held) in place.held.iter().enumerate() {
        let want = rows_of(r, place.size, parts, n);
        if at != want.start || held != want.len() {
            return Err(LearnError::Rows { rank: r, held: at..at + held, parts: want });
        }
        at += held;
    }
    if data.dim > learner.dim() {
        return Err(LearnError::Dimension { data: data.dim, learner: learner.dim() });
    }
    (data.labels)(learner).map_err(|e| match e {
        // Name the row as the whole training set counts it.
        LearnError::NotBinary { index, label } => LearnError::NotBinary { index: index + place.first_row, label },
        LearnError::NotAClass { index, label, classes } => {
            LearnError::NotAClass { index: index + place.first_row, label, classes }
        }
        e => e,
    })
}

/// The run's progress counter, shared by the parts.
struct Progress<'h> {
    done: AtomicU64,
    report: Option<&'h (dyn Fn(u64) + Sync)>,
}

impl Progress<'_> {
    fn add(&self, examples: u64) {
        if let Some(f) = self.report {
            f(self.done.fetch_add(examples, Ordering::Relaxed) + examples);
        }
    }
}

/// One part's pass: the next order, the first `len` examples of it, and the
/// learner's end of pass.
fn part_pass<L: OnlineLearner, E: Examples>(
    learner: &mut L,
    data: &E,
    first_row: usize,
    part: &mut PartOrder,
    len: usize,
    kind: Order,
    progress: &Progress<'_>,
) -> PassReport {
    part.next(kind);
    let mut r = PassReport { examples: len as u64, ..Default::default() };
    let mut since = 0;
    let mut count = |s: Step| {
        r.mistakes += u64::from(s.mistake);
        r.updates += u64::from(s.updated);
        since += 1;
        if since == PROGRESS_EVERY {
            progress.add(since);
            since = 0;
        }
    };
    if kind == Order::Blocks {
        let mut start = 0;
        for &end in &part.ends {
            let block = &part.order[start..end.min(len)];
            present(learner, data, first_row, block, &block[PREFETCH_AHEAD.min(block.len())..], &[], &mut count);
            if let (Some(lo), Some(hi)) = (block.iter().min(), block.iter().max()) {
                data.release(*lo as usize..*hi as usize + 1);
            }
            if end >= len {
                break;
            }
            start = end;
        }
    } else {
        let (ahead, near) = (part.ahead(kind, len), part.near(kind, len));
        present(learner, data, first_row, &part.order[..len], ahead, near, &mut count);
    }
    progress.add(since);
    learner.end_pass();
    r
}

/// Presents the examples `run` (indices into `data`, whose first row is
/// the training set's row `first_row`) to `learner` once, in that order,
/// with each row's importance, calling `after` with each step's outcome; at step `k` it asks for rows
/// `ahead[k]` and then `near[k]` to be loaded (out of order, the hardware
/// prefetcher cannot guess what comes). The loop that runs per example.
#[inline(always)]
fn present<L: OnlineLearner, E: Examples>(
    learner: &mut L,
    data: &E,
    first_row: usize,
    run: &[u32],
    ahead: &[u32],
    near: &[u32],
    mut after: impl FnMut(Step),
) {
    for (k, &i) in run.iter().enumerate() {
        if let Some(&a) = ahead.get(k) {
            data.prefetch(a as usize);
        }
        if let Some(&a) = near.get(k) {
            data.prefetch(a as usize);
        }
        if L::PREFETCH
            && let Some(&a) = run.get(k + STATE_AHEAD)
        {
            learner.prefetch(&data.row(a as usize));
        }
        let i = i as usize;
        // A row of importance 0 is passed over: not a step, as if absent.
        let h = data.weight(i);
        if h != 0.0 {
            after(learner.learn(&data.row(i), data.label(i), h, first_row + i));
        }
    }
}
