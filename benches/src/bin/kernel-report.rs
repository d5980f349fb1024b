//! Reads criterion's results for the kernel benchmarks and prints, per
//! group, each implementation's median with nonzeros/s, GFLOP/s, bytes of row
//! data per second and the speed-up over the oracle; then the foundation
//! issue's targets, as ratios measured in the same run.
//!
//! Usage: `cargo run --release -p rosenblatt-benches --bin kernel-report [CRITERION_DIR]`

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

struct Result {
    median_ns: f64,
    elements: f64,
    bytes: f64,
}

fn collect(dir: &Path, out: &mut BTreeMap<String, BTreeMap<String, Result>>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "new") {
                read_one(&path, out);
            } else {
                collect(&path, out)?;
            }
        }
    }
    Ok(())
}

fn read_one(dir: &Path, out: &mut BTreeMap<String, BTreeMap<String, Result>>) {
    let load =
        |name: &str| -> Option<Value> { serde_json::from_str(&std::fs::read_to_string(dir.join(name)).ok()?).ok() };
    let (Some(b), Some(e)) = (load("benchmark.json"), load("estimates.json")) else { return };
    let tp = &b["throughput"]["ElementsAndBytes"];
    let (Some(group), Some(func), Some(median_ns)) =
        (b["group_id"].as_str(), b["function_id"].as_str(), e["median"]["point_estimate"].as_f64())
    else {
        return;
    };
    let elements = tp["elements"].as_f64().unwrap_or(f64::NAN);
    let bytes = tp["bytes"].as_f64().unwrap_or(f64::NAN);
    out.entry(group.to_string()).or_default().insert(func.to_string(), Result { median_ns, elements, bytes });
}

fn flops_per_element(group: &str) -> f64 {
    if group.starts_with("axpy2") { 4.0 } else { 2.0 }
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion"));
    let mut all = BTreeMap::new();
    if let Err(e) = collect(&dir, &mut all) {
        eprintln!(
            "kernel-report: cannot read {}: {e} (run `cargo bench -p rosenblatt-benches --bench kernels` first)",
            dir.display()
        );
        std::process::exit(1);
    }
    println!("| group | impl | median | Gnnz/s | GFLOP/s | row GB/s | × oracle |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for (group, impls) in &all {
        let oracle = impls.get("oracle").map(|r| r.median_ns);
        for (name, r) in impls {
            let secs = r.median_ns * 1e-9;
            let speedup = oracle.map_or(String::from("-"), |o| format!("{:.2}", o / r.median_ns));
            println!(
                "| {group} | {name} | {:.2} µs | {:.2} | {:.2} | {:.2} | {speedup} |",
                r.median_ns / 1e3,
                r.elements / secs / 1e9,
                r.elements * flops_per_element(group) / secs / 1e9,
                r.bytes / secs / 1e9,
            );
        }
    }
    println!();
    let ratio = |g: &str, a: &str, b: &str| -> Option<f64> {
        let m = all.get(g)?;
        Some(m.get(b)?.median_ns / m.get(a)?.median_ns)
    };
    let rate = |g: &str, a: &str| -> Option<f64> {
        let r = all.get(g)?.get(a)?;
        Some(r.elements / (r.median_ns * 1e-9))
    };
    let show = |what: &str, got: Option<f64>, target: f64, unit: &str| match got {
        Some(v) => {
            println!("{} {what}: {v:.2}{unit} (target ≥ {target}{unit})", if v >= target { "PASS" } else { "MISS" })
        }
        None => println!("---- {what}: not measured"),
    };
    show("dense f32 dot, n = 784, best ÷ scalar oracle", ratio("dot-dense-f32-n784", "best", "oracle"), 8.0, "×");
    show(
        "sparse dot, 150 nnz over dim 784, best ÷ four-accumulator loop",
        ratio("dot-sparse-u32f32-d784-nnz150", "best", "scalar4"),
        1.5,
        "×",
    );
    show("dense u8 dot, n = 784, elements/s", rate("dot-dense-u8-n784", "best").map(|r| r / 1e9), 2.0, " G");
}
