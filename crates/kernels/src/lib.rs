//! SIMD dense and sparse dot/axpy kernels over compact row encodings.
//!
//! A pass of an online linear learner is bound by memory traffic, not by
//! arithmetic, so rows stay in the compact form they are stored in and the
//! kernels decode them in registers:
//!
//! | row | indices | values |
//! |---|---|---|
//! | [`SparseRow`] | `u32`, or `u16` when the dimension is at most 65,536 | `&[f32]`, [`U8Values`] (bytes × a scale), or [`Ones`] (binary) |
//! | [`DenseRow`] | none (entry `i` is feature `i`) | `&[f32]` or [`U8Values`] |
//!
//! Every row type implements [`Row`]: `dot` (row · weights), `axpy`
//! (weights += α·row), `axpy2` (two vectors updated in one sweep, for lazy
//! averaging), `norm_sq`, and `adagrad` (AdaGrad's per-coordinate step, to
//! the bit of the scalar one on every backend). [`dense`] has the same operations on f32 vectors,
//! and [`sparse_dot_sparse`] the dot of two sorted sparse rows. [`scalar`]
//! holds a plain loop for each: the test oracle.
//!
//! ```
//! use rosenblatt_kernels::{Row, SparseRow, U8Values};
//!
//! // Three pixels of a 28×28 image, stored as bytes with scale 1/255.
//! let pixels = [255u8, 51, 102];
//! let row = SparseRow::try_new(784, &[3u16, 100, 700], U8Values::new(&pixels, 1.0 / 255.0)).unwrap();
//! let mut w = vec![0.0f32; 784];
//! row.axpy(2.0, &mut w); // a perceptron update: w += 2·x
//! assert!((w[100] - 0.4).abs() < 1e-6);
//! assert!((row.dot(&w) - 2.0 * row.norm_sq()).abs() < 1e-5);
//! ```
//!
//! # Instruction sets
//!
//! Each kernel is written once (the private `kernel` module), generic over an
//! eight-lane vector type, and instantiated three times:
//!
//! - **portable**: `wide::f32x8`, which uses what the build enables. A default
//!   x86-64 build is SSE2; `RUSTFLAGS="-C target-cpu=native"` gives AVX2+FMA.
//! - **avx2+fma** (x86-64 only): `std::arch` intrinsics, compiled with
//!   `#[target_feature]` and selected at run time when the CPU has AVX2 and
//!   FMA, gathering sparse rows' weights with eight scalar loads (faster on
//!   AMD's cores)...
//! - **avx2+fma, hardware gathers**: ... or with `vgatherdps` (faster on
//!   Intel's; chosen there). Both compute the same arithmetic in the same
//!   order: their results are the same to the bit.
//!
//! [`Backend::best`] picks once per process; `ROSENBLATT_SIMD=portable`
//! forces the portable kernels. The choice is printed by `rosenblatt
//! --version` ([`describe`]). Results are deterministic for a given backend
//! (summation order depends only on the row length), but the portable and
//! AVX2 backends may differ in the last bits: FMA rounds once where SSE2
//! rounds twice.
//!
//! # Safety model
//!
//! A [`SparseRow`] is checked once ([`SparseRow::try_new`]) or promised valid
//! by the loader ([`SparseRow::new_unchecked`]); kernels then skip bounds
//! checks, having checked only that the weight vector covers the row's
//! dimension (a shorter one panics: that is a caller bug, not bad data).
//!
//! # NaN and infinities
//!
//! The kernels do no checks on values: IEEE arithmetic propagates NaN and
//! infinities into the result as a plain loop would (the loader refuses
//! non-finite values, so they can only come from weights). With a NaN in the
//! weights, `dot` returns NaN if any entry touches it; a binary or `u8` row
//! cannot itself hold a NaN.

mod backend;
pub mod bytes;
pub mod dense;
mod error;
mod examples;
mod kernel;
mod row;
pub mod scalar;
mod simd;
mod values;

pub use backend::{Backend, build_level, describe};
pub use bytes::{ByteIsa, dots_u8, dots_u8_on};
pub use error::KernelError;
pub use examples::{Examples, prefetch};
pub use row::{CellWidth, DenseRow, Row, SparseRow, check_indices, sparse_dot_sparse};
pub use values::{Index, Ones, StoredValues, U8Values, ValueKind, Values};
