//! `rosenblatt eval`: a model's metrics on a dataset or LIBSVM text.

use crate::args::InputArgs;
use crate::procs::Procs;
use crate::ui::{Ui, outln};
use rosenblatt::cluster;
use rosenblatt::eval::{evaluate_dataset, evaluate_dataset_over};
use rosenblatt::predict::open_input;

pub fn run(a: InputArgs, ui: Ui, procs: &Procs) -> anyhow::Result<()> {
    crate::ui::threads(a.threads)?;
    let (model, dataset) = (a.model.as_path(), a.input.as_path());
    let (m, e) = match procs.team().filter(|_| dataset.is_dir()) {
        None => {
            let m = crate::ui::load_model(model)?;
            let e = evaluate_dataset(
                &m,
                model,
                &open_input(&m, dataset, a.base(), rosenblatt::loader::vw::Labels::Required)?,
            )?;
            (m, e)
        }
        // Each process predicts its share of the rows; rank 0 reports.
        Some(team) => {
            let (m, ds) = cluster::settle(team, super::open_share(model, dataset, team))?;
            let e = evaluate_dataset_over(&m, model, &ds, team)?;
            if team.rank() > 0 {
                return Ok(());
            }
            (m, e)
        }
    };
    e.notes.iter().for_each(|n| ui.note(n));
    if ui.json {
        return crate::ui::json(&e);
    }
    outln!("model        {} ({}, dimension {})", model.display(), m.meta.learner, m.meta.dim)?;
    outln!("examples     {}", e.examples)?;
    outln!("error rate   {:.4}", e.error_rate)?;
    if let Some(l) = e.log_loss {
        outln!("log loss     {l:.4}")?;
    }
    if let Some(a) = e.roc_auc {
        outln!("ROC AUC      {a:.4}")?;
    }
    outln!("confusion (rows: true class, columns: predicted)")?;
    let row = |head: String, cells: &mut dyn Iterator<Item = String>| {
        let mut s = format!("{head:>10}");
        cells.for_each(|c| s.push_str(&format!("{c:>10}")));
        s
    };
    outln!("{}", row(String::new(), &mut e.classes.iter().map(|c| c.to_string())))?;
    for (c, counts) in e.classes.iter().zip(&e.confusion) {
        outln!("{}", row(c.to_string(), &mut counts.iter().map(|n| n.to_string())))?;
    }
    outln!("{:>10} {:>10} {:>10} {:>10}", "class", "precision", "recall", "F1")?;
    for (i, c) in e.classes.iter().enumerate() {
        outln!("{c:>10} {:>10.4} {:>10.4} {:>10.4}", e.precision[i], e.recall[i], e.f1[i])?;
    }
    Ok(())
}
