//! `rosenblatt bench scaling`: what cores buy on a dataset. Each run is
//! `rosenblatt train` as a whole process (this executable again), so the
//! seconds are the ones a user meets: start, open, the passes, the model
//! written, exit.

use crate::args::ScalingArgs;
use crate::ui::{Ui, outln};
use anyhow::{Context, bail};
use std::path::Path;
use std::time::Instant;

/// One (parts, threads) configuration's figures.
#[derive(serde::Serialize)]
struct Row {
    parts: usize,
    threads: usize,
    one_pass_seconds: f64,
    passes_seconds: f64,
    per_pass_seconds: f64,
    /// Per pass of the first configuration ÷ this one's.
    speedup: f64,
    test_error: Option<f64>,
    /// Whether the model is the same bytes as this part count's on the
    /// first thread count.
    same_model: bool,
}

/// Runs `train` once: (wall seconds, the model's bytes, the last pass's
/// test error).
fn train(
    a: &ScalingArgs,
    parts: usize,
    threads: usize,
    passes: u32,
    model: &Path,
) -> anyhow::Result<(f64, Vec<u8>, Option<f64>)> {
    let exe = std::env::current_exe().context("finding this executable")?;
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("train").arg(&a.dataset).args(["--learner", a.learner.name()]);
    cmd.args(["--parts", &parts.to_string(), "--threads", &threads.to_string(), "--passes", &passes.to_string()]);
    cmd.arg("-o").arg(model).args(["--quiet", "--json"]);
    if let Some(t) = &a.test {
        cmd.arg("--test").arg(t);
    }
    let start = Instant::now();
    let out = cmd.output().context("running train")?;
    let seconds = start.elapsed().as_secs_f64();
    if !out.status.success() {
        bail!("train --parts {parts} --threads {threads} failed: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).context("reading train's JSON")?;
    let error = doc["passes"].as_array().and_then(|p| p.last()).and_then(|p| p["eval_error"].as_f64());
    let bytes = std::fs::read(model).with_context(|| format!("reading {}", model.display()))?;
    Ok((seconds, bytes, error))
}

pub fn run(a: ScalingArgs, ui: Ui) -> anyhow::Result<()> {
    crate::ui::open_dataset(&a.dataset)?;
    if let Some(&0) = a.parts.iter().find(|&&p| p == 0) {
        bail!("--parts 0: give at least 1 part");
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut threads = if a.threads.is_empty() { vec![1, cores] } else { a.threads.clone() };
    threads.dedup();
    if threads.contains(&0) {
        bail!("--threads 0: give at least 1 thread");
    }
    // The runs' models, removed at the end (also on an error).
    struct Scratch(std::path::PathBuf);
    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    let tmp = Scratch(std::env::temp_dir().join(format!("rosenblatt-scaling-{}", std::process::id())));
    std::fs::create_dir_all(&tmp.0).with_context(|| format!("creating {}", tmp.0.display()))?;
    let model = tmp.0.join("m.model");
    let mut rows: Vec<Row> = Vec::new();
    for &parts in &a.parts {
        let mut first: Option<Vec<u8>> = None;
        for &t in &threads {
            let (mut one, mut many, mut error, mut bytes) = (f64::INFINITY, f64::INFINITY, None, Vec::new());
            for _ in 0..a.repeats {
                one = one.min(train(&a, parts, t, 1, &model)?.0);
                let (s, b, e) = train(&a, parts, t, a.passes, &model)?;
                (many, bytes, error) = (many.min(s), b, e);
            }
            let same = first.get_or_insert_with(|| bytes.clone()) == &bytes;
            let per = (many - one) / f64::from(a.passes - 1);
            let speedup = rows.first().map_or(1.0, |r| r.per_pass_seconds / per);
            rows.push(Row {
                parts,
                threads: t,
                one_pass_seconds: one,
                passes_seconds: many,
                per_pass_seconds: per,
                speedup,
                test_error: error,
                same_model: same,
            });
        }
    }
    if ui.json {
        let v = serde_json::json!({
            "dataset": a.dataset, "learner": a.learner.name(), "passes": a.passes,
            "repeats": a.repeats, "cores": cores, "runs": rows,
        });
        return crate::ui::json(&v);
    }
    outln!(
        "{} on {}: whole `train` runs, the best of {}; per pass = ({} passes − 1) / {}; {cores} cores",
        a.learner.name(),
        a.dataset.display(),
        a.repeats,
        a.passes,
        a.passes - 1
    )?;
    outln!(
        "{:>6} {:>8} {:>12} {:>12} {:>10} {:>12} {:>11}  model",
        "parts",
        "threads",
        "1 pass (s)",
        format!("{} passes (s)", a.passes),
        "per pass",
        "vs first",
        "test error"
    )?;
    for r in &rows {
        let error = r.test_error.map_or("—".to_string(), |e| format!("{:.2}%", e * 100.0));
        let same = if r.same_model { "same bytes" } else { "DIFFERS from the first thread count's" };
        outln!(
            "{:>6} {:>8} {:>12.3} {:>12.3} {:>8.1} ms {:>11.2}× {:>11}  {same}",
            r.parts,
            r.threads,
            r.one_pass_seconds,
            r.passes_seconds,
            r.per_pass_seconds * 1e3,
            r.speedup,
            error
        )?;
    }
    if rows.iter().any(|r| !r.same_model) {
        bail!("a part count's model differs across thread counts");
    }
    Ok(())
}
