//! What a server counts while it runs, without a lock: requests, errors,
//! and a latency histogram (log-spaced buckets, four to each power of
//! two), read as percentiles by `#stats`.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Sub-buckets per power of two: a percentile is read to within 19%.
const SUB: u32 = 4;
/// Buckets: up to 2^40 ns (18 minutes).
const BUCKETS: usize = 40 * SUB as usize;

/// The counters.
pub struct Stats {
    started: Instant,
    pub(crate) requests: AtomicU64,
    pub(crate) errors: AtomicU64,
    pub(crate) connections: AtomicU64,
    pub(crate) refused: AtomicU64,
    pub(crate) reloads: AtomicU64,
    pub(crate) reloads_refused: AtomicU64,
    latency: Vec<AtomicU64>,
}

/// The bucket of `ns` nanoseconds.
fn bucket(ns: u64) -> usize {
    if ns < 2 {
        return 0;
    }
    let log = 63 - ns.leading_zeros();
    let frac = if log >= 2 { (ns >> (log - 2)) & 3 } else { (ns << (2 - log)) & 3 } as u32;
    ((log * SUB + frac) as usize).min(BUCKETS - 1)
}

/// The upper edge of bucket `b`, in nanoseconds.
fn edge(b: usize) -> u64 {
    let (log, frac) = (b as u32 / SUB, b as u32 % SUB);
    let base = 1u64 << log;
    base + (base * u64::from(frac + 1)) / u64::from(SUB)
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            started: Instant::now(),
            requests: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            connections: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            reloads: AtomicU64::new(0),
            reloads_refused: AtomicU64::new(0),
            latency: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Stats {
    /// Counts `n` requests (`bad` of them answered `ERR`) that took `took`
    /// from being read to their replies being written.
    pub(crate) fn answered(&self, n: u64, bad: u64, took: Duration) {
        self.requests.fetch_add(n, Relaxed);
        self.errors.fetch_add(bad, Relaxed);
        self.latency[bucket(took.as_nanos().min(u128::from(u64::MAX)) as u64)].fetch_add(n, Relaxed);
    }

    /// Counts a reload refused.
    pub(crate) fn refused_reload(&self) {
        self.reloads_refused.fetch_add(1, Relaxed);
    }

    /// Time since the server started.
    pub fn uptime(&self) -> Duration {
        self.started.elapsed()
    }

    /// The latency below which fraction `q` of the requests were answered
    /// (a bucket's upper edge), in microseconds; 0 before any.
    pub fn percentile_us(&self, q: f64) -> f64 {
        let counts: Vec<u64> = self.latency.iter().map(|c| c.load(Relaxed)).collect();
        let total: u64 = counts.iter().sum();
        if total == 0 {
            return 0.0;
        }
        let want = ((total as f64 * q).ceil() as u64).max(1);
        let mut seen = 0;
        for (b, &c) in counts.iter().enumerate() {
            seen += c;
            if seen >= want {
                return edge(b) as f64 / 1e3;
            }
        }
        edge(BUCKETS - 1) as f64 / 1e3
    }

    /// Requests answered.
    pub fn requests(&self) -> u64 {
        self.requests.load(Relaxed)
    }

    /// Requests answered `ERR`.
    pub fn errors(&self) -> u64 {
        self.errors.load(Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::{bucket, edge};

    #[test]
    fn every_latency_lies_below_its_buckets_edge_and_within_a_fifth_of_it() {
        for ns in (4..100_000u64).chain((0..40).map(|k| (1u64 << k) + 7)) {
            let b = bucket(ns);
            assert!(ns < edge(b), "{ns} in bucket {b} edge {}", edge(b));
            assert!(edge(b) as f64 <= ns as f64 * 1.26 + 2.0, "{ns}: {}", edge(b));
            assert!(b == 0 || edge(b - 1) <= ns, "{ns}: previous edge {}", edge(b - 1));
        }
    }
}
