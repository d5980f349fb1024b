//! Resuming a saved model's training (`train --init`): the checks that a
//! run can continue it — same learner, data and parts, whole passes, no
//! hyper-parameter, order or seed given that differs from the model's —
//! and what the run then takes from it. A run that passes them continues
//! bit for bit, and carries on the model's record.

use crate::error::Error;
use crate::model::Model;
use crate::train::TrainSpec;
use rosenblatt_learners::{HyperParams, Order, TrainOptions};
use rosenblatt_loader::Dataset;

/// The order and seed of a run that resumes `model`: the model's. An order
/// or seed given that differs is refused rather than silently breaking the
/// run in two.
pub fn order_and_seed(model: &Model, order: Option<Order>, seed: Option<u64>) -> Result<(Order, u64), Error> {
    let t = &model.meta.training;
    if let Some(s) = seed.filter(|&s| s != t.seed) {
        return Err(Error::Input(format!("seed = {s} differs from the resumed model's seed {}", t.seed)));
    }
    if let Some(o) = order.filter(|&o| o != t.order) {
        return Err(Error::Input(format!("order = {o:?} differs from the resumed model's order {:?}", t.order)));
    }
    Ok((t.order, t.seed))
}

/// The hyper-parameters and options a resumed run takes from the model it
/// resumes, after checking that it can: same learner, dimension and
/// training rows, a saved state, one part, whole passes, and no
/// hyper-parameter given that differs from the model's.
pub(crate) fn resumed(
    m: &Model,
    spec: &TrainSpec,
    data: &Dataset,
    examples: usize,
) -> Result<(HyperParams, TrainOptions), Error> {
    let learner = spec.learner;
    let refuse = |why: String| Err(Error::Input(format!("`init`: {why}")));
    let t = &m.meta.training;
    if m.meta.learner != learner {
        return refuse(format!("the model is a {}, not a {learner}", m.meta.learner));
    }
    if learner.kernel() {
        return refuse(format!("{learner} does not resume; train it again with more passes"));
    }
    if m.state.is_none() {
        return refuse(
            "the model file carries no learner state (written before format version 3); it predicts, but \
             training cannot resume from it"
                .into(),
        );
    }
    if m.meta.dim != data.dim() || t.examples != examples as u64 {
        return refuse(format!(
            "the model was trained on {} rows of dimension {}; this data has {examples} training rows of \
             dimension {} (resume on the same data)",
            t.examples,
            m.meta.dim,
            data.dim()
        ));
    }
    if t.parts != 1 || spec.parts != 1 {
        return refuse("resuming is for one part (parts = 1) only".into());
    }
    if t.passes.fract() != 0.0 || t.separated_at.is_some() {
        return refuse(format!("the model ran {} passes; only whole passes resume", t.passes));
    }
    let mut params = HyperParams::default();
    for &(p, _) in learner.params() {
        let saved = m.meta.params.get(p.name()).copied();
        if let (Some(given), Some(saved)) = (spec.params.get(p), saved)
            && given != saved
        {
            return refuse(format!("{} = {given} differs from the model's {saved}", p.name()));
        }
        params.set(p, saved);
    }
    let options = TrainOptions { first_pass: t.first_pass + t.passes_run, ..spec.options };
    Ok((params, options))
}
