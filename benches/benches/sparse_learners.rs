//! Every learner's pass over sparse rows — 80 non-zeros in 2^20 dimensions,
//! 200,000 rows from sparse-u32-f32 shards — against a pass that only reads
//! the same shard bytes, in one run. A learner's state persists across
//! iterations (each iteration is one more pass), so no O(dimension) reset is
//! timed: what is timed is O(nonzeros) per step, or not.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rosenblatt_benches::{SplitMix, read_only_pass};
use rosenblatt_kernels::Examples;
use rosenblatt_learners::{
    AveragedPerceptron, Bias, EgForm, ExponentiatedGradient, FtrlParams, FtrlProximal, Loss, OnlineLearner, Order,
    PaVariant, PassiveAggressive, Perceptron, PerceptronParams, RandomizedFtrl, Schedule, Sgd, SgdParams, TrainOptions,
    max_norm, train,
};
use rosenblatt_loader::libsvm::NO_QID;
use rosenblatt_loader::writer::{parse_encoding, write_dataset};
use rosenblatt_loader::{Dataset, OpenOptions, Rows, WriteOptions, with_examples};
use std::hint::black_box;
use std::time::Duration;

const DIM: usize = 1 << 20;
const NNZ: usize = 80;
const ROWS: usize = 200_000;

fn generate() -> Rows {
    let mut r = SplitMix::new(11);
    let w: Vec<f32> = (0..DIM).map(|_| if r.below(10) == 0 { r.next_f32() } else { 0.0 }).collect();
    let mut rows = Rows { offsets: vec![0], ..Default::default() };
    for _ in 0..ROWS {
        let mut idx: Vec<u32> = (0..NNZ).map(|_| r.below(DIM) as u32).collect();
        idx.sort_unstable();
        idx.dedup();
        let mut m = 0.0f32;
        for &i in &idx {
            let v = r.next_f32();
            m += v * w[i as usize];
            rows.indices.push(i);
            rows.values.push(if v == 0.0 { 0.5 } else { v });
        }
        rows.offsets.push(rows.indices.len() as u64);
        let y = if m > 0.0 { 1.0 } else { -1.0 };
        rows.labels.push(if r.below(20) == 0 { -y } else { y });
        rows.qids.push(NO_QID);
    }
    rows
}

fn bench<L: OnlineLearner, E: Examples>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    mut l: L,
    ex: &E,
) {
    let opts =
        TrainOptions { passes: 1.0, order: Order::Sequential, seed: 0, stop_when_separated: false, first_pass: 0 };
    g.bench_function(name, |b| b.iter(|| train(&mut l, ex, &opts).unwrap().updates()));
}

fn passes(c: &mut Criterion) {
    let tmp = std::env::temp_dir().join(format!("rosenblatt-sparse-bench-{}", std::process::id()));
    let rows = generate();
    let opts = WriteOptions {
        dim: Some(DIM as u64),
        encoding: Some(parse_encoding("sparse-u32-f32", None).unwrap()),
        ..Default::default()
    };
    write_dataset(&tmp, &rows, &opts).unwrap();
    drop(rows);
    let ds = Dataset::open(&tmp, OpenOptions::default()).unwrap();
    let bytes: u64 = ds.shards().iter().map(|s| s.file_len()).sum();
    let mut g = c.benchmark_group("sparse-2^20-80nnz-pass");
    g.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::ElementsAndBytes { elements: ds.manifest().nnz, bytes });
    g.bench_function("read-only", |b| {
        b.iter(|| ds.shards().iter().map(|s| read_only_pass(black_box(s.raw()))).sum::<u64>())
    });
    with_examples!(ds.examples().unwrap(), |ex| {
        let p = PerceptronParams::default();
        bench(&mut g, "perceptron", Perceptron::new(DIM, p).unwrap(), &ex);
        bench(&mut g, "averaged-perceptron", AveragedPerceptron::new(DIM, p, false).unwrap(), &ex);
        let hinge = SgdParams { lambda: 1e-4, ..Default::default() };
        bench(&mut g, "hinge-sgd-l2", Sgd::new(DIM, hinge).unwrap(), &ex);
        bench(&mut g, "pegasos", Sgd::new(DIM, SgdParams::pegasos(1e-4)).unwrap(), &ex);
        let logistic =
            SgdParams { loss: Loss::Logistic, schedule: Schedule::InverseSqrtK, lambda: 1e-5, ..Default::default() };
        bench(&mut g, "logistic-sgd-l2", Sgd::new(DIM, logistic).unwrap(), &ex);
        bench(&mut g, "pa1", PassiveAggressive::new(DIM, PaVariant::PaI { c: 1.0 }, Bias::Explicit).unwrap(), &ex);
        bench(
            &mut g,
            "eg-pm",
            ExponentiatedGradient::new(DIM, EgForm::PlusMinus { b: 10.0 }, 0.1, Loss::Hinge).unwrap(),
            &ex,
        );
        bench(&mut g, "ftrl-proximal", FtrlProximal::new(DIM, FtrlParams::default()).unwrap(), &ex);
        bench(&mut g, "ftrl-randomized", RandomizedFtrl::new(DIM, max_norm(&ex), 1).unwrap(), &ex);
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&tmp);
}

criterion_group!(benches, passes);
criterion_main!(benches);
