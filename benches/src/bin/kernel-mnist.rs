//! The kernel Perceptrons on MNIST's ten digits: seconds per pass, test
//! error after each pass, and seconds to score the test set — the
//! library's run, before the command line has the learners.
//!
//! ```text
//! cargo run --release -p rosenblatt-benches --bin kernel-mnist -- \
//!     [--rows 60000] [--passes 1] [--kernel rbf|poly] [--gamma 0.04] [--form averaged|last|voted] \
//!     [--budget N] [--only]
//! ```
//!
//! MNIST is converted (all ten digits) into `datasets/cache` on first use,
//! as `bench ocr --multiclass` does.

use rosenblatt::learners::{Kernel, KernelForm, KernelParams, Outputs, train_kernel};
use rosenblatt::loader::with_examples;
use std::path::Path;
use std::time::Instant;

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned()).unwrap_or_else(|| default.to_string())
}

fn main() {
    let (cache, idx) = (Path::new("datasets/cache"), Path::new("datasets/mnist"));
    let train =
        rosenblatt::ocr::cached(cache, idx, "train", None, &mut |_| {}).expect("MNIST training digits").0.dataset;
    let test = rosenblatt::ocr::cached(cache, idx, "t10k", None, &mut |_| {}).expect("MNIST test digits").0.dataset;
    let rows: usize = arg("--rows", "60000").parse().unwrap();
    let passes: usize = arg("--passes", "1").parse().unwrap();
    let gamma: f32 = arg("--gamma", "0.04").parse().unwrap();
    let kernel = match arg("--kernel", "rbf").as_str() {
        "rbf" => Kernel::Rbf { gamma },
        _ => Kernel::Poly { gamma: 1.0, coef0: 1.0, degree: arg("--degree", "4").parse().unwrap() },
    };
    let form = match arg("--form", "averaged").as_str() {
        "last" => KernelForm::Last,
        "voted" => KernelForm::Voted,
        _ => KernelForm::Averaged,
    };
    let budget = arg("--budget", "0").parse().ok().filter(|&b: &usize| b > 0);
    let tr = train.examples().unwrap().range(0..rows);
    let te = test.examples().unwrap();
    let labels = te.labels();
    // `--only`: just the run of `--passes` passes, not every shorter one.
    let first = if std::env::args().any(|a| a == "--only") { passes } else { 1 };
    for p in first..=passes {
        let params =
            KernelParams { kernel, form, outputs: Outputs::OneVsRest(10), budget, passes: p, shuffle: true, seed: 0 };
        let t = Instant::now();
        let model = with_examples!(&tr, |e| train_kernel(e, &params)).unwrap();
        let fit = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let predicted = with_examples!(&te, |e| model.predict(e));
        let predict = t.elapsed().as_secs_f64();
        let wrong = predicted.iter().zip(&labels).filter(|(p, y)| p != y).count();
        println!(
            "{kernel:?} {form:?} passes {p}: fit {fit:.1} s, {} support rows, {} mistakes; test error {:.2}% ({wrong}/{}); predict {predict:.1} s",
            model.support_rows(),
            model.mistakes,
            100.0 * wrong as f64 / labels.len() as f64,
            labels.len()
        );
    }
}
