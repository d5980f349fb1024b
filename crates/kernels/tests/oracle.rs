//! Every kernel, on every backend and every row encoding, against the scalar
//! oracle: all lengths 0..=300, misaligned sub-slices, random sparse patterns.
//!
//! Tolerance: each of the two results is within `n·u·Σ|xᵢwᵢ|` of the exact
//! value (u = 2⁻²⁴, the f32 unit roundoff; u8 rows add two roundings for the
//! scale), so they may differ by twice that. A kernel that drops, repeats or
//! misplaces one entry is off by a whole term and fails.

use proptest::prelude::*;
use rosenblatt_kernels::{
    Backend, ByteIsa, CellWidth, DenseRow, Index, KernelError, Ones, Row, SparseRow, U8Values, Values, dense,
    dots_u8_on, scalar, sparse_dot_sparse,
};

const U: f64 = 1.0 / (1u64 << 24) as f64;

/// SplitMix64: test inputs from a seed, so proptest shrinks seeds not vectors.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn f32(&mut self) -> f32 {
        // Mixed magnitudes and signs, so cancellation is exercised.
        let m = ((self.next() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0;
        m * [1.0, 0.001, 1000.0, 1.0][(self.next() % 4) as usize]
    }
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
    fn vec(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.f32()).collect()
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    /// `nnz` sorted distinct indices below `dim`, clustered or spread.
    fn pattern(&mut self, nnz: usize, dim: usize) -> Vec<usize> {
        let nnz = nnz.min(dim);
        let mut set = std::collections::BTreeSet::new();
        if self.next().is_multiple_of(3) {
            // a contiguous run, as in image rows
            let start = self.below(dim - nnz + 1);
            set.extend(start..start + nnz);
        }
        while set.len() < nnz {
            set.insert(self.below(dim));
        }
        set.into_iter().collect()
    }
}

fn sum_abs_products<R: Row>(row: &R, w: &[f32]) -> f64 {
    (0..row.nnz())
        .map(|k| {
            let (i, x) = row.entry(k);
            (f64::from(x) * f64::from(w[i])).abs()
        })
        .sum()
}

fn close(fast: f32, oracle: f32, n: usize, scale_of_terms: f64) -> bool {
    if fast.is_nan() || oracle.is_nan() {
        return fast.is_nan() && oracle.is_nan();
    }
    let tol = 2.0 * (n as f64 + 4.0) * U * scale_of_terms + 1e-30;
    (f64::from(fast) - f64::from(oracle)).abs() <= tol
}

/// Checks dot, axpy, axpy2 and norm_sq of `row` on backend `b` against the
/// oracle, with weights `w` (at least `row.dim()` long).
fn check_row<R: Row>(b: Backend, row: R, w: &[f32], u: &[f32], alpha: f32, beta: f32) {
    let n = row.nnz();
    let fast = row.dot_in(b, w);
    let slow = scalar::dot(&row, w);
    assert!(close(fast, slow, n, sum_abs_products(&row, w)), "dot {fast} vs oracle {slow}, n = {n}, backend {b:?}");

    // dot8 against eight shifted copies of the weights.
    let shifted: Vec<Vec<f32>> = (0..8).map(|s| w.iter().map(|x| x * (1.0 + s as f32 * 0.25)).collect()).collect();
    let ws: [&[f32]; 8] = std::array::from_fn(|s| &shifted[s][..]);
    let (fast8, slow8) = (row.dot8_in(b, ws), scalar::dot8(&row, ws));
    for s in 0..8 {
        let terms = sum_abs_products(&row, &shifted[s]);
        assert!(close(fast8[s], slow8[s], n, terms), "dot8[{s}] {} vs oracle {}, n = {n}", fast8[s], slow8[s]);
    }

    // dot_t8: the same eight vectors, transposed.
    let t: Vec<[f32; 8]> = (0..w.len()).map(|i| std::array::from_fn(|s| shifted[s][i])).collect();
    let (fast_t, slow_t) = (row.dot_t8_in(b, &t), scalar::dot_t8(&row, &t));
    for s in 0..8 {
        let terms = sum_abs_products(&row, &shifted[s]);
        assert!(close(fast_t[s], slow_t[s], n, terms), "dot_t8[{s}] {} vs oracle {}, n = {n}", fast_t[s], slow_t[s]);
    }

    let norm_terms: f64 = (0..n).map(|k| f64::from(row.entry(k).1).powi(2)).sum();
    let (fast, slow) = (row.norm_sq_in(b), scalar::norm_sq(&row));
    assert!(close(fast, slow, n, norm_terms), "norm_sq {fast} vs oracle {slow}, n = {n}");

    let (mut w1, mut w2) = (w.to_vec(), w.to_vec());
    row.axpy_in(b, alpha, &mut w1);
    scalar::axpy(&row, alpha, &mut w2);
    for (i, (x, y)) in w1.iter().zip(&w2).enumerate() {
        let mag = f64::from(w[i].abs()) + f64::from(alpha.abs()) * 1.0e3 * 255.0;
        assert!(close(*x, *y, 1, mag), "axpy at {i}: {x} vs {y}");
    }
    // Entries the row does not touch must be bit-identical.
    let touched: std::collections::HashSet<usize> = (0..n).map(|k| row.entry(k).0).collect();
    for i in 0..w.len() {
        if !touched.contains(&i) {
            assert_eq!(w1[i].to_bits(), w[i].to_bits(), "axpy wrote untouched weight {i}");
        }
    }

    let (mut a1, mut u1, mut a2, mut u2) = (w.to_vec(), u.to_vec(), w.to_vec(), u.to_vec());
    row.axpy2_in(b, alpha, &mut a1, beta, &mut u1);
    scalar::axpy2(&row, alpha, &mut a2, beta, &mut u2);
    for i in 0..w.len() {
        let mag = f64::from(w[i].abs().max(u[i].abs())) + f64::from(alpha.abs().max(beta.abs())) * 1.0e3 * 255.0;
        assert!(close(a1[i], a2[i], 1, mag), "axpy2 w at {i}");
        assert!(close(u1[i], u2[i], 1, mag), "axpy2 u at {i}");
    }
    // The fused update is the two single updates.
    let mut a3 = w.to_vec();
    row.axpy_in(b, alpha, &mut a3);
    assert_eq!(a1, a3, "axpy2's first output differs from axpy");

    // The increments, added later, are axpy's update and axpy2's second
    // one, to the bit; dense rows have none.
    let mut terms = vec![(0, 0.0)];
    if row.axpy_terms(beta, &mut terms) {
        assert_eq!(terms.len(), n + 1, "one increment per stored entry");
        let mut u3 = u.to_vec();
        terms[1..].iter().for_each(|&(i, d)| u3[i as usize] += d);
        assert_eq!(
            u3.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            u1.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
    } else {
        assert_eq!(terms.len(), 1, "a refusal appends nothing");
        assert_eq!(row.nnz(), row.dim(), "only dense rows refuse");
    }
}

/// Builds every encoding of one random row and checks each. `off` shifts
/// every slice off its allocation's alignment.
fn check_all_encodings(b: Backend, nnz: usize, dim: usize, off: usize, seed: u64) {
    let mut r = Rng(seed);
    let pat = r.pattern(nnz, dim);
    let n = pat.len();
    let wbuf = r.vec(dim + off);
    let ubuf = r.vec(dim + off);
    let (w, u) = (&wbuf[off..], &ubuf[off..]);
    let vbuf = r.vec(n + off);
    let bbuf = r.bytes(n.max(dim) + off);
    let vals = &vbuf[off..off + n];
    let bytes = U8Values::new(&bbuf[off..off + n], 1.0 / 255.0);
    let (alpha, beta) = (r.f32(), r.f32());

    let i32buf: Vec<u32> = std::iter::repeat_n(0, off).chain(pat.iter().map(|&i| i as u32)).collect();
    let idx32 = &i32buf[off..];
    check_row(b, SparseRow::try_new(dim, idx32, vals).unwrap(), w, u, alpha, beta);
    check_row(b, SparseRow::try_new(dim, idx32, bytes).unwrap(), w, u, alpha, beta);
    check_row(b, SparseRow::try_new(dim, idx32, Ones).unwrap(), w, u, alpha, beta);
    if dim <= 1 << 16 {
        let i16buf: Vec<u16> = std::iter::repeat_n(0, off).chain(pat.iter().map(|&i| i as u16)).collect();
        let idx16 = &i16buf[off..];
        check_row(b, SparseRow::try_new(dim, idx16, vals).unwrap(), w, u, alpha, beta);
        check_row(b, SparseRow::try_new(dim, idx16, bytes).unwrap(), w, u, alpha, beta);
        check_row(b, SparseRow::try_new(dim, idx16, Ones).unwrap(), w, u, alpha, beta);
    }
}

/// Dense rows of length `n` (f32 and u8) and the dense vector operations.
fn check_dense(b: Backend, n: usize, off: usize, seed: u64) {
    let mut r = Rng(seed);
    let xbuf = r.vec(n + off);
    let wbuf = r.vec(n + off + 3);
    let ubuf = r.vec(n + off + 3);
    let bbuf = r.bytes(n + off);
    let (x, w, u) = (&xbuf[off..], &wbuf[off..off + n], &ubuf[off..off + n]);
    let (alpha, beta) = (r.f32(), r.f32());
    check_row(b, DenseRow::new(x), w, u, alpha, beta);
    check_row(b, DenseRow::new(U8Values::new(&bbuf[off..], 0.5)), w, u, alpha, beta);
    // Weights longer than the row: only the first n are used.
    check_row(b, DenseRow::new(x), &wbuf[off..], &ubuf[off..], alpha, beta);
}

/// Stamps the whole suite into one module per backend.
macro_rules! backend_suite {
    ($name:ident, $backend:expr $(, #[$attr:meta])*) => {
        mod $name {
            use super::*;

            fn backend() -> Backend {
                $backend.expect("the backend exists on this CPU (else the suite is ignored)")
            }

            #[test]
            $(#[$attr])*
            fn dense_every_length_and_alignment() {
                let b = backend();
                for n in 0..=300 {
                    for off in 0..8 {
                        check_dense(b, n, off, (n * 8 + off) as u64);
                    }
                }
            }

            #[test]
            $(#[$attr])*
            fn sparse_every_length_and_alignment() {
                let b = backend();
                for nnz in 0..=300 {
                    for off in [0, 1, 3, 5] {
                        check_all_encodings(b, nnz, 785, off, nnz as u64 * 31 + off as u64);
                    }
                }
            }

            #[test]
            $(#[$attr])*
            fn sparse_over_large_dimensions() {
                let b = backend();
                for nnz in [0, 1, 7, 8, 9, 31, 32, 33, 150, 1000] {
                    check_all_encodings(b, nnz, 1 << 16, 1, nnz as u64);
                    check_all_encodings(b, nnz, 1 << 20, 2, nnz as u64 + 7);
                }
            }

            #[test]
            $(#[$attr])*
            fn dense_vector_operations() {
                let b = backend();
                if b != Backend::best() {
                    return; // `dense::*` always runs the best backend
                }
                for n in 0..=300 {
                    let mut r = Rng(n as u64);
                    let (x, y) = (r.vec(n + 1), r.vec(n + 1));
                    let (x, y) = (&x[1..], &y[1..]);
                    let terms: f64 = x.iter().zip(y).map(|(a, c)| f64::from(a * c).abs()).sum();
                    assert!(close(dense::dot(x, y), scalar::dense_dot(x, y), n, terms));
                    let sq: f64 = x.iter().map(|a| f64::from(*a).powi(2)).sum();
                    assert!(close(dense::norm_sq(x), scalar::dense_norm_sq(x), n, sq));
                    let (mut y1, mut y2) = (y.to_vec(), y.to_vec());
                    dense::axpy(0.75, x, &mut y1);
                    scalar::dense_axpy(0.75, x, &mut y2);
                    for i in 0..n {
                        assert!(close(y1[i], y2[i], 1, f64::from(y[i].abs() + x[i].abs())));
                    }
                }
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(256))]

                #[test]
                $(#[$attr])*
                fn sparse_random(nnz in 0usize..=300, dim in 1usize..5000, off in 0usize..8, seed: u64) {
                    check_all_encodings(backend(), nnz, dim, off, seed);
                }

                #[test]
                $(#[$attr])*
                fn dense_random(n in 0usize..=300, off in 0usize..8, seed: u64) {
                    check_dense(backend(), n, off, seed);
                }
            }
        }
    };
}

backend_suite!(portable, Some(Backend::portable()));
backend_suite!(
    avx2_fma,
    Backend::avx2_fma(),
    #[cfg_attr(not(host_has_avx2_fma), ignore = "this CPU has no AVX2+FMA: the avx2+fma kernels cannot run here")]
);

backend_suite!(
    avx2_fma_gather,
    Backend::avx2_fma_gather(),
    #[cfg_attr(not(host_has_avx2_fma), ignore = "this CPU has no AVX2+FMA: the avx2+fma kernels cannot run here")]
);

#[test]
fn avx2_backend_is_tested_where_the_cpu_has_it() {
    #[cfg(target_arch = "x86_64")]
    {
        let has = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
        assert_eq!(Backend::avx2_fma().is_some(), has);
        assert_eq!(Backend::avx2_fma_gather().is_some(), has);
        assert_eq!(Backend::available().len(), 1 + 2 * usize::from(has));
    }
    assert_eq!(Backend::available()[0], Backend::portable());
}

/// The two AVX2 backends differ only in how they load the gathered
/// weights, so every result is the same to the bit (the pinned model hashes
/// rely on it: either may be `Backend::best()`).
#[test]
#[cfg_attr(not(host_has_avx2_fma), ignore = "this CPU has no AVX2+FMA: the avx2+fma kernels cannot run here")]
fn both_avx2_gathers_give_the_same_bits() {
    let (a, b) = (Backend::avx2_fma().unwrap(), Backend::avx2_fma_gather().unwrap());
    for (n, dim) in [(0, 10), (7, 100), (8, 100), (150, 784), (301, 1 << 16), (1000, 1 << 20)] {
        let mut r = Rng(n as u64 * 17 + 1);
        let idx: Vec<u32> = r.pattern(n, dim).iter().map(|&i| i as u32).collect();
        let (vals, bytes, w) = (r.vec(idx.len()), r.bytes(idx.len()), r.vec(dim));
        let rows32 = (
            SparseRow::try_new(dim, &idx, &vals[..]).unwrap(),
            SparseRow::try_new(dim, &idx, U8Values::new(&bytes, 0.5)).unwrap(),
        );
        assert_eq!(rows32.0.dot_in(a, &w).to_bits(), rows32.0.dot_in(b, &w).to_bits(), "u32/f32, {n}");
        assert_eq!(rows32.1.dot_in(a, &w).to_bits(), rows32.1.dot_in(b, &w).to_bits(), "u32/u8, {n}");
        let (mut wa, mut wb) = (w.clone(), w.clone());
        rows32.0.axpy_in(a, 0.75, &mut wa);
        rows32.0.axpy_in(b, 0.75, &mut wb);
        assert_eq!(
            wa.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            wb.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        if dim <= 1 << 16 {
            let idx16: Vec<u16> = idx.iter().map(|&i| i as u16).collect();
            let row16 = SparseRow::try_new(dim, &idx16, &vals[..]).unwrap();
            assert_eq!(row16.dot_in(a, &w).to_bits(), row16.dot_in(b, &w).to_bits(), "u16/f32, {n}");
        }
    }
}

proptest! {
    #[test]
    fn sparse_dot_sparse_matches_oracle(na in 0usize..200, nb in 0usize..200, dim in 1usize..1000, seed: u64) {
        let mut r = Rng(seed);
        let (pa, pb) = (r.pattern(na, dim), r.pattern(nb, dim));
        let ia: Vec<u32> = pa.iter().map(|&i| i as u32).collect();
        let ib: Vec<u32> = pb.iter().map(|&i| i as u32).collect();
        let (va, vb) = (r.vec(ia.len()), r.bytes(ib.len()));
        let a = SparseRow::try_new(dim, &ia, &va[..]).unwrap();
        let b = SparseRow::try_new(dim, &ib, U8Values::new(&vb, 0.25)).unwrap();
        let c = SparseRow::try_new(dim, &ib, Ones).unwrap();
        for (fast, slow) in [
            (sparse_dot_sparse(&a, &b), scalar::sparse_dot_sparse(&a, &b)),
            (sparse_dot_sparse(&b, &a), scalar::sparse_dot_sparse(&b, &a)),
            (sparse_dot_sparse(&a, &c), scalar::sparse_dot_sparse(&a, &c)),
        ] {
            let terms: f64 = va.iter().map(|x| f64::from(x.abs()) * 255.0 * 0.25).sum();
            prop_assert!(close(fast, slow, na.max(nb), terms), "{} vs {}", fast, slow);
        }
        // Against itself: the squared norm.
        let terms: f64 = va.iter().map(|x| f64::from(*x).powi(2)).sum();
        prop_assert!(close(sparse_dot_sparse(&a, &a), scalar::norm_sq(&a), ia.len(), terms));
    }
}

#[test]
fn empty_and_single_entry_rows() {
    let w = [1.5f32, -2.0, 4.0];
    for b in Backend::available() {
        let empty = SparseRow::try_new(3, &[] as &[u32], &[] as &[f32]).unwrap();
        assert_eq!(empty.dot_in(b, &w), 0.0);
        assert_eq!(empty.norm_sq_in(b), 0.0);
        let one = SparseRow::try_new(3, &[2u16], &[0.5f32][..]).unwrap();
        assert_eq!(one.dot_in(b, &w), 2.0);
        let mut v = w;
        one.axpy_in(b, 2.0, &mut v);
        assert_eq!(v, [1.5, -2.0, 5.0]);
        let bin = SparseRow::try_new(3, &[0u32, 2], Ones).unwrap();
        assert_eq!(bin.dot_in(b, &w), 5.5);
        assert_eq!(bin.norm_sq_in(b), 2.0);
        let px = DenseRow::new(U8Values::new(&[255, 0, 51], 1.0 / 255.0));
        assert!((px.dot_in(b, &w) - (1.5 + 0.8)).abs() < 1e-6);
        assert_eq!(DenseRow::new(&[] as &[f32]).dot_in(b, &[]), 0.0);
    }
}

#[test]
fn nan_propagates_only_from_touched_weights() {
    let mut w = vec![1.0f32; 100];
    w[50] = f32::NAN;
    for b in Backend::available() {
        let touches: Vec<u32> = (40..60).collect();
        let misses: Vec<u32> = (0..40).collect();
        let v = [1.0f32; 20];
        assert!(SparseRow::try_new(100, &touches, &v[..]).unwrap().dot_in(b, &w).is_nan());
        let v = [1.0f32; 40];
        assert_eq!(SparseRow::try_new(100, &misses, &v[..]).unwrap().dot_in(b, &w), 40.0);
        assert!(DenseRow::new(&w[..]).norm_sq_in(b).is_nan());
        let mut inf = vec![0.0f32; 16];
        inf[3] = f32::INFINITY;
        assert_eq!(DenseRow::new(&vec![1.0f32; 16][..]).dot_in(b, &inf), f32::INFINITY);
    }
}

#[test]
fn constructor_rejects_broken_rows() {
    let v = [1.0f32, 2.0, 3.0];
    assert_eq!(
        SparseRow::try_new(10, &[1u32, 1, 2], &v[..]).unwrap_err(),
        KernelError::NotIncreasing { position: 1, previous: 1, index: 1 }
    );
    assert_eq!(
        SparseRow::try_new(10, &[1u32, 5, 2], &v[..]).unwrap_err(),
        KernelError::NotIncreasing { position: 2, previous: 5, index: 2 }
    );
    assert_eq!(
        SparseRow::try_new(10, &[1u32, 5, 10], &v[..]).unwrap_err(),
        KernelError::IndexOutOfRange { position: 2, index: 10, dim: 10 }
    );
    assert_eq!(
        SparseRow::try_new(10, &[1u32, 5], &v[..]).unwrap_err(),
        KernelError::LengthMismatch { indices: 2, values: 3 }
    );
    assert_eq!(
        SparseRow::try_new(65_537, &[1u16], Ones).unwrap_err(),
        KernelError::DimTooLarge { dim: 65_537, max: 65_536, index_bits: 16 }
    );
    assert!(SparseRow::try_new(65_536, &[65_535u16], Ones).is_ok());
    assert!(SparseRow::try_new(0, &[] as &[u16], Ones).is_ok());
    assert!(SparseRow::try_new(0, &[0u16], Ones).is_err());
    // The message names the bad value.
    let e = SparseRow::try_new(4, &[7u32], Ones).unwrap_err().to_string();
    assert!(e.contains('7') && e.contains('4'), "{e}");
}

#[test]
#[should_panic(expected = "shorter than the row dimension")]
fn short_weights_panic_before_any_read() {
    let row = SparseRow::try_new(100, &[99u32], Ones).unwrap();
    row.dot(&[0.0; 50]);
}

#[test]
fn index_types_round_trip() {
    assert_eq!(u16::from_usize(65_535), Some(65_535));
    assert_eq!(u16::from_usize(65_536), None);
    assert_eq!(u32::from_usize(7).map(Index::to_usize), Some(7));
    assert_eq!(U8Values::new(&[10], 0.5).decode(0), 5.0);
    assert_eq!(Ones.stored_len(), None);
}

/// `dots_u8` on `isa` for `m × n` rows of `d` bytes, misaligned by `off`,
/// against the oracle (exact: integers).
fn check_byte_dots(isa: ByteIsa, m: usize, n: usize, d: usize, off: usize, seed: u64) {
    let mut r = Rng(seed);
    let (a, b) = (r.bytes(m * d + off), r.bytes(n * d + off));
    let (a, b) = (&a[off..], &b[off..]);
    let (mut got, mut want) = (vec![7; m * n], vec![0; m * n]);
    dots_u8_on(isa, a, b, d, &mut got);
    scalar::dots_u8(a, b, d, &mut want);
    assert_eq!(got, want, "{} m {m} n {n} d {d}", isa.name());
}

proptest! {
    #[test]
    fn byte_dots_match_the_oracle_on_every_isa(
        m in 0usize..7, n in 0usize..11, d in 1usize..200, off in 0usize..8, seed: u64,
    ) {
        for isa in ByteIsa::available() {
            check_byte_dots(isa, m, n, d, off, seed);
        }
    }
}

#[test]
fn byte_dots_cover_every_width_and_the_largest_sums() {
    for isa in ByteIsa::available() {
        for d in [1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 784] {
            check_byte_dots(isa, 5, 9, d, 3, d as u64);
        }
        // 255 · 255 everywhere at the largest dimension: the sums reach
        // 2,147,330,625 and must not wrap.
        let d = rosenblatt_kernels::bytes::MAX_DIM;
        let ones = vec![255u8; 3 * d];
        let mut got = vec![0; 9];
        dots_u8_on(isa, &ones, &ones, d, &mut got);
        assert!(got.iter().all(|&v| v as i64 == 255 * 255 * d as i64), "{}: {got:?}", isa.name());
    }
    assert!(std::panic::catch_unwind(|| dots_u8_on(ByteIsa::best(), &[1; 5], &[1; 4], 2, &mut [0; 4])).is_err());
}

/// [`Row::adagrad_in`] and [`Row::adagrad_cells_in`] of `row` on every
/// backend, with and without scales, against [`scalar::adagrad`], bit for
/// bit, on every coordinate of the state (those the row does not touch, or touches with a zero, must
/// keep their bits).
fn check_adagrad<R: Row>(row: R, r: &mut Rng) {
    let d = row.dim() + r.below(3);
    let g2: Vec<f32> = (0..d).map(|_| r.f32().abs()).collect();
    let w = r.vec(d);
    let s: Vec<f32> = (0..d).map(|_| r.f32().abs() + 0.5).collect();
    let (c, g) = (f64::from(r.f32()) * 0.37, f64::from(r.f32()) * 1.3);
    for scales in [None, Some(&s[..])] {
        let (mut g_want, mut w_want) = (g2.clone(), w.clone());
        scalar::adagrad(&row, c, g, &mut w_want, &mut g_want, scales);
        for b in Backend::available() {
            let (mut g_got, mut w_got) = (g2.clone(), w.clone());
            row.adagrad_in(b, c, g, &mut w_got, &mut g_got, scales);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&g_got), bits(&g_want), "G on {}, scales {}", b.name(), scales.is_some());
            assert_eq!(bits(&w_got), bits(&w_want), "w on {}, scales {}", b.name(), scales.is_some());
            // The same state in cells: [w_i, G_i] without scales,
            // [w_i, G_i, s_i, unused] with them. The same bits, and the dot
            // over the cells' weights is the dot over the weights.
            let bits_of = |cells: &[f32], n: usize, f: usize| {
                cells.iter().skip(f).step_by(n).map(|x| x.to_bits()).collect::<Vec<_>>()
            };
            let (width, mut cells) = match scales {
                None => (CellWidth::Two, w.iter().zip(&g2).flat_map(|(&w, &g)| [w, g]).collect::<Vec<_>>()),
                Some(s) => (
                    CellWidth::Four,
                    w.iter().zip(&g2).zip(s).flat_map(|((&w, &g), &s)| [w, g, s, f32::NAN]).collect::<Vec<_>>(),
                ),
            };
            row.adagrad_cells_in(b, c, g, &mut cells, width);
            let n = width.floats();
            if let Some(s) = scales {
                let kept = cells.chunks(n).zip(s).all(|(c, &s)| c[2] == s && c[3].is_nan());
                assert!(kept, "scales kept on {}", b.name());
            }
            let (w_cells, g_cells, dot) =
                (bits_of(&cells, n, 0), bits_of(&cells, n, 1), row.dot_cells_in(b, &cells, width));
            assert_eq!(g_cells, bits(&g_want), "G in cells on {}, scales {}", b.name(), scales.is_some());
            assert_eq!(w_cells, bits(&w_want), "w in cells on {}, scales {}", b.name(), scales.is_some());
            assert_eq!(dot.to_bits(), row.dot_in(b, &w_want).to_bits(), "the dot over cells on {}", b.name());
        }
    }
}

proptest! {
    /// Every encoding, rows of every length around the eight-lane block,
    /// zeros (and −0.0) in runs and scattered: a dense row's blocks of
    /// zeros are skipped, a sparse row's stored zeros keep their state.
    #[test]
    fn adagrad_is_the_scalar_step_on_every_backend(
        n in 0usize..=100,
        zero_in_16 in 0u64..=16,
        runs: bool,
        seed: u64,
    ) {
        let mut r = Rng(seed);
        let mut bytes = r.bytes(n);
        let mut k = 0;
        while k < n {
            let zero = r.next() % 16 < zero_in_16;
            let len = if runs { 1 + r.below(12) } else { 1 };
            for b in bytes.iter_mut().skip(k).take(len) {
                if zero {
                    *b = 0;
                } else if *b == 0 {
                    *b = 1;
                }
            }
            k += len;
        }
        let floats: Vec<f32> =
            bytes.iter().map(|&b| if b == 0 { if r.next().is_multiple_of(2) { 0.0 } else { -0.0 } } else { r.f32() }).collect();
        check_adagrad(DenseRow::new(&floats[..]), &mut r);
        check_adagrad(DenseRow::new(U8Values::new(&bytes, 1.0 / 255.0)), &mut r);
        let idx: Vec<u32> = (0..n as u32).map(|i| 3 * i + 1).collect();
        let dim = 3 * n + 2;
        check_adagrad(SparseRow::try_new(dim, &idx[..], &floats[..]).unwrap(), &mut r);
        check_adagrad(SparseRow::try_new(dim, &idx[..], U8Values::new(&bytes, 0.25)).unwrap(), &mut r);
        check_adagrad(SparseRow::try_new(dim, &idx[..], Ones).unwrap(), &mut r);
        let idx16: Vec<u16> = idx.iter().map(|&i| i as u16).collect();
        check_adagrad(SparseRow::try_new(dim, &idx16[..], &floats[..]).unwrap(), &mut r);
    }
}

/// The scalar step against the formula in f64: `G + (g·x)²` and
/// `w + (c·x)/(√G'·s)`, within a few roundings.
#[test]
fn adagrad_step_is_the_formula() {
    let mut r = Rng(7);
    for _ in 0..10_000 {
        let (g2, w, s, x) = (r.f32().abs(), r.f32(), r.f32().abs() + 0.5, r.f32());
        let (c, g) = (f64::from(r.f32()), f64::from(r.f32()));
        let (gn, wn) = scalar::adagrad_step(g2, w, s, x, c, g);
        if x == 0.0 {
            assert_eq!((gn.to_bits(), wn.to_bits()), (g2.to_bits(), w.to_bits()));
            continue;
        }
        let x = f64::from(x);
        let want_g = f64::from(g2) + (g * x).powi(2);
        assert!((f64::from(gn) - want_g).abs() <= 4.0 * U * want_g, "G {gn} vs {want_g}");
        if want_g > 0.0 {
            let step = c * x / (want_g.sqrt() * f64::from(s));
            let want_w = f64::from(w) + step;
            assert!(
                (f64::from(wn) - want_w).abs() <= 8.0 * U * (f64::from(w).abs() + step.abs()),
                "w {wn} vs {want_w}"
            );
        }
    }
}
