//! Evaluating a saved model on a dataset: error rate, confusion matrix,
//! per-class precision, recall and F1, and for linear (scoring) models the
//! log loss of σ(margin) and the ROC AUC.

use crate::compat::Expect;
use crate::error::Error;
use crate::model::{Model, Prediction, Weights};
use rosenblatt_learners::Loss;
use rosenblatt_loader::{Dataset, ExamplesView};
use std::path::Path;

/// The metrics.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Evaluation {
    /// Examples evaluated.
    pub examples: usize,
    /// Fraction misclassified.
    pub error_rate: f64,
    /// The classes, in the order of the matrix rows and columns.
    pub classes: Vec<f64>,
    /// `confusion[true][predicted]`.
    pub confusion: Vec<Vec<u64>>,
    /// Per class.
    pub precision: Vec<f64>,
    /// Per class.
    pub recall: Vec<f64>,
    /// Per class.
    pub f1: Vec<f64>,
    /// Mean `ln(1 + e^(−y·m))` (linear models; not voted ones).
    pub log_loss: Option<f64>,
    /// Area under the ROC curve of the margins or votes (binary models).
    pub roc_auc: Option<f64>,
    /// The data has features beyond the model's dimension (given weight 0).
    pub features_beyond_model: bool,
    /// What the data's meeting with the model called for saying
    /// ([`Expect::meet`]).
    pub notes: Vec<String>,
}

/// ROC AUC from scores and ±1 labels: the probability that a random
/// positive scores above a random negative (ties count one half).
pub fn roc_auc(scores: &[f32], labels: &[f32]) -> Option<f64> {
    let mut idx: Vec<usize> = (0..scores.len()).collect();
    idx.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
    let (mut rank_sum, mut pos) = (0.0f64, 0u64);
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && scores[idx[j + 1]] == scores[idx[i]] {
            j += 1;
        }
        let avg_rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            if labels[k] > 0.0 {
                rank_sum += avg_rank;
                pos += 1;
            }
        }
        i = j + 1;
    }
    let neg = scores.len() as u64 - pos;
    if pos == 0 || neg == 0 {
        return None;
    }
    let (p, n) = (pos as f64, neg as f64);
    Some((rank_sum - p * (p + 1.0) / 2.0) / (p * n))
}

fn per_class(confusion: &[Vec<u64>]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let k = confusion.len();
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let mut out = (Vec::new(), Vec::new(), Vec::new());
    for (c, row) in confusion.iter().enumerate() {
        let tp = row[c];
        let predicted: u64 = (0..k).map(|t| confusion[t][c]).sum();
        let actual: u64 = row.iter().sum();
        let (p, r) = (ratio(tp, predicted), ratio(tp, actual));
        out.0.push(p);
        out.1.push(r);
        out.2.push(if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) });
    }
    out
}

/// Evaluates `model` on `data`, after checking that they belong together
/// ([`Expect::meet`]): the notes come back in the evaluation.
pub fn evaluate_dataset(model: &Model, model_path: &Path, data: &Dataset) -> Result<Evaluation, Error> {
    let notes = Expect::model(model_path, &model.meta).meet(data.dir(), data.manifest())?;
    let mut e = evaluate(model, &data.examples()?)?;
    e.notes = notes;
    Ok(e)
}

/// [`evaluate_dataset`] by the processes of `team`, each holding its share
/// of the rows (`data` opened with
/// [`crate::cluster::rows_of`]`(rank, size, size, rows)`): each predicts its
/// own rows, and every process gets the evaluation of all of them, in
/// input order — the one process's figures, bit for bit.
pub fn evaluate_dataset_over(
    model: &Model,
    model_path: &Path,
    data: &Dataset,
    team: &dyn rosenblatt_learners::Team,
) -> Result<Evaluation, Error> {
    let notes = Expect::model(model_path, &model.meta).meet(data.dir(), data.manifest())?;
    let (labels, predictions): (Vec<f32>, Vec<Prediction>) =
        crate::cluster::labelled_over(team, model, data)?.into_iter().unzip();
    let mut e = metrics(model, &labels, &predictions, data.dim() as usize)?;
    e.notes = notes;
    Ok(e)
}

/// Evaluates `model` on `data`.
pub fn evaluate(model: &Model, data: &ExamplesView<'_>) -> Result<Evaluation, Error> {
    let labels = data.labels();
    if let Some(e) = check_labels(model, &labels) {
        return Err(e);
    }
    metrics(model, &labels, &model.predictions(data)?, data.dim())
}

/// Refuses labels that are not the model's classes.
fn check_labels(model: &Model, labels: &[f32]) -> Option<Error> {
    let classes = &model.meta.classes;
    let i = labels.iter().position(|&l| !classes.contains(&f64::from(l)))?;
    let what =
        if *classes == [-1.0, 1.0] { "±1 labels".to_string() } else { format!("class ids 0..{}", classes.len() - 1) };
    Some(Error::Input(format!(
        "the model was trained for {what}, but example {i} has label {} (another task?)",
        labels[i]
    )))
}

/// The evaluation of `predictions` against `labels` (rows of dimension
/// `data_dim`).
fn metrics(model: &Model, labels: &[f32], predictions: &[Prediction], data_dim: usize) -> Result<Evaluation, Error> {
    if let Some(e) = check_labels(model, labels) {
        return Err(e);
    }
    let dim = model.meta.dim as usize;
    let beyond = data_dim > dim;
    let classes = model.meta.classes.clone();
    let n = labels.len();
    let k = classes.len();
    let class_of = |l: f32| classes.iter().position(|&c| c == f64::from(l));
    let mut confusion = vec![vec![0u64; k]; k];
    for (p, &y) in predictions.iter().zip(labels) {
        let predicted = class_of(p.label).expect("a prediction names one of the model's classes");
        confusion[class_of(y).expect("checked above")][predicted] += 1;
    }
    let right: u64 = (0..k).map(|c| confusion[c][c]).sum();
    let (precision, recall, f1) = per_class(&confusion);
    // One score per row only for binary models (a multi-class row's is
    // its winning class's).
    let scoring = model.meta.classes == [-1.0, 1.0];
    let scores: Vec<f32> = predictions.iter().map(|p| p.score).collect();
    // σ(margin) is a probability model; σ(vote) is not.
    let log_loss = matches!(model.weights, Weights::Linear(_)).then(|| {
        scores.iter().zip(labels).map(|(&m, &y)| Loss::Logistic.value(f64::from(y) * f64::from(m))).sum::<f64>()
            / n.max(1) as f64
    });
    Ok(Evaluation {
        examples: n,
        error_rate: if n == 0 { 0.0 } else { (n as u64 - right) as f64 / n as f64 },
        classes,
        confusion,
        precision,
        recall,
        f1,
        log_loss,
        roc_auc: if scoring { roc_auc(&scores, labels) } else { None },
        features_beyond_model: beyond,
        notes: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auc_is_the_probability_a_positive_outranks_a_negative() {
        assert_eq!(roc_auc(&[0.1, 0.2, 0.3, 0.4], &[-1.0, -1.0, 1.0, 1.0]), Some(1.0));
        assert_eq!(roc_auc(&[0.4, 0.3, 0.2, 0.1], &[-1.0, -1.0, 1.0, 1.0]), Some(0.0));
        assert_eq!(roc_auc(&[0.5, 0.5, 0.5, 0.5], &[-1.0, 1.0, -1.0, 1.0]), Some(0.5));
        // One positive above one of two negatives, tied with the other: (1 + 0.5)/2.
        assert_eq!(roc_auc(&[0.1, 0.3, 0.3], &[-1.0, -1.0, 1.0]), Some(0.75));
        assert_eq!(roc_auc(&[0.1], &[1.0]), None);
    }

    #[test]
    fn precision_recall_f1_from_a_confusion_matrix() {
        let (p, r, f) = per_class(&[vec![5, 1], vec![2, 2]]);
        assert_eq!((p[1], r[1]), (2.0 / 3.0, 0.5));
        assert!((f[1] - 2.0 * (2.0 / 3.0) * 0.5 / (2.0 / 3.0 + 0.5)).abs() < 1e-12);
        assert_eq!(p[0], 5.0 / 7.0);
    }
}
