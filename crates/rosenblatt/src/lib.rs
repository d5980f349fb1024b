//! rosenblatt: online linear classification at memory speed.
//!
//! The facade for programs that embed the engine, and the library behind
//! every command of the `rosenblatt` binary (which only parses and prints).
//!
//! - [`kernels`]: SIMD dot/axpy over compact row encodings.
//! - [`loader`]: parsers and memory-mapped binary shards; [`loader::convert`].
//! - [`learners`]: the online learning algorithms and their registry
//!   ([`learners::Learner`]).
//! - [`train`]: a learner on a dataset, pass by pass, into a model.
//! - [`online`]: a learner fed batch by batch from rows the caller holds
//!   (borrowed CSR or dense matrices, or shards): the Python and C bindings' core.
//! - [`model`]: model files (save, load) and predictions into a caller's buffer.
//! - [`eval`], [`predict`], [`bounds`]: what `eval`, `predict` and `bounds` compute.
//! - [`compat`]: the one check wherever a dataset meets a model or training data.
//! - [`cluster`]: training across processes (under `mpirun`, with the
//!   `mpi` feature).
//! - [`ocr`]: the MNIST one-vs-rest benchmark behind `rosenblatt bench ocr`
//!   and `rosenblatt demo`.

pub mod bounds;
pub mod cluster;
pub mod compat;
mod error;
pub mod eval;
pub mod model;
pub mod ocr;
pub mod online;
pub mod plot;
pub mod predict;
pub mod report;
pub mod train;
pub mod tune;

pub use error::Error;
pub use rosenblatt_kernels as kernels;
pub use rosenblatt_learners as learners;
pub use rosenblatt_loader as loader;

/// The README's Rust examples, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The version line printed by `rosenblatt --version`: the crate version and
/// the SIMD level in use.
pub fn version_line() -> String {
    format!("{} ({})", env!("CARGO_PKG_VERSION"), kernels::describe())
}

/// Sums every byte of `data` in u64 lanes: a pass that reads the same bytes
/// as training does and almost nothing else — the baseline a training pass
/// is measured against.
///
/// ```
/// assert_eq!(rosenblatt::read_only_pass(&[1, 0, 0, 0, 0, 0, 0, 0, 2]), 3);
/// ```
pub fn read_only_pass(data: &[u8]) -> u64 {
    let mut s = 0u64;
    let mut c = data.chunks_exact(8);
    for b in &mut c {
        s = s.wrapping_add(u64::from_le_bytes(b.try_into().expect("8 bytes")));
    }
    for &b in c.remainder() {
        s = s.wrapping_add(u64::from(b));
    }
    s
}

/// Median seconds of a [`read_only_pass`] over every shard of `ds`, of
/// `repeats` runs; with `release`, each shard's pages are dropped from
/// resident memory after it is read, as out-of-core training does.
pub fn read_only_seconds(ds: &loader::Dataset, repeats: usize, release: bool) -> f64 {
    let mut times: Vec<f64> = (0..repeats.max(1))
        .map(|_| {
            let t = std::time::Instant::now();
            let mut sum = 0u64;
            for s in ds.shards() {
                sum = sum.wrapping_add(read_only_pass(s.raw()));
                if release {
                    s.release_rows(0, s.header().rows as usize);
                }
            }
            std::hint::black_box(sum);
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}
