//! Example sets the learners can train on without the loader — an
//! in-memory one, the lifting of every row to `(x, 1)`, a contiguous slice
//! — and the label checks every learner runs before training.

use crate::error::LearnError;
use rosenblatt_kernels::{Backend, CellWidth, Examples, KernelError, Row, SparseRow};

/// Rows per block when data larger than memory is read block by block
/// ([`crate::Order::Blocks`]), each block released after use (the
/// generators' shard size: 51 MB of MNIST-sized dense rows).
pub const BLOCK_ROWS: usize = 1 << 16;

/// Sparse f32 rows held in vectors (checked once when added).
#[derive(Clone, Debug, Default)]
pub struct InMemoryExamples {
    dim: usize,
    offsets: Vec<usize>,
    indices: Vec<u32>,
    values: Vec<f32>,
    labels: Vec<f32>,
}

impl InMemoryExamples {
    /// An empty set of dimension `dim`.
    pub fn new(dim: usize) -> Self {
        InMemoryExamples { dim, offsets: vec![0], ..Default::default() }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Adds a row (checked: sorted unique indices below the dimension).
    pub fn push(&mut self, indices: &[u32], values: &[f32], label: f32) -> Result<(), KernelError> {
        SparseRow::try_new(self.dim, indices, values)?;
        self.indices.extend_from_slice(indices);
        self.values.extend_from_slice(values);
        self.offsets.push(self.indices.len());
        self.labels.push(label);
        Ok(())
    }

    /// Adds a dense row, storing its non-zeros.
    pub fn push_dense(&mut self, x: &[f32], label: f32) -> Result<(), KernelError> {
        if x.len() != self.dim {
            return Err(KernelError::DimMismatch { left: x.len(), right: self.dim });
        }
        let (i, v): (Vec<u32>, Vec<f32>) =
            x.iter().enumerate().filter(|e| *e.1 != 0.0).map(|(i, &v)| (i as u32, v)).unzip();
        self.push(&i, &v, label)
    }
}

// Implemented for the reference, so rows borrow the set for its lifetime.
impl<'a> Examples for &'a InMemoryExamples {
    type Row = SparseRow<'a, u32, &'a [f32]>;
    fn len(&self) -> usize {
        self.labels.len()
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn row(&self, i: usize) -> Self::Row {
        let (s, e) = (self.offsets[i], self.offsets[i + 1]);
        // SAFETY: `push` checked this row with `SparseRow::try_new`, and the
        // columns are only ever appended to.
        unsafe { SparseRow::new_unchecked(self.dim, &self.indices[s..e], &self.values[s..e]) }
    }
    fn label(&self, i: usize) -> f32 {
        self.labels[i]
    }
}

/// A row lifted to `(x, 1)`: one more feature, at index `x.dim()`, equal to 1.
/// Training without a bias on lifted rows is training with a bias.
#[derive(Clone, Copy, Debug)]
pub struct Lifted<R>(pub R);

impl<R: Row> Row for Lifted<R> {
    fn dim(&self) -> usize {
        self.0.dim() + 1
    }
    fn nnz(&self) -> usize {
        self.0.nnz() + 1
    }
    fn entry(&self, k: usize) -> (usize, f32) {
        if k == self.0.nnz() { (self.0.dim(), 1.0) } else { self.0.entry(k) }
    }
    fn dot_in(&self, b: Backend, w: &[f32]) -> f32 {
        let d = self.0.dim();
        self.0.dot_in(b, &w[..d]) + w[d]
    }
    fn dot8_in(&self, b: Backend, ws: [&[f32]; 8]) -> [f32; 8] {
        let d = self.0.dim();
        let mut out = self.0.dot8_in(b, ws.map(|w| &w[..d]));
        out.iter_mut().zip(ws).for_each(|(o, w)| *o += w[d]);
        out
    }
    fn dot_t8_in(&self, b: Backend, t: &[[f32; 8]]) -> [f32; 8] {
        let d = self.0.dim();
        let mut out = self.0.dot_t8_in(b, &t[..d]);
        out.iter_mut().zip(t[d]).for_each(|(o, w)| *o += w);
        out
    }
    fn axpy_in(&self, b: Backend, alpha: f32, w: &mut [f32]) {
        let d = self.0.dim();
        self.0.axpy_in(b, alpha, &mut w[..d]);
        w[d] += alpha;
    }
    fn axpy2_in(&self, b: Backend, a: f32, w: &mut [f32], c: f32, u: &mut [f32]) {
        let d = self.0.dim();
        self.0.axpy2_in(b, a, &mut w[..d], c, &mut u[..d]);
        w[d] += a;
        u[d] += c;
    }
    fn norm_sq_in(&self, b: Backend) -> f32 {
        self.0.norm_sq_in(b) + 1.0
    }
    fn axpy_terms(&self, alpha: f32, out: &mut Vec<(u32, f32)>) -> bool {
        let n = out.len();
        if self.0.axpy_terms(alpha, out)
            && let Ok(d) = u32::try_from(self.0.dim())
        {
            out.push((d, alpha));
            return true;
        }
        out.truncate(n);
        false
    }
    fn adagrad_in(&self, b: Backend, c: f64, g: f64, w: &mut [f32], g2: &mut [f32], s: Option<&[f32]>) {
        let d = self.0.dim();
        self.0.adagrad_in(b, c, g, &mut w[..d], &mut g2[..d], s.map(|s| &s[..d]));
        (g2[d], w[d]) = rosenblatt_kernels::scalar::adagrad_step(g2[d], w[d], s.map_or(1.0, |s| s[d]), 1.0, c, g);
    }
    fn dot_cells_in(&self, b: Backend, cells: &[f32], width: CellWidth) -> f32 {
        let at = self.0.dim() * width.floats();
        self.0.dot_cells_in(b, &cells[..at], width) + cells[at]
    }
    fn adagrad_cells_in(&self, b: Backend, c: f64, g: f64, cells: &mut [f32], width: CellWidth) {
        let at = self.0.dim() * width.floats();
        let (inner, last) = cells.split_at_mut(at);
        self.0.adagrad_cells_in(b, c, g, inner, width);
        // Four-float cells carry NAG's scale third.
        let s = if width == CellWidth::Four { last[2] } else { 1.0 };
        (last[1], last[0]) = rosenblatt_kernels::scalar::adagrad_step(last[1], last[0], s, 1.0, c, g);
    }
}

/// Every row of `E` lifted to `(x, 1)`.
#[derive(Clone, Copy, Debug)]
pub struct LiftedExamples<'e, E>(pub &'e E);

impl<E: Examples> Examples for LiftedExamples<'_, E> {
    type Row = Lifted<E::Row>;
    fn len(&self) -> usize {
        self.0.len()
    }
    fn dim(&self) -> usize {
        self.0.dim() + 1
    }
    fn row(&self, i: usize) -> Self::Row {
        Lifted(self.0.row(i))
    }
    fn label(&self, i: usize) -> f32 {
        self.0.label(i)
    }
    fn weight(&self, i: usize) -> f32 {
        self.0.weight(i)
    }
    fn weighted(&self) -> bool {
        self.0.weighted()
    }
    fn find_label(&self, bad: impl Fn(f32) -> bool) -> Option<usize> {
        self.0.find_label(bad)
    }
}

/// Another set's examples with an importance weight each (checked once:
/// one per row, finite and ≥ 0).
#[derive(Clone, Copy, Debug)]
pub struct Weighted<'w, E> {
    data: E,
    weights: &'w [f32],
}

impl<'w, E: Examples> Weighted<'w, E> {
    /// `data`'s rows with `weights[i]` for row `i`.
    pub fn new(data: E, weights: &'w [f32]) -> Result<Self, LearnError> {
        check_weights(weights, data.len())?;
        Ok(Weighted { data, weights })
    }
}

/// Checks a weight column: one per row, each finite and ≥ 0.
pub fn check_weights(weights: &[f32], rows: usize) -> Result<(), LearnError> {
    if weights.len() != rows {
        return Err(LearnError::Weights { index: None, what: format!("{} weights for {rows} rows", weights.len()) });
    }
    match weights.iter().position(|w| !(w.is_finite() && *w >= 0.0)) {
        Some(i) => Err(LearnError::Weights { index: Some(i), what: format!("weight {}", weights[i]) }),
        None => Ok(()),
    }
}

impl<E: Examples> Examples for Weighted<'_, E> {
    type Row = E::Row;
    fn len(&self) -> usize {
        self.data.len()
    }
    fn dim(&self) -> usize {
        self.data.dim()
    }
    fn row(&self, i: usize) -> E::Row {
        self.data.row(i)
    }
    fn label(&self, i: usize) -> f32 {
        self.data.label(i)
    }
    #[inline(always)]
    fn weight(&self, i: usize) -> f32 {
        self.weights[i]
    }
    fn weighted(&self) -> bool {
        true
    }
    fn find_label(&self, bad: impl Fn(f32) -> bool) -> Option<usize> {
        self.data.find_label(bad)
    }
    fn prefetch(&self, i: usize) {
        self.data.prefetch(i)
    }
    fn byte_scale(&self) -> Option<f32> {
        self.data.byte_scale()
    }
    fn release(&self, range: std::ops::Range<usize>) {
        self.data.release(range)
    }
}

/// Checks that every label is ±1.
pub(crate) fn check_binary<E: Examples>(data: &E) -> Result<(), LearnError> {
    match data.find_label(|l| l != 1.0 && l != -1.0) {
        Some(index) => Err(LearnError::NotBinary { index, label: data.label(index) }),
        None => Ok(()),
    }
}

/// Checks that every label is a class id `0..classes`.
pub(crate) fn check_classes<E: Examples>(data: &E, classes: usize) -> Result<(), LearnError> {
    let bad = |l: f32| !(l >= 0.0 && l.fract() == 0.0 && (l as usize) < classes);
    match data.find_label(bad) {
        Some(index) => Err(LearnError::NotAClass { index, label: data.label(index), classes }),
        None => Ok(()),
    }
}

/// A contiguous run of another set's examples: `start..start + len`.
#[derive(Clone, Copy, Debug)]
pub struct Slice<'e, E> {
    data: &'e E,
    start: usize,
    len: usize,
}

impl<'e, E: Examples> Slice<'e, E> {
    /// Examples `start..start + len` of `data`; panics if out of range.
    pub fn new(data: &'e E, start: usize, len: usize) -> Self {
        assert!(start.checked_add(len).is_some_and(|e| e <= data.len()), "slice outside the examples");
        Slice { data, start, len }
    }
}

impl<E: Examples> Examples for Slice<'_, E> {
    type Row = E::Row;
    fn len(&self) -> usize {
        self.len
    }
    fn dim(&self) -> usize {
        self.data.dim()
    }
    fn row(&self, i: usize) -> E::Row {
        assert!(i < self.len, "example {i} of {}", self.len);
        self.data.row(self.start + i)
    }
    fn label(&self, i: usize) -> f32 {
        self.data.label(self.start + i)
    }
    fn weight(&self, i: usize) -> f32 {
        self.data.weight(self.start + i)
    }
    fn weighted(&self) -> bool {
        self.data.weighted()
    }
    fn prefetch(&self, i: usize) {
        if i < self.len {
            self.data.prefetch(self.start + i)
        }
    }
    fn release(&self, range: std::ops::Range<usize>) {
        let (a, b) = (range.start.min(self.len), range.end.min(self.len));
        if a < b {
            self.data.release(self.start + a..self.start + b);
        }
    }
}
