//! `rosenblatt train`: a learner on a dataset, a line per pass, a model file.

use crate::args::TrainArgs;
use crate::ui::{Ui, outln};
use anyhow::bail;
use rosenblatt::learners::TrainOptions;
use rosenblatt::train::{Hooks, PassLine, TrainSpec, train_dataset};

pub fn run(a: TrainArgs, ui: Ui) -> anyhow::Result<()> {
    let ds = crate::ui::open_dataset(&a.dataset)?;
    let test = a.test.as_deref().map(crate::ui::open_dataset).transpose()?;
    crate::ui::threads(a.threads)?;
    let learner = a.learner;
    let batch = learner.stops_when_separated();
    let init = a.init.as_deref().map(rosenblatt::model::SavedModel::load).transpose()?;
    // Resuming keeps the model's order and seed; a different one given is
    // refused rather than silently breaking the run in two.
    let (order, seed) = match &init {
        Some(m) => {
            let t = &m.meta.training;
            if let Some(s) = a.seed.filter(|&s| s != t.seed) {
                bail!("--seed {s} differs from the resumed model's seed {}", t.seed);
            }
            if let Some(o) = a.order.map(rosenblatt::learners::Order::from).filter(|&o| o != t.order) {
                bail!("--order {o:?} differs from the resumed model's order {:?}", t.order);
            }
            (t.order, t.seed)
        }
        None => (a.order.unwrap_or(crate::args::OrderArg::Chunks).into(), a.seed.unwrap_or(0)),
    };
    let defaults = TrainSpec::new(learner, a.passes.unwrap_or(if batch { 100.0 } else { 1.0 }));
    let spec = TrainSpec {
        params: a.hyper.params(),
        options: TrainOptions { order: if batch { defaults.options.order } else { order }, seed, ..defaults.options },
        holdout: a.holdout,
        parts: a.parts,
        mixing: a.mix.into(),
        train_error: a.train_error,
        init,
        ..defaults
    };
    let rows = ds.rows() - a.holdout.map_or(0, |f| (ds.rows() as f64 * f).round() as u64).min(ds.rows());
    let bar = ui.bar(Some((spec.options.passes * rows as f64).round() as u64), "examples");
    bar.set_message(learner.name());
    let eval = if a.holdout.is_some() {
        "holdout"
    } else if a.test.is_some() {
        "test"
    } else {
        ""
    };
    let (mut lines, mut printed) = (Vec::new(), Ok(()));
    // Columns for what is scored: the training set when asked, the holdout
    // or test set when given.
    let mut columns = vec!["pass", "mistakes", "online error"];
    columns.extend(a.train_error.then_some("train error"));
    columns.extend((!eval.is_empty()).then_some(eval));
    columns.extend(["seconds", "examples/s"]);
    // The header waits for the first pass, so that a refusal is the only
    // line printed.
    let mut on_pass = |l: &PassLine| {
        if !ui.json && printed.is_ok() {
            printed = bar.suspend(|| {
                if l.pass == 1 {
                    outln!("{}", aligned(&columns))?;
                }
                let mut cells = vec![
                    l.pass.to_string(),
                    l.mistakes.to_string(),
                    format!("{:.4}", l.mistakes as f64 / l.examples.max(1) as f64),
                ];
                cells.extend(l.train_error.map(|e| format!("{e:.4}")));
                cells.extend(l.eval_error.map(|e| format!("{e:.4}")));
                cells.extend([format!("{:.3}", l.seconds), format!("{:.3e}", l.examples_per_second)]);
                outln!("{}", aligned(&cells))
            });
        }
        lines.push(l.clone());
    };
    let mut note = |n: &str| bar.suspend(|| ui.note(n));
    let progress = |n: u64| bar.set_position(n);
    let hooks = Hooks { on_pass: Some(&mut on_pass), progress: Some(&progress), note: Some(&mut note), team: None };
    let model = train_dataset(&ds, test.as_ref(), &spec, hooks)?;
    bar.finish_and_clear();
    printed?;
    model.save(&a.output)?;
    let t = &model.meta.training;
    if batch && !ui.quiet {
        match t.separated_at {
            Some(p) => eprintln!("converged: pass {p} made no mistake ({} updates)", t.updates),
            None => eprintln!("not separated within {} passes", spec.options.passes),
        }
    }
    // The one shape `report` reads (docs/report.md).
    let v = serde_json::json!({
        "kind": "train", "command": crate::ui::command_line(), "model": a.output, "learner": learner,
        "eval": (!eval.is_empty()).then_some(eval), "params": model.meta.params, "passes": lines, "training": t,
    });
    if let Some(dir) = &a.report {
        super::report::write_one(v.clone(), Some(&model), dir, ui)?;
    }
    if ui.json {
        return crate::ui::json(&v);
    }
    let how = match t.mixing {
        Some(m) => {
            format!("{} parts, mixed {} after every pass", t.parts, serde_json::to_value(m)?.as_str().unwrap_or(""))
        }
        None => "1 part".to_string(),
    };
    outln!("model written to {} ({how})", a.output.display())?;
    Ok(())
}

/// Cells right-aligned in columns of 12, one space apart.
fn aligned(cells: &[impl std::fmt::Display]) -> String {
    cells.iter().map(|c| format!("{c:>12}")).collect::<Vec<_>>().join(" ")
}
