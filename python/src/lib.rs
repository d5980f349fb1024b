//! `rosenblatt._native`: the engine's online trainer, models and LIBSVM
//! parser for Python. The estimator (`rosenblatt.RosenblattClassifier`) is
//! Python code over this module; everything here takes NumPy arrays as
//! they are (float32 values, uint32 indices, uint64 row pointers — the
//! Python side converts anything else once), reads them in place, and
//! releases the GIL while it trains, predicts or parses.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rosenblatt::Error;
use rosenblatt::learners::{HyperParams, Learner, LinearModel, Order, Param};
use rosenblatt::loader::{Dataset, OpenOptions};
use rosenblatt::model::{SavedModel, Weights};
use rosenblatt::online::{
    CHECK_BLOCK, CsrRows, DenseRows, Rows, Trainer, TrainerOptions, learn_together, margins_into,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// `(labels, scores)`, one each per row.
type Predicted<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<f32>>);

/// The Python exception for an error of the engine: what Python's own
/// functions raise for the same failure — `FileNotFoundError`,
/// `PermissionError` and the rest of `OSError` (errno, message, file name)
/// for a file that cannot be read or written, `MemoryError` for a learner's
/// state too large for the machine — and `ValueError` for the rest.
fn err(e: impl std::fmt::Display + 'static) -> PyErr {
    use rosenblatt::learners::LearnError;
    use rosenblatt::loader::LoadError;
    let any: &dyn std::any::Any = &e;
    let (load, learn) = match any.downcast_ref::<Error>() {
        Some(Error::Load(l)) => (Some(l), None),
        Some(Error::Learn(l)) => (None, Some(l)),
        _ => (any.downcast_ref::<LoadError>(), any.downcast_ref::<LearnError>()),
    };
    if let Some(LoadError::Io { path, source }) = load
        && let Some(code) = source.raw_os_error()
    {
        // OSError(errno, strerror, filename) is made as the subclass the
        // errno names, as Python's `open` makes it.
        let text = source.to_string();
        let strerror = text.split(" (os error").next().unwrap_or(&text).to_owned();
        return pyo3::exceptions::PyOSError::new_err((code, strerror, path.to_string_lossy().into_owned()));
    }
    if let Some(LearnError::TooLarge { .. }) = learn {
        return pyo3::exceptions::PyMemoryError::new_err(e.to_string());
    }
    PyValueError::new_err(e.to_string())
}

/// The thread pool for `n` threads (0: one per core), one per process:
/// a pool made before a `fork` has no threads in the child, so a child
/// makes its own (and leaves the parent's alone: dropping it would wait
/// for threads that do not exist there).
fn pool(n: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    type Pools = (u32, HashMap<usize, Arc<rayon::ThreadPool>>);
    static POOLS: Mutex<Option<Pools>> = Mutex::new(None);
    let mut guard = POOLS.lock().unwrap_or_else(|p| p.into_inner());
    let pid = std::process::id();
    if guard.as_ref().is_some_and(|(p, _)| *p != pid) {
        std::mem::forget(guard.take());
    }
    let (_, pools) = guard.get_or_insert_with(|| (pid, HashMap::new()));
    if let Some(p) = pools.get(&n) {
        return Ok(p.clone());
    }
    let p = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(err)?);
    pools.insert(n, p.clone());
    Ok(p)
}

/// Runs `job` with the GIL released: on this thread when `here` (the pool
/// would have nothing to do), else on the pool for `n_jobs`.
fn released<T: Send>(
    py: Python<'_>,
    here: bool,
    n_jobs: usize,
    job: impl FnOnce() -> Result<T, Error> + Send,
) -> PyResult<T> {
    if here {
        return py.detach(job).map_err(err);
    }
    let pool = pool(n_jobs)?;
    py.detach(|| pool.install(job)).map_err(err)
}

/// A CSR matrix's arrays as rows of dimension `dim`, checked when called
/// (inside the pool, with the GIL released: the check reads every entry).
fn csr<'a>(
    dim: usize,
    indptr: &'a PyReadonlyArray1<'_, u64>,
    indices: &'a PyReadonlyArray1<'_, u32>,
    values: &'a PyReadonlyArray1<'_, f32>,
    labels: Option<&'a [f32]>,
) -> PyResult<impl FnOnce() -> Result<Rows<'a>, Error> + Send> {
    let (p, i, v) =
        (indptr.as_slice().map_err(err)?, indices.as_slice().map_err(err)?, values.as_slice().map_err(err)?);
    Ok(move || CsrRows::try_new(dim, p, i, v, labels).map(Rows::Csr))
}

/// A C-ordered 2-D float32 array as rows, checked when called.
fn dense<'a>(
    x: &'a PyReadonlyArray2<'_, f32>,
    labels: Option<&'a [f32]>,
) -> PyResult<impl FnOnce() -> Result<Rows<'a>, Error> + Send> {
    let shape = x.shape();
    let (n, d) = (shape[0], shape[1]);
    let values = x.as_slice().map_err(|_| err("the array is not C-contiguous"))?;
    Ok(move || DenseRows::try_new(n, d, values, labels).map(Rows::Dense))
}

/// The rows of a batch as the Python side hands them over: a CSR matrix's
/// `(indptr, indices, values)`, a C-ordered float32 array, or a dataset.
#[derive(FromPyObject)]
enum Batch<'py> {
    Csr(PyReadonlyArray1<'py, u64>, PyReadonlyArray1<'py, u32>, PyReadonlyArray1<'py, f32>),
    Dense(PyReadonlyArray2<'py, f32>),
    Dataset(PyRef<'py, PyDataset>),
}

/// Makes (and checks, when called) a batch's rows.
type MakeRows<'a> = Box<dyn FnOnce() -> Result<Rows<'a>, Error> + Send + 'a>;

impl Batch<'_> {
    /// The rows, of dimension `dim` for CSR, unlabelled (a dataset's keep
    /// their own labels); and how many values their check reads
    /// (`usize::MAX` for a dataset: it always goes to the pool).
    fn rows(&self, dim: usize) -> PyResult<(MakeRows<'_>, usize)> {
        Ok(match self {
            Batch::Csr(p, i, v) => (Box::new(csr(dim, p, i, v, None)?), v.len()),
            Batch::Dense(x) => (Box::new(dense(x, None)?), x.len()),
            Batch::Dataset(d) => {
                let view = d.ds.examples().map_err(err)?;
                (Box::new(move || Ok(Rows::View(view))), usize::MAX)
            }
        })
    }
}

/// Refuses a list that holds one trainer twice: each is locked once for
/// the whole call.
fn distinct(trainers: &[PyRef<'_, PyTrainer>]) -> PyResult<()> {
    let mut at: Vec<*const PyTrainer> = trainers.iter().map(|t| &**t as *const PyTrainer).collect();
    at.sort_unstable();
    if at.windows(2).any(|w| w[0] == w[1]) {
        return Err(err("the same trainer is given twice"));
    }
    Ok(())
}

/// With the GIL released, runs `prepare` once, then `f` once per trainer:
/// on this thread, one trainer after the other, when `here`; else on the
/// pool for `n_jobs`, the trainers in parallel. Each trainer's result is
/// the same either way.
fn each<'p, P: Sync, T: Send>(
    py: Python<'_>,
    trainers: &[PyRef<'_, PyTrainer>],
    here: bool,
    n_jobs: usize,
    prepare: impl FnOnce() -> Result<P, Error> + Send + 'p,
    f: impl Fn(&P, usize, &mut Trainer) -> Result<T, Error> + Sync,
) -> PyResult<Vec<T>> {
    use rayon::prelude::*;
    let ts: Vec<&PyTrainer> = trainers.iter().map(|t| &**t).collect();
    let job = || -> Result<Vec<T>, Error> {
        let p = prepare()?;
        let run = |k: usize| f(&p, k, &mut ts[k].lock());
        if here { (0..ts.len()).map(run).collect() } else { (0..ts.len()).into_par_iter().map(run).collect() }
    };
    released(py, here, n_jobs, job)
}

/// One-vs-rest training: every trainer learns from the same rows of
/// `batch`, trainer `k` with `labels[k]`, for `passes` passes. The rows and
/// the label counts are checked once, before any trainer learns. The
/// trainers are cut into one group per thread of the pool for `n_jobs` (one
/// group, on this thread, when the check is one block and no trainer trains
/// in parts); the groups learn in parallel, and the trainers of a group
/// together, each pass reading the rows once for all of them
/// (`online::learn_together`). Each ends as it would learning alone.
/// Returns each trainer's passes run.
#[pyfunction]
#[pyo3(signature = (trainers, batch, labels, passes, n_jobs=0))]
fn learn_each(
    py: Python<'_>,
    trainers: Vec<PyRef<'_, PyTrainer>>,
    batch: Batch<'_>,
    labels: Vec<PyReadonlyArray1<'_, f32>>,
    passes: f64,
    n_jobs: usize,
) -> PyResult<Vec<usize>> {
    use rayon::prelude::*;
    distinct(&trainers)?;
    if trainers.is_empty() || labels.len() != trainers.len() {
        return Err(err(format!("{} label arrays for {} trainers", labels.len(), trainers.len())));
    }
    let labels = labels.iter().map(|l| l.as_slice().map_err(err)).collect::<PyResult<Vec<&[f32]>>>()?;
    let (rows, entries) = batch.rows(trainers[0].lock().dim())?;
    let here = entries <= CHECK_BLOCK && trainers.iter().all(|t| t.lock().parts() == 1);
    let ts: Vec<&PyTrainer> = trainers.iter().map(|t| &**t).collect();
    let job = || -> Result<Vec<usize>, Error> {
        let rows = rows()?;
        let batches = labels.iter().map(|l| rows.with_labels(l)).collect::<Result<Vec<_>, _>>()?;
        let per = if here { ts.len() } else { ts.len().div_ceil(rayon::current_num_threads()) };
        let group = |(ts, batches): (&[&PyTrainer], &[Rows<'_>])| {
            let mut locked: Vec<_> = ts.iter().map(|t| t.lock()).collect();
            let mut group: Vec<&mut Trainer> = locked.iter_mut().map(|t| &mut **t).collect();
            let reports = learn_together(&mut group, batches, passes)?;
            Ok::<_, Error>(reports.iter().map(|r| r.passes.len()).collect::<Vec<_>>())
        };
        let runs: Vec<Vec<usize>> = if here {
            ts.chunks(per).zip(batches.chunks(per)).map(group).collect::<Result<_, _>>()?
        } else {
            ts.par_chunks(per).zip(batches.par_chunks(per)).map(group).collect::<Result<_, _>>()?
        };
        Ok(runs.concat())
    };
    released(py, here, n_jobs, job)
}

/// Every trainer's scores of the rows of `batch` (`dim` features), as
/// [`PyTrainer::predict_csr`] and its kin give them, as an `(n, k)` array:
/// the rows are checked once; linear models score together, each row read
/// once for all of them (`online::margins_into`), others one trainer at a
/// time; on the pool for `n_jobs` (on this thread when neither the check
/// nor any scoring would use it).
#[pyfunction]
#[pyo3(signature = (trainers, batch, dim, n_jobs=0))]
fn scores_each<'py>(
    py: Python<'py>,
    trainers: Vec<PyRef<'_, PyTrainer>>,
    batch: Batch<'_>,
    dim: usize,
    n_jobs: usize,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let n = match &batch {
        Batch::Csr(p, ..) => p.len().saturating_sub(1),
        Batch::Dense(x) => x.shape()[0],
        Batch::Dataset(d) => usize::try_from(d.ds.rows()).map_err(err)?,
    };
    distinct(&trainers)?;
    let k = trainers.len();
    let (rows, entries) = batch.rows(dim)?;
    let here = entries <= CHECK_BLOCK
        && trainers.iter().all(|t| t.lock().weights().is_some_and(|w| w.predicts_on_this_thread(n)));
    let linear = trainers.iter().all(|t| matches!(t.lock().weights(), Some(Weights::Linear(_))));
    let scores = if linear {
        let ts: Vec<&PyTrainer> = trainers.iter().map(|t| &**t).collect();
        // The trainers are locked inside, with the GIL released: a lock held
        // while waiting for the GIL could meet a thread that holds the GIL
        // and waits for the lock.
        let job = || -> Result<Vec<f32>, Error> {
            let locked: Vec<_> = ts.iter().map(|t| t.lock()).collect();
            let not_linear = || Error::Input("a one-vs-rest model is not linear".into());
            let models = locked
                .iter()
                .map(|t| match t.weights() {
                    Some(Weights::Linear(m)) => Ok(m),
                    _ => Err(not_linear()),
                })
                .collect::<Result<Vec<&LinearModel>, _>>()?;
            let mut out = vec![0.0f32; n * k];
            margins_into(&models, &rows()?, &mut out)?;
            Ok(out)
        };
        released(py, here, n_jobs, job)?
    } else {
        let columns = each(py, &trainers, here, n_jobs, rows, |rows, _, t| {
            let (mut labels, mut scores) = (vec![0.0f32; n], vec![0.0f32; n]);
            t.predict_into(rows, &mut labels, &mut scores)?;
            Ok(scores)
        })?;
        (0..n).flat_map(|i| columns.iter().map(move |c| c[i])).collect()
    };
    PyArray1::from_vec(py, scores).reshape([n, k])
}

/// A learner and its state, fed batch by batch (`rosenblatt::online::Trainer`).
/// Not shared between threads at once: a call waits for the one before.
#[pyclass(module = "rosenblatt._native", name = "Trainer")]
struct PyTrainer {
    t: Mutex<Trainer>,
}

impl PyTrainer {
    fn lock(&self) -> MutexGuard<'_, Trainer> {
        self.t.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Checks the rows `rows` makes (`entries` stored values) and learns
    /// from them for `passes` passes, with the GIL released: on the pool
    /// for `n_jobs`, or on this thread when the pool has nothing to do — one
    /// part (no copies to train at once) and a batch the check reads as one
    /// block. Handing a mini-batch to a pool worker and back cost more than
    /// learning from it (SPEED.md); the model is the same either way.
    fn learn<'a>(
        &self,
        py: Python<'_>,
        rows: impl FnOnce() -> Result<Rows<'a>, Error> + Send,
        entries: usize,
        passes: f64,
        n_jobs: usize,
    ) -> PyResult<usize> {
        let learn = || self.lock().learn(&rows()?, passes).map(|r| r.passes.len());
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
        let mut hp = HyperParams::default();
        for (name, v) in params {
            let p = Param::ALL.into_iter().find(|p| p.name() == name).ok_or_else(|| {
                err(format!("unknown hyper-parameter {name:?}; known: {}", Param::ALL.map(Param::name).join(", ")))
            })?;
            hp.set(p, Some(v));
        }
        // The engine's shuffle: random at the scale that matters for
        // learning, read in runs (`Order::Chunks`, `train`'s default).
        let order = if shuffle { Order::Chunks } else { Order::Sequential };
        let options = TrainerOptions { seed, order, parts, ..TrainerOptions::default() };
        let t = Trainer::new(learner, hp, dim, classes, options).map_err(err)?;
        Ok(PyTrainer { t: Mutex::new(t) })
    }

    /// A trainer that continues the model in `data` (a model file's
    /// bytes): it predicts at once and learns on from the saved state.
    #[staticmethod]
    fn from_model_bytes(data: &[u8]) -> PyResult<Self> {
        let m = SavedModel::from_bytes(std::path::Path::new("<bytes>"), data).map_err(err)?;
        let order = m.meta.training.order;
        let options = TrainerOptions { order, parts: m.meta.training.parts.max(1), ..TrainerOptions::default() };
        let t = Trainer::resume(&m, options).map_err(err)?;
        Ok(PyTrainer { t: Mutex::new(t) })
    }

    /// Learns from a CSR batch for `passes` passes; returns the passes run.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (indptr, indices, values, labels, passes, n_jobs=0))]
    fn learn_csr(
        &self,
        py: Python<'_>,
        indptr: PyReadonlyArray1<'_, u64>,
        indices: PyReadonlyArray1<'_, u32>,
        values: PyReadonlyArray1<'_, f32>,
        labels: PyReadonlyArray1<'_, f32>,
        passes: f64,
        n_jobs: usize,
    ) -> PyResult<usize> {
        let dim = self.lock().dim();
        let labels = labels.as_slice().map_err(err)?;
        let entries = values.len();
        self.learn(py, csr(dim, &indptr, &indices, &values, Some(labels))?, entries, passes, n_jobs)
    }

    /// Learns from a C-ordered float32 batch.
    #[pyo3(signature = (x, labels, passes, n_jobs=0))]
    fn learn_dense(
        &self,
        py: Python<'_>,
        x: PyReadonlyArray2<'_, f32>,
        labels: PyReadonlyArray1<'_, f32>,
        passes: f64,
        n_jobs: usize,
    ) -> PyResult<usize> {
        let labels = labels.as_slice().map_err(err)?;
        let entries = x.len();
        self.learn(py, dense(&x, Some(labels))?, entries, passes, n_jobs)
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
        self.predict(py, n, csr(dim, &indptr, &indices, &values, None)?, entries, n_jobs)
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
        self.predict(py, n, dense(&x, None)?, entries, n_jobs)
    }

    /// (labels, scores) of a dataset's rows.
    #[pyo3(signature = (dataset, n_jobs=0))]
    fn predict_dataset<'py>(&self, py: Python<'py>, dataset: &PyDataset, n_jobs: usize) -> PyResult<Predicted<'py>> {
        let view = dataset.ds.examples().map_err(err)?;
        self.predict(py, view.len(), || Ok(Rows::View(view)), usize::MAX, n_jobs)
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

/// A converted dataset (`rosenblatt convert`), its shards mapped, not
/// loaded, their checksums verified.
#[pyclass(module = "rosenblatt._native", name = "Dataset")]
struct PyDataset {
    ds: Dataset,
}

#[pymethods]
impl PyDataset {
    #[new]
    fn new(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Self> {
        // A path that is not there at all is Python's FileNotFoundError.
        std::fs::metadata(&path)
            .map_err(|source| err(rosenblatt::loader::LoadError::Io { path: path.clone(), source }))?;
        // Verified on this process's pool (see `load_svmlight`).
        let ds = released(py, false, 0, || Ok(Dataset::open(&path, OpenOptions::VERIFIED)?))?;
        Ok(PyDataset { ds })
    }
    /// Rows.
    #[getter]
    fn n_rows(&self) -> u64 {
        self.ds.rows()
    }
    /// Features.
    #[getter]
    fn n_features(&self) -> u64 {
        self.ds.dim()
    }
    /// The labels: `[-1, 1]` for ±1 data, the class ids otherwise.
    fn classes(&self) -> PyResult<Vec<f64>> {
        rosenblatt::compat::classes_of(&self.ds).map_err(err)
    }
    /// Every row's label.
    fn labels<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        Ok(PyArray1::from_vec(py, self.ds.examples().map_err(err)?.labels()))
    }
    /// The directory.
    #[getter]
    fn path(&self) -> std::path::PathBuf {
        self.ds.dir().to_path_buf()
    }
}

/// The arrays of a LIBSVM/svmlight file: `(indptr int64, indices int32,
/// values float32, labels float64, n_features)`. `zero_based=None` reads
/// indices as zero-based if any index is 0, else one-based (scikit-learn's
/// "auto").
#[allow(clippy::type_complexity)]
#[pyfunction]
#[pyo3(signature = (path, zero_based=None, n_features=None))]
fn load_svmlight<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    zero_based: Option<bool>,
    n_features: Option<u64>,
) -> PyResult<(
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<f64>>,
    u64,
)> {
    use rayon::prelude::*;
    // On this process's pool: the global one would have no threads in a
    // process forked after its first use.
    let (indptr, indices, values, labels, found) = released(py, false, 0, || -> Result<_, Error> {
        let text = rosenblatt::loader::input::read_input(&path, u64::MAX)?;
        let opts = rosenblatt::loader::ParseOptions { zero_based: zero_based != Some(false), ..Default::default() };
        let rows = rosenblatt::loader::libsvm::parse_parallel(&text, &opts, 8 << 20)
            .map_err(|e| Error::Input(format!("{}: {e}", path.display())))?;
        drop(text);
        if !rows.label_offsets.is_empty() {
            return Err(Error::Input("multi-label files are not supported".into()));
        }
        // One parallel pass finds what "auto" and the int32 check need;
        // the columns then become NumPy's types in place (same sizes:
        // no copy, no fresh pages).
        let (lo, hi) = rows
            .indices
            .par_iter()
            .fold(|| (u32::MAX, 0), |(lo, hi), &i| (lo.min(i), hi.max(i)))
            .reduce(|| (u32::MAX, 0), |a, b| (a.0.min(b.0), a.1.max(b.1)));
        let (mut indices, empty) = (rows.indices, lo > hi);
        let shift = u32::from(zero_based.is_none() && !empty && lo != 0);
        if !empty && hi - shift > i32::MAX as u32 {
            return Err(Error::Input(format!("{}: a feature index exceeds 2^31 − 1", path.display())));
        }
        if shift == 1 {
            indices.par_iter_mut().for_each(|i| *i -= 1);
        }
        // Explicit zeros are not stored, but they count for the width, as
        // in scikit-learn: text marks its dimension with one (`784:0`).
        let found = if empty { 0 } else { u64::from(hi - shift) + 1 }.max(rows.dim.saturating_sub(u64::from(shift)));
        if found > 1 << 31 {
            return Err(Error::Input(format!("{}: a feature index exceeds 2^31 − 1", path.display())));
        }
        let indices: Vec<i32> = indices.into_iter().map(|i| i as i32).collect();
        let indptr: Vec<i64> = rows.offsets.into_iter().map(|o| o as i64).collect();
        let labels: Vec<f64> = rows.labels.iter().map(|&y| f64::from(y)).collect();
        Ok((indptr, indices, rows.values, labels, found))
    })?;
    let dim = match n_features {
        Some(n) if n < found => {
            return Err(err(format!("n_features = {n}, but the file has feature index {}", found - 1)));
        }
        Some(n) => n,
        None => found,
    };
    Ok((
        PyArray1::from_vec(py, indptr),
        PyArray1::from_vec(py, indices),
        PyArray1::from_vec(py, values),
        PyArray1::from_vec(py, labels),
        dim,
    ))
}

/// Converts LIBSVM text (or MNIST IDX files: images, then labels) into a
/// dataset directory of binary shards, as `rosenblatt convert` does;
/// returns its number of rows.
#[pyfunction]
#[pyo3(signature = (inputs, output, zero_based=false))]
fn convert(
    py: Python<'_>,
    inputs: Vec<std::path::PathBuf>,
    output: std::path::PathBuf,
    zero_based: bool,
) -> PyResult<u64> {
    let mut opts = rosenblatt::loader::convert::ConvertOptions::default();
    opts.parse.zero_based = zero_based;
    let done = py.detach(|| rosenblatt::loader::convert::convert(&inputs, &output, &opts, &mut |_| {}));
    Ok(done.map_err(err)?.manifest.rows)
}

/// Every learner: `(name, multiclass, description, [(param, default)])`,
/// defaults as the registry states them.
#[allow(clippy::type_complexity)]
#[pyfunction]
fn learners() -> Vec<(String, bool, String, Vec<(String, String)>)> {
    // The kernel learners train on a whole dataset at once and have no
    // coef_: not an estimator of this package's shape (yet).
    Learner::ALL
        .iter()
        .filter(|l| !l.kernel())
        .map(|l| {
            let params = l.params().iter().map(|(p, d)| (p.name().to_string(), d.to_string())).collect();
            (l.name().to_string(), l.multiclass(), l.about().to_string(), params)
        })
        .collect()
}

/// The engine's version and SIMD level.
#[pyfunction]
fn version() -> String {
    rosenblatt::version_line()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTrainer>()?;
    m.add_class::<PyDataset>()?;
    m.add_function(wrap_pyfunction!(learn_each, m)?)?;
    m.add_function(wrap_pyfunction!(scores_each, m)?)?;
    m.add_function(wrap_pyfunction!(load_svmlight, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(learners, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    Ok(())
}
