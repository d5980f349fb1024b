//! The Voted Perceptron (Freund & Schapire 1999): the sequence of weight
//! vectors `w_k` the Perceptron passes through, each with its survival count
//! `c_k`, predicting `sign(Σ_k c_k · sign(w_k · x))`.
//!
//! The vectors are not stored. The model keeps the mistakes (references into
//! the training set, with their labels), and gets every `w_k · x` from the
//! running sum `Σ_{j<k} η·y_j·⟨x_j, x⟩`; each distinct mistaken example's
//! `⟨x_j, x⟩` is computed once per predicted row.
//!
//! Trained in parallel (iterative parameter mixing), every pass of every
//! part starts from the mixed vector rather than from the last one: the
//! vectors fall into segments, each with its start (zero, or a stored mixed
//! vector — the same for every part in a pass) and its run of mistakes, and
//! the vote is over every segment of every part.

use crate::error::{LearnError, param};
use crate::learner::{OnlineLearner, Plan, Step};
use crate::linear::{Linear, PerceptronParams};
use crate::mix::{MixState, Mixable};
use crate::sets::BLOCK_ROWS;
use rayon::prelude::*;
use rosenblatt_kernels::{Examples, Row, SparseRow};

mod predictor;

pub use predictor::{VotedParts, VotedPredictor};

/// The Voted Perceptron while training (it is a Perceptron that remembers).
#[derive(Clone, Debug)]
pub struct VotedPerceptron {
    s: Linear,
    eta: f32,
    mistakes: Vec<(u32, f32)>,
    counts: Vec<u64>,
    segments: Vec<Segment>,
    /// Mixed start vectors, each `dim + 1` long (bias last).
    starts: Vec<Vec<f32>>,
    step: u64,
    start: u64,
    last_half: bool,
}

/// A run of vectors: from `start` (an index into the starts, or the zero
/// vector), then one more per mistake from mistake `first` on. Its counts
/// are `counts[first + s ..= last + s + 1]` for segment number `s`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Segment {
    start: Option<u32>,
    first: u32,
}

impl VotedPerceptron {
    /// A zero learner over `dim` features; with `last_half`, survival is
    /// counted only over the last half of the run.
    pub fn new(dim: usize, params: PerceptronParams, last_half: bool) -> Result<Self, LearnError> {
        let p = params.check()?;
        Ok(VotedPerceptron {
            s: Linear::new(dim, p.bias)?,
            eta: p.eta,
            mistakes: Vec::new(),
            counts: vec![0],
            segments: vec![Segment { start: None, first: 0 }],
            starts: Vec::new(),
            step: 0,
            start: 0,
            last_half,
        })
    }
}

impl OnlineLearner for VotedPerceptron {
    type Model = VotedModel;
    fn dim(&self) -> usize {
        self.s.w.len()
    }
    fn begin(&mut self, plan: &Plan) {
        self.start = if self.last_half { plan.steps / 2 } else { 0 };
    }
    #[inline]
    fn margin<R: Row>(&self, x: &R) -> f32 {
        self.s.margin(x)
    }
    #[inline]
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, example: usize) -> Step {
        self.step += 1;
        let mistake = self.s.perceptron_step(x, y, self.eta * h);
        if mistake {
            // The update's coefficient: the label times the row's importance.
            self.mistakes.push((example as u32, h * y));
            self.counts.push(0);
        }
        // Step t counts for the vector current after it (the new one on a mistake).
        if self.step > self.start {
            *self.counts.last_mut().expect("w_0 exists") += 1;
        }
        Step { mistake, updated: mistake }
    }
    fn model(&self) -> VotedModel {
        let mut m = VotedModel::new(self.s.w.len(), self.eta, self.s.bias, self.mistakes.clone(), self.counts.clone());
        m.segments.clone_from(&self.segments);
        m.starts.clone_from(&self.starts);
        m
    }
}

/// The current vector is mixed as a mean and starts a new segment in every
/// part; each part keeps its own mistakes, and the final learner gathers
/// every part's segments (`absorb`), so the vote is over all of them.
impl Mixable for VotedPerceptron {
    fn save_state(&mut self, out: &mut MixState) {
        self.s.save(out);
        out.total.push(self.step as f64);
    }
    fn load_state(&mut self, s: &MixState) {
        self.s.load(s);
        self.step = s.total[0] as u64;
        let mut start = self.s.w.to_vec();
        start.push(self.s.b[0]);
        self.starts.push(start);
        self.segments.push(Segment { start: Some(self.starts.len() as u32 - 1), first: self.mistakes.len() as u32 });
        self.counts.push(0);
    }
    const GATHERS: bool = true;
    fn absorb(&mut self, others: Vec<Self>) {
        for o in others {
            // Every part loaded the same mixed vectors, in the same order.
            debug_assert_eq!(o.starts, self.starts);
            let shift = self.mistakes.len() as u32;
            self.segments.extend(o.segments.iter().map(|g| Segment { start: g.start, first: g.first + shift }));
            self.mistakes.extend_from_slice(&o.mistakes);
            self.counts.extend_from_slice(&o.counts);
        }
    }
    /// `[segments, mistakes, counts]`, each as its length and then its items:
    /// a segment as its start (`u64::MAX` for none) and first mistake, a
    /// mistake as its row and its label's bits.
    fn kept(&self) -> Vec<u64> {
        let mut out = vec![self.segments.len() as u64];
        for g in &self.segments {
            out.extend([g.start.map_or(u64::MAX, u64::from), u64::from(g.first)]);
        }
        out.push(self.mistakes.len() as u64);
        out.extend(self.mistakes.iter().flat_map(|&(i, y)| [u64::from(i), u64::from(y.to_bits())]));
        out.push(self.counts.len() as u64);
        out.extend_from_slice(&self.counts);
        out
    }
    fn with_kept(&self, kept: &[u64]) -> Option<Self> {
        let mut words = kept.iter().copied();
        let mut run = |len_of: usize| -> Option<Vec<u64>> {
            let n = usize::try_from(words.next()?).ok()?;
            let items: Vec<u64> = words.by_ref().take(n.checked_mul(len_of)?).collect();
            (items.len() == n * len_of).then_some(items)
        };
        let u32_of = |w: u64| u32::try_from(w).ok();
        let segments = run(2)?
            .chunks(2)
            .map(|g| {
                let start = if g[0] == u64::MAX { None } else { Some(u32_of(g[0])?) };
                Some(Segment { start, first: u32_of(g[1])? })
            })
            .collect::<Option<Vec<_>>>()?;
        let mistakes = run(2)?
            .chunks(2)
            .map(|m| Some((u32_of(m[0])?, f32::from_bits(u32_of(m[1])?))))
            .collect::<Option<Vec<_>>>()?;
        let counts = run(1)?;
        if words.next().is_some() {
            return None;
        }
        Some(VotedPerceptron { segments, mistakes, counts, ..self.clone() })
    }
}

/// A trained Voted Perceptron: mistakes as references into the training
/// set, and survival counts. Predicting needs that training set.
#[derive(Clone, Debug, PartialEq)]
pub struct VotedModel {
    dim: usize,
    eta: f32,
    bias: bool,
    /// (training example, label) of each mistake, in order.
    mistakes: Vec<(u32, f32)>,
    /// `counts[k]`: survival of `w_k`; `w_0 = 0`.
    counts: Vec<u64>,
    /// Distinct mistaken examples, and each mistake's slot among them.
    distinct: Vec<u32>,
    slot: Vec<u32>,
    segments: Vec<Segment>,
    starts: Vec<Vec<f32>>,
}

impl VotedModel {
    fn new(dim: usize, eta: f32, bias: bool, mistakes: Vec<(u32, f32)>, counts: Vec<u64>) -> Self {
        let mut distinct: Vec<u32> = mistakes.iter().map(|m| m.0).collect();
        distinct.sort_unstable();
        distinct.dedup();
        let slot = mistakes.iter().map(|m| distinct.binary_search(&m.0).expect("present") as u32).collect();
        let segments = vec![Segment { start: None, first: 0 }];
        VotedModel { dim, eta, bias, mistakes, counts, distinct, slot, segments, starts: Vec::new() }
    }

    /// Number of mistakes (vectors beyond `w_0`).
    pub fn mistakes(&self) -> usize {
        self.mistakes.len()
    }

    /// Distinct training examples among the mistakes.
    pub fn distinct_examples(&self) -> usize {
        self.distinct.len()
    }

    /// The distinct training examples among the mistakes, in row order:
    /// the rows [`VotedModel::predictor`] reads.
    pub fn distinct_rows(&self) -> &[u32] {
        &self.distinct
    }

    /// A predictor: the distinct mistaken examples copied out of `train`
    /// (the set the model was trained on) as compact sparse rows, so that
    /// voting pays only for their non-zeros. It owns everything it needs and
    /// no longer depends on the training set.
    pub fn predictor<T: Examples>(&self, train: &T) -> VotedPredictor {
        self.copy_out(train, false)
    }

    /// [`predictor`](Self::predictor) for a model trained out of core
    /// ([`Order::Blocks`](crate::Order::Blocks)): the mistaken rows are
    /// copied in row order (the distinct examples are sorted), and each
    /// block of [`BLOCK_ROWS`](crate::BLOCK_ROWS) training rows is released
    /// ([`Examples::release`]) once passed, so that resident memory holds
    /// the copies and one block rather than every page a mistake touched.
    pub fn predictor_releasing<T: Examples>(&self, train: &T) -> VotedPredictor {
        self.copy_out(train, true)
    }

    fn copy_out<T: Examples>(&self, train: &T, release: bool) -> VotedPredictor {
        let mut offsets = Vec::with_capacity(self.distinct.len() + 1);
        offsets.push(0);
        let (mut indices, mut values) = (Vec::new(), Vec::new());
        // Rows below `released` (a block boundary) have been released.
        let mut released = 0;
        for &j in &self.distinct {
            let j = j as usize;
            let block_start = j / BLOCK_ROWS * BLOCK_ROWS;
            if release && block_start > released {
                train.release(released..block_start);
                released = block_start;
            }
            let row = train.row(j);
            for k in 0..row.nnz() {
                let (i, v) = row.entry(k);
                if v != 0.0 {
                    indices.push(i as u32);
                    values.push(v);
                }
            }
            offsets.push(indices.len());
        }
        if release {
            train.release(released..train.len());
        }
        // The predictor's own copy names stored rows, not training examples,
        // so it equals what its parts rebuild.
        let dim = self.dim.max(train.dim());
        let model = VotedModel {
            mistakes: self.slot.iter().zip(&self.mistakes).map(|(&s, m)| (s, m.1)).collect(),
            distinct: (0..self.distinct.len() as u32).collect(),
            // Starts padded to the rows' dimension (bias still last).
            starts: self
                .starts
                .iter()
                .map(|v| {
                    let (w, b) = v.split_at(self.dim);
                    let mut p = w.to_vec();
                    p.resize(dim, 0.0);
                    p.push(b[0]);
                    p
                })
                .collect(),
            ..self.clone()
        };
        VotedPredictor { model, dim, offsets, indices, values }
    }
}

impl crate::state::Resume for VotedPerceptron {
    fn check_rows(&self, examples: usize) -> Result<(), LearnError> {
        match self.mistakes.iter().find(|m| m.0 as usize >= examples) {
            Some(m) => Err(LearnError::State(format!("a mistake on row {} of {examples} training rows", m.0))),
            None => Ok(()),
        }
    }
    fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        self.s.fields(f);
        let (mut rows, mut labels): (Vec<u32>, Vec<f32>) = self.mistakes.iter().copied().unzip();
        f.vec_u32(&mut rows);
        f.vec_f32(&mut labels);
        f.vec_u64(&mut self.counts);
        // Segments as (start or u32::MAX, first) pairs.
        let mut segs: Vec<u32> = self.segments.iter().flat_map(|s| [s.start.unwrap_or(u32::MAX), s.first]).collect();
        f.vec_u32(&mut segs);
        let mut starts: Vec<f32> = self.starts.concat();
        f.vec_f32(&mut starts);
        f.u64(&mut self.step);
        let width = self.s.w.len() + 1;
        // One survival count per vector: one per mistake, and one more per
        // segment (its start).
        let consistent = rows.len() == labels.len()
            && segs.len().is_multiple_of(2)
            && starts.len().is_multiple_of(width)
            && self.counts.len() == rows.len() + segs.len() / 2
            && segs
                .chunks_exact(2)
                .all(|p| (p[0] == u32::MAX || (p[0] as usize) < starts.len() / width) && p[1] as usize <= rows.len())
            && labels.iter().all(|&y| y == 1.0 || y == -1.0);
        f.require(consistent, "the voted Perceptron's mistakes, counts and segments disagree");
        if !consistent {
            return;
        }
        self.mistakes = rows.into_iter().zip(labels).collect();
        self.segments =
            segs.chunks_exact(2).map(|p| Segment { start: (p[0] != u32::MAX).then_some(p[0]), first: p[1] }).collect();
        self.starts = starts.chunks_exact(width).map(<[f32]>::to_vec).collect();
    }
}
