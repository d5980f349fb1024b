//! Dataset generators for rosenblatt, writing binary shards directly (no
//! text in between).
//!
//! - [`sparse`]: large sparse binary classification sets — Zipf-distributed
//!   features, labels from a hidden sparse linear model, label noise — the
//!   data the parallel-training benchmark runs on.
//! - [`tabular`]: one-hot categorical rows in the shape of census data
//!   (a9a), with unbalanced classes and a known Bayes error — the data the
//!   defaults are tested on.
//! - [`ocr`]: deformed MNIST digits ("infinite MNIST"-style), millions of
//!   rows for the OCR benchmark, written shard by shard.
//!
//! Every generator is deterministic for a seed whatever the thread count:
//! rows are made in fixed blocks (or one by one), each from its own generator
//! seeded by (seed, block or row), and joined in order.

mod error;
pub mod ocr;
pub mod sparse;
pub mod tabular;

pub use error::GenError;
