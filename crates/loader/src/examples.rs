//! A dataset's shards as one [`Examples`] set: what learners train on.

use crate::dataset::Dataset;
use crate::error::LoadError;
use crate::shard::{LabelKind, RowSet, RowsView, Shard};
use rosenblatt_kernels::Examples;

/// The rows of several shards of one encoding, numbered across shards, with
/// their labels.
#[derive(Clone, Debug)]
pub struct ShardedExamples<'a, S> {
    parts: Vec<(S, &'a [f32])>,
    shards: Vec<&'a Shard>,
    starts: Vec<usize>,
    dim: usize,
    len: usize,
}

impl<'a, S: RowSet> ShardedExamples<'a, S> {
    fn new(dim: usize, parts: Vec<(S, &'a [f32])>, shards: Vec<&'a Shard>) -> Self {
        let mut starts = Vec::with_capacity(parts.len());
        let mut len = 0;
        for (rows, _) in &parts {
            starts.push(len);
            len += rows.len();
        }
        ShardedExamples { parts, shards, starts, dim, len }
    }

    #[inline(always)]
    fn locate(&self, i: usize) -> (usize, usize) {
        if self.parts.len() == 1 {
            return (0, i);
        }
        let p = self.starts.partition_point(|&s| s <= i) - 1;
        (p, i - self.starts[p])
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
        self.parts[p].0.row(j)
    }
    #[inline]
    fn label(&self, i: usize) -> f32 {
        let (p, j) = self.locate(i);
        self.parts[p].1[j]
    }
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        if i < self.len {
            let (p, j) = self.locate(i);
            self.parts[p].0.prefetch(j);
        }
    }
    fn release(&self, range: std::ops::Range<usize>) {
        let (a, b) = (range.start, range.end.min(self.len));
        for (p, shard) in self.shards.iter().enumerate() {
            let (s, e) = (self.starts[p], self.starts[p] + self.parts[p].0.len());
            if a < e && s < b {
                shard.release_rows(a.max(s) - s, b.min(e) - s);
            }
        }
    }
}

/// A dataset as [`Examples`], typed by its encoding. Use [`with_examples!`]
/// to run generic code on it.
#[allow(missing_docs)]
pub enum ExamplesView<'a> {
    SparseU16F32(ShardedExamples<'a, crate::shard::SparseRows<'a, u16, &'a [f32]>>),
    SparseU16U8(ShardedExamples<'a, crate::shard::SparseRows<'a, u16, crate::shard::U8Column<'a>>>),
    SparseU16Ones(ShardedExamples<'a, crate::shard::SparseRows<'a, u16, rosenblatt_kernels::Ones>>),
    SparseU32F32(ShardedExamples<'a, crate::shard::SparseRows<'a, u32, &'a [f32]>>),
    SparseU32U8(ShardedExamples<'a, crate::shard::SparseRows<'a, u32, crate::shard::U8Column<'a>>>),
    SparseU32Ones(ShardedExamples<'a, crate::shard::SparseRows<'a, u32, rosenblatt_kernels::Ones>>),
    DenseF32(ShardedExamples<'a, crate::shard::DenseRows<&'a [f32]>>),
    DenseU8(ShardedExamples<'a, crate::shard::DenseRows<crate::shard::U8Column<'a>>>),
}

/// Runs `$body` with `$ex` bound to the concrete [`Examples`] inside an
/// [`ExamplesView`]: one dispatch, monomorphic code inside.
#[macro_export]
macro_rules! with_examples {
    ($view:expr, |$ex:ident| $body:expr) => {
        match $view {
            $crate::ExamplesView::SparseU16F32($ex) => $body,
            $crate::ExamplesView::SparseU16U8($ex) => $body,
            $crate::ExamplesView::SparseU16Ones($ex) => $body,
            $crate::ExamplesView::SparseU32F32($ex) => $body,
            $crate::ExamplesView::SparseU32U8($ex) => $body,
            $crate::ExamplesView::SparseU32Ones($ex) => $body,
            $crate::ExamplesView::DenseF32($ex) => $body,
            $crate::ExamplesView::DenseU8($ex) => $body,
        }
    };
}

impl Dataset {
    /// The dataset's rows and labels as one [`Examples`] set. Multi-label
    /// datasets have no single label per row and are refused.
    pub fn examples(&self) -> Result<ExamplesView<'_>, LoadError> {
        if self.shards().iter().any(|s| s.header().label_kind == LabelKind::Multi) {
            return Err(LoadError::dataset(self.dir(), "multi-label rows have no single label to train on"));
        }
        let dim = self.dim() as usize;
        macro_rules! collect {
            ($variant:ident) => {{
                let parts = self
                    .shards()
                    .iter()
                    .map(|s| match s.rows() {
                        RowsView::$variant(r) => Ok((r, s.labels())),
                        _ => Err(LoadError::dataset(self.dir(), "shards of different encodings")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                ExamplesView::$variant(ShardedExamples::new(dim, parts, self.shards().iter().collect()))
            }};
        }
        let first = self.shards().first().ok_or_else(|| LoadError::dataset(self.dir(), "no shards"))?;
        Ok(match first.rows() {
            RowsView::SparseU16F32(_) => collect!(SparseU16F32),
            RowsView::SparseU16U8(_) => collect!(SparseU16U8),
            RowsView::SparseU16Ones(_) => collect!(SparseU16Ones),
            RowsView::SparseU32F32(_) => collect!(SparseU32F32),
            RowsView::SparseU32U8(_) => collect!(SparseU32U8),
            RowsView::SparseU32Ones(_) => collect!(SparseU32Ones),
            RowsView::DenseF32(_) => collect!(DenseF32),
            RowsView::DenseU8(_) => collect!(DenseU8),
        })
    }
}
