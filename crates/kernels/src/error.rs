//! Errors from checking a row's invariants.

/// Why a row was refused; positions count stored entries from 0.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KernelError {
    /// Index `index` at `position` is not below the dimension.
    #[error("index {index} at position {position} is not below the dimension {dim}")]
    IndexOutOfRange {
        /// Position in the row.
        position: usize,
        /// The offending index.
        index: usize,
        /// The row's dimension.
        dim: usize,
    },
    /// Indices must be strictly increasing.
    #[error("index {index} at position {position} does not follow {previous} (indices must be strictly increasing)")]
    NotIncreasing {
        /// Position of the second index of the pair.
        position: usize,
        /// The index before it.
        previous: usize,
        /// The offending index.
        index: usize,
    },
    /// A different number of indices and values.
    #[error("{indices} indices but {values} values")]
    LengthMismatch {
        /// Number of indices.
        indices: usize,
        /// Number of values.
        values: usize,
    },
    /// The dimension does not fit the index type.
    #[error("dimension {dim} exceeds {max}, the most {index_bits}-bit indices can address")]
    DimTooLarge {
        /// The requested dimension.
        dim: usize,
        /// The largest dimension the index type allows.
        max: u64,
        /// Width of the index type.
        index_bits: u32,
    },
    /// Two dense vectors of different lengths.
    #[error("vectors of lengths {left} and {right} (they must be equal)")]
    DimMismatch {
        /// Length of the first.
        left: usize,
        /// Length of the second.
        right: usize,
    },
}
