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
    fn learn<R: Row>(&mut self, x: &R, y: f32, example: usize) -> Step {
        self.step += 1;
        let mistake = self.s.perceptron_step(x, y, self.eta);
        if mistake {
            self.mistakes.push((example as u32, y));
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

/// A [`VotedPredictor`] taken apart into plain arrays, for storing in a file
/// and checking on the way back ([`VotedPredictor::from_parts`]).
#[derive(Clone, Debug, PartialEq)]
pub struct VotedParts {
    /// Dimension of the stored rows.
    pub dim: usize,
    /// The Perceptron's step size.
    pub eta: f32,
    /// Whether the Perceptron had an explicit bias.
    pub bias: bool,
    /// Row `u` of the distinct mistaken examples is
    /// `indices[offsets[u]..offsets[u + 1]]`, `values[…]`.
    pub offsets: Vec<u64>,
    /// Feature indices, strictly increasing within a row, below `dim`.
    pub indices: Vec<u32>,
    /// Feature values, finite and non-zero.
    pub values: Vec<f32>,
    /// For each mistake in order, the stored row it was made on.
    pub slots: Vec<u32>,
    /// For each mistake, its label (±1).
    pub labels: Vec<f32>,
    /// Survival counts, segment by segment: each segment's start, then one
    /// per mistake; as many as the mistakes and segments together.
    pub counts: Vec<u64>,
    /// For each segment, the start it begins from (`u32::MAX`: zero).
    pub segment_starts: Vec<u32>,
    /// For each segment, its first mistake (the first is 0; never
    /// decreasing).
    pub segment_firsts: Vec<u32>,
    /// The start vectors, `dim + 1` values each (bias last), end to end.
    pub starts: Vec<f32>,
}

/// A [`VotedModel`] ready to vote: its mistaken examples held as compact
/// sparse rows.
#[derive(Clone, Debug, PartialEq)]
pub struct VotedPredictor {
    model: VotedModel,
    dim: usize,
    offsets: Vec<usize>,
    indices: Vec<u32>,
    values: Vec<f32>,
}

impl VotedPredictor {
    fn stored(&self, u: usize) -> SparseRow<'_, u32, &[f32]> {
        let (s, e) = (self.offsets[u], self.offsets[u + 1]);
        // SAFETY: copied from a row's entries in order (strictly increasing
        // indices below the training set's dimension <= `self.dim`), zeros
        // dropped, one value per index; or checked so by `from_parts`.
        unsafe { SparseRow::new_unchecked(self.dim, &self.indices[s..e], &self.values[s..e]) }
    }

    /// The dimension of the rows it votes on (larger rows' extra features
    /// meet zero in every stored row).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Number of mistakes (vectors beyond `w_0`).
    pub fn mistakes(&self) -> usize {
        self.model.mistakes()
    }

    /// Distinct stored rows.
    pub fn stored_rows(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The survival-weighted mean of the voting vectors, `Σ_k c_k·w_k /
    /// Σ_k c_k` (weights, bias): the averaged Perceptron's vector, which
    /// the vote approximates — what a picture of the model shows.
    pub fn mean_vector(&self) -> (Vec<f32>, f32) {
        let m = &self.model;
        let (mut sum, mut sum_b, mut total) = (vec![0f64; self.dim], 0f64, 0f64);
        let mut w = vec![0f64; self.dim];
        for (g, seg) in m.segments.iter().enumerate() {
            let end = m.segments.get(g + 1).map_or(m.mistakes.len(), |n| n.first as usize);
            let first = seg.first as usize;
            w.iter_mut().for_each(|v| *v = 0.0);
            let mut b = 0f64;
            if let Some(i) = seg.start {
                let start = &m.starts[i as usize];
                w.iter_mut().zip(start).for_each(|(v, &s)| *v = f64::from(s));
                b = f64::from(start[self.dim]);
            }
            let mut add = |w: &[f64], b: f64, c: u64| {
                let c = c as f64;
                sum.iter_mut().zip(w).for_each(|(s, &v)| *s += c * v);
                sum_b += c * b;
                total += c;
            };
            add(&w, b, m.counts[first + g]);
            for k in first..end {
                let (y, slot) = (m.mistakes[k].1, m.slot[k]);
                let a = f64::from(m.eta * y);
                let x = self.stored(slot as usize);
                for j in 0..x.nnz() {
                    let (i, v) = x.entry(j);
                    w[i] += a * f64::from(v);
                }
                if m.bias {
                    b += a;
                }
                add(&w, b, m.counts[k + g + 1]);
            }
        }
        let total = total.max(1.0);
        (sum.iter().map(|&s| (s / total) as f32).collect(), (sum_b / total) as f32)
    }

    /// Everything, as plain arrays.
    pub fn to_parts(&self) -> VotedParts {
        let m = &self.model;
        VotedParts {
            dim: self.dim,
            eta: m.eta,
            bias: m.bias,
            offsets: self.offsets.iter().map(|&o| o as u64).collect(),
            indices: self.indices.clone(),
            values: self.values.clone(),
            slots: m.slot.clone(),
            labels: m.mistakes.iter().map(|m| m.1).collect(),
            counts: m.counts.clone(),
            segment_starts: m.segments.iter().map(|g| g.start.unwrap_or(u32::MAX)).collect(),
            segment_firsts: m.segments.iter().map(|g| g.first).collect(),
            starts: m.starts.concat(),
        }
    }

    /// Checks `p` and builds the predictor: offsets start at 0, never
    /// decrease and end at the number of entries; indices strictly increase
    /// within a row and stay below `dim`; values are finite and non-zero;
    /// every slot names a stored row; labels are ±1; counts are one more
    /// than the mistakes; `eta` is finite and positive.
    pub fn from_parts(p: VotedParts) -> Result<VotedPredictor, LearnError> {
        let invalid = |what: &'static str, value: String| Err(param(what, value, "a valid voted model"));
        if !(p.eta.is_finite() && p.eta > 0.0) {
            return invalid("eta", p.eta.to_string());
        }
        if p.indices.len() != p.values.len() {
            return invalid("entries", format!("{} indices, {} values", p.indices.len(), p.values.len()));
        }
        if p.offsets.first() != Some(&0) || p.offsets.last() != Some(&(p.indices.len() as u64)) {
            return invalid("offsets", format!("{:?}…{:?}", p.offsets.first(), p.offsets.last()));
        }
        if let Some(u) = p.offsets.windows(2).position(|w| w[0] > w[1]) {
            return invalid("offsets", format!("row {u} ends before it starts"));
        }
        let mut offsets = Vec::with_capacity(p.offsets.len());
        for (u, w) in p.offsets.windows(2).enumerate() {
            let row = &p.indices[w[0] as usize..w[1] as usize];
            if row.windows(2).any(|i| i[0] >= i[1]) || row.last().is_some_and(|&i| i as usize >= p.dim) {
                return invalid("indices", format!("row {u} has unsorted indices or one beyond dimension {}", p.dim));
            }
            offsets.push(w[0] as usize);
        }
        offsets.push(p.indices.len());
        if let Some(k) = p.values.iter().position(|v| !v.is_finite() || *v == 0.0) {
            return invalid("values", format!("entry {k} is {}", p.values[k]));
        }
        let rows = offsets.len() - 1;
        let k = p.slots.len();
        let nseg = p.segment_firsts.len();
        if p.slots.len() != p.labels.len() || p.counts.len() != k + nseg || p.segment_starts.len() != nseg {
            return invalid(
                "mistakes",
                format!("{} slots, {} labels, {} counts", p.slots.len(), p.labels.len(), p.counts.len()),
            );
        }
        if let Some(k) = p.slots.iter().position(|&s| s as usize >= rows) {
            return invalid("slots", format!("mistake {k} names row {} of {rows}", p.slots[k]));
        }
        if let Some(k) = p.labels.iter().position(|&y| y != 1.0 && y != -1.0) {
            return invalid("labels", format!("mistake {k} has label {}", p.labels[k]));
        }
        if p.segment_firsts.first() != Some(&0)
            || p.segment_firsts.windows(2).any(|w| w[0] > w[1])
            || p.segment_firsts.last().is_some_and(|&f| f as usize > k)
        {
            return invalid("segments", format!("first mistakes {:?}…", &p.segment_firsts[..nseg.min(4)]));
        }
        let width = p.dim + 1;
        if !p.starts.len().is_multiple_of(width) {
            return invalid("starts", format!("{} values for vectors of {width}", p.starts.len()));
        }
        let nstarts = p.starts.len() / width;
        if let Some(g) = p.segment_starts.iter().position(|&s| s != u32::MAX && s as usize >= nstarts) {
            return invalid("segments", format!("segment {g} starts from vector {} of {nstarts}", p.segment_starts[g]));
        }
        if let Some(i) = p.starts.iter().position(|v| !v.is_finite()) {
            return invalid("starts", format!("value {i} is {}", p.starts[i]));
        }
        let model = VotedModel {
            dim: p.dim,
            eta: p.eta,
            bias: p.bias,
            mistakes: p.slots.iter().zip(&p.labels).map(|(&s, &y)| (s, y)).collect(),
            counts: p.counts,
            distinct: (0..rows as u32).collect(),
            slot: p.slots,
            segments: p
                .segment_starts
                .iter()
                .zip(&p.segment_firsts)
                .map(|(&s, &first)| Segment { start: (s != u32::MAX).then_some(s), first })
                .collect(),
            starts: p.starts.chunks_exact(width).map(<[f32]>::to_vec).collect(),
        };
        Ok(VotedPredictor { model, dim: p.dim, offsets, indices: p.indices, values: p.values })
    }

    /// `Σ_k c_k · sign(w_k · x)` for one row (`sign(0) = 0`: a zero margin
    /// abstains).
    pub fn vote<R: Row>(&self, x: &R) -> f64 {
        self.vote_block(&[*x], &mut Vec::new(), &mut Vec::new())[0]
    }

    /// Votes for up to eight rows: their features laid out transposed
    /// (`t[i][lane]`), each stored mistake scored against all eight with one
    /// broadcast and FMA per non-zero (`Row::dot_t8`). Lanes never mix, so a
    /// row's vote is the same alone or in a block.
    fn vote_block<R: Row>(&self, xs: &[R], t: &mut Vec<[f32; 8]>, dots: &mut Vec<[f32; 8]>) -> [f64; 8] {
        debug_assert!(xs.len() <= 8);
        let m = &self.model;
        let dim = xs.iter().map(Row::dim).fold(self.dim, usize::max);
        t.clear();
        t.resize(dim, [0.0; 8]);
        for (lane, x) in xs.iter().enumerate() {
            for k in 0..x.nnz() {
                let (i, v) = x.entry(k);
                t[i][lane] = v;
            }
        }
        dots.clear();
        dots.extend((0..m.distinct.len()).map(|u| self.stored(u).dot_t8(&t[..self.dim])));
        // Selects rather than branches, so the eight lanes vectorise.
        let sign = |v: f32, c: f64| {
            if v > 0.0 {
                c
            } else if v < 0.0 {
                -c
            } else {
                0.0
            }
        };
        let mut vote = [0.0f64; 8];
        for (g, seg) in m.segments.iter().enumerate() {
            let end = m.segments.get(g + 1).map_or(m.mistakes.len(), |n| n.first as usize);
            let first = seg.first as usize;
            // A zero start abstains; a mixed one votes like any vector.
            let (mut s, mut sb) = ([0.0f32; 8], 0.0f32);
            if let Some(i) = seg.start {
                let start = &m.starts[i as usize];
                sb = start[self.dim];
                for (lane, x) in xs.iter().enumerate() {
                    s[lane] = (0..x.nnz())
                        .map(|k| x.entry(k))
                        .filter(|&(i, _)| i < self.dim)
                        .map(|(i, v)| start[i] * v)
                        .sum();
                }
            }
            let c0 = m.counts[first + g] as f64;
            for lane in 0..8 {
                vote[lane] += sign(s[lane] + sb, c0);
            }
            for k in first..end {
                let (y, slot) = (m.mistakes[k].1, m.slot[k]);
                let a = m.eta * y;
                if m.bias {
                    sb += a;
                }
                let d = &dots[slot as usize];
                let c = m.counts[k + g + 1] as f64;
                for lane in 0..8 {
                    s[lane] += a * d[lane];
                    vote[lane] += sign(s[lane] + sb, c);
                }
            }
        }
        vote
    }

    /// Votes for every row of `data` into `out`, eight rows at a time, in
    /// parallel over blocks.
    pub fn votes<D: Examples>(&self, data: &D, out: &mut [f64]) {
        assert_eq!(out.len(), data.len(), "one output per example");
        out.par_chunks_mut(8).enumerate().for_each_init(
            || (Vec::new(), Vec::new()),
            |(t, dots), (c, chunk)| {
                let rows: Vec<D::Row> = (0..chunk.len()).map(|k| data.row(c * 8 + k)).collect();
                let v = self.vote_block(&rows, t, dots);
                chunk.copy_from_slice(&v[..chunk.len()]);
            },
        );
    }

    /// Fraction of `data` the vote gets wrong (a tie predicts −1).
    pub fn error_rate<D: Examples>(&self, data: &D) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let mut v = vec![0.0; data.len()];
        self.votes(data, &mut v);
        let wrong = v.iter().enumerate().filter(|&(i, &s)| (if s > 0.0 { 1.0 } else { -1.0 }) != data.label(i)).count();
        wrong as f64 / data.len() as f64
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
