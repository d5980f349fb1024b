//! What a newcomer hit, round two, run through the binary as they ran it:
//! a cache that answered with another data set's numbers, a test set taken
//! from elsewhere, two conversions into one directory that both
//! "succeeded", a resumed model that was not the one-go model. Each test
//! failed before its fix.

use rosenblatt::loader::idx::read_idx;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;
use common::{mnist, p, rosenblatt, run};

/// Writes an IDX file of bytes: magic `00 00 08 NDIM`, the dimensions, the bytes.
fn write_idx(path: &Path, dims: &[u32], data: &[u8]) {
    let mut b = vec![0, 0, 8, dims.len() as u8];
    dims.iter().for_each(|d| b.extend(d.to_be_bytes()));
    b.extend(data);
    std::fs::write(path, b).unwrap();
}

/// A small MNIST-shaped IDX folder cut from MNIST's test images: `train`
/// rows from `from` on as its training split, the next `test` as its t10k
/// split, pixels inverted when `invert` (another data set, as
/// Fashion-MNIST is to MNIST), named with dashes when `dashed` (as
/// Fashion-MNIST, KMNIST and EMNIST ship their files).
fn idx_folder(dir: &Path, from: usize, train: usize, test: usize, invert: bool, dashed: bool) -> PathBuf {
    let m = mnist();
    let images = read_idx(&m.join("t10k-images.idx3-ubyte.gz"), 3).unwrap();
    let labels = read_idx(&m.join("t10k-labels.idx1-ubyte.gz"), 1).unwrap();
    std::fs::create_dir_all(dir).unwrap();
    let sep = if dashed { '-' } else { '.' };
    for (split, a, n) in [("train", from, train), ("t10k", from + train, test)] {
        let mut px = images.data[a * 784..(a + n) * 784].to_vec();
        if invert {
            px.iter_mut().for_each(|v| *v = 255 - *v);
        }
        write_idx(&dir.join(format!("{split}-images{sep}idx3-ubyte")), &[n as u32, 28, 28], &px);
        write_idx(&dir.join(format!("{split}-labels{sep}idx1-ubyte")), &[n as u32], &labels.data[a..a + n]);
    }
    dir.to_path_buf()
}

/// `bench ocr` over `data` with `cache`, one pass of one seed, as JSON.
fn ocr(data: &Path, cache: &Path, more: &[&str]) -> (serde_json::Value, String) {
    let args = ["bench", "ocr", "--data", p(data), "--cache", p(cache), "--passes", "1", "--seeds", "1", "--json"];
    let (code, out, err) = run(&[&args[..], more].concat());
    assert_eq!(code, 0, "{err}");
    (serde_json::from_str(&out).unwrap(), err)
}

/// What a run found, without its timings: rows, and each learner's test
/// error and mistakes.
fn outcome(v: &serde_json::Value) -> Vec<String> {
    let mut o = vec![v["train_rows"].to_string(), v["test_rows"].to_string()];
    for r in v["records"].as_array().unwrap() {
        o.push(format!("{} {} {}", r["learner"], r["test_error"], r["mistakes"]));
    }
    o
}

#[test]
fn a_cache_made_from_other_data_is_never_reused() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let a = idx_folder(&tmp.path().join("a"), 0, 1500, 500, false, false);
    let b = idx_folder(&tmp.path().join("b"), 4000, 1200, 400, true, true);
    let (first_a, _) = ocr(&a, &cache, &[]);
    // Another folder through the same cache gives its own numbers: those
    // a fresh cache gives.
    let (via_a, _) = ocr(&b, &cache, &[]);
    let (fresh, _) = ocr(&b, &tmp.path().join("fresh"), &[]);
    assert_eq!(outcome(&via_a), outcome(&fresh));
    assert_ne!(outcome(&via_a), outcome(&first_a));
    assert_eq!(via_a["train_rows"], 1200);
    assert_eq!(via_a["test_rows"], 400);
    // The files read are named (dashed names found).
    assert!(via_a["train_data"].as_str().unwrap().ends_with("b/train-images-idx3-ubyte"), "{via_a}");
    assert!(via_a["test_data"].as_str().unwrap().ends_with("b/t10k-images-idx3-ubyte"), "{via_a}");
    // The same folder run again reuses its entry, and says nothing of it.
    let (again, err) = ocr(&a, &cache, &[]);
    assert_eq!(outcome(&again), outcome(&first_a));
    assert!(!err.contains("again"), "{err}");
    // Files changed in place under the same names: converted again, and said.
    idx_folder(&a, 2000, 1000, 300, true, false);
    let (changed, err) = ocr(&a, &cache, &[]);
    assert!(err.contains("converted again, since") && err.contains("train-images.idx3-ubyte"), "{err}");
    assert_eq!(changed["train_rows"], 1000);
    assert_eq!(outcome(&changed), outcome(&ocr(&a, &tmp.path().join("fresh2"), &[]).0));
    // An entry whose record is damaged is made again too.
    for e in std::fs::read_dir(&cache).unwrap() {
        let source = e.unwrap().path().join("source.json");
        if source.exists() {
            std::fs::write(&source, "{").unwrap();
        }
    }
    let (damaged, err) = ocr(&a, &cache, &[]);
    assert!(err.contains("is not readable"), "{err}");
    assert_eq!(outcome(&damaged), outcome(&changed));
}

#[test]
fn the_test_set_is_the_one_beside_the_training_set_or_the_one_named() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let a = idx_folder(&tmp.path().join("a"), 0, 1500, 500, false, false);
    let b = idx_folder(&tmp.path().join("b"), 3000, 1000, 700, true, true);
    let (own, _) = ocr(&b, &cache, &[]);
    assert_eq!(own["test_rows"], 700, "{own}");
    let (named, _) = ocr(&b, &cache, &["--test-data", p(&a)]);
    assert_eq!(named["test_rows"], 500, "{named}");
    assert!(named["test_data"].as_str().unwrap().ends_with("a/t10k-images.idx3-ubyte"), "{named}");
    // A converted dataset has no test images beside it: they must be named.
    let ds = tmp.path().join("ds");
    let files = [b.join("train-images-idx3-ubyte"), b.join("train-labels-idx1-ubyte")];
    assert_eq!(run(&["convert", p(&files[0]), p(&files[1]), "--target", "9", "-o", p(&ds)]).0, 0);
    let (code, _, err) = run(&["bench", "ocr", "--data", p(&ds), "--cache", p(&cache), "--passes", "1"]);
    assert_eq!(code, 1);
    assert!(err.contains("holds no test images") && err.contains("--test-data"), "{err}");
    let (given, _) = ocr(&ds, &cache, &["--test-data", p(&a)]);
    assert_eq!((given["train_rows"].as_u64(), given["test_rows"].as_u64()), (Some(1000), Some(500)));
    // The header names what was read.
    let args = ["bench", "ocr", "--data", p(&b), "--cache", p(&cache), "--passes", "1", "--seeds", "1"];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("b/train-images-idx3-ubyte") && out.contains("b/t10k-images-idx3-ubyte"), "{out}");
    // A folder without the files says what it looked for.
    let (code, _, err) = run(&["bench", "ocr", "--data", p(tmp.path()), "--cache", p(&cache)]);
    assert_eq!(code, 1);
    assert!(err.contains("train-images.idx3-ubyte.gz") && err.contains("train-images-idx3-ubyte"), "{err}");
}

#[test]
fn a_second_conversion_into_a_directory_being_written_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let m = mnist();
    let files = [m.join("t10k-images.idx3-ubyte.gz"), m.join("t10k-labels.idx1-ubyte.gz")];
    let convert = |out: &Path| {
        rosenblatt()
            .args(["convert", p(&files[0]), p(&files[1]), "-o", p(out)])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // While one writer holds the directory, another is refused, says why,
    // and leaves the directory as it was.
    std::fs::create_dir(&out).unwrap();
    let held = rosenblatt::loader::fs::DirLock::acquire(&out).unwrap();
    let refused = convert(&out).wait_with_output().unwrap();
    assert_eq!(refused.status.code(), Some(1));
    let err = String::from_utf8(refused.stderr).unwrap();
    assert!(err.contains("another process is writing into this directory"), "{err}");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
    drop(held);
    // Started together, again and again: one succeeds, every other is
    // refused, and what is there is one whole dataset.
    for round in 0..4 {
        let out = tmp.path().join(format!("race-{round}"));
        let runs: Vec<_> = (0..3).map(|_| convert(&out)).collect();
        let outputs: Vec<_> = runs.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
        let ok = outputs.iter().filter(|o| o.status.success()).count();
        assert_eq!(ok, 1, "round {round}: {ok} conversions claimed the directory");
        for o in outputs.iter().filter(|o| !o.status.success()) {
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("another process is writing") || err.contains("already holds a dataset"), "{err}");
        }
        let (code, out, err) = run(&["inspect", p(&out), "--verify"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("10000"), "{out}");
    }
}

#[test]
fn a_resumed_run_writes_the_one_go_model_and_numbers_its_passes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let m = mnist();
    let files = [m.join("t10k-images.idx3-ubyte.gz"), m.join("t10k-labels.idx1-ubyte.gz")];
    let ds = tmp.path().join("ds");
    assert_eq!(run(&["convert", p(&files[0]), p(&files[1]), "--target", "9", "-o", p(&ds)]).0, 0);
    let model = |name: &str| tmp.path().join(name);
    let train = |passes: &str, out: &Path, init: Option<&Path>| {
        let mut args = vec!["train", p(&ds), "--learner", "averaged-perceptron", "--passes", passes, "-o", p(out)];
        if let Some(i) = init {
            args.extend(["--init", p(i)]);
        }
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    train("5", &model("five"), None);
    train("3", &model("three"), None);
    let table = train("2", &model("resumed"), Some(&model("three")));
    assert_eq!(std::fs::read(model("resumed")).unwrap(), std::fs::read(model("five")).unwrap());
    let passes: Vec<&str> = table.lines().skip(1).filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(passes[..2], ["4", "5"], "{table}");
    let (code, out, _) = run(&["inspect", p(&model("resumed"))]);
    assert_eq!(code, 0);
    assert!(out.contains("passes") && out.contains('5'), "{out}");
}

/// The MNIST test images, digit 9 against the rest, converted into `dir/ds`.
fn t10k9(dir: &Path) -> PathBuf {
    let m = mnist();
    let ds = dir.join("ds");
    let files = [m.join("t10k-images.idx3-ubyte.gz"), m.join("t10k-labels.idx1-ubyte.gz")];
    let (code, _, err) = run(&["convert", p(&files[0]), p(&files[1]), "--target", "9", "-o", p(&ds)]);
    assert_eq!(code, 0, "{err}");
    ds
}

/// Starts `train` with `args`, waits for its pass table's `lines`-th line,
/// interrupts it as Ctrl-C does, and returns its exit code and stderr.
fn interrupted(args: &[&str], lines: usize) -> (Option<i32>, String) {
    use std::io::BufRead;
    let mut child = rosenblatt().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for _ in 0..lines {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "train ended before {lines} lines");
    }
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let got = child.wait_with_output().unwrap();
    (got.status.code(), String::from_utf8(got.stderr).unwrap())
}

#[test]
fn an_interrupted_run_says_how_far_it_got_and_checkpoints_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let ds = t10k9(tmp.path());
    let model = tmp.path().join("m.model");
    let base = ["train", p(&ds), "--learner", "averaged-perceptron", "--order", "sequential", "-o", p(&model)];
    // Interrupted without checkpoints: said, exit 130, no model.
    let (code, err) = interrupted(&[&base[..], &["--passes", "100000"]].concat(), 3);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("interrupted after pass") && err.contains("no model written"), "{err}");
    assert!(!model.exists());
    // With checkpoints: the model of the last checkpoint is there, whole,
    // and resumes.
    let (code, err) = interrupted(&[&base[..], &["--passes", "100000", "--checkpoint", "2"]].concat(), 6);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("resume it with --init"), "{err}");
    let (code, out, err) = run(&["inspect", p(&model), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let passes = v["training"]["passes_run"].as_u64().unwrap();
    assert!(passes >= 4 && passes.is_multiple_of(2), "{out}");
    assert!(err.is_empty() && v["resumable"] == true, "{out}");
    // A checkpointed run ends with the one-go model's bytes.
    let (one, every) = (tmp.path().join("one.model"), tmp.path().join("every.model"));
    let cmd = |out: &Path, more: &[&str]| {
        let args = ["train", p(&ds), "--learner", "logistic", "--passes", "5", "-o", p(out)];
        let (code, _, err) = run(&[&args[..], more].concat());
        assert_eq!(code, 0, "{err}");
    };
    cmd(&one, &[]);
    cmd(&every, &["--checkpoint", "2"]);
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&every).unwrap());
    // What cannot checkpoint says so.
    let (code, _, err) = run(&[&base[..], &["--passes", "2.5", "--checkpoint", "1"]].concat());
    assert_eq!(code, 1);
    assert!(err.contains("whole passes"), "{err}");
}

#[test]
fn every_output_makes_its_folders_and_every_input_takes_standard_input() {
    let tmp = tempfile::tempdir().unwrap();
    let ds = t10k9(tmp.path());
    let model = tmp.path().join("no/such/m.model");
    let (code, _, err) = run(&["train", p(&ds), "--learner", "perceptron", "-o", p(&model)]);
    assert_eq!(code, 0, "{err}");
    let text = tmp.path().join("text/rows.svm");
    assert_eq!(run(&["export", p(&ds), "-o", p(&text)]).0, 0);
    let preds = tmp.path().join("deep/er/p.txt");
    let (code, _, err) = run(&["predict", p(&model), p(&text), "-o", p(&preds), "--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    // `-` is standard input, for predict and eval alike, and gives what the file gives.
    let piped = |args: &[&str]| {
        let mut c = rosenblatt().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        let bytes = std::fs::read(&text).unwrap();
        let mut stdin = c.stdin.take().unwrap();
        let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, &bytes));
        let out = c.wait_with_output().unwrap();
        writer.join().unwrap().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(piped(&["predict", p(&model), "-"]), std::fs::read_to_string(&preds).unwrap());
    let evals = |input: &str| piped(&["eval", p(&model), input, "--threads", "2", "--json"]);
    let (from_text, from_ds) = (evals("-"), run(&["eval", p(&model), p(&ds), "--json"]).1);
    let rate = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap()["error_rate"].clone();
    assert_eq!(rate(&from_text), rate(&from_ds));
    // A path that is not there is said so; a model file is described.
    let (code, _, err) = run(&["inspect", p(&tmp.path().join("nowhere"))]);
    assert_eq!(code, 1);
    assert!(err.contains("nowhere: no such file or directory"), "{err}");
    let (code, out, err) = run(&["inspect", p(&model)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("learner      perceptron") && out.contains("dimension    784"), "{out}");
    let (code, _, err) = run(&["inspect", p(&text)]);
    assert_eq!(code, 1);
    assert!(err.contains("neither a dataset directory nor a model file"), "{err}");
}

#[test]
fn likely_causes_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let m = mnist();
    let out = tmp.path().join("out");
    let cases: [(&str, &str); 3] =
        [("label,f1,f2\n1,0.5,2\n", "this is CSV"), ("label pixel1\n1 1:0.5\n", "a header line?"), ("1 1:0.5\n", "")];
    for (text, says) in cases {
        let f = tmp.path().join("in.txt");
        std::fs::write(&f, text).unwrap();
        let (code, _, err) = run(&["convert", p(&f), "-o", p(&out)]);
        if says.is_empty() {
            assert_eq!(code, 0, "{err}");
        } else {
            assert_eq!(code, 1, "{text}");
            assert!(err.contains(says) && err.contains("in.txt:1:1"), "{err}");
            assert!(!out.exists(), "nothing left behind");
        }
    }
    let images = m.join("t10k-images.idx3-ubyte.gz");
    let (code, _, err) = run(&["convert", p(&images), "-o", p(&tmp.path().join("img"))]);
    assert_eq!(code, 1);
    assert!(err.contains("an MNIST IDX file alone; give the images file and then its labels file"), "{err}");
    // A negative number reaches the check that explains it, not clap's
    // advice to write `-- -1`.
    let ds = t10k9(tmp.path());
    let (code, _, err) = run(&["train", p(&ds), "--learner", "perceptron", "--passes", "-1", "-o", "x"]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("'-- -1'") && err.contains("-1"), "{err}");
}
