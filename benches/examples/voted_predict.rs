//! Voted Perceptron on MNIST 9-vs-rest: train 10 shuffled passes, then time
//! the votes for the 10,000 test rows (median of 5), and print test errors.
use rosenblatt_learners::{OnlineLearner, Order, PerceptronParams, TrainOptions, VotedPerceptron, train};
use rosenblatt_loader::idx::read_mnist;
use rosenblatt_loader::write_dataset;
use rosenblatt_loader::{Dataset, OpenOptions, WriteOptions, with_examples};
use std::path::Path;
use std::time::Instant;

fn open(tmp: &Path, images: &str, labels: &str) -> Dataset {
    let mnist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/mnist");
    let (rows, dim) = read_mnist(&mnist.join(images), &mnist.join(labels), Some(9)).unwrap();
    write_dataset(tmp, &rows, &WriteOptions { dim: Some(dim), index_base: 0, ..Default::default() }).unwrap();
    Dataset::open(tmp, OpenOptions::default()).unwrap()
}

fn main() {
    let passes: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let tmp = std::env::temp_dir().join(format!("rosenblatt-voted-{}", std::process::id()));
    let train_ds = open(&tmp.join("train"), "train-images.idx3-ubyte.gz", "train-labels.idx1-ubyte.gz");
    let test_ds = open(&tmp.join("test"), "t10k-images.idx3-ubyte.gz", "t10k-labels.idx1-ubyte.gz");
    with_examples!(train_ds.examples().unwrap(), |tr| {
        with_examples!(test_ds.examples().unwrap(), |te| {
            let mut l = VotedPerceptron::new(784, PerceptronParams::default(), false).unwrap();
            let t = Instant::now();
            let r = train(
                &mut l,
                &tr,
                &TrainOptions { passes, order: Order::Shuffle, seed: 1, stop_when_separated: false, first_pass: 0 },
            )
            .unwrap();
            let train_s = t.elapsed().as_secs_f64();
            let m = l.model();
            let mut times = Vec::new();
            let mut err = 0.0;
            for _ in 0..5 {
                let t = Instant::now();
                err = m.predictor(&tr).error_rate(&te);
                times.push(t.elapsed().as_secs_f64());
            }
            times.sort_by(f64::total_cmp);
            println!(
                "{passes} passes: {} mistakes ({} distinct examples), training {train_s:.3} s; \
                 voted prediction of {} test rows: median {:.3} s; test error {err:.4}",
                r.mistakes(),
                m.distinct_examples(),
                rosenblatt_kernels::Examples::len(&te),
                times[2]
            );
        })
    });
    let _ = std::fs::remove_dir_all(&tmp);
}
