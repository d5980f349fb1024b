//! Every kernel and row encoding against its scalar oracle (and the sparse
//! dot against a hand-written four-accumulator loop), at the sizes of the
//! foundation issue. `cargo run -p rosenblatt-benches --bin kernel-report`
//! turns the medians into GFLOP/s, nonzeros/s, bytes/s and ratios.
//!
//! Sparse benchmarks cycle over 64 rows with different random patterns per
//! iteration, so weights over a 2^20 dimension come from cache misses as in
//! training, not from one hot row.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rosenblatt_benches::{random_f32, random_indices, random_u8, sparse_dot_4acc};
use rosenblatt_kernels::{
    Backend, CellWidth, DenseRow, Index, Ones, Row, SparseRow, U8Values, Values, scalar, sparse_dot_sparse,
};
use std::hint::black_box;
use std::time::Duration;

const ROWS: usize = 64;

fn config<'c>(
    c: &'c mut Criterion,
    name: &str,
    elements: u64,
    bytes: u64,
) -> criterion::BenchmarkGroup<'c, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(800))
        .throughput(Throughput::ElementsAndBytes { elements, bytes });
    g
}

/// Benchmarks dot, axpy, axpy2, AdaGrad's step and norm_sq over `rows` on the best and the
/// portable backends and in the oracle. `row_bytes` is the stored size of
/// all rows (what one sweep reads besides the weights).
fn bench_rows<R: Row>(c: &mut Criterion, tag: &str, rows: &[R], row_bytes: u64) {
    let dim = rows[0].dim();
    let nnz: u64 = rows.iter().map(|r| r.nnz() as u64).sum();
    let w = random_f32(dim, 7);
    let mut wm = w.clone();
    let mut um = random_f32(dim, 8);
    let backends = [("best", Backend::best()), ("portable", Backend::portable())];

    let mut g = config(c, &format!("dot-{tag}"), nnz, row_bytes);
    for (name, b) in backends {
        g.bench_function(name, |bn| bn.iter(|| rows.iter().map(|r| r.dot_in(b, black_box(&w))).sum::<f32>()));
    }
    g.bench_function("oracle", |bn| bn.iter(|| rows.iter().map(|r| scalar::dot(r, black_box(&w))).sum::<f32>()));
    g.finish();

    // Tiny alphas keep the weights finite however long criterion iterates.
    let mut g = config(c, &format!("axpy-{tag}"), nnz, row_bytes);
    for (name, b) in backends {
        g.bench_function(name, |bn| bn.iter(|| rows.iter().for_each(|r| r.axpy_in(b, black_box(1e-9), &mut wm))));
    }
    g.bench_function("oracle", |bn| bn.iter(|| rows.iter().for_each(|r| scalar::axpy(r, black_box(1e-9), &mut wm))));
    g.finish();

    let mut g = config(c, &format!("axpy2-{tag}"), nnz, row_bytes);
    for (name, b) in backends {
        g.bench_function(name, |bn| {
            bn.iter(|| rows.iter().for_each(|r| r.axpy2_in(b, black_box(1e-9), &mut wm, 2e-9, &mut um)))
        });
    }
    g.bench_function("oracle", |bn| {
        bn.iter(|| rows.iter().for_each(|r| scalar::axpy2(r, black_box(1e-9), &mut wm, 2e-9, &mut um)))
    });
    g.finish();

    // AdaGrad's step: G grows by (g·x)² an iteration, so it stays finite
    // and positive however long criterion iterates.
    let mut g2 = random_f32(dim, 9).into_iter().map(|x| x.abs() + 1.0).collect::<Vec<_>>();
    let mut g = config(c, &format!("adagrad-{tag}"), nnz, row_bytes);
    for (name, b) in backends {
        g.bench_function(name, |bn| {
            bn.iter(|| rows.iter().for_each(|r| r.adagrad_in(b, black_box(1e-9), 1e-3, &mut wm, &mut g2, None)))
        });
    }
    g.bench_function("oracle", |bn| {
        bn.iter(|| rows.iter().for_each(|r| scalar::adagrad(r, black_box(1e-9), 1e-3, &mut wm, &mut g2, None)))
    });
    // The same state in cells [w_i, G_i] (the learner's layout past the
    // cache).
    let mut cells: Vec<f32> = wm.iter().zip(&g2).flat_map(|(&w, &g)| [w, g]).collect();
    for (name, b) in backends {
        g.bench_function(format!("{name}-cells"), |bn| {
            bn.iter(|| {
                rows.iter().for_each(|r| r.adagrad_cells_in(b, black_box(1e-9), 1e-3, &mut cells, CellWidth::Two))
            })
        });
    }
    g.finish();

    let mut g = config(c, &format!("norm-{tag}"), nnz, row_bytes);
    for (name, b) in backends {
        g.bench_function(name, |bn| bn.iter(|| rows.iter().map(|r| black_box(r).norm_sq_in(b)).sum::<f32>()));
    }
    g.bench_function("oracle", |bn| bn.iter(|| rows.iter().map(|r| scalar::norm_sq(black_box(r))).sum::<f32>()));
    g.finish();
}

struct SparseData<I> {
    dim: usize,
    idx: Vec<Vec<I>>,
    f32s: Vec<Vec<f32>>,
    u8s: Vec<Vec<u8>>,
}

fn sparse_data<I: Index>(dim: usize, nnz: usize) -> SparseData<I> {
    let idx = (0..ROWS)
        .map(|r| random_indices(nnz, dim, r as u64).into_iter().map(|i| I::from_usize(i as usize).unwrap()).collect())
        .collect();
    let f32s = (0..ROWS).map(|r| random_f32(nnz, 1000 + r as u64)).collect();
    let u8s = (0..ROWS).map(|r| random_u8(nnz, 2000 + r as u64)).collect();
    SparseData { dim, idx, f32s, u8s }
}

fn rows_of<'a, I: Index, V: Values>(d: &'a SparseData<I>, vals: impl Fn(usize) -> V) -> Vec<SparseRow<'a, I, V>> {
    (0..ROWS).map(|r| SparseRow::try_new(d.dim, &d.idx[r], vals(r)).unwrap()).collect()
}

fn bench_sparse_index<I: Index>(c: &mut Criterion, ibits: &str, dim: usize, nnz: usize) {
    let d = sparse_data::<I>(dim, nnz);
    let size = format!("d{dim}-nnz{nnz}");
    let ib = (ROWS * nnz * size_of::<I>()) as u64;
    bench_rows(c, &format!("sparse-{ibits}f32-{size}"), &rows_of(&d, |r| &d.f32s[r][..]), ib + (ROWS * nnz * 4) as u64);
    bench_rows(
        c,
        &format!("sparse-{ibits}u8-{size}"),
        &rows_of(&d, |r| U8Values::new(&d.u8s[r], 1.0 / 255.0)),
        ib + (ROWS * nnz) as u64,
    );
    bench_rows(c, &format!("sparse-{ibits}bin-{size}"), &rows_of(&d, |_| Ones), ib);
}

fn sparse(c: &mut Criterion) {
    for dim in [784, 1 << 20] {
        for nnz in [16, 150, 1000] {
            let nnz = nnz.min(dim);
            bench_sparse_index::<u32>(c, "u32", dim, nnz);
            if dim <= 1 << 16 {
                bench_sparse_index::<u16>(c, "u16", dim, nnz);
            }
            // The hand-written baseline for the sparse dot.
            let d = sparse_data::<u32>(dim, nnz);
            let w = random_f32(dim, 7);
            let total = (ROWS * nnz) as u64;
            let mut g = config(c, &format!("dot-sparse-u32f32-d{dim}-nnz{nnz}"), total, total * 8);
            g.bench_function("scalar4", |bn| {
                bn.iter(|| (0..ROWS).map(|r| sparse_dot_4acc(&d.idx[r], &d.f32s[r], black_box(&w))).sum::<f32>())
            });
            g.finish();
        }
    }
}

fn dense(c: &mut Criterion) {
    for n in [784usize, 4096, 1 << 20] {
        let rows = (1usize << 16).div_ceil(n);
        let f: Vec<Vec<f32>> = (0..rows).map(|r| random_f32(n, r as u64)).collect();
        let b: Vec<Vec<u8>> = (0..rows).map(|r| random_u8(n, r as u64)).collect();
        let fr: Vec<_> = f.iter().map(|v| DenseRow::new(&v[..])).collect();
        let br: Vec<_> = b.iter().map(|v| DenseRow::new(U8Values::new(v, 1.0 / 255.0))).collect();
        bench_rows(c, &format!("dense-f32-n{n}"), &fr, (rows * n * 4) as u64);
        bench_rows(c, &format!("dense-u8-n{n}"), &br, (rows * n) as u64);
    }
}

fn sparse_sparse(c: &mut Criterion) {
    let d = sparse_data::<u32>(784, 150);
    let rows = rows_of(&d, |r| &d.f32s[r][..]);
    let q = SparseRow::try_new(784, &d.idx[0], U8Values::new(&d.u8s[0], 1.0 / 255.0)).unwrap();
    let total = (ROWS * 150 * 2) as u64;
    let mut g = config(c, "spdot-u32f32-d784-nnz150", total, total * 8);
    g.bench_function("best", |bn| bn.iter(|| rows.iter().map(|r| sparse_dot_sparse(black_box(&q), r)).sum::<f32>()));
    g.bench_function("oracle", |bn| {
        bn.iter(|| rows.iter().map(|r| scalar::sparse_dot_sparse(black_box(&q), r)).sum::<f32>())
    });
    g.finish();
}

criterion_group!(benches, dense, sparse, sparse_sparse);
criterion_main!(benches);
