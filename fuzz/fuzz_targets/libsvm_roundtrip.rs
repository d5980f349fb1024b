//! The LIBSVM parser on arbitrary bytes never panics, and whatever parses,
//! written back as text by the writer `export` uses and parsed again,
//! gives the same rows.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rosenblatt_loader::ParseOptions;
use rosenblatt_loader::libsvm::{parse, write_rows};

fuzz_target!(|data: &[u8]| {
    let Some((&flags, text)) = data.split_first() else { return };
    let opts = ParseOptions {
        zero_based: flags & 1 != 0,
        sort_indices: flags & 2 != 0,
        multilabel: flags & 4 != 0,
        skip_bad_lines: flags & 8 != 0,
        unlabeled_rows: flags & 16 != 0,
    };
    if let Ok(rows) = parse(text, &opts) {
        let mut again = Vec::new();
        write_rows(&rows, u8::from(!opts.zero_based), &mut again).expect("writing to memory");
        let strict = ParseOptions { skip_bad_lines: false, ..opts };
        let back = parse(&again, &strict).expect("written rows parse");
        assert_eq!(back.labels, rows.labels);
        assert_eq!(back.multilabels, rows.multilabels);
        assert_eq!(back.offsets, rows.offsets);
        assert_eq!(back.indices, rows.indices);
        assert_eq!(back.values, rows.values);
        assert_eq!(back.qids, rows.qids);
    }
});
