//! Data in: LIBSVM/svmlight text and MNIST IDX files, converted once into
//! immutable, memory-mapped binary shards that every training pass then reads
//! with no parsing and no copies.
//!
//! This crate is the boundary where untrusted bytes become rows. The parsers
//! ([`libsvm`], [`idx`]) reject malformed input with its line and column;
//! [`dataset::write_dataset`] picks the most compact lossless encoding and
//! writes shards atomically; [`Shard::open`] checks every invariant the
//! kernels rely on (indices sorted, unique and below the dimension; values
//! finite; sections inside the file) and only then hands out
//! [`rosenblatt_kernels::SparseRow`]s built with the unchecked constructor.
//!
//! Flow: `read_input` → `libsvm::parse_parallel` (or `idx::read_mnist`) →
//! [`Rows`] → `write_dataset` → shard files + `dataset.json` →
//! [`Dataset::open`] → [`Shard::rows`] → [`RowSet::row`].

pub mod dataset;
mod error;
mod examples;
pub mod idx;
pub mod input;
pub mod interop;
pub mod libsvm;
mod number;
pub mod shard;

pub use dataset::{Dataset, DatasetWriter, Manifest, WriteOptions, write_dataset};
pub use error::{LoadError, ParseError, ParseErrorKind};
pub use examples::{ExamplesView, ShardedExamples};
pub use libsvm::{ParseOptions, Rows};
pub use shard::{OpenOptions, RowSet, RowsView, Shard};
