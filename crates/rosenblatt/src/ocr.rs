//! The OCR benchmark: MNIST with one digit against the rest, the online
//! Perceptron's final vector, the Voted and the Averaged Perceptron trained
//! on the 60,000 training images (or a converted or generated training set,
//! one-vs-rest or labelled with digits) in a seeded random order for
//! several pass counts, tested on the 10,000 test images; optionally the
//! multi-class averaged Perceptron and the kernel averaged Perceptron
//! (one-vs-rest over one support set) on all ten digits.

use crate::compat::{Expect, classes_of};
use crate::error::Error;
use crate::train::{Eval, Hooks, PassLine, error_rate, fit};
use rosenblatt_learners::{HyperParams, Learner, Mixing, Order, ParallelOptions, TrainOptions};
use rosenblatt_loader::cache::{Cached, Made, cached_convert};
use rosenblatt_loader::convert::{ConvertOptions, Format};
use rosenblatt_loader::{Dataset, ExamplesView, LabelKind, OpenOptions};
use std::path::{Path, PathBuf};

/// What to run. The defaults are the benchmark `rosenblatt demo` runs.
#[derive(Clone, Debug)]
pub struct OcrOptions {
    /// A folder of MNIST IDX files (train and t10k images and labels,
    /// gzipped or not, named as MNIST names them or with dashes, as
    /// Fashion-MNIST does), or a converted training dataset.
    pub data: PathBuf,
    /// The IDX folder the test images come from; `None`: `data`'s own
    /// t10k files (a dataset given as `data` needs one named).
    pub test_data: Option<PathBuf>,
    /// Where converted datasets are cached.
    pub cache: PathBuf,
    /// Pass counts (fractions allowed).
    pub passes: Vec<f64>,
    /// Seeds 0..seeds of the training order.
    pub seeds: u64,
    /// The digit that is +1.
    pub target: u8,
    /// Also the multi-class averaged Perceptron on all ten digits (needs
    /// training rows labelled with their digit).
    pub multiclass: bool,
    /// Also the kernel averaged Perceptron on all ten digits, with these
    /// hyper-parameters (the kernel's defaults for those not given), at the
    /// whole pass counts of `passes` (one run per seed, scored after each
    /// pass).
    pub kernel: Option<HyperParams>,
    /// The training order; `None`: [`Order::Blocks`] (out of core) when the
    /// training shards exceed [`BLOCKS_ABOVE_BYTES`], else [`Order::Chunks`].
    pub order: Option<Order>,
}

impl Default for OcrOptions {
    fn default() -> Self {
        OcrOptions {
            data: "datasets/mnist".into(),
            test_data: None,
            cache: "datasets/cache".into(),
            passes: vec![0.1, 1.0, 2.0, 3.0, 4.0, 10.0],
            seeds: 3,
            target: 9,
            multiclass: false,
            kernel: None,
            order: None,
        }
    }
}

/// Training shards larger than this are trained on in [`Order::Blocks`]
/// unless the options say otherwise.
pub const BLOCKS_ABOVE_BYTES: u64 = 1 << 30;

/// One learner at one pass count, over the seeds.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct OcrRecord {
    /// `perceptron`, `voted-perceptron`, `averaged-perceptron` or
    /// `multiclass-averaged-perceptron` (its test error is over ten digits).
    pub learner: Learner,
    /// Pass count.
    pub passes: f64,
    /// Mean test error over the seeds.
    pub test_error: f64,
    /// Sample standard deviation of the test error (0 for one seed).
    pub test_error_std: f64,
    /// Mean training seconds per pass.
    pub seconds_per_pass: f64,
    /// Training examples per second.
    pub examples_per_second: f64,
    /// Training non-zeros per second.
    pub nonzeros_per_second: f64,
    /// Seconds per pass divided by the seconds of a read-only pass over the
    /// same shards.
    pub pass_over_read_only: f64,
    /// Online mistakes over the run (mean over seeds).
    pub mistakes: f64,
}

/// The benchmark's results and context.
#[derive(Clone, Debug, serde::Serialize)]
pub struct OcrReport {
    /// What the training rows were read from: the IDX images file, or the
    /// dataset directory.
    pub train_data: String,
    /// The IDX images file the test rows were read from.
    pub test_data: String,
    /// Training rows.
    pub train_rows: u64,
    /// The training order: shuffle, or blocks.
    pub order: Order,
    /// Test rows.
    pub test_rows: u64,
    /// The encoding the converter chose.
    pub encoding: rosenblatt_loader::EncodingKind,
    /// Parts trained in parallel (always 1: the algorithms as published).
    pub parts: usize,
    /// What the test set's meeting with the training data called for saying.
    pub notes: Vec<String>,
    /// Median seconds of a read-only pass over the training shards.
    pub read_only_seconds: f64,
    /// The kernel learner's hyper-parameters, defaults filled in (empty
    /// without one).
    pub kernel_params: Vec<(String, f64)>,
    /// One record per (learner, passes).
    pub records: Vec<OcrRecord>,
}

/// An MNIST split's two IDX files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdxFiles {
    /// The images file.
    pub images: PathBuf,
    /// The labels file.
    pub labels: PathBuf,
}

/// The IDX files of `split` ("train" or "t10k") in `dir`: each as MNIST
/// names it (`train-images.idx3-ubyte`) or with a dash for the dot
/// (`train-images-idx3-ubyte`, as Fashion-MNIST, KMNIST and EMNIST ship
/// them), gzipped or not.
pub fn find_idx(dir: &Path, split: &str) -> Result<IdxFiles, Error> {
    let find = |what: &str, n: u8| {
        let names = [format!("{split}-{what}.idx{n}-ubyte"), format!("{split}-{what}-idx{n}-ubyte")];
        let tried: Vec<String> = names.iter().flat_map(|n| [format!("{n}.gz"), n.clone()]).collect();
        tried.iter().map(|n| dir.join(n)).find(|p| p.is_file()).ok_or_else(|| {
            Error::Input(format!(
                "{}: no MNIST IDX {split} {what} file there (looked for {})",
                dir.display(),
                tried.join(", ")
            ))
        })
    };
    Ok(IdxFiles { images: find("images", 3)?, labels: find("labels", 1)? })
}

/// MNIST `split` ("train" or "t10k") with digit `target` against the rest
/// (or, with `None`, labelled with the digit), converted from the IDX files
/// in `idx_dir` into the cache under `cache` on first use, and again
/// whenever those files or the options change (the cache entry records
/// what it was made from); `progress` hears of a conversion and why.
pub fn cached(
    cache: &Path,
    idx_dir: &Path,
    split: &str,
    target: impl Into<Option<u8>>,
    progress: &mut dyn FnMut(&str),
) -> Result<(Cached, IdxFiles), Error> {
    let target = target.into();
    let files = find_idx(idx_dir, split)?;
    let label = match target {
        Some(t) => format!("mnist-{split}-target{t}"),
        None => format!("mnist-{split}-digits"),
    };
    let opts = ConvertOptions { format: Some(Format::Mnist), target, ..Default::default() };
    // Every option that changes the dataset, and a version for the
    // converter's own choices (one-based, as recorded since v2).
    let key =
        format!("MNIST IDX, {}, v2", target.map_or("digit labels".into(), |t| format!("digit {t} against the rest")));
    let inputs = [files.images.clone(), files.labels.clone()];
    Ok((cached_convert(cache, &label, &inputs, &opts, &key, progress)?, files))
}

/// Trains `learner` (its defaults, one part) on `tr` and returns (test error
/// on `te`, seconds per pass, online mistakes).
fn timed(
    learner: Learner,
    tr: &ExamplesView<'_>,
    te: &ExamplesView<'_>,
    classes: &[f64],
    opts: &TrainOptions,
) -> Result<Run, Error> {
    let configured = crate::train::configure(learner, &HyperParams::default(), tr, classes.len(), opts)?;
    let par = ParallelOptions { parts: 1, mixing: Mixing::Uniform };
    let fitted = fit(tr, None, &configured, opts, par, false, classes, None, Hooks::default())?;
    let secs = fitted.report.passes.iter().map(|p| p.seconds).sum::<f64>() / opts.passes;
    Ok((error_rate(&fitted.weights, classes, te, false)?, secs, fitted.report.mistakes() as f64))
}

fn mean_std(v: &[f64]) -> (f64, f64) {
    let m = v.iter().sum::<f64>() / v.len() as f64;
    let var = if v.len() > 1 { v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64 } else { 0.0 };
    (m, var.sqrt())
}

/// Runs the benchmark; `progress` is told what runs.
pub fn run(opts: &OcrOptions, mut progress: impl FnMut(&str)) -> Result<OcrReport, Error> {
    if opts.target > 9 {
        return Err(Error::Input(format!("target digit {} is not 0..=9", opts.target)));
    }
    if opts.seeds == 0 {
        return Err(Error::Input("the benchmark needs at least one run (one seed)".into()));
    }
    if let Some(p) = opts.passes.iter().find(|p| !(p.is_finite() && **p > 0.0)) {
        return Err(Error::Input(format!("pass count {p} is not a positive number")));
    }
    let mut notes = Vec::new();
    let given = opts.data.join(rosenblatt_loader::manifest::MANIFEST).exists();
    let (train_ds, train_data, test_idx) = if given {
        let Some(test) = &opts.test_data else {
            return Err(Error::Input(format!(
                "{}: a converted dataset holds no test images; name the MNIST IDX folder they come from",
                opts.data.display()
            )));
        };
        progress("opening the training dataset");
        (Dataset::open(&opts.data, OpenOptions::VERIFIED)?, opts.data.display().to_string(), test.clone())
    } else {
        let (ds, files) = open_cached(opts, &opts.data, "train", Some(opts.target), &mut notes, &mut progress)?;
        (ds, files.images.display().to_string(), opts.test_data.clone().unwrap_or_else(|| opts.data.clone()))
    };
    let (test_ds, test_files) = open_cached(opts, &test_idx, "t10k", Some(opts.target), &mut notes, &mut progress)?;
    let digits = train_ds.manifest().label_kind == LabelKind::Classes;
    if !digits && train_ds.manifest().label_kind != LabelKind::Binary {
        return Err(Error::Input(format!(
            "{}: labels are {}; the OCR benchmark needs one-vs-rest (binary) or digit labels",
            opts.data.display(),
            train_ds.manifest().label_kind
        )));
    }
    if train_ds.dim() != test_ds.dim() {
        return Err(Error::Input(format!(
            "training dimension {} differs from the test set's {}",
            train_ds.dim(),
            test_ds.dim()
        )));
    }
    // Rows labelled with digits serve both tasks; a one-vs-rest set serves
    // the multi-class one only when it came from the IDX files.
    let multi = if !opts.multiclass && opts.kernel.is_none() {
        None
    } else if digits {
        Some((None, open_cached(opts, &test_idx, "t10k", None, &mut notes, &mut progress)?.0))
    } else if !given {
        let train = open_cached(opts, &opts.data, "train", None, &mut notes, &mut progress)?.0;
        Some((Some(train), open_cached(opts, &test_idx, "t10k", None, &mut notes, &mut progress)?.0))
    } else {
        return Err(Error::Input(format!(
            "{}: `multiclass` and `kernel` need rows labelled with their digit (this dataset is one-vs-rest); \
             generate it without `target`, or pass the MNIST IDX folder",
            opts.data.display()
        )));
    };
    let nnz = train_ds.manifest().nonzeros as f64;
    let bytes: u64 = train_ds.manifest().shards.iter().map(|s| s.bytes).sum();
    let order = opts.order.unwrap_or(if bytes > BLOCKS_ABOVE_BYTES { Order::Blocks } else { Order::Chunks });
    // Out of core, the read-only pass drops each shard from resident memory
    // after reading it, as training does.
    let read_only = crate::read_only_seconds(&train_ds, 7, order == Order::Blocks);
    let mut records = Vec::new();
    let record = |learner, passes, runs: &[Run], rows: usize, nnz: f64| {
        let (e, es) = mean_std(&runs.iter().map(|r| r.0).collect::<Vec<_>>());
        let (s, _) = mean_std(&runs.iter().map(|r| r.1).collect::<Vec<_>>());
        OcrRecord {
            learner,
            passes,
            test_error: e,
            test_error_std: es,
            seconds_per_pass: s,
            examples_per_second: rows as f64 / s,
            nonzeros_per_second: nnz / s,
            pass_over_read_only: s / read_only,
            mistakes: mean_std(&runs.iter().map(|r| r.2).collect::<Vec<_>>()).0,
        }
    };
    let binary = [-1.0, 1.0];
    let all = train_ds.examples()?;
    // A dataset labelled with digits, one digit against the rest.
    let ovr: Vec<f32>;
    let tr = if digits {
        let target = f32::from(opts.target);
        ovr = all.labels().iter().map(|&l| if l == target { 1.0 } else { -1.0 }).collect();
        all.with_labels(&ovr)
    } else {
        all.range(0..all.len())
    };
    let te = test_ds.examples()?;
    notes.extend(Expect::training(&train_ds, &binary).meet(test_ds.dir(), test_ds.manifest())?);
    for &passes in &opts.passes {
        let mut runs: [Vec<Run>; 3] = Default::default();
        for seed in 0..opts.seeds {
            progress(&format!("{passes} passes, seed {seed}"));
            let topts = TrainOptions { passes, order, seed, stop_when_separated: false, first_pass: 0 };
            for (k, learner) in LEARNERS.into_iter().enumerate() {
                runs[k].push(timed(learner, &tr, &te, &binary, &topts)?);
            }
        }
        for (learner, r) in LEARNERS.into_iter().zip(&runs) {
            records.push(record(learner, passes, r, tr.len(), nnz));
        }
    }
    let (mut kernel_params, mut kernel_records) = (Vec::new(), Vec::new());
    if let Some((own, test)) = &multi {
        let train = own.as_ref().unwrap_or(&train_ds);
        let nnz = train.manifest().nonzeros as f64;
        let classes = classes_of(train)?;
        let (tr, te) = (train.examples()?, test.examples()?);
        if let Some(given) = &opts.kernel {
            let learner = Learner::KernelAveragedPerceptron;
            let whole: Vec<usize> = opts.passes.iter().filter(|p| p.fract() == 0.0).map(|&p| p as usize).collect();
            let Some(&most) = whole.iter().max() else {
                return Err(Error::Input("`kernel`: give at least one whole pass count in `passes`".into()));
            };
            // One run per seed, scored on the test set after every pass.
            let mut runs: Vec<Vec<Run>> = vec![Vec::new(); whole.len()];
            for seed in 0..opts.seeds {
                progress(&format!("kernel, {most} passes, seed {seed}"));
                let topts = TrainOptions { passes: most as f64, order: Order::Shuffle, seed, ..Default::default() };
                let configured = crate::train::configure(learner, given, &tr, classes.len(), &topts)?;
                kernel_params = configured.params.iter().map(|&(k, v)| (k.to_string(), v)).collect();
                let mut lines: Vec<PassLine> = Vec::new();
                let mut on_pass = |l: &PassLine| lines.push(l.clone());
                let hooks = Hooks { on_pass: Some(&mut on_pass), ..Hooks::default() };
                let eval = Some(Eval { set: &te, out_of_core: false });
                let par = ParallelOptions { parts: 1, mixing: Mixing::Uniform };
                fit(&tr, eval, &configured, &topts, par, false, &classes, None, hooks)?;
                for (k, &p) in whole.iter().enumerate() {
                    let done = &lines[..p];
                    let secs = done.iter().map(|l| l.seconds).sum::<f64>() / p as f64;
                    let mistakes = done.iter().map(|l| l.mistakes).sum::<u64>() as f64;
                    runs[k].push((done[p - 1].eval_error.unwrap_or(f64::NAN), secs, mistakes));
                }
            }
            for (&p, r) in whole.iter().zip(&runs) {
                kernel_records.push(record(learner, p as f64, r, tr.len(), nnz));
            }
        }
        for &passes in &opts.passes {
            if !opts.multiclass {
                break;
            }
            let mut runs = Vec::new();
            for seed in 0..opts.seeds {
                progress(&format!("multi-class, {passes} passes, seed {seed}"));
                let topts = TrainOptions { passes, order, seed, stop_when_separated: false, first_pass: 0 };
                runs.push(timed(Learner::MulticlassAveragedPerceptron, &tr, &te, &classes, &topts)?);
            }
            records.push(record(Learner::MulticlassAveragedPerceptron, passes, &runs, tr.len(), nnz));
        }
    }
    // The kernel's rows after the linear ones they are compared with.
    records.extend(kernel_records);
    Ok(OcrReport {
        train_data,
        test_data: test_files.images.display().to_string(),
        train_rows: train_ds.rows(),
        order,
        test_rows: test_ds.rows(),
        encoding: train_ds.manifest().encoding,
        parts: 1,
        notes,
        read_only_seconds: read_only,
        kernel_params,
        records,
    })
}

/// [`cached`] for the benchmark: a note when an entry had to be made
/// again (it held other data, or data since changed).
fn open_cached(
    opts: &OcrOptions,
    idx_dir: &Path,
    split: &str,
    target: Option<u8>,
    notes: &mut Vec<String>,
    progress: &mut dyn FnMut(&str),
) -> Result<(Dataset, IdxFiles), Error> {
    let (c, files) = cached(&opts.cache, idx_dir, split, target, progress)?;
    if let Made::Rebuilt(why) = &c.made {
        notes.push(format!("{}: converted again, since {why}", c.entry.display()));
    }
    Ok((c.dataset, files))
}

/// One training run: (test error, seconds per pass, online mistakes).
type Run = (f64, f64, f64);

/// The one-vs-rest learners of the benchmark, in the table's order.
const LEARNERS: [Learner; 3] = [Learner::Perceptron, Learner::VotedPerceptron, Learner::AveragedPerceptron];
