//! Every learner by name, with what it is, whether it mixes, whether it is
//! multi-class and which hyper-parameters it takes with their defaults; and
//! the step from a name and user-given hyper-parameters to a validated,
//! typed configuration ([`Learner::configure`]) and from that to a learner
//! ([`Config::build`]).
//!
//! The matches over [`Learner`] and [`Config`] are exhaustive: adding a
//! learner is a variant here and a module beside its kin, and the compiler
//! names every place that must learn of it. The command line's `--learner`
//! values and help, and the README's list, come from here.

use crate::eg::{EgForm, ExponentiatedGradient};
use crate::error::LearnError;
use crate::ftrl::{FtrlParams, FtrlProximal, RandomizedFtrl, Scales};
use crate::kernel::{Kernel, KernelConfig, KernelForm};
use crate::learner::{Bias, OnlineLearner};
use crate::linear::PerceptronParams;
use crate::loss::Loss;
use crate::mix::Mixable;
use crate::model::{LinearModel, MulticlassModel};
use crate::multiclass::MulticlassPerceptron;
use crate::pa::{PaVariant, PassiveAggressive};
use crate::sgd::{Schedule, Sgd, SgdParams};
use crate::state::Resume;
use crate::voted::VotedModel;
use crate::winnow::Winnow;
use crate::{AveragedPerceptron, Perceptron, VotedPerceptron};
use std::fmt;

/// A learner, by the name `rosenblatt train --learner` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Learner {
    /// Rosenblatt's Perceptron.
    Perceptron,
    /// The Perceptron in sequential passes until one makes no mistake.
    BatchPerceptron,
    /// The average of every vector the Perceptron passes through.
    AveragedPerceptron,
    /// Freund & Schapire's vote of the Perceptron's vectors.
    VotedPerceptron,
    /// Gradient descent on the hinge loss.
    HingeSgd,
    /// Pegasos.
    Pegasos,
    /// Logistic regression by SGD.
    Logistic,
    /// Littlestone's Winnow.
    Winnow,
    /// Exponentiated gradient on the simplex.
    Eg,
    /// EG± for signed weights.
    EgPm,
    /// The randomised FTRL classifier.
    FtrlRandomized,
    /// FTRL-Proximal.
    FtrlProximal,
    /// Passive-aggressive.
    Pa,
    /// PA-I.
    Pa1,
    /// PA-II.
    Pa2,
    /// The multi-class Perceptron.
    MulticlassPerceptron,
    /// The averaged multi-class Perceptron.
    MulticlassAveragedPerceptron,
    /// The kernel Perceptron.
    KernelPerceptron,
    /// The kernel voted Perceptron.
    KernelVotedPerceptron,
    /// The kernel averaged Perceptron.
    KernelAveragedPerceptron,
    /// The multi-class kernel Perceptron.
    MulticlassKernelPerceptron,
}

/// A hyper-parameter, by the name of its flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Param {
    /// Step size η (η0 of a decaying schedule).
    Eta,
    /// L2 strength λ.
    Lambda,
    /// Passive-aggressive aggressiveness C.
    C,
    /// Winnow's promotion factor; FTRL-Proximal's α.
    Alpha,
    /// FTRL-Proximal's β.
    Beta,
    /// FTRL-Proximal's L1 strength.
    L1,
    /// FTRL-Proximal's L2 strength.
    L2,
    /// EG's norm `B`.
    B,
    /// Winnow's threshold.
    Threshold,
    /// Predict with the average of the iterates: 1 (on) or 0 (off).
    Average,
    /// Per-coordinate adaptive steps (AdaGrad): 1 (on) or 0 (off).
    Adaptive,
    /// Normalised adaptive steps (NAG, Vowpal Wabbit's default update):
    /// 1 (on) or 0 (off); on implies adaptive.
    Normalized,
    /// The kernel: 0 Gaussian (`rbf`), 1 polynomial (`poly`) —
    /// [`Param::choices`].
    Kernel,
    /// The kernel's γ.
    Gamma,
    /// The polynomial kernel's constant c.
    Coef0,
    /// The polynomial kernel's degree.
    Degree,
    /// At most this many support rows (0: no limit).
    Budget,
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
    fn resolve(self, facts: &DataFacts<'_>, step: StepKind, poly: bool) -> (f64, Option<String>) {
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
enum StepKind {
    Normalized,
    Adaptive,
    Plain,
}

/// A whole number from 0 to `max`.
fn whole(p: Param, v: f64, max: u64) -> Result<u64, LearnError> {
    if v.fract() == 0.0 && v >= 0.0 && v <= max as f64 {
        Ok(v as u64)
    } else {
        Err(crate::error::param(p.name(), v, "a whole number in range"))
    }
}

/// A switch given as a number: 1 (on) or 0 (off).
fn switch(p: Param, v: f64) -> Result<bool, LearnError> {
    match v {
        0.0 => Ok(false),
        1.0 => Ok(true),
        _ => Err(crate::error::param(p.name(), v, "1 (on) or 0 (off)")),
    }
}

/// `v` with six decimals at most, trailing zeros dropped.
fn short(v: f64) -> String {
    let s = format!("{v:.6}");
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
}

/// A scale of the data as a divisor: all-zero rows give 1, so that a
/// derived default stays finite (and training on them learns nothing).
fn positive(v: f64) -> f64 {
    if v > 0.0 && v.is_finite() { v } else { 1.0 }
}

impl Param {
    /// Every hyper-parameter.
    pub const ALL: [Param; 17] = [
        Param::Eta,
        Param::Lambda,
        Param::C,
        Param::Alpha,
        Param::Beta,
        Param::L1,
        Param::L2,
        Param::B,
        Param::Threshold,
        Param::Average,
        Param::Adaptive,
        Param::Normalized,
        Param::Kernel,
        Param::Gamma,
        Param::Coef0,
        Param::Degree,
        Param::Budget,
    ];

    /// The name (and flag: `--eta`, …).
    pub fn name(self) -> &'static str {
        match self {
            Param::Eta => "eta",
            Param::Lambda => "lambda",
            Param::C => "c",
            Param::Alpha => "alpha",
            Param::Beta => "beta",
            Param::L1 => "l1",
            Param::L2 => "l2",
            Param::B => "b",
            Param::Threshold => "threshold",
            Param::Average => "average",
            Param::Adaptive => "adaptive",
            Param::Normalized => "normalized",
            Param::Kernel => "kernel",
            Param::Gamma => "gamma",
            Param::Coef0 => "coef0",
            Param::Degree => "degree",
            Param::Budget => "budget",
        }
    }

    /// A hyper-parameter given by name rather than number: its names, the
    /// value being the position (`--kernel poly` is 1).
    pub fn choices(self) -> Option<&'static [&'static str]> {
        match self {
            Param::Kernel => Some(&["rbf", "poly"]),
            _ => None,
        }
    }

    /// `v` as a flag takes it: a choice's name, else the number.
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

impl Learner {
    /// Every learner, in the order the help lists them.
    pub const ALL: [Learner; 21] = [
        Learner::Perceptron,
        Learner::BatchPerceptron,
        Learner::AveragedPerceptron,
        Learner::VotedPerceptron,
        Learner::HingeSgd,
        Learner::Pegasos,
        Learner::Logistic,
        Learner::Winnow,
        Learner::Eg,
        Learner::EgPm,
        Learner::FtrlRandomized,
        Learner::FtrlProximal,
        Learner::Pa,
        Learner::Pa1,
        Learner::Pa2,
        Learner::MulticlassPerceptron,
        Learner::MulticlassAveragedPerceptron,
        Learner::KernelPerceptron,
        Learner::KernelVotedPerceptron,
        Learner::KernelAveragedPerceptron,
        Learner::MulticlassKernelPerceptron,
    ];

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            Learner::Perceptron => "perceptron",
            Learner::BatchPerceptron => "batch-perceptron",
            Learner::AveragedPerceptron => "averaged-perceptron",
            Learner::VotedPerceptron => "voted-perceptron",
            Learner::HingeSgd => "hinge-sgd",
            Learner::Pegasos => "pegasos",
            Learner::Logistic => "logistic",
            Learner::Winnow => "winnow",
            Learner::Eg => "eg",
            Learner::EgPm => "eg-pm",
            Learner::FtrlRandomized => "ftrl-randomized",
            Learner::FtrlProximal => "ftrl-proximal",
            Learner::Pa => "pa",
            Learner::Pa1 => "pa1",
            Learner::Pa2 => "pa2",
            Learner::MulticlassPerceptron => "multiclass-perceptron",
            Learner::MulticlassAveragedPerceptron => "multiclass-averaged-perceptron",
            Learner::KernelPerceptron => "kernel-perceptron",
            Learner::KernelVotedPerceptron => "kernel-voted-perceptron",
            Learner::KernelAveragedPerceptron => "kernel-averaged-perceptron",
            Learner::MulticlassKernelPerceptron => "multiclass-kernel-perceptron",
        }
    }

    /// One line about it.
    pub fn about(self) -> &'static str {
        match self {
            Learner::Perceptron => "Rosenblatt's Perceptron, with a bias",
            Learner::BatchPerceptron => "the Perceptron in sequential passes until one makes no mistake",
            Learner::AveragedPerceptron => "the average of every vector the Perceptron passes through, kept lazily",
            Learner::VotedPerceptron => {
                "Freund & Schapire's vote of the Perceptron's vectors; the model carries its mistaken rows"
            }
            Learner::HingeSgd => {
                "gradient descent on the hinge loss: AdaGrad or normalised (NAG) steps, or η/√(k+1) with optional L2; optional averaging"
            }
            Learner::Pegasos => "Pegasos: steps 1/(λk), projection onto the ball of radius 1/√λ, averaged iterates",
            Learner::Logistic => {
                "logistic regression by SGD: AdaGrad or normalised (NAG) steps, or η/√(k+1) with optional L2; optional averaging"
            }
            Learner::Winnow => "Littlestone's Winnow, for binary features",
            Learner::Eg => "exponentiated gradient on the simplex, hinge loss, with a bias",
            Learner::EgPm => "EG± for signed weights, hinge loss, with a bias",
            Learner::FtrlRandomized => "the randomised FTRL classifier, R = the largest row norm",
            Learner::FtrlProximal => "FTRL-Proximal on the logistic loss: per-coordinate rates, L1 and L2",
            Learner::Pa => "passive-aggressive, the bias on the rows' scale (rows lifted to (x, R), R = max ‖x‖)",
            Learner::Pa1 => "passive-aggressive PA-I",
            Learner::Pa2 => "passive-aggressive PA-II",
            Learner::MulticlassPerceptron => "one weight vector per class, for class-id labels",
            Learner::MulticlassAveragedPerceptron => "the averaged multi-class Perceptron, for class-id labels",
            Learner::KernelPerceptron => {
                "the Perceptron with a kernel: each mistake keeps its row as a support row; class ids train one-vs-rest on one support set"
            }
            Learner::KernelVotedPerceptron => {
                "Freund & Schapire's voted Perceptron with a kernel, every vector voting for as long as it survived"
            }
            Learner::KernelAveragedPerceptron => {
                "the average of the kernel Perceptron's vectors; class ids train one-vs-rest on one support set"
            }
            Learner::MulticlassKernelPerceptron => "the multi-class Perceptron with a kernel, for class-id labels",
        }
    }

    /// Whether it trains in several parts by parameter mixing (the others
    /// train in one part).
    pub fn mixes(self) -> bool {
        match self {
            Learner::Perceptron
            | Learner::AveragedPerceptron
            | Learner::VotedPerceptron
            | Learner::HingeSgd
            | Learner::Pegasos
            | Learner::Logistic
            | Learner::FtrlProximal
            | Learner::Pa
            | Learner::Pa1
            | Learner::Pa2
            | Learner::MulticlassPerceptron
            | Learner::MulticlassAveragedPerceptron => true,
            // Separation is a property of one sequential pass; the
            // multiplicative and randomised learners' states do not average.
            Learner::BatchPerceptron | Learner::Winnow | Learner::Eg | Learner::EgPm | Learner::FtrlRandomized => false,
            // A kernel expansion does not average across parts.
            Learner::KernelPerceptron
            | Learner::KernelVotedPerceptron
            | Learner::KernelAveragedPerceptron
            | Learner::MulticlassKernelPerceptron => false,
        }
    }

    /// Whether it takes class-id labels (else ±1; [`Learner::any_labels`]
    /// for those that take either).
    pub fn multiclass(self) -> bool {
        matches!(
            self,
            Learner::MulticlassPerceptron | Learner::MulticlassAveragedPerceptron | Learner::MulticlassKernelPerceptron
        )
    }

    /// Whether it takes ±1 labels and class ids alike (one-vs-rest over the
    /// classes).
    pub fn any_labels(self) -> bool {
        matches!(self, Learner::KernelPerceptron | Learner::KernelVotedPerceptron | Learner::KernelAveragedPerceptron)
    }

    /// Whether its scores are log-odds, so that a probability follows
    /// from them (σ of the score).
    pub fn probabilistic(self) -> bool {
        matches!(self, Learner::Logistic | Learner::FtrlProximal)
    }

    /// Whether it is a kernel learner: it trains on a whole dataset at once
    /// ([`crate::KernelTrainer`]), not batch by batch.
    pub fn kernel(self) -> bool {
        matches!(
            self,
            Learner::KernelPerceptron
                | Learner::KernelVotedPerceptron
                | Learner::KernelAveragedPerceptron
                | Learner::MulticlassKernelPerceptron
        )
    }

    /// Whether it trains in sequential passes until one makes no mistake
    /// (its passes are a limit, 100 by default).
    pub fn stops_when_separated(self) -> bool {
        self == Learner::BatchPerceptron
    }

    /// The hyper-parameters it takes, with their defaults.
    pub fn params(self) -> &'static [(Param, ParamDefault)] {
        use ParamDefault::{ByStep, DimOverMaxAbs, Dimension, EgRate, KernelGamma, OverRSquared, Value};
        match self {
            Learner::Perceptron
            | Learner::BatchPerceptron
            | Learner::AveragedPerceptron
            | Learner::VotedPerceptron
            | Learner::MulticlassPerceptron
            | Learner::MulticlassAveragedPerceptron => &[(Param::Eta, Value(1.0))],
            Learner::HingeSgd | Learner::Logistic => {
                // AdaGrad by default: on the sparse text-like set it reaches
                // 18.5% test error in one pass where η0/√k reaches 24.7%, and
                // on census-like (a9a-shaped) data and MNIST 9-vs-rest it is
                // as good as LIBLINEAR in 5 passes. Without it η0 = 1: 0.1
                // stopped 1 to 6 points short. The last iterate by default:
                // averaging from the first step carries the early iterates
                // along (a wash with AdaGrad, up to a point lost without).
                &[
                    // NAG (opt-in): η0 = 1 — Vowpal Wabbit's 0.5 is 0.1 point
                    // better on census-like data but leaves the sparse set at
                    // 22.5% error after a pass, 1 at 18.2% (AdaGrad: 18.5%).
                    (Param::Eta, ByStep { normalized: 1.0, adaptive: 0.1, plain: 1.0 }),
                    (Param::Lambda, Value(0.0)),
                    (Param::Average, Value(0.0)),
                    (Param::Adaptive, Value(1.0)),
                    (Param::Normalized, Value(0.0)),
                ]
            }
            // Pegasos' analysis is of the averaged iterate, and it pays: 1.6
            // points on census-like data, 0.3 on MNIST 9-vs-rest.
            Learner::Pegasos => &[(Param::Lambda, Value(1e-4)), (Param::Average, Value(1.0))],
            // Littlestone's α = 2 is for separable data; on noisy data a
            // smaller promotion averages over more mistakes (census-like
            // data: 2 → 0.767, 1.5 → 0.795, 1.2 → 0.822 accuracy).
            Learner::Winnow => &[(Param::Alpha, Value(1.2)), (Param::Threshold, Dimension)],
            Learner::Eg | Learner::EgPm => &[(Param::B, DimOverMaxAbs), (Param::Eta, EgRate)],
            Learner::FtrlRandomized | Learner::Pa => &[],
            Learner::FtrlProximal => &[
                (Param::Alpha, Value(0.1)),
                (Param::Beta, Value(1.0)),
                (Param::L1, Value(1.0)),
                (Param::L2, Value(1.0)),
            ],
            Learner::Pa1 | Learner::Pa2 => &[(Param::C, OverRSquared(0.1))],
            // Full MNIST, ten digits, averaged, one pass: γ = 0.0134
            // (scikit-learn's `scale`, 1/(d·Var(X))) 2.68% test error,
            // 0.027 1.94%, 0.04 1.93%, 0.06 1.86%, 0.08 1.96%, 0.12 2.90%;
            // five passes at 0.04 1.50%, at 0.06 1.52%. 3/(d·Var(X)) is
            // 0.040 there. The polynomial kernel (⟨x, x′⟩ + 1)^4 is Freund
            // & Schapire's best degree on the digits.
            Learner::KernelVotedPerceptron => &[
                (Param::Kernel, Value(0.0)),
                (Param::Gamma, KernelGamma { rbf: 3.0, poly: 1.0 }),
                (Param::Coef0, Value(1.0)),
                (Param::Degree, Value(4.0)),
            ],
            Learner::KernelPerceptron | Learner::KernelAveragedPerceptron | Learner::MulticlassKernelPerceptron => &[
                (Param::Kernel, Value(0.0)),
                (Param::Gamma, KernelGamma { rbf: 3.0, poly: 1.0 }),
                (Param::Coef0, Value(1.0)),
                (Param::Degree, Value(4.0)),
                (Param::Budget, Value(0.0)),
            ],
        }
    }

    /// The grid `rosenblatt tune` searches: the main hyper-parameters, each
    /// over a few log-spaced values (the product of the axes is the grid).
    /// Empty for the learners whose hyper-parameters do not change their
    /// predictions (the Perceptrons' η only scales the weights) or that
    /// have none.
    pub fn grid(self) -> &'static [(Param, Axis)] {
        use Axis::{Times, Values};
        const DECADES: &[f64] = &[0.1, 0.3, 1.0, 3.0, 10.0];
        match self {
            Learner::HingeSgd | Learner::Logistic => {
                &[(Param::Eta, Times(DECADES)), (Param::Average, Values(&[0.0, 1.0]))]
            }
            Learner::Pegasos => &[(Param::Lambda, Values(&[1e-6, 1e-5, 1e-4, 1e-3, 1e-2]))],
            Learner::Winnow => &[(Param::Alpha, Values(&[1.05, 1.1, 1.2, 1.5, 2.0]))],
            Learner::Eg | Learner::EgPm => {
                &[(Param::B, Times(&[0.1, 1.0, 10.0])), (Param::Eta, Times(&[0.3, 1.0, 3.0]))]
            }
            Learner::FtrlProximal => &[(Param::Alpha, Times(DECADES)), (Param::L1, Values(&[0.0, 0.1, 1.0, 10.0]))],
            Learner::Pa1 | Learner::Pa2 => &[(Param::C, Times(&[0.01, 0.1, 1.0, 10.0, 100.0]))],
            Learner::KernelPerceptron
            | Learner::KernelVotedPerceptron
            | Learner::KernelAveragedPerceptron
            | Learner::MulticlassKernelPerceptron => &[(Param::Gamma, Times(&[0.25, 0.5, 1.0, 2.0, 4.0]))],
            Learner::Perceptron
            | Learner::BatchPerceptron
            | Learner::AveragedPerceptron
            | Learner::VotedPerceptron
            | Learner::MulticlassPerceptron
            | Learner::MulticlassAveragedPerceptron
            | Learner::FtrlRandomized
            | Learner::Pa => &[],
        }
    }

    /// The learner named `name`.
    pub fn from_name(name: &str) -> Result<Learner, LearnError> {
        Learner::ALL.into_iter().find(|l| l.name() == name).ok_or_else(|| LearnError::UnknownLearner {
            name: name.to_string(),
            known: Learner::ALL.map(Learner::name).join(", "),
        })
    }

    /// Validates `given` against this learner — only the hyper-parameters
    /// it takes, each in its range — fills in the defaults, and returns the
    /// typed configuration. `seed` seeds the randomised learners' draws.
    pub fn configure(self, given: &HyperParams, facts: &DataFacts<'_>, seed: u64) -> Result<Configured, LearnError> {
        let takes = self.params();
        if let Some(p) = Param::ALL.into_iter().find(|&p| given.get(p).is_some() && !takes.iter().any(|t| t.0 == p)) {
            return Err(LearnError::NotApplicable {
                learner: self.name(),
                param: p.name(),
                takes: if takes.is_empty() {
                    "no hyper-parameters".into()
                } else {
                    takes.iter().map(|t| t.0.name()).collect::<Vec<_>>().join(", ")
                },
            });
        }
        let (mut record, mut notes) = (Vec::new(), Vec::new());
        // Adaptive steps (normalised ones included) change the step size's
        // default.
        let on = |p: Param| match (given.get(p), takes.iter().find(|t| t.0 == p)) {
            (Some(v), _) | (None, Some(&(_, ParamDefault::Value(v)))) => v == 1.0,
            _ => false,
        };
        let step = match (on(Param::Normalized), on(Param::Adaptive)) {
            (true, _) => StepKind::Normalized,
            (false, true) => StepKind::Adaptive,
            (false, false) => StepKind::Plain,
        };
        if on(Param::Normalized) && given.get(Param::Adaptive) == Some(0.0) {
            return Err(crate::error::param(
                "adaptive",
                0.0,
                "1 with normalized steps, which are adaptive (drop --adaptive 0, or --normalized 0)",
            ));
        }
        let poly = given.get(Param::Kernel) == Some(1.0);
        if self.kernel()
            && !poly
            && let Some(p) = [Param::Coef0, Param::Degree].into_iter().find(|&p| given.get(p).is_some())
        {
            return Err(crate::error::param(p.name(), given.get(p).unwrap_or(0.0), "given with --kernel poly only"));
        }
        let mut value = |p: Param| -> f64 {
            let (_, default) = takes.iter().find(|t| t.0 == p).expect("a parameter of this learner");
            let v = match given.get(p) {
                Some(v) => v,
                None => {
                    let (v, note) = default.resolve(facts, step, poly);
                    notes.extend(note.map(|n| format!("{} = {}: {n}", p.name(), short(v))));
                    v
                }
            };
            record.push((p.name(), v));
            v
        };
        let perceptron = |eta: f64| PerceptronParams { eta: eta as f32, bias: Bias::Explicit }.check();
        let config = match self {
            Learner::Perceptron | Learner::BatchPerceptron => Config::Perceptron(perceptron(value(Param::Eta))?),
            Learner::AveragedPerceptron => Config::AveragedPerceptron(perceptron(value(Param::Eta))?),
            Learner::VotedPerceptron => Config::VotedPerceptron(perceptron(value(Param::Eta))?),
            Learner::HingeSgd | Learner::Logistic => Config::Sgd(
                SgdParams {
                    loss: if self == Learner::Logistic { Loss::Logistic } else { Loss::Hinge },
                    schedule: match (
                        switch(Param::Normalized, value(Param::Normalized))?,
                        switch(Param::Adaptive, value(Param::Adaptive))?,
                    ) {
                        (true, _) => Schedule::Normalized,
                        (false, true) => Schedule::Adaptive,
                        (false, false) => Schedule::InverseSqrtK,
                    },
                    eta0: value(Param::Eta) as f32,
                    lambda: value(Param::Lambda) as f32,
                    radius: None,
                    bias: Bias::Explicit,
                    average: switch(Param::Average, value(Param::Average))?,
                }
                .check()?,
            ),
            Learner::Pegasos => {
                let p = SgdParams::pegasos(value(Param::Lambda) as f32);
                Config::Sgd(SgdParams { average: switch(Param::Average, value(Param::Average))?, ..p }.check()?)
            }
            Learner::Winnow => Config::Winnow { alpha: value(Param::Alpha), threshold: value(Param::Threshold) },
            Learner::Eg | Learner::EgPm => {
                let b = value(Param::B);
                let form = if self == Learner::Eg { EgForm::Simplex { b } } else { EgForm::PlusMinus { b } };
                let eta = value(Param::Eta);
                let bias = positive((facts.scales)().max_abs);
                record.push(("bias_input", bias));
                Config::Eg { form, eta, bias }
            }
            Learner::FtrlRandomized => {
                let r = (facts.scales)().max_norm;
                record.push(("r", r));
                notes.push(format!("R = {}: max ‖x‖", short(r)));
                Config::RandomizedFtrl { r, seed }
            }
            Learner::FtrlProximal => Config::FtrlProximal(FtrlParams {
                alpha: value(Param::Alpha),
                beta: value(Param::Beta),
                l1: value(Param::L1),
                l2: value(Param::L2),
                ..FtrlParams::default()
            }),
            Learner::Pa | Learner::Pa1 | Learner::Pa2 => {
                let variant = match self {
                    Learner::Pa1 => PaVariant::PaI { c: value(Param::C) as f32 },
                    Learner::Pa2 => PaVariant::PaII { c: value(Param::C) as f32 },
                    _ => PaVariant::Pa,
                };
                // PA lifts its rows to (x, R), the bias on the rows' scale:
                // census-like data, 5 passes, seeds 1–6, median accuracy
                // 0.824 → 0.845 (seed 3 0.789 → 0.812: a last iterate).
                // PA-I and PA-II keep (x, 1), with which their C was chosen:
                // with R they lost 0.3 to 0.6 points there.
                let bias = if self == Learner::Pa {
                    let r = positive((facts.scales)().max_norm);
                    record.push(("bias_input", r));
                    notes.push(format!("bias input = {}: R = max ‖x‖", short(r)));
                    r
                } else {
                    1.0
                };
                Config::PassiveAggressive { variant, bias }
            }
            Learner::MulticlassPerceptron | Learner::MulticlassAveragedPerceptron => Config::Multiclass {
                params: perceptron(value(Param::Eta))?,
                classes: facts.classes,
                averaged: self == Learner::MulticlassAveragedPerceptron,
            },
            Learner::KernelPerceptron
            | Learner::KernelVotedPerceptron
            | Learner::KernelAveragedPerceptron
            | Learner::MulticlassKernelPerceptron => {
                let kernel = match value(Param::Kernel) {
                    0.0 => {
                        let gamma = value(Param::Gamma) as f32;
                        Kernel::Rbf { gamma }
                    }
                    1.0 => {
                        let gamma = value(Param::Gamma) as f32;
                        let coef0 = value(Param::Coef0) as f32;
                        let degree = whole(Param::Degree, value(Param::Degree), 16)?;
                        Kernel::Poly { gamma, coef0, degree: degree as u32 }
                    }
                    k => return Err(crate::error::param("kernel", k, "rbf (0) or poly (1)")),
                };
                let budget = if self == Learner::KernelVotedPerceptron {
                    None
                } else {
                    Some(whole(Param::Budget, value(Param::Budget), u32::MAX as u64)?).filter(|&b| b > 0)
                };
                let form = match self {
                    Learner::KernelVotedPerceptron => KernelForm::Voted,
                    Learner::KernelAveragedPerceptron => KernelForm::Averaged,
                    _ => KernelForm::Last,
                };
                let config = KernelConfig {
                    kernel,
                    form,
                    budget: budget.map(|b| b as usize),
                    multiclass: self == Learner::MulticlassKernelPerceptron,
                };
                config.check()?;
                Config::Kernel(config)
            }
        };
        // Building checks every remaining range, so a configuration is
        // known to build before any data is read (a kernel learner's were
        // checked above: it is not built as an online learner).
        if !self.kernel() {
            config.build(facts.dim, Check)?;
        }
        Ok(Configured { learner: self, config, params: record, notes })
    }
}

impl fmt::Display for Learner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Learner {
    type Err = LearnError;
    fn from_str(s: &str) -> Result<Self, LearnError> {
        Learner::from_name(s)
    }
}

#[cfg(feature = "clap")]
impl clap::ValueEnum for Learner {
    fn value_variants<'a>() -> &'a [Self] {
        &Learner::ALL
    }
    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.about()))
    }
}

/// A learner's validated hyper-parameters, typed.
#[derive(Clone, Debug, PartialEq)]
pub enum Config {
    /// The Perceptron (online, or batch).
    Perceptron(PerceptronParams),
    /// The Averaged Perceptron.
    AveragedPerceptron(PerceptronParams),
    /// The Voted Perceptron.
    VotedPerceptron(PerceptronParams),
    /// Gradient descent: hinge, logistic, Pegasos.
    Sgd(SgdParams),
    /// Winnow.
    Winnow {
        /// Promotion factor.
        alpha: f64,
        /// Threshold.
        threshold: f64,
    },
    /// Exponentiated gradient.
    Eg {
        /// Simplex or EG±, with its norm.
        form: EgForm,
        /// Step size.
        eta: f64,
        /// The bias coordinates' input (the rows' largest `|x_i|`).
        bias: f64,
    },
    /// The randomised FTRL classifier.
    RandomizedFtrl {
        /// The largest row norm.
        r: f64,
        /// Seed of its draws.
        seed: u64,
    },
    /// FTRL-Proximal.
    FtrlProximal(FtrlParams),
    /// Passive-aggressive.
    PassiveAggressive {
        /// PA, PA-I or PA-II.
        variant: PaVariant,
        /// The bias coordinate's value (rows lifted to `(x, bias)`).
        bias: f64,
    },
    /// The multi-class Perceptron.
    Multiclass {
        /// Step size and bias.
        params: PerceptronParams,
        /// Number of classes.
        classes: usize,
        /// Averaged over the whole run.
        averaged: bool,
    },
    /// A kernel Perceptron: trained by [`crate::KernelTrainer`] on a whole
    /// dataset, never built as an online learner.
    Kernel(KernelConfig),
}

/// A configuration checked, with the values it was made from.
#[derive(Clone, Debug, PartialEq)]
pub struct Configured {
    /// The learner.
    pub learner: Learner,
    /// Its configuration.
    pub config: Config,
    /// Every hyper-parameter's value (defaults filled in), and values
    /// derived from the data (`r`, `bias_input`), for the record.
    pub params: Vec<(&'static str, f64)>,
    /// How each default derived from the data was chosen, one line each
    /// (`eta = 0.0082: √(2·ln(2d)/T) / max |x_i| with d = 123, …`).
    pub notes: Vec<String>,
}

/// A trained model of any learner.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyModel {
    /// `sign(w·x + b)`.
    Linear(LinearModel),
    /// `argmax_c (w_c·x + b_c)`.
    Multiclass(MulticlassModel),
    /// The Voted Perceptron's mistakes and survival counts.
    Voted(VotedModel),
}

impl From<LinearModel> for AnyModel {
    fn from(m: LinearModel) -> Self {
        AnyModel::Linear(m)
    }
}
impl From<MulticlassModel> for AnyModel {
    fn from(m: MulticlassModel) -> Self {
        AnyModel::Multiclass(m)
    }
}
impl From<VotedModel> for AnyModel {
    fn from(m: VotedModel) -> Self {
        AnyModel::Voted(m)
    }
}

/// What to do with a learner once built: the caller's generic code, run
/// once per learner type ([`Config::build`]).
pub trait Visit {
    /// What the visit returns.
    type Out;
    /// Called with a learner whose state mixes ([`crate::train_parallel`]).
    /// Some learners of a mixable type still train in one part only
    /// (the batch Perceptron: [`Learner::mixes`]).
    fn mixable<L>(self, learner: L) -> Self::Out
    where
        L: Mixable + Resume + 'static,
        L::Model: Into<AnyModel>;
    /// Called with a learner that trains in one part ([`crate::train_with`]).
    fn single<L>(self, learner: L) -> Self::Out
    where
        L: OnlineLearner + Resume + Send + 'static,
        L::Model: Into<AnyModel>;
}

/// A visit that only checks that the learner builds.
struct Check;
impl Visit for Check {
    type Out = ();
    fn mixable<L: Mixable>(self, _: L) {}
    fn single<L: OnlineLearner>(self, _: L) {}
}

impl Config {
    /// Builds the learner over `dim` features and hands it to `v`.
    ///
    /// The batch Perceptron is a [`Perceptron`], handed to
    /// [`Visit::mixable`]: the caller keeps it to one part
    /// ([`Learner::mixes`]).
    pub fn build<V: Visit>(&self, dim: usize, v: V) -> Result<V::Out, LearnError> {
        Ok(match *self {
            Config::Perceptron(p) => v.mixable(Perceptron::new(dim, p)?),
            Config::AveragedPerceptron(p) => v.mixable(AveragedPerceptron::new(dim, p, false)?),
            Config::VotedPerceptron(p) => v.mixable(VotedPerceptron::new(dim, p, false)?),
            Config::Sgd(p) => v.mixable(Sgd::new(dim, p)?),
            Config::Winnow { alpha, threshold } => v.single(Winnow::new(dim, alpha, threshold)?),
            Config::Eg { form, eta, bias } => {
                v.single(ExponentiatedGradient::new(dim, form, eta, Loss::Hinge)?.with_bias(bias)?)
            }
            Config::RandomizedFtrl { r, seed } => v.single(RandomizedFtrl::new(dim, r, seed)?),
            Config::FtrlProximal(p) => v.mixable(FtrlProximal::new(dim, p)?),
            Config::PassiveAggressive { variant, bias } => {
                v.mixable(PassiveAggressive::new(dim, variant, Bias::Explicit)?.with_bias_input(bias)?)
            }
            Config::Multiclass { params, classes, averaged } => {
                v.mixable(MulticlassPerceptron::new(dim, classes, params, averaged.then_some(false))?)
            }
            Config::Kernel(k) => {
                let learner = match (k.form, k.multiclass) {
                    (_, true) => Learner::MulticlassKernelPerceptron,
                    (KernelForm::Voted, _) => Learner::KernelVotedPerceptron,
                    (KernelForm::Averaged, _) => Learner::KernelAveragedPerceptron,
                    (KernelForm::Last, _) => Learner::KernelPerceptron,
                };
                return Err(LearnError::WholeData { learner: learner.name() });
            }
        })
    }
}

/// Every learner as a Markdown list item: its name, what it is and the
/// hyper-parameters it takes with their defaults. The README's list is this
/// text (a test holds it to it).
pub fn describe_all() -> String {
    let mut s = String::new();
    for l in Learner::ALL {
        let params: Vec<String> = l
            .params()
            .iter()
            .map(|(p, d)| match (d, p.choices()) {
                (ParamDefault::Value(v), Some(names)) => {
                    let default = names[*v as usize];
                    let others: Vec<String> =
                        names.iter().filter(|n| **n != default).map(|n| format!("`{n}`")).collect();
                    format!("`--{} {default}` or {}", p.name(), others.join(" or "))
                }
                (ParamDefault::Value(v), None) => format!("`--{} {v}`", p.name()),
                (rule, _) => format!("`--{}` = {rule}", p.name()),
            })
            .collect();
        let params = if params.is_empty() { String::new() } else { format!(" ({})", params.join(", ")) };
        s.push_str(&format!("- `{}` — {}{params}\n", l.name(), l.about()));
    }
    s
}
