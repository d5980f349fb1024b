//! The mistake-bound report behind `rosenblatt bounds`: `R`, the margin of
//! a reference separator, Novikoff's `(R/γ)²` and Freund & Schapire's
//! `((R+D)/γ)²`, beside the mistakes of one sequential Perceptron pass.

use crate::compat::Expect;
use crate::error::Error;
use crate::model::{Model, Weights};
use crate::train::{Hooks, fit};
use rosenblatt_learners::{
    HyperParams, Learner, LinearModel, Mixing, Order, ParallelOptions, TrainOptions, mistake_bounds,
};
use rosenblatt_loader::{Dataset, ExamplesView, LabelKind, with_examples};
use std::path::Path;

/// The reference separator `u`.
pub enum Reference<'a> {
    /// An averaged Perceptron trained on the data: `passes` shuffled
    /// passes from `seed`.
    Averaged {
        /// Passes.
        passes: f64,
        /// Seed of the order.
        seed: u64,
    },
    /// A saved linear binary model.
    Model {
        /// The model.
        model: &'a Model,
        /// Its file, for messages.
        path: &'a Path,
    },
}

/// The bounds and the Perceptron's mistakes.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BoundsReport {
    /// Rows.
    pub examples: u64,
    /// `R = max ‖(x, 1)‖`.
    pub r: f64,
    /// The margin of the unit-length reference (with its bias).
    pub reference_margin: f64,
    /// `(R/γ)²`, when the margin is positive.
    pub novikoff: Option<f64>,
    /// The γ at which `((R+D)/γ)²` is smallest.
    pub gamma: f64,
    /// `D` at that γ.
    pub deficit: f64,
    /// `((R+D)/γ)²` at that γ.
    pub freund_schapire: f64,
    /// Mistakes of one sequential Perceptron pass (with a bias).
    pub perceptron_mistakes: u64,
    /// What the reference was.
    pub reference: String,
    /// What the data's meeting with a reference model called for saying.
    pub notes: Vec<String>,
}

/// Trains `learner` with its defaults on `data` and returns its linear model.
fn linear(learner: Learner, data: &ExamplesView<'_>, options: TrainOptions) -> Result<(LinearModel, u64), Error> {
    let configured = crate::train::configure(learner, &HyperParams::default(), data, 2, &options)?;
    let par = ParallelOptions { parts: 1, mixing: Mixing::Uniform };
    let fitted = fit(data, None, &configured, &options, par, false, &[-1.0, 1.0], None, Hooks::default())?;
    match fitted.weights {
        Weights::Linear(m) => Ok((m, fitted.report.mistakes())),
        _ => unreachable!("{learner} gives a linear model"),
    }
}

/// The bounds for `data` (±1 labels) and `reference`.
pub fn bounds(data: &Dataset, reference: &Reference<'_>) -> Result<BoundsReport, Error> {
    let m = data.manifest();
    if m.label_kind != LabelKind::Binary {
        return Err(Error::Pairing {
            data: data.dir().to_path_buf(),
            reason: format!(
                "labels are {}; the bounds need ±1 labels (for MNIST, convert with `target` DIGIT)",
                m.label_kind
            ),
        });
    }
    let ex = data.examples()?;
    let dim = data.dim() as usize;
    let (u, name, notes) = match reference {
        Reference::Model { model, path } => {
            let Weights::Linear(w) = &model.weights else {
                return Err(Error::Input(format!(
                    "{}: a {} model has no single weight vector; `model` takes a linear binary model \
                     (perceptron, averaged-perceptron, pegasos, …)",
                    path.display(),
                    model.meta.learner
                )));
            };
            let notes = Expect::model(path, &model.meta).meet(data.dir(), m)?;
            let mut w = w.clone();
            // Features the model never saw get weight 0 (and the model's
            // extra ones meet zeros in every row).
            w.weights.resize(dim.max(w.weights.len()), 0.0);
            (w, format!("{} ({})", path.display(), model.meta.learner), notes)
        }
        &Reference::Averaged { passes, seed } => {
            let opts = TrainOptions { passes, order: Order::Shuffle, seed, stop_when_separated: false, first_pass: 0 };
            let (u, _) = linear(Learner::AveragedPerceptron, &ex, opts)?;
            (u, format!("averaged perceptron, {passes} passes, seed {seed}"), Vec::new())
        }
    };
    let one =
        TrainOptions { passes: 1.0, order: Order::Sequential, seed: 0, stop_when_separated: false, first_pass: 0 };
    let (_, mistakes) = linear(Learner::Perceptron, &ex, one)?;
    let Some(b) = with_examples!(&ex, |e| mistake_bounds(e, &u, true)) else {
        return Err(Error::Input(
            "the reference separator classifies no example correctly; no margin to bound with".into(),
        ));
    };
    Ok(BoundsReport {
        examples: data.rows(),
        r: b.r,
        reference_margin: b.margin,
        novikoff: b.novikoff,
        gamma: b.gamma,
        deficit: b.deficit,
        freund_schapire: b.freund_schapire,
        perceptron_mistakes: mistakes,
        reference: name,
        notes,
    })
}
