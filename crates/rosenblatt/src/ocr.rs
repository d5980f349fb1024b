//! The OCR benchmark: MNIST with one digit against the rest, the online
//! Perceptron's final vector, the Voted and the Averaged Perceptron trained
//! on the 60,000 training images in a seeded random order for several pass
//! counts, tested on the 10,000 test images.

use crate::error::Error;
use rosenblatt_kernels::Examples;
use rosenblatt_learners::{
    AveragedPerceptron, OnlineLearner, Order, Perceptron, PerceptronParams, TrainOptions, VotedPerceptron, train,
};
use rosenblatt_loader::dataset::write_dataset;
use rosenblatt_loader::idx::read_mnist;
use rosenblatt_loader::{Dataset, OpenOptions, WriteOptions, with_examples};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What to run.
#[derive(Clone, Debug)]
pub struct OcrOptions {
    /// A folder of MNIST IDX files (train and t10k images and labels,
    /// gzipped or not), or a converted training dataset (then the test set
    /// comes from `test_idx`).
    pub data: PathBuf,
    /// Where the MNIST IDX test files are when `data` is a dataset.
    pub test_idx: PathBuf,
    /// Where converted datasets are cached.
    pub cache: PathBuf,
    /// Pass counts (fractions allowed).
    pub passes: Vec<f64>,
    /// Seeds 0..seeds of the training order.
    pub seeds: u64,
    /// The digit that is +1.
    pub target: u8,
}

/// One learner at one pass count, over the seeds.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct OcrRecord {
    /// `perceptron`, `voted-perceptron` or `averaged-perceptron`.
    pub learner: &'static str,
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
    /// Training rows.
    pub train_rows: u64,
    /// Test rows.
    pub test_rows: u64,
    /// The encoding the converter chose.
    pub encoding: String,
    /// Median seconds of a read-only pass over the training shards.
    pub read_only_seconds: f64,
    /// One record per (learner, passes).
    pub records: Vec<OcrRecord>,
}

fn find_idx(dir: &Path, stem: &str) -> Result<PathBuf, Error> {
    for name in [format!("{stem}.gz"), stem.to_string()] {
        let p = dir.join(name);
        if p.exists() {
            return Ok(p);
        }
    }
    Err(Error::Input(format!("{}: no {stem}[.gz] (expected the MNIST IDX files there)", dir.display())))
}

/// MNIST `split` ("train" or "t10k") with digit `target` against the rest,
/// converted from the IDX files in `idx_dir` into `cache` on first use, then
/// opened.
pub fn cached(cache: &Path, idx_dir: &Path, split: &str, target: u8) -> Result<Dataset, Error> {
    let dir = cache.join(format!("mnist-{split}-target{target}"));
    if let Ok(ds) = Dataset::open(&dir, OpenOptions::default()) {
        return Ok(ds);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let images = find_idx(idx_dir, &format!("{split}-images.idx3-ubyte"))?;
    let labels = find_idx(idx_dir, &format!("{split}-labels.idx1-ubyte"))?;
    let (rows, dim) = read_mnist(&images, &labels, Some(target))?;
    let opts = WriteOptions { dim: Some(dim), index_base: 0, ..Default::default() };
    write_dataset(&dir, &rows, &opts)?;
    Ok(Dataset::open(&dir, OpenOptions::default())?)
}

/// Trains `l` and returns (test error of its model, seconds per pass,
/// online mistakes).
fn timed<L: OnlineLearner, E: Examples>(
    mut l: L,
    tr: &E,
    opts: &TrainOptions,
    test_error: impl FnOnce(&L::Model) -> f64,
) -> Result<(f64, f64, f64), Error> {
    let t = Instant::now();
    let r = train(&mut l, tr, opts)?;
    let secs = t.elapsed().as_secs_f64() / opts.passes;
    Ok((test_error(&l.model()), secs, r.mistakes() as f64))
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
        return Err(Error::Input("--seeds must be at least 1".into()));
    }
    if let Some(p) = opts.passes.iter().find(|p| !(p.is_finite() && **p > 0.0)) {
        return Err(Error::Input(format!("pass count {p} is not a positive number")));
    }
    progress("preparing MNIST shards");
    let (train_ds, test_idx) = if opts.data.join(rosenblatt_loader::dataset::MANIFEST).exists() {
        (Dataset::open(&opts.data, OpenOptions::default())?, opts.test_idx.clone())
    } else {
        (cached(&opts.cache, &opts.data, "train", opts.target)?, opts.data.clone())
    };
    let test_ds = cached(&opts.cache, &test_idx, "t10k", opts.target)?;
    if train_ds.manifest().label_kind != "binary" {
        return Err(Error::Input(format!(
            "{}: labels are {}; the OCR benchmark needs a one-vs-rest (binary) training set",
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
    let mut times: Vec<f64> = (0..7)
        .map(|_| {
            let t = Instant::now();
            let s: u64 = train_ds.shards().iter().map(|s| crate::read_only_pass(s.raw())).sum();
            std::hint::black_box(s);
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let read_only = times[3];
    let nnz = train_ds.manifest().nonzeros as f64;
    let dim = train_ds.dim() as usize;
    let mut records = Vec::new();
    with_examples!(train_ds.examples()?, |tr| {
        with_examples!(test_ds.examples()?, |te| {
            for &passes in &opts.passes {
                // (test errors, seconds per pass, mistakes) per learner over seeds
                let mut acc: [(Vec<f64>, Vec<f64>, Vec<f64>); 3] = Default::default();
                for seed in 0..opts.seeds {
                    progress(&format!("{passes} passes, seed {seed}"));
                    let topts = TrainOptions { passes, order: Order::Shuffle, seed, stop_when_separated: false };
                    let p = PerceptronParams::default();
                    let runs = [
                        timed(Perceptron::new(dim, p)?, &tr, &topts, |m| m.error_rate(&te))?,
                        timed(VotedPerceptron::new(dim, p, false)?, &tr, &topts, |m| m.predictor(&tr).error_rate(&te))?,
                        timed(AveragedPerceptron::new(dim, p, false)?, &tr, &topts, |m| m.error_rate(&te))?,
                    ];
                    for (a, (error, secs, mistakes)) in acc.iter_mut().zip(runs) {
                        a.0.push(error);
                        a.1.push(secs);
                        a.2.push(mistakes);
                    }
                }
                for (name, (errors, secs, mistakes)) in
                    ["perceptron", "voted-perceptron", "averaged-perceptron"].into_iter().zip(&acc)
                {
                    let (e, es) = mean_std(errors);
                    let (s, _) = mean_std(secs);
                    records.push(OcrRecord {
                        learner: name,
                        passes,
                        test_error: e,
                        test_error_std: es,
                        seconds_per_pass: s,
                        examples_per_second: tr.len() as f64 / s,
                        nonzeros_per_second: nnz / s,
                        pass_over_read_only: s / read_only,
                        mistakes: mean_std(mistakes).0,
                    });
                }
            }
            Ok::<(), Error>(())
        })
    })?;
    Ok(OcrReport {
        train_rows: train_ds.rows(),
        test_rows: test_ds.rows(),
        encoding: train_ds.manifest().encoding.clone(),
        read_only_seconds: read_only,
        records,
    })
}
