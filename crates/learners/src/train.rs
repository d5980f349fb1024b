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
use crate::mix::{MixState, Mixable, Mixing, Team, failures, held, mix, rows_of};
use crate::sets::BLOCK_ROWS;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use rosenblatt_kernels::Examples;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

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

/// Seed of part `p`'s generator: part 0 uses the run's seed, so that one
/// part replays the sequential algorithm.
fn part_seed(seed: u64, p: usize) -> u64 {
    // SplitMix64's increment spreads neighbouring parts apart.
    seed ^ (p as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// One part's rows and the order of its current pass.
struct PartOrder {
    /// Row indices, `start..start + len` in this pass's order.
    order: Vec<u32>,
    start: u32,
    rng: Xoshiro256PlusPlus,
    /// With [`Order::Blocks`]: where each block ends in `order`.
    ends: Vec<usize>,
    /// With [`Order::Chunks`]: the rows in chunk order, each chunk as
    /// stored — what to read ahead.
    stream: Vec<u32>,
}

impl PartOrder {
    fn new(rows: Range<usize>, seed: u64) -> Self {
        PartOrder {
            start: rows.start as u32,
            order: (rows.start as u32..rows.end as u32).collect(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            ends: Vec::new(),
            stream: Vec::new(),
        }
    }

    /// The rows to prefetch a second time, one per step of `len`: for
    /// [`Order::Chunks`], `order` shifted by [`ROW_AHEAD`] (the window
    /// shuffles rows that [`PartOrder::ahead`] brought near); none for the
    /// other orders.
    fn near(&self, kind: Order, len: usize) -> &[u32] {
        match kind {
            Order::Chunks => &self.order[ROW_AHEAD.min(len)..len],
            Order::Sequential | Order::Shuffle | Order::Sample | Order::Blocks => &[],
        }
    }

    /// The rows to prefetch, one per step of `len`: `order` shifted by
    /// [`PREFETCH_AHEAD`] for random orders and by [`SEQUENTIAL_AHEAD`]
    /// for the sequential one (the hardware prefetcher alone does not keep
    /// up with it), the next window's rows in storage order for
    /// [`Order::Chunks`].
    fn ahead(&self, kind: Order, len: usize) -> &[u32] {
        match kind {
            Order::Sequential => &self.order[SEQUENTIAL_AHEAD.min(len)..len],
            Order::Chunks => &self.stream[(CHUNK_ROWS * WINDOW_CHUNKS).min(len)..len],
            Order::Shuffle | Order::Sample | Order::Blocks => &self.order[PREFETCH_AHEAD.min(len)..len],
        }
    }

    /// Makes the next pass's order (the sequential order stays as stored;
    /// a shuffle permutes the last pass's).
    fn next(&mut self, kind: Order) {
        let len = self.order.len() as u32;
        match kind {
            Order::Sequential => {}
            Order::Shuffle => self.order.shuffle(&mut self.rng),
            Order::Sample => {
                for o in self.order.iter_mut() {
                    *o = self.start + self.rng.random_range(0..len);
                }
            }
            Order::Blocks => self.ends = shuffle_blocks(&mut self.order, self.start, &mut self.rng),
            Order::Chunks => {
                // The chunks in a random order, each chunk's rows as stored:
                // the order memory is read in. Then each window of that
                // stream shuffled within itself: the order rows train in.
                let n = self.order.len();
                let mut chunks: Vec<usize> = (0..n.div_ceil(CHUNK_ROWS)).collect();
                chunks.shuffle(&mut self.rng);
                self.stream.clear();
                for c in chunks {
                    self.stream.extend((c * CHUNK_ROWS..((c + 1) * CHUNK_ROWS).min(n)).map(|r| self.start + r as u32));
                }
                self.order.copy_from_slice(&self.stream);
                for window in self.order.chunks_mut(CHUNK_ROWS * WINDOW_CHUNKS) {
                    window.shuffle(&mut self.rng);
                }
            }
        }
    }
}

/// Reorders `order` (the rows `base..base + order.len()`) into shuffled
/// blocks of [`BLOCK_ROWS`] and returns where each block ends in it.
fn shuffle_blocks(order: &mut [u32], base: u32, rng: &mut Xoshiro256PlusPlus) -> Vec<usize> {
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
/// calling `after` with each step's outcome; at step `k` it asks for rows
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
        after(learner.learn(&data.row(i), data.label(i), first_row + i));
    }
}

/// How the parts of a pass run: the learner alone, or copies mixed.
trait Engine<L> {
    /// Where this process's `rows` sit among every process's.
    fn place(&mut self, rows: usize) -> Place;
    /// Fails if `checked` failed here or on another process.
    fn agree(&mut self, checked: Result<(), LearnError>) -> Result<(), LearnError>;
    /// Before the first pass: this process trains `parts` of them.
    fn start(&mut self, learner: &mut L, parts: Range<usize>);
    /// One pass of this process's parts (`orders[p]`, its first `lens[p]`
    /// examples, each by `pass`); every part's report, over all processes.
    fn pass(
        &mut self,
        learner: &mut L,
        pass: &PartPass<'_, L>,
        orders: &mut [PartOrder],
        lens: &[usize],
        kind: Order,
        progress: &Progress<'_>,
    ) -> Result<Vec<PassReport>, LearnError>;
    /// Calls `f`, if any, with the learner whose model is the run's so far.
    fn observe(&self, learner: &L, f: Option<&mut dyn FnMut(&L)>) -> Result<(), LearnError>;
    /// After the last pass: leaves the run's learner in `learner`.
    fn finish(self, learner: &mut L) -> Result<(), LearnError>;
}

/// One part: the learner itself, on this thread.
struct Alone;

impl<L: OnlineLearner> Engine<L> for Alone {
    fn place(&mut self, rows: usize) -> Place {
        Place { rows, first_row: 0, rank: 0, size: 1, held: vec![rows] }
    }
    fn agree(&mut self, checked: Result<(), LearnError>) -> Result<(), LearnError> {
        checked
    }
    fn start(&mut self, _: &mut L, parts: Range<usize>) {
        debug_assert_eq!(parts, 0..1);
    }
    fn pass(
        &mut self,
        learner: &mut L,
        pass: &PartPass<'_, L>,
        orders: &mut [PartOrder],
        lens: &[usize],
        kind: Order,
        progress: &Progress<'_>,
    ) -> Result<Vec<PassReport>, LearnError> {
        Ok(vec![pass(learner, 0, &mut orders[0], lens[0], kind, progress)])
    }
    fn observe(&self, learner: &L, f: Option<&mut dyn FnMut(&L)>) -> Result<(), LearnError> {
        if let Some(f) = f {
            f(learner);
        }
        Ok(())
    }
    fn finish(self, _: &mut L) -> Result<(), LearnError> {
        Ok(())
    }
}

/// Copies of the learner, one per part this process trains, mixed after
/// every pass over the team; with one part in all, the learner itself as
/// [`Alone`] (so that `P = 1` is the sequential algorithm bit for bit).
struct Mixed<'r, L> {
    mixing: Mixing,
    team: &'r dyn Team,
    /// The first part this process trains.
    first: usize,
    /// The global index of this process's first row.
    first_row: usize,
    copies: Vec<L>,
    states: Vec<MixState>,
    base: MixState,
    mixed: MixState,
}

impl<L: Mixable> Mixed<'_, L> {
    /// Every part's learner, in part order, from every process (learners
    /// whose parts keep what mixing does not carry).
    fn gathered(&self) -> Result<Vec<L>, LearnError> {
        if self.team.size() == 1 {
            return Ok(self.copies.clone());
        }
        // Each process's parts' words, each part's as its length first.
        let mut mine = Vec::new();
        for c in &self.copies {
            let kept = c.kept();
            mine.push(kept.len() as u64);
            mine.extend(kept);
        }
        let model = &self.copies[0];
        let mut all = Vec::new();
        for (rank, words) in self.team.all_gather(&mine).iter().enumerate() {
            let bad = || LearnError::Process { rank, reason: "sent parts that do not fit this learner".into() };
            let mut rest = &words[..];
            while let Some((&len, tail)) = rest.split_first() {
                let len = usize::try_from(len).ok().filter(|&l| l <= tail.len()).ok_or_else(bad)?;
                all.push(model.with_kept(&tail[..len]).ok_or_else(bad)?);
                rest = &tail[len..];
            }
        }
        Ok(all)
    }
}

impl<L: Mixable> Engine<L> for Mixed<'_, L> {
    fn place(&mut self, rows: usize) -> Place {
        let (rank, size) = (self.team.rank(), self.team.size());
        let held = held(self.team, rows);
        self.first_row = held[..rank].iter().sum();
        Place { rows: held.iter().sum(), first_row: self.first_row, rank, size, held }
    }
    fn agree(&mut self, checked: Result<(), LearnError>) -> Result<(), LearnError> {
        if self.team.size() == 1 {
            return checked;
        }
        // The same failure everywhere is each process's own; otherwise
        // every process fails naming the first that failed.
        match failures(self.team, checked.as_ref().err().map(ToString::to_string).as_deref()) {
            None | Some((None, _)) => checked,
            Some((Some(rank), reason)) => Err(LearnError::Process { rank, reason }),
        }
    }
    fn start(&mut self, learner: &mut L, parts: Range<usize>) {
        self.first = parts.start;
        if parts.len() > 1 || self.team.size() > 1 {
            self.copies = vec![learner.clone(); parts.len()];
            self.states = vec![MixState::default(); parts.len()];
            learner.save_state(&mut self.base);
        }
    }
    fn pass(
        &mut self,
        learner: &mut L,
        pass: &PartPass<'_, L>,
        orders: &mut [PartOrder],
        lens: &[usize],
        kind: Order,
        progress: &Progress<'_>,
    ) -> Result<Vec<PassReport>, LearnError> {
        if self.copies.is_empty() {
            return Alone.pass(learner, pass, orders, lens, kind, progress);
        }
        let first_row = self.first_row;
        let mut reports: Vec<PassReport> = (self.copies.par_iter_mut(), orders.par_iter_mut(), lens, &mut self.states)
            .into_par_iter()
            .map(|(copy, order, &len, state)| {
                let r = pass(copy, first_row, order, len, kind, progress);
                copy.save_state(state);
                r
            })
            .collect();
        if self.team.size() > 1 {
            let mine: Vec<u64> = reports.iter().flat_map(|r| [r.examples, r.mistakes, r.updates]).collect();
            let seconds = reports.iter().map(|r| r.seconds).fold(0.0, f64::max);
            reports = self
                .team
                .all_gather(&mine)
                .iter()
                .flat_map(|w| {
                    w.chunks_exact(3).map(|c| PassReport { examples: c[0], mistakes: c[1], updates: c[2], seconds })
                })
                .collect::<Vec<_>>();
        }
        let updates: Vec<u64> = reports.iter().map(|r| r.updates).collect();
        let mu = self.mixing.weights(&updates);
        mix(self.team, &self.base, &self.states, self.first, &mu, &mut self.mixed);
        let mixed = &self.mixed;
        self.copies.par_iter_mut().for_each(|c| c.load_state(mixed));
        std::mem::swap(&mut self.base, &mut self.mixed);
        Ok(reports)
    }
    fn observe(&self, learner: &L, f: Option<&mut dyn FnMut(&L)>) -> Result<(), LearnError> {
        match self.copies.split_first() {
            None => {
                if let Some(f) = f {
                    f(learner);
                }
            }
            Some(_) if L::GATHERS && (f.is_some() || self.team.size() > 1) => {
                // Other processes take part whether or not this one reports.
                let mut all = self.gathered()?.into_iter();
                if let (Some(f), Some(mut first)) = (f, all.next()) {
                    first.absorb(all.collect());
                    f(&first);
                }
            }
            Some((first, _)) => {
                if let Some(f) = f {
                    f(first);
                }
            }
        }
        Ok(())
    }
    fn finish(self, learner: &mut L) -> Result<(), LearnError> {
        if self.copies.is_empty() {
            return Ok(());
        }
        let mut all = if L::GATHERS { self.gathered()? } else { self.copies }.into_iter();
        if let Some(first) = all.next() {
            *learner = first;
            if L::GATHERS {
                learner.absorb(all.collect());
            }
        }
        Ok(())
    }
}
