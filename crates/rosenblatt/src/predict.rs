//! Predicting with a saved model on a dataset directory or a LIBSVM text
//! file, as `rosenblatt predict` does: text is read in the index base of
//! the model's training data (unless told otherwise) into a dataset held in
//! memory, so every input is scored by the same code.

use crate::compat::Expect;
use crate::error::Error;
use crate::model::{Model, Prediction};
use rosenblatt_loader::input::read_input;
use rosenblatt_loader::libsvm::parse_parallel;
use rosenblatt_loader::vw::Labels;
use rosenblatt_loader::{Dataset, LoadError, OpenOptions, ParseOptions, WriteOptions};
use std::path::Path;

/// A prediction for every input row, in input order.
#[derive(Clone, Debug)]
pub struct Predicted {
    /// One per row.
    pub predictions: Vec<Prediction>,
    /// What the input's meeting with the model called for saying.
    pub notes: Vec<String>,
}

/// The rows a model is to meet: a dataset directory, or text (a file,
/// plain or compressed, a pipe, or `-` for standard input): VW text for a
/// model trained on VW text, hashed with its settings (rows without a
/// label allowed unless `labels` are required); else LIBSVM text read in
/// `base`, by default the index base the model's training data had.
pub fn open_input(model: &Model, input: &Path, base: Option<u8>, labels: Labels) -> Result<Dataset, Error> {
    if input.is_dir() {
        if base.is_some() {
            return Err(Error::Input(format!(
                "{}: `zero-based`/`one-based` apply to LIBSVM text; a dataset knows its base",
                input.display()
            )));
        }
        return Ok(Dataset::open(input, OpenOptions::VERIFIED)?);
    }
    if let Some(h) = &model.meta.hashing {
        if base.is_some() {
            return Err(Error::Input(format!(
                "{}: `zero-based`/`one-based` apply to LIBSVM text; the model reads hashed text (VW or CSV)",
                input.display()
            )));
        }
        let compiled = h.compile().map_err(|e| Error::Input(e.to_string()))?;
        let bytes = read_input(input, 1 << 40)?;
        let w = h.write_options(&WriteOptions::default());
        // A model trained on CSV reads CSV, its label column where present.
        if let Some(label) = &h.label_column {
            let (rows, _) = rosenblatt_loader::csv::parse(input, &bytes, label, &compiled, labels)?;
            return Ok(Dataset::from_rows(input, &rows, &w)?);
        }
        // VW text without a single `|` has no features: another format.
        if !bytes.is_empty() && !bytes.contains(&b'|') {
            return Err(Error::Input(format!(
                "{}: no line holds a `|`, so this is not VW text, which the model (trained on VW text) reads",
                input.display()
            )));
        }
        let (rows, _) = rosenblatt_loader::vw::parse(&bytes, &compiled, labels)
            .map_err(|error| LoadError::Parse { path: input.to_path_buf(), error })?;
        return Ok(Dataset::from_rows(input, &rows, &w)?);
    }
    let base = base.unwrap_or(model.meta.index_base);
    let popts = ParseOptions { zero_based: base == 0, ..Default::default() };
    let bytes = read_input(input, 1 << 40)?;
    let rows = parse_parallel(&bytes, &popts, 4 << 20)
        .map_err(|error| LoadError::Parse { path: input.to_path_buf(), error })?;
    Ok(Dataset::from_rows(input, &rows, &WriteOptions { index_base: base, ..Default::default() })?)
}

/// Predicts every row of `input`: a dataset directory, or LIBSVM text
/// (plain, gzip or bzip2) read with indices counted from `base` (`None`:
/// the base of the model's training data). Labels in the input are not
/// looked at.
pub fn predict_path(model: &Model, model_path: &Path, input: &Path, base: Option<u8>) -> Result<Predicted, Error> {
    let expect = Expect::model(model_path, &model.meta);
    let data = open_input(model, input, base, Labels::Optional)?;
    let notes = expect.features(input, data.manifest())?;
    let predictions = if data.rows() == 0 { Vec::new() } else { model.predictions(&data.examples()?)? };
    Ok(Predicted { predictions, notes })
}
