//! rosenblatt: online linear classification at memory speed.
//!
//! The facade for programs that embed the engine — `use
//! rosenblatt::prelude::*`: a checked [`Config`], [`Fit`] into a
//! [`Model`], [`Predict`] into [`Prediction`]s, over a [`Dataset`] or
//! borrowed [`Rows`], and the incremental [`Trainer`] — and the library
//! behind every command of the `rosenblatt` binary (which only parses and
//! prints).
//!
//! - [`kernels`]: SIMD dot/axpy over compact row encodings.
//! - [`loader`]: parsers and memory-mapped binary shards; [`loader::convert`].
//! - [`learners`]: the online learning algorithms and their tables
//!   ([`learners::Learner`], [`learners::Param`]).
//! - [`config`], [`fit`]: the embedding API.
//! - [`train`]: a learner on a dataset, pass by pass, into a model;
//!   [`checkpoint`]: the same in stretches, the model handed out after each.
//! - [`online`]: a learner fed batch by batch from rows the caller holds
//!   (borrowed CSR or dense matrices, or shards): the Python and C bindings' core.
//! - [`model`]: model files (save, load).
//! - [`eval`], [`predict`], [`bounds`]: what `eval`, `predict` and `bounds` compute.
//! - [`compat`]: the one check wherever a dataset meets a model or training data.
//! - [`cluster`]: training across processes (under `mpirun`, with the
//!   `mpi` feature).
//!
//! With the `cli` feature (the binary's): `ocr` (the benchmark behind `bench
//! ocr` and `demo`), `report` over `plot` (the pictures), `tune` (a grid's
//! table) and the read-only pass (`read_only_seconds`).

pub mod bounds;
pub mod checkpoint;
pub mod cluster;
pub mod compat;
pub mod config;
mod error;
pub mod eval;
pub mod fit;
pub mod model;
#[cfg(feature = "cli")]
pub mod ocr;
pub mod online;
#[cfg(feature = "cli")]
pub mod plot;
pub mod predict;
#[cfg(feature = "cli")]
pub mod report;
pub mod resume;
pub mod serve;
#[cfg(feature = "cli")]
mod timing;
pub mod train;
#[cfg(feature = "cli")]
pub mod tune;
mod whole;

pub use config::{Config, ConfigError, Labels};
pub use error::Error;
pub use fit::{Dataset, Fit, Predict};
pub use model::{Model, Prediction};
pub use online::{Rows, Trainer};

/// What an embedding program needs: `use rosenblatt::prelude::*;`.
pub mod prelude {
    pub use crate::{Config, Dataset, Error, Fit, Labels, Model, Predict, Prediction, Rows, Trainer};
}
pub use rosenblatt_kernels as kernels;
pub use rosenblatt_learners as learners;
pub use rosenblatt_loader as loader;
#[cfg(feature = "cli")]
pub use timing::{READ_AHEAD, read_only_pass, read_only_pass_ahead, read_only_seconds};

/// The README's Rust examples, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The version line printed by `rosenblatt --version`: the crate version and
/// the SIMD level in use.
pub fn version_line() -> String {
    format!("{} ({})", env!("CARGO_PKG_VERSION"), kernels::describe())
}
