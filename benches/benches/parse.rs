//! LIBSVM parsing throughput on a generated file (1 GB by default;
//! `ROSENBLATT_PARSE_MB` changes it), at 1 and 2 threads (a comma list in
//! `ROSENBLATT_PARSE_THREADS` changes them, for a machine with more cores):
//! MB/s of text and nonzeros/s, on [`rosenblatt_benches::libsvm_text`].

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rosenblatt_benches::libsvm_text;
use rosenblatt_loader::ParseOptions;
use rosenblatt_loader::libsvm::parse_parallel;
use std::time::Duration;

fn parse(c: &mut Criterion) {
    let mb: usize = std::env::var("ROSENBLATT_PARSE_MB").ok().and_then(|s| s.parse().ok()).unwrap_or(1024);
    let (text, nnz) = libsvm_text(mb << 20, true);
    let mut g = c.benchmark_group(format!("parse-libsvm-{mb}MB"));
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(10));
    g.throughput(Throughput::ElementsAndBytes { elements: nnz, bytes: text.len() as u64 });
    let threads: Vec<usize> = match std::env::var("ROSENBLATT_PARSE_THREADS") {
        Ok(list) => list
            .split(',')
            .map(|t| t.trim().parse().expect("ROSENBLATT_PARSE_THREADS: a comma list of thread counts"))
            .collect(),
        Err(_) => vec![1, 2],
    };
    for threads in threads {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        g.bench_function(format!("threads-{threads}"), |b| {
            b.iter(|| pool.install(|| parse_parallel(&text, &ParseOptions::default(), 4 << 20).unwrap().len()))
        });
    }
    g.finish();
}

criterion_group!(benches, parse);
criterion_main!(benches);
