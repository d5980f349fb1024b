//! One-vs-rest: a binary learner per class, each trained on the examples
//! relabelled +1 for its class and −1 for every other, the classes in
//! parallel; binary learners that learn together from one pass over the
//! same rows ([`Together`]); and the per-class models combined into one
//! multi-class model.

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
    fn weight(&self, i: usize) -> f32 {
        self.data.weight(i)
    }
    fn weighted(&self) -> bool {
        self.data.weighted()
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

/// Binary learners that learn from the same rows in one pass, each with
/// its own labels (one-vs-rest: a learner per class): every row is read
/// once for all of them, where training them one after another reads the
/// data once per learner. Member `k` learns row `i` with `labels[k][i]`
/// (the loop's example index, which is the row's with one part), exactly
/// as it would alone in the same order, bit for bit. The labels are the
/// caller's to check (each ±1); the rows' own labels are not read.
///
/// The loop's step counts the rows on which any member erred or updated;
/// [`Together::passes`] keeps each member's own counts, pass by pass.
pub struct Together<'a, L> {
    members: Vec<&'a mut L>,
    labels: Vec<&'a [f32]>,
    /// This pass's (mistakes, updates) per member.
    counts: Vec<(u64, u64)>,
    /// Every finished pass's counts per member.
    done: Vec<Vec<(u64, u64)>>,
}

impl<'a, L: OnlineLearner> Together<'a, L> {
    /// `members[k]` learns with `labels[k]`; panics unless there is one
    /// label array per member and at least one member.
    pub fn new(members: Vec<&'a mut L>, labels: Vec<&'a [f32]>) -> Self {
        assert!(!members.is_empty() && members.len() == labels.len(), "one label array per member");
        let counts = vec![(0, 0); members.len()];
        Together { members, labels, counts, done: Vec::new() }
    }

    /// Member `k`'s (mistakes, updates) of every finished pass.
    pub fn passes(&self, k: usize) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.done.iter().map(move |p| p[k])
    }
}

impl<L: OnlineLearner> OnlineLearner for Together<'_, L> {
    type Model = ();
    fn dim(&self) -> usize {
        self.members[0].dim()
    }
    /// The members' labels are checked by whoever made them.
    fn check_labels<E: Examples>(&self, _data: &E) -> Result<(), LearnError> {
        Ok(())
    }
    fn begin(&mut self, plan: &crate::learner::Plan) {
        self.members.iter_mut().for_each(|m| m.begin(plan));
    }
    fn margin<R: rosenblatt_kernels::Row>(&self, x: &R) -> f32 {
        self.members[0].margin(x)
    }
    #[inline(always)]
    fn learn<R: rosenblatt_kernels::Row>(&mut self, x: &R, _y: f32, h: f32, example: usize) -> crate::learner::Step {
        let mut any = crate::learner::Step::default();
        for ((m, labels), c) in self.members.iter_mut().zip(&self.labels).zip(&mut self.counts) {
            let s = m.learn(x, labels[example], h, example);
            c.0 += u64::from(s.mistake);
            c.1 += u64::from(s.updated);
            any.mistake |= s.mistake;
            any.updated |= s.updated;
        }
        any
    }
    const PREFETCH: bool = L::PREFETCH;
    #[inline(always)]
    fn prefetch<R: rosenblatt_kernels::Row>(&self, x: &R) {
        self.members.iter().for_each(|m| m.prefetch(x));
    }
    fn end_pass(&mut self) {
        self.members.iter_mut().for_each(|m| m.end_pass());
        self.done.push(std::mem::replace(&mut self.counts, vec![(0, 0); self.members.len()]));
    }
    fn model(&self) {}
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
