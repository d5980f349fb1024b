//! Where [`crate::sgd::Sgd`] keeps its per-feature weights `v` and
//! AdaGrad's sums of squared gradients `G`: two arrays, or one array of
//! cells `[v_i, G_i]`.
//!
//! Why cells: an adaptive step reads and writes both `v_i` and `G_i` at
//! every entry of the row. In two arrays over a dimension past the cache,
//! that is two cache misses per entry; side by side in 8 bytes it is one.
//! A plain C copy of the logistic AdaGrad pass over the sparse set hashed
//! into 2^20 features (`benches/c/adagrad_layout.c`) ran 1.15–1.7× faster
//! with cells (SPEED.md#adagrads-step). Below that dimension both arrays
//! stay in cache, and a dense row's steps load and store eight contiguous
//! floats of each, which cells would turn into gathers: two arrays there.
//!
//! Both layouts hold the same numbers and step them with the same
//! arithmetic, so a model's bits do not depend on which is used.

use crate::error::LearnError;
use crate::memory::{StateVec, zeros};
use rosenblatt_kernels::Row;

/// `v` over `dim` features and, for adaptive steps, `G` over `dim + 1`
/// (the bias's last).
#[derive(Clone, Debug)]
pub(crate) enum Coords {
    /// `v` and `G` apart (`G` empty unless adaptive).
    Split { v: StateVec<f32>, g2: StateVec<f32> },
    /// Cell `i` is `[v_i, G_i]`; cell `dim` holds the bias's `G` (its `v`
    /// is unused, zero).
    Cells { cells: StateVec<[f32; 2]>, dim: usize },
}

impl Coords {
    /// Zeros; `adaptive` keeps `G`, and `cells` lays it beside `v`.
    pub(crate) fn new(dim: usize, adaptive: bool, cells: bool) -> Result<Self, LearnError> {
        Ok(if adaptive && cells {
            Coords::Cells { cells: zeros(dim + 1)?, dim }
        } else {
            Coords::Split { v: zeros(dim)?, g2: if adaptive { zeros(dim + 1)? } else { StateVec::default() } }
        })
    }

    pub(crate) fn dim(&self) -> usize {
        match self {
            Coords::Split { v, .. } => v.len(),
            Coords::Cells { dim, .. } => *dim,
        }
    }

    /// `x · v`.
    #[inline]
    pub(crate) fn dot<R: Row>(&self, x: &R) -> f32 {
        match self {
            Coords::Split { v, .. } => x.dot(v),
            Coords::Cells { cells, dim } => x.dot_pairs(&cells[..*dim]),
        }
    }

    /// `v += a·x`. Only plain steps add so, and their state is never in
    /// cells ([`Coords::new`]); on cells this adds entry by entry, the same
    /// sum to within the kernel's rounding of a byte row's scale.
    #[inline]
    pub(crate) fn axpy<R: Row>(&mut self, x: &R, a: f32) {
        match self {
            Coords::Split { v, .. } => x.axpy(a, v),
            Coords::Cells { .. } => {
                let (v, stride) = self.strided_mut();
                for k in 0..x.nnz() {
                    let (i, xi) = x.entry(k);
                    v[i * stride] += a * xi;
                }
            }
        }
    }

    /// AdaGrad's step on the row (NAG's with scales `s`).
    #[inline]
    pub(crate) fn adagrad<R: Row>(&mut self, x: &R, c: f64, g: f64, s: Option<&[f32]>) {
        match self {
            Coords::Split { v, g2 } => x.adagrad(c, g, v, g2, s),
            Coords::Cells { cells, dim } => x.adagrad_pairs(c, g, &mut cells[..*dim], s),
        }
    }

    /// Starts loading the state the row will touch.
    #[inline(always)]
    pub(crate) fn prefetch<R: Row>(&self, x: &R) {
        match self {
            Coords::Split { v, g2 } => {
                x.prefetch_state(v);
                if !g2.is_empty() {
                    x.prefetch_state(g2);
                }
            }
            Coords::Cells { cells, .. } => x.prefetch_state(cells),
        }
    }

    /// `v`, in order.
    pub(crate) fn weights(&self) -> impl Iterator<Item = f32> + '_ {
        // One of the two is empty.
        let (v, cells): (&[f32], &[[f32; 2]]) = match self {
            Coords::Split { v, .. } => (v, &[]),
            Coords::Cells { cells, dim } => (&[], &cells[..*dim]),
        };
        v.iter().copied().chain(cells.iter().map(|c| c[0]))
    }

    /// `v` as floats at a stride: weight `i` is `floats[i·stride]`. For a
    /// loop over a row's entries: one multiply each, where [`Coords::w`]
    /// takes a branch.
    #[inline]
    pub(crate) fn strided_mut(&mut self) -> (&mut [f32], usize) {
        match self {
            Coords::Split { v, .. } => (v, 1),
            Coords::Cells { cells, dim } => (bytemuck::cast_slice_mut(&mut cells[..*dim]), 2),
        }
    }

    /// `v` as one slice, when it is one (two arrays).
    pub(crate) fn split_weights(&self) -> Option<&[f32]> {
        match self {
            Coords::Split { v, .. } => Some(v),
            Coords::Cells { .. } => None,
        }
    }

    /// `f` on every weight, in order.
    pub(crate) fn map_weights(&mut self, mut f: impl FnMut(f32) -> f32) {
        match self {
            Coords::Split { v, .. } => v.iter_mut().for_each(|x| *x = f(*x)),
            Coords::Cells { cells, dim } => cells[..*dim].iter_mut().for_each(|c| c[0] = f(c[0])),
        }
    }

    /// `G`, the bias's last (empty unless adaptive).
    pub(crate) fn sums(&self) -> impl Iterator<Item = f32> + '_ {
        // One of the two is empty.
        let (g2, cells): (&[f32], &[[f32; 2]]) = match self {
            Coords::Split { g2, .. } => (g2, &[]),
            Coords::Cells { cells, .. } => (&[], cells),
        };
        g2.iter().copied().chain(cells.iter().map(|c| c[1]))
    }

    /// `G`'s length: `dim + 1` if adaptive, else 0.
    pub(crate) fn sums_len(&self) -> usize {
        match self {
            Coords::Split { g2, .. } => g2.len(),
            Coords::Cells { cells, .. } => cells.len(),
        }
    }

    /// Sets `G` from `src`, in order.
    pub(crate) fn set_sums(&mut self, src: impl IntoIterator<Item = f32>) {
        match self {
            Coords::Split { g2, .. } => g2.iter_mut().zip(src).for_each(|(a, b)| *a = b),
            Coords::Cells { cells, .. } => cells.iter_mut().zip(src).for_each(|(c, b)| c[1] = b),
        }
    }

    /// The bias's `G`. Panics unless adaptive.
    pub(crate) fn bias_sum(&mut self) -> &mut f32 {
        match self {
            Coords::Split { g2, .. } => g2.last_mut().expect("adaptive: a bias accumulator"),
            Coords::Cells { cells, .. } => &mut cells.last_mut().expect("adaptive: a bias cell")[1],
        }
    }

    /// `f` given `v` as one slice, and `v` set from it after: a copy for
    /// cells (checkpoints and mixing, O(d) once).
    pub(crate) fn with_weights<T>(&mut self, f: impl FnOnce(&mut [f32]) -> T) -> T {
        match self {
            Coords::Split { v, .. } => f(v),
            Coords::Cells { .. } => {
                let mut v: Vec<f32> = self.weights().collect();
                let out = f(&mut v);
                let mut it = v.into_iter();
                self.map_weights(|_| it.next().unwrap_or(0.0));
                out
            }
        }
    }

    /// As [`Coords::with_weights`], for `G`.
    pub(crate) fn with_sums<T>(&mut self, f: impl FnOnce(&mut [f32]) -> T) -> T {
        match self {
            Coords::Split { g2, .. } => f(g2),
            Coords::Cells { .. } => {
                let mut g: Vec<f32> = self.sums().collect();
                let out = f(&mut g);
                self.set_sums(g);
                out
            }
        }
    }
}
