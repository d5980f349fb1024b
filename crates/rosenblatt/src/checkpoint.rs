//! Training with checkpoints: a long run cut into stretches of a few
//! passes, the model (with its learner's whole state) handed out after
//! each, so that a run stopped part-way leaves a model to resume from.
//!
//! Each stretch resumes the one before it exactly as `train --init` does,
//! and a resumed run carries on its record, so the run ends with the very
//! model — byte for byte — that training all its passes in one go writes.

use crate::config::Config;
use crate::error::Error;
use crate::model::Model;
use crate::train::{Hooks, Run, TrainSpec, train_dataset};
use rosenblatt_loader::Dataset;

/// [`Config::fit_run`] of `run`, with `save` handed the model after every
/// `every` passes (not after the last: that model is returned). Needs what
/// resuming needs: whole passes in one part, a learner that resumes (not
/// the kernel learners, nor the batch Perceptron, whose run ends when a
/// pass makes no mistake). Progress counts on across the stretches.
pub fn train_checkpointed(
    config: &Config,
    data: &Dataset,
    run: Run<'_>,
    every: usize,
    save: &mut (dyn FnMut(&Model) -> Result<(), Error> + Send),
) -> Result<Model, Error> {
    let (spec, hooks, test) = config.spec_of(run)?;
    config.on_threads(|| stretches(data, test, &spec, every, hooks, save))
}

/// The run in stretches.
fn stretches(
    data: &Dataset,
    test: Option<&Dataset>,
    spec: &TrainSpec,
    every: usize,
    hooks: Hooks<'_>,
    save: &mut (dyn FnMut(&Model) -> Result<(), Error> + Send),
) -> Result<Model, Error> {
    let learner = spec.learner;
    let total = spec.options.passes;
    let refuse = |why: String| Err(Error::Input(format!("checkpoints: {why}")));
    if every == 0 {
        return refuse("every 0 passes: give at least 1".into());
    }
    if learner.kernel() || learner.stops_when_separated() {
        return refuse(format!("{learner} does not resume, so it takes no checkpoints"));
    }
    if spec.parts != 1 || hooks.team.is_some() {
        return refuse("they are taken in one part (one process) only".into());
    }
    if !(total >= 1.0 && total.fract() == 0.0) {
        return refuse(format!("{total} passes: checkpoints come between whole passes"));
    }
    let Hooks { mut on_pass, progress, mut note, team } = hooks;
    let rows = data.rows() - spec.holdout.map_or(0, |f| (data.rows() as f64 * f).round() as u64).min(data.rows());
    let (mut done, mut model) = (0usize, spec.init.clone());
    loop {
        let passes = (total as usize - done).min(every);
        let options = rosenblatt_learners::TrainOptions { passes: passes as f64, ..spec.options };
        let stretch = TrainSpec { init: model.take(), options, ..spec.clone() };
        // Examples counted on from the stretches before.
        let before = done as u64 * rows;
        let counted = move |n: u64| {
            if let Some(p) = progress {
                p(before + n);
            }
        };
        // Fresh closures over the caller's hooks, for this stretch.
        let mut passed = |l: &crate::train::PassLine| {
            if let Some(f) = on_pass.as_mut() {
                f(l);
            }
        };
        let first = done == 0;
        let mut noted = |n: &str| {
            // The data-derived values are said once, by the first stretch.
            if let Some(f) = note.as_mut().filter(|_| first) {
                f(n);
            }
        };
        let hooks = Hooks { on_pass: Some(&mut passed), progress: Some(&counted), note: Some(&mut noted), team };
        let m = train_dataset(data, test, &stretch, hooks)?;
        done += passes;
        if done == total as usize {
            return Ok(m);
        }
        save(&m)?;
        model = Some(m);
    }
}
