//! Data in: LIBSVM/svmlight text, VW text and CSV, and MNIST IDX files, converted once into
//! immutable, memory-mapped binary shards that every training pass then reads
//! with no parsing and no copies.
//!
//! This crate is the boundary where untrusted bytes become rows. The parsers
//! ([`libsvm`], [`idx`]) reject malformed input with its line and column;
//! [`write_dataset`] picks the most compact lossless encoding and writes
//! shards atomically; [`Shard::open`] checks every invariant the kernels rely
//! on (indices sorted, unique and below the dimension; values finite;
//! sections inside the file) and only then hands out
//! [`rosenblatt_kernels::SparseRow`]s built with the unchecked constructor.
//!
//! Flow: [`input::read_input`] → [`libsvm::parse_parallel`] (or
//! [`idx::read_mnist`]) → [`Rows`] → [`write_dataset`] (or [`convert`], which
//! does all of it) → shard files + `dataset.json` → [`Dataset::open`] →
//! [`Dataset::examples`] → rows by index.
//!
//! Modules by concern:
//!
//! | module | what |
//! |---|---|
//! | [`libsvm`], [`idx`], [`input`] | text and IDX in (plain, gzip, bzip2), LIBSVM text out |
//! | [`format`] | the shard file: header, sections, encodings |
//! | [`shard`] | opening and validating one shard |
//! | [`rows`] | a shard's validated rows, by encoding |
//! | [`manifest`], [`writer`], [`dataset`] | a dataset directory: its manifest, writing one, opening one |
//! | [`view`] | a dataset's rows as one example set for the learners |
//! | [`convert`] | files to a dataset, as `rosenblatt convert` does it |
//! | [`cache`] | converted datasets kept for reuse, keyed on their inputs' identity and the options |
//! | [`fs`] | crash-safe writes; one writer a directory |
//! | [`vw`] | Vowpal Wabbit's text format: VW's hashing and interactions, rows of hashed indices |
//! | [`csv`] | CSV with a header, its columns hashed as VW features |

/// The encodings, listed once. Everything that enumerates them is generated
/// here: [`EncodingKind`] (the names), [`RowsView`] (a shard's rows),
/// [`ExamplesView`] (a dataset's rows) and the macros that run generic code
/// on either ([`with_rows!`], [`with_examples!`]).
macro_rules! encodings {
    ($d:tt $($variant:ident $name:literal $rows:ty;)*) => {
        /// Which encoding a shard or dataset holds: its row layout, index
        /// width and value storage, by name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum EncodingKind {
            $(
                #[doc = concat!("`", $name, "`")]
                #[serde(rename = $name)]
                $variant,
            )*
        }

        impl EncodingKind {
            /// Every encoding.
            pub const ALL: &[EncodingKind] = &[$(EncodingKind::$variant),*];
            /// The name (`sparse-u16-u8`, `dense-f32`, …).
            pub fn name(self) -> &'static str {
                match self {
                    $(EncodingKind::$variant => $name,)*
                }
            }
        }

        /// A shard's rows in whichever encoding it holds. Use [`with_rows!`]
        /// to run generic code over any of them.
        #[derive(Clone, Copy, Debug)]
        #[allow(missing_docs)]
        pub enum RowsView<'a> {
            $($variant($rows),)*
        }

        /// A dataset's rows as [`rosenblatt_kernels::Examples`], typed by
        /// encoding. Use [`with_examples!`] to run generic code on it.
        #[derive(Clone, Debug)]
        #[allow(missing_docs)]
        pub enum ExamplesView<'a> {
            $($variant(ShardedExamples<'a, $rows>),)*
        }

        impl<'a> ExamplesView<'a> {
            /// Which encoding.
            pub fn kind(&self) -> EncodingKind {
                match self {
                    $(ExamplesView::$variant(_) => EncodingKind::$variant,)*
                }
            }
            /// Rows `range` as a set of their own (rows numbered from 0).
            /// Panics if out of range.
            pub fn range(&self, range: std::ops::Range<usize>) -> ExamplesView<'a> {
                match self {
                    $(ExamplesView::$variant(e) => ExamplesView::$variant(e.range(range)),)*
                }
            }
            /// The same rows with other labels, one per row. Panics if
            /// `labels` has another length.
            pub fn with_labels<'b>(&self, labels: &'b [f32]) -> ExamplesView<'b>
            where
                'a: 'b,
            {
                match self {
                    $(ExamplesView::$variant(e) => ExamplesView::$variant(e.with_labels(labels)),)*
                }
            }
            /// The same rows with other importance weights, one per row.
            /// Panics if `weights` has another length.
            pub fn with_weights<'b>(&self, weights: &'b [f32]) -> ExamplesView<'b>
            where
                'a: 'b,
            {
                match self {
                    $(ExamplesView::$variant(e) => ExamplesView::$variant(e.with_weights(weights)),)*
                }
            }
        }

        /// One example set over shards that all hold `kind`'s rows.
        fn sharded<'a>(
            kind: EncodingKind,
            dim: usize,
            shards: &'a [Shard],
        ) -> Result<ExamplesView<'a>, &'a Shard> {
            Ok(match kind {
                $(EncodingKind::$variant => {
                    let mut parts = Vec::with_capacity(shards.len());
                    for s in shards {
                        match s.rows() {
                            RowsView::$variant(r) => parts.push(view::Part::new(r, s)),
                            _ => return Err(s),
                        }
                    }
                    ExamplesView::$variant(ShardedExamples::new(dim, parts))
                })*
            })
        }

        /// Runs `$body` with `$rows` bound to the concrete [`RowSet`] inside
        /// a [`RowsView`]: one dispatch per call, monomorphic code inside.
        #[macro_export]
        macro_rules! with_rows {
            ($d view:expr, |$d rows:ident| $d body:expr) => {
                match $d view {
                    $($crate::RowsView::$variant($d rows) => $d body,)*
                }
            };
        }

        /// Runs `$body` with `$ex` bound to the concrete
        /// [`rosenblatt_kernels::Examples`] inside an [`ExamplesView`] (or a
        /// reference to one): one dispatch, monomorphic code inside. Keep
        /// such code to what runs per example; everything else can take the
        /// view itself.
        #[macro_export]
        macro_rules! with_examples {
            ($d view:expr, |$d ex:ident| $d body:expr) => {
                match $d view {
                    $($crate::ExamplesView::$variant($d ex) => $d body,)*
                }
            };
        }
    };
}

encodings! { $
    SparseU16F32 "sparse-u16-f32" SparseRows<'a, u16, &'a [f32]>;
    SparseU16U8 "sparse-u16-u8" SparseRows<'a, u16, U8Column<'a>>;
    SparseU16Binary "sparse-u16-binary" SparseRows<'a, u16, Ones>;
    SparseU32F32 "sparse-u32-f32" SparseRows<'a, u32, &'a [f32]>;
    SparseU32U8 "sparse-u32-u8" SparseRows<'a, u32, U8Column<'a>>;
    SparseU32Binary "sparse-u32-binary" SparseRows<'a, u32, Ones>;
    DenseF32 "dense-f32" DenseRows<&'a [f32]>;
    DenseU8 "dense-u8" DenseRows<U8Column<'a>>;
}

pub mod cache;
pub mod convert;
pub mod csv;
pub mod dataset;
mod encoding;
mod error;
pub mod format;
pub mod fs;
pub mod idx;
pub mod input;
pub mod interop;
pub mod libsvm;
pub mod lines;
pub mod manifest;
mod number;
pub mod rows;
pub mod shard;
pub mod view;
pub mod vw;
pub mod writer;

pub use dataset::Dataset;
pub use error::{LoadError, ParseError, ParseErrorKind};
pub use format::{Encoding, LabelKind};
pub use libsvm::{ParseOptions, Rows};
pub use manifest::Manifest;
use rosenblatt_kernels::Ones;
pub use rows::{DenseRows, RowSet, SparseRows, U8Column};
pub use shard::{OpenOptions, Shard};
pub use view::ShardedExamples;
pub use writer::{DatasetWriter, WriteOptions, write_dataset};
