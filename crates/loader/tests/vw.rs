//! The VW text reader against Vowpal Wabbit's own `--audit` output, from
//! its test suite (`tests/data/vw/README.md`): every feature's index and
//! value as VW gives them. (The Python suite checks many generated lines
//! against the `vowpalwabbit` package itself.)

use rosenblatt_loader::vw::{Audited, Hashing};
use std::path::Path;

fn data(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vw").join(name)).unwrap()
}

/// VW's audit lines (every other line, tab-separated
/// `name:index:value:weight`), each as sorted (name, index, value); the
/// constant feature left out (the learner's bias stands for it).
fn expected(stdout: &str, rows: usize) -> Vec<Vec<(String, u64, String)>> {
    stdout
        .lines()
        .filter(|l| l.starts_with('\t'))
        .take(rows)
        .map(|l| {
            let mut v: Vec<(String, u64, String)> = l
                .split('\t')
                .filter(|f| !f.is_empty())
                .map(|f| {
                    let p: Vec<&str> = f.rsplitn(4, ':').collect();
                    (p[3].to_string(), p[2].parse().unwrap(), p[1].to_string())
                })
                .filter(|(n, _, _)| n != "Constant")
                .collect();
            v.sort();
            v
        })
        .collect()
}

fn ours(h: &Hashing, text: &str) -> Vec<Vec<(String, u64, String)>> {
    let c = h.compile().unwrap();
    text.lines()
        .map(|line| {
            let (_, feats) = c.audit(line.as_bytes()).unwrap();
            let mut v: Vec<_> =
                feats.into_iter().map(|Audited { name, index, value }| (name, index, value.to_string())).collect();
            v.sort();
            v
        })
        .collect()
}

#[test]
fn named_and_anonymous_features_land_where_vw_puts_them() {
    let got = ours(&Hashing::default(), &data("audit.dat"));
    assert_eq!(got, expected(&data("audit.stdout"), 4));
    // `1 | feature` is feature:118880, `3 | :1` the default namespace's
    // first anonymous feature, index 0.
    assert_eq!(got[0], vec![("feature".to_string(), 118_880, "1".to_string())]);
    assert_eq!(got[2], vec![(String::new(), 0, "1".to_string())]);
}

#[test]
fn quadratic_interactions_land_where_vw_puts_them() {
    // The labels there (`1:1`, cost-sensitive) are not ours: the features
    // are what is compared.
    let text: String =
        data("cache_interaction_audit.txt").lines().map(|l| format!("1 {}\n", &l[l.find('|').unwrap()..])).collect();
    let h = Hashing { quadratic: vec!["st".into()], ..Hashing::default() };
    assert_eq!(ours(&h, &text), expected(&data("cache_interaction_audit.stdout"), 4));
}

#[test]
fn pieces_parsed_in_parallel_give_the_rows_and_errors_of_one_piece() {
    use rosenblatt_loader::LoadError;
    use rosenblatt_loader::convert::{ConvertOptions, convert};
    let tmp = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..1000 {
        text.push_str(&format!(
            "{} 'r{i} |a w{} x:{} |b {} c:v{}\n",
            if i % 3 == 0 { 1 } else { -1 },
            i % 17,
            i,
            i % 5,
            i % 7
        ));
    }
    let file = tmp.path().join("d.vw");
    std::fs::write(&file, &text).unwrap();
    let h = Hashing { quadratic: vec!["ab".into()], ..Hashing::default() };
    let run = |piece: usize, out: &str| {
        let opts = ConvertOptions { hashing: h.clone(), piece_bytes: piece, threads: Some(2), ..Default::default() };
        convert(std::slice::from_ref(&file), &tmp.path().join(out), &opts, &mut |_| {})
    };
    let whole = run(1 << 30, "whole").unwrap().manifest;
    let pieces = run(64, "pieces").unwrap().manifest;
    assert_eq!(
        whole.shards.iter().map(|s| s.crc32).collect::<Vec<_>>(),
        pieces.shards.iter().map(|s| s.crc32).collect::<Vec<_>>()
    );
    assert_eq!(whole.hashing, Some(h.clone()));
    // A bad line deep in the file is named by its own number.
    let bad: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| if i == 776 { "2 |a x\n".to_string() } else { format!("{l}\n") })
        .collect();
    std::fs::write(&file, bad).unwrap();
    match run(64, "bad") {
        Err(LoadError::Parse { error, .. }) => assert_eq!((error.line, error.column), (777, 1), "{error}"),
        other => panic!("{other:?}"),
    }
}

/// Lines of VW text mixing what a row can hold: namespaces with scales, in
/// one run each or coming back after another, named, numbered, anonymous
/// and string-valued features, values of 0, repeats and
/// collisions (over 1 or 4 bits), with values whose sum depends on its
/// order.
fn vw_lines() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    const VALUES: [&str; 7] = ["-2", "0", "1", "3", "0.1", "100000000", "-100000000"];
    let feature = prop_oneof![
        (0..6usize, 0..7usize).prop_map(|(w, v)| format!("{}:{}", ["w", "x", "yy", "7", "12", "z9"][w], VALUES[v])),
        (0..6usize).prop_map(|w| ["w", "x", "yy", "7", "12", "z9"][w].to_string()),
        (0..7usize).prop_map(|v| format!(":{}", VALUES[v])),
        (0..3usize).prop_map(|c| format!("color:{}", ["red", "blue", "7"][c])),
    ];
    let space = (0..5usize, proptest::option::of(1i32..4), proptest::collection::vec(feature, 0..5)).prop_map(
        |(ns, scale, feats)| {
            let name = ["", "a", "b", "ab", "c"][ns];
            let scale = match (ns, scale) {
                (1.., Some(s)) => format!(":{s}"),
                _ => String::new(),
            };
            format!("|{name}{scale} {}", feats.join(" "))
        },
    );
    proptest::collection::vec(proptest::collection::vec(space, 1..5), 1..8).prop_map(|rows| {
        rows.iter()
            .enumerate()
            .map(|(i, spaces)| format!("{} 't{i} {}\n", 1 - 2 * (i % 2) as i32, spaces.join(" ")))
            .collect()
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Rows read straight from the parser (nothing dropped or crossed) are
    /// the rows the general path gives (here made to run by a namespace
    /// kept from the linear terms that no line writes), the one checked
    /// against VW's audits above.
    #[test]
    fn rows_read_straight_equal_the_general_paths(text in vw_lines(), bits in proptest::sample::select(vec![1u8, 4, 18])) {
        use rosenblatt_loader::vw::{Labels, parse};
        let straight = Hashing { bits, ..Hashing::default() };
        let general = Hashing { ignore_linear: "Z".into(), ..straight.clone() };
        let a = parse(text.as_bytes(), &straight.compile().unwrap(), Labels::Required).unwrap().0;
        let b = parse(text.as_bytes(), &general.compile().unwrap(), Labels::Required).unwrap().0;
        proptest::prop_assert_eq!(a, b);
    }
}
