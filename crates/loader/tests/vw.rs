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
