//! Predicting with a saved model on a dataset directory or a LIBSVM text
//! file, as `rosenblatt predict` does: text is read in the index base of
//! the model's training data (unless told otherwise) into a dataset held in
//! memory, so every input is scored by the same code.

use crate::compat::Expect;
use crate::error::Error;
use crate::model::{Model, Prediction, Weights};
use rosenblatt_loader::format::{Layout, ValueEncoding};
use rosenblatt_loader::input::read_input;
use rosenblatt_loader::libsvm::parse_parallel;
use rosenblatt_loader::vw::Labels;
use rosenblatt_loader::{Dataset, Encoding, LoadError, OpenOptions, ParseOptions, Rows, WriteOptions};
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
/// `base`, by default the index base the model's training data had (rows
/// without a label allowed likewise).
///
/// Text rows are made ready as [`ready_rows`] makes them, and kept as f32
/// values in sparse rows whatever they hold: so a row's score is the same
/// bits whatever else the text holds, and the same as `serve` answers
/// for it.
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
    let text_rows = |mut rows: Rows, w: WriteOptions| -> Result<Dataset, Error> {
        // The text's own dimension, for the note on features beyond the model's.
        let dim = rows.min_dim().max(model.dim() as u64);
        ready_rows(model, &mut rows);
        let w = WriteOptions { encoding: Some(TEXT_ROWS), dim: Some(dim), ..w };
        Ok(Dataset::from_rows(input, &rows, &w)?)
    };
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
            return text_rows(rows, w);
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
        return text_rows(rows, w);
    }
    let base = base.unwrap_or(model.meta.index_base);
    let bytes = read_input(input, 1 << 40)?;
    let rows = parse_parallel(&bytes, &libsvm_options(base, labels), 4 << 20)
        .map_err(|error| LoadError::Parse { path: input.to_path_buf(), error })?;
    text_rows(rows, WriteOptions { index_base: base, ..Default::default() })
}

/// How text rows are kept to be scored: sparse, f32 values, whatever the
/// text holds (a compact encoding, chosen by the whole input, would sum a
/// row's terms in another order).
const TEXT_ROWS: Encoding = Encoding { layout: Layout::Sparse, index_bytes: 4, values: ValueEncoding::F32 };

/// How LIBSVM text is read for a model: indices from `base`, rows without
/// a label allowed unless `labels` are required.
pub fn libsvm_options(base: u8, labels: Labels) -> ParseOptions {
    ParseOptions { zero_based: base == 0, unlabeled_rows: labels == Labels::Optional, ..Default::default() }
}

/// Makes rows read from text ready to be scored by `model`: a linear or
/// multi-class model has no weight for a feature beyond its dimension
/// (its weight is 0), so such features are dropped rather than the model
/// widened for them; voted and kernel models see every feature.
pub fn ready_rows(model: &Model, rows: &mut Rows) {
    let dim = model.dim();
    if !matches!(model.weights, Weights::Linear(_) | Weights::Multiclass(_)) || rows.min_dim() <= dim as u64 {
        return;
    }
    let mut kept = 0usize;
    let mut start = 0usize;
    for r in 0..rows.len() {
        let end = rows.offsets[r + 1] as usize;
        for k in start..end {
            if (rows.indices[k] as usize) < dim {
                rows.indices[kept] = rows.indices[k];
                rows.values[kept] = rows.values[k];
                kept += 1;
            }
        }
        start = end;
        rows.offsets[r + 1] = kept as u64;
    }
    rows.indices.truncate(kept);
    rows.values.truncate(kept);
    rows.dim = rows.dim.min(dim as u64);
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
