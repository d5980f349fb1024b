//! Where a dataset meets a model, or the data a model is being trained on:
//! one check for every such place (`train --test` and `--holdout`, `eval`,
//! `predict`, `bounds --model`, the OCR benchmark).
//!
//! - Labels of another kind (±1 against class ids, or class ids the model
//!   does not know) are an error: the scores would be meaningless.
//! - Features beyond the model's dimension get weight 0, and a note says so.
//! - Data hashed from VW text otherwise than the model's (or not hashed,
//!   against a hashed model) is an error: its indices mean other features.
//! - Data whose text numbered features from another base gets a note: rows
//!   store zero-based indices, so feature `i` of a one-based file meets
//!   feature `i − 1` of a zero-based one, which is right only if both files
//!   were converted with the flag that matches them.

use crate::error::Error;
use crate::model::ModelMeta;
use rosenblatt_loader::{Dataset, LabelKind, Manifest};
use std::path::Path;

/// What the data should look like: what a model (or a training set) was
/// made from.
#[derive(Clone, Debug)]
pub struct Expect<'a> {
    /// How to name it in messages: `the model m.model`, `the training data d`.
    pub what: String,
    /// Its dimension.
    pub dim: u64,
    /// Its classes: `[-1, 1]`, or the class ids.
    pub classes: &'a [f64],
    /// The index base of its text.
    pub index_base: u8,
    /// How its features were hashed (VW text).
    pub hashing: Option<&'a rosenblatt_loader::vw::Hashing>,
}

impl<'a> Expect<'a> {
    /// What a model expects.
    pub fn model(path: &Path, meta: &'a ModelMeta) -> Self {
        Expect {
            what: format!("the model {}", path.display()),
            dim: meta.dim,
            classes: &meta.classes,
            index_base: meta.index_base,
            hashing: meta.hashing.as_ref(),
        }
    }

    /// What a model trained on `train` (with `classes`) will expect.
    pub fn training(train: &'a Dataset, classes: &'a [f64]) -> Self {
        Expect {
            what: format!("the training data {}", train.dir().display()),
            dim: train.dim(),
            classes,
            index_base: train.manifest().index_base,
            hashing: train.manifest().hashing.as_ref(),
        }
    }

    /// Checks the dataset `name` (manifest `m`) against this: an error for
    /// labels of another task, notes for the rest.
    pub fn meet(&self, name: &Path, m: &Manifest) -> Result<Vec<String>, Error> {
        self.check_labels(name, m)?;
        self.features(name, m)
    }

    /// An error if `m`'s features were hashed otherwise (or hashed where
    /// these were not, or the other way round).
    pub fn check_hashing(&self, name: &Path, m: &Manifest) -> Result<(), Error> {
        let refuse = |reason: String| Err(Error::Pairing { data: name.to_path_buf(), reason });
        match (self.hashing, m.hashing.as_ref()) {
            (None, None) => Ok(()),
            (Some(a), Some(b)) if a == b => Ok(()),
            (Some(a), Some(b)) => refuse(format!(
                "its features were hashed from VW text with {b}, and {} with {a}: an index means another feature \
                 there (convert it again with the same settings)",
                self.what
            )),
            (Some(_), None) => refuse(format!(
                "{} was trained on hashed VW text, and this data was not hashed (give it VW text, hashed with the \
                 model's settings)",
                self.what
            )),
            (None, Some(_)) => {
                refuse(format!("this data was hashed from VW text, and {} was trained on unhashed features", self.what))
            }
        }
    }

    /// An error if `m`'s labels are of another task.
    pub fn check_labels(&self, name: &Path, m: &Manifest) -> Result<(), Error> {
        let binary = self.classes == [-1.0, 1.0];
        let refuse = |reason: String| Err(Error::Pairing { data: name.to_path_buf(), reason });
        match (binary, m.label_kind) {
            (true, LabelKind::Binary) => {}
            (true, kind) => {
                return refuse(format!(
                    "labels are {kind}, but {} is for ±1 labels (another task? for MNIST, convert with `target` DIGIT)",
                    self.what
                ));
            }
            (false, LabelKind::Classes) => {
                let k = self.classes.len();
                if let Some(&(top, _)) = m.label_counts.iter().find(|(l, _)| !(*l >= 0.0 && (*l as usize) < k)) {
                    return refuse(format!(
                        "has class {top}, but {} knows classes 0..{} (another task?)",
                        self.what,
                        k - 1
                    ));
                }
            }
            (false, kind) => {
                return refuse(format!(
                    "labels are {kind}, but {} is for class ids 0..{} (another task?)",
                    self.what,
                    self.classes.len() - 1
                ));
            }
        }
        Ok(())
    }

    /// Notes on `m`'s features: beyond the dimension, or numbered from
    /// another base; an error if they were hashed otherwise
    /// ([`Expect::check_hashing`]).
    pub fn features(&self, name: &Path, m: &Manifest) -> Result<Vec<String>, Error> {
        self.check_hashing(name, m)?;
        let mut notes = Vec::new();
        if m.dim > self.dim {
            notes.push(format!(
                "{} has features beyond the dimension {} of {} (up to {}); they get weight 0",
                name.display(),
                self.dim,
                self.what,
                m.dim
            ));
        }
        if m.index_base != self.index_base {
            notes.push(format!(
                "{} numbered its features from {} in its text, {} from {}: features are matched by position \
                 (index − base), which is right only if each file was converted with `zero-based` \
                 that fits it",
                self.what,
                self.index_base,
                name.display(),
                m.index_base
            ));
        }
        Ok(notes)
    }
}

/// The classes a dataset's labels name: `[-1, 1]` for binary labels, the
/// class ids `0..=max` otherwise.
pub fn classes_of(ds: &Dataset) -> Result<Vec<f64>, Error> {
    let m = ds.manifest();
    match m.label_kind {
        LabelKind::Binary => Ok(vec![-1.0, 1.0]),
        LabelKind::Classes => {
            let max = m.label_counts.iter().map(|c| c.0).fold(0.0, f64::max);
            Ok((0..=max as u64).map(|c| c as f64).collect())
        }
        k => Err(Error::Pairing {
            data: ds.dir().to_path_buf(),
            reason: format!("labels are {k}; training needs ±1 labels or class ids"),
        }),
    }
}
