//! A synthetic sparse classification set in the shape of text or click
//! data: every row has `nnz` distinct features drawn with Zipf-like
//! frequencies (feature of rank `r` with probability ∝ `1/(r+1)^s`, ranks
//! scattered over the index space by a seeded permutation), values
//! `k/16` for `k` in `1..=16` (exact in the u8 encoding), and label
//! `sign(w*·x + b*)` of a hidden sparse linear model `w*` (a `density`
//! fraction of the features with N(0, 1) weights; `b*` balances the
//! classes), flipped with probability `noise`.
//!
//! The hidden model depends only on the seed, so a training and a test set
//! drawn with the same seed and different streams share it.

use crate::error::{GenError, param};
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use rosenblatt_loader::LabelKind;
use rosenblatt_loader::libsvm::NO_QID;
use rosenblatt_loader::{Manifest, Rows, WriteOptions, write_dataset};
use std::path::Path;

/// Rows generated per block (the unit of parallel work and of seeding).
const BLOCK: usize = 4096;

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SparseSpec {
    /// Rows.
    pub rows: usize,
    /// Dimension (features).
    pub dim: usize,
    /// Distinct features per row.
    pub nnz: usize,
    /// Zipf exponent `s` of the feature frequencies.
    pub zipf: f64,
    /// Fraction of features with a non-zero hidden weight.
    pub density: f64,
    /// Probability that a label is flipped.
    pub noise: f64,
    /// Seed of the hidden model, the feature permutation and the rows.
    pub seed: u64,
}

impl Default for SparseSpec {
    /// The benchmark's set: 2,000,000 rows × 80 features over 2^20, Zipf
    /// exponent 1, 10% of features in the hidden model, 5% label noise.
    fn default() -> Self {
        SparseSpec { rows: 2_000_000, dim: 1 << 20, nnz: 80, zipf: 1.0, density: 0.1, noise: 0.05, seed: 0 }
    }
}

impl SparseSpec {
    fn check(&self) -> Result<(), GenError> {
        if self.rows == 0 {
            return Err(param("rows", self.rows, "at least 1"));
        }
        if !(2..=1 << 31).contains(&self.dim) {
            return Err(param("dim", self.dim, "between 2 and 2^31"));
        }
        if self.nnz == 0 || self.nnz > self.dim / 2 {
            return Err(param("nnz", self.nnz, "between 1 and half the dimension"));
        }
        if !(self.zipf.is_finite() && self.zipf >= 0.0) {
            return Err(param("zipf", self.zipf, "a finite number >= 0"));
        }
        if !(self.density > 0.0 && self.density <= 1.0) {
            return Err(param("density", self.density, "a fraction in (0, 1]"));
        }
        if !(0.0..=0.5).contains(&self.noise) {
            return Err(param("noise", self.noise, "a probability in [0, 0.5]"));
        }
        Ok(())
    }
}

/// The hidden model and the sampling tables shared by every row.
struct Model {
    /// Cumulative rank probabilities (last = 1).
    cdf: Vec<f64>,
    /// Feature id of each rank.
    feature: Vec<u32>,
    /// Hidden weights by feature id.
    w: Vec<f32>,
    /// Hidden bias: minus the median margin of a pilot sample, so that the
    /// classes are about balanced (frequent features would skew them).
    b: f64,
}

/// A standard normal draw.
pub(crate) fn gaussian(r: &mut Xoshiro256PlusPlus) -> f64 {
    // Box–Muller; 1 − u keeps the logarithm finite.
    let (u, v): (f64, f64) = (r.random(), r.random());
    (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

impl Model {
    fn new(spec: &SparseSpec) -> Model {
        let mut r = Xoshiro256PlusPlus::seed_from_u64(spec.seed ^ 0x6d6f_6465_6c00_0000);
        let mut acc = 0.0;
        let mut cdf: Vec<f64> = (0..spec.dim)
            .map(|k| {
                acc += 1.0 / ((k + 1) as f64).powf(spec.zipf);
                acc
            })
            .collect();
        cdf.iter_mut().for_each(|c| *c /= acc);
        let mut feature: Vec<u32> = (0..spec.dim as u32).collect();
        feature.shuffle(&mut r);
        let w = (0..spec.dim)
            .map(|_| if r.random::<f64>() < spec.density { gaussian(&mut r) as f32 } else { 0.0 })
            .collect();
        let mut m = Model { cdf, feature, w, b: 0.0 };
        let mut pilot = Xoshiro256PlusPlus::seed_from_u64(spec.seed ^ 0x7069_6c6f_7400_0000);
        let mut margins: Vec<f64> = (0..4096)
            .map(|_| {
                let mut row = Vec::new();
                sample_row(spec, &m, &mut pilot, &mut row);
                row.iter().map(|&(f, v)| f64::from(m.w[f as usize]) * f64::from(v)).sum()
            })
            .collect();
        margins.sort_by(f64::total_cmp);
        m.b = -margins[margins.len() / 2];
        m
    }

    /// A feature id drawn with the Zipf frequencies.
    fn draw(&self, r: &mut Xoshiro256PlusPlus) -> u32 {
        let u: f64 = r.random();
        let rank = self.cdf.partition_point(|&c| c <= u).min(self.cdf.len() - 1);
        self.feature[rank]
    }
}

/// Draws per non-zero after which a row stops drawing and takes the most
/// frequent features it lacks: a steep exponent puts nearly all the mass on
/// fewer features than a row needs (`--zipf 1e300` drew feature 0 forever).
/// At the default exponent a row of 80 takes about 90 draws; 320 would need
/// three draws in four to repeat a feature already in the row.
const DRAWS_PER_NONZERO: usize = 4;

/// `nnz` distinct features in increasing order, with their values.
fn sample_row(spec: &SparseSpec, model: &Model, r: &mut Xoshiro256PlusPlus, row: &mut Vec<(u32, f32)>) {
    row.clear();
    let mut draws = 0;
    while row.len() < spec.nnz && draws < DRAWS_PER_NONZERO * spec.nnz {
        let f = model.draw(r);
        if !row.iter().any(|e| e.0 == f) {
            row.push((f, 0.0));
        }
        draws += 1;
    }
    // `nnz` is at most half the dimension: the ranks hold enough.
    let mut rank = 0;
    while row.len() < spec.nnz {
        let f = model.feature[rank];
        if !row.iter().any(|e| e.0 == f) {
            row.push((f, 0.0));
        }
        rank += 1;
    }
    row.sort_unstable_by_key(|e| e.0);
    for e in row.iter_mut() {
        e.1 = f32::from(r.random_range(1u8..=16)) / 16.0;
    }
}

/// One block of rows: (indices, values, labels), `nnz` entries per row.
fn block(spec: &SparseSpec, model: &Model, stream: u64, b: usize, rows: usize) -> (Vec<u32>, Vec<f32>, Vec<f32>) {
    let seed = spec.seed ^ stream.wrapping_mul(0xa076_1d64_78bd_642f) ^ (b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut r = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut idx, mut val, mut lab) =
        (Vec::with_capacity(rows * spec.nnz), Vec::with_capacity(rows * spec.nnz), Vec::with_capacity(rows));
    let mut row = Vec::with_capacity(spec.nnz);
    for _ in 0..rows {
        sample_row(spec, model, &mut r, &mut row);
        let mut margin = model.b;
        for &(f, v) in &row {
            margin += f64::from(model.w[f as usize]) * f64::from(v);
            idx.push(f);
            val.push(v);
        }
        let mut y = if margin > 0.0 { 1.0 } else { -1.0 };
        if r.random::<f64>() < spec.noise {
            y = -y;
        }
        lab.push(y);
    }
    (idx, val, lab)
}

/// The hidden model `(w*, b*)` of `spec` (weights by feature id): labels
/// are `sign(w*·x + b*)` before noise.
pub fn hidden_model(spec: &SparseSpec) -> Result<(Vec<f32>, f64), GenError> {
    spec.check()?;
    let m = Model::new(spec);
    Ok((m.w, m.b))
}

/// Generates the rows of `stream` (0 for a training set, 1 for its test
/// set, …) in memory, in parallel over blocks; the same spec and stream give
/// the same rows on any number of threads.
pub fn generate(spec: &SparseSpec, stream: u64) -> Result<Rows, GenError> {
    spec.check()?;
    let model = Model::new(spec);
    let blocks: Vec<_> = (0..spec.rows.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| block(spec, &model, stream, b, BLOCK.min(spec.rows - b * BLOCK)))
        .collect();
    let mut rows = Rows { dim: spec.dim as u64, ..Rows::default() };
    rows.offsets.reserve(spec.rows + 1);
    rows.offsets.push(0);
    rows.indices.reserve(spec.rows * spec.nnz);
    rows.values.reserve(spec.rows * spec.nnz);
    for (i, v, l) in blocks {
        for k in 0..l.len() {
            rows.offsets.push(((rows.labels.len() + k + 1) * spec.nnz) as u64);
        }
        rows.indices.extend_from_slice(&i);
        rows.values.extend_from_slice(&v);
        rows.labels.extend_from_slice(&l);
    }
    rows.qids = vec![NO_QID; rows.labels.len()];
    Ok(rows)
}

/// Generates a training set (stream 0) into `dir` and, with `test_rows`, a
/// test set from the same hidden model (stream 1) into `test_dir`.
pub fn write(
    spec: &SparseSpec,
    dir: &Path,
    test: Option<(usize, &Path)>,
) -> Result<(Manifest, Option<Manifest>), GenError> {
    let opts = WriteOptions {
        dim: Some(spec.dim as u64),
        index_base: rosenblatt_loader::libsvm::DEFAULT_BASE,
        label_kind: Some(LabelKind::Binary),
        ..Default::default()
    };
    let train = write_dataset(dir, &generate(spec, 0)?, &opts)?;
    let test = match test {
        Some((rows, tdir)) => Some(write_dataset(tdir, &generate(&SparseSpec { rows, ..*spec }, 1)?, &opts)?),
        None => None,
    };
    Ok((train, test))
}
