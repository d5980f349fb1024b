//! Times opening a converted dataset, as `train` opens it, on 1 and 2
//! threads: with its checksums verified (rows checked and the files
//! summed) and without (rows checked only). Median of 11 opens; usage:
//! `open_dataset DIR`.
use rosenblatt_loader::{Dataset, OpenOptions};
use std::time::Instant;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: open_dataset DIR");
        std::process::exit(2);
    };
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        for verify_checksums in [false, true] {
            let opts = OpenOptions { verify_checksums, in_memory: false };
            let mut ms: Vec<f64> = (0..11)
                .map(|_| {
                    let t = Instant::now();
                    let ds = pool.install(|| Dataset::open(&dir, opts));
                    let ms = t.elapsed().as_secs_f64() * 1e3;
                    if let Err(e) = ds {
                        eprintln!("{e}");
                        std::process::exit(1);
                    }
                    ms
                })
                .collect();
            ms.sort_by(f64::total_cmp);
            println!(
                "threads {threads}, checksums {verify_checksums}: median {:.1} ms (of 11; {:.1}..{:.1})",
                ms[5], ms[0], ms[10]
            );
        }
    }
}
