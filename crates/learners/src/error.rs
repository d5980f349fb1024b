//! The learners' errors, each with the offending value.

/// What stops training before it starts.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LearnError {
    /// A hyper-parameter outside its range.
    #[error("{name} = {value} is invalid: {expected}")]
    Parameter {
        /// The parameter's name.
        name: &'static str,
        /// Its value, as given.
        value: String,
        /// What it must be.
        expected: &'static str,
    },
    /// A binary learner given a label other than ±1.
    #[error("example {index} has label {label}; binary learners need labels +1 and -1")]
    NotBinary {
        /// The example.
        index: usize,
        /// Its label.
        label: f32,
    },
    /// A multi-class learner given a label that is not one of its classes.
    #[error("example {index} has label {label}; expected a class id 0..{classes}")]
    NotAClass {
        /// The example.
        index: usize,
        /// Its label.
        label: f32,
        /// Number of classes.
        classes: usize,
    },
    /// Importance weights that do not fit the rows: not one per row, or one
    /// that is negative or not finite.
    #[error("{}{what}; importance weights are one per row, finite and >= 0", index.map_or(String::new(), |i| format!("example {i} has ")))]
    Weights {
        /// The example, where one weight is bad.
        index: Option<usize>,
        /// What is wrong.
        what: String,
    },
    /// A learner name that is not one of [`crate::Learner::ALL`].
    #[error("unknown learner `{name}` (one of: {known})")]
    UnknownLearner {
        /// The name given.
        name: String,
        /// The names there are.
        known: String,
    },
    /// A hyper-parameter given to a learner that does not take it.
    #[error("{learner} takes no `{param}` (it takes {takes})")]
    NotApplicable {
        /// The learner.
        learner: &'static str,
        /// The hyper-parameter given.
        param: &'static str,
        /// What it takes.
        takes: String,
    },
    /// A kernel learner asked to learn batch by batch.
    #[error("{learner} trains on a whole dataset at once (rosenblatt train), not batch by batch")]
    WholeData {
        /// The learner.
        learner: &'static str,
    },
    /// Nothing to train on.
    #[error("the training set is empty")]
    Empty,
    /// Another process of a multi-process run failed (its reason as it
    /// gave it).
    #[error("rank {rank}: {reason}")]
    Process {
        /// The process that failed.
        rank: usize,
        /// Why.
        reason: String,
    },
    /// Parts that do not divide among the processes.
    #[error(
        "{parts} parts over {processes} processes: the parts must be a multiple of the processes (each trains the same number)"
    )]
    Processes {
        /// Parts asked for.
        parts: usize,
        /// Processes running.
        processes: usize,
    },
    /// A process holding other rows than its parts'.
    #[error("rank {rank} holds training rows {held:?}, but its parts are rows {parts:?}")]
    Rows {
        /// The process.
        rank: usize,
        /// The rows it holds.
        held: std::ops::Range<usize>,
        /// The rows of its parts.
        parts: std::ops::Range<usize>,
    },
    /// A saved learner state that does not fit the learner.
    #[error("the saved learner state does not fit this learner: {0}")]
    State(String),
    /// A learner's state larger than this machine can allocate.
    #[error(
        "the learner's state needs an array of {values} values ({:.1} GB), more than this machine can hold (its memory must take the state and a copy of the model); the dimension is the largest feature index plus one: hash or renumber the features into fewer",
        *.bytes as f64 / 1e9
    )]
    TooLarge {
        /// Values in the array that could not be allocated.
        values: usize,
        /// Its bytes.
        bytes: u128,
    },
    /// Data and learner disagree on the dimension.
    #[error("the data has dimension {data} but the learner was made for {learner}")]
    Dimension {
        /// The data's dimension.
        data: usize,
        /// The learner's.
        learner: usize,
    },
}

/// The machine's memory in bytes (`MemTotal` of `/proc/meminfo`; `None`
/// where there is no such file).
pub(crate) fn physical_memory() -> Option<u128> {
    static TOTAL: std::sync::OnceLock<Option<u128>> = std::sync::OnceLock::new();
    *TOTAL.get_or_init(|| {
        let info = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kb: u128 = line.trim_start_matches("MemTotal:").trim().trim_end_matches("kB").trim().parse().ok()?;
        Some(kb * 1024)
    })
}

pub(crate) fn param(name: &'static str, value: impl Shown, expected: &'static str) -> LearnError {
    LearnError::Parameter { name, value: value.shown(), expected }
}

/// A parameter's value as a user would write it back.
pub(crate) trait Shown {
    fn shown(&self) -> String;
}

macro_rules! shown_as_display {
    ($($t:ty),*) => {$(
        impl Shown for $t {
            fn shown(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
shown_as_display!(u8, u32, u64, usize, i32, i64, String, &str);

macro_rules! shown_as_float {
    ($($t:ty),*) => {$(
        /// Decimal, unless that is long and exponent form shorter:
        /// `1e300`, not a 1 and 300 zeros.
        impl Shown for $t {
            fn shown(&self) -> String {
                let (plain, exp) = (self.to_string(), format!("{self:e}"));
                if plain.len() > 16 && exp.len() < plain.len() { exp } else { plain }
            }
        }
    )*};
}
shown_as_float!(f32, f64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_shown_as_written() {
        let shown = |v: &dyn Shown| v.shown();
        assert_eq!(shown(&1e300f64), "1e300");
        assert_eq!(shown(&-3.4028235e38f32), "-3.4028235e38");
        assert_eq!(shown(&1e-30f64), "1e-30");
        assert_eq!(shown(&0.0000001f64), "0.0000001");
        assert_eq!(shown(&2.5f32), "2.5");
        assert_eq!(shown(&0.0f64), "0");
        assert_eq!(shown(&18446744073709551615u64), "18446744073709551615");
        let e = param("passes", 1e300, "a finite number > 0");
        assert_eq!(e.to_string(), "passes = 1e300 is invalid: a finite number > 0");
    }
}
