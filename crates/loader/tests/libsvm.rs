//! Every accept and reject rule of the LIBSVM grammar, with positions, and
//! chunked parsing against whole-input parsing.

use proptest::prelude::*;
use rosenblatt_loader::libsvm::{NO_QID, parse, parse_parallel, split_lines};
use rosenblatt_loader::{ParseErrorKind as K, ParseOptions, Rows};

fn ok(text: &str) -> Rows {
    parse(text.as_bytes(), &ParseOptions::default()).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn row(rows: &Rows, r: usize) -> (f32, Vec<(u32, f32)>) {
    let (s, e) = (rows.offsets[r] as usize, rows.offsets[r + 1] as usize);
    (rows.labels[r], (s..e).map(|k| (rows.indices[k], rows.values[k])).collect())
}

fn err_with(text: &[u8], opts: &ParseOptions) -> (u64, u64, K) {
    let e = parse(text, opts).expect_err(&format!("{:?} should be rejected", String::from_utf8_lossy(text)));
    (e.line, e.column, e.kind)
}

fn err(text: &str) -> (u64, u64, K) {
    err_with(text.as_bytes(), &ParseOptions::default())
}

#[test]
fn a_plain_file() {
    let r = ok("+1 1:0.5 3:2\n-1 2:1\n");
    assert_eq!(r.len(), 2);
    assert_eq!(row(&r, 0), (1.0, vec![(0, 0.5), (2, 2.0)]));
    assert_eq!(row(&r, 1), (-1.0, vec![(1, 1.0)]));
    assert_eq!(r.qids, vec![NO_QID, NO_QID]);
}

#[test]
fn comments_blank_lines_and_whitespace() {
    let r = ok("# header\n\n   \n+1 1:1 # trailing\n\t-1\t2:3\t\n0 5:1#glued\n   # indented comment\n");
    assert_eq!(r.len(), 3);
    assert_eq!(row(&r, 0), (1.0, vec![(0, 1.0)]));
    assert_eq!(row(&r, 1), (-1.0, vec![(1, 3.0)]));
    assert_eq!(row(&r, 2), (0.0, vec![(4, 1.0)]));
}

#[test]
fn label_only_rows_crlf_and_no_final_newline() {
    let r = ok("1\r\n-1 1:2\r\n3");
    assert_eq!(r.len(), 3);
    assert_eq!(row(&r, 0), (1.0, vec![]));
    assert_eq!(row(&r, 1), (-1.0, vec![(0, 2.0)]));
    assert_eq!(row(&r, 2), (3.0, vec![]));
}

#[test]
fn number_forms() {
    let r = ok("+1 1:.5 2:5. 3:1e-3 4:+1 5:-2.5E+2\n2.75 1:1\n");
    assert_eq!(row(&r, 0).1, vec![(0, 0.5), (1, 5.0), (2, 1e-3), (3, 1.0), (4, -250.0)]);
    assert_eq!(row(&r, 1).0, 2.75);
}

#[test]
fn qid_is_kept() {
    let r = ok("1 qid:7 1:1\n0 qid:7 2:1\n1 3:1\n");
    assert_eq!(r.qids, vec![7, 7, NO_QID]);
    assert!(r.has_qids());
}

#[test]
fn multilabel_mode() {
    let opts = ParseOptions { multilabel: true, ..Default::default() };
    let r = parse(b"1,5,7 1:1\n0 2:1\n", &opts).unwrap();
    assert_eq!(r.multilabels, vec![1, 5, 7, 0]);
    assert_eq!(r.label_offsets, vec![0, 3, 4]);
    assert!(r.labels.is_empty());
    assert_eq!(err_with(b"1,,2 1:1\n", &opts), (1, 3, K::BadClassId));
    assert_eq!(err_with(b"1,x 1:1\n", &opts), (1, 3, K::BadClassId));
    // Without multi-label mode a list is a bad label, pointed at the comma,
    // and said to be comma-separated (a multi-label row, or CSV).
    assert_eq!(err("1,5 1:1"), (1, 2, K::CommaSeparated));
}

#[test]
fn non_utf8_inside_comments_and_long_lines() {
    let mut text = b"1 1:1 # caf\xe9 \xff\xfe\n".to_vec();
    let long: String = (1..=20_000).map(|i| format!(" {i}:1")).collect();
    text.extend_from_slice(format!("-1{long}\n").as_bytes());
    let r = parse(&text, &ParseOptions::default()).unwrap();
    assert_eq!(r.len(), 2);
    assert_eq!(r.offsets[2] - r.offsets[1], 20_000);
}

#[test]
fn explicit_zeros_are_validated_then_dropped() {
    let r = ok("1 1:0 2:1 3:0.0 4:-0\n");
    assert_eq!(row(&r, 0).1, vec![(1, 1.0)]);
    // A zero still takes part in the ordering and duplicate checks.
    assert_eq!(err("1 2:0 2:1"), (1, 7, K::DuplicateIndex { index: 2 }));
    assert_eq!(err("1 3:0 2:1"), (1, 7, K::UnsortedIndex { index: 2, previous: 3 }));
}

#[test]
fn byte_order_mark_is_skipped_at_the_start_only() {
    let r = parse(b"\xEF\xBB\xBF1 1:1\n", &ParseOptions::default()).unwrap();
    assert_eq!(row(&r, 0), (1.0, vec![(0, 1.0)]));
    assert_eq!(err_with(b"1 1:1\n\xEF\xBB\xBF1 1:1\n", &ParseOptions::default()).0, 2);
}

#[test]
fn empty_input_parses_to_no_rows() {
    assert!(ok("").is_empty());
    assert!(ok("\n\n# only comments\n").is_empty());
}

#[test]
fn index_base() {
    let zero = ParseOptions { zero_based: true, ..Default::default() };
    let r = parse(b"1 0:1 4:2\n", &zero).unwrap();
    assert_eq!(row(&r, 0).1, vec![(0, 1.0), (4, 2.0)]);
    assert_eq!(err("1 0:1"), (1, 3, K::ZeroIndexOneBased));
    // The largest one-based index that fits: 2^32 → stored 2^32 − 1.
    let r = ok("1 4294967296:1\n");
    assert_eq!(r.indices, vec![u32::MAX]);
    assert_eq!(err("1 4294967297:1"), (1, 3, K::IndexTooLarge));
    assert_eq!(err_with(b"1 4294967296:1", &zero), (1, 3, K::IndexTooLarge));
    assert_eq!(err("1 99999999999999999999999:1"), (1, 3, K::IndexTooLarge));
}

#[test]
fn sorting_is_opt_in_and_duplicates_always_fail() {
    assert_eq!(err("1 3:1 2:1"), (1, 7, K::UnsortedIndex { index: 2, previous: 3 }));
    let sort = ParseOptions { sort_indices: true, ..Default::default() };
    let r = parse(b"1 3:1 1:2 2:3\n", &sort).unwrap();
    assert_eq!(row(&r, 0).1, vec![(0, 2.0), (1, 3.0), (2, 1.0)]);
    assert_eq!(err_with(b"1 3:1 1:2 3:3\n", &sort), (1, 11, K::DuplicateIndex { index: 3 }));
    assert_eq!(err("1 2:1 2:1"), (1, 7, K::DuplicateIndex { index: 2 }));
}

#[test]
fn every_rejection_names_line_and_column() {
    let cases: &[(&str, u64, u64, K)] = &[
        ("1 1:nan", 1, 5, K::BadValue),
        ("1 1:inf", 1, 5, K::BadValue),
        ("1 1:1e39", 1, 5, K::NonFiniteValue),
        ("nan 1:1", 1, 1, K::TextLabel),
        ("1e39 1:1", 1, 1, K::NonFiniteLabel),
        ("1 1:0x10", 1, 5, K::HexFloat),
        ("1 1:1_0", 1, 5, K::DigitSeparator),
        ("abc 1:1", 1, 1, K::TextLabel),
        ("+x 1:1", 1, 1, K::BadLabel),
        ("1 3:", 1, 5, K::MissingValue),
        ("1 :3", 1, 3, K::MissingIndex),
        ("1 2 : 3", 1, 3, K::SpaceAroundColon),
        ("1 2 :3", 1, 3, K::SpaceAroundColon),
        ("1 2: 3", 1, 5, K::SpaceAroundColon),
        ("1 2.5:1", 1, 3, K::FloatIndex),
        ("1 -2:1", 1, 3, K::NegativeIndex),
        ("1 x:1", 1, 3, K::BadIndex),
        ("1 1:2 qid:3", 1, 7, K::MisplacedQid),
        ("1 qidfoo:7 1:1", 1, 3, K::BadQid),
        ("1 qid:x 1:1", 1, 7, K::BadQid),
        ("1 qid: 1:1", 1, 7, K::BadQid),
        ("1 qid:-1", 1, 7, K::BadQid),
        ("1 1:1.5abc", 1, 8, K::TrailingGarbage),
        ("1 1:1 2", 1, 7, K::ExpectedFeature),
        ("1 1:1\0", 1, 6, K::Nul),
        ("1 1:1 # \0 in a comment", 1, 9, K::Nul),
        ("1 1:1\r2 1:1\n", 1, 6, K::LoneCr),
        ("1 1:1\r", 1, 6, K::LoneCr),
        ("1 1:1\n1 1:1\n\n-1 5:1 4:1\n", 4, 8, K::UnsortedIndex { index: 4, previous: 5 }),
        ("1\t1:1\t\t2:x", 1, 10, K::BadValue),
    ];
    for (text, line, col, kind) in cases {
        assert_eq!(&err(text), &(*line, *col, kind.clone()), "{text:?}");
    }
    // The message is one line that names the problem.
    let e = parse(b"1 1:1\n1 2:1 1:1\n", &ParseOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2, column 7: index 1 follows 2: indices must increase within a row (`sort-indices` sorts them)"
    );
}

#[test]
fn lone_cr_never_merges_rows() {
    // A reader that split on CR would see two rows; we refuse instead.
    assert_eq!(err("1 1:1\r-1 2:1").2, K::LoneCr);
}

#[test]
fn skip_bad_lines_counts_every_skipped_line() {
    let opts = ParseOptions { skip_bad_lines: true, ..Default::default() };
    let r = parse(b"1 1:1\nx 1:1\n-1 2:1\n1 3:1 2:1\n1 5:1\n", &opts).unwrap();
    assert_eq!(r.len(), 3);
    assert_eq!(r.labels, vec![1.0, -1.0, 1.0]);
    assert_eq!(r.offsets, vec![0, 1, 2, 3]);
    assert_eq!(r.skipped.iter().map(|e| e.line).collect::<Vec<_>>(), vec![2, 4]);
    assert_eq!(r.qids.len(), 3);
}

fn sample_text(seed: u64, lines: usize) -> String {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut s = String::new();
    for _ in 0..lines {
        match next() % 10 {
            0 => s.push('\n'),
            1 => s.push_str("# comment 1:2\n"),
            _ => {
                s.push_str(if next() % 2 == 0 { "+1" } else { "-1" });
                let mut i = 0;
                for _ in 0..next() % 8 {
                    i += 1 + next() % 50;
                    s.push_str(&format!(" {i}:{}", (next() % 1000) as f32 / 7.0));
                }
                s.push_str(if next() % 3 == 0 { "\r\n" } else { "\n" });
            }
        }
    }
    s
}

/// `parse_parallel` in a pool of two threads: with one, it parses the
/// whole text in one piece and joins nothing.
fn parse_in_two<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(f)
}

#[test]
fn chunked_parse_equals_whole_parse_at_every_split_point() {
    let text = sample_text(42, 60);
    let whole = parse(text.as_bytes(), &ParseOptions::default()).unwrap();
    for chunk in 1..=text.len() + 1 {
        let par = parse_in_two(|| parse_parallel(text.as_bytes(), &ParseOptions::default(), chunk)).unwrap();
        assert_eq!(par, whole, "chunk size {chunk}");
    }
    // Errors report the same line and column whatever the chunking.
    let bad = format!("{text}1 1:1 1:2\n{text}");
    let e = parse(bad.as_bytes(), &ParseOptions::default()).unwrap_err();
    for chunk in [1, 7, 64, 1000, bad.len()] {
        assert_eq!(parse_in_two(|| parse_parallel(bad.as_bytes(), &ParseOptions::default(), chunk)).unwrap_err(), e);
    }
}

/// Pieces are parsed into places sized by their count of colons; where a
/// piece stores fewer features (query ids, explicit zeros, colons in
/// comments, rows skipped or rolled back) the places are closed up. The
/// result is the whole parse's, in every mode, at every split.
#[test]
fn chunked_parse_closes_up_pieces_with_fewer_features_than_colons() {
    let mut text = String::new();
    for r in 0..60u32 {
        text.push_str(&match r % 7 {
            0 => format!("+1 qid:{r} 3:1 5:0 9:2.5\n"),
            1 => "# 1:2 3:4 5:6 : : :\n".to_string(),
            2 => format!("-1 {}:0 {}:1.5 # a:b c:d\n", 1 + r, 2 + r),
            3 => "1 7:1 4:2 9:0\n".to_string(),
            4 => "2,3 1:1 2:2 3:0\n".to_string(),
            5 => format!("-1 1:1 2:x {}:1\n", 3 + r),
            _ => format!("1:{r} 4:1\n"),
        });
    }
    for mode in 0..32u8 {
        let opts = ParseOptions {
            zero_based: mode & 1 != 0,
            sort_indices: mode & 2 != 0,
            multilabel: mode & 4 != 0,
            skip_bad_lines: mode & 8 != 0,
            unlabeled_rows: mode & 16 != 0,
        };
        let whole = parse(text.as_bytes(), &opts);
        for chunk in [1, 2, 3, 5, 8, 13, 21, 40, 100, 333, text.len()] {
            let par = parse_in_two(|| parse_parallel(text.as_bytes(), &opts, chunk));
            assert_eq!(par, whole, "{opts:?}, chunk size {chunk}");
        }
    }
    // The modes that read it all: rows with explicit zeros and query ids
    // really were closed up, not merely equal by being empty.
    let all = ParseOptions { sort_indices: true, skip_bad_lines: true, ..Default::default() };
    let rows = parse(text.as_bytes(), &all).unwrap();
    assert!(rows.len() > 20 && rows.has_qids() && !rows.skipped.is_empty(), "{} rows", rows.len());
}

#[test]
fn split_lines_cuts_only_after_newlines() {
    let text = b"a\nbb\n\nccc\nd";
    for target in 1..=12 {
        let parts = split_lines(text, target);
        assert_eq!(parts.concat(), text.to_vec());
        for p in &parts[..parts.len() - 1] {
            assert_eq!(p.last(), Some(&b'\n'));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn chunked_matches_whole_on_generated_text(seed: u64, lines in 0usize..200, chunk in 1usize..600) {
        let text = sample_text(seed, lines);
        let whole = parse(text.as_bytes(), &ParseOptions::default()).unwrap();
        prop_assert_eq!(parse_in_two(|| parse_parallel(text.as_bytes(), &ParseOptions::default(), chunk)).unwrap(), whole);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400), chunk in 1usize..64) {
        let _ = parse(&bytes, &ParseOptions::default());
        let opts = ParseOptions { multilabel: true, sort_indices: true, skip_bad_lines: chunk % 2 == 0, ..Default::default() };
        // In pieces too: each piece's place is sized by a bound on its
        // features, which no bytes may exceed.
        prop_assert_eq!(parse_in_two(|| parse_parallel(&bytes, &opts, chunk)), parse(&bytes, &opts));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Bytes from LIBSVM's own alphabet: features, zeros, query ids,
    /// comments and bad lines in every mix, parsed whole and in pieces.
    #[test]
    fn libsvm_alphabet_parses_the_same_in_pieces(
        bytes in proptest::collection::vec(proptest::sample::select(b"0129:::. \t\n\n\r#qid,-+e".to_vec()), 0..600),
        chunk in 1usize..80,
        mode in 0u8..32,
    ) {
        let opts = ParseOptions {
            zero_based: mode & 1 != 0,
            sort_indices: mode & 2 != 0,
            multilabel: mode & 4 != 0,
            skip_bad_lines: mode & 8 != 0,
            unlabeled_rows: mode & 16 != 0,
        };
        prop_assert_eq!(parse_in_two(|| parse_parallel(&bytes, &opts, chunk)), parse(&bytes, &opts));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The one-pass feature path and the general path agree with a correctly
    /// rounded conversion, bit for bit, on every form a value can take.
    #[test]
    fn feature_values_are_correctly_rounded(
        int in 0u64..100_000_000, frac in 0u64..10_000_000_000, frac_digits in 0usize..12,
        sign in 0u8..3, exp in -12i32..12, form in 0u8..4, index in 1u64..5_000_000_000, last: bool,
    ) {
        let sign = ["", "-", "+"][sign as usize];
        let frac_str = format!("{frac:012}")[..frac_digits].to_string();
        let body = match form {
            0 => format!("{int}"),
            1 => format!("{int}.{frac_str}"),
            2 => format!(".{frac_str}0"),
            _ => format!("{int}.{frac_str}e{exp}"),
        };
        let value = format!("{sign}{body}");
        // With more text after the value, or with the value last in the
        // input (its digits then end within eight bytes of its end).
        let line = if last { format!("1 {index}:{value}") } else { format!("1 {index}:{value} # ends with a space\n") };
        let want = value.parse::<f32>().unwrap();
        match parse(line.as_bytes(), &ParseOptions::default()) {
            Ok(rows) if index <= 1 << 32 && want != 0.0 => {
                prop_assert_eq!(rows.values[0].to_bits(), want.to_bits(), "{}", value);
                prop_assert_eq!(u64::from(rows.indices[0]), index - 1);
            }
            Ok(rows) if index <= 1 << 32 => prop_assert_eq!(rows.indices.len(), 0), // zero dropped
            Ok(_) => prop_assert!(false, "index {} should not fit", index),
            Err(e) => prop_assert!(index > 1 << 32 || !want.is_finite(), "{}: {}", value, e),
        }
    }
}

#[test]
fn an_explicit_zero_states_the_dimension() {
    let rows = parse(b"+1 1:1 9:0\n-1 2:3\n", &ParseOptions::default()).unwrap();
    // Not stored, but counted: the text says there are 9 features.
    assert_eq!((rows.indices.clone(), rows.min_dim()), (vec![0, 1], 9));
    let rows = parse(b"+1 1:1\n-1 2:3\n", &ParseOptions::default()).unwrap();
    assert_eq!(rows.min_dim(), 2);
}

#[test]
fn an_empty_label_set_is_a_row_that_starts_with_a_feature() {
    // What scikit-learn's dump_svmlight_file(multilabel=True) writes for
    // label sets (1, 2), () and (0,), and its reader reads back.
    let text = b"1,2 1:1 3:2\n 2:3\n0 1:4\n";
    let multi = ParseOptions { multilabel: true, ..Default::default() };
    let rows = parse(text, &multi).unwrap();
    assert_eq!(rows.label_offsets, vec![0, 2, 2, 3]);
    assert_eq!(rows.multilabels, vec![1, 2, 0]);
    assert_eq!(rows.offsets, vec![0, 2, 3, 4]);
    assert_eq!((rows.indices.clone(), rows.values.clone()), (vec![0, 2, 1, 0], vec![1.0, 2.0, 3.0, 4.0]));
    // A row with labels still needs --multilabel; a row without one says so.
    let e = parse(text, &ParseOptions::default()).unwrap_err();
    assert_eq!(e.line, 1, "{e}");
    let e = parse(b"1 1:1\n 2:3\n", &ParseOptions::default()).unwrap_err();
    assert_eq!((e.line, &e.kind), (2, &rosenblatt_loader::ParseErrorKind::MissingLabel));
    assert!(e.kind.to_string().contains("`multilabel`"));
}

#[test]
fn an_empty_multilabel_row_survives_writing() {
    // Found by fuzzing (libsvm_roundtrip): ` 3:0` is a row with no label and
    // no stored feature; written as a blank line it would vanish on reading.
    let multi = ParseOptions { multilabel: true, ..Default::default() };
    let rows = parse(b" 3:0\n2 1:1\n", &multi).unwrap();
    assert_eq!((rows.len(), rows.indices.len()), (2, 1));
    for base in [0u8, 1] {
        let mut text = Vec::new();
        rosenblatt_loader::libsvm::write_rows(&rows, base, &mut text).unwrap();
        let opts = ParseOptions { zero_based: base == 0, ..multi };
        let back = parse(&text, &opts).unwrap();
        assert_eq!((back.label_offsets, back.offsets), (rows.label_offsets.clone(), rows.offsets.clone()));
        assert_eq!((back.multilabels, back.indices), (rows.multilabels.clone(), rows.indices.clone()));
    }
}
