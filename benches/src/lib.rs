//! Shared pieces of the benchmarks: seeded data generators and the hand-written
//! baselines the kernels are measured against.

/// A small seeded generator (SplitMix64), so benchmark inputs are the same in
/// every run without a dependency.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `[-1, 1)`.
    pub fn next_f32(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// `n` values uniform in `[-1, 1)`.
pub fn random_f32(n: usize, seed: u64) -> Vec<f32> {
    let mut r = SplitMix::new(seed);
    (0..n).map(|_| r.next_f32()).collect()
}

/// `n` random bytes.
pub fn random_u8(n: usize, seed: u64) -> Vec<u8> {
    let mut r = SplitMix::new(seed);
    (0..n).map(|_| r.next_u64() as u8).collect()
}

/// `nnz` distinct sorted indices below `dim`.
pub fn random_indices(nnz: usize, dim: usize, seed: u64) -> Vec<u32> {
    assert!(nnz <= dim);
    let mut r = SplitMix::new(seed);
    let mut picked = std::collections::BTreeSet::new();
    while picked.len() < nnz {
        picked.insert(r.below(dim) as u32);
    }
    picked.into_iter().collect()
}

/// The parse benchmarks' LIBSVM text, at least `bytes` long, and its count
/// of features: rows like common sparse sets — ±1 labels, 20–79 features
/// with sorted one-based indices up to about 2^20, six-digit values in
/// `[0, 1)`. About one value in a million is `0.000000`, an explicit zero
/// the parser drops; `zeros: false` writes those as `0.000001`.
pub fn libsvm_text(bytes: usize, zeros: bool) -> (Vec<u8>, u64) {
    let mut r = SplitMix::new(7);
    let mut out = Vec::with_capacity(bytes + 4096);
    let mut nnz = 0u64;
    while out.len() < bytes {
        out.extend_from_slice(if r.next_u64() & 1 == 0 { b"+1" } else { b"-1" });
        let mut idx = 0u64;
        for _ in 0..(20 + r.below(60)) {
            idx += 1 + r.below(20_000) as u64;
            let v = r.below(1_000_000);
            let v = if zeros { v } else { v.max(1) };
            out.extend_from_slice(format!(" {idx}:0.{v:06}").as_bytes());
            nnz += 1;
        }
        out.push(b'\n');
    }
    (out, nnz)
}

/// The usual hand-written sparse dot: four independent scalar accumulators,
/// bounds checks left to the compiler. The sparse kernels must beat it.
pub fn sparse_dot_4acc(indices: &[u32], values: &[f32], w: &[f32]) -> f32 {
    let (mut a0, mut a1, mut a2, mut a3) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    let mut ic = indices.chunks_exact(4);
    let mut vc = values.chunks_exact(4);
    for (i, v) in (&mut ic).zip(&mut vc) {
        a0 += v[0] * w[i[0] as usize];
        a1 += v[1] * w[i[1] as usize];
        a2 += v[2] * w[i[2] as usize];
        a3 += v[3] * w[i[3] as usize];
    }
    let mut s = (a0 + a1) + (a2 + a3);
    for (i, v) in ic.remainder().iter().zip(vc.remainder()) {
        s += v * w[*i as usize];
    }
    s
}

pub use rosenblatt::read_only_pass;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_accumulator_baseline_matches_a_plain_loop() {
        let w = random_f32(1000, 1);
        let idx = random_indices(150, 1000, 2);
        let val = random_f32(150, 3);
        let plain: f64 = idx.iter().zip(&val).map(|(&i, &v)| f64::from(v) * f64::from(w[i as usize])).sum();
        assert!((f64::from(sparse_dot_4acc(&idx, &val, &w)) - plain).abs() < 1e-4);
    }

    #[test]
    fn indices_are_sorted_unique_and_in_range() {
        let idx = random_indices(500, 784, 9);
        assert_eq!(idx.len(), 500);
        assert!(idx.windows(2).all(|p| p[0] < p[1]));
        assert!(*idx.last().unwrap() < 784);
    }
}
