//! `rosenblatt tune`: a learner's grid, a line per point, the best as a
//! ready `train` command.

use crate::args::TuneArgs;
use crate::ui::{Ui, outln};
use rosenblatt::learners::TrainOptions;
use rosenblatt::tune::{TuneSpec, tune};

pub fn run(a: TuneArgs, ui: Ui) -> anyhow::Result<()> {
    // The pool first: opening verifies checksums on it.
    crate::ui::threads(a.threads)?;
    let ds = crate::ui::open_dataset(&a.dataset)?;
    let test = a.test.as_deref().map(crate::ui::open_dataset).transpose()?;
    let spec = TuneSpec {
        learner: a.learner,
        given: a.hyper.params(),
        options: TrainOptions {
            passes: a.passes,
            order: a.order.into(),
            seed: a.seed,
            stop_when_separated: false,
            first_pass: 0,
        },
        holdout: a.holdout,
    };
    let bar = ui.bar(None, "");
    bar.set_message(format!("tuning {}", a.learner));
    let report = tune(&ds, test.as_ref(), &spec)?;
    bar.finish_and_clear();
    let best = &report.trials[report.best];
    // The best run as a command: the grid's values and those held fixed.
    let mut command = format!(
        "rosenblatt train {} --learner {} --passes {} --order {} --seed {}",
        a.dataset.display(),
        a.learner,
        a.passes,
        serde_json::to_value(spec.options.order)?.as_str().unwrap_or("chunks"),
        a.seed
    );
    let mut fixed: Vec<(&str, f64)> = best.point.clone();
    for p in rosenblatt::learners::Param::ALL {
        if let Some(v) = spec.given.get(p) {
            fixed.push((p.name(), v));
        }
    }
    for (name, v) in &fixed {
        // A choice by name (`--kernel poly`), a number otherwise.
        let shown = rosenblatt::learners::Param::from_name(name).map_or(v.to_string(), |p| p.show(*v));
        command.push_str(&format!(" --{name} {shown}"));
    }
    command.push_str(" -o MODEL");
    if ui.json {
        let v = serde_json::json!({
            "learner": a.learner, "scored_on": report.scored_on, "trials": report.trials, "best": report.best,
            "command": command,
        });
        return crate::ui::json(&v);
    }
    let names: Vec<&str> = best.point.iter().map(|p| p.0).collect();
    let mut header: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    header.extend([format!("{} error", report.scored_on), "online error".into()]);
    outln!("{}", aligned(&header))?;
    for (i, t) in report.trials.iter().enumerate() {
        let mut cells: Vec<String> = t.point.iter().map(|p| p.1.to_string()).collect();
        cells.extend([format!("{:.4}", t.error), format!("{:.4}", t.online_error)]);
        let mark = if i == report.best { "  ← best" } else { "" };
        outln!("{}{mark}", aligned(&cells))?;
    }
    outln!("best: {command}")?;
    Ok(())
}

fn aligned(cells: &[impl std::fmt::Display]) -> String {
    cells.iter().map(|c| format!("{c:>14}")).collect::<Vec<_>>().join(" ")
}
