//! The read-only pass every training pass is measured against: a read of
//! the same bytes that does almost nothing else. For the benchmarks and
//! `rosenblatt bench` (the `cli` feature), not for embedders.

use crate::{kernels, loader};

/// Sums every byte of `data` in u64 lanes: a pass that reads the same bytes
/// as training does and almost nothing else — the baseline a training pass
/// is measured against (with [`read_only_pass_ahead`]: the faster of the
/// two, [`read_only_seconds`]).
///
/// ```
/// assert_eq!(rosenblatt::read_only_pass(&[1, 0, 0, 0, 0, 0, 0, 0, 2]), 3);
/// ```
pub fn read_only_pass(data: &[u8]) -> u64 {
    let mut c = data.chunks_exact(8);
    let s = sum_lanes(0, &mut c);
    c.remainder().iter().fold(s, |s, &b| s.wrapping_add(u64::from(b)))
}

/// [`read_only_pass`] that also prefetches [`READ_AHEAD`] bytes ahead, as
/// the training loop's sequential order prefetches rows ahead. Which of
/// the two reads faster depends on the machine and on where the bytes are:
/// on an Intel Xeon, 72 MB of shards read 1.2–1.8× faster with the
/// read-ahead and a 268 MB shard 8–12% slower (SPEED.md#the-read-only-pass).
///
/// ```
/// assert_eq!(rosenblatt::read_only_pass_ahead(&[1, 0, 0, 0, 0, 0, 0, 0, 2]), 3);
/// ```
pub fn read_only_pass_ahead(data: &[u8]) -> u64 {
    let mut s = 0u64;
    let mut lines = data.chunks_exact(64);
    for (k, line) in (&mut lines).enumerate() {
        if let Some(ahead) = data.get(k * 64 + READ_AHEAD..k * 64 + READ_AHEAD + 1) {
            kernels::prefetch(ahead);
        }
        s = sum_lanes(s, line.chunks_exact(8));
    }
    s.wrapping_add(read_only_pass(lines.remainder()))
}

/// How far ahead [`read_only_pass_ahead`] prefetches: 8 KB was at or
/// within noise of the fastest of 1 to 32 KB in plain C over MNIST's
/// shards on an Intel Xeon (SPEED.md#the-read-only-pass).
pub const READ_AHEAD: usize = 8192;

#[inline(always)]
fn sum_lanes<'a>(s: u64, lanes: impl Iterator<Item = &'a [u8]>) -> u64 {
    lanes.fold(s, |s, b| s.wrapping_add(u64::from_le_bytes(b.try_into().expect("8 bytes"))))
}

/// Median seconds of a read-only pass over every shard of `ds`, of
/// `repeats` runs each of [`read_only_pass`] and [`read_only_pass_ahead`]
/// (alternating), the faster of the two medians: the fastest read of the
/// bytes this machine gives. With `release`, each shard's pages are dropped
/// from resident memory after it is read, as out-of-core training does.
pub fn read_only_seconds(ds: &loader::Dataset, repeats: usize, release: bool) -> f64 {
    let pass = |read: fn(&[u8]) -> u64| {
        let t = std::time::Instant::now();
        let mut sum = 0u64;
        for s in ds.shards() {
            sum = sum.wrapping_add(read(s.raw()));
            if release {
                s.release_rows(0, s.header().rows as usize);
            }
        }
        std::hint::black_box(sum);
        t.elapsed().as_secs_f64()
    };
    let (mut plain, mut ahead): (Vec<f64>, Vec<f64>) =
        (0..repeats.max(1)).map(|_| (pass(read_only_pass), pass(read_only_pass_ahead))).unzip();
    let median = |t: &mut Vec<f64>| {
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    };
    median(&mut plain).min(median(&mut ahead))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pass sums every byte's u64 lane whatever the length: whole lines,
    /// lines and a tail, shorter and longer than the read-ahead.
    #[test]
    fn read_only_pass_sums_every_lane_at_any_length() {
        let data: Vec<u8> = (0..3 * READ_AHEAD + 77).map(|i| (i * 131 + 7) as u8).collect();
        for n in [0, 1, 7, 8, 63, 64, 65, 1000, READ_AHEAD, READ_AHEAD + 9, data.len()] {
            let d = &data[..n];
            let mut c = d.chunks_exact(8);
            let mut want = 0u64;
            for b in &mut c {
                want = want.wrapping_add(u64::from_le_bytes(b.try_into().unwrap()));
            }
            want = c.remainder().iter().fold(want, |s, &b| s.wrapping_add(u64::from(b)));
            assert_eq!(read_only_pass(d), want, "{n} bytes");
            assert_eq!(read_only_pass_ahead(d), want, "{n} bytes, read ahead");
        }
    }
}
