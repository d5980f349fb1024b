//! What a newcomer hit, round two, run through the binary as they ran it:
//! a cache that answered with another data set's numbers, a test set taken
//! from elsewhere, two conversions into one directory that both
//! "succeeded", a resumed model that was not the one-go model. Each test
//! failed before its fix.

use rosenblatt::loader::idx::read_idx;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn rosenblatt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rosenblatt"))
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = rosenblatt().args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn p(x: &Path) -> &str {
    x.to_str().unwrap()
}

fn mnist() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/mnist")
}

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
