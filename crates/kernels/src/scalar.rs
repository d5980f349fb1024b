//! Plain scalar versions of every kernel: one loop, one f32 accumulator, in
//! index order. They are the test oracle and the baseline of the benchmarks,
//! so they stay as simple as they can be.

use crate::row::{Row, SparseRow};
use crate::values::{Index, Values};

/// `row · w`.
pub fn dot<R: Row>(row: &R, w: &[f32]) -> f32 {
    let mut s = 0.0f32;
    for k in 0..row.nnz() {
        let (i, x) = row.entry(k);
        s += x * w[i];
    }
    s
}

/// `[row · w_0, …, row · w_7]`.
pub fn dot8<R: Row>(row: &R, ws: [&[f32]; 8]) -> [f32; 8] {
    ws.map(|w| dot(row, w))
}

/// `[row · w_0, …, row · w_7]` with the vectors stored transposed.
pub fn dot_t8<R: Row>(row: &R, t: &[[f32; 8]]) -> [f32; 8] {
    let mut s = [0.0f32; 8];
    for k in 0..row.nnz() {
        let (i, x) = row.entry(k);
        for (sb, tb) in s.iter_mut().zip(t[i]) {
            *sb += x * tb;
        }
    }
    s
}

/// `w += alpha · row`.
pub fn axpy<R: Row>(row: &R, alpha: f32, w: &mut [f32]) {
    for k in 0..row.nnz() {
        let (i, x) = row.entry(k);
        w[i] += alpha * x;
    }
}

/// `w += a · row`, `u += c · row`.
pub fn axpy2<R: Row>(row: &R, a: f32, w: &mut [f32], c: f32, u: &mut [f32]) {
    axpy(row, a, w);
    axpy(row, c, u);
}

/// AdaGrad's step on one coordinate with sum of squared gradients `g2`,
/// weight `w` and scale `s` (1 for AdaGrad; NAG's largest `|x_i|` so far)
/// after a step on value `x`, `c = η·g·y`: `G_i += (g·x)²`, then
/// `w_i += (c·x)/(√G_i·s)`, the products `g·x` and `c·x` formed in f64 and
/// rounded once to f32. A zero value (or −0.0) has no gradient: the state
/// stays as it is. Returns the new `(G_i, w_i)`.
#[inline]
pub fn adagrad_step(g2: f32, w: f32, s: f32, x: f32, c: f64, g: f64) -> (f32, f32) {
    if x == 0.0 {
        return (g2, w);
    }
    let x = f64::from(x);
    let gx = (g * x) as f32;
    let g2 = g2 + gx * gx;
    (g2, w + (c * x) as f32 / (g2.sqrt() * s))
}

/// [`adagrad_step`] on every entry of a row, `G = g2`, `s_i = 1` without
/// `s`.
pub fn adagrad<R: Row>(row: &R, c: f64, g: f64, w: &mut [f32], g2: &mut [f32], s: Option<&[f32]>) {
    for k in 0..row.nnz() {
        let (i, x) = row.entry(k);
        (g2[i], w[i]) = adagrad_step(g2[i], w[i], s.map_or(1.0, |s| s[i]), x, c, g);
    }
}

/// `‖row‖²`.
pub fn norm_sq<R: Row>(row: &R) -> f32 {
    let mut s = 0.0f32;
    for k in 0..row.nnz() {
        let x = row.entry(k).1;
        s += x * x;
    }
    s
}

/// `a · b` for dense vectors.
pub fn dense_dot(a: &[f32], b: &[f32]) -> f32 {
    let mut s = 0.0f32;
    for (x, y) in a.iter().zip(b) {
        s += x * y;
    }
    s
}

/// `y += alpha · x` for dense vectors.
pub fn dense_axpy(alpha: f32, x: &[f32], y: &mut [f32]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
    }
}

/// `‖x‖²` for a dense vector.
pub fn dense_norm_sq(x: &[f32]) -> f32 {
    dense_dot(x, x)
}

/// `a · b` for two sparse rows, by looking up each entry of `b` among `a`'s
/// indices (a different method from the merge it checks).
pub fn sparse_dot_sparse<I: Index, V1: Values, V2: Values>(a: &SparseRow<'_, I, V1>, b: &SparseRow<'_, I, V2>) -> f32 {
    let mut s = 0.0f32;
    for k in 0..b.nnz() {
        let (i, y) = b.entry(k);
        if let Ok(p) = a.indices().binary_search_by(|j| j.to_usize().cmp(&i)) {
            s += a.entry(p).1 * y;
        }
    }
    s
}

/// `out[i·n + j] = Σ_k a[i·d + k] · b[j·d + k]` over byte rows of length
/// `d`, exact (the oracle of [`crate::bytes::dots_u8`]).
pub fn dots_u8(a: &[u8], b: &[u8], d: usize, out: &mut [i32]) {
    let n = b.len().checked_div(d).unwrap_or(0);
    for (i, x) in a.chunks(d.max(1)).enumerate().take(a.len().checked_div(d).unwrap_or(0)) {
        for (j, y) in b.chunks(d.max(1)).enumerate().take(n) {
            out[i * n + j] = x.iter().zip(y).map(|(&p, &q)| i32::from(p) * i32::from(q)).sum();
        }
    }
}
