//! Several trainers or models over one batch: predictions into the
//! caller's buffers, every model's margins with each row read once, and
//! one-vs-rest trainers learning together from one read of each row.

use super::*;

/// The label and score of every row of `rows` under `weights` (outputs
/// `classes`) into `labels` and `scores`.
pub fn predict_into(
    weights: &Weights,
    classes: &[f64],
    rows: &Rows<'_>,
    labels: &mut [f32],
    scores: &mut [f32],
) -> Result<(), Error> {
    let n = rows.len();
    if labels.len() != n || scores.len() != n {
        return Err(Error::Input(format!("{} labels and {} scores for {n} rows", labels.len(), scores.len())));
    }
    let mut p = vec![crate::model::Prediction::default(); n];
    with_rows!(rows, |e| weights.predictions_into(classes, e, &mut p))?;
    for ((l, s), p) in labels.iter_mut().zip(scores.iter_mut()).zip(&p) {
        (*l, *s) = (p.label, p.score);
    }
    Ok(())
}

/// Rows per block of [`margins_into`].
const MARGIN_BLOCK: usize = 4096;

/// The margin `w·x + b` of every row of `rows` under each of `models`, row
/// by row into `out` (`out[i·k + c]` for model `c` of `k`): each row read
/// once for all the models (one-vs-rest's classes), each margin the bits
/// that model alone scores ([`Weights::Linear`]); features beyond a
/// model's dimension get weight 0. In blocks of rows over the current rayon
/// pool (one block on this thread).
pub fn margins_into(models: &[&LinearModel], rows: &Rows<'_>, out: &mut [f32]) -> Result<(), Error> {
    use rayon::prelude::*;
    let (n, k) = (rows.len(), models.len());
    if out.len() != n * k {
        return Err(Error::Input(format!("{} outputs for {n} rows and {k} models", out.len())));
    }
    if k == 0 {
        return Ok(());
    }
    let d = rows.dim();
    let padded: Vec<std::borrow::Cow<'_, LinearModel>> = models
        .iter()
        .map(|&m| {
            if d > m.weights.len() {
                let mut p = m.clone();
                p.weights.resize(d, 0.0);
                std::borrow::Cow::Owned(p)
            } else {
                std::borrow::Cow::Borrowed(m)
            }
        })
        .collect();
    with_rows!(rows, |e| {
        let score = |b: usize, chunk: &mut [f32]| {
            for (r, o) in chunk.chunks_mut(k).enumerate() {
                let x = e.row(b * MARGIN_BLOCK + r);
                o.iter_mut().zip(&padded).for_each(|(o, m)| *o = m.margin(&x));
            }
        };
        if n <= MARGIN_BLOCK {
            score(0, out);
        } else {
            out.par_chunks_mut(MARGIN_BLOCK * k).enumerate().for_each(|(b, chunk)| score(b, chunk));
        }
    });
    Ok(())
}

/// Trainers that learn from the same rows, trainer `k` from `rows[k]` (the
/// same rows, each with its own labels: one trainer per class, one-vs-rest),
/// each for `passes` passes, bit for bit as [`Trainer::learn`] one after
/// another would leave them. Binary learners of one kind, options and batch
/// count, in one part, over the same borrowed CSR or dense rows, learn
/// together when the `together` feature is on: each pass reads every row
/// once for all of them ([`rosenblatt_learners::Together`]) instead of once
/// per trainer. Others learn one after another. Returns each trainer's
/// report.
pub fn learn_together(
    trainers: &mut [&mut Trainer],
    rows: &[Rows<'_>],
    passes: f64,
) -> Result<Vec<TrainReport>, Error> {
    if rows.len() != trainers.len() {
        return Err(Error::Input(format!("{} batches for {} trainers", rows.len(), trainers.len())));
    }
    let Some((first, _)) = trainers.split_first() else { return Ok(Vec::new()) };
    let alike = |t: &Trainer| {
        (t.learner, t.options, t.training.batches) == (first.learner, first.options, first.training.batches)
    };
    let together = trainers.len() > 1
        && first.options.parts == 1
        && !first.learner.multiclass()
        && !first.learner.stops_when_separated()
        && trainers.iter().all(|t| alike(t))
        && rows.iter().all(|r| r.labels().is_some() && r.same_rows(&rows[0]));
    if !together {
        return trainers.iter_mut().zip(rows).map(|(t, r)| t.learn_passes(r, passes)).collect();
    }
    let options = trainers.iter_mut().zip(rows).map(|(t, r)| t.prepare(r, passes)).collect::<Result<Vec<_>, _>>()?;
    let labels: Vec<&[f32]> = rows.iter().filter_map(Rows::labels).collect();
    // Every trainer is configured now (`prepare`).
    let unconfigured = || Error::Input("the trainer is not configured".into());
    let mut learners = trainers
        .iter_mut()
        .map(|t| t.inner.as_mut().map(|i| &mut *i.learner).ok_or_else(unconfigured))
        .collect::<Result<Vec<&mut (dyn DynLearner + 'static)>, _>>()?;
    let (learner, others) = learners.split_first_mut().expect("more than one trainer");
    let reports = match learner.learn_together(others, &rows[0], &labels, &options[0]) {
        Some(reports) => reports?,
        // Not one learner type after all: one after another.
        None => {
            let runs = trainers.iter_mut().zip(rows).zip(&options);
            return runs.map(|((t, r), o)| t.run(r, o, BatchHooks::default())).collect();
        }
    };
    trainers.iter_mut().zip(rows).zip(reports).map(|((t, r), report)| t.record(r, &options[0], report, None)).collect()
}
