//! Parses a generated LIBSVM text once on one thread (for profilers).
use rosenblatt_benches::SplitMix;
fn main() {
    let mb: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(64);
    let mut r = SplitMix::new(7);
    let mut out = Vec::new();
    while out.len() < mb << 20 {
        out.extend_from_slice(if r.next_u64() & 1 == 0 { b"+1" } else { b"-1" });
        let mut idx = 0u64;
        for _ in 0..(20 + r.below(60)) {
            idx += 1 + r.below(20_000) as u64;
            out.extend_from_slice(format!(" {idx}:0.{:06}", r.below(1_000_000)).as_bytes());
        }
        out.push(b'\n');
    }
    let t = std::time::Instant::now();
    let rows = rosenblatt_loader::libsvm::parse(&out, &Default::default()).unwrap();
    let s = t.elapsed().as_secs_f64();
    println!("{} rows, {:.0} MB/s", rows.len(), out.len() as f64 / s / 1e6);
}
