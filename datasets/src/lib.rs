//! Dataset generators for rosenblatt, writing binary shards directly (no
//! text in between).
//!
//! - [`sparse`]: large sparse binary classification sets — Zipf-distributed
//!   features, labels from a hidden sparse linear model, label noise — the
//!   data the parallel-training benchmark runs on.
//!
//! Every generator is deterministic for a seed whatever the thread count:
//! rows are made in fixed blocks, each from its own generator seeded by
//! (seed, block), and joined in block order.

mod error;
pub mod sparse;

pub use error::GenError;
