//! A synthetic set in the shape of one-hot encoded census data (the Adult
//! set as LIBSVM's `a9a`): a row is one category from each of several
//! attributes, each a binary feature, so every row has as many ones as
//! there are attributes; categories are drawn with Zipf-like frequencies
//! (the first of each attribute most common); the classes are unbalanced
//! (a `positive` share on the positive side of a hidden linear model
//! `m(x) = w*·x + b*`); the label is +1 with probability `σ(β·m(x))`, the
//! logistic model, so that label noise is heaviest near the boundary as in
//! real data.
//!
//! The Bayes classifier is `sign(m(x))` and its error on a set of rows is
//! known exactly: the mean of `σ(−β·|m(x)|)` ([`bayes_error`]). A
//! learner's test error is measured against that floor.

use crate::error::{GenError, param};
use crate::sparse::gaussian;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rosenblatt_loader::libsvm::NO_QID;
use rosenblatt_loader::{LabelKind, Manifest, Rows, WriteOptions, write_dataset};
use std::path::Path;

/// The categories of a9a's 14 attributes (age, work class, …, native
/// country): 123 features.
pub const CENSUS: [usize; 14] = [5, 8, 5, 16, 5, 7, 14, 6, 5, 2, 2, 2, 5, 41];

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct TabularSpec {
    /// Rows.
    pub rows: usize,
    /// Categories of each attribute (each ≥ 2); the dimension is their sum.
    pub attributes: Vec<usize>,
    /// Share of rows on the positive side of the hidden model, in (0, 1).
    pub positive: f64,
    /// β: how sharply the label follows the hidden margin (larger: less
    /// noise), > 0. The hidden weights are standard normal.
    pub sharpness: f64,
    /// Seed of the hidden model and the rows.
    pub seed: u64,
}

impl Default for TabularSpec {
    /// a9a's shape: 32,561 rows over [`CENSUS`], 24% positive, β = 1
    /// (a Bayes error near 0.13, LIBLINEAR's error on a9a being 0.15).
    fn default() -> Self {
        TabularSpec { rows: 32_561, attributes: CENSUS.to_vec(), positive: 0.24, sharpness: 1.0, seed: 0 }
    }
}

impl TabularSpec {
    fn check(&self) -> Result<(), GenError> {
        if self.rows == 0 {
            return Err(param("rows", self.rows, "at least 1"));
        }
        if self.attributes.is_empty() || self.attributes.iter().any(|&c| c < 2) {
            return Err(GenError::Parameter {
                name: "attributes",
                value: format!("{:?}", self.attributes),
                expected: "one or more, each with 2 or more categories",
            });
        }
        if self.dim() > 1 << 31 {
            return Err(param("attributes", self.dim(), "at most 2^31 categories in all"));
        }
        if !(self.positive > 0.0 && self.positive < 1.0) {
            return Err(param("positive", self.positive, "a fraction in (0, 1)"));
        }
        if !(self.sharpness.is_finite() && self.sharpness > 0.0) {
            return Err(param("sharpness", self.sharpness, "a finite number > 0"));
        }
        Ok(())
    }

    /// The dimension: the number of categories in all.
    pub fn dim(&self) -> usize {
        self.attributes.iter().sum()
    }
}

/// The hidden model and the category frequencies.
struct Model {
    /// Per attribute: its first feature and the cumulative frequencies of
    /// its categories (last = 1).
    cdf: Vec<(u32, Vec<f64>)>,
    w: Vec<f64>,
    b: f64,
}

impl Model {
    fn new(spec: &TabularSpec) -> Model {
        let mut r = Xoshiro256PlusPlus::seed_from_u64(spec.seed ^ 0x7461_6275_6c61_7200);
        let mut first = 0u32;
        let cdf = spec
            .attributes
            .iter()
            .map(|&c| {
                let mut acc = 0.0;
                let mut f: Vec<f64> = (0..c)
                    .map(|k| {
                        acc += 1.0 / (k + 1) as f64;
                        acc
                    })
                    .collect();
                f.iter_mut().for_each(|v| *v /= acc);
                let at = first;
                first += c as u32;
                (at, f)
            })
            .collect();
        let w = (0..spec.dim()).map(|_| gaussian(&mut r)).collect();
        let mut m = Model { cdf, w, b: 0.0 };
        // The bias puts the `positive` quantile of a pilot sample's margins
        // at zero.
        let mut pilot = Xoshiro256PlusPlus::seed_from_u64(spec.seed ^ 0x7069_6c6f_7400_0000);
        let mut row = Vec::new();
        let mut margins: Vec<f64> = (0..16_384)
            .map(|_| {
                m.sample(&mut pilot, &mut row);
                m.margin(&row)
            })
            .collect();
        margins.sort_by(f64::total_cmp);
        let k = ((1.0 - spec.positive) * margins.len() as f64) as usize;
        m.b = -margins[k.min(margins.len() - 1)];
        m
    }

    fn margin(&self, row: &[u32]) -> f64 {
        self.b + row.iter().map(|&f| self.w[f as usize]).sum::<f64>()
    }

    /// One category of each attribute, as increasing feature ids.
    fn sample(&self, r: &mut Xoshiro256PlusPlus, row: &mut Vec<u32>) {
        row.clear();
        for (first, cdf) in &self.cdf {
            let u: f64 = r.random();
            let k = cdf.partition_point(|&c| c <= u).min(cdf.len() - 1);
            row.push(first + k as u32);
        }
    }
}

fn sigmoid(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

/// The error of the Bayes classifier `sign(w*·x + b*)` on `rows` (made from
/// `spec`): the mean over the rows of `σ(−β·|w*·x + b*|)`, the probability
/// that a row's label is on the other side. No classifier's expected error
/// on these rows is lower.
pub fn bayes_error(spec: &TabularSpec, rows: &Rows) -> Result<f64, GenError> {
    spec.check()?;
    let m = Model::new(spec);
    let n = rows.labels.len();
    let sum: f64 = (0..n)
        .map(|i| {
            let ids = &rows.indices[rows.offsets[i] as usize..rows.offsets[i + 1] as usize];
            sigmoid(-spec.sharpness * m.margin(ids).abs())
        })
        .sum();
    Ok(sum / n.max(1) as f64)
}

/// The hidden model `(w*, b*)` of `spec`: a row's label is +1 with
/// probability `σ(β·(w*·x + b*))`.
pub fn hidden_model(spec: &TabularSpec) -> Result<(Vec<f64>, f64), GenError> {
    spec.check()?;
    let m = Model::new(spec);
    Ok((m.w, m.b))
}

/// The rows of `stream` (0 for a training set, 1 for its test set, …), in
/// memory. Each stream is one generator, so the rows depend on the spec and
/// the stream only.
pub fn generate(spec: &TabularSpec, stream: u64) -> Result<Rows, GenError> {
    spec.check()?;
    let model = Model::new(spec);
    let mut r = Xoshiro256PlusPlus::seed_from_u64(spec.seed ^ stream.wrapping_mul(0xa076_1d64_78bd_642f) ^ 0x726f_7773);
    let a = spec.attributes.len();
    let mut rows = Rows { dim: spec.dim() as u64, ..Rows::default() };
    rows.offsets.reserve(spec.rows + 1);
    rows.offsets.push(0);
    rows.indices.reserve(spec.rows * a);
    let mut row = Vec::with_capacity(a);
    for i in 0..spec.rows {
        model.sample(&mut r, &mut row);
        let p = sigmoid(spec.sharpness * model.margin(&row));
        let y = if r.random::<f64>() < p { 1.0 } else { -1.0 };
        rows.indices.extend_from_slice(&row);
        rows.offsets.push(((i + 1) * a) as u64);
        rows.labels.push(y);
    }
    rows.values = vec![1.0; rows.indices.len()];
    rows.qids = vec![NO_QID; spec.rows];
    Ok(rows)
}

/// What [`write`] wrote.
#[derive(Clone, Debug)]
pub struct Written {
    /// The training set.
    pub train: Manifest,
    /// The test set, if asked for.
    pub test: Option<Manifest>,
    /// The Bayes error ([`bayes_error`]) of the test set, or of the
    /// training set when there is none.
    pub bayes_error: f64,
}

/// Generates a training set (stream 0) into `dir` and, with `test`, a test
/// set from the same hidden model (stream 1).
pub fn write(spec: &TabularSpec, dir: &Path, test: Option<(usize, &Path)>) -> Result<Written, GenError> {
    let opts = WriteOptions {
        dim: Some(spec.dim() as u64),
        index_base: rosenblatt_loader::libsvm::DEFAULT_BASE,
        label_kind: Some(LabelKind::Binary),
        ..Default::default()
    };
    let rows = generate(spec, 0)?;
    let train = write_dataset(dir, &rows, &opts)?;
    let mut bayes = bayes_error(spec, &rows)?;
    let test = match test {
        Some((n, tdir)) => {
            let spec = TabularSpec { rows: n, ..spec.clone() };
            let rows = generate(&spec, 1)?;
            bayes = bayes_error(&spec, &rows)?;
            Some(write_dataset(tdir, &rows, &opts)?)
        }
        None => None,
    };
    Ok(Written { train, test, bayes_error: bayes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_one_hot_with_the_asked_balance_and_noise() {
        let spec = TabularSpec { rows: 40_000, ..TabularSpec::default() };
        let rows = generate(&spec, 0).unwrap();
        let (w, b) = hidden_model(&spec).unwrap();
        assert_eq!(rows.dim, 123);
        let (mut positive, mut flipped) = (0usize, 0usize);
        for i in 0..spec.rows {
            let ids = &rows.indices[rows.offsets[i] as usize..rows.offsets[i + 1] as usize];
            // One category per attribute, in increasing order, inside its
            // attribute's range.
            let mut first = 0u32;
            for (k, &c) in CENSUS.iter().enumerate() {
                assert!((first..first + c as u32).contains(&ids[k]), "row {i} attribute {k}: {}", ids[k]);
                first += c as u32;
            }
            let side = b + ids.iter().map(|&f| w[f as usize]).sum::<f64>() > 0.0;
            positive += usize::from(side);
            flipped += usize::from(side != (rows.labels[i] > 0.0));
        }
        let n = spec.rows as f64;
        assert!((positive as f64 / n - 0.24).abs() < 0.02, "positive share {}", positive as f64 / n);
        // The labels disagree with the hidden side as often as the Bayes
        // error says (binomial s.d. about 0.002 here).
        let bayes = bayes_error(&spec, &rows).unwrap();
        assert!((0.05..0.25).contains(&bayes), "{bayes}");
        assert!((flipped as f64 / n - bayes).abs() < 0.01, "flip rate {} vs {bayes}", flipped as f64 / n);
        assert!(rows.values.iter().all(|&v| v == 1.0));
        assert_eq!(generate(&spec, 0).unwrap().labels, rows.labels, "deterministic");
        assert_ne!(generate(&spec, 1).unwrap().indices, rows.indices, "streams differ");
    }

    #[test]
    fn bad_specs_are_refused() {
        let bad = [
            TabularSpec { rows: 0, ..TabularSpec::default() },
            TabularSpec { attributes: vec![3, 1], ..TabularSpec::default() },
            TabularSpec { positive: 1.0, ..TabularSpec::default() },
            TabularSpec { sharpness: 0.0, ..TabularSpec::default() },
        ];
        for s in bad {
            assert!(generate(&s, 0).is_err(), "{s:?}");
        }
    }
}
