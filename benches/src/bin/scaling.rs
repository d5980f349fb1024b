//! Parallel scaling of iterative parameter mixing: examples/s and test
//! error at 1, 2, … threads on the generated sparse set (2,000,000 rows × 80
//! non-zeros over 2^20 features) and on MNIST 9-vs-rest, and test error
//! against passes next to single-thread training.
//!
//! ```text
//! cargo run --release -p rosenblatt-benches --bin scaling -- \
//!     [--data sparse,mnist] [--threads 1,2] [--passes 10] [--repeats 3] [--json FILE]
//! ```
//!
//! The sparse set is generated into `datasets/cache/sparse-2m` on first use
//! (`rosenblatt datasets sparse` writes the same). Seconds per pass are the
//! median over every pass of every repeat (training and mixing, not the
//! per-pass evaluation), speed-ups are against the first thread count
//! listed; test error is the mean over repeats (seeds 0..R). Repeats are the
//! outer loop and thread counts alternate inside it, so that a shared
//! machine's drift falls on every count alike.

use rosenblatt::learners::{
    AveragedPerceptron, Hooks, LinearModel, Mixable, Mixing, OneProcess, Order, ParallelOptions, Perceptron,
    PerceptronParams, TrainOptions, train_parallel,
};
use rosenblatt::loader::{Dataset, OpenOptions};
use rosenblatt_datasets::sparse::{SparseSpec, write};
use std::path::Path;

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned()).unwrap_or_else(|| default.to_string())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

/// (seconds of every pass, test error after every pass) for one run.
fn run<L: Mixable<Model = LinearModel>>(
    learner: L,
    train: &Dataset,
    test: &Dataset,
    threads: usize,
    passes: f64,
    seed: u64,
) -> (Vec<f64>, Vec<f64>) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
    pool.install(|| {
        rosenblatt::loader::with_examples!(train.examples().expect("examples"), |tr| {
            rosenblatt::loader::with_examples!(test.examples().expect("examples"), |te| {
                let mut l = learner;
                let (mut secs, mut errs) = (Vec::new(), Vec::new());
                let opts =
                    TrainOptions { passes, order: Order::Shuffle, seed, stop_when_separated: false, first_pass: 0 };
                let par = ParallelOptions { parts: threads, mixing: Mixing::Uniform };
                train_parallel(
                    &mut l,
                    &tr,
                    &opts,
                    &par,
                    &OneProcess,
                    Hooks::on_pass(&mut |l: &L, p: &_| {
                        secs.push(p.seconds);
                        errs.push(l.model().error_rate(&te));
                    }),
                )
                .expect("training");
                (secs, errs)
            })
        })
    })
}

fn main() {
    let data = arg("--data", "sparse,mnist");
    let threads: Vec<usize> = arg("--threads", &format!("1,{}", rayon::current_num_threads()))
        .split(',')
        .map(|t| t.parse().expect("thread counts"))
        .collect();
    let passes: f64 = arg("--passes", "10").parse().expect("passes");
    let repeats: u64 = arg("--repeats", "3").parse().expect("repeats");
    let cache = Path::new("datasets/cache");
    let mut records = Vec::new();
    println!("{}; {} repeat(s), {passes} shuffled passes, uniform mixing", rosenblatt::kernels::describe(), repeats);
    println!();
    println!(
        "| data | learner | threads | s/pass (median) | examples/s | speed-up | test error after {passes} | Δ vs 1 thread (pp) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    for set in data.split(',') {
        let (train, test) = match set {
            "sparse" => {
                let dir = cache.join("sparse-2m");
                if Dataset::open(dir.join("train"), OpenOptions::default()).is_err() {
                    eprintln!("generating {} (once)", dir.display());
                    let _ = std::fs::remove_dir_all(&dir);
                    write(&SparseSpec::default(), &dir.join("train"), Some((100_000, &dir.join("test"))))
                        .expect("generating the sparse set");
                }
                (
                    Dataset::open(dir.join("train"), OpenOptions::default()).expect("train"),
                    Dataset::open(dir.join("test"), OpenOptions::default()).expect("test"),
                )
            }
            "mnist" => {
                let idx = Path::new("datasets/mnist");
                (
                    rosenblatt::ocr::cached(cache, idx, "train", 9, &mut |_| {}).expect("MNIST train").0.dataset,
                    rosenblatt::ocr::cached(cache, idx, "t10k", 9, &mut |_| {}).expect("MNIST test").0.dataset,
                )
            }
            other => panic!("unknown data set {other} (sparse or mnist)"),
        };
        let dim = train.dim() as usize;
        let rows = train.rows() as f64;
        for learner in ["perceptron", "averaged-perceptron"] {
            // Repeats outermost, thread counts interleaved inside, so that
            // drift in the machine's speed touches every count alike.
            let np = passes.ceil() as usize;
            let mut secs = vec![Vec::new(); threads.len()];
            let mut curves = vec![vec![0.0; np]; threads.len()];
            for seed in 0..repeats {
                for (k, &t) in threads.iter().enumerate() {
                    let p = PerceptronParams::default();
                    let (s, e) = match learner {
                        "perceptron" => run(Perceptron::new(dim, p).unwrap(), &train, &test, t, passes, seed),
                        _ => run(AveragedPerceptron::new(dim, p, false).unwrap(), &train, &test, t, passes, seed),
                    };
                    secs[k].extend(s);
                    curves[k].iter_mut().zip(&e).for_each(|(c, e)| *c += e / repeats as f64);
                }
            }
            let spp: Vec<f64> = secs.into_iter().map(median).collect();
            for (k, &t) in threads.iter().enumerate() {
                let err = curves[k][np - 1];
                let (speedup, delta) = (spp[0] / spp[k], (err - curves[0][np - 1]) * 100.0);
                println!(
                    "| {set} | {learner} | {t} | {:.4} | {:.3e} | {speedup:.2}× | {:.2}% | {delta:+.2} |",
                    spp[k],
                    rows / spp[k],
                    err * 100.0
                );
                records.push(serde_json::json!({
                    "data": set, "learner": learner, "threads": t, "seconds_per_pass": spp[k],
                    "examples_per_second": rows / spp[k], "speedup": speedup, "test_error": err,
                    "test_error_by_pass": curves[k],
                }));
            }
        }
    }
    println!();
    println!("test error (%) by pass:");
    for r in &records {
        let curve: Vec<String> = r["test_error_by_pass"]
            .as_array()
            .expect("curve")
            .iter()
            .map(|e| format!("{:.2}", e.as_f64().expect("error") * 100.0))
            .collect();
        println!("  {} {} {} threads: {}", r["data"], r["learner"], r["threads"], curve.join(" "));
    }
    let json = arg("--json", "");
    if !json.is_empty() {
        std::fs::write(&json, serde_json::to_string_pretty(&records).expect("json")).expect("writing --json");
    }
}
