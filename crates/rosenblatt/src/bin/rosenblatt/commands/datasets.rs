//! `rosenblatt datasets`: generated data, written straight to shards.

use crate::args::{OcrGenArgs, SparseArgs, TabularArgs};
use crate::ui::{Ui, outln};
use anyhow::bail;
use rosenblatt_loader::Manifest;
use std::path::Path;
use std::time::Instant;

pub fn sparse(a: SparseArgs, ui: Ui) -> anyhow::Result<()> {
    use rosenblatt_datasets::sparse::{SparseSpec, write};
    let spec = SparseSpec {
        rows: a.rows,
        dim: a.dim,
        nnz: a.nnz,
        zipf: a.zipf,
        density: a.density,
        noise: a.noise,
        seed: a.seed,
    };
    train_and_test(&a.output, a.rows, a.test_rows, ui, |tr, test| {
        let (train, test) = write(&spec, tr, test)?;
        Ok(Written { train, test, bayes_error: None })
    })
}

pub fn tabular(a: TabularArgs, ui: Ui) -> anyhow::Result<()> {
    use rosenblatt_datasets::tabular::{TabularSpec, write};
    let spec =
        TabularSpec { rows: a.rows, positive: a.positive, sharpness: a.sharpness, seed: a.seed, ..Default::default() };
    train_and_test(&a.output, a.rows, a.test_rows, ui, |tr, test| {
        let w = write(&spec, tr, test)?;
        Ok(Written { train: w.train, test: w.test, bayes_error: Some(w.bayes_error) })
    })
}

/// The datasets a generator wrote.
struct Written {
    train: Manifest,
    test: Option<Manifest>,
    /// Known for generators whose labels follow a known model: of the test
    /// set if there is one.
    bayes_error: Option<f64>,
}

/// Writes `DIR/train` and (with test rows) `DIR/test` by `write`, refusing
/// to overwrite a dataset, and reports them.
fn train_and_test(
    output: &Path,
    rows: usize,
    test_rows: usize,
    ui: Ui,
    write: impl FnOnce(&Path, Option<(usize, &Path)>) -> anyhow::Result<Written>,
) -> anyhow::Result<()> {
    let (tr, te) = (output.join("train"), output.join("test"));
    for d in [&tr, &te] {
        if d.join("dataset.json").exists() {
            bail!("{}: already holds a dataset; remove it or choose another directory", d.display());
        }
    }
    let bar = ui.bar(None, "");
    bar.set_message(format!("generating {rows} + {test_rows} rows"));
    let start = Instant::now();
    let test = (test_rows > 0).then_some((test_rows, te.as_path()));
    let Written { train: m, test: t, bayes_error } = write(&tr, test)?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if ui.json {
        let v = serde_json::json!({
            "train": tr, "test": t.as_ref().map(|_| &te), "rows": m.rows, "test_rows": t.as_ref().map(|t| t.rows),
            "nonzeros": m.nonzeros, "dim": m.dim, "encoding": m.encoding.name(), "seconds": secs,
            "bayes_error": bayes_error,
        });
        crate::ui::json(&v)?;
    } else {
        outln!(
            "{}: {} rows, {} nonzeros, dimension {}, encoding {}{}{}; {:.1} s",
            tr.display(),
            m.rows,
            m.nonzeros,
            m.dim,
            m.encoding,
            t.map(|t| format!("; {}: {} rows", te.display(), t.rows)).unwrap_or_default(),
            bayes_error.map(|b| format!("; Bayes error {b:.4}")).unwrap_or_default(),
            secs
        )?;
    }
    Ok(())
}

pub fn ocr(a: OcrGenArgs, ui: Ui) -> anyhow::Result<()> {
    use rosenblatt_datasets::ocr::{Deformation, Digits, OcrSpec, write};
    let idx = rosenblatt::ocr::find_idx(&a.mnist, "train")?;
    if a.output.join("dataset.json").exists() {
        bail!("{}: already holds a dataset; remove it or choose another directory", a.output.display());
    }
    let spec = OcrSpec {
        rows: a.rows,
        seed: a.seed,
        target: a.target,
        deformation: Deformation { shift: a.shift, rotate: a.rotate, scale: a.scale, alpha: a.alpha, sigma: a.sigma },
        ..Default::default()
    };
    let start = Instant::now();
    let digits = Digits::read(&idx.images, &idx.labels)?;
    let bar = ui.bar(Some(a.rows), "rows");
    let m = write(&digits, &spec, &a.output, |done| bar.set_position(done))?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let bytes: u64 = m.shards.iter().map(|s| s.bytes).sum();
    if ui.json {
        let v = serde_json::json!({
            "dataset": a.output, "rows": m.rows, "dim": m.dim, "encoding": m.encoding.name(), "label_kind": m.label_kind,
            "shards": m.shards.len(), "bytes": bytes, "seconds": secs, "rows_per_second": m.rows as f64 / secs,
        });
        crate::ui::json(&v)?;
    } else {
        outln!(
            "{}: {} rows of deformed digits ({} labels), {} shards, {:.2} GB, encoding {}; {:.1} s ({:.0} rows/s)",
            a.output.display(),
            m.rows,
            m.label_kind,
            m.shards.len(),
            bytes as f64 / 1e9,
            m.encoding,
            secs,
            m.rows as f64 / secs
        )?;
    }
    Ok(())
}
