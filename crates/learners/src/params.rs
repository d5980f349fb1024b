//! The hyper-parameters, declared once in one table: each one's name (its
//! flag's, its Python keyword's, its C option's), kind (a real number, a
//! switch, or a choice among names) and doc line; their defaults
//! ([`ParamDefault`]: a value, or a rule over the training data); and the
//! values a user gives ([`HyperParams`]).

use crate::error::LearnError;
use crate::ftrl::Scales;
use std::fmt;

/// What values a hyper-parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A real number.
    Real,
    /// A whole number.
    Whole,
    /// On (1) or off (0).
    Switch,
    /// One of these names, given to the engine as its position.
    Choice(&'static [&'static str]),
}

/// The parameter table: `Variant name Kind "doc line";` for each, the
/// name (an identifier: the flag's, the Python keyword's, the setter's)
/// given once. Expands to `$then! { … }` with the lines as they are, for
/// a front end's macro; [`Param`] and its facts come from it here.
#[macro_export]
macro_rules! param_table {
    ($then:ident) => {
        $then! {
            Eta eta Real "Step size η (η0 of a decaying schedule).";
            Lambda lambda Real "L2 strength λ.";
            C c Real "Passive-aggressive aggressiveness C.";
            Alpha alpha Real "Winnow's promotion factor; FTRL-Proximal's α.";
            Beta beta Real "FTRL-Proximal's β.";
            L1 l1 Real "FTRL-Proximal's L1 strength.";
            L2 l2 Real "FTRL-Proximal's L2 strength.";
            B b Real "EG's norm B.";
            Threshold threshold Real "Winnow's threshold.";
            Average average Switch "Predict with the average of the iterates (Polyak–Ruppert).";
            Adaptive adaptive Switch "Per-coordinate adaptive steps η/√(Σ g_i²) (AdaGrad).";
            Normalized normalized Switch
                "Normalised adaptive steps (NAG; Vowpal Wabbit's default update): AdaGrad's steps divided by each feature's largest |x_i| so far, so that rescaling a feature changes no prediction; implies adaptive.";
            Kernel kernel Choice
                "The kernel of the kernel learners: rbf, Gaussian exp(−γ‖x − x′‖²), or poly, polynomial (γ⟨x, x′⟩ + c)^d.";
            Gamma gamma Real "The kernel's γ.";
            Coef0 coef0 Real "The polynomial kernel's constant c.";
            Degree degree Whole "The polynomial kernel's degree d.";
            Budget budget Whole
                "At most this many support rows (0: no limit); under a full budget the row with the least Σ|α| leaves.";
        }
    };
}

/// The names a choice takes, by parameter (a choice's value is the
/// position of its name).
const CHOICES: &[(Param, &[&str])] = &[(Param::Kernel, &["rbf", "poly"])];

/// [`Param`] and its facts, from the table's lines.
macro_rules! define_params {
    ($($variant:ident $name:ident $kind:ident $doc:literal;)*) => {
        /// A hyper-parameter, by its name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Param {
            $(#[doc = $doc] $variant,)*
        }

        impl Param {
            /// Every hyper-parameter, in the table's order.
            pub const ALL: [Param; [$(stringify!($name)),*].len()] = [$(Param::$variant),*];

            /// The name (the flag's, the Python keyword's, the setter's).
            pub fn name(self) -> &'static str {
                match self {
                    $(Param::$variant => stringify!($name),)*
                }
            }

            /// What values it takes.
            pub fn kind(self) -> ParamKind {
                match self {
                    $(Param::$variant => define_params!(@kind $kind $variant),)*
                }
            }

            /// One line about it.
            pub fn doc(self) -> &'static str {
                match self {
                    $(Param::$variant => $doc,)*
                }
            }
        }
    };
    (@kind Choice $variant:ident) => {
        ParamKind::Choice(
            CHOICES.iter().find(|c| c.0 == Param::$variant).map_or(&[], |c| c.1),
        )
    };
    (@kind $kind:ident $variant:ident) => {
        ParamKind::$kind
    };
}

param_table!(define_params);

impl Param {
    /// A hyper-parameter given by name rather than number: its names, the
    /// value being the position (`kernel = poly` is 1).
    pub fn choices(self) -> Option<&'static [&'static str]> {
        match self.kind() {
            ParamKind::Choice(names) => Some(names),
            _ => None,
        }
    }

    /// `v` as a user gives it: a choice's name, else the number.
    pub fn show(self, v: f64) -> String {
        match self.choices().and_then(|names| names.get(v as usize)) {
            Some(name) if v.fract() == 0.0 && v >= 0.0 => name.to_string(),
            _ => v.to_string(),
        }
    }

    /// The hyper-parameter named `name`.
    pub fn from_name(name: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// A hyper-parameter's default: a value, or a rule over the training data
/// where theory says the scale matters (applied at the start of training,
/// and reported: [`Configured::notes`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamDefault {
    /// This value.
    Value(f64),
    /// The data's dimension `d` (Winnow's threshold).
    Dimension,
    /// `d / max |x_i|`: room in `‖w‖₁ ≤ B` for a weight of `1/max |x_i|`
    /// on every feature (EG's norm).
    DimOverMaxAbs,
    /// `√(2·ln(2d)/T) / max |x_i|`, `T` the planned steps: the rate that
    /// minimises EG's regret bound over `T` steps on the doubled simplex
    /// (Kivinen & Warmuth; the bound does not depend on `B` in these
    /// units).
    EgRate,
    /// `c / R²`, `R = max ‖x‖`: one PA-I/PA-II step moves a margin by at
    /// most `c`.
    OverRSquared(f64),
    /// The Gaussian kernel's γ: `c / (d·Var(X))`, `Var(X)` the variance of
    /// every entry of the data, zeros included ([`crate::spread`]); with
    /// the polynomial kernel, `poly`.
    KernelGamma {
        /// The multiple of `1 / (d·Var(X))`.
        rbf: f64,
        /// The polynomial kernel's.
        poly: f64,
    },
    /// A step size that depends on the kind of step: with normalised
    /// steps (`--normalized`), with adaptive ones (`--adaptive`), else.
    ByStep {
        /// With normalised adaptive steps (NAG).
        normalized: f64,
        /// With AdaGrad's steps.
        adaptive: f64,
        /// With `η0/√k`.
        plain: f64,
    },
}

impl fmt::Display for ParamDefault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamDefault::Value(v) => write!(f, "{v}"),
            ParamDefault::Dimension => f.write_str("the dimension d"),
            ParamDefault::DimOverMaxAbs => f.write_str("d / max |x_i|"),
            ParamDefault::EgRate => f.write_str("√(2·ln(2d)/T) / max |x_i|, T the planned steps"),
            ParamDefault::OverRSquared(c) => write!(f, "{c} / R², R = max ‖x‖"),
            ParamDefault::ByStep { normalized, adaptive, plain } => {
                write!(f, "{normalized} with normalized steps, {adaptive} with adaptive ones, else {plain}")
            }
            ParamDefault::KernelGamma { rbf, poly } => {
                write!(f, "{rbf} / (d·Var(X)) with the Gaussian kernel, {poly} with the polynomial one")
            }
        }
    }
}

impl ParamDefault {
    /// The value for `facts`, and a note saying how it was derived (none
    /// for a plain value).
    pub(crate) fn resolve(self, facts: &DataFacts<'_>, step: StepKind, poly: bool) -> (f64, Option<String>) {
        let d = facts.dim as f64;
        let (v, from) = match self {
            ParamDefault::Value(v) => return (v, None),
            ParamDefault::KernelGamma { poly: p, .. } if poly => return (p, None),
            ParamDefault::KernelGamma { rbf, .. } => {
                let spread = (facts.spread)();
                (rbf / positive(spread), format!("d·Var(X) = {}", short(spread)))
            }
            ParamDefault::ByStep { normalized, adaptive, plain } => {
                let v = match step {
                    StepKind::Normalized => normalized,
                    StepKind::Adaptive => adaptive,
                    StepKind::Plain => plain,
                };
                return (v, None);
            }
            ParamDefault::Dimension => (d, format!("d = {d}")),
            ParamDefault::DimOverMaxAbs => {
                let m = (facts.scales)().max_abs;
                (d / positive(m), format!("d = {d}, max |x_i| = {m}"))
            }
            ParamDefault::EgRate => {
                let m = (facts.scales)().max_abs;
                let t = facts.steps.max(1) as f64;
                ((2.0 * (2.0 * d).ln() / t).sqrt() / positive(m), format!("d = {d}, T = {t}, max |x_i| = {m}"))
            }
            ParamDefault::OverRSquared(c) => {
                let r = (facts.scales)().max_norm;
                (c / positive(r * r), format!("R = {r}"))
            }
        };
        (v, Some(format!("{self}; here {from}")))
    }
}

/// Which kind of gradient step a configuration takes ([`ParamDefault::ByStep`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum StepKind {
    Normalized,
    Adaptive,
    Plain,
}

/// A whole number from 0 to `max`.
pub(crate) fn whole(p: Param, v: f64, max: u64) -> Result<u64, LearnError> {
    if v.fract() == 0.0 && v >= 0.0 && v <= max as f64 {
        Ok(v as u64)
    } else {
        Err(crate::error::param(p.name(), v, "a whole number in range"))
    }
}

/// A switch given as a number: 1 (on) or 0 (off).
pub(crate) fn switch(p: Param, v: f64) -> Result<bool, LearnError> {
    match v {
        0.0 => Ok(false),
        1.0 => Ok(true),
        _ => Err(crate::error::param(p.name(), v, "1 (on) or 0 (off)")),
    }
}

/// `v` with six decimals at most, trailing zeros dropped.
pub(crate) fn short(v: f64) -> String {
    let s = format!("{v:.6}");
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
}

/// A scale of the data as a divisor: all-zero rows give 1, so that a
/// derived default stays finite (and training on them learns nothing).
pub(crate) fn positive(v: f64) -> f64 {
    if v > 0.0 && v.is_finite() { v } else { 1.0 }
}

/// The values a tuning grid gives one hyper-parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Axis {
    /// These multiples of its default (as derived from the data).
    Times(&'static [f64]),
    /// These values.
    Values(&'static [f64]),
}

/// Hyper-parameters as a user gives them: `None` takes the learner's
/// default, and giving one the learner does not take is an error.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HyperParams([Option<f64>; Param::ALL.len()]);

impl HyperParams {
    /// The value given for `p`.
    pub fn get(&self, p: Param) -> Option<f64> {
        self.0[p as usize]
    }
    /// Gives `p` the value `v` (`None`: the default).
    pub fn set(&mut self, p: Param, v: Option<f64>) -> &mut Self {
        self.0[p as usize] = v;
        self
    }
    /// `self` with `p` set to `v`.
    pub fn with(mut self, p: Param, v: f64) -> Self {
        self.set(p, Some(v));
        self
    }
}

/// What configuring a learner needs to know of the data.
pub struct DataFacts<'a> {
    /// The dimension.
    pub dim: usize,
    /// Number of classes (2 for ±1 labels).
    pub classes: usize,
    /// The steps training will take: examples presented over all passes.
    pub steps: u64,
    /// The training rows' scales (computed only if a default needs them:
    /// a pass over the data).
    pub scales: &'a dyn Fn() -> Scales,
    /// The training rows' [`crate::spread`] (computed only if a default
    /// needs it: a pass over the data in row order).
    pub spread: &'a dyn Fn() -> f64,
}
