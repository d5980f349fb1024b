//! Dense f32 vector operations (weights against weights), the same kernels as
//! dense rows.

use crate::row::{DenseRow, Row};

#[inline(always)]
#[track_caller]
fn same_len(a: usize, b: usize) {
    assert_eq!(a, b, "vectors of lengths {a} and {b} (they must be equal)");
}

/// `a · b`. Panics if the lengths differ.
#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    same_len(a.len(), b.len());
    DenseRow::new(a).dot(b)
}

/// `y += alpha · x`. Panics if the lengths differ.
#[inline]
pub fn axpy(alpha: f32, x: &[f32], y: &mut [f32]) {
    same_len(x.len(), y.len());
    DenseRow::new(x).axpy(alpha, y)
}

/// `‖x‖²`.
#[inline]
pub fn norm_sq(x: &[f32]) -> f32 {
    DenseRow::new(x).norm_sq()
}
