//! VW text through the command line as a VW user meets it: converted by
//! its name, trained on, predicted and scored straight from text with the
//! model's hashing; bad lines named by line and column; data hashed
//! another way refused. (The hashing itself is held to VW's own output in
//! the loader's tests and by `benches/scripts/vw_audit_check.py`.)

use rosenblatt_datasets::tabular::{TabularSpec, generate};
use std::path::Path;

mod common;
use common::{p, run};

/// A census-shaped set as VW text: each row's categories as features of
/// two namespaces (`|person`, `|work`), named by word or number, with a
/// few string-valued ones; `0`/`1` labels when `zero_one`. `stream` 0 is
/// a training set, 1 its test set (the same hidden model).
fn write_vw(path: &Path, rows: usize, stream: u64, zero_one: bool) {
    let spec = TabularSpec { rows, ..TabularSpec::default() };
    let r = generate(&spec, stream).unwrap();
    let mut text = String::new();
    for i in 0..r.labels.len() {
        let y = r.labels[i];
        let label = if zero_one && y < 0.0 { "0".to_string() } else { y.to_string() };
        text.push_str(&format!("{label} 'row{i} |person"));
        let (a, b) = (r.offsets[i] as usize, r.offsets[i + 1] as usize);
        for (k, &j) in r.indices[a..b].iter().enumerate() {
            if k == (b - a) / 2 {
                text.push_str(" |work");
            }
            match j % 3 {
                0 => text.push_str(&format!(" {j}")),
                1 => text.push_str(&format!(" cat{j}:{}", r.values[a + k])),
                _ => text.push_str(&format!(" attr:v{j}")),
            }
        }
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn vw_text_trains_and_predicts_as_its_converted_dataset_does() {
    let tmp = tempfile::tempdir().unwrap();
    let d = |n: &str| tmp.path().join(n);
    write_vw(&d("train.vw"), 4000, 0, false);
    write_vw(&d("test.vw"), 1000, 1, true);
    // Named .vw: read as VW text, no --format needed.
    let (code, out, err) = run(&["convert", p(&d("train.vw")), "-o", p(&d("train")), "-q", "pw", "--bits", "20"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("dimension 1048576"), "{out}");
    let (code, _, err) = run(&["convert", p(&d("test.vw")), "-o", p(&d("test")), "-q", "pw", "--bits", "20"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("row(s) labelled 0 were read as -1"), "{err}");
    let (code, inspected, _) = run(&["inspect", p(&d("train"))]);
    assert_eq!(code, 0);
    assert!(inspected.contains("hashed       from VW text: --bits 20, --quadratic pw"), "{inspected}");
    let model = d("m.model");
    let (code, _, err) =
        run(&["train", p(&d("train")), "--learner", "logistic", "--passes", "2", "--seed", "5", "-o", p(&model)]);
    assert_eq!(code, 0, "{err}");
    // Text predicted straight from the file is the converted dataset's
    // prediction, line for line.
    let (c1, from_text, e1) = run(&["predict", p(&model), p(&d("test.vw"))]);
    let (c2, from_data, e2) = run(&["predict", p(&model), p(&d("test"))]);
    assert_eq!((c1, c2), (0, 0), "{e1}{e2}");
    assert_eq!(from_text.lines().count(), 1000);
    assert_eq!(from_text, from_data);
    let (code, scored, err) = run(&["eval", p(&model), p(&d("test.vw")), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&scored).unwrap();
    let error = v["error_rate"].as_f64().unwrap();
    // The hidden model's classes are learnable: well under the 30% of
    // always answering the larger class.
    assert!(error < 0.2, "{error}");
    // Rows without labels are predicted too (with their tags).
    std::fs::write(d("unlabelled.vw"), "'a |person 3 cat4:1 |work attr:v5\n|person 7\n").unwrap();
    let (code, out, err) = run(&["predict", p(&model), p(&d("unlabelled.vw"))]);
    assert_eq!((code, out.lines().count()), (0, 2), "{err}");
}

#[test]
fn a_model_reads_only_text_hashed_its_way() {
    let tmp = tempfile::tempdir().unwrap();
    let d = |n: &str| tmp.path().join(n);
    write_vw(&d("a.vw"), 300, 0, false);
    assert_eq!(run(&["convert", p(&d("a.vw")), "-o", p(&d("a"))]).0, 0);
    assert_eq!(run(&["convert", p(&d("a.vw")), "-o", p(&d("b")), "--hash-seed", "3"]).0, 0);
    let model = d("m.model");
    assert_eq!(run(&["train", p(&d("a")), "--learner", "perceptron", "-o", p(&model)]).0, 0);
    let (code, _, err) = run(&["eval", p(&model), p(&d("b"))]);
    assert_eq!(code, 1);
    assert!(err.contains("hashed from VW text with --bits 18, --hash-seed 3, and the model"), "{err}");
    // LIBSVM text given to a VW model, and VW flags given for LIBSVM text.
    std::fs::write(d("l.svm"), "1 1:1 4:2\n").unwrap();
    let (code, _, err) = run(&["predict", p(&model), p(&d("l.svm"))]);
    assert_eq!(code, 1);
    assert!(err.contains("not VW text"), "{err}");
    let (code, _, err) = run(&["convert", p(&d("l.svm")), "-o", p(&d("l")), "-q", "ab"]);
    assert_eq!(code, 1);
    assert!(err.contains("--quadratic applies to VW text"), "{err}");
    assert!(!d("l").exists());
    // A LIBSVM dataset given to a VW model.
    assert_eq!(run(&["convert", p(&d("l.svm")), "-o", p(&d("l"))]).0, 0);
    let (code, _, err) = run(&["predict", p(&model), p(&d("l"))]);
    assert_eq!(code, 1);
    assert!(err.contains("trained on hashed VW text, and this data was not hashed"), "{err}");
}

#[test]
fn bad_vw_lines_are_named_by_line_and_column() {
    let tmp = tempfile::tempdir().unwrap();
    let d = |n: &str| tmp.path().join(n);
    let cases = [
        ("1 |a x\n2 |a y\n", "bad.vw:2:1: label 2: binary VW text takes -1 or 1"),
        ("1 |a x\n1 0.5 |a y\n", "bad.vw:2:3: importance weight 0.5"),
        ("1 |a x\n|a y\n", "bad.vw:2:1: the row has no label"),
        ("1 |a x:1.5abc\n", "bad.vw:1:11: malformed VW text: a space, `|` or the line's end expected"),
        ("1 |a x:nan\n", "bad.vw:1:8: value is not finite"),
        ("1 |:2 x\n", "bad.vw:1:4: malformed VW text: a namespace name expected"),
        ("1 2 3 4 |a x\n", "bad.vw:1:7: more words before the first `|`"),
        ("-1 |a x\n0.5 |a y\n", "label 0.5"),
    ];
    for (text, want) in cases {
        std::fs::write(d("bad.vw"), text).unwrap();
        let out = d("out");
        let (code, stdout, err) = run(&["convert", p(&d("bad.vw")), "-o", p(&out)]);
        assert_eq!((code, stdout.as_str()), (1, ""), "{text}: {err}");
        assert!(err.contains(want), "{text:?}: {err}");
        assert!(!out.exists(), "{text:?}: a failed conversion left its directory");
    }
    // Class ids 1..k with --multiclass; 0 is not one.
    std::fs::write(d("classes.vw"), "1 |a x\n3 |a y\n2 |b z\n").unwrap();
    let (code, _, err) = run(&["convert", p(&d("classes.vw")), "-o", p(&d("c")), "--multiclass"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("class labels 1..k are stored as the class ids 0..k-1"), "{err}");
    let (_, inspected, _) = run(&["inspect", p(&d("c"))]);
    assert!(inspected.contains("labels       classes"), "{inspected}");
    std::fs::write(d("classes.vw"), "1 |a x\n0 |a y\n").unwrap();
    let (code, _, err) = run(&["convert", p(&d("classes.vw")), "-o", p(&d("c0")), "--multiclass"]);
    assert_eq!(code, 1);
    assert!(err.contains("classes.vw:2:1: class label 0"), "{err}");
}

#[test]
fn inspect_audit_lists_features_as_vw_audit_does() {
    // VW's own test input and its `--audit --noconstant` output (the
    // loader's fixtures): `feature:118880:1` and so on, here with the line
    // each row came from.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../loader/tests/data/vw/audit.dat");
    let (code, out, err) = run(&["inspect", "--audit", p(&data)]);
    assert_eq!(code, 0, "{err}");
    let want = "line 1: 1\n\tfeature:118880:1\nline 2: 2\n\tnamespace^feature:242309:1\nline 3: 3\n\t:0:1\n\
                line 4: 4\n\tother_namespace^:207177:1\n";
    assert_eq!(out, want);
    let (code, _, err) = run(&["inspect", p(&data), "-q", "ab"]);
    assert_eq!(code, 1);
    assert!(err.contains("--quadratic applies with --audit"), "{err}");
}
