//! A dataset's shards as one [`Examples`] set — what learners train on —
//! and the views the library takes of it without copying a row: a range of
//! rows (a holdout tail, a part), or the same rows under other labels
//! (one class against the rest), or under other importance weights.

use crate::dataset::Dataset;
use crate::error::LoadError;
use crate::format::LabelKind;
use crate::rows::RowSet;
use crate::shard::Shard;
use crate::{ExamplesView, sharded};
use rosenblatt_kernels::Examples;
use std::ops::Range;

/// One shard's rows in a [`ShardedExamples`]: its row set (possibly a
/// range of the shard's rows), their labels, their importance weights
/// (empty: every row's is 1), and where they start in the shard (for
/// releasing pages).
#[derive(Clone, Debug)]
pub(crate) struct Part<'a, S> {
    rows: S,
    labels: &'a [f32],
    weights: &'a [f32],
    shard: &'a Shard,
    first: usize,
}

impl<'a, S: RowSet> Part<'a, S> {
    pub(crate) fn new(rows: S, shard: &'a Shard) -> Self {
        Part { rows, labels: shard.labels(), weights: shard.weights(), shard, first: 0 }
    }
}

/// The rows of several shards of one encoding, numbered across shards, with
/// their labels.
#[derive(Clone, Debug)]
pub struct ShardedExamples<'a, S> {
    parts: Vec<Part<'a, S>>,
    starts: Vec<usize>,
    dim: usize,
    len: usize,
}

impl<'a, S: RowSet> ShardedExamples<'a, S> {
    pub(crate) fn new(dim: usize, parts: Vec<Part<'a, S>>) -> Self {
        let mut starts = Vec::with_capacity(parts.len());
        let mut len = 0;
        for p in &parts {
            starts.push(len);
            len += p.rows.len();
        }
        ShardedExamples { parts, starts, dim, len }
    }

    #[inline(always)]
    fn locate(&self, i: usize) -> (usize, usize) {
        if self.parts.len() == 1 {
            return (0, i);
        }
        let p = self.starts.partition_point(|&s| s <= i) - 1;
        (p, i - self.starts[p])
    }

    /// Rows `range`, numbered from 0. Panics if out of range.
    pub fn range(&self, range: Range<usize>) -> Self {
        let (a, b) = (range.start, range.end);
        assert!(a <= b && b <= self.len, "rows {a}..{b} of {}", self.len);
        let mut parts = Vec::new();
        for (p, part) in self.parts.iter().enumerate() {
            let (s, e) = (self.starts[p], self.starts[p] + part.rows.len());
            let (lo, hi) = (a.max(s), b.min(e));
            if lo < hi {
                let (la, lb) = (lo - s, hi - s);
                parts.push(Part {
                    rows: part.rows.range(la, lb),
                    labels: &part.labels[la..lb],
                    weights: part.weights.get(la..lb).unwrap_or_default(),
                    shard: part.shard,
                    first: part.first + la,
                });
            }
        }
        ShardedExamples::new(self.dim, parts)
    }

    /// The same rows labelled `labels[i]`. Panics if `labels` is not one
    /// per row.
    pub fn with_labels<'b>(&self, labels: &'b [f32]) -> ShardedExamples<'b, S>
    where
        'a: 'b,
        S: 'b,
    {
        assert_eq!(labels.len(), self.len, "one label per row");
        self.with_columns(Some(labels), None)
    }

    /// The same rows weighted `weights[i]` (in place of any the shards
    /// hold). Panics if `weights` is not one per row.
    pub fn with_weights<'b>(&self, weights: &'b [f32]) -> ShardedExamples<'b, S>
    where
        'a: 'b,
        S: 'b,
    {
        assert_eq!(weights.len(), self.len, "one weight per row");
        self.with_columns(None, Some(weights))
    }

    /// The same rows with `labels` and `weights` (one per row each, cut at
    /// the parts) in place of their own where given.
    fn with_columns<'b>(&self, labels: Option<&'b [f32]>, weights: Option<&'b [f32]>) -> ShardedExamples<'b, S>
    where
        'a: 'b,
        S: 'b,
    {
        let parts = self
            .parts
            .iter()
            .zip(&self.starts)
            .map(|(p, &s)| {
                let mine = |c: &'b [f32]| &c[s..s + p.rows.len()];
                Part {
                    rows: p.rows.range(0, p.rows.len()),
                    labels: labels.map_or(p.labels, mine),
                    weights: weights.map_or(p.weights, mine),
                    shard: p.shard,
                    first: p.first,
                }
            })
            .collect();
        ShardedExamples::new(self.dim, parts)
    }
}

impl<S: RowSet> Examples for ShardedExamples<'_, S> {
    type Row = S::Row;
    #[inline]
    fn len(&self) -> usize {
        self.len
    }
    #[inline]
    fn dim(&self) -> usize {
        self.dim
    }
    #[inline]
    fn row(&self, i: usize) -> S::Row {
        assert!(i < self.len, "example {i} of {}", self.len);
        let (p, j) = self.locate(i);
        self.parts[p].rows.row(j)
    }
    #[inline]
    fn label(&self, i: usize) -> f32 {
        let (p, j) = self.locate(i);
        self.parts[p].labels[j]
    }
    #[inline]
    fn weight(&self, i: usize) -> f32 {
        let (p, j) = self.locate(i);
        self.parts[p].weights.get(j).copied().unwrap_or(1.0)
    }
    fn weighted(&self) -> bool {
        self.parts.iter().any(|p| !p.weights.is_empty())
    }
    /// Each shard's label slice in turn, swept without a branch per label
    /// (it vectorises), searched only where a label is bad: no search for
    /// the shard per row (checking 2,000,000 labels through
    /// [`Examples::label`] took about 20 ms of a one-pass `train`).
    fn find_label(&self, bad: impl Fn(f32) -> bool) -> Option<usize> {
        self.parts.iter().zip(&self.starts).find_map(|(p, &s)| {
            let any = p.labels.iter().fold(false, |any, &l| any | bad(l));
            if any { p.labels.iter().position(|&l| bad(l)).map(|j| s + j) } else { None }
        })
    }
    /// The shards' scale, when all hold bytes with the same one.
    fn byte_scale(&self) -> Option<f32> {
        let s = self.parts.first()?.rows.byte_scale()?;
        self.parts.iter().all(|p| p.rows.byte_scale().map(f32::to_bits) == Some(s.to_bits())).then_some(s)
    }
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        if i < self.len {
            let (p, j) = self.locate(i);
            self.parts[p].rows.prefetch(j);
        }
    }
    fn release(&self, range: Range<usize>) {
        let (a, b) = (range.start, range.end.min(self.len));
        for (p, part) in self.parts.iter().enumerate() {
            let (s, e) = (self.starts[p], self.starts[p] + part.rows.len());
            if a < e && s < b {
                part.shard.release_rows(part.first + a.max(s) - s, part.first + b.min(e) - s);
            }
        }
    }
}

impl Dataset {
    /// The dataset's rows and labels as one [`Examples`] set. Multi-label
    /// datasets have no single label per row and are refused.
    pub fn examples(&self) -> Result<ExamplesView<'_>, LoadError> {
        if self.manifest().label_kind == LabelKind::Multi {
            return Err(LoadError::dataset(self.dir(), "multi-label rows have no single label to train on"));
        }
        sharded(self.manifest().encoding, self.dim() as usize, self.shards()).map_err(|s| {
            LoadError::dataset(self.dir(), format!("{} is not in the manifest's encoding", s.path().display()))
        })
    }
}

impl ExamplesView<'_> {
    /// Number of rows.
    pub fn len(&self) -> usize {
        with_examples!(self, |e| e.len())
    }
    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The dimension.
    pub fn dim(&self) -> usize {
        with_examples!(self, |e| e.dim())
    }
    /// Rows `range` will not be read again soon ([`Examples::release`]).
    pub fn release(&self, range: Range<usize>) {
        with_examples!(self, |e| e.release(range))
    }
    /// Every row's label, in order.
    pub fn labels(&self) -> Vec<f32> {
        with_examples!(self, |e| (0..e.len()).map(|i| e.label(i)).collect())
    }
}
