//! `rosenblatt bounds`: the mistake bounds on a dataset.

use crate::args::BoundsArgs;
use crate::ui::{Ui, outln};
use rosenblatt::bounds::{Reference, bounds};

pub fn run(a: BoundsArgs, ui: Ui) -> anyhow::Result<()> {
    let ds = crate::ui::open_dataset(&a.dataset)?;
    let saved = a.model.as_deref().map(crate::ui::load_model).transpose()?;
    let reference = match (&saved, &a.model) {
        (Some(model), Some(path)) => Reference::Model { model, path },
        _ => Reference::Averaged { passes: a.passes, seed: a.seed },
    };
    let b = bounds(&ds, &reference)?;
    b.notes.iter().for_each(|n| ui.note(n));
    if ui.json {
        // The shape `report` reads (docs/report.md).
        return crate::ui::json(&crate::ui::document(&b, "bounds", &[])?);
    }
    outln!("examples            {}", b.examples)?;
    outln!("reference u         {}, normalised with its bias", b.reference)?;
    outln!("R = max ‖(x, 1)‖    {:.6}", b.r)?;
    let separates = if b.reference_margin > 0.0 { "" } else { " (u does not separate the data)" };
    outln!("margin of u         {:.6}{separates}", b.reference_margin)?;
    match b.novikoff {
        Some(n) => outln!("(R/γ)²              {n:.1}")?,
        None => outln!("(R/γ)²              none (no positive margin)")?,
    }
    outln!("best γ for ((R+D)/γ)²  {:.6} (D = {:.4})", b.gamma, b.deficit)?;
    outln!("((R+D)/γ)²          {:.1}", b.freund_schapire)?;
    outln!("Perceptron mistakes {} (one sequential pass, with a bias)", b.perceptron_mistakes)?;
    Ok(())
}
