//! The loader's errors: every one names what is wrong and where.

use std::path::PathBuf;

/// What is wrong with a line of LIBSVM text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A NUL byte.
    #[error("NUL byte (binary data is not LIBSVM text)")]
    Nul,
    /// A carriage return not followed by a line feed.
    #[error("carriage return not followed by a line feed (lone-CR line ends are not accepted)")]
    LoneCr,
    /// The row starts with a feature.
    #[error("the row has no label (a multi-label row with an empty label set? read it with `multilabel`)")]
    MissingLabel,
    /// The label is not a number.
    #[error("label is not a decimal number")]
    BadLabel,
    /// The label is a word.
    #[error(
        "the label is a word: a header line? LIBSVM text has none (`label index:value …` on every line), and its \
         labels are numbers such as +1, -1, 0 or a class id"
    )]
    TextLabel,
    /// The label runs into commas: a CSV line, or a multi-label row.
    #[error(
        "comma-separated values: a CSV line? this is CSV, not LIBSVM text (`label index:value …`, separated by \
         spaces); or a multi-label row (1,5,7), read with `multilabel`"
    )]
    CommaSeparated,
    /// The label is infinite or NaN as f32.
    #[error("label is not finite as a 32-bit float")]
    NonFiniteLabel,
    /// A multi-label class id that is not a non-negative integer below 2^32.
    #[error("class id is not a non-negative integer below 2^32 (multi-label rows are written 1,5,7)")]
    BadClassId,
    /// A token that is not `index:value`.
    #[error("expected <index>:<value>")]
    ExpectedFeature,
    /// `2 : 3`.
    #[error("spaces around ':' (write <index>:<value> with no spaces)")]
    SpaceAroundColon,
    /// `:3`.
    #[error("missing index before ':'")]
    MissingIndex,
    /// `3:`.
    #[error("missing value after ':'")]
    MissingValue,
    /// `-3:1`.
    #[error("negative index")]
    NegativeIndex,
    /// `1.5:1`.
    #[error("index is not an integer")]
    FloatIndex,
    /// `a:1`.
    #[error("index is not a decimal integer")]
    BadIndex,
    /// An index beyond u32.
    #[error("index does not fit in 32 bits")]
    IndexTooLarge,
    /// Index 0 in one-based data.
    #[error("index 0 in one-based data (read it with `zero-based` if the file counts from 0)")]
    ZeroIndexOneBased,
    /// Indices out of order.
    #[error("index {index} follows {previous}: indices must increase within a row (`sort-indices` sorts them)")]
    UnsortedIndex {
        /// The index as written.
        index: u64,
        /// The index before it, as written.
        previous: u64,
    },
    /// The same index twice in a row.
    #[error("index {index} appears twice in the row")]
    DuplicateIndex {
        /// The index as written.
        index: u64,
    },
    /// A value that is not a decimal number.
    #[error("value is not a decimal number")]
    BadValue,
    /// A value that is infinite or NaN as f32.
    #[error("value is not finite as a 32-bit float")]
    NonFiniteValue,
    /// `0x1p3`.
    #[error("hexadecimal numbers are not accepted")]
    HexFloat,
    /// `1_000`.
    #[error("digit separators ('_') are not accepted")]
    DigitSeparator,
    /// `1.5abc`.
    #[error("unexpected characters after the number")]
    TrailingGarbage,
    /// `qidfoo:3` or `qid:x`.
    #[error("malformed qid (write qid:<non-negative integer>)")]
    BadQid,
    /// `qid` not directly after the label.
    #[error("qid must come directly after the label")]
    MisplacedQid,
    /// VW text that VW itself would warn about and read on.
    #[error("malformed VW text: {0}")]
    VwSyntax(&'static str),
    /// More than label, weight and initial value before the first `|`.
    #[error(
        "more words before the first `|` than label, importance weight and initial value (a tag is written \
         'tag, or touching the `|`)"
    )]
    VwLabelWords,
    /// A VW line with no label.
    #[error("the row has no label (VW text to train on needs one before the first `|`)")]
    VwNoLabel,
    /// A binary label other than -1, 0 or 1.
    #[error("label {0}: binary VW text takes -1 or 1 (0 is read as -1); for class ids 1..k read it with `multiclass`")]
    VwBinaryLabel(String),
    /// A class label that is not a whole number 1..2^24.
    #[error("class label {0}: give a whole number from 1 to 16777215")]
    VwClassLabel(String),
    /// An importance weight that is negative or not finite.
    #[error("importance weight {0}: a weight must be a finite number >= 0")]
    VwWeight(String),
}

/// A bad line: 1-based line and byte column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: u64,
    /// 1-based byte column.
    pub column: u64,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// Everything that can go wrong loading, converting or opening data.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// An I/O failure on a file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// A bad line of text.
    #[error("{path}:{}:{}: {}", .error.line, .error.column, .error.kind)]
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and what.
        error: ParseError,
    },
    /// A compressed input that does not decompress.
    #[error("{path}: cannot decompress ({format}): {source}")]
    Decompress {
        /// The file.
        path: PathBuf,
        /// gzip or bzip2.
        format: &'static str,
        /// The decoder's complaint.
        source: std::io::Error,
    },
    /// No rows at all.
    #[error("{path}: no rows (the input is empty or holds only blank and comment lines)")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// A malformed MNIST IDX file.
    #[error("{path}: not a valid IDX file: {reason}")]
    Idx {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Images and labels that do not belong together.
    #[error("{images} has {image_count} images but {labels} has {label_count} labels")]
    IdxMismatch {
        /// The images file.
        images: PathBuf,
        /// Its count.
        image_count: u64,
        /// The labels file.
        labels: PathBuf,
        /// Its count.
        label_count: u64,
    },
    /// A shard file that is not valid.
    #[error("{path}: invalid shard: {reason}")]
    Shard {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the offending value.
        reason: String,
    },
    /// A dataset directory or manifest that is not valid.
    #[error("{path}: invalid dataset: {reason}")]
    Dataset {
        /// The directory or manifest.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Another writer holds the directory ([`crate::fs::DirLock`]).
    #[error("{path}: another process is writing into this directory now; wait for it to finish, or choose another")]
    Busy {
        /// The directory.
        path: PathBuf,
    },
    /// A bad row of CSV.
    #[error("{path}:{line}: {}{reason}", .column.as_ref().map(|c| format!("column \"{c}\": ")).unwrap_or_default())]
    Csv {
        /// The file.
        path: PathBuf,
        /// The 1-based line the row starts on.
        line: u64,
        /// The column, where one is at fault.
        column: Option<String>,
        /// What is wrong.
        reason: String,
    },
    /// A request the data cannot satisfy.
    #[error("{0}")]
    Invalid(String),
}

impl LoadError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        LoadError::Io { path: path.into(), source }
    }
    pub(crate) fn shard(path: impl Into<PathBuf>, reason: impl Into<String>) -> Self {
        LoadError::Shard { path: path.into(), reason: reason.into() }
    }
    pub(crate) fn dataset(path: impl Into<PathBuf>, reason: impl Into<String>) -> Self {
        LoadError::Dataset { path: path.into(), reason: reason.into() }
    }
}
