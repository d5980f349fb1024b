//! Data for Python: converted datasets (`rosenblatt._native.Dataset`),
//! LIBSVM text read into NumPy arrays, and conversion into shards.

use crate::{err, released};
use numpy::PyArray1;
use pyo3::prelude::*;
use rosenblatt::Error;
use rosenblatt::loader::{Dataset, OpenOptions};

/// A converted dataset (`rosenblatt convert`), its shards mapped, not
/// loaded, their checksums verified.
#[pyclass(module = "rosenblatt._native", name = "Dataset")]
pub(crate) struct PyDataset {
    pub(crate) ds: Dataset,
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
    #[getter]
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
pub(crate) fn load_svmlight<'py>(
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
pub(crate) fn convert(
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
