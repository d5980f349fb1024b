//! One pass over MNIST training shards (60,000 rows) in several encodings:
//! row · w for every row, against a pass that only reads the same shard
//! bytes. This is where the converter's dense/sparse threshold comes from.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rosenblatt_benches::read_only_pass;
use rosenblatt_kernels::Row;
use rosenblatt_loader::idx::read_mnist;
use rosenblatt_loader::writer::{parse_encoding, write_dataset};
use rosenblatt_loader::{Dataset, OpenOptions, RowSet, WriteOptions, with_rows};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

fn pass(c: &mut Criterion) {
    let mnist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/mnist");
    let (rows, dim) =
        read_mnist(&mnist.join("train-images.idx3-ubyte.gz"), &mnist.join("train-labels.idx1-ubyte.gz"), Some(9))
            .expect("MNIST in datasets/mnist");
    let tmp = std::env::temp_dir().join(format!("rosenblatt-shard-pass-{}", std::process::id()));
    let w: Vec<f32> = (0..dim as usize).map(|i| ((i * 7919) % 13) as f32 * 0.01 - 0.06).collect();
    for enc in ["dense-u8", "sparse-u16-u8", "dense-f32", "sparse-u16-f32"] {
        let dir = tmp.join(enc);
        let opts = WriteOptions {
            dim: Some(dim),
            index_base: 0,
            encoding: Some(parse_encoding(enc, None).unwrap()),
            ..Default::default()
        };
        write_dataset(&dir, &rows, &opts).unwrap();
        let ds = Dataset::open(&dir, OpenOptions::default()).unwrap();
        let bytes: u64 = ds.shards().iter().map(|s| s.file_len()).sum();
        let mut g = c.benchmark_group(format!("mnist-pass-{enc}"));
        g.sample_size(20).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
        g.throughput(Throughput::ElementsAndBytes { elements: ds.rows(), bytes });
        g.bench_function("dot", |b| {
            b.iter(|| {
                let mut s = 0.0f32;
                for shard in ds.shards() {
                    with_rows!(shard.rows(), |view| {
                        for r in 0..view.len() {
                            s += view.row(r).dot(black_box(&w));
                        }
                    });
                }
                s
            })
        });
        g.bench_function("read-only", |b| {
            b.iter(|| ds.shards().iter().map(|s| read_only_pass(black_box(s.raw()))).sum::<u64>())
        });
        g.finish();
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

criterion_group!(benches, pass);
criterion_main!(benches);
