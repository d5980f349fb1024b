//! LIBSVM parsing throughput on a generated file (1 GB by default;
//! `ROSENBLATT_PARSE_MB` changes it), at 1 and 2 threads (a comma list in
//! `ROSENBLATT_PARSE_THREADS` changes them, for a machine with more cores):
//! MB/s of text and nonzeros/s. The text looks like common sparse sets: ±1 labels, sorted
//! one-based indices up to 2^20, six-digit values.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rosenblatt_benches::SplitMix;
use rosenblatt_loader::ParseOptions;
use rosenblatt_loader::libsvm::parse_parallel;
use std::time::Duration;

fn generate(bytes: usize) -> (Vec<u8>, u64) {
    let mut r = SplitMix::new(7);
    let mut out = Vec::with_capacity(bytes + 4096);
    let mut nnz = 0u64;
    while out.len() < bytes {
        out.extend_from_slice(if r.next_u64() & 1 == 0 { b"+1" } else { b"-1" });
        let mut idx = 0u64;
        for _ in 0..(20 + r.below(60)) {
            idx += 1 + r.below(20_000) as u64;
            let v = r.below(1_000_000);
            out.extend_from_slice(format!(" {idx}:0.{v:06}").as_bytes());
            nnz += 1;
        }
        out.push(b'\n');
    }
    (out, nnz)
}

fn parse(c: &mut Criterion) {
    let mb: usize = std::env::var("ROSENBLATT_PARSE_MB").ok().and_then(|s| s.parse().ok()).unwrap_or(1024);
    let (text, nnz) = generate(mb << 20);
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
