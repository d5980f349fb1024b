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
}
