//! Training a learner on a dataset, as `rosenblatt train` does: the
//! learner named and configured ([`rosenblatt_learners::Learner`]), the
//! holdout cut off, the test set checked against the training data, the
//! run reported pass by pass, and the result a model file's contents.
//!
//! Only the learner's training run is generic code: one instance per
//! learner type and row encoding, in the online trainer
//! ([`crate::online::Trainer`], which [`fit`] runs on the training rows as
//! one batch). Everything that
//! runs once per pass or per command — scoring the training, holdout and
//! test sets, the voted Perceptron's predictor, the pass lines — takes a
//! dataset view ([`ExamplesView`]) and a model ([`Weights`]) and is
//! compiled once.

use crate::compat::{Expect, classes_of};
use crate::config::Config;
use crate::error::Error;
use crate::model::{Model, ModelMeta, Training, Weights};
use crate::online::{BatchHooks, Rows, Trainer, TrainerOptions};
use rosenblatt_learners::{
    AnyModel, BLOCK_ROWS, Configured, DataFacts, HyperParams, KernelConfig, KernelTrainer, Learner, Mixing, Order,
    ParallelOptions, PassReport, Team, TrainOptions, TrainReport,
};
use rosenblatt_loader::{Dataset, ExamplesView, with_examples};

/// One pass's report.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PassLine {
    /// 1-based pass.
    pub pass: usize,
    /// Online (progressive) mistakes in the pass: each example's prediction
    /// before it was learned from.
    pub mistakes: u64,
    /// Examples presented in the pass.
    pub examples: u64,
    /// Error of the model after the pass on the training examples, when
    /// asked for ([`TrainSpec::train_error`]; never for the voted
    /// Perceptron, whose vote over every training row costs many passes).
    #[serde(default)]
    pub train_error: Option<f64>,
    /// Error on the holdout or test set, if there is one.
    #[serde(default)]
    pub eval_error: Option<f64>,
    /// Wall time of the pass (training and mixing; scoring excluded).
    #[serde(default)]
    pub seconds: f64,
    /// Examples per second.
    #[serde(default)]
    pub examples_per_second: f64,
}

/// What `train` does besides the learner: a [`Config`] and a [`Run`] made
/// one, for the code that runs it.
#[derive(Clone, Debug)]
pub(crate) struct TrainSpec {
    /// The learner.
    pub learner: Learner,
    /// Hyper-parameters given (the rest take the learner's defaults).
    pub params: HyperParams,
    /// Passes, order, seed.
    pub options: TrainOptions,
    /// Fraction of the rows (the last ones) held out for evaluation.
    pub holdout: Option<f64>,
    /// Parts trained in parallel and mixed after every pass (iterative
    /// parameter mixing); 1 is the sequential algorithm. The model depends
    /// on this number, never on how many threads run the parts.
    pub parts: usize,
    /// How parts are weighted when mixed.
    pub mixing: Mixing,
    /// Score the whole training set after every pass (costs about a pass).
    pub train_error: bool,
    /// Resume this model's learner (`train --init`): its state, its
    /// hyper-parameters (those given must agree), its seed and order;
    /// `options.passes` more passes follow the ones it ran.
    pub init: Option<Model>,
}

impl TrainSpec {
    /// `learner` with its default hyper-parameters: `passes` passes in the
    /// default order ([`Order::Chunks`]) from seed 0 in one part (the batch Perceptron: sequential
    /// passes until one makes no mistake, at most `passes`).
    pub(crate) fn new(learner: Learner, passes: f64) -> Self {
        let batch = learner.stops_when_separated();
        TrainSpec {
            learner,
            params: HyperParams::default(),
            options: TrainOptions {
                passes,
                order: if batch { Order::Sequential } else { Order::Chunks },
                seed: 0,
                stop_when_separated: batch,
                first_pass: 0,
            },
            holdout: None,
            parts: 1,
            mixing: Mixing::Uniform,
            train_error: false,
            init: None,
        }
    }
}

/// What a training run tells its caller while it goes.
#[derive(Default)]
pub struct Hooks<'h> {
    /// After every pass.
    pub on_pass: Option<&'h mut (dyn FnMut(&PassLine) + Send)>,
    /// Examples presented so far, at least every
    /// [`rosenblatt_learners::PROGRESS_EVERY`] examples and at every pass's
    /// end (from the threads that train).
    pub progress: Option<&'h (dyn Fn(u64) + Sync)>,
    /// Notes before training: a test set's extra features or other index
    /// base, values derived from the data.
    pub note: Option<&'h mut (dyn FnMut(&str) + Send)>,
    /// The processes that train together, each holding its parts' rows
    /// (default: this one alone, with every row).
    pub team: Option<&'h dyn Team>,
}

/// A training run around the fit, as `rosenblatt train` makes it: a test
/// set or a holdout scored after each pass, the training set scored too,
/// a saved model resumed, and the run's hooks. The default is a plain fit.
#[derive(Default)]
pub struct Run<'h> {
    /// Scored after every pass (its labels and features checked against
    /// the training data's).
    pub test: Option<&'h Dataset>,
    /// Fraction of the rows (the last ones) held out and scored after
    /// every pass instead.
    pub holdout: Option<f64>,
    /// Score the whole training set after every pass (costs about a pass).
    pub train_error: bool,
    /// Resume this model's learner: its state, its hyper-parameters (those
    /// the config gives must agree), its seed and order; the config's
    /// passes follow the ones it ran, and the record carries on.
    pub init: Option<Model>,
    /// What the run tells its caller while it goes.
    pub hooks: Hooks<'h>,
}

impl Config {
    /// `rosenblatt train` on `data` with `run`: the model it writes, bit
    /// for bit. (Without a run, [`crate::Fit::fit`] is the same.)
    pub fn fit_run(&self, data: &Dataset, run: Run<'_>) -> Result<Model, Error> {
        let (spec, hooks, test) = self.spec_of(run)?;
        self.on_threads(|| train_dataset(data, test, &spec, hooks))
    }

    /// The config and the run as one spec, checked.
    pub(crate) fn spec_of<'h>(&self, run: Run<'h>) -> Result<(TrainSpec, Hooks<'h>, Option<&'h Dataset>), Error> {
        let mut spec = self.spec()?;
        spec.holdout = run.holdout;
        spec.train_error = run.train_error;
        spec.init = run.init;
        Ok((spec, run.hooks, run.test))
    }

    /// Refuses what this config with `run` asks for that `processes`
    /// processes, each holding only its parts' rows, cannot do (before
    /// [`Config::check`]: under several processes, these are the reasons
    /// to say).
    pub fn check_team(&self, run: &Run<'_>, processes: usize) -> Result<(), Error> {
        let mut spec = TrainSpec::new(self.learner(), self.passes_planned());
        spec.parts = self.parts_planned();
        spec.holdout = run.holdout;
        spec.train_error = run.train_error;
        spec.init = run.init.clone();
        check_team(&spec, processes, run.test.is_some())
    }
}

/// Trains `spec.learner` on `data`, reporting each pass's errors on a
/// holdout tail or on `test`: what [`Config::fit_run`] runs.
pub(crate) fn train_dataset(
    data: &Dataset,
    test: Option<&Dataset>,
    spec: &TrainSpec,
    mut hooks: Hooks<'_>,
) -> Result<Model, Error> {
    let learner = spec.learner;
    let classes = classes_of(data)?;
    let multiclass = classes != [-1.0, 1.0];
    if !learner.any_labels() && learner.multiclass() != multiclass {
        return Err(Error::Pairing {
            data: data.dir().to_path_buf(),
            reason: if multiclass {
                format!(
                    "{learner} needs ±1 labels; this dataset has class ids (use a multiclass- learner, or make ±1 \
                     labels with `target` in convert or datasets ocr)"
                )
            } else {
                format!("{learner} needs class-id labels; this dataset's labels are ±1 (use a binary learner)")
            },
        });
    }
    // Across processes, each holds its parts' rows only ([`crate::cluster`]).
    let team = hooks.team.filter(|t| t.size() > 1);
    if let Some(t) = team {
        check_team(spec, t.size(), test.is_some())?;
    }
    if let Some(t) = test {
        for n in Expect::training(data, &classes).meet(t.dir(), t.manifest())? {
            if let Some(note) = hooks.note.as_mut() {
                note(&n);
            }
        }
    }
    let all = data.examples()?;
    let (tr, hold) = match team {
        None => split_holdout(&all, spec.holdout)?,
        Some(t) => {
            (crate::cluster::share(data, crate::cluster::rows_of(t.rank(), t.size(), spec.parts, data.rows())?)?, None)
        }
    };
    let held = hold.as_ref().map_or(0, ExamplesView::len);
    // Training rows over every process.
    let examples = if team.is_some() { data.rows() as usize } else { tr.len() };
    let te = test.map(Dataset::examples).transpose()?;
    let (params, options) = match &spec.init {
        Some(m) => crate::resume::resumed(m, spec, data, tr.len())?,
        None => (spec.params, spec.options),
    };
    let configured = configure_over(learner, &params, &tr, examples, classes.len(), &options, team)?;
    if let Some(note) = hooks.note.as_mut() {
        for n in &configured.notes {
            note(&format!("{learner}: {n}"));
        }
    }
    let par = ParallelOptions { parts: spec.parts, mixing: spec.mixing };
    let eval = match (&hold, &te) {
        (Some(h), _) => Some(Eval { set: h, out_of_core: spec.options.order == Order::Blocks }),
        (None, Some(t)) => Some(Eval { set: t, out_of_core: false }),
        (None, None) => None,
    };
    let init = spec.init.as_ref().and_then(|m| m.state.as_deref());
    // (A kernel model of u8 data knows its rows are bytes, and its file
    // keeps them so.)
    let fitted = fit(&tr, eval, &configured, &options, par, spec.train_error, &classes, init, hooks)?;
    let r = &fitted.report;
    // A resumed run continues the record of the run it resumes, so that 3
    // passes and 2 more write the bytes of 5 in one go.
    let before = spec.init.as_ref().map(|m| &m.meta.training);
    let mut mistakes_per_pass: Vec<u64> = before.map_or(Vec::new(), |t| t.mistakes_per_pass.clone());
    mistakes_per_pass.extend(r.passes.iter().map(|p| p.mistakes));
    let training = Training {
        examples: examples as u64,
        holdout: held as u64,
        passes: before.map_or(0.0, |t| t.passes) + options.passes,
        passes_run: before.map_or(0, |t| t.passes_run) + r.passes.len(),
        // The kernel learners take chunks (the default) as a fresh
        // permutation of every row: say what ran.
        order: if learner.kernel() && options.order == Order::Chunks { Order::Shuffle } else { options.order },
        seed: options.seed,
        parts: spec.parts,
        mixing: (spec.parts > 1).then_some(spec.mixing),
        mistakes: before.map_or(0, |t| t.mistakes) + r.mistakes(),
        updates: before.map_or(0, |t| t.updates) + r.updates(),
        mistakes_per_pass,
        separated_at: if options.stop_when_separated { r.separated_at } else { None },
        first_pass: before.map_or(options.first_pass, |t| t.first_pass),
        batches: 0,
    };
    let meta = ModelMeta {
        learner,
        params: configured.params.iter().map(|&(k, v)| (k.to_string(), v)).collect(),
        dim: data.dim(),
        classes,
        index_base: data.manifest().index_base,
        training,
        hashing: data.manifest().hashing.clone(),
    };
    let state = (!fitted.state.is_empty()).then_some(fitted.state);
    Ok(Model { meta, weights: fitted.weights, state })
}

/// Refuses what `spec` asks for (scoring a test set after each pass, with
/// `tested`) that `processes` processes, each holding only its parts'
/// rows, cannot do.
pub(crate) fn check_team(spec: &TrainSpec, processes: usize, tested: bool) -> Result<(), Error> {
    let learner = spec.learner;
    let refuse = |why: &str| Err(Error::Input(format!("under mpirun ({processes} processes), {why}")));
    if learner.kernel() || !learner.mixes() {
        return refuse(&format!("{learner} cannot train: its state does not mix by averaging"));
    }
    if learner == Learner::VotedPerceptron && tested {
        return refuse(
            "voted-perceptron cannot score `test` after each pass: its model votes with training rows that no \
             process holds all of until the end (drop `test`, and evaluate the model after training)",
        );
    }
    if spec.holdout.is_some() || spec.train_error {
        return refuse(
            "no process holds every training row to score: drop `holdout` and `train-error` (give `test`, or run \
             `rosenblatt eval` on the model)",
        );
    }
    if spec.init.is_some() {
        return refuse("training does not resume (`init` is for one part)");
    }
    crate::cluster::rows_of(0, processes, spec.parts, 0).map(|_| ())
}

/// `all` as training rows and, with `holdout`, the last `holdout` fraction
/// of the rows held out.
pub(crate) fn split_holdout<'v>(
    all: &ExamplesView<'v>,
    holdout: Option<f64>,
) -> Result<(ExamplesView<'v>, Option<ExamplesView<'v>>), Error> {
    let n = all.len();
    let Some(f) = holdout else { return Ok((all.range(0..n), None)) };
    if !(f > 0.0 && f < 1.0) {
        return Err(Error::Input(format!("holdout = {f} must be a fraction in (0, 1)")));
    }
    let held = ((n as f64) * f).round() as usize;
    if held >= n {
        return Err(Error::Input(format!("`holdout` leaves no training rows of {n}")));
    }
    // An empty holdout would be scored as NaN (and `tune` pick its best
    // by it): refused, as a fraction of a pass that trains on no row is.
    if held == 0 {
        return Err(Error::Input(format!(
            "holdout = {f} of {n} rows holds out no row; give a larger fraction, or a test set"
        )));
    }
    Ok((all.range(0..n - held), Some(all.range(n - held..n))))
}

/// Configures `learner` with the hyper-parameters `given` for training on
/// `tr` (`classes` classes) with `options`: the defaults that depend on the
/// data are derived from `tr`, whose scales are computed only if one needs
/// them.
pub(crate) fn configure(
    learner: Learner,
    given: &HyperParams,
    tr: &ExamplesView<'_>,
    classes: usize,
    options: &TrainOptions,
) -> Result<Configured, Error> {
    configure_over(learner, given, tr, tr.len(), classes, options, None)
}

/// [`configure`] on one process's `tr` of `rows` training rows held by
/// `team`'s processes: the data-derived values those of all the rows.
fn configure_over(
    learner: Learner,
    given: &HyperParams,
    tr: &ExamplesView<'_>,
    rows: usize,
    classes: usize,
    options: &TrainOptions,
    team: Option<&dyn Team>,
) -> Result<Configured, Error> {
    let (scales, spread) = (std::cell::OnceCell::new(), std::cell::OnceCell::new());
    // Every process configures the same learner the same way, so all or
    // none of them measure the scales (and the spread).
    let measure = || match team {
        Some(t) => with_examples!(tr, |e| rosenblatt_learners::scales_over(t, e)),
        None => with_examples!(tr, |e| rosenblatt_learners::scales(e)),
    };
    let measure_spread = || match team {
        Some(t) => with_examples!(tr, |e| rosenblatt_learners::spread_over(t, e)),
        None => with_examples!(tr, |e| rosenblatt_learners::spread(e)),
    };
    let facts = DataFacts {
        dim: tr.dim(),
        classes,
        steps: (options.passes * rows as f64).round() as u64,
        scales: &|| *scales.get_or_init(measure),
        spread: &|| *spread.get_or_init(measure_spread),
    };
    Ok(learner.configure(given, &facts, options.seed)?)
}

/// A set scored after every pass.
#[derive(Clone, Copy)]
pub(crate) struct Eval<'a, 'v> {
    /// The rows.
    pub set: &'a ExamplesView<'v>,
    /// Scored block by block, each released after use.
    pub out_of_core: bool,
}

/// A trained model and the run's report.
#[derive(Clone, Debug)]
pub(crate) struct Fitted {
    /// The model.
    pub weights: Weights,
    /// Every pass.
    pub report: TrainReport,
    /// The learner's whole state at the end ([`rosenblatt_learners::state`];
    /// empty for the kernel learners, which do not resume).
    pub state: Vec<u8>,
}

/// Trains `configured` on `tr` in `par.parts` parts, reporting each pass
/// (the error on `tr` if `train_error`, and on `eval`). `classes` names the
/// model's outputs; with `init` (a saved state) the learner is restored
/// from it first. The run is the online trainer's ([`Trainer`]) on the
/// whole of `tr` as one batch.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fit(
    tr: &ExamplesView<'_>,
    eval: Option<Eval<'_, '_>>,
    configured: &Configured,
    options: &TrainOptions,
    par: ParallelOptions,
    train_error: bool,
    classes: &[f64],
    init: Option<&[u8]>,
    hooks: Hooks<'_>,
) -> Result<Fitted, Error> {
    if let rosenblatt_learners::Config::Kernel(k) = &configured.config {
        return fit_kernel(tr, eval, k, options, train_error, classes, hooks);
    }
    let out_of_core = options.order == Order::Blocks;
    let mut reporter = Reporter {
        tr,
        eval,
        classes,
        // Voting over every training row costs many passes.
        train_error: train_error && configured.learner != Learner::VotedPerceptron,
        out_of_core,
        on_pass: hooks.on_pass,
        // A resumed run numbers its passes on from the ones it continues.
        pass: options.first_pass,
    };
    let trainer_options =
        TrainerOptions { seed: options.seed, order: options.order, parts: par.parts, mixing: par.mixing };
    let init = init.map(|state| (state, tr.len()));
    let mut trainer = Trainer::configured(configured.clone(), tr.dim(), classes.to_vec(), trainer_options, init)?;
    let mut on_pass = |p: &PassReport, model: &dyn Fn() -> AnyModel| reporter.pass(p, model);
    let hooks = BatchHooks { on_pass: Some(&mut on_pass), progress: hooks.progress, team: hooks.team };
    let report = trainer.run(&Rows::View(tr.clone()), options, hooks)?;
    let (weights, state) = trainer.into_model()?;
    Ok(Fitted { weights, report, state })
}

/// [`fit`] for a kernel learner: [`KernelTrainer`] pass by pass on the
/// whole of `tr`, each pass in a fresh random order (or the data's, with
/// [`Order::Sequential`]), the pass lines as for the others.
fn fit_kernel(
    tr: &ExamplesView<'_>,
    eval: Option<Eval<'_, '_>>,
    k: &KernelConfig,
    options: &TrainOptions,
    train_error: bool,
    classes: &[f64],
    hooks: Hooks<'_>,
) -> Result<Fitted, Error> {
    let params = crate::whole::kernel_params(k, classes, options, tr.dim())?;
    let mut reporter = Reporter {
        tr,
        eval,
        classes,
        // Voting over every training row costs many passes.
        train_error: train_error && k.form != rosenblatt_learners::KernelForm::Voted,
        out_of_core: false,
        on_pass: hooks.on_pass,
        // A resumed run numbers its passes on from the ones it continues.
        pass: options.first_pass,
    };
    let mut on_pass = |p: &PassReport, t: &KernelTrainer| reporter.pass_with(p, || Weights::Kernel(t.model()));
    let (model, report) = with_examples!(tr, |ex| crate::whole::run_kernel(ex, &params, hooks.progress, &mut on_pass))?;
    Ok(Fitted { weights: Weights::Kernel(model), report, state: Vec::new() })
}

/// The pass lines: everything `fit` does once per pass, compiled once.
struct Reporter<'a, 'h> {
    tr: &'a ExamplesView<'a>,
    eval: Option<Eval<'a, 'a>>,
    classes: &'a [f64],
    train_error: bool,
    out_of_core: bool,
    on_pass: Option<&'h mut (dyn FnMut(&PassLine) + Send)>,
    pass: usize,
}

impl Reporter<'_, '_> {
    fn pass(&mut self, p: &PassReport, model: &dyn Fn() -> AnyModel) {
        let (tr, out_of_core) = (self.tr, self.out_of_core);
        self.pass_with(p, || weights_of(model(), tr, out_of_core));
    }

    /// One pass's line, `weights` made only if something is scored.
    fn pass_with(&mut self, p: &PassReport, weights: impl FnOnce() -> Weights) {
        self.pass += 1;
        let Some(on_pass) = self.on_pass.as_mut() else { return };
        let weights = (self.train_error || self.eval.is_some()).then(weights);
        let score = |set: &ExamplesView<'_>, ooc: bool| error_rate(weights.as_ref()?, self.classes, set, ooc).ok();
        let line = PassLine {
            pass: self.pass,
            mistakes: p.mistakes,
            examples: p.examples,
            train_error: if self.train_error { score(self.tr, self.out_of_core) } else { None },
            eval_error: self.eval.and_then(|e| score(e.set, e.out_of_core)),
            seconds: p.seconds,
            examples_per_second: p.examples as f64 / p.seconds.max(1e-12),
        };
        on_pass(&line);
    }
}

/// A trained model as weights that predict on their own; the voted
/// Perceptron copies its mistaken rows out of `tr` (block by block, each
/// released after, when `out_of_core`).
pub(crate) fn weights_of(model: AnyModel, tr: &ExamplesView<'_>, out_of_core: bool) -> Weights {
    with_examples!(tr, |ex| crate::online::weights_of(model, ex, out_of_core))
}

/// The fraction of `data` that `w` (with outputs `classes`) gets wrong;
/// `out_of_core`, one block of [`BLOCK_ROWS`] at a time, each released
/// after it is scored, so that scoring keeps resident memory as low as
/// training does.
pub fn error_rate(w: &Weights, classes: &[f64], data: &ExamplesView<'_>, out_of_core: bool) -> Result<f64, Error> {
    let n = data.len();
    if n == 0 {
        return Ok(0.0);
    }
    let step = if out_of_core { BLOCK_ROWS } else { n };
    let mut wrong = 0usize;
    for start in (0..n).step_by(step) {
        let block = data.range(start..n.min(start + step));
        let predictions = w.predictions(classes, &block)?;
        let labels = block.labels();
        wrong += predictions.iter().zip(&labels).filter(|(p, y)| p.label != **y).count();
        if out_of_core {
            block.release(0..block.len());
        }
    }
    Ok(wrong as f64 / n as f64)
}
