//! The facade's errors.

/// What can go wrong in the facade's calls.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Loading or converting data.
    #[error(transparent)]
    Load(#[from] rosenblatt_loader::LoadError),
    /// Training.
    #[error(transparent)]
    Learn(#[from] rosenblatt_learners::LearnError),
    /// A training request that cannot run, whatever the data.
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    /// A model file that cannot be used, and why.
    #[error("{path}: {reason}")]
    Model {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A dataset that does not fit the model or training data it meets.
    #[error("{data}: {reason}")]
    Pairing {
        /// The dataset.
        data: std::path::PathBuf,
        /// What does not fit.
        reason: String,
    },
    /// A request that does not fit the data, with what is wrong.
    #[error("{0}")]
    Input(String),
    /// A failure every process of a multi-process run reports alike
    /// ([`crate::cluster::settle`]), so that one of them says it.
    #[error("{0}")]
    Processes(String),
}
