//! Tuning, as `rosenblatt tune` does: a learner's grid
//! ([`rosenblatt_learners::Learner::grid`]) — a few log-spaced values of
//! its main hyper-parameters, multiples of the defaults derived from the
//! data where the defaults are — each point trained as `train` would train
//! it and scored on a holdout tail or a test set. The points run in
//! parallel; each is the same deterministic run it would be alone, so the
//! results do not depend on the number of threads.

use crate::error::Error;
use crate::train::{Hooks, PassLine, TrainSpec, configure, split_holdout, train_dataset};
use rayon::prelude::*;
use rosenblatt_learners::{Axis, HyperParams, Learner, Param, TrainOptions};
use rosenblatt_loader::Dataset;

/// What to tune.
#[derive(Clone, Debug)]
pub struct TuneSpec {
    /// The learner.
    pub learner: Learner,
    /// Hyper-parameters held fixed (taken off the grid).
    pub given: HyperParams,
    /// Passes, order and seed of every run.
    pub options: TrainOptions,
    /// Fraction of the rows (the last ones) to score on, when no test set
    /// is given.
    pub holdout: f64,
}

/// One point of the grid.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Trial {
    /// The grid's values at this point, by name.
    pub point: Vec<(&'static str, f64)>,
    /// Every hyper-parameter of the run as recorded in its model.
    pub params: std::collections::BTreeMap<String, f64>,
    /// Error on the holdout or test set after the last pass.
    pub error: f64,
    /// Online (progressive) error of the last pass.
    pub online_error: f64,
}

/// The grid's results, in grid order.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TuneReport {
    /// Every point.
    pub trials: Vec<Trial>,
    /// The index of the lowest error (the first of equals).
    pub best: usize,
    /// What was scored: `"holdout"` or `"test"`.
    pub scored_on: &'static str,
}

/// Trains `spec.learner` at every point of its grid on `data` and scores
/// each on `test`, or on the holdout tail when there is none.
pub fn tune(data: &Dataset, test: Option<&Dataset>, spec: &TuneSpec) -> Result<TuneReport, Error> {
    let learner = spec.learner;
    let axes: Vec<(Param, Axis)> =
        learner.grid().iter().copied().filter(|(p, _)| spec.given.get(*p).is_none()).collect();
    if axes.is_empty() {
        let why = if learner.grid().is_empty() {
            "its hyper-parameters do not change its predictions, or it has none"
        } else {
            "every hyper-parameter of its grid was given"
        };
        return Err(Error::Input(format!("{learner}: nothing to tune ({why})")));
    }
    let holdout = if test.is_some() { None } else { Some(spec.holdout) };
    // The defaults the multiples scale, as training on these rows derives
    // them.
    let all = data.examples()?;
    let (tr, _) = split_holdout(&all, holdout)?;
    let classes = crate::compat::classes_of(data)?.len();
    let defaults = configure(learner, &spec.given, &tr, classes, &spec.options)?;
    let default = |p: Param| defaults.params.iter().find(|r| r.0 == p.name()).map_or(1.0, |r| r.1);
    let mut points: Vec<Vec<(Param, f64)>> = vec![Vec::new()];
    for &(p, axis) in &axes {
        let values: Vec<f64> = match axis {
            // Six significant digits, so that the values read cleanly.
            Axis::Times(m) => {
                m.iter().map(|k| format!("{:.5e}", k * default(p)).parse().unwrap_or(k * default(p))).collect()
            }
            Axis::Values(v) => v.to_vec(),
        };
        points = points
            .into_iter()
            .flat_map(|pt| values.iter().map(move |&v| [pt.clone(), vec![(p, v)]].concat()))
            .collect();
    }
    let trials = points
        .par_iter()
        .map(|pt| {
            let mut params = spec.given;
            for &(p, v) in pt {
                params.set(p, Some(v));
            }
            let run =
                TrainSpec { params, options: spec.options, holdout, ..TrainSpec::new(learner, spec.options.passes) };
            let mut last: Option<PassLine> = None;
            let mut on_pass = |l: &PassLine| last = Some(l.clone());
            let model = train_dataset(data, test, &run, Hooks { on_pass: Some(&mut on_pass), ..Hooks::default() })?;
            let last = last.ok_or_else(|| Error::Input("tune: no pass was run (passes = 0?)".into()))?;
            let examples = (last.examples_per_second * last.seconds).max(1.0);
            Ok(Trial {
                point: pt.iter().map(|&(p, v)| (p.name(), v)).collect(),
                params: model.meta.params,
                error: last.eval_error.unwrap_or(f64::NAN),
                online_error: last.mistakes as f64 / examples,
            })
        })
        .collect::<Result<Vec<Trial>, Error>>()?;
    let best = (0..trials.len()).fold(0, |b, i| if trials[i].error < trials[b].error { i } else { b });
    Ok(TuneReport { trials, best, scored_on: if test.is_some() { "test" } else { "holdout" } })
}
