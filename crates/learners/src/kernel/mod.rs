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

mod block;
mod model;

use block::{byte_scale, dots, scores};
pub use model::best;

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
