//! `rosenblatt predict`: a label and score per input row.

use crate::args::PredictArgs;
use crate::procs::Procs;
use crate::ui::Ui;
use rosenblatt::loader::fs::AtomicFile;
use rosenblatt::predict::{Predicted, predict_path};
use std::io::Write;

pub fn run(a: PredictArgs, ui: Ui, procs: &Procs) -> anyhow::Result<()> {
    crate::ui::threads(a.input.threads)?;
    // A bad output path fails before the predictions, not after them.
    if let Some(path) = a.output.as_deref().filter(|_| procs.team().is_none()) {
        crate::ui::output_file(path)?;
    }
    // Across processes, a dataset's rows are shared out and the
    // predictions gathered in input order; text is read by rank 0 alone.
    let (model, input) = (&a.input.model, &a.input.input);
    if let Some(team) = procs.team().filter(|_| input.is_dir()) {
        let (m, ds) = rosenblatt::cluster::settle(team, super::open_share(model, input, team))?;
        let predictions = rosenblatt::cluster::labelled_over(team, &m, &ds)?.into_iter().map(|(_, p)| p).collect();
        if team.rank() > 0 {
            return Ok(());
        }
        let notes = rosenblatt::compat::Expect::model(model, &m.meta).features(input, ds.manifest())?;
        return write(&a, ui, Predicted { predictions, notes });
    }
    if procs.rank() > 0 {
        return Ok(());
    }
    let m = crate::ui::load_model(model)?;
    let bar = ui.bar(None, "");
    bar.set_message(format!("predicting {}", input.display()));
    let p = predict_path(&m, model, input, a.input.base())?;
    bar.finish_and_clear();
    write(&a, ui, p)
}

/// Writes the predictions `p` where `a` says.
fn write(a: &PredictArgs, ui: Ui, p: Predicted) -> anyhow::Result<()> {
    p.notes.iter().for_each(|n| ui.note(n));
    let mut out = Vec::with_capacity(p.predictions.len() * 16);
    for row in &p.predictions {
        if ui.json && a.output.is_none() {
            writeln!(out, "{}", serde_json::to_string(row)?)?;
        } else {
            writeln!(out, "{} {}", row.label, row.score)?;
        }
    }
    match &a.output {
        Some(path) => {
            let mut file = AtomicFile::create(path)?;
            file.write_all(&out).map_err(|source| rosenblatt::loader::LoadError::Io { path: path.clone(), source })?;
            file.commit()?;
            if ui.json {
                let v = serde_json::json!({
                    "model": a.input.model, "input": a.input.input, "output": path, "rows": p.predictions.len(), "notes": p.notes,
                });
                crate::ui::json(&v)?;
            } else if !ui.quiet {
                eprintln!("{} predictions written to {}", p.predictions.len(), path.display());
            }
        }
        None => crate::ui::write_stdout(&out)?,
    }
    Ok(())
}
