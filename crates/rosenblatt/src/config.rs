//! A training request, typed and checked once: the learner, its
//! hyper-parameters and the run's settings (passes, seed, order, parts,
//! threads). A constructor per learner and a setter per hyper-parameter
//! are generated from the learner and parameter tables; the adapters
//! (command line, Python, C) use [`Config::from_name`] and [`Config::set`].
//! Every check — a hyper-parameter the learner does not take, a value out
//! of its range, a combination that does not go — is [`Config::check`],
//! run by `set`, by [`crate::Fit::fit`] and by [`Config::trainer`] before
//! any data is read.

use crate::error::Error;
use crate::online::{Trainer, TrainerOptions};
use crate::train::TrainSpec;
use rosenblatt_learners::{DataFacts, HyperParams, Learner, Mixing, Order, Param, Scales};

/// A training request: see the module docs.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    learner: Learner,
    params: HyperParams,
    passes: Option<f64>,
    seed: u64,
    order: Option<Order>,
    parts: usize,
    mixing: Mixing,
    threads: Option<usize>,
}

/// The labels a [`Trainer`]'s batches carry.
#[derive(Clone, Debug, PartialEq)]
pub enum Labels {
    /// ±1.
    Binary,
    /// These class ids, `0, 1, …, k − 1` in order.
    Classes(Vec<f64>),
}

impl Labels {
    /// `classes` classes as `learner` takes them: ±1 for a binary learner
    /// given two, class ids `0..classes` otherwise.
    pub fn of(learner: Learner, classes: usize) -> Labels {
        if classes == 2 && !learner.multiclass() {
            Labels::Binary
        } else {
            Labels::Classes((0..classes).map(|k| k as f64).collect())
        }
    }
}

/// `Config::perceptron()`, … — one constructor per line of the learner table.
macro_rules! constructors {
    ($($variant:ident $ctor:ident $name:literal $labels:ident $mixes:literal $whole:literal $proba:literal
       $separates:literal $about:literal $params:ident $grid:ident;)*) => {
        impl Config {
            $(
                #[doc = concat!("`", $name, "`: ", $about, ".")]
                pub fn $ctor() -> Config {
                    Config::new(Learner::$variant)
                }
            )*
        }
    };
}
rosenblatt_learners::learner_table!(constructors);

/// `.eta(0.5)`, `.average(true)`, `.kernel("poly")`, … — one setter per
/// line of the parameter table, typed by the parameter's kind. A value is
/// checked with the rest by [`Config::check`].
macro_rules! setters {
    ($($variant:ident $name:ident $kind:ident $doc:literal;)*) => {
        impl Config {
            $(setters!(@one $variant $name $kind $doc);)*
        }
    };
    (@one $variant:ident $name:ident Switch $doc:literal) => {
        #[doc = $doc]
        pub fn $name(mut self, on: bool) -> Config {
            self.params.set(Param::$variant, Some(if on { 1.0 } else { 0.0 }));
            self
        }
    };
    (@one $variant:ident $name:ident Choice $doc:literal) => {
        #[doc = $doc]
        #[doc = ""]
        #[doc = "A name that is not one of the choices fails the check."]
        pub fn $name(mut self, choice: &str) -> Config {
            let names = Param::$variant.choices().unwrap_or(&[]);
            let at = names.iter().position(|n| *n == choice).map_or(f64::NAN, |k| k as f64);
            self.params.set(Param::$variant, Some(at));
            self
        }
    };
    (@one $variant:ident $name:ident $kind:ident $doc:literal) => {
        #[doc = $doc]
        pub fn $name(mut self, v: f64) -> Config {
            self.params.set(Param::$variant, Some(v));
            self
        }
    };
}
rosenblatt_learners::param_table!(setters);

impl Config {
    /// `learner` with its defaults: one pass (the batch Perceptron: at most
    /// 100), seed 0, the default order (chunks; sequential for the batch
    /// Perceptron), one part, every core.
    pub fn new(learner: Learner) -> Config {
        Config {
            learner,
            params: HyperParams::default(),
            passes: None,
            seed: 0,
            order: None,
            parts: 1,
            mixing: Mixing::Uniform,
            threads: None,
        }
    }

    /// The learner named `name` with its defaults.
    pub fn from_name(name: &str) -> Result<Config, Error> {
        Ok(Config::new(Learner::from_name(name)?))
    }

    /// `self` with the hyper-parameter named `name` set to `value` (a
    /// choice's value is the position of its name), checked: an unknown
    /// name, one the learner does not take, or a value out of range is an
    /// error.
    pub fn set(mut self, name: &str, value: f64) -> Result<Config, Error> {
        let p = Param::from_name(name).ok_or_else(|| Error::Config(ConfigError::UnknownParam(name.to_string())))?;
        self.params.set(p, Some(value));
        self.check()?;
        Ok(self)
    }

    /// Passes over the data (fractions allowed; the batch Perceptron's
    /// limit).
    pub fn passes(mut self, passes: f64) -> Config {
        self.passes = Some(passes);
        self
    }
    /// The seed of the order and of randomised learners' draws.
    pub fn seed(mut self, seed: u64) -> Config {
        self.seed = seed;
        self
    }
    /// The order the rows are taken in.
    pub fn order(mut self, order: Order) -> Config {
        self.order = Some(order);
        self
    }
    /// Parts trained in parallel and mixed after every pass (1: the
    /// algorithm as published). The model depends on this, never on the
    /// threads.
    pub fn parts(mut self, parts: usize) -> Config {
        self.parts = parts;
        self
    }
    /// How parts are mixed.
    pub fn mixing(mut self, mixing: Mixing) -> Config {
        self.mixing = mixing;
        self
    }
    /// Threads that train and predict (default: every core); speed only.
    pub fn threads(mut self, threads: usize) -> Config {
        self.threads = Some(threads);
        self
    }

    /// `self` with hyper-parameter `p` set to `value` (a switch 1 or 0, a
    /// choice the position of its name): the typed form of [`Config::set`]
    /// for adapters that already hold a [`Param`], checked with the rest
    /// by [`Config::check`].
    pub fn param(mut self, p: Param, value: f64) -> Config {
        self.params.set(p, Some(value));
        self
    }

    /// The learner.
    pub fn learner(&self) -> Learner {
        self.learner
    }
    /// The hyper-parameters given (the rest take their defaults), in the
    /// parameter table's order.
    pub fn given(&self) -> Vec<(Param, f64)> {
        Param::ALL.into_iter().filter_map(|p| self.params.get(p).map(|v| (p, v))).collect()
    }
    /// The parts a run trains in.
    pub fn parts_planned(&self) -> usize {
        self.parts
    }
    /// The passes a run makes.
    pub fn passes_planned(&self) -> f64 {
        self.passes.unwrap_or(if self.learner.stops_when_separated() { 100.0 } else { 1.0 })
    }

    /// Every check that needs no data: each hyper-parameter given is one
    /// the learner takes and in its range, the combination goes, the run's
    /// settings make sense.
    pub fn check(&self) -> Result<(), Error> {
        let passes = self.passes_planned();
        if !(passes.is_finite() && passes > 0.0) {
            return Err(ConfigError::Passes(passes).into());
        }
        if self.parts == 0 {
            return Err(ConfigError::Parts(0).into());
        }
        if self.parts > 1 && !self.learner.mixes() {
            return Err(ConfigError::DoesNotMix(self.learner, self.parts).into());
        }
        if self.threads == Some(0) {
            return Err(ConfigError::Threads(0).into());
        }
        // The learner's own checks, over stand-in data facts: the given
        // values are checked whatever the data; defaults derived from the
        // data are not looked at.
        let scales = || Scales { max_norm: 1.0, max_abs: 1.0 };
        let facts = DataFacts { dim: 1, classes: 2, steps: 1, scales: &scales, spread: &|| 1.0 };
        self.learner.configure(&self.params, &facts, self.seed)?;
        Ok(())
    }

    /// What `train` runs for this request (checked).
    pub(crate) fn spec(&self) -> Result<TrainSpec, Error> {
        self.check()?;
        let mut spec = TrainSpec::new(self.learner, self.passes_planned());
        spec.params = self.params;
        spec.options.seed = self.seed;
        if let Some(o) = self.order.filter(|_| !self.learner.stops_when_separated()) {
            spec.options.order = o;
        }
        spec.parts = self.parts;
        spec.mixing = self.mixing;
        Ok(spec)
    }

    /// A trainer for batches of `dim` features labelled as `labels` says,
    /// learning batch by batch ([`Trainer::learn`]).
    pub fn trainer(&self, dim: usize, labels: Labels) -> Result<Trainer, Error> {
        self.check()?;
        let classes = match labels {
            Labels::Binary => 2,
            Labels::Classes(ids) => {
                if ids.iter().enumerate().any(|(k, &c)| c != k as f64) {
                    return Err(ConfigError::ClassIds(ids).into());
                }
                ids.len()
            }
        };
        let options = TrainerOptions {
            seed: self.seed,
            order: self.order.unwrap_or(Order::Chunks),
            parts: self.parts,
            mixing: self.mixing,
        };
        Trainer::new(self.learner, self.params, dim, classes, options)
    }

    /// Runs `f` on this request's threads (every core without one).
    pub(crate) fn on_threads<T: Send>(&self, f: impl FnOnce() -> Result<T, Error> + Send) -> Result<T, Error> {
        match self.threads {
            None => f(),
            Some(n) => rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| Error::Input(format!("cannot start {n} threads: {e}")))?
                .install(f),
        }
    }
}

/// A request that cannot run, whatever the data.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A hyper-parameter name that no learner takes.
    #[error("unknown hyper-parameter `{0}`")]
    UnknownParam(String),
    /// Passes that are not a positive number.
    #[error("passes = {0}: give a number > 0")]
    Passes(f64),
    /// No parts.
    #[error("parts = {0}: give at least 1")]
    Parts(usize),
    /// Parts for a learner whose state does not mix.
    #[error("{0} trains in one part (its state does not mix by averaging); drop parts = {1}")]
    DoesNotMix(Learner, usize),
    /// No threads.
    #[error("threads = {0}: give at least 1")]
    Threads(usize),
    /// Class ids that are not `0, 1, …, k − 1`.
    #[error("class ids {0:?}: give 0, 1, …, k − 1 in order")]
    ClassIds(Vec<f64>),
}
