//! The LIBSVM parser on arbitrary bytes never panics, and whatever parses,
//! written back as text and parsed again, gives the same rows.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rosenblatt_loader::libsvm::{NO_QID, parse};
use rosenblatt_loader::{ParseOptions, Rows};
use std::fmt::Write;

fn write_text(rows: &Rows, opts: &ParseOptions) -> String {
    let mut s = String::new();
    let base = u64::from(!opts.zero_based);
    for r in 0..rows.len() {
        if opts.multilabel {
            let ids = &rows.multilabels[rows.label_offsets[r] as usize..rows.label_offsets[r + 1] as usize];
            s.push_str(&ids.iter().map(u32::to_string).collect::<Vec<_>>().join(","));
        } else {
            write!(s, "{:e}", rows.labels[r]).unwrap();
        }
        if rows.qids[r] != NO_QID {
            write!(s, " qid:{}", rows.qids[r]).unwrap();
        }
        for k in rows.offsets[r] as usize..rows.offsets[r + 1] as usize {
            write!(s, " {}:{:e}", u64::from(rows.indices[k]) + base, rows.values[k]).unwrap();
        }
        s.push('\n');
    }
    s
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, text)) = data.split_first() else { return };
    let opts = ParseOptions {
        zero_based: flags & 1 != 0,
        sort_indices: flags & 2 != 0,
        multilabel: flags & 4 != 0,
        skip_bad_lines: flags & 8 != 0,
    };
    if let Ok(rows) = parse(text, &opts) {
        let again = write_text(&rows, &opts);
        let strict = ParseOptions { skip_bad_lines: false, ..opts };
        let back = parse(again.as_bytes(), &strict).expect("written rows parse");
        assert_eq!(back.labels, rows.labels);
        assert_eq!(back.multilabels, rows.multilabels);
        assert_eq!(back.offsets, rows.offsets);
        assert_eq!(back.indices, rows.indices);
        assert_eq!(back.values, rows.values);
        assert_eq!(back.qids, rows.qids);
    }
});
