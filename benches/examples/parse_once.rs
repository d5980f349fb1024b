//! Parses a generated LIBSVM text once on one thread (for profilers).
use rosenblatt_benches::libsvm_text;
fn main() {
    let mb: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(64);
    let (out, _) = libsvm_text(mb << 20, true);
    let t = std::time::Instant::now();
    let rows = rosenblatt_loader::libsvm::parse(&out, &Default::default()).unwrap();
    let s = t.elapsed().as_secs_f64();
    println!("{} rows, {:.0} MB/s", rows.len(), out.len() as f64 / s / 1e6);
}
