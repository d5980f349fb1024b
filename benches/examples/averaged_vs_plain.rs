//! The averaged Perceptron's pass against the plain Perceptron's, both
//! trained in one process one pass at a time, alternately, so that both
//! meet the same machine (a noisy one moves separate runs by more than the
//! averaging costs). Issue 16 asks the averaged pass within 1.1× of the
//! plain one. Prints where each weight vector starts within its cache line
//! and the medians of passes 2.. (SPEED.md#the-averaged-perceptron, "The state on a cache line").
//!
//! ```sh
//! cargo run --release -p rosenblatt-benches --example averaged_vs_plain -- DIR [PASSES] [sequential|chunks]
//! ```
//!
//! Each pass is its own `train` call, and in the default order (`chunks`)
//! every call trains in pass 0's order: a call for pass k would first draw
//! and drop the k orders before it (`TrainOptions::first_pass`), time that
//! grows with k and is no pass's own.
use rosenblatt_kernels::Examples;
use rosenblatt_learners::{AveragedPerceptron, Order, Perceptron, PerceptronParams, TrainOptions, train};
use rosenblatt_loader::{Dataset, OpenOptions, with_examples};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: averaged_vs_plain DIR [PASSES] [sequential|chunks]");
        std::process::exit(2);
    };
    let passes: usize = args.next().map_or(41, |s| s.parse().expect("PASSES: a whole number"));
    let order = match args.next().as_deref() {
        None | Some("sequential") => Order::Sequential,
        Some("chunks") => Order::Chunks,
        Some(o) => panic!("order {o:?}: sequential or chunks"),
    };
    assert!(passes >= 2, "PASSES: at least 2 (the first is not counted)");
    let ds = Dataset::open(&dir, OpenOptions::default()).expect("a converted dataset");
    with_examples!(ds.examples().expect("single-label rows"), |ex| {
        let dim = ex.dim();
        let mut plain = Perceptron::new(dim, PerceptronParams::default()).unwrap();
        let mut averaged = AveragedPerceptron::new(dim, PerceptronParams::default(), false).unwrap();
        let line = |w: &[f32]| w.as_ptr() as usize % 64;
        println!("weights at {} and {} bytes into a cache line", line(plain.weights()), line(averaged.weights()));
        let (mut tp, mut ta) = (vec![], vec![]);
        for _ in 0..passes {
            let opts = TrainOptions { passes: 1.0, order, seed: 0, stop_when_separated: false, first_pass: 0 };
            let t = Instant::now();
            train(&mut plain, &ex, &opts).unwrap();
            tp.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            train(&mut averaged, &ex, &opts).unwrap();
            ta.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let median = |t: &[f64]| {
            let mut r = t[1..].to_vec();
            r.sort_by(f64::total_cmp);
            r[r.len() / 2]
        };
        let (p, a) = (median(&tp), median(&ta));
        println!("{order:?}: Perceptron {p:.3} ms, averaged {a:.3} ms a pass: {:.3}×", a / p);
    });
}
