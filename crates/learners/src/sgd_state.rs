//! Where [`crate::sgd::Sgd`] keeps its per-feature state: the weights `v`,
//! AdaGrad's sums of squared gradients `G` and NAG's scales `s` (the
//! largest `|x_i|` so far), as separate arrays or side by side in one cell
//! per feature: `[v_i, G_i]` for AdaGrad, `[v_i, G_i, s_i, unused]` for NAG.
//!
//! Why cells: an adaptive step reads and writes every one of these at each
//! entry of the row. In separate arrays over a dimension past the cache,
//! that is a cache miss per array per entry; in one cell (8 or 16 bytes,
//! never across a line) it is one. A plain C copy of the logistic AdaGrad
//! pass over the sparse set hashed into 2^20 features
//! (`benches/c/adagrad_layout.c`) ran 1.15–1.7× faster with cells
//! (SPEED.md#adagrads-step). Below that dimension the arrays stay in cache,
//! and a dense row's steps load and store eight contiguous floats of each,
//! which cells would turn into gathers: separate arrays there.
//!
//! Both layouts hold the same numbers and step them with the same
//! arithmetic, so a model's bits do not depend on which is used.

use crate::error::LearnError;
use crate::memory::{StateVec, zeros};
use rosenblatt_kernels::{CellWidth, Row};

/// `v` over `dim` features; for adaptive steps `G` over `dim + 1` (the
/// bias's last); for NAG `s` over `dim` (the bias's scale is 1).
#[derive(Clone, Debug)]
pub(crate) enum Coords {
    /// Separate arrays (`g2` empty unless adaptive, `s` unless NAG).
    Split { v: StateVec<f32>, g2: StateVec<f32>, s: StateVec<f32> },
    /// Cells of `width` floats (two: AdaGrad, four: NAG) laid end to end,
    /// `dim + 1` of them: float `i·width` is `v_i`, the next `G_i`, the
    /// next (NAG) `s_i`. Cell `dim` holds the bias's `G` (its other floats
    /// unused).
    Cells { floats: StateVec<f32>, width: CellWidth, dim: usize },
}

impl Coords {
    /// Zeros; `adaptive` keeps `G`, `scaled` (NAG) keeps `s`, and `cells`
    /// lays an adaptive state side by side.
    pub(crate) fn new(dim: usize, adaptive: bool, scaled: bool, cells: bool) -> Result<Self, LearnError> {
        Ok(if adaptive && cells {
            let width = if scaled { CellWidth::Four } else { CellWidth::Two };
            Coords::Cells { floats: zeros(dim.saturating_add(1).saturating_mul(width.floats()))?, width, dim }
        } else {
            let g2 = if adaptive { zeros(dim.saturating_add(1))? } else { StateVec::default() };
            let s = if scaled { zeros(dim)? } else { StateVec::default() };
            Coords::Split { v: zeros(dim)?, g2, s }
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
            Coords::Cells { floats, width, .. } => x.dot_cells(floats, *width),
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

    /// AdaGrad's step on the row, NAG's where the state has scales.
    #[inline]
    pub(crate) fn adagrad<R: Row>(&mut self, x: &R, c: f64, g: f64) {
        match self {
            Coords::Split { v, g2, s } => x.adagrad(c, g, v, g2, (!s.is_empty()).then_some(&s[..])),
            Coords::Cells { floats, width, .. } => x.adagrad_cells(c, g, floats, *width),
        }
    }

    /// NAG's first move on a row: where `|x_i|` exceeds `s_i`,
    /// `v_i *= s_i/|x_i|` (then `moved(i, old, new)`) and `s_i = |x_i|`.
    /// Returns `n + Σ (|x_i|/s_i)²` over the row, the new scales, added in
    /// the row's order. A state without scales (not NAG's) is left as it is.
    #[inline]
    pub(crate) fn normalize<R: Row>(&mut self, x: &R, n: f64, moved: impl FnMut(usize, f32, f32)) -> f64 {
        match self {
            Coords::Split { v, s, .. } if !s.is_empty() => rescale(Apart(v, s), x, n, moved),
            Coords::Cells { floats, width: CellWidth::Four, .. } => {
                rescale(Together(floats.as_chunks_mut().0), x, n, moved)
            }
            _ => n,
        }
    }

    /// Starts loading the state the row will touch.
    #[inline(always)]
    pub(crate) fn prefetch<R: Row>(&self, x: &R) {
        match self {
            Coords::Split { v, g2, s } => {
                x.prefetch_state(v);
                for a in [g2, s] {
                    if !a.is_empty() {
                        x.prefetch_state(a);
                    }
                }
            }
            Coords::Cells { floats, width: CellWidth::Two, .. } => x.prefetch_state(floats.as_chunks::<2>().0),
            Coords::Cells { floats, width: CellWidth::Four, .. } => x.prefetch_state(floats.as_chunks::<4>().0),
        }
    }

    /// `v` as floats at a stride: weight `i` is `floats[i·stride]`. For a
    /// loop over a row's entries: one multiply each, not a branch.
    #[inline]
    pub(crate) fn strided_mut(&mut self) -> (&mut [f32], usize) {
        match self {
            Coords::Split { v, .. } => (v, 1),
            Coords::Cells { floats, width, dim } => (&mut floats[..*dim * width.floats()], width.floats()),
        }
    }

    /// `v` as one slice, when it is one (separate arrays).
    pub(crate) fn split_weights(&self) -> Option<&[f32]> {
        match self {
            Coords::Split { v, .. } => Some(v),
            Coords::Cells { .. } => None,
        }
    }

    /// `v`, in order: a step of one over the array, or of a cell over
    /// the cells.
    pub(crate) fn weights(&self) -> impl Iterator<Item = f32> + '_ {
        let (floats, step) = match self {
            Coords::Split { v, .. } => (&v[..], 1),
            Coords::Cells { floats, width, dim } => (&floats[..*dim * width.floats()], width.floats()),
        };
        floats.iter().step_by(step).copied()
    }

    /// `f` on every weight, in order.
    pub(crate) fn map_weights(&mut self, mut f: impl FnMut(f32) -> f32) {
        let (v, stride) = self.strided_mut();
        v.iter_mut().step_by(stride).for_each(|x| *x = f(*x));
    }

    /// The bias's `G`. Panics unless adaptive.
    pub(crate) fn bias_sum(&mut self) -> &mut f32 {
        match self {
            Coords::Split { g2, .. } => g2.last_mut().expect("adaptive: a bias accumulator"),
            Coords::Cells { floats, width, dim } => &mut floats[*dim * width.floats() + 1],
        }
    }

    /// `f` given `v` as one slice, and `v` set from it after: a copy for
    /// cells (checkpoints and mixing, O(d) once).
    pub(crate) fn with_weights<T>(&mut self, f: impl FnOnce(&mut [f32]) -> T) -> T {
        match self {
            Coords::Split { v, .. } => f(v),
            Coords::Cells { floats, width, dim } => with_field(floats, *width, *dim, 0, f),
        }
    }

    /// As [`Coords::with_weights`], for `G`.
    pub(crate) fn with_sums<T>(&mut self, f: impl FnOnce(&mut [f32]) -> T) -> T {
        match self {
            Coords::Split { g2, .. } => f(g2),
            Coords::Cells { floats, width, dim } => with_field(floats, *width, *dim + 1, 1, f),
        }
    }

    /// As [`Coords::with_weights`], for `s` (empty unless NAG).
    pub(crate) fn with_scales<T>(&mut self, f: impl FnOnce(&mut [f32]) -> T) -> T {
        match self {
            Coords::Split { s, .. } => f(s),
            Coords::Cells { floats, width: CellWidth::Four, dim } => with_field(floats, CellWidth::Four, *dim, 2, f),
            Coords::Cells { .. } => f(&mut []),
        }
    }
}

/// Where NAG's weight and scale of feature `i` lie.
trait Scaled {
    fn at(&mut self, i: usize) -> (&mut f32, &mut f32);
}

/// In two arrays.
struct Apart<'a>(&'a mut [f32], &'a mut [f32]);

impl Scaled for Apart<'_> {
    #[inline(always)]
    fn at(&mut self, i: usize) -> (&mut f32, &mut f32) {
        (&mut self.0[i], &mut self.1[i])
    }
}

/// In one cell `[v_i, G_i, s_i, unused]`.
struct Together<'a>(&'a mut [[f32; 4]]);

impl Scaled for Together<'_> {
    #[inline(always)]
    fn at(&mut self, i: usize) -> (&mut f32, &mut f32) {
        let [w, _, s, _] = &mut self.0[i];
        (w, s)
    }
}

/// [`Coords::normalize`] on either layout, compiled once for each.
#[inline(always)]
fn rescale<R: Row>(mut at: impl Scaled, x: &R, mut n: f64, mut moved: impl FnMut(usize, f32, f32)) -> f64 {
    for k in 0..x.nnz() {
        let (i, xi) = x.entry(k);
        let a = xi.abs();
        if a == 0.0 {
            continue;
        }
        let (w, s) = at.at(i);
        if a > *s {
            let old = *w;
            *w *= *s / a;
            moved(i, old, *w);
            *s = a;
        }
        let r = f64::from(a) / f64::from(*s);
        n += r * r;
    }
    n
}

/// `f` given float `field` of the first `n` cells as one slice, and the
/// cells set from it after.
fn with_field<T>(floats: &mut [f32], width: CellWidth, n: usize, field: usize, f: impl FnOnce(&mut [f32]) -> T) -> T {
    let cells = &mut floats[..n * width.floats()];
    let mut out: Vec<f32> = cells.chunks_exact(width.floats()).map(|c| c[field]).collect();
    let r = f(&mut out);
    cells.chunks_exact_mut(width.floats()).zip(out).for_each(|(c, x)| c[field] = x);
    r
}
