//! The one estimator shape: a checked [`Config`] fits a dataset or
//! borrowed rows into a [`Model`] ([`Fit`]); a model predicts a dataset or
//! rows into [`Prediction`]s, or into the caller's buffer ([`Predict`]).
//! Fitting a dataset is `rosenblatt train` on it, and predicting is
//! `rosenblatt predict`: the same bits.

use crate::config::Config;
use crate::error::Error;
use crate::model::{Model, Prediction};
use crate::online::{Rows, with_rows};
use crate::train::Run;
use rosenblatt_loader::{OpenOptions, with_examples};
use std::path::Path;

/// A converted dataset directory (`rosenblatt convert`), its shards mapped
/// and their checksums verified.
#[derive(Debug)]
pub struct Dataset {
    inner: rosenblatt_loader::Dataset,
}

impl Dataset {
    /// Opens the dataset in `dir`, verifying every shard's checksum.
    pub fn open(dir: impl AsRef<Path>) -> Result<Dataset, Error> {
        Ok(Dataset { inner: rosenblatt_loader::Dataset::open(dir, OpenOptions::VERIFIED)? })
    }
    /// Rows.
    pub fn len(&self) -> usize {
        self.inner.rows() as usize
    }
    /// Whether it holds no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Features.
    pub fn dim(&self) -> usize {
        self.inner.dim() as usize
    }
    /// The loader's dataset, for what the facade does not wrap.
    pub fn as_loader(&self) -> &rosenblatt_loader::Dataset {
        &self.inner
    }
}

impl From<rosenblatt_loader::Dataset> for Dataset {
    fn from(inner: rosenblatt_loader::Dataset) -> Dataset {
        Dataset { inner }
    }
}

/// Training a model on data.
pub trait Fit<D: ?Sized> {
    /// A model trained on `data`.
    fn fit(&self, data: &D) -> Result<Model, Error>;
}

/// Predicting with a model.
pub trait Predict<D: ?Sized> {
    /// One prediction per row of `data` into `out` (its length the rows').
    fn predict_into(&self, data: &D, out: &mut [Prediction]) -> Result<(), Error>;
    /// One prediction per row of `data`.
    fn predict(&self, data: &D) -> Result<Vec<Prediction>, Error>;
}

impl Fit<Dataset> for Config {
    /// `rosenblatt train` on `data`: the same model, bit for bit.
    fn fit(&self, data: &Dataset) -> Result<Model, Error> {
        self.fit_run(&data.inner, Run::default())
    }
}

impl Fit<rosenblatt_loader::Dataset> for Config {
    /// As for the facade's [`Dataset`].
    fn fit(&self, data: &rosenblatt_loader::Dataset) -> Result<Model, Error> {
        self.fit_run(data, Run::default())
    }
}

impl Fit<Rows<'_>> for Config {
    /// The rows as one batch of [`Config::passes`] passes; binary
    /// learners take labels ±1, the others class ids `0..k` (`k` one past
    /// the largest).
    fn fit(&self, rows: &Rows<'_>) -> Result<Model, Error> {
        self.check()?;
        let labels = with_rows!(rows, |e| (0..rosenblatt_kernels::Examples::len(e))
            .map(|i| rosenblatt_kernels::Examples::label(e, i))
            .collect::<Vec<f32>>());
        let binary = labels.iter().all(|&y| y == 1.0 || y == -1.0);
        let learner = self.learner();
        let classes = if learner.multiclass() || (!binary && learner.any_labels()) {
            let top = labels.iter().copied().fold(0.0f32, f32::max);
            crate::config::Labels::Classes((0..=top as usize).map(|k| k as f64).collect())
        } else {
            crate::config::Labels::Binary
        };
        let mut t = self.trainer(rows.dim(), classes)?;
        self.on_threads(|| {
            t.learn_passes(rows, self.passes_planned())?;
            t.model()
        })
    }
}

impl Predict<Dataset> for Model {
    fn predict_into(&self, data: &Dataset, out: &mut [Prediction]) -> Result<(), Error> {
        if out.len() != data.len() {
            return Err(Error::Input(format!("{} predictions for {} rows", out.len(), data.len())));
        }
        if data.is_empty() {
            return Ok(());
        }
        let view = data.inner.examples()?;
        with_examples!(&view, |e| self.weights.predictions_into(&self.meta.classes, e, out))
    }
    fn predict(&self, data: &Dataset) -> Result<Vec<Prediction>, Error> {
        let mut out = vec![Prediction::default(); data.len()];
        self.predict_into(data, &mut out)?;
        Ok(out)
    }
}

impl Predict<Rows<'_>> for Model {
    fn predict_into(&self, rows: &Rows<'_>, out: &mut [Prediction]) -> Result<(), Error> {
        if out.len() != rows.len() {
            return Err(Error::Input(format!("{} predictions for {} rows", out.len(), rows.len())));
        }
        with_rows!(rows, |e| self.weights.predictions_into(&self.meta.classes, e, out))
    }
    fn predict(&self, rows: &Rows<'_>) -> Result<Vec<Prediction>, Error> {
        let mut out = vec![Prediction::default(); rows.len()];
        self.predict_into(rows, &mut out)?;
        Ok(out)
    }
}
