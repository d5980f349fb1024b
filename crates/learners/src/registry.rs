//! The step from a learner and user-given hyper-parameters to a
//! validated, typed configuration ([`Learner::configure`]) and from that
//! to a learner ([`Config::build`]). What each learner is and takes is in
//! the learner table ([`crate::table`]) and the parameter table
//! ([`crate::params`]).
//!
//! The matches over [`Learner`] and [`Config`] are exhaustive: adding a
//! learner is a line in the table, a module beside its kin, and its arm
//! here, which the compiler asks for.

use crate::eg::{EgForm, ExponentiatedGradient};
use crate::error::LearnError;
use crate::ftrl::{FtrlParams, FtrlProximal, RandomizedFtrl};
use crate::kernel::{Kernel, KernelConfig, KernelForm};
use crate::learner::{Bias, OnlineLearner};
use crate::linear::PerceptronParams;
use crate::loss::Loss;
use crate::mix::Mixable;
use crate::model::{LinearModel, MulticlassModel};
use crate::multiclass::MulticlassPerceptron;
use crate::pa::{PaVariant, PassiveAggressive};
use crate::params::{DataFacts, HyperParams, Param, ParamDefault, StepKind, positive, short, switch, whole};
use crate::sgd::{Schedule, Sgd, SgdParams};
use crate::state::Resume;
use crate::table::Learner;
use crate::voted::VotedModel;
use crate::winnow::Winnow;
use crate::{AveragedPerceptron, Perceptron, VotedPerceptron};

impl Learner {
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
                "1 with normalized steps, which are adaptive (leave adaptive at 1, or normalized at 0)",
            ));
        }
        let poly = given.get(Param::Kernel) == Some(1.0);
        if self.kernel()
            && !poly
            && let Some(p) = [Param::Coef0, Param::Degree].into_iter().find(|&p| given.get(p).is_some())
        {
            return Err(crate::error::param(
                p.name(),
                given.get(p).unwrap_or(0.0),
                "given with the polynomial kernel (kernel = poly) only",
            ));
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
