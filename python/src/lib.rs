//! `rosenblatt._native`: the engine's online trainer, models and LIBSVM
//! parser for Python. The estimator (`rosenblatt.RosenblattClassifier`) is
//! Python code over this module; everything here takes NumPy arrays as
//! they are (float32 values, uint32 indices, uint64 row pointers — the
//! Python side converts anything else once), reads them in place, and
//! releases the GIL while it trains, predicts or parses.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rosenblatt::Error;
use rosenblatt::learners::{Learner, LinearModel, Param};
use rosenblatt::model::Weights;
use rosenblatt::online::{CHECK_BLOCK, CsrRows, DenseRows, Rows, Trainer, learn_together, margins_into};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

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
    PyValueError::new_err(keywords(&e.to_string()))
}

/// The engine's words for settings (`lambda = 0.5`, `` `passes` ``) as
/// the estimator's keywords (`lam=0.5`, `max_iter`).
fn keywords(msg: &str) -> String {
    let mut out = msg.to_string();
    for (engine, keyword) in [("lambda", "lam"), ("c", "C"), ("passes", "max_iter")] {
        out = out.replace(&format!(" {engine} = "), &format!(" {keyword}="));
        out = out.replace(&format!("({engine} = "), &format!("({keyword}="));
        out = out.replace(&format!("`{engine}`"), &format!("`{keyword}`"));
        if let Some(rest) = out.strip_prefix(&format!("{engine} = ")) {
            out = format!("{keyword}={rest}");
        }
    }
    out
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
/// (inside the pool, with the GIL released: the check reads every entry),
/// with importance `weights` if given.
fn csr<'a>(
    dim: usize,
    indptr: &'a PyReadonlyArray1<'_, u64>,
    indices: &'a PyReadonlyArray1<'_, u32>,
    values: &'a PyReadonlyArray1<'_, f32>,
    labels: Option<&'a [f32]>,
    weights: Option<&'a [f32]>,
) -> PyResult<impl FnOnce() -> Result<Rows<'a>, Error> + Send> {
    let (p, i, v) =
        (indptr.as_slice().map_err(err)?, indices.as_slice().map_err(err)?, values.as_slice().map_err(err)?);
    Ok(move || weighted(CsrRows::try_new(dim, p, i, v, labels).map(Rows::Csr)?, weights))
}

/// A C-ordered 2-D float32 array as rows, checked when called.
fn dense<'a>(
    x: &'a PyReadonlyArray2<'_, f32>,
    labels: Option<&'a [f32]>,
    weights: Option<&'a [f32]>,
) -> PyResult<impl FnOnce() -> Result<Rows<'a>, Error> + Send> {
    let shape = x.shape();
    let (n, d) = (shape[0], shape[1]);
    let values = x.as_slice().map_err(|_| err("the array is not C-contiguous"))?;
    Ok(move || weighted(DenseRows::try_new(n, d, values, labels).map(Rows::Dense)?, weights))
}

/// `rows` with importance `weights` (checked: one per row, finite, ≥ 0),
/// or as they are.
fn weighted<'a>(rows: Rows<'a>, weights: Option<&'a [f32]>) -> Result<Rows<'a>, Error> {
    match weights {
        Some(w) => rows.with_weights(w),
        None => Ok(rows),
    }
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
    /// The number of rows.
    fn len(&self) -> PyResult<usize> {
        Ok(match self {
            Batch::Csr(p, ..) => p.len().saturating_sub(1),
            Batch::Dense(x) => x.shape()[0],
            Batch::Dataset(d) => usize::try_from(d.ds.rows()).map_err(err)?,
        })
    }

    /// The rows, of dimension `dim` for CSR, unlabelled (a dataset's keep
    /// their own labels); and how many values their check reads
    /// (`usize::MAX` for a dataset: it always goes to the pool).
    fn rows(&self, dim: usize) -> PyResult<(MakeRows<'_>, usize)> {
        Ok(match self {
            Batch::Csr(p, i, v) => (Box::new(csr(dim, p, i, v, None, None)?), v.len()),
            Batch::Dense(x) => (Box::new(dense(x, None, None)?), x.len()),
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
/// (`online::learn_together`). Each ends as it would learning alone. Rows
/// weigh `weights` if given. Returns each trainer's passes run.
#[pyfunction]
#[pyo3(signature = (trainers, batch, labels, passes, n_jobs=0, weights=None))]
#[allow(clippy::too_many_arguments)]
fn learn_each(
    py: Python<'_>,
    trainers: Vec<PyRef<'_, PyTrainer>>,
    batch: Batch<'_>,
    labels: Vec<PyReadonlyArray1<'_, f32>>,
    passes: f64,
    n_jobs: usize,
    weights: Option<PyReadonlyArray1<'_, f32>>,
) -> PyResult<Vec<usize>> {
    use rayon::prelude::*;
    distinct(&trainers)?;
    if trainers.is_empty() || labels.len() != trainers.len() {
        return Err(err(format!("{} label arrays for {} trainers", labels.len(), trainers.len())));
    }
    let labels = labels.iter().map(|l| l.as_slice().map_err(err)).collect::<PyResult<Vec<&[f32]>>>()?;
    let weights = weights.as_ref().map(|w| w.as_slice().map_err(err)).transpose()?;
    let (rows, entries) = batch.rows(trainers[0].lock().dim())?;
    let here = entries <= CHECK_BLOCK && trainers.iter().all(|t| t.lock().parts() == 1);
    let ts: Vec<&PyTrainer> = trainers.iter().map(|t| &**t).collect();
    let job = || -> Result<Vec<usize>, Error> {
        let rows = weighted(rows()?, weights)?;
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
    let n = batch.len()?;
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

/// Every learner, as the engine's table has it: `(name, multiclass,
/// classes, whole, probabilistic, description, [(param, default)])` —
/// `classes`: one model takes every class (by index); `whole`: it trains on
/// one whole batch (the kernel learners); `probabilistic`: its scores are
/// log-odds. Defaults as the registry states them.
#[allow(clippy::type_complexity)]
#[pyfunction]
fn learners() -> Vec<(String, bool, bool, bool, bool, String, Vec<(String, String)>)> {
    Learner::ALL
        .iter()
        .map(|l| {
            let params = l.params().iter().map(|(p, d)| (p.name().to_string(), d.to_string())).collect();
            let classes = l.multiclass() || l.any_labels();
            (
                l.name().to_string(),
                l.multiclass(),
                classes,
                l.kernel(),
                l.probabilistic(),
                l.about().to_string(),
                params,
            )
        })
        .collect()
}

/// The hyper-parameters whose values are names: `(param, [names])`, a
/// value passed to the engine as its name's position.
#[pyfunction]
fn choices() -> Vec<(String, Vec<String>)> {
    Param::ALL
        .iter()
        .filter_map(|p| p.choices().map(|c| (p.name().to_string(), c.iter().map(|n| n.to_string()).collect())))
        .collect()
}

/// The engine's version and SIMD level.
#[pyfunction]
fn version() -> String {
    rosenblatt::version_line()
}

mod data;
mod trainer;

pub(crate) use data::PyDataset;
pub(crate) use trainer::PyTrainer;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTrainer>()?;
    m.add_class::<PyDataset>()?;
    m.add_function(wrap_pyfunction!(learn_each, m)?)?;
    m.add_function(wrap_pyfunction!(scores_each, m)?)?;
    m.add_function(wrap_pyfunction!(data::load_svmlight, m)?)?;
    m.add_function(wrap_pyfunction!(choices, m)?)?;
    m.add_function(wrap_pyfunction!(data::convert, m)?)?;
    m.add_function(wrap_pyfunction!(learners, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    Ok(())
}
