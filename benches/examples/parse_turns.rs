//! The parse bench's text parsed on 1 and on 2 threads (or the counts
//! given after MB and TURNS) in turn, in one process, with and without its
//! explicit zeros ("0.000000", about one value in a million;
//! [`rosenblatt_benches::libsvm_text`]): medians of each.
//!
//! ```sh
//! cargo run --release -p rosenblatt-benches --example parse_turns -- [MB] [TURNS] [THREADS...]
//! ```
use rosenblatt_benches::libsvm_text;
use rosenblatt_loader::ParseOptions;
use rosenblatt_loader::libsvm::parse_parallel;

fn main() {
    let args: Vec<usize> =
        std::env::args().skip(1).map(|a| a.parse().expect("whole numbers: MB TURNS THREADS...")).collect();
    let (mb, turns) = (args.first().copied().unwrap_or(512), args.get(1).copied().unwrap_or(7));
    let threads = if args.len() > 2 { args[2..].to_vec() } else { vec![1, 2] };
    let texts = [("zeros", libsvm_text(mb << 20, true).0), ("no zeros", libsvm_text(mb << 20, false).0)];
    let pools: Vec<_> =
        threads.iter().map(|&t| rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap()).collect();
    let mut ms = vec![vec![]; texts.len() * pools.len()];
    for _ in 0..turns {
        for (k, ((_, t), p)) in texts.iter().flat_map(|t| pools.iter().map(move |p| (t, p))).enumerate() {
            let s = std::time::Instant::now();
            let n = p.install(|| parse_parallel(t, &ParseOptions::default(), 4 << 20).unwrap().len());
            ms[k].push(s.elapsed().as_secs_f64() * 1e3);
            std::hint::black_box(n);
        }
    }
    for (k, m) in ms.iter_mut().enumerate() {
        m.sort_by(f64::total_cmp);
        let (name, t) = (texts[k / pools.len()].0, threads[k % pools.len()]);
        println!("{name}, {t} thread(s): median {:.1} ms (min {:.1})", m[turns / 2], m[0]);
    }
}
