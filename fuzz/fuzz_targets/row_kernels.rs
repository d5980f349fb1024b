//! Arbitrary bytes as a sparse row: the checked constructor must refuse every
//! row that would let the unchecked kernels touch memory outside the weights
//! (AddressSanitizer watches), and every row it accepts must give the
//! oracle's results on every backend.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rosenblatt_kernels::{Backend, Ones, Row, SparseRow, U8Values, scalar};

fn check<R: Row>(row: R) {
    // Exactly `dim` weights: any index at or past `dim` would be out of bounds.
    let w: Vec<f32> = (0..row.dim()).map(|i| (i % 7) as f32 - 3.0).collect();
    let oracle = scalar::dot(&row, &w);
    let bound: f32 = (0..row.nnz()).map(|k| row.entry(k).1.abs() * 3.0).sum();
    for b in Backend::available() {
        let d = row.dot_in(b, &w);
        assert!((d - oracle).abs() <= 1e-3 * (1.0 + bound), "{d} vs {oracle}");
        let mut v = w.clone();
        row.axpy_in(b, 0.5, &mut v);
        let mut u = w.clone();
        row.axpy2_in(b, 0.5, &mut v, -0.5, &mut u);
        let _ = row.norm_sq_in(b);
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let dim = usize::from(u16::from_le_bytes([data[0], data[1]]));
    let mode = data[2];
    let body = &data[3..];
    match mode % 3 {
        0 => {
            // u16 indices with u8 values
            let n = body.len() / 3;
            let idx: Vec<u16> = body[..2 * n].chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
            let vals = &body[2 * n..3 * n];
            if let Ok(r) = SparseRow::try_new(dim, &idx, U8Values::new(vals, 0.5)) {
                check(r);
            }
        }
        1 => {
            // u32 indices, binary
            let idx: Vec<u32> = body.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            if let Ok(r) = SparseRow::try_new(dim, &idx, Ones) {
                check(r);
            }
        }
        _ => {
            // u32 indices with f32 values (mismatched lengths must be refused)
            let half = body.len() / 2;
            let idx: Vec<u32> =
                body[..half].chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            let vals: Vec<f32> = body[half..]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .map(|x| if x.is_finite() { x.clamp(-1e3, 1e3) } else { 1.0 })
                .collect();
            if let Ok(r) = SparseRow::try_new(dim, &idx, &vals[..]) {
                check(r);
            }
        }
    }
});
