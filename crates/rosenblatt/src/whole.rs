//! The learners that train on a whole set at once — the kernel
//! Perceptrons — run pass by pass over any rows: a dataset's (`train`)
//! or borrowed ones (the online trainer's one batch, for Python and C).
//! One copy of the checks and of the pass loop for both.

use crate::error::Error;
use crate::online::{Rows, with_rows};
use rosenblatt_kernels::Examples;
use rosenblatt_learners::{
    KERNEL_MAX_DIM, KernelConfig, KernelModel, KernelParams, KernelTrainer, Order, PassReport, TrainOptions,
    TrainReport,
};
use rosenblatt_loader::with_examples;

/// The kernel run `options` asks of `k` over rows of dimension `dim`
/// with outputs `classes` (`[-1, 1]`, or the class ids), checked: whole
/// passes, an order the kernel learners take, a dimension they hold.
pub(crate) fn kernel_params(
    k: &KernelConfig,
    classes: &[f64],
    options: &TrainOptions,
    dim: usize,
) -> Result<KernelParams, Error> {
    let shuffle = match options.order {
        Order::Chunks | Order::Shuffle => true,
        Order::Sequential => false,
        o => {
            return Err(Error::Input(format!(
                "order {}: the kernel learners take the rows in a fresh random order each pass (chunks, the \
                 default, or shuffle) or in the data's (sequential)",
                serde_json::to_value(o).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
            )));
        }
    };
    let passes = options.passes;
    if !(passes >= 1.0 && passes.fract() == 0.0 && passes <= u32::MAX as f64) {
        return Err(Error::Input(format!("{passes} passes: the kernel learners run whole passes, at least 1")));
    }
    if dim > KERNEL_MAX_DIM {
        return Err(Error::Input(format!(
            "the data has {dim} features; the kernel learners keep support rows dense and take at most \
             {KERNEL_MAX_DIM} (use a linear learner)"
        )));
    }
    let binary = classes == [-1.0, 1.0];
    Ok(k.params(binary, classes.len(), passes as usize, shuffle, options.seed))
}

/// Runs `params.passes` passes of a kernel Perceptron over `ex`: `progress`
/// hears the examples seen so far (`before` plus this run's) after every
/// block, `on_pass` each pass's report with the trainer as it stands.
pub(crate) fn run_kernel<E: Examples>(
    ex: &E,
    params: &KernelParams,
    progress: Option<&(dyn Fn(u64) + Sync)>,
    on_pass: &mut dyn FnMut(&PassReport, &KernelTrainer),
) -> Result<(KernelModel, TrainReport), Error> {
    let mut trainer = KernelTrainer::new(ex, params)?;
    let mut report = TrainReport { passes: Vec::new(), separated_at: None };
    let mut seen = 0;
    for _ in 0..params.passes {
        let start = std::time::Instant::now();
        let p = trainer.pass_with(ex, |n| {
            if let Some(progress) = progress {
                progress(seen + n);
            }
        });
        let pass = PassReport {
            examples: p.examples,
            mistakes: p.mistakes,
            updates: p.mistakes,
            seconds: start.elapsed().as_secs_f64(),
        };
        seen += p.examples;
        on_pass(&pass, &trainer);
        report.passes.push(pass);
    }
    Ok((trainer.into_model(), report))
}

/// A kernel learner's run in an online trainer: its configuration (the
/// defaults derived from the batch, and the notes saying how) and model.
pub(crate) struct Whole {
    pub(crate) configured: rosenblatt_learners::Configured,
    pub(crate) weights: crate::model::Weights,
}

impl Whole {
    /// The model file's contents: no learner state, since a kernel learner
    /// does not learn on from a model.
    pub(crate) fn model(&self, t: &crate::online::Trainer) -> crate::model::Model {
        let meta = crate::model::ModelMeta {
            learner: t.learner,
            params: self.configured.params.iter().map(|&(k, v)| (k.to_string(), v)).collect(),
            dim: t.dim() as u64,
            classes: t.classes.clone(),
            index_base: 0,
            training: t.training.clone(),
            hashing: None,
        };
        crate::model::Model { meta, weights: self.weights.clone(), state: None }
    }
}

/// A kernel learner's one batch in the online trainer `t` (the batch
/// checked): the defaults derived from `rows`, then `passes` passes over
/// them in the trainer's order and seed, as `train` runs them on a dataset.
pub(crate) fn learn(
    t: &mut crate::online::Trainer,
    rows: &Rows<'_>,
    passes: f64,
    hooks: crate::online::BatchHooks<'_>,
) -> Result<TrainReport, Error> {
    if t.training.batches > 0 || t.weights().is_some() {
        return Err(Error::Input(format!(
            "{} learns from one batch: the kernel learners train on the whole set at once, not batch by batch",
            t.learner
        )));
    }
    if t.options.parts > 1 {
        return Err(Error::Input(format!("{} trains in one part (its state does not mix); use parts = 1", t.learner)));
    }
    let (scales, spread) = (std::cell::OnceCell::new(), std::cell::OnceCell::new());
    let facts = rosenblatt_learners::DataFacts {
        dim: t.dim(),
        classes: t.classes.len(),
        steps: (passes * rows.len() as f64).round() as u64,
        scales: &|| *scales.get_or_init(|| rows.scales()),
        spread: &|| *spread.get_or_init(|| rows.spread()),
    };
    let configured = t.learner.configure(&t.params, &facts, t.options.seed)?;
    let rosenblatt_learners::Config::Kernel(k) = &configured.config else {
        return Err(Error::Input(format!("{} is not a kernel learner", t.learner)));
    };
    let options = TrainOptions { passes, order: t.options.order, seed: t.options.seed, ..TrainOptions::default() };
    let params = kernel_params(k, &t.classes, &options, t.dim())?;
    let (model, report) = with_rows!(rows, |e| run_kernel(e, &params, hooks.progress, &mut |_, _| {}))?;
    t.training.count(rows.len(), passes, &report);
    t.whole = Some(Whole { configured, weights: crate::model::Weights::Kernel(model) });
    Ok(report)
}
