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

/// A parameter's error, its value in decimal unless that is long and the
/// exponent form shorter: `shift = 1e30`, not a 1 and 30 zeros.
pub(crate) fn param<T>(name: &'static str, value: T, expected: &'static str) -> GenError
where
    T: std::fmt::Display + std::fmt::LowerExp,
{
    let (plain, exp) = (value.to_string(), format!("{value:e}"));
    let value = if plain.len() > 16 && exp.len() < plain.len() { exp } else { plain };
    GenError::Parameter { name, value, expected }
}

#[cfg(test)]
mod tests {
    use super::param;

    #[test]
    fn values_print_as_a_user_would_write_them() {
        let shown = |e: super::GenError| e.to_string();
        assert_eq!(shown(param("shift", 1e30f32, "x")), "shift = 1e30 is invalid: x");
        assert_eq!(shown(param("rotate", f32::MAX, "x")), "rotate = 3.4028235e38 is invalid: x");
        assert_eq!(shown(param("sigma", 0.25f32, "x")), "sigma = 0.25 is invalid: x");
        assert_eq!(shown(param("noise", 1e-30f64, "x")), "noise = 1e-30 is invalid: x");
        assert_eq!(shown(param("alpha", f32::NAN, "x")), "alpha = NaN is invalid: x");
        // Integers stay exact: the decimal form is never longer here.
        assert_eq!(shown(param("rows", u64::MAX, "x")), "rows = 18446744073709551615 is invalid: x");
        assert_eq!(shown(param("dim", 0usize, "x")), "dim = 0 is invalid: x");
    }
}
