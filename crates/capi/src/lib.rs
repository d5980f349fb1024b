//! A C ABI for rosenblatt: `librosenblatt.so` and `librosenblatt.a`, with
//! the header `include/rosenblatt.h` (generated from this file by cbindgen
//! and committed; a test fails when they differ).
//!
//! Every entry point checks its pointers and sizes, catches panics, and
//! reports through an `int` status (0 on success) and `rb_last_error()`,
//! a message per thread valid until that thread's next call. Models are
//! immutable once made and may be shared between threads; a trainer or a
//! dataset handle is used by one thread at a time.
//!
//! What C hands in is checked once, where it comes in — CSR rows by
//! `rosenblatt::online::CsrRows::try_new` — and then read in place.

// The C names (`rb_model`, `rb_train_options`, …) are the ABI.
#![allow(non_camel_case_types)]

use engine::Predict;
use engine::learners::{Learner, Order, Param};
use engine::loader::{Dataset, OpenOptions};
use engine::model::{Model, Prediction};
use engine::online::{CsrRows, DenseRows, Rows, Trainer};
use engine::{Config, Fit, Labels};
use std::cell::RefCell;
use std::ffi::{CString, c_char, c_int};
use std::path::PathBuf;

mod ffi;

use ffi::{LAST_ERROR, arg, get, guard, input, put, size, slice, slice_mut, text};

/// Success.
pub const RB_OK: c_int = 0;
/// Hyper-parameters in the engine's parameter table (`rb_param_name`).
pub const RB_PARAMS: usize = 17;
const _: () = assert!(RB_PARAMS == Param::ALL.len(), "RB_PARAMS is the parameter table's length");
/// A NULL pointer, a size that does not fit, or options of an unknown size.
pub const RB_ERR_ARGUMENT: c_int = 1;
/// Input the engine refuses: bad rows, labels, hyper-parameters, files.
pub const RB_ERR_INPUT: c_int = 2;
/// A panic inside the library (a bug): the call had no effect.
pub const RB_ERR_INTERNAL: c_int = 3;

/// A trained model: immutable, shareable between threads.
pub struct rb_model {
    model: Model,
}

/// A converted dataset directory, its shards mapped.
pub struct rb_dataset {
    data: Dataset,
}

/// A learner fed batch by batch; one thread at a time.
pub struct rb_trainer {
    /// Borrowed mutably by learning and by taking the model (which saves
    /// the learner's lazily kept state); one thread at a time.
    trainer: RefCell<Trainer>,
    passes: f64,
}

/// How to train. Begins with its own size, so that later versions of the
/// library can add fields at the end and still tell an older program's
/// options apart: fill it with `rb_train_options_default` first, then
/// change what you need. Hyper-parameters left NaN take the learner's
/// default.
#[repr(C)]
pub struct rb_train_options {
    /// `sizeof(rb_train_options)`, set by `rb_train_options_default`.
    pub struct_size: usize,
    /// The learner by name ("averaged-perceptron", "logistic", …); NULL:
    /// "averaged-perceptron". Read during the call only.
    pub learner: *const c_char,
    /// Passes over the data (`rb_train`) or over each batch
    /// (`rb_trainer_learn_csr`). Default 5 (`rb_train`), 1 for a trainer's
    /// batches when left at 0.
    pub passes: f64,
    /// Seed of the order and of randomised learners' draws. Default 0.
    pub seed: u64,
    /// 1: each pass in the engine's shuffled order; 0: in storage order.
    /// Default 1.
    pub shuffle: c_int,
    /// Parts trained in parallel and mixed after every pass. Default 1.
    pub parts: u32,
    /// Classes of a multi-class learner's labels (class ids
    /// `0..num_classes`); binary learners take labels ±1. Default 2.
    pub num_classes: u32,
    /// The hyper-parameters by their position in the engine's parameter
    /// table (`rb_param_name`); NaN takes the learner's default. Set them
    /// by name with `rb_train_options_set`.
    pub params: [f64; RB_PARAMS],
}

/// The library's version and the SIMD level in use, e.g.
/// "0.1.0 (simd: avx2+fma; …)". Static; never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn rb_version() -> *const c_char {
    static VERSION: std::sync::OnceLock<CString> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| CString::new(engine::version_line()).unwrap_or_default()).as_ptr()
}

/// The message of this thread's last failed call ("" after a success);
/// valid until this thread's next call into the library. Never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn rb_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Loads a model file into `*out` (free it with `rb_model_free`).
///
/// # Safety
/// `path` is a NUL-terminated string; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_model_load(path: *const c_char, out: *mut *mut rb_model) -> c_int {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let path = unsafe { text(path, "path") }?;
        let model = Model::load(std::path::Path::new(path)).map_err(input)?;
        // SAFETY: forwarded from the caller.
        unsafe { put(out, Box::into_raw(Box::new(rb_model { model })), "out") }
    })
}

/// Saves `model` to `path` (written whole or not at all).
///
/// # Safety
/// `model` is NULL or from this library; `path` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_model_save(model: *const rb_model, path: *const c_char) -> c_int {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (m, path) = unsafe { (get(model, "model")?, text(path, "path")?) };
        m.model.save(std::path::Path::new(path)).map_err(input)
    })
}

/// Frees a model (NULL is allowed and does nothing).
///
/// # Safety
/// `model` is NULL or from this library and not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_model_free(model: *mut rb_model) {
    if !model.is_null() {
        // SAFETY: made by Box::into_raw here, freed once by the caller's promise.
        drop(unsafe { Box::from_raw(model) });
    }
}

/// The model's number of features.
///
/// # Safety
/// `model` is NULL or from this library; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_model_dim(model: *const rb_model, out: *mut u64) -> c_int {
    // SAFETY: forwarded from the caller.
    guard(|| unsafe { put(out, get(model, "model")?.model.meta.dim, "out") })
}

/// The model's number of outputs: 2 for binary models (labels ±1), the
/// number of classes for multi-class ones (labels are class ids).
///
/// # Safety
/// `model` is NULL or from this library; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_model_num_classes(model: *const rb_model, out: *mut u32) -> c_int {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let m = unsafe { get(model, "model") }?;
        let k = u32::try_from(m.model.meta.classes.len()).map_err(|_| arg("too many classes"))?;
        // SAFETY: forwarded from the caller.
        unsafe { put(out, k, "out") }
    })
}

/// Predictions of `rows` into the caller's buffers (either may be NULL).
///
/// # Safety
/// The output pointers are NULL or hold `n` writable floats each.
unsafe fn predict_into(
    m: &Model,
    rows: &Rows<'_>,
    n: usize,
    scores_out: *mut f32,
    labels_out: *mut f32,
) -> Result<(), (c_int, String)> {
    let mut p = vec![Prediction::default(); n];
    m.predict_into(rows, &mut p).map_err(input)?;
    // SAFETY: forwarded from the caller.
    if let Some(s) = unsafe { slice_mut(scores_out, n) }? {
        s.iter_mut().zip(&p).for_each(|(o, p)| *o = p.score);
    }
    // SAFETY: forwarded from the caller.
    if let Some(l) = unsafe { slice_mut(labels_out, n) }? {
        l.iter_mut().zip(&p).for_each(|(o, p)| *o = p.label);
    }
    Ok(())
}

/// CSR rows from C's arrays; the dimension is the model's or, when larger,
/// the rows' largest index + 1 (features beyond the model get weight 0).
///
/// # Safety
/// `indptr` holds `n_rows + 1` entries; `indices` and `values` hold
/// `indptr[n_rows]` each.
unsafe fn csr_in<'a>(
    dim: usize,
    n_rows: u64,
    indptr: *const u64,
    indices: *const u32,
    values: *const f32,
    labels: Option<&'a [f32]>,
    widen: bool,
) -> Result<CsrRows<'a>, (c_int, String)> {
    let n = size(n_rows, "n_rows")?;
    let rows1 = n.checked_add(1).ok_or_else(|| arg("n_rows is too large"))?;
    // SAFETY: forwarded from the caller.
    let indptr = unsafe { slice(indptr, rows1, "indptr") }?;
    let nnz = size(indptr[n], "indptr[n_rows]")?;
    // SAFETY: forwarded from the caller.
    let (indices, values) = unsafe { (slice(indices, nnz, "indices")?, slice(values, nnz, "values")?) };
    let dim = if widen { indices.iter().map(|&i| i as usize + 1).max().unwrap_or(0).max(dim) } else { dim };
    CsrRows::try_new(dim, indptr, indices, values, labels).map_err(input)
}

/// Scores and labels of `n_rows` CSR rows (zero-based `indices`, sorted
/// within each row): `scores_out` gets the margin `w·x + b` (the vote for a
/// voted Perceptron, the winning class's score for a multi-class model),
/// `labels_out` ±1 or the class id. Either output may be NULL.
///
/// # Safety
/// `model` is NULL or from this library; `indptr` holds `n_rows + 1`
/// entries and `indices`/`values` `indptr[n_rows]` each; the outputs are
/// NULL or hold `n_rows` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_model_predict_csr(
    model: *const rb_model,
    n_rows: u64,
    indptr: *const u64,
    indices: *const u32,
    values: *const f32,
    scores_out: *mut f32,
    labels_out: *mut f32,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let m = &unsafe { get(model, "model") }?.model;
        let dim = size(m.meta.dim, "the model's dimension")?;
        // SAFETY: forwarded from the caller.
        let rows = unsafe { csr_in(dim, n_rows, indptr, indices, values, None, true) }?;
        // SAFETY: forwarded from the caller.
        unsafe { predict_into(m, &Rows::Csr(rows), n_rows as usize, scores_out, labels_out) }
    })
}

/// Scores and labels of `n_rows` dense rows of `n_cols` floats each, row
/// after row; as `rb_model_predict_csr`.
///
/// # Safety
/// `model` is NULL or from this library; `x_row_major` holds
/// `n_rows × n_cols` floats; the outputs are NULL or hold `n_rows` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_model_predict_dense(
    model: *const rb_model,
    n_rows: u64,
    n_cols: u64,
    x_row_major: *const f32,
    scores_out: *mut f32,
    labels_out: *mut f32,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let m = &unsafe { get(model, "model") }?.model;
        let (n, d) = (size(n_rows, "n_rows")?, size(n_cols, "n_cols")?);
        let len = n.checked_mul(d).ok_or_else(|| arg("n_rows × n_cols is too large"))?;
        // SAFETY: forwarded from the caller.
        let x = unsafe { slice(x_row_major, len, "x_row_major") }?;
        let rows = DenseRows::try_new(n, d, x, None).map_err(input)?;
        // SAFETY: forwarded from the caller.
        unsafe { predict_into(m, &Rows::Dense(rows), n, scores_out, labels_out) }
    })
}

/// Opens a dataset directory written by `rosenblatt convert`.
///
/// # Safety
/// `dir` is a NUL-terminated string; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_dataset_open(dir: *const c_char, out: *mut *mut rb_dataset) -> c_int {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let dir = PathBuf::from(unsafe { text(dir, "dir") }?);
        let data = Dataset::open(&dir, OpenOptions::default()).map_err(input)?;
        // SAFETY: forwarded from the caller.
        unsafe { put(out, Box::into_raw(Box::new(rb_dataset { data })), "out") }
    })
}

/// Frees a dataset (NULL is allowed).
///
/// # Safety
/// `dataset` is NULL or from this library and not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_dataset_free(dataset: *mut rb_dataset) {
    if !dataset.is_null() {
        // SAFETY: made by Box::into_raw here, freed once by the caller's promise.
        drop(unsafe { Box::from_raw(dataset) });
    }
}

/// Fills `options` with the defaults, `struct_size` included.
///
/// # Safety
/// `options` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_train_options_default(options: *mut rb_train_options) -> c_int {
    let d = rb_train_options {
        struct_size: size_of::<rb_train_options>(),
        learner: std::ptr::null(),
        passes: 5.0,
        seed: 0,
        shuffle: 1,
        parts: 1,
        num_classes: 2,
        params: [f64::NAN; RB_PARAMS],
    };
    // SAFETY: forwarded from the caller.
    guard(|| unsafe { put(options, d, "options") })
}

/// The options as the engine takes them.
struct Options {
    learner: Learner,
    /// The hyper-parameters given.
    params: Vec<(Param, f64)>,
    passes: f64,
    seed: u64,
    order: Order,
    parts: usize,
    classes: usize,
}

impl Options {
    /// The config these options make (their passes aside: a trainer's
    /// apply to each batch).
    fn config(&self) -> Config {
        let c = Config::new(self.learner).seed(self.seed).order(self.order).parts(self.parts);
        self.params.iter().fold(c, |c, &(p, v)| c.param(p, v))
    }
}

/// Reads `options` (checked against its `struct_size`).
///
/// # Safety
/// `options` is NULL or points to an `rb_train_options` of at least
/// `struct_size` bytes whose `learner` is NULL or a NUL-terminated string.
unsafe fn options(options: *const rb_train_options) -> Result<Options, (c_int, String)> {
    // SAFETY: forwarded from the caller.
    let o = unsafe { get(options, "options") }?;
    if o.struct_size != size_of::<rb_train_options>() {
        return Err(arg(format!(
            "options.struct_size is {}, this library's rb_train_options has {} bytes (fill it with \
             rb_train_options_default)",
            o.struct_size,
            size_of::<rb_train_options>()
        )));
    }
    let learner = if o.learner.is_null() {
        Learner::AveragedPerceptron
    } else {
        // SAFETY: forwarded from the caller.
        Learner::from_name(unsafe { text(o.learner, "options.learner") }?).map_err(input)?
    };
    let params = Param::ALL.into_iter().zip(o.params).filter(|(_, v)| !v.is_nan()).collect();
    let order = match o.shuffle {
        1 => Order::Chunks,
        0 => Order::Sequential,
        s => return Err(arg(format!("options.shuffle is {s}; give 1 or 0"))),
    };
    Ok(Options {
        learner,
        params,
        passes: o.passes,
        seed: o.seed,
        order,
        parts: o.parts as usize,
        classes: o.num_classes as usize,
    })
}

/// Sets the hyper-parameter named `name` ("eta", "lambda", "kernel", …:
/// `rb_param_name`) to `value` in `options`; a choice (the kernel) is the
/// position of its name (rbf 0, poly 1). An unknown name is refused; a
/// value the learner does not take or that is out of range is refused
/// when training starts.
///
/// # Safety
/// `options` as `rb_train_options_default` filled it; `name` is NULL or a
/// NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_train_options_set(
    options: *mut rb_train_options,
    name: *const c_char,
    value: f64,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let name = unsafe { text(name, "name") }?;
        let k = Param::ALL.iter().position(|p| p.name() == name).ok_or_else(|| {
            (
                RB_ERR_INPUT,
                format!("unknown hyper-parameter {name:?}; known: {}", Param::ALL.map(Param::name).join(", ")),
            )
        })?;
        if options.is_null() {
            return Err(arg("options is NULL"));
        }
        // SAFETY: non-NULL, and the caller's options as documented.
        unsafe { (*options).params[k] = value };
        Ok(())
    })
}

/// The name of hyper-parameter `i` of the parameter table (the position
/// in `rb_train_options.params`), or NULL past the last.
#[unsafe(no_mangle)]
pub extern "C" fn rb_param_name(i: usize) -> *const c_char {
    PARAM_NAMES.get(i).map_or(std::ptr::null(), |n| n.as_ptr())
}

/// The name of learner `i` of the learner table, or NULL past the last:
/// every name `rb_train_options.learner` takes.
#[unsafe(no_mangle)]
pub extern "C" fn rb_learner_name(i: usize) -> *const c_char {
    LEARNER_NAMES.get(i).map_or(std::ptr::null(), |n| n.as_ptr())
}

/// The tables' names as C strings, made once.
static PARAM_NAMES: std::sync::LazyLock<Vec<CString>> =
    std::sync::LazyLock::new(|| Param::ALL.iter().map(|p| CString::new(p.name()).unwrap_or_default()).collect());
static LEARNER_NAMES: std::sync::LazyLock<Vec<CString>> =
    std::sync::LazyLock::new(|| Learner::ALL.iter().map(|l| CString::new(l.name()).unwrap_or_default()).collect());

/// Trains a model on a dataset (its labels: ±1 for binary learners, class
/// ids for multi-class ones) with `options`, into `*out`.
///
/// # Safety
/// `dataset` is NULL or from this library; `options` as
/// `rb_train_options_default` filled it; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_train(
    dataset: *const rb_dataset,
    options: *const rb_train_options,
    out: *mut *mut rb_model,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (d, o) = unsafe { (get(dataset, "dataset")?, self::options(options)?) };
        let config = o.config().passes(o.passes);
        let model = config.fit(&d.data).map_err(input)?;
        // SAFETY: forwarded from the caller.
        unsafe { put(out, Box::into_raw(Box::new(rb_model { model })), "out") }
    })
}

/// A trainer for `dim` features with `options` (its `passes` apply to each
/// batch; 0 means 1), into `*out`.
///
/// # Safety
/// `options` as `rb_train_options_default` filled it; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_trainer_new(
    options: *const rb_train_options,
    dim: u64,
    out: *mut *mut rb_trainer,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let o = unsafe { self::options(options) }?;
        let dim = size(dim, "dim")?;
        let labels = Labels::of(o.learner, o.classes);
        let config = o.config();
        let trainer = config.trainer(dim, labels).map_err(input)?;
        let passes = if o.passes == 0.0 { 1.0 } else { o.passes };
        // SAFETY: forwarded from the caller.
        unsafe { put(out, Box::into_raw(Box::new(rb_trainer { trainer: RefCell::new(trainer), passes })), "out") }
    })
}

/// Learns from `n_rows` CSR rows (as `rb_model_predict_csr`, indices below
/// the trainer's `dim`) with their `labels` (±1, or class ids).
///
/// # Safety
/// `trainer` is NULL or from this library, used by no other thread now;
/// the arrays hold what `rb_model_predict_csr` says, and `labels` `n_rows`
/// floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_trainer_learn_csr(
    trainer: *mut rb_trainer,
    n_rows: u64,
    indptr: *const u64,
    indices: *const u32,
    values: *const f32,
    labels: *const f32,
) -> c_int {
    // SAFETY: forwarded from the caller; no weights.
    unsafe { rb_trainer_learn_csr_weighted(trainer, n_rows, indptr, indices, values, labels, std::ptr::null()) }
}

/// As `rb_trainer_learn_csr`, each row's update scaled by its importance
/// `weights[i]` (finite, >= 0; 0 leaves the row out); `weights` NULL: every
/// row's is 1.
///
/// # Safety
/// As `rb_trainer_learn_csr`; `weights` is NULL or holds `n_rows` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_trainer_learn_csr_weighted(
    trainer: *mut rb_trainer,
    n_rows: u64,
    indptr: *const u64,
    indices: *const u32,
    values: *const f32,
    labels: *const f32,
    weights: *const f32,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded from the caller (one thread at a time).
        let t = unsafe { trainer.as_mut() }.ok_or_else(|| arg("trainer is NULL"))?;
        let n = size(n_rows, "n_rows")?;
        // SAFETY: forwarded from the caller.
        let labels = unsafe { slice(labels, n, "labels") }?;
        // SAFETY: forwarded from the caller (NULL: no weights).
        let weights = if weights.is_null() { None } else { Some(unsafe { slice(weights, n, "weights") }?) };
        let mut trainer = t.trainer.try_borrow_mut().map_err(|_| arg("trainer is in use"))?;
        let dim = trainer.dim();
        // SAFETY: forwarded from the caller.
        let rows = Rows::Csr(unsafe { csr_in(dim, n_rows, indptr, indices, values, Some(labels), false) }?);
        let rows = match weights {
            Some(w) => rows.with_weights(w).map_err(input)?,
            None => rows,
        };
        trainer.learn_passes(&rows, t.passes).map_err(input)?;
        Ok(())
    })
}

/// The trainer's model as of its last batch, into `*out` (a new model,
/// the learner's state included: free it with `rb_model_free`).
///
/// # Safety
/// `trainer` is NULL or from this library; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_trainer_model(trainer: *const rb_trainer, out: *mut *mut rb_model) -> c_int {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let t = unsafe { get(trainer, "trainer") }?;
        let model = t.trainer.try_borrow_mut().map_err(|_| arg("trainer is in use"))?.model().map_err(input)?;
        // SAFETY: forwarded from the caller.
        unsafe { put(out, Box::into_raw(Box::new(rb_model { model })), "out") }
    })
}

/// Frees a trainer (NULL is allowed).
///
/// # Safety
/// `trainer` is NULL or from this library and not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rb_trainer_free(trainer: *mut rb_trainer) {
    if !trainer.is_null() {
        // SAFETY: made by Box::into_raw here, freed once by the caller's promise.
        drop(unsafe { Box::from_raw(trainer) });
    }
}
