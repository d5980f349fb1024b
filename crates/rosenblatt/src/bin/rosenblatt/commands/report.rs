//! `rosenblatt report`, and the report `train --report` and `bench ocr
//! --report` write.

use crate::ui::Ui;
use rosenblatt::model::Model;
use rosenblatt::report::{Input, Report, render, write};
use std::path::{Path, PathBuf};

pub fn run(inputs: &[PathBuf], output: &Path, ui: Ui) -> anyhow::Result<()> {
    check_dir(output, "-o")?;
    let inputs = inputs.iter().map(|p| Input::read(p)).collect::<Result<Vec<_>, _>>()?;
    let report = render(&inputs, &[])?;
    finish(&report, output, ui)
}

/// The report of one document `v` (with its model, if in hand) into `dir`.
pub fn write_one(v: serde_json::Value, model: Option<&Model>, dir: &Path, ui: Ui) -> anyhow::Result<()> {
    let input = Input::from_value("run", v)?;
    let report = render(&[input], &[model])?;
    finish(&report, dir, ui)
}

/// Fails unless `dir`, given with `flag`, is a directory or can become
/// one: checked before a long run whose report goes there.
pub fn check_dir(dir: &Path, flag: &str) -> anyhow::Result<()> {
    match std::fs::metadata(dir) {
        Ok(m) if !m.is_dir() => {
            anyhow::bail!("{}: exists and is not a directory ({flag} takes a directory)", dir.display())
        }
        _ => Ok(()),
    }
}

fn finish(report: &Report, dir: &Path, ui: Ui) -> anyhow::Result<()> {
    report.notes.iter().for_each(|n| ui.note(n));
    write(dir, report)?;
    if !ui.json && !ui.quiet {
        // On stderr: stdout may be a table or JSON another program reads.
        eprintln!("report written to {} ({} files)", dir.join("index.html").display(), report.files.len());
    }
    Ok(())
}
