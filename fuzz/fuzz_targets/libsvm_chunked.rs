//! Chunked parsing at arbitrary split sizes gives exactly the rows (or the
//! error, with its position) of a whole-input parse. It runs in a pool of
//! two threads: with one, `parse_parallel` parses in one piece.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rosenblatt_loader::ParseOptions;
use rosenblatt_loader::libsvm::{parse, parse_parallel};

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let chunk = usize::from(u16::from_le_bytes([data[0], data[1]])) % 512 + 1;
    let text = &data[2..];
    let opts = ParseOptions { skip_bad_lines: chunk % 2 == 0, ..Default::default() };
    let whole = parse(text, &opts);
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    let pool = POOL.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap());
    let chunked = pool.install(|| parse_parallel(text, &opts, chunk));
    assert_eq!(whole, chunked, "chunk size {chunk}");
});
