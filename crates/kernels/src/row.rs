//! Row views and the operations learners call on them.
//!
//! A [`SparseRow`] is checked once, at construction: indices strictly
//! increasing and below the dimension, one value per index. The kernels then
//! index the weights without bounds checks, having checked only that the
//! weight vector covers the row's dimension. Rows the loader has already
//! validated are built with [`SparseRow::new_unchecked`].

use crate::backend::{self, Backend};
use crate::error::KernelError;
use crate::kernel::{AdagradStep, Cells, Contiguous, Indexed};
use crate::values::{Index, StoredValues, Values};

/// A row of a dataset, in whatever encoding it is stored.
///
/// Every method that takes weights panics if they are shorter than
/// [`Row::dim`]; that is a bug in the caller, not bad data.
pub trait Row: Copy + Send + Sync {
    /// The dimension: every weight vector used with this row has at least this
    /// many entries.
    fn dim(&self) -> usize;
    /// Number of stored entries (the dimension for dense rows).
    fn nnz(&self) -> usize;
    /// Stored entry `k` as (feature index, decoded value). Panics if
    /// `k >= nnz()`.
    fn entry(&self, k: usize) -> (usize, f32);

    /// `row · w` on a given backend.
    fn dot_in(&self, b: Backend, w: &[f32]) -> f32;
    /// `[row · w_0, …, row · w_7]` on a given backend.
    fn dot8_in(&self, b: Backend, ws: [&[f32]; 8]) -> [f32; 8];
    /// `[row · w_0, …, row · w_7]` with the vectors stored transposed,
    /// `t[i][b]`, on a given backend.
    fn dot_t8_in(&self, b: Backend, t: &[[f32; 8]]) -> [f32; 8];
    /// `w += alpha · row` on a given backend.
    fn axpy_in(&self, b: Backend, alpha: f32, w: &mut [f32]);
    /// `w += a · row` and `u += c · row` in one sweep, on a given backend.
    fn axpy2_in(&self, b: Backend, a: f32, w: &mut [f32], c: f32, u: &mut [f32]);
    /// `‖row‖²` on a given backend.
    fn norm_sq_in(&self, b: Backend) -> f32;
    /// AdaGrad's step ([`Row::adagrad`]) on a given backend.
    fn adagrad_in(&self, b: Backend, c: f64, g: f64, w: &mut [f32], g2: &mut [f32], s: Option<&[f32]>);
    /// `row · w` with the weights in cells ([`Row::dot_cells`]) on a
    /// given backend.
    fn dot_cells_in(&self, b: Backend, cells: &[f32], width: CellWidth) -> f32;
    /// AdaGrad's or NAG's step on cells ([`Row::adagrad_cells`]) on a
    /// given backend.
    fn adagrad_cells_in(&self, b: Backend, c: f64, g: f64, cells: &mut [f32], width: CellWidth);

    /// `row · w`.
    #[inline]
    fn dot(&self, w: &[f32]) -> f32 {
        self.dot_in(Backend::best(), w)
    }
    /// `[row · w_0, …, row · w_7]`: one pass over the row for eight weight
    /// vectors.
    #[inline]
    fn dot8(&self, ws: [&[f32]; 8]) -> [f32; 8] {
        self.dot8_in(Backend::best(), ws)
    }
    /// `[row · w_0, …, row · w_7]` with the vectors stored transposed
    /// (`t[i][b]` is feature `i` of vector `b`): sparse rows pay only for
    /// their non-zeros.
    #[inline]
    fn dot_t8(&self, t: &[[f32; 8]]) -> [f32; 8] {
        self.dot_t8_in(Backend::best(), t)
    }
    /// `w += alpha · row`.
    #[inline]
    fn axpy(&self, alpha: f32, w: &mut [f32]) {
        self.axpy_in(Backend::best(), alpha, w)
    }
    /// `w += a · row` and `u += c · row` in one sweep (lazy averaging).
    #[inline]
    fn axpy2(&self, a: f32, w: &mut [f32], c: f32, u: &mut [f32]) {
        self.axpy2_in(Backend::best(), a, w, c, u)
    }
    /// `‖row‖²`.
    #[inline]
    fn norm_sq(&self) -> f32 {
        self.norm_sq_in(Backend::best())
    }
    /// AdaGrad's per-coordinate step (NAG's with `s`): for every entry
    /// `(i, x)` whose value is not zero, `(g2[i], w[i])` becomes
    /// [`crate::scalar::adagrad_step`]`(g2[i], w[i], s[i] or 1, x, c, g)`,
    /// to the bit, on every backend. Panics if `w`, `g2` or `s` is shorter
    /// than the dimension.
    #[inline]
    fn adagrad(&self, c: f64, g: f64, w: &mut [f32], g2: &mut [f32], s: Option<&[f32]>) {
        self.adagrad_in(Backend::best(), c, g, w, g2, s)
    }
    /// `row · w` with the weights in the first float of each cell of
    /// `width` floats (`w_i = cells[i·width]`): the same sum, in the same
    /// order and bits, as [`Row::dot`] of those weights. Panics if `cells`
    /// holds fewer than a cell per feature.
    #[inline]
    fn dot_cells(&self, cells: &[f32], width: CellWidth) -> f32 {
        self.dot_cells_in(Backend::best(), cells, width)
    }
    /// [`Row::adagrad`] with each feature's state side by side in one cell,
    /// so that a step touches one cache line per feature, not one per
    /// array: `[w_i, G_i]` ([`CellWidth::Two`], AdaGrad, every scale 1) or
    /// `[w_i, G_i, s_i, unused]` ([`CellWidth::Four`], NAG) from float
    /// `i·width`. The same bits as [`Row::adagrad`] on separate arrays.
    /// Panics if `cells` holds fewer than a cell per feature.
    #[inline]
    fn adagrad_cells(&self, c: f64, g: f64, cells: &mut [f32], width: CellWidth) {
        self.adagrad_cells_in(Backend::best(), c, g, cells, width)
    }
    /// The increments of [`Row::axpy`]`(alpha, w)`, for an update applied
    /// later: appends `(i, δ)` for each stored entry, so that adding each
    /// `δ` to `w[i]` (in any order: the indices are distinct) is that call's
    /// update bit for bit. Returns `false`, appending nothing, for rows
    /// whose update is not one add per entry (dense rows, updated in fused
    /// lanes).
    #[inline]
    fn axpy_terms(&self, _alpha: f32, _out: &mut Vec<(u32, f32)>) -> bool {
        false
    }
    /// Starts loading the entries of `state` this row will touch (a hint):
    /// for a sparse row, `state[i]` for each of its indices. Dense rows
    /// touch their whole (short) state in order, which the hardware
    /// prefetcher follows, so they do nothing. Panics if `state` is shorter
    /// than the row's dimension.
    #[inline]
    fn prefetch_state<T>(&self, _state: &[T]) {}
}

#[inline(always)]
#[track_caller]
fn check_weights(len: usize, dim: usize) {
    assert!(len >= dim, "weight vector of length {len} is shorter than the row dimension {dim}");
}

/// Checks that AdaGrad's state covers `dim`, and hands it to the kernel.
#[inline(always)]
#[track_caller]
fn adagrad_step(dim: usize, c: f64, g: f64, w: &mut [f32], g2: &mut [f32], s: Option<&[f32]>) -> AdagradStep {
    check_weights(w.len(), dim);
    check_weights(g2.len(), dim);
    if let Some(s) = s {
        check_weights(s.len(), dim);
    }
    AdagradStep { c, g, w: w.as_mut_ptr(), g2: g2.as_mut_ptr(), s: s.map(<[f32]>::as_ptr) }
}

/// How many floats hold one feature's state side by side, for
/// [`Row::adagrad_cells`] and [`Row::dot_cells`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellWidth {
    /// `[w_i, G_i]`: AdaGrad's weight and sum of squared gradients.
    Two,
    /// `[w_i, G_i, s_i, unused]`: NAG's, with its scale (16 bytes, so a
    /// cell never straddles a cache line).
    Four,
}

impl CellWidth {
    /// Floats a cell.
    #[inline(always)]
    pub fn floats(self) -> usize {
        1 << self.shift()
    }
    #[inline(always)]
    fn shift(self) -> u32 {
        match self {
            CellWidth::Two => 1,
            CellWidth::Four => 2,
        }
    }
}

/// Checks that `cells` hold a cell per feature of `dim`.
#[inline(always)]
#[track_caller]
fn check_cells(len: usize, dim: usize, width: CellWidth) {
    let need = dim.checked_mul(width.floats());
    assert!(
        need.is_some_and(|n| len >= n),
        "cells of length {len} hold fewer than {dim} cells of {} floats",
        width.floats()
    );
}

/// As [`adagrad_step`], for the state in cells ([`Cells`]): the weights
/// from float 0, the sums from float 1 and, in four-float cells, the
/// scales from float 2, each at the cell's stride.
#[inline(always)]
#[track_caller]
fn adagrad_cells_step(dim: usize, c: f64, g: f64, cells: &mut [f32], width: CellWidth) -> AdagradStep {
    check_cells(cells.len(), dim, width);
    let w = cells.as_mut_ptr();
    // `wrapping_add`: no cell is read unless the row has an entry, and then
    // these lie inside the first cell.
    let s = (width == CellWidth::Four).then(|| w.wrapping_add(2).cast_const());
    AdagradStep { c, g, w, g2: w.wrapping_add(1), s }
}

/// A sparse row: sorted unique indices `I` below `dim`, and their values `V`.
#[derive(Clone, Copy, Debug)]
pub struct SparseRow<'a, I: Index, V: Values> {
    indices: &'a [I],
    values: V,
    dim: usize,
}

impl<'a, I: Index, V: Values> SparseRow<'a, I, V> {
    /// Checks the invariants the kernels rely on and builds the row: one value
    /// per index (unless values are implicit), `dim` representable by `I`,
    /// indices strictly increasing and below `dim`.
    pub fn try_new(dim: usize, indices: &'a [I], values: V) -> Result<Self, KernelError> {
        if dim as u64 > I::MAX_DIM {
            return Err(KernelError::DimTooLarge { dim, max: I::MAX_DIM, index_bits: I::BITS });
        }
        if let Some(n) = values.stored_len()
            && n != indices.len()
        {
            return Err(KernelError::LengthMismatch { indices: indices.len(), values: n });
        }
        check_indices(dim, indices)?;
        Ok(SparseRow { indices, values, dim })
    }

    /// Builds a row without checking it.
    ///
    /// # Safety
    /// The invariants of [`SparseRow::try_new`] hold: `values` holds
    /// `indices.len()` values (or is [`crate::Ones`]), and the indices are
    /// strictly increasing and below `dim`. The kernels read and write
    /// `w[index]` without bounds checks on this promise.
    #[inline(always)]
    pub unsafe fn new_unchecked(dim: usize, indices: &'a [I], values: V) -> Self {
        debug_assert!(Self::try_new(dim, indices, values).is_ok());
        SparseRow { indices, values, dim }
    }

    /// The indices.
    #[inline]
    pub fn indices(&self) -> &'a [I] {
        self.indices
    }
    /// The values.
    #[inline]
    pub fn values(&self) -> V {
        self.values
    }

    /// `u32` indices at or above 2^31 cannot use the signed AVX2 gather.
    #[inline(always)]
    fn backend_for(&self, b: Backend) -> Backend {
        if I::BITS == 32 && b.gathers_i32() && self.dim > (1usize << 31) { Backend::portable() } else { b }
    }
    /// As [`SparseRow::backend_for`], for a gather of cells, whose 32-bit
    /// offsets are the indices times the cell's floats.
    #[inline(always)]
    fn backend_for_cells(&self, b: Backend, width: CellWidth) -> Backend {
        let reach = self.dim.saturating_mul(width.floats());
        if b.gathers_i32() && reach > (1usize << 31) { Backend::portable() } else { b }
    }
}

/// Checks that `indices` are strictly increasing and below `dim`.
pub fn check_indices<I: Index>(dim: usize, indices: &[I]) -> Result<(), KernelError> {
    for (k, pair) in indices.windows(2).enumerate() {
        if pair[0] >= pair[1] {
            return Err(KernelError::NotIncreasing {
                position: k + 1,
                previous: pair[0].to_usize(),
                index: pair[1].to_usize(),
            });
        }
    }
    if let Some(&last) = indices.last()
        && last.to_usize() >= dim
    {
        return Err(KernelError::IndexOutOfRange { position: indices.len() - 1, index: last.to_usize(), dim });
    }
    Ok(())
}

impl<I: Index, V: Values> Row for SparseRow<'_, I, V> {
    #[inline(always)]
    fn dim(&self) -> usize {
        self.dim
    }
    #[inline(always)]
    fn nnz(&self) -> usize {
        self.indices.len()
    }
    #[inline]
    fn entry(&self, k: usize) -> (usize, f32) {
        (self.indices[k].to_usize(), self.values.decode(k))
    }

    #[inline]
    fn dot_in(&self, b: Backend, w: &[f32]) -> f32 {
        check_weights(w.len(), self.dim);
        let l = Indexed(self.indices.as_ptr());
        // SAFETY: the row's invariants put every index below `dim <= w.len()`,
        // and `backend_for` keeps u32 gathers below 2^31.
        unsafe { backend::dot(self.backend_for(b), l, self.values, self.nnz(), w.as_ptr()) }
    }
    #[inline]
    fn dot8_in(&self, b: Backend, ws: [&[f32]; 8]) -> [f32; 8] {
        ws.iter().for_each(|w| check_weights(w.len(), self.dim));
        let l = Indexed(self.indices.as_ptr());
        // SAFETY: as in `dot_in`, for each of the eight vectors.
        unsafe { backend::dot8(self.backend_for(b), l, self.values, self.nnz(), &ws.map(<[f32]>::as_ptr)) }
    }
    #[inline]
    fn dot_t8_in(&self, b: Backend, t: &[[f32; 8]]) -> [f32; 8] {
        check_weights(t.len(), self.dim);
        let l = Indexed(self.indices.as_ptr());
        // SAFETY: every index is below `dim <= t.len()` (the row's invariants).
        unsafe { backend::dot_t8(b, l, self.values, self.nnz(), t.as_ptr().cast()) }
    }
    #[inline]
    fn axpy_in(&self, b: Backend, alpha: f32, w: &mut [f32]) {
        check_weights(w.len(), self.dim);
        let l = Indexed(self.indices.as_ptr());
        // SAFETY: as in `dot_in`; `w` is exclusively borrowed.
        unsafe { backend::axpy(self.backend_for(b), l, self.values, self.nnz(), alpha, w.as_mut_ptr()) }
    }
    #[inline]
    fn axpy2_in(&self, b: Backend, a: f32, w: &mut [f32], c: f32, u: &mut [f32]) {
        check_weights(w.len(), self.dim);
        check_weights(u.len(), self.dim);
        let l = Indexed(self.indices.as_ptr());
        let (n, v, b) = (self.nnz(), self.values, self.backend_for(b));
        // SAFETY: as in `axpy_in`; `w` and `u` are distinct exclusive borrows.
        unsafe { backend::axpy2(b, l, v, n, a, w.as_mut_ptr(), c, u.as_mut_ptr()) }
    }
    #[inline]
    fn norm_sq_in(&self, b: Backend) -> f32 {
        // SAFETY: the row stores `nnz` values (or none, for `Ones`).
        unsafe { backend::norm_sq(b, self.values, self.nnz()) }
    }
    #[inline]
    fn adagrad_in(&self, b: Backend, c: f64, g: f64, w: &mut [f32], g2: &mut [f32], s: Option<&[f32]>) {
        let st = adagrad_step(self.dim, c, g, w, g2, s);
        let l = Indexed(self.indices.as_ptr());
        // SAFETY: as in `axpy_in`, for `w`, `g2` and `s`, which
        // `adagrad_step` checked; `w` and `g2` are distinct exclusive
        // borrows.
        unsafe { backend::adagrad(self.backend_for(b), l, self.values, self.nnz(), st) }
    }
    #[inline]
    fn dot_cells_in(&self, b: Backend, cells: &[f32], width: CellWidth) -> f32 {
        check_cells(cells.len(), self.dim, width);
        let l = Cells { rows: Indexed(self.indices.as_ptr()), shift: width.shift() };
        // SAFETY: as in `dot_in`, for the cells: every index is below
        // `dim`, so its cell lies in `cells` (checked), and
        // `backend_for_cells` keeps the shifted gathers' offsets below 2^31.
        unsafe { backend::dot(self.backend_for_cells(b, width), l, self.values, self.nnz(), cells.as_ptr()) }
    }
    #[inline]
    fn adagrad_cells_in(&self, b: Backend, c: f64, g: f64, cells: &mut [f32], width: CellWidth) {
        let st = adagrad_cells_step(self.dim, c, g, cells, width);
        let l = Cells { rows: Indexed(self.indices.as_ptr()), shift: width.shift() };
        // SAFETY: as in `adagrad_in`, for the cells (`adagrad_cells_step`
        // checked they cover the dimension): the weight, sum and scale of
        // feature `i` are floats 0, 1 and 2 of its own cell, distinct for
        // distinct indices.
        unsafe { backend::adagrad(self.backend_for_cells(b, width), l, self.values, self.nnz(), st) }
    }
    #[inline]
    fn axpy_terms(&self, alpha: f32, out: &mut Vec<(u32, f32)>) -> bool {
        // The sparse kernels' update: the scale folded into the
        // coefficient once, then one product and one add per entry.
        let a = alpha * self.values.scale();
        // Indices are below `dim`, which `I::MAX_DIM` (at most 2^32) bounds.
        out.extend(self.indices.iter().enumerate().map(|(k, &i)| (i.to_usize() as u32, a * self.values.raw(k))));
        true
    }
    #[inline]
    fn prefetch_state<T>(&self, state: &[T]) {
        check_weights(state.len(), self.dim);
        #[cfg(target_arch = "x86_64")]
        for &i in self.indices {
            use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: every index is below `dim <= state.len()` (the row's
            // invariants), so the address lies inside `state`; a prefetch
            // never faults and reads nothing architecturally.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(state.as_ptr().add(i.to_usize()).cast()) };
        }
    }
}

/// A dense row: one stored value per feature.
#[derive(Clone, Copy, Debug)]
pub struct DenseRow<V: StoredValues> {
    values: V,
}

impl<V: StoredValues> DenseRow<V> {
    /// The row whose feature `i` is `values[i]`; its dimension is
    /// `values.len()`.
    #[inline(always)]
    pub fn new(values: V) -> Self {
        DenseRow { values }
    }
    /// The values.
    #[inline]
    pub fn values(&self) -> V {
        self.values
    }
}

impl<V: StoredValues> Row for DenseRow<V> {
    #[inline(always)]
    fn dim(&self) -> usize {
        self.values.len()
    }
    #[inline(always)]
    fn nnz(&self) -> usize {
        self.values.len()
    }
    #[inline]
    fn entry(&self, k: usize) -> (usize, f32) {
        (k, self.values.decode(k))
    }

    #[inline]
    fn dot_in(&self, b: Backend, w: &[f32]) -> f32 {
        check_weights(w.len(), self.dim());
        // SAFETY: entry `k` uses `w[k]`, `k < len <= w.len()`.
        unsafe { backend::dot(b, Contiguous, self.values, self.dim(), w.as_ptr()) }
    }
    #[inline]
    fn dot8_in(&self, b: Backend, ws: [&[f32]; 8]) -> [f32; 8] {
        ws.iter().for_each(|w| check_weights(w.len(), self.dim()));
        // SAFETY: entry `k` uses `w_b[k]`, `k < len <= w_b.len()` for each vector.
        unsafe { backend::dot8(b, Contiguous, self.values, self.dim(), &ws.map(<[f32]>::as_ptr)) }
    }
    #[inline]
    fn dot_t8_in(&self, b: Backend, t: &[[f32; 8]]) -> [f32; 8] {
        check_weights(t.len(), self.dim());
        // SAFETY: entry `k` reads `t[k]`, `k < dim <= t.len()`.
        unsafe { backend::dot_t8(b, Contiguous, self.values, self.dim(), t.as_ptr().cast()) }
    }
    #[inline]
    fn axpy_in(&self, b: Backend, alpha: f32, w: &mut [f32]) {
        check_weights(w.len(), self.dim());
        // SAFETY: as in `dot_in`; `w` is exclusively borrowed.
        unsafe { backend::axpy(b, Contiguous, self.values, self.dim(), alpha, w.as_mut_ptr()) }
    }
    #[inline]
    fn axpy2_in(&self, b: Backend, a: f32, w: &mut [f32], c: f32, u: &mut [f32]) {
        check_weights(w.len(), self.dim());
        check_weights(u.len(), self.dim());
        let (n, v) = (self.dim(), self.values);
        // SAFETY: as in `axpy_in`; `w` and `u` are distinct exclusive borrows.
        unsafe { backend::axpy2(b, Contiguous, v, n, a, w.as_mut_ptr(), c, u.as_mut_ptr()) }
    }
    #[inline]
    fn norm_sq_in(&self, b: Backend) -> f32 {
        // SAFETY: the row stores `dim` values.
        unsafe { backend::norm_sq(b, self.values, self.dim()) }
    }
    #[inline]
    fn adagrad_in(&self, b: Backend, c: f64, g: f64, w: &mut [f32], g2: &mut [f32], s: Option<&[f32]>) {
        let st = adagrad_step(self.dim(), c, g, w, g2, s);
        // SAFETY: entry `k` uses index `k < dim`, which `w`, `g2` and `s`
        // cover (`adagrad_step` checked); `w` and `g2` are distinct
        // exclusive borrows.
        unsafe { backend::adagrad(b, Contiguous, self.values, self.dim(), st) }
    }
    #[inline]
    fn dot_cells_in(&self, b: Backend, cells: &[f32], width: CellWidth) -> f32 {
        check_cells(cells.len(), self.dim(), width);
        let l = Cells { rows: Contiguous, shift: width.shift() };
        // SAFETY: entry `k` reads cell `k < dim`, which `cells` holds (checked).
        unsafe { backend::dot(b, l, self.values, self.dim(), cells.as_ptr()) }
    }
    #[inline]
    fn adagrad_cells_in(&self, b: Backend, c: f64, g: f64, cells: &mut [f32], width: CellWidth) {
        let st = adagrad_cells_step(self.dim(), c, g, cells, width);
        let l = Cells { rows: Contiguous, shift: width.shift() };
        // SAFETY: entry `k` uses cell `k < dim`, which the cells cover
        // (`adagrad_cells_step` checked); the cells are exclusively
        // borrowed.
        unsafe { backend::adagrad(b, l, self.values, self.dim(), st) }
    }
}

/// `a · b` for two sparse rows over the same index type: a merge of the two
/// sorted index lists. The voted perceptron needs it to score a row against
/// stored mistakes.
pub fn sparse_dot_sparse<I: Index, V1: Values, V2: Values>(a: &SparseRow<'_, I, V1>, b: &SparseRow<'_, I, V2>) -> f32 {
    let (ia, ib) = (a.indices, b.indices);
    let (mut p, mut q, mut s) = (0, 0, 0.0f32);
    while p < ia.len() && q < ib.len() {
        let (x, y) = (ia[p], ib[q]);
        if x == y {
            s += a.values.raw(p) * b.values.raw(q);
        }
        // Advance both on a match, else the smaller: no data-dependent jump
        // beyond the match test.
        p += usize::from(x <= y);
        q += usize::from(y <= x);
    }
    s * (a.values.scale() * b.values.scale())
}
