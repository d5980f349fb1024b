//! A labelled set of rows, read by index: what learners train on. The loader
//! implements it over memory-mapped shards, tests over vectors; learners only
//! see this trait, never the loader.

use crate::row::Row;

/// Labelled rows, addressable by index.
pub trait Examples: Sync {
    /// The row view type.
    type Row: Row;
    /// Number of examples.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The dimension every row lives in.
    fn dim(&self) -> usize;
    /// Row `i`. Panics if `i >= len()`.
    fn row(&self, i: usize) -> Self::Row;
    /// Label of row `i` (±1 for binary tasks, a class id for multi-class).
    fn label(&self, i: usize) -> f32;
    /// Importance weight of row `i`: how much its update counts (≥ 0,
    /// finite; 1 for sets without weights, the default).
    #[inline(always)]
    fn weight(&self, _i: usize) -> f32 {
        1.0
    }
    /// Whether any row may carry a weight other than 1.
    fn weighted(&self) -> bool {
        false
    }
    /// The first example whose label `bad` flags, `None` if none: how a
    /// learner checks every label once before training. The default asks
    /// [`Examples::label`] row by row; a set holding its labels in slices
    /// scans the slices instead.
    fn find_label(&self, bad: impl Fn(f32) -> bool) -> Option<usize>
    where
        Self: Sized,
    {
        (0..self.len()).find(|&i| bad(self.label(i)))
    }
    /// Starts loading row `i` into cache (a hint; the default does nothing).
    #[inline(always)]
    fn prefetch(&self, _i: usize) {}
    /// `Some(s)` when every stored value is a byte times `s` (rows stored as
    /// bytes): learners may then compute with the bytes, exactly, in
    /// integers. The default says nothing.
    fn byte_scale(&self) -> Option<f32> {
        None
    }
    /// Rows `range` will not be read again soon: storage mapped from files
    /// may drop them from resident memory (a hint; the default does
    /// nothing).
    fn release(&self, _range: std::ops::Range<usize>) {}
}

/// Hints the CPU to start loading `data` into cache; does nothing on
/// architectures without a prefetch instruction. Used by training loops that
/// know which row comes a few steps later (shuffled orders defeat the
/// hardware prefetcher).
#[inline(always)]
pub fn prefetch<T>(data: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let (p, n) = (data.as_ptr().cast::<i8>(), size_of_val(data));
        let mut off = 0;
        while off < n {
            // SAFETY: `p + off` lies inside `data`; a prefetch never faults
            // and reads nothing architecturally.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.add(off)) };
            off += 64;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = data;
}
