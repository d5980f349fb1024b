//! Raw features through the command line as their users meet them: VW
//! text (and CSV, whose rows are VW lines of their cells) converted by its
//! name, trained on, predicted and scored straight from text with the
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
        ("1 |a x\n1 -0.5 |a y\n", "bad.vw:2:3: importance weight -0.5: a weight must be a finite number >= 0"),
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
    // With --skip-bad-lines, bad lines are skipped and each is said.
    std::fs::write(d("bad.vw"), "1 |a x\n2 |a y\n-1 |b z\n1 |a x:1.5abc\n").unwrap();
    let (code, out, err) = run(&["convert", p(&d("bad.vw")), "-o", p(&d("skipped")), "--skip-bad-lines"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(": 2 rows"), "{out}");
    assert!(err.contains("bad.vw:2:1: label 2") && err.contains("bad.vw:4:11:"), "{err}");
    assert!(err.contains("skipped 2 bad line(s)"), "{err}");
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

/// A CSV row is the VW line `label | column:number column=word …`: the
/// same rows, the same hashes.
#[test]
fn csv_rows_are_the_vw_lines_of_their_cells() {
    let tmp = tempfile::tempdir().unwrap();
    let d = |n: &str| tmp.path().join(n);
    let spec = TabularSpec { rows: 400, ..TabularSpec::default() };
    let r = generate(&spec, 0).unwrap();
    let (mut csv, mut vw) = (String::from("age,job,\"home, town\",score,y\n"), String::new());
    for i in 0..r.labels.len() {
        let (a, b) = (r.offsets[i] as usize, r.offsets[i + 1] as usize);
        let first = r.indices[a];
        let (age, job, town) = (first % 50, format!("j{}", r.indices[b - 1]), format!("t{}", r.indices[a + 1] % 9));
        // Some cells empty (missing), some quoted with commas inside.
        let score = if i % 4 == 0 { String::new() } else { format!("{}", (i % 7) as f32 * 0.25) };
        let town_cell = if i % 5 == 0 { format!("\"{town},x\"") } else { town.clone() };
        let label = if r.labels[i] > 0.0 { "1" } else { "0" };
        csv.push_str(&format!("{age},{job},{town_cell},{score},{label}\n"));
        let town_word = if i % 5 == 0 { format!("{town},x") } else { town };
        let score_feature = if score.is_empty() { String::new() } else { format!(" score:{score}") };
        vw.push_str(
            &format!("{label} | age:{age} job={job} home,_town={town_word}{score_feature}\n")
                .replace("home,_town", "home, town"),
        );
    }
    std::fs::write(d("t.csv"), &csv).unwrap();
    // The VW line cannot hold the space in "home, town": that column is
    // compared through a column renamed without it.
    let csv_plain = csv.replacen("\"home, town\"", "home_town", 1);
    std::fs::write(d("plain.csv"), &csv_plain).unwrap();
    std::fs::write(d("t.vw"), vw.replace("home, town=", "home_town=")).unwrap();
    let (code, _, err) = run(&["convert", p(&d("plain.csv")), "-o", p(&d("c")), "--label-column", "y"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["convert", p(&d("t.vw")), "-o", p(&d("v"))]);
    assert_eq!(code, 0, "{err}");
    let export = |dir: &str| {
        let (code, out, err) = run(&["export", p(&d(dir)), "-o", "-"]);
        assert_eq!(code, 0, "{err}");
        out
    };
    assert_eq!(export("c"), export("v"));
    // Trained on CSV, a model predicts CSV straight from the file, with or
    // without its label column.
    let model = d("c.model");
    assert_eq!(run(&["train", p(&d("c")), "--learner", "logistic", "-o", p(&model)]).0, 0);
    let (c1, from_text, e1) = run(&["predict", p(&model), p(&d("plain.csv"))]);
    let (c2, from_data, e2) = run(&["predict", p(&model), p(&d("c"))]);
    assert_eq!((c1, c2), (0, 0), "{e1}{e2}");
    assert_eq!(from_text, from_data);
    assert_eq!(from_text.lines().count(), 400);
    // Without the label column: the same predictions.
    let no_label: String = csv_plain.lines().map(|l| format!("{}\n", l.rsplit_once(',').unwrap().0)).collect();
    std::fs::write(d("nolabel.csv"), no_label).unwrap();
    let (code, unlabelled, err) = run(&["predict", p(&model), p(&d("nolabel.csv"))]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(unlabelled, from_text);
}

#[test]
fn bad_csv_is_named_by_line_and_column() {
    let tmp = tempfile::tempdir().unwrap();
    let d = |n: &str| tmp.path().join(n);
    let cases = [
        ("y,a\n1,2\n3\n", &["--label-column", "y"][..], "bad.csv:3: 1 fields, and the header names 2 columns"),
        ("y,a\n1,2\n", &["--label-column", "z"][..], "no column named \"z\" for the label; the columns: \"y\", \"a\""),
        ("y,a\n1,2\n,3\n", &["--label-column", "y"][..], "bad.csv:3: column \"y\": no label"),
        ("y,a\n1,2\n2,3\n", &["--label-column", "y"][..], "bad.csv:3: column \"y\": label \"2\": binary data"),
        ("y,a\n1,inf\n", &["--label-column", "y"][..], "bad.csv:2: column \"a\": value \"inf\" is not finite"),
        ("y,a\n1,2\n", &[][..], "CSV input needs the name of its label column (--label-column)"),
    ];
    let (bad, out) = (d("bad.csv"), d("out"));
    for (text, flags, want) in cases {
        std::fs::write(&bad, text).unwrap();
        let mut args = vec!["convert", p(&bad), "-o", p(&out)];
        args.extend_from_slice(flags);
        let (code, _, err) = run(&args);
        assert_eq!(code, 1, "{text:?}: {err}");
        assert!(err.contains(want), "{text:?}: {err}");
        assert!(!out.exists());
    }
}

/// `train FILE.vw` converts once into the cache and reads the cache after;
/// a changed file is converted again, and said; the model is the one
/// `convert` then `train` makes.
#[test]
fn train_reads_text_through_the_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let d = |n: &str| tmp.path().join(n);
    write_vw(&d("a.vw"), 600, 0, false);
    write_vw(&d("b.vw"), 200, 1, false);
    let cache = d("cache");
    let train = |model: &str| {
        run(&[
            "train",
            p(&d("a.vw")),
            "--learner",
            "logistic",
            "-q",
            "pw",
            "--test",
            p(&d("b.vw")),
            "--cache",
            p(&cache),
            "-o",
            p(&d(model)),
        ])
    };
    let (code, _, first) = train("1.model");
    assert_eq!(code, 0, "{first}");
    assert!(first.contains("(first use)"), "{first}");
    let (code, _, second) = train("2.model");
    assert_eq!(code, 0, "{second}");
    assert!(!second.contains("converting"), "{second}");
    assert!(second.contains("converted before, read from"), "{second}");
    let bytes = |m: &str| std::fs::read(d(m)).unwrap();
    assert_eq!(bytes("1.model"), bytes("2.model"));
    // The same model as converting first.
    assert_eq!(run(&["convert", p(&d("a.vw")), "-q", "pw", "-o", p(&d("a"))]).0, 0);
    assert_eq!(run(&["convert", p(&d("b.vw")), "-q", "pw", "-o", p(&d("b"))]).0, 0);
    let (code, _, err) =
        run(&["train", p(&d("a")), "--learner", "logistic", "--test", p(&d("b")), "-o", p(&d("3.model"))]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(bytes("1.model"), bytes("3.model"));
    // The entry (written without waiting for the disk) holds the bytes
    // `convert` writes (synced); one a crash left short (its shard cut,
    // as unsynced bytes may be) fails its checks and is made again.
    let entry = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("a.vw-"))
        .unwrap();
    let shard = entry.join("dataset/shard-00000.rbs");
    assert_eq!(std::fs::read(&shard).unwrap(), std::fs::read(d("a/shard-00000.rbs")).unwrap());
    assert_eq!(std::fs::read(entry.join("dataset/dataset.json")).unwrap(), std::fs::read(d("a/dataset.json")).unwrap());
    let len = std::fs::metadata(&shard).unwrap().len();
    std::fs::OpenOptions::new().write(true).open(&shard).unwrap().set_len(len / 2).unwrap();
    let (code, _, again) = train("2.model");
    assert_eq!(code, 0, "{again}");
    assert!(again.contains("again: its dataset fails its checks"), "{again}");
    assert_eq!(bytes("1.model"), bytes("2.model"));
    // A file changed since: converted again, with the reason.
    let mut text = std::fs::read_to_string(d("a.vw")).unwrap();
    text.push_str("1 |person 3\n");
    std::fs::write(d("a.vw"), text).unwrap();
    let (code, _, third) = train("4.model");
    assert_eq!(code, 0, "{third}");
    assert!(third.contains("again") && third.contains("bytes and is now"), "{third}");
    // Without the cache: nothing kept.
    let (code, _, err) =
        run(&["train", p(&d("b.vw")), "--learner", "perceptron", "--no-cache", "-o", p(&d("5.model"))]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("into a temporary dataset (--no-cache)"), "{err}");
    // Hashing flags with a dataset directory are refused.
    let (code, _, err) = run(&["train", p(&d("a")), "--learner", "logistic", "-q", "pw", "-o", p(&d("6.model"))]);
    assert_eq!(code, 1);
    assert!(err.contains("--quadratic applies to text"), "{err}");
}
