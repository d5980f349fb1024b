//! The voted Perceptron's predictor: its mistaken rows and their survival
//! counts, voting on rows in parallel, and its parts checked when read
//! back from a model file.

use super::*;

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
    /// For each mistake, its label (±1) times its row's importance weight.
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
    pub(super) model: VotedModel,
    pub(super) dim: usize,
    pub(super) offsets: Vec<usize>,
    pub(super) indices: Vec<u32>,
    pub(super) values: Vec<f32>,
}

impl VotedPredictor {
    pub(super) fn stored(&self, u: usize) -> SparseRow<'_, u32, &[f32]> {
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
    /// every slot names a stored row; labels (each mistake's label times
    /// its row's importance) are finite and non-zero; counts are one more
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
        if let Some(k) = p.labels.iter().position(|&y| !(y.is_finite() && y != 0.0)) {
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
    pub(super) fn vote_block<R: Row>(&self, xs: &[R], t: &mut Vec<[f32; 8]>, dots: &mut Vec<[f32; 8]>) -> [f64; 8] {
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
