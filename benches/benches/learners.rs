//! One training pass over MNIST 9-vs-rest (60,000 rows from shards, in the
//! encoding the converter chooses) against a pass that only reads the same
//! shard bytes, in the same run. Each iteration trains a fresh learner for
//! one pass (the first pass has the most updates).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rosenblatt_benches::read_only_pass;
use rosenblatt_kernels::Examples;
use rosenblatt_learners::{AveragedPerceptron, Order, Perceptron, PerceptronParams, TrainOptions, train};
use rosenblatt_loader::idx::read_mnist;
use rosenblatt_loader::write_dataset;
use rosenblatt_loader::{Dataset, OpenOptions, WriteOptions, with_examples};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

fn mnist9(tmp: &Path) -> Dataset {
    let mnist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/mnist");
    let (rows, dim) =
        read_mnist(&mnist.join("train-images.idx3-ubyte.gz"), &mnist.join("train-labels.idx1-ubyte.gz"), Some(9))
            .expect("MNIST in datasets/mnist");
    // ROSENBLATT_BENCH_ENCODING forces an encoding, ROSENBLATT_BENCH_IN_MEMORY=1
    // reads the shards into memory instead of mapping them.
    let encoding = std::env::var("ROSENBLATT_BENCH_ENCODING")
        .ok()
        .map(|e| rosenblatt_loader::writer::parse_encoding(&e, None).unwrap());
    let opts = WriteOptions { dim: Some(dim), index_base: 0, encoding, ..Default::default() };
    write_dataset(tmp, &rows, &opts).unwrap();
    let in_memory = std::env::var("ROSENBLATT_BENCH_IN_MEMORY").is_ok_and(|v| v == "1");
    Dataset::open(tmp, OpenOptions { verify_checksums: false, in_memory }).unwrap()
}

fn passes(c: &mut Criterion) {
    let tmp = std::env::temp_dir().join(format!("rosenblatt-learners-bench-{}", std::process::id()));
    let ds = mnist9(&tmp);
    let bytes: u64 = ds.shards().iter().map(|s| s.file_len()).sum();
    let mem = if std::env::var("ROSENBLATT_BENCH_IN_MEMORY").is_ok_and(|v| v == "1") { "-in-memory" } else { "" };
    let mut g = c.benchmark_group(format!("mnist9-pass-{}{mem}", ds.manifest().encoding));
    g.sample_size(30).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::ElementsAndBytes { elements: ds.rows(), bytes });
    g.bench_function("read-only", |b| {
        b.iter(|| ds.shards().iter().map(|s| read_only_pass(black_box(s.raw()))).sum::<u64>())
    });
    with_examples!(ds.examples().unwrap(), |ex| {
        let dim = ex.dim();
        for (name, order) in [("sequential", Order::Sequential), ("shuffle", Order::Shuffle)] {
            let opts = TrainOptions { passes: 1.0, order, seed: 1, stop_when_separated: false, first_pass: 0 };
            g.bench_function(format!("perceptron-{name}"), |b| {
                b.iter(|| {
                    let mut l = Perceptron::new(dim, PerceptronParams::default()).unwrap();
                    train(&mut l, &ex, &opts).unwrap().mistakes()
                })
            });
            g.bench_function(format!("averaged-{name}"), |b| {
                b.iter(|| {
                    let mut l = AveragedPerceptron::new(dim, PerceptronParams::default(), false).unwrap();
                    train(&mut l, &ex, &opts).unwrap();
                    rosenblatt_learners::OnlineLearner::model(&l).bias
                })
            });
        }
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&tmp);
}

criterion_group!(benches, passes);
criterion_main!(benches);
