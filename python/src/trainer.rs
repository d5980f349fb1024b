//! `rosenblatt._native.Trainer`: the engine's online trainer for Python —
//! batches learned from and rows predicted in place, with the GIL released.

use crate::{Batch, CHECK_BLOCK, Predicted, PyDataset, csr, dense, err, released};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rosenblatt::learners::{Learner, Order, Param};
use rosenblatt::model::{Model, Weights};
use rosenblatt::online::{Rows, Trainer, TrainerOptions};
use rosenblatt::{Config, Error, Labels};
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

/// A learner and its state, fed batch by batch (`rosenblatt::online::Trainer`).
/// Not shared between threads at once: a call waits for the one before.
#[pyclass(module = "rosenblatt._native", name = "Trainer")]
pub(crate) struct PyTrainer {
    t: Mutex<Trainer>,
}

impl PyTrainer {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Trainer> {
        self.t.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Checks the rows `rows` makes (`entries` stored values) and learns
    /// from them for `passes` passes, with the GIL released: on the pool
    /// for `n_jobs`, or on this thread when the pool has nothing to do — one
    /// part (no copies to train at once) and a batch the check reads as one
    /// block. Handing a mini-batch to a pool worker and back cost more than
    /// learning from it (SPEED.md#the-python-path); the model is the same either way.
    fn learn<'a>(
        &self,
        py: Python<'_>,
        rows: impl FnOnce() -> Result<Rows<'a>, Error> + Send,
        entries: usize,
        passes: f64,
        n_jobs: usize,
    ) -> PyResult<usize> {
        let learn = || self.lock().learn_passes(&rows()?, passes).map(|r| r.passes.len());
        let here = entries <= CHECK_BLOCK && self.lock().parts() == 1;
        released(py, here, n_jobs, learn)
    }

    /// Checks the `n` rows `rows` makes (`entries` stored values) and
    /// predicts them, likewise: on this thread when neither the check nor
    /// the scoring would use the pool (one block each).
    fn predict<'py, 'a>(
        &self,
        py: Python<'py>,
        n: usize,
        rows: impl FnOnce() -> Result<Rows<'a>, Error> + Send,
        entries: usize,
        n_jobs: usize,
    ) -> PyResult<Predicted<'py>> {
        let (mut labels, mut scores) = (vec![0.0f32; n], vec![0.0f32; n]);
        let predict = || self.lock().predict_into(&rows()?, &mut labels, &mut scores);
        let here = entries <= CHECK_BLOCK && self.lock().weights().is_some_and(|w| w.predicts_on_this_thread(n));
        released(py, here, n_jobs, predict)?;
        Ok((PyArray1::from_vec(py, labels), PyArray1::from_vec(py, scores)))
    }
}

#[pymethods]
impl PyTrainer {
    /// `Trainer(learner, params, dim, classes, seed, shuffle, parts)`:
    /// binary learners take labels ±1 (`classes` = 2), multi-class ones
    /// class indices `0..classes`.
    #[new]
    #[pyo3(signature = (learner, params, dim, classes, seed, shuffle=true, parts=1))]
    fn new(
        learner: &str,
        params: HashMap<String, f64>,
        dim: usize,
        classes: usize,
        seed: u64,
        shuffle: bool,
        parts: usize,
    ) -> PyResult<Self> {
        let learner = Learner::from_name(learner).map_err(err)?;
        let mut config = Config::new(learner);
        for (name, v) in params {
            let p = Param::from_name(&name).ok_or_else(|| {
                err(format!("unknown hyper-parameter {name:?}; known: {}", Param::ALL.map(Param::name).join(", ")))
            })?;
            config = config.param(p, v);
        }
        // The engine's shuffle: random at the scale that matters for
        // learning, read in runs (`Order::Chunks`, `train`'s default).
        let order = if shuffle { Order::Chunks } else { Order::Sequential };
        let labels = Labels::of(learner, classes);
        let config = config.seed(seed).order(order).parts(parts);
        let t = config.trainer(dim, labels).map_err(err)?;
        Ok(PyTrainer { t: Mutex::new(t) })
    }

    /// A trainer that continues the model in `data` (a model file's
    /// bytes): it predicts at once and learns on from the saved state.
    #[staticmethod]
    fn from_model_bytes(data: &[u8]) -> PyResult<Self> {
        let m = Model::decode(std::path::Path::new("<bytes>"), data).map_err(err)?;
        let order = m.meta.training.order;
        let options = TrainerOptions { order, parts: m.meta.training.parts.max(1), ..TrainerOptions::default() };
        let t = Trainer::resume_with(&m, options).map_err(err)?;
        Ok(PyTrainer { t: Mutex::new(t) })
    }

    /// Learns from a CSR batch for `passes` passes, rows weighing
    /// `weights` if given; returns the passes run.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (indptr, indices, values, labels, passes, n_jobs=0, weights=None))]
    fn learn_csr(
        &self,
        py: Python<'_>,
        indptr: PyReadonlyArray1<'_, u64>,
        indices: PyReadonlyArray1<'_, u32>,
        values: PyReadonlyArray1<'_, f32>,
        labels: PyReadonlyArray1<'_, f32>,
        passes: f64,
        n_jobs: usize,
        weights: Option<PyReadonlyArray1<'_, f32>>,
    ) -> PyResult<usize> {
        let dim = self.lock().dim();
        let labels = labels.as_slice().map_err(err)?;
        let weights = weights.as_ref().map(|w| w.as_slice().map_err(err)).transpose()?;
        let entries = values.len();
        self.learn(py, csr(dim, &indptr, &indices, &values, Some(labels), weights)?, entries, passes, n_jobs)
    }

    /// Learns from a C-ordered float32 batch.
    #[pyo3(signature = (x, labels, passes, n_jobs=0, weights=None))]
    fn learn_dense(
        &self,
        py: Python<'_>,
        x: PyReadonlyArray2<'_, f32>,
        labels: PyReadonlyArray1<'_, f32>,
        passes: f64,
        n_jobs: usize,
        weights: Option<PyReadonlyArray1<'_, f32>>,
    ) -> PyResult<usize> {
        let labels = labels.as_slice().map_err(err)?;
        let weights = weights.as_ref().map(|w| w.as_slice().map_err(err)).transpose()?;
        let entries = x.len();
        self.learn(py, dense(&x, Some(labels), weights)?, entries, passes, n_jobs)
    }

    /// Learns from a converted dataset's shards, their own labels (one-vs-rest
    /// trainers go through `learn_each`).
    #[pyo3(signature = (dataset, passes, n_jobs=0))]
    fn learn_dataset(&self, py: Python<'_>, dataset: &PyDataset, passes: f64, n_jobs: usize) -> PyResult<usize> {
        let view = dataset.ds.examples().map_err(err)?;
        self.learn(py, || Ok(Rows::View(view)), usize::MAX, passes, n_jobs)
    }

    /// (labels, scores) of a CSR matrix's rows: labels ±1 or class
    /// indices; scores the margin, the vote, or the winning class's score.
    #[pyo3(signature = (indptr, indices, values, dim, n_jobs=0))]
    fn predict_csr<'py>(
        &self,
        py: Python<'py>,
        indptr: PyReadonlyArray1<'_, u64>,
        indices: PyReadonlyArray1<'_, u32>,
        values: PyReadonlyArray1<'_, f32>,
        dim: usize,
        n_jobs: usize,
    ) -> PyResult<Predicted<'py>> {
        let (n, entries) = (indptr.len().saturating_sub(1), values.len());
        self.predict(py, n, csr(dim, &indptr, &indices, &values, None, None)?, entries, n_jobs)
    }

    /// (labels, scores) of a C-ordered float32 array's rows.
    #[pyo3(signature = (x, n_jobs=0))]
    fn predict_dense<'py>(
        &self,
        py: Python<'py>,
        x: PyReadonlyArray2<'_, f32>,
        n_jobs: usize,
    ) -> PyResult<Predicted<'py>> {
        let (n, entries) = (x.shape()[0], x.len());
        self.predict(py, n, dense(&x, None, None)?, entries, n_jobs)
    }

    /// (labels, scores) of a dataset's rows.
    #[pyo3(signature = (dataset, n_jobs=0))]
    fn predict_dataset<'py>(&self, py: Python<'py>, dataset: &PyDataset, n_jobs: usize) -> PyResult<Predicted<'py>> {
        let view = dataset.ds.examples().map_err(err)?;
        self.predict(py, view.len(), || Ok(Rows::View(view)), usize::MAX, n_jobs)
    }

    /// Every output's score for every row, `(rows, outputs)`: a score per
    /// class for a multi-class or kernel model (`batch` as `scores_each`
    /// takes it).
    #[pyo3(signature = (batch, dim, n_jobs=0))]
    fn outputs<'py>(
        &self,
        py: Python<'py>,
        batch: Batch<'_>,
        dim: usize,
        n_jobs: usize,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let n = batch.len()?;
        let (rows, _) = batch.rows(dim)?;
        let c = self.lock().outputs();
        let job = || -> Result<Vec<f32>, Error> {
            let mut out = vec![0.0f32; n * c];
            self.lock().outputs_into(&rows()?, &mut out)?;
            Ok(out)
        };
        let out = released(py, false, n_jobs, job)?;
        PyArray1::from_vec(py, out).reshape([n, c])
    }

    /// The model file's bytes, the learner's state included.
    fn model_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let m = self.lock().model().map_err(err)?;
        Ok(PyBytes::new(py, &m.to_bytes()))
    }

    /// `(coef, intercept)`: `(1, dim)` and `(1,)` for a linear model,
    /// `(classes, dim)` and `(classes,)` for a multi-class one; `None` for
    /// the voted Perceptron, whose model is a vote over many vectors.
    #[allow(clippy::type_complexity)]
    fn coef<'py>(&self, py: Python<'py>) -> PyResult<Option<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f32>>)>> {
        let t = self.lock();
        let (w, b, rows) = match t.weights() {
            Some(Weights::Linear(l)) => (l.weights.clone(), vec![l.bias], 1),
            Some(Weights::Multiclass(mc)) => (mc.weights.clone(), mc.bias.clone(), mc.bias.len()),
            Some(Weights::Voted(_) | Weights::Kernel(_)) => return Ok(None),
            None => return Err(err("the trainer has learned from no batch yet")),
        };
        drop(t);
        let dim = w.len() / rows.max(1);
        let w = PyArray1::from_vec(py, w).reshape([rows, dim])?;
        Ok(Some((w, PyArray1::from_vec(py, b))))
    }

    /// How each data-derived default was chosen.
    fn notes(&self) -> Vec<String> {
        self.lock().notes().to_vec()
    }

    /// The hyper-parameters in use, defaults included (after a batch).
    fn params(&self) -> PyResult<HashMap<String, f64>> {
        Ok(self.lock().model().map_err(err)?.meta.params.into_iter().collect())
    }

    /// Passes run over all batches.
    fn passes_run(&self) -> PyResult<usize> {
        Ok(self.lock().model().map_err(err)?.meta.training.passes_run)
    }

    /// The dimension.
    #[getter]
    fn dim(&self) -> usize {
        self.lock().dim()
    }
}
