//! One-vs-rest: a binary learner per class, each trained on the examples
//! relabelled +1 for its class and −1 for every other, the classes in
//! parallel; and the per-class models combined into one multi-class model.

use crate::error::LearnError;
use crate::learner::OnlineLearner;
use crate::model::{LinearModel, MulticlassModel};
use crate::sets::check_classes;
use crate::train::{TrainOptions, TrainReport, train};
use rayon::prelude::*;
use rosenblatt_kernels::Examples;

/// One class against the rest: label +1 for `class`, −1 for every other.
#[derive(Clone, Copy, Debug)]
pub struct OneVsRest<'e, E> {
    /// The multi-class examples.
    pub data: &'e E,
    /// The positive class.
    pub class: f32,
}

impl<E: Examples> Examples for OneVsRest<'_, E> {
    type Row = E::Row;
    fn len(&self) -> usize {
        self.data.len()
    }
    fn dim(&self) -> usize {
        self.data.dim()
    }
    fn row(&self, i: usize) -> E::Row {
        self.data.row(i)
    }
    fn label(&self, i: usize) -> f32 {
        if self.data.label(i) == self.class { 1.0 } else { -1.0 }
    }
    fn prefetch(&self, i: usize) {
        self.data.prefetch(i)
    }
    fn release(&self, range: std::ops::Range<usize>) {
        self.data.release(range)
    }
}

/// Trains one binary learner per class (`make(class)` builds each), the
/// classes in parallel, each on the examples relabelled one-vs-rest.
/// Returns the per-class models (turn them into a [`MulticlassModel`] with
/// [`combine`]) and reports.
pub fn one_vs_rest<E, L, F>(
    data: &E,
    classes: usize,
    make: F,
    opts: &TrainOptions,
) -> Result<Vec<(L::Model, TrainReport)>, LearnError>
where
    E: Examples,
    L: OnlineLearner,
    L::Model: Send,
    F: Fn(usize) -> Result<L, LearnError> + Sync,
{
    check_classes(data, classes)?;
    (0..classes)
        .into_par_iter()
        .map(|c| {
            let mut l = make(c)?;
            let r = train(&mut l, &OneVsRest { data, class: c as f32 }, opts)?;
            Ok((l.model(), r))
        })
        .collect()
}

/// Per-class linear models as one multi-class model.
pub fn combine(models: &[LinearModel]) -> MulticlassModel {
    let dim = models.first().map_or(0, |m| m.weights.len());
    MulticlassModel {
        dim,
        weights: models.iter().flat_map(|m| m.weights.iter().copied()).collect(),
        bias: models.iter().map(|m| m.bias).collect(),
    }
}
