//! rosenblatt: online linear classification at memory speed.
//!
//! The facade for programs that embed the engine. It re-exports the three
//! library crates and will grow the few calls an embedding program needs
//! (open a dataset, train, predict into a caller's buffer, save and load).
//!
//! - [`kernels`]: SIMD dot/axpy over compact row encodings.
//! - [`loader`]: parsers and memory-mapped binary shards.
//! - [`learners`]: the online learning algorithms.

pub use rosenblatt_kernels as kernels;
pub use rosenblatt_learners as learners;
pub use rosenblatt_loader as loader;

/// The version line printed by `rosenblatt --version`: the crate version and
/// the SIMD level in use.
pub fn version_line() -> String {
    format!("{} ({})", env!("CARGO_PKG_VERSION"), kernels::describe())
}
