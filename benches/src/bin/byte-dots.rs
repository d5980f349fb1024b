//! The kernel Perceptrons' block of kernel dots — support rows × block
//! rows, 784 MNIST-like bytes each — on one thread: f32 sgemm
//! (matrixmultiply, what the f32 path uses) against the exact byte kernel
//! on every instruction set this CPU runs. Best of 5 runs, in G
//! multiply-adds per second.
//!
//! ```text
//! cargo run --release -p rosenblatt-benches --bin byte-dots
//! ```

use rosenblatt::kernels::{ByteIsa, dots_u8_on};
use std::time::Instant;

const D: usize = 784;

/// `n` rows of bytes, about a fifth of them non-zero (as MNIST's pixels).
fn rows(n: usize, seed: u64) -> Vec<u8> {
    let mut s = seed;
    (0..n * D)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let r = (s >> 33) as u32;
            if r % 100 < 19 { (r >> 8) as u8 } else { 0 }
        })
        .collect()
}

fn best_of(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

fn main() {
    let (m, b, reps) = (256, 256, 100);
    let (sa, xb) = (rows(m, 1), rows(b, 2));
    let (sf, xf): (Vec<f32>, Vec<f32>) =
        (sa.iter().map(|&v| f32::from(v)).collect(), xb.iter().map(|&v| f32::from(v)).collect());
    let macs = (m * b * D * reps) as f64;
    let mut of = vec![0f32; m * b];
    let t = best_of(5, || {
        for _ in 0..reps {
            // SAFETY: `sf` is m × D and `xf` b × D, read row-major as
            // m × D and D × b; `of` holds m × b values.
            unsafe {
                matrixmultiply::sgemm(
                    m,
                    D,
                    b,
                    1.0,
                    sf.as_ptr(),
                    D as isize,
                    1,
                    xf.as_ptr(),
                    1,
                    D as isize,
                    0.0,
                    of.as_mut_ptr(),
                    b as isize,
                    1,
                );
            }
        }
    });
    println!("f32 sgemm (matrixmultiply): {:.1} G multiply-adds/s", macs / t / 1e9);
    let mut want = vec![0i32; m * b];
    rosenblatt::kernels::scalar::dots_u8(&sa, &xb, D, &mut want);
    for isa in ByteIsa::available() {
        let mut out = vec![0i32; m * b];
        let t = best_of(5, || {
            for _ in 0..reps {
                dots_u8_on(isa, &sa, &xb, D, &mut out);
            }
        });
        assert_eq!(out, want, "{}", isa.name());
        println!("bytes, {}: {:.1} G multiply-adds/s", isa.name(), macs / t / 1e9);
    }
}
