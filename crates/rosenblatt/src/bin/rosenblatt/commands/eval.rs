//! `rosenblatt eval`: a model's metrics on a dataset.

use crate::ui::{Ui, outln};
use rosenblatt::eval::evaluate_dataset;
use std::path::Path;

pub fn run(model: &Path, dataset: &Path, ui: Ui) -> anyhow::Result<()> {
    let m = crate::ui::load_model(model)?;
    let ds = crate::ui::open_dataset(dataset)?;
    let e = evaluate_dataset(&m, model, &ds)?;
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
