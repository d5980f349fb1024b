//! The parse bench's text parsed on 1 and on 2 threads in turn, in one
//! process, with and without its explicit zeros ("0.000000", about one
//! value in a million; [`rosenblatt_benches::libsvm_text`]): medians of each.
use rosenblatt_benches::libsvm_text;
use rosenblatt_loader::ParseOptions;
use rosenblatt_loader::libsvm::parse_parallel;

fn main() {
    let mb: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(512);
    let turns: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(7);
    let texts = [libsvm_text(mb << 20, true).0, libsvm_text(mb << 20, false).0];
    let pools: Vec<_> = [1, 2].map(|t| rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap()).into();
    let mut ms = vec![vec![]; 4];
    for _ in 0..turns {
        for (k, (t, p)) in texts.iter().flat_map(|t| pools.iter().map(move |p| (t, p))).enumerate() {
            let s = std::time::Instant::now();
            let n = p.install(|| parse_parallel(t, &ParseOptions::default(), 4 << 20).unwrap().len());
            ms[k].push(s.elapsed().as_secs_f64() * 1e3);
            std::hint::black_box(n);
        }
    }
    for (k, name) in ["zeros 1T", "zeros 2T", "no zeros 1T", "no zeros 2T"].iter().enumerate() {
        ms[k].sort_by(f64::total_cmp);
        println!("{name}: median {:.1} ms (min {:.1})", ms[k][turns / 2], ms[k][0]);
    }
}
