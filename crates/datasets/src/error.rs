//! The generators' errors.

/// What stops a generator.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenError {
    /// A parameter outside its range.
    #[error("{name} = {value} is invalid: {expected}")]
    Parameter {
        /// The parameter.
        name: &'static str,
        /// Its value.
        value: String,
        /// What it must be.
        expected: &'static str,
    },
    /// Writing the dataset.
    #[error(transparent)]
    Load(#[from] rosenblatt_loader::LoadError),
}

pub(crate) fn param(name: &'static str, value: impl ToString, expected: &'static str) -> GenError {
    GenError::Parameter { name, value: value.to_string(), expected }
}
