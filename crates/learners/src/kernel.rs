//! Kernel Perceptrons (Freund & Schapire 1999): the Perceptron in the
//! feature space of a kernel. Each mistake keeps its row as a support row
//! with a coefficient per output; the last, averaged and voted forms; one
//! output (±1 labels), one-vs-rest over every class on one shared support
//! set (each kernel value computed once for all classes), or the
//! multi-class Perceptron (argmax; +x to the true class, −x to the
//! predicted one); an optional budget on support rows.
//!
//! Examples are taken in blocks of [`BLOCK`]. The block's kernel values
//! against every support row are one matrix product (sgemm, in chunks of
//! [`CHUNK`] support rows spread over the threads — or, when the rows are
//! bytes times a scale ([`Examples::byte_scale`], as MNIST's pixels are),
//! exact integer dot products of the bytes, [`rosenblatt_kernels::dots_u8`])
//! and the kernel's map;
//! its scores follow from them. Then the block is resolved in order: each
//! example's score is corrected for what the block changed before it —
//! updates add `Δ·k(x_i, x_j)` with the block's own kernel values among
//! themselves, evictions take their row's whole contribution back — so
//! the run is the sequential algorithm's, example by example. The chunks
//! are fixed, not the threads, so the model is the same on any number of
//! threads.
//!
//! Budget: when a new support row would exceed it, the row with the least
//! `Σ_c |α_c|` is removed (the oldest among equals) — its whole
//! contribution with it. The voted form keeps every vector's rows and
//! takes no budget.

use crate::error::{LearnError, param};
use crate::memory::{StateVec, zeros};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rayon::prelude::*;
use rosenblatt_kernels::{Examples, Row};
use wide::f32x8;

/// Examples per block.
pub const BLOCK: usize = 256;
/// Support rows per chunk of a block's kernel values.
pub const CHUNK: usize = 256;
/// Support rows (and each block's rows) are dense: a kernel learner, or a
/// kernel model read from a file, takes at most this many features.
pub const MAX_DIM: usize = 1 << 16;

/// A kernel on rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kernel {
    /// `(γ⟨x, x′⟩ + c)^d`.
    Poly {
        /// γ.
        gamma: f32,
        /// c.
        coef0: f32,
        /// d.
        degree: u32,
    },
    /// `exp(−γ‖x − x′‖²)`.
    Rbf {
        /// γ.
        gamma: f32,
    },
}

impl Kernel {
    /// Turns `dots[i] = ⟨x_i, s⟩` into the kernel's values `k(x_i, s)`,
    /// given the squared norms `nx[i]` of the `x_i` and `ns` of `s`: eight
    /// lanes at a time (the exponential is `wide`'s), the last lanes
    /// padded, so that every value is computed the same way wherever it
    /// stands — in a block's values against the support rows, among the
    /// block's own rows, or in scoring.
    pub fn map(&self, dots: &mut [f32], nx: &[f32], ns: f32) {
        debug_assert_eq!(dots.len(), nx.len());
        for (d8, n8) in dots.chunks_mut(8).zip(nx.chunks(8)) {
            let (mut d, mut n) = ([0f32; 8], [0f32; 8]);
            d[..d8.len()].copy_from_slice(d8);
            n[..n8.len()].copy_from_slice(n8);
            let (d, n) = (f32x8::from(d), f32x8::from(n));
            let k = match *self {
                Kernel::Poly { gamma, coef0, degree } => {
                    let base = f32x8::splat(gamma) * d + f32x8::splat(coef0);
                    (1..degree).fold(base, |p, _| p * base)
                }
                Kernel::Rbf { gamma } => {
                    let sq = (n + f32x8::splat(ns) - f32x8::splat(2.0) * d).max(f32x8::ZERO);
                    (f32x8::splat(-gamma) * sq).exp()
                }
            };
            d8.copy_from_slice(&k.to_array()[..d8.len()]);
        }
    }

    /// Checks the ranges: γ > 0, c ≥ 0, the degree 1 to 16.
    pub fn check(&self) -> Result<(), LearnError> {
        match *self {
            Kernel::Poly { gamma, coef0, degree } => {
                if !(gamma.is_finite() && gamma > 0.0) {
                    return Err(param("gamma", gamma, "a number > 0"));
                }
                if !coef0.is_finite() || coef0 < 0.0 {
                    return Err(param("coef0", coef0, "a number >= 0"));
                }
                if degree == 0 || degree > 16 {
                    return Err(param("degree", degree, "a whole number from 1 to 16"));
                }
            }
            Kernel::Rbf { gamma } => {
                if !(gamma.is_finite() && gamma > 0.0) {
                    return Err(param("gamma", gamma, "a number > 0"));
                }
            }
        }
        Ok(())
    }
}

/// Which vector predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelForm {
    /// The last.
    Last,
    /// The average of every step's.
    Averaged,
    /// The vote of every vector, weighted by how long it survived.
    Voted,
}

/// What the outputs are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outputs {
    /// One output; labels ±1.
    Binary,
    /// One output per class, each its class against the rest; labels are
    /// class ids.
    OneVsRest(usize),
    /// The multi-class Perceptron over this many classes.
    Multiclass(usize),
}

impl Outputs {
    /// Number of scores per row.
    pub fn count(&self) -> usize {
        match *self {
            Outputs::Binary => 1,
            Outputs::OneVsRest(c) | Outputs::Multiclass(c) => c,
        }
    }
}

/// How to train.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KernelParams {
    /// The kernel.
    pub kernel: Kernel,
    /// Which vector predicts.
    pub form: KernelForm,
    /// What the outputs are.
    pub outputs: Outputs,
    /// At most this many support rows.
    pub budget: Option<usize>,
    /// Passes over the data (whole; [`train_kernel`]'s).
    pub passes: usize,
    /// Each pass in a fresh random order (else in the data's order).
    pub shuffle: bool,
    /// Seed of the passes' orders.
    pub seed: u64,
}

/// A kernel learner's configuration as the registry validates it
/// ([`crate::Config::Kernel`]); the outputs follow from the data's labels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KernelConfig {
    /// The kernel.
    pub kernel: Kernel,
    /// Which vector predicts.
    pub form: KernelForm,
    /// At most this many support rows.
    pub budget: Option<usize>,
    /// The multi-class Perceptron (else one output for ±1 labels, or one
    /// per class against the rest).
    pub multiclass: bool,
}

impl KernelConfig {
    /// The training parameters for data whose labels are ±1 (`classes` 2,
    /// `binary`) or class ids below `classes`.
    pub fn params(&self, binary: bool, classes: usize, passes: usize, shuffle: bool, seed: u64) -> KernelParams {
        let outputs = match (self.multiclass, binary) {
            (true, _) => Outputs::Multiclass(classes),
            (false, true) => Outputs::Binary,
            (false, false) => Outputs::OneVsRest(classes),
        };
        KernelParams { kernel: self.kernel, form: self.form, outputs, budget: self.budget, passes, shuffle, seed }
    }

    /// Checks the ranges.
    pub fn check(&self) -> Result<(), LearnError> {
        self.kernel.check()?;
        check_budget(self.budget, self.form)
    }
}

fn check_budget(budget: Option<usize>, form: KernelForm) -> Result<(), LearnError> {
    if budget.is_some() && form == KernelForm::Voted {
        return Err(param(
            "budget",
            budget.unwrap_or(0),
            "none with the voted form (its vote needs every vector's rows)",
        ));
    }
    if budget == Some(0) {
        return Err(param("budget", 0, "at least 1 support row"));
    }
    Ok(())
}

/// What one pass did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelPass {
    /// Examples whose prediction was wrong before it was learned from.
    pub mistakes: u64,
    /// Examples presented.
    pub examples: u64,
    /// Support rows at the pass's end.
    pub support_rows: u64,
}

/// One update of the voted form: output `class` of support `slot` moved
/// by `delta` after `step` examples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    /// The support row.
    pub slot: u32,
    /// The output.
    pub class: u32,
    /// The change of its coefficient.
    pub delta: f32,
    /// Examples seen before it.
    pub step: u64,
}

/// A trained kernel Perceptron: its support rows (dense), their squared
/// norms and coefficients, and for the voted form every update.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelModel {
    /// The kernel.
    pub kernel: Kernel,
    /// Which vector predicts.
    pub form: KernelForm,
    /// What the outputs are.
    pub outputs: Outputs,
    /// The rows' dimension.
    pub dim: usize,
    /// Support rows, `dim` values each.
    pub rows: Vec<f32>,
    /// Their squared norms.
    pub norms: Vec<f32>,
    /// `outputs.count()` coefficients per support row: the last vector's
    /// (last, voted) or the average's.
    pub coef: Vec<f32>,
    /// The voted form's updates in order (empty otherwise).
    pub events: Vec<Event>,
    /// Examples seen in training.
    pub steps: u64,
    /// Mistakes made in training (per example, not per output).
    pub mistakes: u64,
    /// Every support value is a byte times this (rows from u8-encoded
    /// data): model files store the rows as bytes ([`KernelModel::bytes`]).
    pub scale: Option<f32>,
}

/// `‖x‖²` of a dense row, summed in order: the one definition of a support
/// row's cached norm, in training and when a model is read back.
pub fn norm_sq(x: &[f32]) -> f32 {
    x.iter().map(|v| v * v).sum()
}

/// The training state.
struct State {
    p: KernelParams,
    dim: usize,
    c: usize,
    rows: Vec<f32>,
    norms: Vec<f32>,
    alpha: Vec<f32>,
    /// Averaged form: `Σ (t·Δ)` per coefficient (the average is α − u/T).
    u: Vec<f64>,
    /// Each slot's training example and when it became a support row.
    example: Vec<u32>,
    born: Vec<u64>,
    /// Slot of each training example, if it is a support row.
    slot_of: Vec<u32>,
    events: Vec<Event>,
    steps: u64,
    mistakes: u64,
    /// The block's kernel values against the support rows, kept from block
    /// to block (a fresh megabyte-sized buffer each block costs its page
    /// faults).
    kt: Vec<f32>,
    /// The block's kernel values among its own rows, kept likewise.
    kbb: Vec<f32>,
    /// When every value is a byte times this scale: the support rows and
    /// the block's rows also as bytes, and their dot products in exact
    /// integers ([`rosenblatt_kernels::dots_u8`]).
    bytes: Option<f32>,
    rows_u8: Vec<u8>,
    xb: Vec<u8>,
}

const NONE: u32 = u32::MAX;

/// Trains a kernel Perceptron on `data` as `p` says: [`KernelTrainer`]
/// for `p.passes` passes.
pub fn train_kernel<E: Examples>(data: &E, p: &KernelParams) -> Result<KernelModel, LearnError> {
    let mut t = KernelTrainer::new(data, p)?;
    for _ in 0..p.passes {
        t.pass(data);
    }
    Ok(t.into_model())
}

/// A kernel Perceptron in training, pass by pass, on one example set.
pub struct KernelTrainer {
    s: State,
    rng: Xoshiro256PlusPlus,
    order: Vec<u32>,
    x: StateVec<f32>,
}

impl KernelTrainer {
    /// A trainer for `data` (checked: its labels fit `p.outputs`) as `p`
    /// says (`p.passes` aside).
    pub fn new<E: Examples>(data: &E, p: &KernelParams) -> Result<Self, LearnError> {
        p.kernel.check()?;
        check_budget(p.budget, p.form)?;
        let c = p.outputs.count();
        if c == 0 || (matches!(p.outputs, Outputs::OneVsRest(_) | Outputs::Multiclass(_)) && c < 2) {
            return Err(param("classes", c, "at least 2"));
        }
        let n = data.len();
        if n == 0 {
            return Err(LearnError::Empty);
        }
        if data.dim() > MAX_DIM {
            return Err(param("dimension", data.dim(), "at most 65,536 features (support rows are dense)"));
        }
        if u32::try_from(n).is_err() {
            return Err(param("examples", n, "fewer than 2^32 rows"));
        }
        for i in 0..n {
            let y = data.label(i);
            match p.outputs {
                Outputs::Binary if y != 1.0 && y != -1.0 => return Err(LearnError::NotBinary { index: i, label: y }),
                Outputs::OneVsRest(c) | Outputs::Multiclass(c)
                    if !(y >= 0.0 && y.fract() == 0.0 && (y as usize) < c) =>
                {
                    return Err(LearnError::NotAClass { index: i, label: y, classes: c });
                }
                _ => {}
            }
        }
        let dim = data.dim();
        let s = State {
            p: *p,
            dim,
            c,
            rows: Vec::new(),
            norms: Vec::new(),
            alpha: Vec::new(),
            u: Vec::new(),
            example: Vec::new(),
            born: Vec::new(),
            slot_of: vec![NONE; n],
            events: Vec::new(),
            steps: 0,
            mistakes: 0,
            kt: Vec::new(),
            kbb: Vec::new(),
            bytes: byte_scale(data),
            rows_u8: Vec::new(),
            xb: Vec::new(),
        };
        Ok(KernelTrainer {
            s,
            rng: Xoshiro256PlusPlus::seed_from_u64(p.seed),
            order: (0..n as u32).collect(),
            x: zeros(BLOCK.checked_mul(dim).ok_or(LearnError::TooLarge { values: usize::MAX, bytes: u128::MAX })?)?,
        })
    }

    /// One pass over `data`, the set the trainer was made for (a new
    /// permutation of it when shuffling).
    pub fn pass<E: Examples>(&mut self, data: &E) -> KernelPass {
        self.pass_with(data, |_| {})
    }

    /// [`KernelTrainer::pass`], telling `done` the examples of the pass
    /// seen so far after every block: a pass can take seconds.
    pub fn pass_with<E: Examples>(&mut self, data: &E, mut done: impl FnMut(u64)) -> KernelPass {
        assert_eq!(data.len(), self.order.len(), "KernelTrainer::pass: the set it was made for");
        if self.s.p.shuffle {
            self.order.shuffle(&mut self.rng);
        }
        let (steps, mistakes) = (self.s.steps, self.s.mistakes);
        for block in self.order.chunks(BLOCK) {
            self.s.block(data, block, &mut self.x);
            done(self.s.steps - steps);
        }
        KernelPass {
            mistakes: self.s.mistakes - mistakes,
            examples: self.s.steps - steps,
            support_rows: self.s.slots() as u64,
        }
    }

    /// The model as it stands.
    pub fn model(&self) -> KernelModel {
        self.s.model()
    }

    /// The model, the trainer consumed.
    pub fn into_model(self) -> KernelModel {
        self.s.model()
    }
}

/// The data's byte scale ([`Examples::byte_scale`]) when its rows can be
/// dotted as bytes: a positive scale, a dimension whose byte sums fit an
/// `i32`, and every value checked to be a byte times the scale (one read of
/// the data; a set that says more than it holds is computed in f32).
fn byte_scale<E: Examples>(data: &E) -> Option<f32> {
    let s = data.byte_scale().filter(|s| s.is_finite() && *s > 0.0)?;
    if data.dim() == 0 || data.dim() > rosenblatt_kernels::bytes::MAX_DIM {
        return None;
    }
    let ok = (0..data.len()).all(|i| {
        let r = data.row(i);
        (0..r.nnz()).all(|k| to_byte(r.entry(k).1, s).is_some())
    });
    ok.then_some(s)
}

/// `v` as the byte `b` with `b · s == v`, if there is one.
fn to_byte(v: f32, s: f32) -> Option<u8> {
    let b = (v / s).round();
    (0.0..=255.0).contains(&b).then_some(b as u8).filter(|&b| f32::from(b) * s == v)
}

/// A borrowed matrix: `rows × cols` values at `v[r·rs + c·cs]`.
#[derive(Clone, Copy)]
struct Mat<'a> {
    v: &'a [f32],
    rows: usize,
    cols: usize,
    rs: usize,
    cs: usize,
}

impl Mat<'_> {
    /// Whether every index of the matrix lies inside `v`.
    fn fits(&self) -> bool {
        self.rows == 0 || self.cols == 0 || (self.rows - 1) * self.rs + (self.cols - 1) * self.cs < self.v.len()
    }
}

/// `out = a·b`, `out` row-major (`a.rows × b.cols`), by sgemm; the shapes
/// are checked here, once for both callers.
fn gemm(a: Mat<'_>, b: Mat<'_>, out: &mut [f32]) {
    assert!(a.cols == b.rows && a.fits() && b.fits() && out.len() == a.rows * b.cols, "gemm: shapes");
    if out.is_empty() {
        return;
    }
    if a.cols == 0 {
        out.fill(0.0);
        return;
    }
    // SAFETY: `a` and `b` index only inside their slices (`fits`, asserted
    // above), `out` is `a.rows × b.cols` row-major with exactly that many
    // values, and `out` (a `&mut`) aliases neither input.
    unsafe {
        matrixmultiply::sgemm(
            a.rows,
            a.cols,
            b.cols,
            1.0,
            a.v.as_ptr(),
            a.rs as isize,
            a.cs as isize,
            b.v.as_ptr(),
            b.rs as isize,
            b.cs as isize,
            0.0,
            out.as_mut_ptr(),
            b.cols as isize,
            1,
        );
    }
}

/// `out[i·n + j] = ⟨a_i, b_j⟩` for row-major `a` (`m × k`) and `b`
/// (`n × k`).
fn dots(a: &[f32], b: &[f32], k: usize, out: &mut [f32]) {
    let (m, n) = (a.len() / k.max(1), b.len() / k.max(1));
    gemm(Mat { v: a, rows: m, cols: k, rs: k, cs: 1 }, Mat { v: b, rows: k, cols: n, rs: 1, cs: k }, out);
}

/// `out[i·c + j] = Σ_s kt[s·b + i]·alpha[s·c + j]`: the scores of `b`
/// examples from their kernel values with `kt.len() / b` support rows
/// (support-major) and those rows' `c` coefficients each.
fn scores(kt: &[f32], b: usize, alpha: &[f32], c: usize, out: &mut [f32]) {
    let m = kt.len() / b.max(1);
    gemm(Mat { v: kt, rows: b, cols: m, rs: 1, cs: b }, Mat { v: alpha, rows: m, cols: c, rs: c, cs: 1 }, out);
}

impl State {
    fn slots(&self) -> usize {
        self.norms.len()
    }

    /// One block of examples `block`, in order; `x` is scratch for their
    /// rows.
    fn block<E: Examples>(&mut self, data: &E, block: &[u32], x: &mut [f32]) {
        let (d, c, b) = (self.dim, self.c, block.len());
        let x = &mut x[..b * d];
        x.fill(0.0);
        let mut xb = std::mem::take(&mut self.xb);
        if self.bytes.is_some() {
            xb.clear();
            xb.resize(b * d, 0);
        }
        let mut nx = vec![0f32; b];
        for (i, &e) in block.iter().enumerate() {
            let r = data.row(e as usize);
            for k in 0..r.nnz() {
                let (j, v) = r.entry(k);
                x[i * d + j] = v;
                if let Some(s) = self.bytes {
                    // Every value was checked to be a byte (`byte_scale`).
                    xb[i * d + j] = to_byte(v, s).unwrap_or(0);
                }
            }
            nx[i] = norm_sq(&x[i * d..(i + 1) * d]);
        }
        let kernel = self.p.kernel;
        // Scores from the support rows as the block starts, chunk by chunk
        // (each chunk's kernel values kept for evictions), summed in chunk
        // order.
        let m = self.slots();
        let mut kt = std::mem::take(&mut self.kt);
        kt.resize(m * b, 0.0);
        let partial: Vec<Vec<f32>> = kt
            .par_chunks_mut(CHUNK * b)
            .enumerate()
            // The integer sums' buffer, one per thread's run of chunks.
            .map_init(Vec::new, |exact: &mut Vec<i32>, (ch, out)| {
                let lo = ch * CHUNK;
                let hi = lo + out.len() / b;
                match self.bytes {
                    Some(s) => {
                        exact.resize(out.len(), 0);
                        rosenblatt_kernels::dots_u8(&self.rows_u8[lo * d..hi * d], &xb, d, exact);
                        let s2 = s * s;
                        out.iter_mut().zip(exact.iter()).for_each(|(o, &v)| *o = v as f32 * s2);
                    }
                    None => dots(&self.rows[lo * d..hi * d], x, d, out),
                }
                for (s, row) in out.chunks_mut(b).enumerate() {
                    kernel.map(row, &nx, self.norms[lo + s]);
                }
                let mut f = vec![0f32; b * c];
                scores(out, b, &self.alpha[lo * c..hi * c], c, &mut f);
                f
            })
            .collect();
        let mut f = vec![0f32; b * c];
        for part in &partial {
            f.iter_mut().zip(part).for_each(|(a, v)| *a += v);
        }
        // The block's rows among themselves, column `q` (`k(x_i, x_q)` for
        // every `i`, at `kbb[q·b + i]`) made when row `q` is first needed:
        // when it is learned from, or leaves under the budget. Only the
        // mistakes' columns are (a few percent of the rows after the
        // first pass), not the whole b × b product.
        let mut kbb = std::mem::take(&mut self.kbb);
        kbb.resize(b * b, 0.0);
        let mut have = vec![false; b];
        let x: &[f32] = x;
        let column = |q: usize, kbb: &mut [f32], have: &mut [bool]| {
            if !have[q] {
                let col = &mut kbb[q * b..(q + 1) * b];
                dots(x, &x[q * d..(q + 1) * d], d, col);
                kernel.map(col, &nx, nx[q]);
                have[q] = true;
            }
        };
        // Slots at the block's start, by their column in `kt`.
        let start_slots = m;
        // Per position: the update made there (if any), and evictions as
        // (slot's column at the start or position in the block, its
        // coefficients).
        let mut deltas = vec![0f32; b * c];
        let mut changed = vec![false; b];
        let mut evicted: Vec<(Source, Vec<f32>)> = Vec::new();
        let mut delta = vec![0f32; c];
        for (i, &e) in block.iter().enumerate() {
            let mut score = f[i * c..(i + 1) * c].to_vec();
            for j in (0..i).filter(|&j| changed[j]) {
                let k = kbb[j * b + i];
                score.iter_mut().zip(&deltas[j * c..(j + 1) * c]).for_each(|(s, &dl)| *s += dl * k);
            }
            for (src, a) in &evicted {
                let k = match *src {
                    Source::Start(col) => kt[col * b + i],
                    Source::Block(q) => kbb[q * b + i],
                };
                score.iter_mut().zip(a).for_each(|(s, &ac)| *s -= ac * k);
            }
            let y = data.label(e as usize);
            delta.fill(0.0);
            let mistake = match self.p.outputs {
                Outputs::Binary => {
                    let wrong = y * score[0] <= 0.0;
                    if wrong {
                        delta[0] = y;
                    }
                    wrong
                }
                Outputs::OneVsRest(_) => {
                    let mut any = false;
                    for (cl, (&sc, dl)) in score.iter().zip(delta.iter_mut()).enumerate() {
                        let yc = if cl == y as usize { 1.0 } else { -1.0 };
                        if yc * sc <= 0.0 {
                            *dl = yc;
                            any = true;
                        }
                    }
                    any
                }
                Outputs::Multiclass(_) => {
                    // The first highest score wins; the true class must beat
                    // every other strictly.
                    let t = y as usize;
                    let rival = (0..c).filter(|&k| k != t).fold(None, |best: Option<usize>, k| match best {
                        Some(bk) if score[bk] >= score[k] => Some(bk),
                        _ => Some(k),
                    });
                    match rival {
                        Some(r) if score[r] >= score[t] => {
                            delta[t] = 1.0;
                            delta[r] = -1.0;
                            true
                        }
                        _ => false,
                    }
                }
            };
            if mistake {
                self.mistakes += 1;
                let before = evicted.len();
                let slot = match self.slot_of[e as usize] {
                    NONE => {
                        let bytes = self.bytes.map(|_| &xb[i * d..(i + 1) * d]);
                        self.insert(e, &x[i * d..(i + 1) * d], bytes, nx[i], block, start_slots, &mut evicted)
                    }
                    s => s as usize,
                };
                column(i, &mut kbb, &mut have);
                for (src, _) in &evicted[before..] {
                    if let Source::Block(q) = *src {
                        column(q, &mut kbb, &mut have);
                    }
                }
                let t = self.steps;
                for (cl, &dl) in delta.iter().enumerate().filter(|(_, dl)| **dl != 0.0) {
                    self.alpha[slot * c + cl] += dl;
                    if self.p.form == KernelForm::Averaged {
                        self.u[slot * c + cl] += t as f64 * f64::from(dl);
                    }
                    if self.p.form == KernelForm::Voted {
                        self.events.push(Event { slot: slot as u32, class: cl as u32, delta: dl, step: t });
                    }
                }
                deltas[i * c..(i + 1) * c].copy_from_slice(&delta);
                changed[i] = true;
            }
            self.steps += 1;
        }
        self.kt = kt;
        self.kbb = kbb;
        self.xb = xb;
    }

    /// A slot for example `e` (its row `x`, squared norm `nx`): a new one,
    /// or under a full budget the least-weighted one's, whose contribution
    /// is recorded in `evicted` for the rest of the block.
    #[allow(clippy::too_many_arguments)]
    fn insert(
        &mut self,
        e: u32,
        x: &[f32],
        bytes: Option<&[u8]>,
        nx: f32,
        block: &[u32],
        start_slots: usize,
        evicted: &mut Vec<(Source, Vec<f32>)>,
    ) -> usize {
        let c = self.c;
        let slot = match self.p.budget {
            Some(budget) if self.slots() >= budget => {
                let weight = |s: usize| self.alpha[s * c..(s + 1) * c].iter().map(|a| a.abs()).sum::<f32>();
                let s = (0..self.slots())
                    .min_by(|&a, &b| weight(a).total_cmp(&weight(b)).then(self.born[a].cmp(&self.born[b])))
                    .expect("a full budget has slots");
                let old = self.example[s];
                let src = match block.iter().position(|&q| q == old) {
                    Some(q) => Source::Block(q),
                    None => Source::Start(s),
                };
                // A slot reused in this block is found by its example above;
                // one that was a support row at the start, by its column.
                debug_assert!(matches!(src, Source::Block(_)) || s < start_slots);
                evicted.push((src, self.alpha[s * c..(s + 1) * c].to_vec()));
                self.slot_of[old as usize] = NONE;
                self.rows[s * self.dim..(s + 1) * self.dim].copy_from_slice(x);
                if let Some(xb) = bytes {
                    self.rows_u8[s * self.dim..(s + 1) * self.dim].copy_from_slice(xb);
                }
                self.norms[s] = nx;
                self.alpha[s * c..(s + 1) * c].fill(0.0);
                if self.p.form == KernelForm::Averaged {
                    self.u[s * c..(s + 1) * c].fill(0.0);
                }
                s
            }
            _ => {
                self.rows.extend_from_slice(x);
                self.rows_u8.extend_from_slice(bytes.unwrap_or_default());
                self.norms.push(nx);
                self.alpha.extend(std::iter::repeat_n(0.0, c));
                if self.p.form == KernelForm::Averaged {
                    self.u.extend(std::iter::repeat_n(0.0, c));
                }
                self.example.push(0);
                self.born.push(0);
                self.slots() - 1
            }
        };
        self.example[slot] = e;
        self.born[slot] = self.steps;
        self.slot_of[e as usize] = slot as u32;
        slot
    }

    /// The coefficients that predict: the last vector's, or the average's.
    fn coef(&self) -> Vec<f32> {
        match self.p.form {
            KernelForm::Averaged if self.steps > 0 => {
                let t = self.steps as f64;
                self.alpha.iter().zip(&self.u).map(|(&a, &u)| (f64::from(a) - u / t) as f32).collect()
            }
            _ => self.alpha.clone(),
        }
    }

    fn model(&self) -> KernelModel {
        KernelModel {
            kernel: self.p.kernel,
            form: self.p.form,
            outputs: self.p.outputs,
            dim: self.dim,
            rows: self.rows.clone(),
            norms: self.norms.clone(),
            coef: self.coef(),
            events: self.events.clone(),
            steps: self.steps,
            mistakes: self.mistakes,
            scale: self.bytes,
        }
    }
}

/// Where an evicted row's kernel values with the block are.
#[derive(Clone, Copy, Debug)]
enum Source {
    /// Its column among the slots at the block's start.
    Start(usize),
    /// Its position in the block.
    Block(usize),
}

impl KernelModel {
    /// Support rows.
    pub fn support_rows(&self) -> usize {
        self.norms.len()
    }

    /// Checks a model read from a file — the kernel's ranges, every length
    /// against the counts, every value finite, the updates in order and
    /// naming rows and outputs that exist — and returns it with the rows'
    /// norms computed as training computes them (`norms` as given is
    /// ignored).
    pub fn checked(self) -> Result<KernelModel, LearnError> {
        let p = self;
        let bad = |what: String| Err(LearnError::State(what));
        p.kernel.check()?;
        if p.dim > MAX_DIM {
            return bad(format!("dimension {} above {MAX_DIM} (support rows are dense)", p.dim));
        }
        let c = p.outputs.count();
        if c == 0 || (c < 2 && !matches!(p.outputs, Outputs::Binary)) {
            return bad(format!("{c} outputs"));
        }
        let m = p.rows.len().checked_div(p.dim).unwrap_or(0);
        if p.rows.len() != m * p.dim || p.coef.len() != m * c || (p.dim == 0 && !p.coef.is_empty()) {
            return bad(format!(
                "{} support values and {} coefficients do not fit dimension {} and {c} outputs",
                p.rows.len(),
                p.coef.len(),
                p.dim
            ));
        }
        if let Some(i) = p.rows.iter().position(|v| !v.is_finite()) {
            return bad(format!("support value {i} is not finite"));
        }
        if let Some(i) = p.coef.iter().position(|v| !v.is_finite()) {
            return bad(format!("coefficient {i} is not finite"));
        }
        if p.form != KernelForm::Voted && !p.events.is_empty() {
            return bad("updates recorded for a form that does not vote".into());
        }
        let mut last = 0;
        for (i, e) in p.events.iter().enumerate() {
            if e.slot as usize >= m
                || e.class as usize >= c
                || !e.delta.is_finite()
                || e.step < last
                || e.step > p.steps
            {
                return bad(format!("update {i} ({e:?}) names no support row or output, or is out of order"));
            }
            last = e.step;
        }
        if p.mistakes > p.steps {
            return bad(format!("{} mistakes in {} steps", p.mistakes, p.steps));
        }
        let norms = p.rows.chunks(p.dim.max(1)).map(norm_sq).collect();
        Ok(KernelModel { norms, ..p })
    }

    /// The support rows as bytes, when every value is exactly a byte times
    /// [`KernelModel::scale`].
    pub fn bytes(&self) -> Option<Vec<u8>> {
        let s = self.scale.filter(|s| s.is_finite() && *s > 0.0)?;
        self.rows
            .iter()
            .map(|&v| {
                let b = (v / s).round();
                (0.0..=255.0).contains(&b).then_some(b as u8).filter(|&b| f32::from(b) * s == v)
            })
            .collect()
    }

    /// Sets [`KernelModel::scale`] to `scale` if every support value is a
    /// byte times it.
    pub fn with_byte_scale(mut self, scale: Option<f32>) -> KernelModel {
        self.scale = scale;
        if self.bytes().is_none() {
            self.scale = None;
        }
        self
    }

    /// Every row's scores into `out` (`outputs.count()` per row, row by
    /// row): the margins of the last or averaged vector, or the voted
    /// form's `Σ_k c_k·sign(f_k(x))` per output; in parallel over blocks
    /// of rows, each row's scores the same in any block.
    pub fn scores_into<E: Examples>(&self, data: &E, out: &mut [f32]) {
        let (c, d) = (self.outputs.count(), self.dim);
        assert_eq!(out.len(), data.len() * c, "scores_into: one score per row and output");
        out.par_chunks_mut(BLOCK * c).enumerate().for_each(|(blk, out)| {
            let lo = blk * BLOCK;
            let b = out.len() / c;
            let mut x = vec![0f32; b * d];
            let mut nx = vec![0f32; b];
            for i in 0..b {
                let r = data.row(lo + i);
                for k in 0..r.nnz() {
                    let (j, v) = r.entry(k);
                    if j < d {
                        x[i * d + j] = v;
                    }
                }
                nx[i] = norm_sq(&x[i * d..(i + 1) * d]);
            }
            let m = self.support_rows();
            let mut kv = vec![0f32; m * b];
            dots(&self.rows, &x, d, &mut kv);
            for (s, row) in kv.chunks_mut(b).enumerate() {
                self.kernel.map(row, &nx, self.norms[s]);
            }
            out.fill(0.0);
            if self.form == KernelForm::Voted {
                for i in 0..b {
                    for cl in 0..c {
                        out[i * c + cl] = self.vote(cl, |s| kv[s * b + i]);
                    }
                }
            } else {
                scores(&kv, b, &self.coef, c, out);
            }
        });
    }

    /// The voted form's vote for output `class`, `k(s)` the kernel value
    /// with support row `s`: each vector counts for the examples it
    /// survived (to the next update of that output, or the end).
    fn vote(&self, class: usize, k: impl Fn(usize) -> f32) -> f32 {
        let sign = |v: f32| {
            if v > 0.0 {
                1.0
            } else if v < 0.0 {
                -1.0
            } else {
                0.0
            }
        };
        let (mut f, mut vote, mut since) = (0f32, 0f64, 0u64);
        for ev in self.events.iter().filter(|e| e.class as usize == class) {
            vote += (ev.step - since) as f64 * sign(f);
            f += ev.delta * k(ev.slot as usize);
            since = ev.step;
        }
        vote += (self.steps - since) as f64 * sign(f);
        vote as f32
    }

    /// Every row's predicted label: the sign of the one output (±1, a zero
    /// score −1), or the class with the highest score (the first of equals).
    pub fn predict<E: Examples>(&self, data: &E) -> Vec<f32> {
        let c = self.outputs.count();
        let mut scores = vec![0f32; data.len() * c];
        self.scores_into(data, &mut scores);
        scores.chunks(c).map(|s| if c == 1 { if s[0] > 0.0 { 1.0 } else { -1.0 } } else { best(s).0 as f32 }).collect()
    }
}

/// The first of the highest scores, and the score: the class a
/// multi-output kernel model predicts.
pub fn best(scores: &[f32]) -> (usize, f32) {
    scores.iter().enumerate().fold((0, f32::NEG_INFINITY), |b, (k, &v)| if v > b.1 { (k, v) } else { b })
}
