//! VW text of any bytes, under settings drawn from the input's first byte
//! (bits, seed, `--hash all`, interactions with and without wildcards,
//! a namespace with itself): never a panic; parsed in pieces of any size
//! on two threads, the rows (or the error, at the same line and column)
//! of one piece; rows read are what the writers rely on (indices sorted,
//! unique and below 2^bits; values finite and non-zero); each line's
//! audit agrees with its row.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rosenblatt_loader::vw::{Hashing, Labels, parse, parse_in_pieces};

fuzz_target!(|data: &[u8]| {
    let Some((&knob, text)) = data.split_first() else { return };
    let specs: &[&[&str]] = &[&[], &["ab"], &["::"], &["aa", "ba"], &["a:"]];
    let h = Hashing {
        bits: [4, 10, 18, 32][usize::from(knob & 3)],
        hash_seed: u32::from(knob >> 7),
        hash_all: knob & 4 != 0,
        quadratic: specs[usize::from(knob >> 3) % specs.len()].iter().map(|s| s.to_string()).collect(),
        cubic: if knob & 64 != 0 { vec!["abb".into()] } else { Vec::new() },
        ..Hashing::default()
    };
    let c = h.compile().unwrap();
    // A cubic interaction's features grow as the cube of a line's: under
    // it, the text is cut to 128 bytes (before the cut such inputs took
    // 97% of the corpus's time; after it, about three quarters of a much
    // smaller total, uninstrumented), while cubic lines are still read.
    let text = if knob & 64 != 0 { &text[..text.len().min(128)] } else { text };
    // The fuzzing thread is one of the pool's two workers, so both parses
    // run on the pool without a hand-off to it and back for every input
    // (the corpus's median input took 30 µs with one, 10 µs without,
    // uninstrumented).
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    let pool =
        POOL.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(2).use_current_thread().build().unwrap());
    let whole = parse(text, &c, Labels::Optional);
    let piece = usize::from(knob) % 61 + 1;
    let pieces = pool.install(|| parse_in_pieces(text, &c, Labels::Optional, piece));
    assert_eq!(whole, pieces, "pieces of {piece} bytes");
    let Ok((rows, _)) = whole else { return };
    rows.check_structure().unwrap();
    assert!(rows.indices.iter().all(|&i| u64::from(i) < h.dim()));
    // Each line's audit names every index of its row (collisions summed,
    // zero sums dropped). Lines as the reader takes them: a byte-order
    // mark dropped, blank lines (but for one `\r` before the line end)
    // skipped; the audit drops that `\r` itself, as the reader does.
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let lines = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.strip_suffix(b"\r").unwrap_or(l).iter().all(|b| matches!(b, b' ' | b'\t')));
    for (r, line) in lines.enumerate() {
        let (_, feats) = c.audit(line).unwrap();
        let (a, b) = (rows.offsets[r] as usize, rows.offsets[r + 1] as usize);
        let mut idx: Vec<u32> = feats.iter().map(|f| f.index as u32).collect();
        idx.sort_unstable();
        idx.dedup();
        assert!(rows.indices[a..b].iter().all(|i| idx.binary_search(i).is_ok()));
    }
});
