//! The learner table: every learner declared once — its name, one line
//! about it, the labels it takes, whether its state mixes across parts,
//! whether it trains on a whole set at once (the kernel learners), whether
//! its scores are log-odds, whether it stops at a pass without mistakes,
//! its hyper-parameters with their defaults, and the grid `tune` searches.
//!
//! [`learner_table!`] holds the list; [`Learner`] and every fact about a
//! learner are generated from it here, and front ends that need one item
//! per learner (the facade's `Config` constructors) expand it with their
//! own macro. Adding a learner is its module, one line here, and its arm
//! in [`crate::Learner::configure`] (the compiler asks for it).

use crate::error::LearnError;
use crate::params::{Axis, Param, ParamDefault};

/// Which labels a learner takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Labels {
    /// ±1.
    Binary,
    /// Class ids `0..k`, all at once.
    Classes,
    /// ±1, or class ids trained one-vs-rest over one shared model.
    Either,
}

/// Every learner, one line each: `Variant constructor "name" labels mixes
/// whole probabilistic until_separated "about" params grid;`. Expands to
/// `$then! { … }` with the lines as they are, for a front end's macro.
#[macro_export]
macro_rules! learner_table {
    ($then:ident) => {
        $then! {
            Perceptron perceptron "perceptron" Binary true false false false
                "Rosenblatt's Perceptron, with a bias" PERCEPTRON NO_GRID;
            BatchPerceptron batch_perceptron "batch-perceptron" Binary false false false true
                "the Perceptron in sequential passes until one makes no mistake" PERCEPTRON NO_GRID;
            AveragedPerceptron averaged_perceptron "averaged-perceptron" Binary true false false false
                "the average of every vector the Perceptron passes through, kept lazily" PERCEPTRON NO_GRID;
            VotedPerceptron voted_perceptron "voted-perceptron" Binary true false false false
                "Freund & Schapire's vote of the Perceptron's vectors; the model carries its mistaken rows"
                PERCEPTRON NO_GRID;
            HingeSgd hinge_sgd "hinge-sgd" Binary true false false false
                "gradient descent on the hinge loss: AdaGrad or normalised (NAG) steps, or η/√(k+1) with optional L2; optional averaging"
                SGD SGD_GRID;
            Pegasos pegasos "pegasos" Binary true false false false
                "Pegasos: steps 1/(λk), projection onto the ball of radius 1/√λ, averaged iterates"
                PEGASOS PEGASOS_GRID;
            Logistic logistic "logistic" Binary true false true false
                "logistic regression by SGD: AdaGrad or normalised (NAG) steps, or η/√(k+1) with optional L2; optional averaging"
                SGD SGD_GRID;
            Winnow winnow "winnow" Binary false false false false
                "Littlestone's Winnow, for binary features" WINNOW WINNOW_GRID;
            Eg eg "eg" Binary false false false false
                "exponentiated gradient on the simplex, hinge loss, with a bias" EG EG_GRID;
            EgPm eg_pm "eg-pm" Binary false false false false
                "EG± for signed weights, hinge loss, with a bias" EG EG_GRID;
            FtrlRandomized ftrl_randomized "ftrl-randomized" Binary false false false false
                "the randomised FTRL classifier, R = the largest row norm" NONE NO_GRID;
            FtrlProximal ftrl_proximal "ftrl-proximal" Binary true false true false
                "FTRL-Proximal on the logistic loss: per-coordinate rates, L1 and L2" FTRL FTRL_GRID;
            Pa pa "pa" Binary true false false false
                "passive-aggressive, the bias on the rows' scale (rows lifted to (x, R), R = max ‖x‖)" NONE NO_GRID;
            Pa1 pa1 "pa1" Binary true false false false "passive-aggressive PA-I" PA PA_GRID;
            Pa2 pa2 "pa2" Binary true false false false "passive-aggressive PA-II" PA PA_GRID;
            MulticlassPerceptron multiclass_perceptron "multiclass-perceptron" Classes true false false false
                "one weight vector per class, for class-id labels" PERCEPTRON NO_GRID;
            MulticlassAveragedPerceptron multiclass_averaged_perceptron "multiclass-averaged-perceptron" Classes
                true false false false
                "the averaged multi-class Perceptron, for class-id labels" PERCEPTRON NO_GRID;
            KernelPerceptron kernel_perceptron "kernel-perceptron" Either false true false false
                "the Perceptron with a kernel: each mistake keeps its row as a support row; class ids train one-vs-rest on one support set"
                KERNEL KERNEL_GRID;
            KernelVotedPerceptron kernel_voted_perceptron "kernel-voted-perceptron" Either false true false false
                "Freund & Schapire's voted Perceptron with a kernel, every vector voting for as long as it survived"
                KERNEL_VOTED KERNEL_GRID;
            KernelAveragedPerceptron kernel_averaged_perceptron "kernel-averaged-perceptron" Either false true false
                false
                "the average of the kernel Perceptron's vectors; class ids train one-vs-rest on one support set"
                KERNEL KERNEL_GRID;
            MulticlassKernelPerceptron multiclass_kernel_perceptron "multiclass-kernel-perceptron" Classes false true
                false false
                "the multi-class Perceptron with a kernel, for class-id labels" KERNEL KERNEL_GRID;
        }
    };
}

/// The learners' hyper-parameter lists, named once and shared.
mod lists {
    use super::{Axis, Param, ParamDefault};
    use ParamDefault::{ByStep, DimOverMaxAbs, Dimension, EgRate, KernelGamma, OverRSquared, Value};

    pub const NONE: &[(Param, ParamDefault)] = &[];
    pub const PERCEPTRON: &[(Param, ParamDefault)] = &[(Param::Eta, Value(1.0))];
    // AdaGrad by default: on the sparse text-like set it reaches 18.5% test
    // error in one pass where η0/√k reaches 24.7%, and on census-like
    // (a9a-shaped) data and MNIST 9-vs-rest it is as good as LIBLINEAR in
    // 5 passes. Without it η0 = 1: 0.1 stopped 1 to 6 points short. The
    // last iterate by default: averaging from the first step carries the
    // early iterates along (a wash with AdaGrad, up to a point lost
    // without). NAG (opt-in): η0 = 1 — Vowpal Wabbit's 0.5 is 0.1 point
    // better on census-like data but leaves the sparse set at 22.5% error
    // after a pass, 1 at 18.2% (AdaGrad: 18.5%).
    pub const SGD: &[(Param, ParamDefault)] = &[
        (Param::Eta, ByStep { normalized: 1.0, adaptive: 0.1, plain: 1.0 }),
        (Param::Lambda, Value(0.0)),
        (Param::Average, Value(0.0)),
        (Param::Adaptive, Value(1.0)),
        (Param::Normalized, Value(0.0)),
    ];
    // Pegasos' analysis is of the averaged iterate, and it pays: 1.6 points
    // on census-like data, 0.3 on MNIST 9-vs-rest.
    pub const PEGASOS: &[(Param, ParamDefault)] = &[(Param::Lambda, Value(1e-4)), (Param::Average, Value(1.0))];
    // Littlestone's α = 2 is for separable data; on noisy data a smaller
    // promotion averages over more mistakes (census-like data: 2 → 0.767,
    // 1.5 → 0.795, 1.2 → 0.822 accuracy).
    pub const WINNOW: &[(Param, ParamDefault)] = &[(Param::Alpha, Value(1.2)), (Param::Threshold, Dimension)];
    pub const EG: &[(Param, ParamDefault)] = &[(Param::B, DimOverMaxAbs), (Param::Eta, EgRate)];
    pub const FTRL: &[(Param, ParamDefault)] =
        &[(Param::Alpha, Value(0.1)), (Param::Beta, Value(1.0)), (Param::L1, Value(1.0)), (Param::L2, Value(1.0))];
    pub const PA: &[(Param, ParamDefault)] = &[(Param::C, OverRSquared(0.1))];
    // Full MNIST, ten digits, averaged, one pass: γ = 0.0134 (scikit-learn's
    // `scale`, 1/(d·Var(X))) 2.68% test error, 0.027 1.94%, 0.04 1.93%, 0.06
    // 1.86%, 0.08 1.96%, 0.12 2.90%; five passes at 0.04 1.50%, at 0.06
    // 1.52%. 3/(d·Var(X)) is 0.040 there. The polynomial kernel
    // (⟨x, x′⟩ + 1)^4 is Freund & Schapire's best degree on the digits.
    pub const KERNEL_VOTED: &[(Param, ParamDefault)] = &[
        (Param::Kernel, Value(0.0)),
        (Param::Gamma, KernelGamma { rbf: 3.0, poly: 1.0 }),
        (Param::Coef0, Value(1.0)),
        (Param::Degree, Value(4.0)),
    ];
    pub const KERNEL: &[(Param, ParamDefault)] = &[
        (Param::Kernel, Value(0.0)),
        (Param::Gamma, KernelGamma { rbf: 3.0, poly: 1.0 }),
        (Param::Coef0, Value(1.0)),
        (Param::Degree, Value(4.0)),
        (Param::Budget, Value(0.0)),
    ];

    // The grids `tune` searches: the main hyper-parameters over a few
    // log-spaced values. None for the learners whose hyper-parameters do
    // not change their predictions (the Perceptrons' η only scales the
    // weights) or that have none.
    const DECADES: &[f64] = &[0.1, 0.3, 1.0, 3.0, 10.0];
    pub const NO_GRID: &[(Param, Axis)] = &[];
    pub const SGD_GRID: &[(Param, Axis)] =
        &[(Param::Eta, Axis::Times(DECADES)), (Param::Average, Axis::Values(&[0.0, 1.0]))];
    pub const PEGASOS_GRID: &[(Param, Axis)] = &[(Param::Lambda, Axis::Values(&[1e-6, 1e-5, 1e-4, 1e-3, 1e-2]))];
    pub const WINNOW_GRID: &[(Param, Axis)] = &[(Param::Alpha, Axis::Values(&[1.05, 1.1, 1.2, 1.5, 2.0]))];
    pub const EG_GRID: &[(Param, Axis)] =
        &[(Param::B, Axis::Times(&[0.1, 1.0, 10.0])), (Param::Eta, Axis::Times(&[0.3, 1.0, 3.0]))];
    pub const FTRL_GRID: &[(Param, Axis)] =
        &[(Param::Alpha, Axis::Times(DECADES)), (Param::L1, Axis::Values(&[0.0, 0.1, 1.0, 10.0]))];
    pub const PA_GRID: &[(Param, Axis)] = &[(Param::C, Axis::Times(&[0.01, 0.1, 1.0, 10.0, 100.0]))];
    pub const KERNEL_GRID: &[(Param, Axis)] = &[(Param::Gamma, Axis::Times(&[0.25, 0.5, 1.0, 2.0, 4.0]))];
}

/// [`Learner`] and its facts, from the table's lines.
macro_rules! define_learners {
    ($($variant:ident $ctor:ident $name:literal $labels:ident $mixes:literal $whole:literal $proba:literal
       $separates:literal $about:literal $params:ident $grid:ident;)*) => {
        /// A learner, by its name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum Learner {
            $(#[doc = $about] #[serde(rename = $name)] $variant,)*
        }

        impl Learner {
            /// Every learner, in the table's order (the order the help lists them).
            pub const ALL: [Learner; [$($name),*].len()] = [$(Learner::$variant),*];

            /// The name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Learner::$variant => $name,)*
                }
            }

            /// One line about it.
            pub fn about(self) -> &'static str {
                match self {
                    $(Learner::$variant => $about,)*
                }
            }

            /// The labels it takes.
            pub fn labels(self) -> Labels {
                match self {
                    $(Learner::$variant => Labels::$labels,)*
                }
            }

            /// Whether it trains in several parts by parameter mixing (the
            /// others train in one part: separation is a property of one
            /// sequential pass; the multiplicative and randomised learners'
            /// states, and a kernel expansion, do not average).
            pub fn mixes(self) -> bool {
                match self {
                    $(Learner::$variant => $mixes,)*
                }
            }

            /// Whether it is a kernel learner: it trains on a whole set at
            /// once ([`crate::KernelTrainer`]), not batch by batch.
            pub fn kernel(self) -> bool {
                match self {
                    $(Learner::$variant => $whole,)*
                }
            }

            /// Whether its scores are log-odds, so that a probability
            /// follows from them (σ of the score).
            pub fn probabilistic(self) -> bool {
                match self {
                    $(Learner::$variant => $proba,)*
                }
            }

            /// Whether it trains in sequential passes until one makes no
            /// mistake (its passes are a limit, 100 by default).
            pub fn stops_when_separated(self) -> bool {
                match self {
                    $(Learner::$variant => $separates,)*
                }
            }

            /// The hyper-parameters it takes, with their defaults.
            pub fn params(self) -> &'static [(Param, ParamDefault)] {
                match self {
                    $(Learner::$variant => lists::$params,)*
                }
            }

            /// The grid `rosenblatt tune` searches: the main
            /// hyper-parameters, each over a few values (the product of the
            /// axes is the grid); empty where tuning changes nothing.
            pub fn grid(self) -> &'static [(Param, Axis)] {
                match self {
                    $(Learner::$variant => lists::$grid,)*
                }
            }
        }
    };
}

learner_table!(define_learners);

impl Learner {
    /// Whether it takes class-id labels (else ±1; [`Learner::any_labels`]
    /// for those that take either).
    pub fn multiclass(self) -> bool {
        self.labels() == Labels::Classes
    }

    /// Whether it takes ±1 labels and class ids alike (one-vs-rest over the
    /// classes).
    pub fn any_labels(self) -> bool {
        self.labels() == Labels::Either
    }

    /// Whether it takes `p`.
    pub fn takes(self, p: Param) -> bool {
        self.params().iter().any(|t| t.0 == p)
    }

    /// The learner named `name`.
    pub fn from_name(name: &str) -> Result<Learner, LearnError> {
        Learner::ALL.into_iter().find(|l| l.name() == name).ok_or_else(|| LearnError::UnknownLearner {
            name: name.to_string(),
            known: Learner::ALL.map(Learner::name).join(", "),
        })
    }
}

impl std::fmt::Display for Learner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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
