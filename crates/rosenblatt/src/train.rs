//! Training a named learner on a dataset, with per-pass reports, into a
//! model file's contents — what `rosenblatt train` does.

use crate::error::Error;
use crate::model::{ModelMeta, SavedModel, Weights};
use rosenblatt_kernels::Examples;
use rosenblatt_learners::{
    AveragedPerceptron, BLOCK_ROWS, Bias, EgForm, Event, ExponentiatedGradient, FtrlParams, FtrlProximal, LinearModel,
    LocalReducer, Loss, Mixable, Mixing, MulticlassModel, MulticlassPerceptron, OnlineLearner, Order, PaVariant,
    ParallelOptions, PassReport, PassiveAggressive, Perceptron, PerceptronParams, RandomizedFtrl, Schedule, Sgd,
    SgdParams, Slice, TrainOptions, TrainReport, VotedModel, VotedPerceptron, Winnow, max_norm, train_parallel,
    train_with,
};
use serde_json::{Map, Value, json};

/// Every learner `train` knows, with a line about each.
pub const LEARNERS: &[(&str, &str)] = &[
    ("perceptron", "Rosenblatt's Perceptron (--eta, default 1)"),
    ("batch-perceptron", "the Perceptron, sequential passes until one makes no mistake"),
    ("averaged-perceptron", "the Averaged Perceptron (lazy averaging)"),
    ("voted-perceptron", "the Voted Perceptron; the model file carries its mistaken rows"),
    ("hinge-sgd", "gradient descent on the hinge loss (--eta 0.1, η/√(k+1); --lambda 0)"),
    ("pegasos", "Pegasos (--lambda 1e-4)"),
    ("logistic", "logistic regression by SGD (--eta 0.1, η/√(k+1); --lambda 0)"),
    ("winnow", "Winnow for binary features (--alpha 2, --threshold = dimension)"),
    ("eg", "exponentiated gradient on the simplex (--b 1, --eta 0.1)"),
    ("eg-pm", "EG± for signed weights (--b 1, --eta 0.1)"),
    ("ftrl-randomized", "the randomised FTRL classifier (R = largest row norm)"),
    ("ftrl-proximal", "FTRL-Proximal, logistic (--alpha 0.1, --beta 1, --l1 1, --l2 1)"),
    ("pa", "Passive-Aggressive"),
    ("pa1", "PA-I (--c 1)"),
    ("pa2", "PA-II (--c 1)"),
    ("multiclass-perceptron", "the multi-class Perceptron (class-id labels)"),
    ("multiclass-averaged-perceptron", "the averaged multi-class Perceptron (class-id labels)"),
];

/// `Ok` if `name` is one of [`LEARNERS`], else the error listing them.
pub fn check_learner(name: &str) -> Result<(), Error> {
    if LEARNERS.iter().any(|l| l.0 == name) {
        return Ok(());
    }
    let names: Vec<&str> = LEARNERS.iter().map(|l| l.0).collect();
    Err(Error::Input(format!("unknown learner `{name}` (one of: {})", names.join(", "))))
}

/// Hyper-parameters; `None` takes the learner's default.
#[derive(Clone, Debug, Default)]
pub struct HyperParams {
    /// Step size (η, or η0 for schedules).
    pub eta: Option<f64>,
    /// L2 strength.
    pub lambda: Option<f64>,
    /// PA aggressiveness.
    pub c: Option<f64>,
    /// Winnow's promotion factor; FTRL-Proximal's α.
    pub alpha: Option<f64>,
    /// FTRL-Proximal's β.
    pub beta: Option<f64>,
    /// FTRL-Proximal's L1.
    pub l1: Option<f64>,
    /// FTRL-Proximal's L2.
    pub l2: Option<f64>,
    /// EG's ‖w‖₁.
    pub b: Option<f64>,
    /// Winnow's threshold.
    pub threshold: Option<f64>,
}

/// One pass's report.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PassLine {
    /// 1-based pass.
    pub pass: usize,
    /// Online mistakes in the pass.
    pub mistakes: u64,
    /// Error of the current model on the training examples (not computed
    /// per pass for the voted Perceptron: its vote over every training row
    /// costs many passes).
    pub train_error: Option<f64>,
    /// Error on the holdout or test set, if any.
    pub eval_error: Option<f64>,
    /// Wall time of the pass (training only).
    pub seconds: f64,
    /// Examples per second.
    pub examples_per_second: f64,
}

/// What `train` does besides the learner.
#[derive(Clone, Debug)]
pub struct TrainSpec {
    /// Learner name (see [`LEARNERS`]).
    pub learner: String,
    /// Passes and order.
    pub options: TrainOptions,
    /// Hyper-parameters.
    pub params: HyperParams,
    /// Fraction of the rows (the last ones) held out for evaluation.
    pub holdout: Option<f64>,
    /// Parts of the rows trained in parallel and mixed after every pass
    /// (iterative parameter mixing); `None`: as many as the current rayon
    /// pool has threads (call from `ThreadPool::install` to choose).
    /// Learners that cannot mix train on one thread (see [`MIXABLE`]).
    pub threads: Option<usize>,
    /// How parts are weighted when mixed.
    pub mixing: Mixing,
}

/// The learners that train in parallel by iterative parameter mixing; the
/// others train on one thread.
pub const MIXABLE: &[&str] = &[
    "perceptron",
    "averaged-perceptron",
    "voted-perceptron",
    "hinge-sgd",
    "pegasos",
    "logistic",
    "ftrl-proximal",
    "pa",
    "pa1",
    "pa2",
    "multiclass-perceptron",
    "multiclass-averaged-perceptron",
];

fn check_holdout(h: Option<f64>) -> Result<(), Error> {
    match h {
        Some(f) if !(f > 0.0 && f < 1.0) => Err(Error::Input(format!("--holdout {f} must be a fraction in (0, 1)"))),
        _ => Ok(()),
    }
}

/// Error rate of a binary or multi-class model.
fn error_of<E: Examples>(w: &Weights, data: &E) -> f64 {
    match w {
        Weights::Linear(m) => m.error_rate(data),
        Weights::Multiclass(m) => m.error_rate(data),
        Weights::Voted(v) => v.error_rate(data),
    }
}

/// [`error_of`]; out of core, one block of [`BLOCK_ROWS`] at a time, each
/// released after it is scored, so that scoring keeps resident memory as
/// low as training does.
fn error_in<E: Examples>(w: &Weights, data: &E, out_of_core: bool) -> f64 {
    if !out_of_core || data.len() <= BLOCK_ROWS {
        let e = error_of(w, data);
        if out_of_core {
            data.release(0..data.len());
        }
        return e;
    }
    let mut wrong = 0.0;
    for start in (0..data.len()).step_by(BLOCK_ROWS) {
        let len = BLOCK_ROWS.min(data.len() - start);
        wrong += (error_of(w, &Slice::new(data, start, len)) * len as f64).round();
        data.release(start..start + len);
    }
    wrong / data.len() as f64
}

trait IntoWeights {
    /// Whether scoring the whole training set after every pass is cheap
    /// next to the pass (not for the voted Perceptron, whose vote over every
    /// training row costs many passes).
    const CHEAP_TO_SCORE: bool = true;
    /// The model's weights; `tr` is the set it was trained on, `out_of_core`
    /// whether it is trained on in blocks that are released after use.
    fn into_weights<E: Examples>(self, tr: &E, out_of_core: bool) -> Weights;
}
impl IntoWeights for LinearModel {
    fn into_weights<E: Examples>(self, _: &E, _: bool) -> Weights {
        Weights::Linear(self)
    }
}
impl IntoWeights for MulticlassModel {
    fn into_weights<E: Examples>(self, _: &E, _: bool) -> Weights {
        Weights::Multiclass(self)
    }
}
impl IntoWeights for VotedModel {
    const CHEAP_TO_SCORE: bool = false;
    fn into_weights<E: Examples>(self, tr: &E, out_of_core: bool) -> Weights {
        Weights::Voted(if out_of_core { self.predictor_releasing(tr) } else { self.predictor(tr) })
    }
}

/// Trains `spec.learner` on `data` (evaluating each pass on a holdout tail or
/// on `test`), calling `on_pass` after every pass.
pub fn train_examples<E: Examples, T: Examples>(
    data: &E,
    test: Option<&T>,
    classes: Vec<f64>,
    spec: &TrainSpec,
    on_pass: impl FnMut(&PassLine),
) -> Result<SavedModel, Error> {
    train_examples_with_progress(data, test, classes, spec, on_pass, &mut |_| {})
}

/// [`train_examples`], also calling `progress` with the examples presented
/// so far, every [`rosenblatt_learners::PROGRESS_EVERY`] examples and at the
/// end of every pass (for progress bars).
pub fn train_examples_with_progress<E: Examples, T: Examples>(
    data: &E,
    test: Option<&T>,
    classes: Vec<f64>,
    spec: &TrainSpec,
    on_pass: impl FnMut(&PassLine),
    progress: &mut dyn FnMut(u64),
) -> Result<SavedModel, Error> {
    check_learner(&spec.learner)?;
    check_holdout(spec.holdout)?;
    let n = data.len();
    let held = spec.holdout.map_or(0, |f| ((n as f64) * f).round() as usize);
    if held >= n {
        return Err(Error::Input(format!("--holdout leaves no training rows of {n}")));
    }
    let tr = Slice::new(data, 0, n - held);
    let hold = (held > 0).then(|| Slice::new(data, n - held, held));
    let dim = data.dim();
    let hp = &spec.params;
    let f32p = |v: Option<f64>, d: f64| v.unwrap_or(d) as f32;
    let mut params = Map::new();
    let cores = spec.threads.unwrap_or_else(rayon::current_num_threads);
    if cores == 0 {
        return Err(Error::Input("--threads 0: give at least 1 thread".into()));
    }
    let threads = if MIXABLE.contains(&spec.learner.as_str()) { cores.min(tr.len()).max(1) } else { 1 };
    let par = ParallelOptions { parts: threads, mixing: spec.mixing };
    // Single-thread learners.
    macro_rules! run {
        ($learner:expr) => {{
            let learner = $learner;
            run_one(learner, &tr, hold.as_ref(), test, &spec.options, on_pass, progress)?
        }};
    }
    // Mixable learners: parallel when there is more than one part.
    macro_rules! run_mix {
        ($learner:expr) => {{
            let learner = $learner;
            if threads > 1 {
                run_mixed(learner, &tr, hold.as_ref(), test, &spec.options, &par, on_pass)?
            } else {
                run!(learner)
            }
        }};
    }
    let multiclass = spec.learner.starts_with("multiclass-");
    if multiclass != (classes.len() > 2 || classes.iter().any(|&c| c != -1.0 && c != 1.0)) {
        return Err(Error::Input(if multiclass {
            format!("{} needs class-id labels; this dataset's labels are ±1 (use a binary learner)", spec.learner)
        } else {
            format!(
                "{} needs ±1 labels; this dataset has class ids (use a multiclass- learner, or make ±1 labels with --target in convert or datasets ocr)",
                spec.learner
            )
        }));
    }
    let pp = PerceptronParams { eta: f32p(hp.eta, 1.0), bias: Bias::Explicit };
    let (weights, summary) = match spec.learner.as_str() {
        "perceptron" => {
            params.insert("eta".into(), json!(pp.eta));
            run_mix!(Perceptron::new(dim, pp)?)
        }
        "batch-perceptron" => {
            params.insert("eta".into(), json!(pp.eta));
            run!(Perceptron::new(dim, pp)?)
        }
        "averaged-perceptron" => {
            params.insert("eta".into(), json!(pp.eta));
            run_mix!(AveragedPerceptron::new(dim, pp, false)?)
        }
        "voted-perceptron" => {
            params.insert("eta".into(), json!(pp.eta));
            run_mix!(VotedPerceptron::new(dim, pp, false)?)
        }
        "hinge-sgd" | "logistic" | "pegasos" => {
            let p = if spec.learner == "pegasos" {
                SgdParams::pegasos(f32p(hp.lambda, 1e-4))
            } else {
                SgdParams {
                    loss: if spec.learner == "logistic" { Loss::Logistic } else { Loss::Hinge },
                    schedule: Schedule::InverseSqrtK,
                    eta0: f32p(hp.eta, 0.1),
                    lambda: f32p(hp.lambda, 0.0),
                    radius: None,
                    bias: Bias::Explicit,
                }
            };
            params.insert("eta0".into(), json!(p.eta0));
            params.insert("lambda".into(), json!(p.lambda));
            params.insert("schedule".into(), json!(format!("{:?}", p.schedule)));
            run_mix!(Sgd::new(dim, p)?)
        }
        "winnow" => {
            let (a, t) = (hp.alpha.unwrap_or(2.0), hp.threshold.unwrap_or(dim as f64));
            params.insert("alpha".into(), json!(a));
            params.insert("threshold".into(), json!(t));
            run!(Winnow::new(dim, a, t)?)
        }
        "eg" | "eg-pm" => {
            let (b, eta) = (hp.b.unwrap_or(1.0), hp.eta.unwrap_or(0.1));
            let form = if spec.learner == "eg" { EgForm::Simplex { b } } else { EgForm::PlusMinus { b } };
            params.insert("b".into(), json!(b));
            params.insert("eta".into(), json!(eta));
            run!(ExponentiatedGradient::new(dim, form, eta, Loss::Hinge)?)
        }
        "ftrl-randomized" => {
            let r = max_norm(&tr);
            params.insert("r".into(), json!(r));
            run!(RandomizedFtrl::new(dim, r, spec.options.seed)?)
        }
        "ftrl-proximal" => {
            let p = FtrlParams {
                alpha: hp.alpha.unwrap_or(0.1),
                beta: hp.beta.unwrap_or(1.0),
                l1: hp.l1.unwrap_or(1.0),
                l2: hp.l2.unwrap_or(1.0),
                ..Default::default()
            };
            for (k, v) in [("alpha", p.alpha), ("beta", p.beta), ("l1", p.l1), ("l2", p.l2)] {
                params.insert(k.into(), json!(v));
            }
            run_mix!(FtrlProximal::new(dim, p)?)
        }
        "pa" | "pa1" | "pa2" => {
            let c = f32p(hp.c, 1.0);
            let v = match spec.learner.as_str() {
                "pa" => PaVariant::Pa,
                "pa1" => PaVariant::PaI { c },
                _ => PaVariant::PaII { c },
            };
            params.insert("c".into(), json!(c));
            run_mix!(PassiveAggressive::new(dim, v, Bias::Explicit)?)
        }
        "multiclass-perceptron" | "multiclass-averaged-perceptron" => {
            let k = classes.len();
            let averaged = (spec.learner == "multiclass-averaged-perceptron").then_some(false);
            params.insert("eta".into(), json!(pp.eta));
            run_mix!(MulticlassPerceptron::new(dim, k, pp, averaged)?)
        }
        other => unreachable!("check_learner accepted `{other}`"),
    };
    let mut training = summary;
    training.insert("examples".into(), json!(tr.len()));
    training.insert("holdout".into(), json!(held));
    training.insert("seed".into(), json!(spec.options.seed));
    training.insert("order".into(), json!(format!("{:?}", spec.options.order)));
    training.insert("passes".into(), json!(spec.options.passes));
    training.insert("threads".into(), json!(threads));
    if threads > 1 {
        training.insert("mixing".into(), json!(format!("{:?}", spec.mixing).to_lowercase()));
    }
    let meta = ModelMeta { learner: spec.learner.clone(), params, dim: dim as u64, classes, training };
    Ok(SavedModel { meta, weights })
}

fn run_one<L, E, H, T>(
    mut l: L,
    tr: &E,
    hold: Option<&H>,
    test: Option<&T>,
    opts: &TrainOptions,
    mut on_pass: impl FnMut(&PassLine),
    progress: &mut dyn FnMut(u64),
) -> Result<(Weights, Map<String, Value>), Error>
where
    L: OnlineLearner,
    L::Model: IntoWeights,
    E: Examples,
    H: Examples,
    T: Examples,
{
    let (mut pass, mut presented) = (0, 0);
    let ooc = opts.order == Order::Blocks;
    let report = train_with(&mut l, tr, opts, |l, e| {
        if let Event::Progress(n) = e {
            progress(n);
        }
        if let Event::PassEnd(p) = e {
            pass += 1;
            presented += p.examples;
            progress(presented);
            on_pass(&pass_line(l.model(), pass, &p, tr, hold, test, ooc));
        }
    })?;
    Ok((l.model().into_weights(tr, ooc), summary_of(&report, opts)))
}

fn run_mixed<L, E, H, T>(
    mut l: L,
    tr: &E,
    hold: Option<&H>,
    test: Option<&T>,
    opts: &TrainOptions,
    par: &ParallelOptions,
    mut on_pass: impl FnMut(&PassLine),
) -> Result<(Weights, Map<String, Value>), Error>
where
    L: Mixable,
    L::Model: IntoWeights,
    E: Examples,
    H: Examples,
    T: Examples,
{
    let mut pass = 0;
    let ooc = opts.order == Order::Blocks;
    let report = train_parallel(&mut l, tr, opts, par, &LocalReducer, |l, p| {
        pass += 1;
        on_pass(&pass_line(l.model(), pass, p, tr, hold, test, ooc));
    })?;
    Ok((l.model().into_weights(tr, ooc), summary_of(&report, opts)))
}

/// One pass's line: the pass's counts, and the model's errors.
fn pass_line<M: IntoWeights, E: Examples, H: Examples, T: Examples>(
    model: M,
    pass: usize,
    p: &PassReport,
    tr: &E,
    hold: Option<&H>,
    test: Option<&T>,
    out_of_core: bool,
) -> PassLine {
    // The voted Perceptron's predictor copies every mistaken row: build it
    // only when a holdout or test set will be scored.
    let w = (M::CHEAP_TO_SCORE || hold.is_some() || test.is_some()).then(|| model.into_weights(tr, out_of_core));
    let w = w.as_ref();
    let eval_error = w.and_then(|w| hold.map(|h| error_in(w, h, out_of_core)).or_else(|| test.map(|t| error_of(w, t))));
    PassLine {
        pass,
        mistakes: p.mistakes,
        train_error: w.filter(|_| M::CHEAP_TO_SCORE).map(|w| error_in(w, tr, out_of_core)),
        eval_error,
        seconds: p.seconds,
        examples_per_second: p.examples as f64 / p.seconds.max(1e-12),
    }
}

fn summary_of(report: &TrainReport, opts: &TrainOptions) -> Map<String, Value> {
    let mut summary = Map::new();
    summary.insert("mistakes".into(), json!(report.mistakes()));
    summary.insert("updates".into(), json!(report.updates()));
    summary.insert("passes_run".into(), json!(report.passes.len()));
    summary.insert("seconds".into(), json!(report.passes.iter().map(|p| p.seconds).sum::<f64>()));
    summary.insert("mistakes_per_pass".into(), json!(report.passes.iter().map(|p| p.mistakes).collect::<Vec<_>>()));
    if opts.stop_when_separated {
        summary.insert("separated_at".into(), json!(report.separated_at));
    }
    summary
}

/// Trains `spec.learner` on a whole dataset (optionally reporting each pass
/// against `test`): the embedding counterpart of `rosenblatt train`.
pub fn train_dataset(
    data: &rosenblatt_loader::Dataset,
    test: Option<&rosenblatt_loader::Dataset>,
    spec: &TrainSpec,
    on_pass: impl FnMut(&PassLine),
) -> Result<SavedModel, Error> {
    train_dataset_with_progress(data, test, spec, on_pass, &mut |_| {})
}

/// [`train_dataset`] with a progress callback, as
/// [`train_examples_with_progress`]. The model records the dataset's index
/// base, so that predicting on LIBSVM text reads indices as training did.
pub fn train_dataset_with_progress(
    data: &rosenblatt_loader::Dataset,
    test: Option<&rosenblatt_loader::Dataset>,
    spec: &TrainSpec,
    on_pass: impl FnMut(&PassLine),
    progress: &mut dyn FnMut(u64),
) -> Result<SavedModel, Error> {
    let classes = classes_of(data)?;
    let mut model = rosenblatt_loader::with_examples!(data.examples()?, |ex| match test {
        Some(t) => rosenblatt_loader::with_examples!(t.examples()?, |te| train_examples_with_progress(
            &ex,
            Some(&te),
            classes,
            spec,
            on_pass,
            progress
        )),
        None => train_examples_with_progress(
            &ex,
            None::<&&rosenblatt_learners::InMemoryExamples>,
            classes,
            spec,
            on_pass,
            progress
        ),
    })?;
    model.meta.training.insert("index_base".into(), json!(data.manifest().index_base));
    Ok(model)
}

/// The classes a dataset's labels name: `[-1, 1]` for binary labels, the
/// class ids `0..=max` otherwise.
pub fn classes_of(ds: &rosenblatt_loader::Dataset) -> Result<Vec<f64>, Error> {
    let m = ds.manifest();
    match m.label_kind.as_str() {
        "binary" => Ok(vec![-1.0, 1.0]),
        "classes" => {
            let max = m.label_counts.iter().map(|c| c.0).fold(0.0, f64::max);
            Ok((0..=max as u64).map(|c| c as f64).collect())
        }
        k => {
            Err(Error::Input(format!("{}: labels are {k}; training needs ±1 labels or class ids", ds.dir().display())))
        }
    }
}

impl TrainSpec {
    /// `learner` with its default hyper-parameters, `passes` shuffled passes
    /// from seed 0.
    pub fn new(learner: &str, passes: f64) -> Self {
        TrainSpec {
            learner: learner.to_string(),
            options: TrainOptions { passes, ..Default::default() },
            params: HyperParams::default(),
            holdout: None,
            threads: None,
            mixing: Mixing::Uniform,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rosenblatt_learners::InMemoryExamples;
    use std::ops::Range;
    use std::sync::Mutex;

    /// Examples that record what is released.
    struct Releases<'a>(&'a InMemoryExamples, Mutex<Vec<Range<usize>>>);
    impl<'a> Examples for Releases<'a> {
        type Row = <&'a InMemoryExamples as Examples>::Row;
        fn len(&self) -> usize {
            self.0.len()
        }
        fn dim(&self) -> usize {
            self.0.dim()
        }
        fn row(&self, i: usize) -> Self::Row {
            (&self.0).row(i)
        }
        fn label(&self, i: usize) -> f32 {
            (&self.0).label(i)
        }
        fn release(&self, range: Range<usize>) {
            self.1.lock().unwrap().push(range);
        }
    }

    #[test]
    fn scoring_out_of_core_counts_the_same_errors_and_releases_every_block() {
        let n = 2 * BLOCK_ROWS + 1234;
        let mut data = InMemoryExamples::new(2);
        for i in 0..n {
            // Wrong for every seventh row under the model w = (1, 0).
            let x = ((i % 5) as f32 + 1.0) * if i % 2 == 0 { 1.0 } else { -1.0 };
            let y = if (x > 0.0) != (i % 7 == 0) { 1.0 } else { -1.0 };
            data.push(&[0, 1], &[x, 0.5], y).unwrap();
        }
        let w = Weights::Linear(LinearModel { weights: vec![1.0, 0.0], bias: 0.0 });
        let ex = Releases(&data, Mutex::default());
        let want = n.div_ceil(7) as f64 / n as f64;
        assert_eq!(error_in(&w, &ex, false), want);
        assert!(ex.1.lock().unwrap().is_empty(), "in core, nothing is released");
        assert_eq!(error_in(&w, &ex, true), want);
        let got = ex.1.into_inner().unwrap();
        assert_eq!(got, vec![0..BLOCK_ROWS, BLOCK_ROWS..2 * BLOCK_ROWS, 2 * BLOCK_ROWS..n]);
    }
}
