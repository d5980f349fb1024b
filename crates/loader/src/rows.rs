//! Validated rows of one shard, by encoding: the [`RowSet`]s that build
//! kernel rows over the mapped bytes with the unchecked constructors (the
//! shard was validated when opened), and [`RowsView`], a shard's rows in
//! whichever encoding it holds.

use rosenblatt_kernels::{DenseRow, Index, Ones, Row, SparseRow, StoredValues, U8Values, Values};

/// A column of values that yields one row's [`Values`].
pub trait ValueColumn: Copy + Send + Sync {
    /// The per-row view.
    type V: Values;
    /// Entries `s..e`.
    fn slice(&self, s: usize, e: usize) -> Self::V;
    /// Starts loading entries `s..e` into cache.
    fn prefetch(&self, s: usize, e: usize);
    /// The column of entries `s..e`.
    fn sub(&self, s: usize, e: usize) -> Self;
    /// `Some(scale)` for bytes decoding as `byte · scale`.
    fn byte_scale(&self) -> Option<f32> {
        None
    }
}

impl<'a> ValueColumn for &'a [f32] {
    type V = &'a [f32];
    #[inline(always)]
    fn slice(&self, s: usize, e: usize) -> &'a [f32] {
        &self[s..e]
    }
    #[inline(always)]
    fn prefetch(&self, s: usize, e: usize) {
        rosenblatt_kernels::prefetch(&self[s..e]);
    }
    fn sub(&self, s: usize, e: usize) -> Self {
        &self[s..e]
    }
}

/// Bytes with a scale, for whole shards.
#[derive(Clone, Copy, Debug)]
pub struct U8Column<'a> {
    bytes: &'a [u8],
    scale: f32,
}

impl<'a> U8Column<'a> {
    pub(crate) fn new(bytes: &'a [u8], scale: f32) -> Self {
        U8Column { bytes, scale }
    }
}

impl<'a> ValueColumn for U8Column<'a> {
    type V = U8Values<'a>;
    #[inline(always)]
    fn slice(&self, s: usize, e: usize) -> U8Values<'a> {
        U8Values::new(&self.bytes[s..e], self.scale)
    }
    #[inline(always)]
    fn prefetch(&self, s: usize, e: usize) {
        rosenblatt_kernels::prefetch(&self.bytes[s..e]);
    }
    fn sub(&self, s: usize, e: usize) -> Self {
        U8Column { bytes: &self.bytes[s..e], scale: self.scale }
    }
    fn byte_scale(&self) -> Option<f32> {
        Some(self.scale)
    }
}

impl ValueColumn for Ones {
    type V = Ones;
    #[inline(always)]
    fn slice(&self, _: usize, _: usize) -> Ones {
        Ones
    }
    #[inline(always)]
    fn prefetch(&self, _: usize, _: usize) {}
    fn sub(&self, _: usize, _: usize) -> Self {
        Ones
    }
}

/// Validated sparse rows of one shard.
#[derive(Clone, Copy, Debug)]
pub struct SparseRows<'a, I: Index, C> {
    dim: usize,
    offsets: &'a [u64],
    indices: &'a [I],
    col: C,
}

impl<'a, I: Index, C: ValueColumn> SparseRows<'a, I, C> {
    // Crate-private: only `Shard::rows`, after validation, builds one.
    pub(crate) fn new(dim: usize, offsets: &'a [u64], indices: &'a [I], col: C) -> Self {
        SparseRows { dim, offsets, indices, col }
    }
}

/// Validated dense rows of one shard.
#[derive(Clone, Copy, Debug)]
pub struct DenseRows<C> {
    pub(crate) dim: usize,
    pub(crate) rows: usize,
    pub(crate) col: C,
}

/// A set of rows that can be read by index.
pub trait RowSet: Send + Sync {
    /// The row view type.
    type Row: Row;
    /// Number of rows.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Row `r`. Panics if `r >= len()`.
    fn row(&self, r: usize) -> Self::Row;
    /// The dimension.
    fn dim(&self) -> usize;
    /// Starts loading row `r`'s bytes into cache.
    #[inline(always)]
    fn prefetch(&self, _r: usize) {}
    /// Rows `a..b` as a set of their own. Panics if out of range.
    fn range(&self, a: usize, b: usize) -> Self
    where
        Self: Sized;
    /// `Some(scale)` when every value is a byte times `scale`.
    fn byte_scale(&self) -> Option<f32> {
        None
    }
    /// The largest feature index with a non-zero value in any row.
    fn last_nonzero(&self) -> Option<usize> {
        (0..self.len())
            .filter_map(|r| {
                let row = self.row(r);
                (0..row.nnz()).rev().map(|k| row.entry(k)).find(|e| e.1 != 0.0).map(|e| e.0)
            })
            .max()
    }
}

impl<'a, I: Index, C: ValueColumn> RowSet for SparseRows<'a, I, C> {
    type Row = SparseRow<'a, I, C::V>;
    #[inline]
    fn len(&self) -> usize {
        self.offsets.len() - 1
    }
    #[inline]
    fn row(&self, r: usize) -> Self::Row {
        let (s, e) = (self.offsets[r] as usize, self.offsets[r + 1] as usize);
        // SAFETY: `Shard::validate` checked that offsets are monotone and end
        // at the entry count (so `s..e` is in range for indices and values),
        // and that each row's indices strictly increase below `dim`.
        unsafe { SparseRow::new_unchecked(self.dim, &self.indices[s..e], self.col.slice(s, e)) }
    }
    #[inline]
    fn dim(&self) -> usize {
        self.dim
    }
    fn byte_scale(&self) -> Option<f32> {
        self.col.byte_scale()
    }
    fn range(&self, a: usize, b: usize) -> Self {
        // Offsets index the whole shard's columns, so a window of them is
        // a valid set of rows over the same columns.
        SparseRows { offsets: &self.offsets[a..=b], ..*self }
    }
    #[inline(always)]
    fn prefetch(&self, r: usize) {
        if let (Some(&s), Some(&e)) = (self.offsets.get(r), self.offsets.get(r + 1)) {
            let (s, e) = (s as usize, e as usize);
            rosenblatt_kernels::prefetch(&self.indices[s..e]);
            self.col.prefetch(s, e);
        }
    }
}

impl<C: ValueColumn> RowSet for DenseRows<C>
where
    C::V: StoredValues,
{
    type Row = DenseRow<C::V>;
    #[inline]
    fn len(&self) -> usize {
        self.rows
    }
    #[inline]
    fn row(&self, r: usize) -> Self::Row {
        DenseRow::new(self.col.slice(r * self.dim, (r + 1) * self.dim))
    }
    #[inline]
    fn dim(&self) -> usize {
        self.dim
    }
    fn byte_scale(&self) -> Option<f32> {
        self.col.byte_scale()
    }
    fn range(&self, a: usize, b: usize) -> Self {
        assert!(a <= b && b <= self.rows, "rows {a}..{b} of {}", self.rows);
        DenseRows { dim: self.dim, rows: b - a, col: self.col.sub(a * self.dim, b * self.dim) }
    }
    #[inline(always)]
    fn prefetch(&self, r: usize) {
        if r < self.rows {
            self.col.prefetch(r * self.dim, (r + 1) * self.dim);
        }
    }
}
