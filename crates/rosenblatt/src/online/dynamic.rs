//! The learner behind a trait object, crossed once per batch: the one
//! place a learner's training run is instantiated per row type.

use super::*;

/// A built learner behind the trait object the trainer holds: the one
/// boundary crossed per batch.
pub(crate) trait DynLearner: Send {
    fn learn(
        &mut self,
        rows: &Rows<'_>,
        options: &TrainOptions,
        par: &ParallelOptions,
        hooks: BatchHooks<'_>,
    ) -> Result<TrainReport, Error>;
    /// The model; the voted Perceptron copies its mistaken rows from `rows`
    /// (`releasing` each block of them after use).
    /// With a `team`, `rows` are this process's, and every process calls
    /// this (the voted Perceptron gathers its rows from all of them).
    fn weights(&self, rows: &Rows<'_>, releasing: bool, team: Option<&dyn Team>) -> Result<Weights, Error>;
    fn save(&mut self) -> Vec<u8>;
    /// Restores the state in `bytes`, checked against the `rows` training
    /// rows it continues on.
    fn restore(&mut self, bytes: &[u8], rows: usize) -> Result<(), Error>;
    #[cfg(feature = "together")]
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
    /// This learner and `others` learn together from one pass over `rows`
    /// per pass (in one part, no hooks), member `k` with `labels[k]` (this
    /// learner first); each one's report. `None` if an other is not of this
    /// learner's type, the rows are shards (whose labels are not one slice)
    /// or the `together` feature is off.
    fn learn_together(
        &mut self,
        _others: &mut [&mut (dyn DynLearner + 'static)],
        _rows: &Rows<'_>,
        _labels: &[&[f32]],
        _options: &TrainOptions,
    ) -> Option<Result<Vec<TrainReport>, Error>> {
        None
    }
}

/// A built learner, and for one whose state mixes, its run in parts (the
/// one thing the two kinds do differently; the trainer refuses parts > 1
/// for the others).
pub(crate) struct Built<L> {
    learner: L,
    in_parts: Option<InParts<L>>,
}

type InParts<L> = fn(
    &mut L,
    &Rows<'_>,
    &TrainOptions,
    &ParallelOptions,
    &dyn Team,
    rosenblatt_learners::Hooks<'_, L>,
) -> Result<TrainReport, LearnError>;

pub(crate) fn in_parts<L: Mixable>(
    l: &mut L,
    rows: &Rows<'_>,
    o: &TrainOptions,
    par: &ParallelOptions,
    team: &dyn Team,
    hooks: rosenblatt_learners::Hooks<'_, L>,
) -> Result<TrainReport, LearnError> {
    with_rows!(rows, |e| train_parallel(l, e, o, par, team, hooks))
}

/// `model` as weights that predict on their own (the voted Perceptron's
/// mistaken rows copied from `rows`, `releasing` each block after use).
pub(crate) fn weights_of<E: Examples>(model: AnyModel, rows: &E, releasing: bool) -> Weights {
    match model {
        AnyModel::Linear(m) => Weights::Linear(m),
        AnyModel::Multiclass(m) => Weights::Multiclass(m),
        AnyModel::Voted(v) if releasing => Weights::Voted(v.predictor_releasing(rows)),
        AnyModel::Voted(v) => Weights::Voted(v.predictor(rows)),
    }
}

impl<L> DynLearner for Built<L>
where
    L: OnlineLearner + Resume + Send + 'static,
    L::Model: Into<AnyModel>,
{
    fn learn(
        &mut self,
        rows: &Rows<'_>,
        o: &TrainOptions,
        par: &ParallelOptions,
        hooks: BatchHooks<'_>,
    ) -> Result<TrainReport, Error> {
        let BatchHooks { mut on_pass, progress, team } = hooks;
        let mut each = |l: &L, p: &PassReport| {
            if let Some(f) = on_pass.as_mut() {
                f(p, &|| l.model().into());
            }
        };
        let hooks = rosenblatt_learners::Hooks { on_pass: Some(&mut each), progress };
        Ok(match self.in_parts {
            Some(run) if par.parts > 1 || team.is_some() => {
                run(&mut self.learner, rows, o, par, team.unwrap_or(&OneProcess), hooks)
            }
            _ => with_rows!(rows, |e| train_with(&mut self.learner, e, o, hooks)),
        }?)
    }
    fn weights(&self, rows: &Rows<'_>, releasing: bool, team: Option<&dyn Team>) -> Result<Weights, Error> {
        Ok(match (self.learner.model().into(), team) {
            (AnyModel::Voted(v), Some(team)) => {
                let gathered = with_rows!(rows, |e| crate::cluster::gather_rows(team, e, v.distinct_rows()))?;
                Weights::Voted(v.predictor(&&gathered))
            }
            (model, _) => with_rows!(rows, |e| weights_of(model, e, releasing)),
        })
    }
    fn save(&mut self) -> Vec<u8> {
        state::save(&mut self.learner)
    }
    fn restore(&mut self, bytes: &[u8], rows: usize) -> Result<(), Error> {
        state::restore(&mut self.learner, bytes)?;
        Ok(self.learner.check_rows(rows)?)
    }
    #[cfg(feature = "together")]
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
    #[cfg(feature = "together")]
    fn learn_together(
        &mut self,
        others: &mut [&mut (dyn DynLearner + 'static)],
        rows: &Rows<'_>,
        labels: &[&[f32]],
        o: &TrainOptions,
    ) -> Option<Result<Vec<TrainReport>, Error>> {
        use rosenblatt_learners::Together;
        let mut members = vec![&mut self.learner];
        for other in others.iter_mut() {
            members.push(&mut other.as_any_mut().downcast_mut::<Built<L>>()?.learner);
        }
        let k = members.len();
        let mut together = Together::new(members, labels.to_vec());
        let all = match rows {
            Rows::Csr(c) => train_with(&mut together, c, o, rosenblatt_learners::Hooks::none()),
            Rows::Dense(d) => train_with(&mut together, d, o, rosenblatt_learners::Hooks::none()),
            Rows::View(_) => return None,
        };
        Some(all.map_err(Error::from).map(|all| {
            let member = |m: usize| TrainReport {
                passes: all
                    .passes
                    .iter()
                    .zip(together.passes(m))
                    .map(|(p, (mistakes, updates))| PassReport { mistakes, updates, ..*p })
                    .collect(),
                separated_at: all.separated_at,
            };
            (0..k).map(member).collect()
        }))
    }
}

/// Boxes the built learner.
pub(crate) struct Boxer;

impl Visit for Boxer {
    type Out = Box<dyn DynLearner>;
    fn mixable<L>(self, learner: L) -> Self::Out
    where
        L: Mixable + Resume + 'static,
        L::Model: Into<AnyModel>,
    {
        Box::new(Built { learner, in_parts: Some(in_parts::<L>) })
    }
    fn single<L>(self, learner: L) -> Self::Out
    where
        L: OnlineLearner + Resume + Send + 'static,
        L::Model: Into<AnyModel>,
    {
        Box::new(Built { learner, in_parts: None })
    }
}
