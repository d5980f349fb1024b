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
    /// A one-pass run's seconds outside its pass (the pass's own seconds
    /// from `train`'s report): start, open and checks, the model written,
    /// exit — the run's fixed cost, measured, not inferred.
    around_seconds: f64,
    passes_seconds: f64,
    per_pass_seconds: f64,
    /// Per pass of the first configuration ÷ this one's.
    speedup: f64,
    test_error: Option<f64>,
    /// Whether the model is the same bytes as this part count's on the
    /// first thread count.
    same_model: bool,
}

/// One `train` run's figures.
struct Run {
    /// Wall seconds of the whole process.
    seconds: f64,
    /// The passes' own seconds, as `train` reports them.
    pass_seconds: f64,
    model: Vec<u8>,
    /// The last pass's test error.
    error: Option<f64>,
}

/// Runs `train` once.
fn train(a: &ScalingArgs, parts: usize, threads: usize, passes: u32, model: &Path) -> anyhow::Result<Run> {
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
    let passes = doc["passes"].as_array().context("train's JSON has no passes")?;
    let error = passes.last().and_then(|p| p["eval_error"].as_f64());
    let pass_seconds = passes.iter().filter_map(|p| p["seconds"].as_f64()).sum();
    let model = std::fs::read(model).with_context(|| format!("reading {}", model.display()))?;
    Ok(Run { seconds, pass_seconds, model, error })
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
            let (mut one, mut around, mut many) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
            let (mut error, mut bytes) = (None, Vec::new());
            for _ in 0..a.repeats {
                let r = train(&a, parts, t, 1, &model)?;
                (one, around) = (one.min(r.seconds), around.min(r.seconds - r.pass_seconds));
                let r = train(&a, parts, t, a.passes, &model)?;
                (many, bytes, error) = (many.min(r.seconds), r.model, r.error);
            }
            let same = first.get_or_insert_with(|| bytes.clone()) == &bytes;
            let per = (many - one) / f64::from(a.passes - 1);
            let speedup = rows.first().map_or(1.0, |r| r.per_pass_seconds / per);
            rows.push(Row {
                parts,
                threads: t,
                one_pass_seconds: one,
                around_seconds: around,
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
        "{} on {}: whole `train` runs, the best of {}; around it = the 1-pass run less its pass; per pass = ({} passes − 1) / {}; {cores} cores",
        a.learner.name(),
        a.dataset.display(),
        a.repeats,
        a.passes,
        a.passes - 1
    )?;
    outln!(
        "{:>6} {:>8} {:>12} {:>12} {:>12} {:>10} {:>12} {:>11}  model",
        "parts",
        "threads",
        "1 pass (s)",
        "around it",
        format!("{} passes (s)", a.passes),
        "per pass",
        "vs first",
        "test error"
    )?;
    for r in &rows {
        let error = r.test_error.map_or("—".to_string(), |e| format!("{:.2}%", e * 100.0));
        let same = if r.same_model { "same bytes" } else { "DIFFERS from the first thread count's" };
        outln!(
            "{:>6} {:>8} {:>12.3} {:>9.1} ms {:>12.3} {:>8.1} ms {:>11.2}× {:>11}  {same}",
            r.parts,
            r.threads,
            r.one_pass_seconds,
            r.around_seconds * 1e3,
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
