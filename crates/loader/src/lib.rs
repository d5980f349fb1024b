//! Data in: LIBSVM/svmlight text and MNIST IDX files, converted once into
//! immutable, memory-mapped binary shards that every training pass then reads
//! with no parsing and no copies.
//!
//! This crate is the boundary where untrusted bytes become rows: it checks
//! every invariant the kernels rely on (indices sorted, unique and below the
//! dimension; values finite) when a shard is opened, and hands out
//! [`rosenblatt_kernels::SparseRow`]s built with the unchecked constructor on
//! that proof. The parsers and the shard format arrive with the loader issue.
