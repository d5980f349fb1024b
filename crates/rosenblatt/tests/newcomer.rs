//! What a newcomer hit, run through the binary as they ran it: a panic,
//! silent wrong answers, broken pipes, a frozen progress bar, messages that
//! did not name the fix. Each test failed before its fix.

use rosenblatt::loader::{Dataset, OpenOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;
use common::{mnist, p, rosenblatt, run};

/// The MNIST test images as a dataset: digit 9 against the rest, or the
/// ten digits.
fn t10k(dir: &Path, target: Option<&str>) -> PathBuf {
    let m = mnist();
    let (images, labels) = (m.join("t10k-images.idx3-ubyte.gz"), m.join("t10k-labels.idx1-ubyte.gz"));
    let out = dir.join(match target {
        Some(t) => format!("t10k-{t}"),
        None => "t10k-digits".into(),
    });
    let mut args = vec!["convert", p(&images), p(&labels), "-o", p(&out)];
    if let Some(t) = target {
        args.extend(["--target", t]);
    }
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    out
}

fn no_panic(err: &str) {
    assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"), "{err}");
}

/// A test set wider than the training data: its extra features get weight
/// 0 and a note, in `train --test` as in `eval`, `predict` and `bounds`.
#[test]
fn a_wider_test_set_is_scored_with_weight_zero_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let narrow = tmp.path().join("narrow.txt");
    let wide = tmp.path().join("wide.txt");
    let mut n = String::new();
    let mut w = String::new();
    for i in 0..200u32 {
        let (a, b) = ((i * 37 % 100) as f32 / 50.0, (i * 61 % 100) as f32 / 50.0);
        let y = if a > b { "+1" } else { "-1" };
        n.push_str(&format!("{y} 1:{a} 2:{b} 3:1\n"));
        w.push_str(&format!("{y} 1:{a} 2:{b} 3:1 784:{}\n", (i % 5) + 1));
    }
    std::fs::write(&narrow, n).unwrap();
    std::fs::write(&wide, w).unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    assert_eq!(run(&["convert", p(&narrow), "-o", p(&a)]).0, 0);
    assert_eq!(run(&["convert", p(&wide), "-o", p(&b)]).0, 0);
    let model = tmp.path().join("m.model");
    for learner in ["perceptron", "voted-perceptron", "averaged-perceptron"] {
        let (code, out, err) =
            run(&["train", p(&a), "--learner", learner, "--passes", "2", "--test", p(&b), "-o", p(&model)]);
        assert_eq!(code, 0, "{learner}: {err}");
        no_panic(&err);
        assert_eq!(err.matches("they get weight 0").count(), 1, "{learner}: {err}");
        assert!(out.contains("test"), "{out}");
    }
    for args in [
        vec!["eval", p(&model), p(&b)],
        vec!["predict", p(&model), p(&b)],
        vec!["predict", p(&model), p(&wide)],
        vec!["bounds", p(&b), "--model", p(&model)],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(err.matches("weight 0").count(), 1, "{args:?}: {err}");
    }
}

/// `export` then `convert`, both with their defaults, give back the same
/// dataset, and a model scores it exactly as the original. The text itself
/// is scored row by row in f32, as `serve` scores a line and as the
/// library scores CSR rows: the same bits as those.
#[test]
fn export_then_convert_gives_back_the_same_dataset() {
    let tmp = tempfile::tempdir().unwrap();
    let ds = t10k(tmp.path(), Some("9"));
    let text = tmp.path().join("t10k.svm");
    assert_eq!(run(&["export", p(&ds), "-o", p(&text)]).0, 0);
    let back = tmp.path().join("back");
    let (code, _, err) = run(&["convert", p(&text), "-o", p(&back)]);
    assert_eq!(code, 0, "{err}");
    let (a, b) =
        (Dataset::open(&ds, OpenOptions::default()).unwrap(), Dataset::open(&back, OpenOptions::default()).unwrap());
    assert_eq!(a.to_rows(), b.to_rows());
    assert_eq!((a.dim(), a.manifest().index_base), (b.dim(), b.manifest().index_base));
    let model = tmp.path().join("m.model");
    assert_eq!(run(&["train", p(&ds), "--learner", "averaged-perceptron", "-o", p(&model)]).0, 0);
    let (_, on_a, err_a) = run(&["predict", p(&model), p(&ds)]);
    let (_, on_b, err_b) = run(&["predict", p(&model), p(&back)]);
    let (_, on_text, err_text) = run(&["predict", p(&model), p(&text)]);
    assert_eq!(on_a, on_b);
    assert_eq!((err_a.as_str(), err_b.as_str(), err_text.as_str()), ("", "", ""));
    use rosenblatt::{Model, Predict, Rows};
    let m = Model::load(&model).unwrap();
    let rows = a.to_rows();
    let csr = Rows::csr(&rows.offsets, &rows.indices, &rows.values, a.dim() as usize).unwrap();
    let lines: String = m.predict(&csr).unwrap().iter().map(|q| format!("{} {}\n", q.label, q.score)).collect();
    assert_eq!(on_text, lines);
    // The dataset's u8 values sum in another order: the same labels.
    let labels = |s: &str| s.lines().map(|l| l.split(' ').next().unwrap().to_string()).collect::<Vec<_>>();
    assert_eq!(labels(&on_a), labels(&on_text));
}

/// Data whose text counted features from another base meets the model with
/// a note, never silently.
#[test]
fn another_index_base_is_said() {
    let tmp = tempfile::tempdir().unwrap();
    let ds = t10k(tmp.path(), Some("9"));
    let model = tmp.path().join("m.model");
    assert_eq!(run(&["train", p(&ds), "--learner", "perceptron", "-o", p(&model)]).0, 0);
    let zero = tmp.path().join("zero.svm");
    assert_eq!(run(&["export", p(&ds), "--zero-based", "-o", p(&zero)]).0, 0);
    let zd = tmp.path().join("zero");
    assert_eq!(run(&["convert", p(&zero), "--zero-based", "-o", p(&zd)]).0, 0);
    let (code, _, err) = run(&["eval", p(&model), p(&zd)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("numbered its features from 1") && err.contains("from 0"), "{err}");
    // Text for predict is read in the model's base unless told otherwise;
    // told, the rows are the same rows and so are the predictions.
    let (code, told, err) = run(&["predict", p(&model), p(&zero), "--zero-based"]);
    assert_eq!(code, 0, "{err}");
    let one = tmp.path().join("one.svm");
    assert_eq!(run(&["export", p(&ds), "-o", p(&one)]).0, 0);
    assert_eq!(told, run(&["predict", p(&model), p(&one)]).1);
}

/// A ±1 model scored on a set labelled with digits is another task, in
/// `train --test` as in `eval`.
#[test]
fn a_test_set_of_another_task_is_refused_like_in_eval() {
    let tmp = tempfile::tempdir().unwrap();
    let nines = t10k(tmp.path(), Some("9"));
    let digits = t10k(tmp.path(), None);
    let model = tmp.path().join("m.model");
    let (code, out, err) = run(&["train", p(&nines), "--learner", "perceptron", "--test", p(&digits), "-o", p(&model)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("labels are classes") && err.contains("another task"), "{err}");
    assert_eq!((out.as_str(), err.trim().lines().count()), ("", 1), "{err}");
    assert!(!model.exists());
    let (code, _, err) =
        run(&["train", p(&digits), "--learner", "multiclass-perceptron", "--test", p(&nines), "-o", p(&model)]);
    assert_eq!(code, 1);
    assert!(err.contains("labels are binary"), "{err}");
}

/// When the reader of standard output goes away, every command ends
/// quietly with status 0 — and `train` still writes its model.
#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let tmp = tempfile::tempdir().unwrap();
    let ds = t10k(tmp.path(), Some("9"));
    let model = tmp.path().join("m.model");
    assert_eq!(run(&["train", p(&ds), "--learner", "perceptron", "-o", p(&model)]).0, 0);
    let again = tmp.path().join("again.model");
    let text = tmp.path().join("t.svm");
    assert_eq!(run(&["export", p(&ds), "-o", p(&text)]).0, 0);
    let converted = tmp.path().join("c");
    let commands: Vec<Vec<&str>> = vec![
        vec!["inspect", p(&ds), "--json"],
        vec!["inspect", p(&ds)],
        vec!["eval", p(&model), p(&ds)],
        vec!["eval", p(&model), p(&ds), "--json"],
        vec!["bounds", p(&ds), "--passes", "1"],
        vec!["predict", p(&model), p(&ds)],
        vec!["export", p(&ds)],
        vec!["convert", p(&text), "-o", p(&converted)],
        vec!["train", p(&ds), "--learner", "perceptron", "--passes", "3", "-o", p(&again)],
        vec!["--version"],
    ];
    for args in commands {
        let mut child = rosenblatt().args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        // Close the reading end before the command writes anything.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe") && !err.contains("failed printing"), "{args:?}: {err}");
        no_panic(&err);
    }
    assert!(rosenblatt::model::Model::load(&again).is_ok(), "train stops printing, not training");
}

/// The command's output on a real terminal: `script` gives it one.
fn on_a_terminal(args: &[&str]) -> String {
    let line = std::iter::once(env!("CARGO_BIN_EXE_rosenblatt"))
        .chain(args.iter().copied())
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let out = Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        .env("COLUMNS", "160")
        .output()
        .expect("`script` (util-linux) gives the command a terminal");
    assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The progress bar moves on a terminal — in one part and in several —
/// with a rate and an ETA.
#[test]
fn the_progress_bar_moves_on_a_terminal() {
    let tmp = tempfile::tempdir().unwrap();
    let ds = t10k(tmp.path(), Some("9"));
    for parts in ["1", "2"] {
        let model = tmp.path().join(format!("m{parts}.model"));
        let screen = on_a_terminal(&[
            "train",
            p(&ds),
            "--learner",
            "averaged-perceptron",
            "--passes",
            "400",
            "--parts",
            parts,
            "--threads",
            "2",
            "-o",
            p(&model),
        ]);
        // Every redraw of the bar: "…] 123,456/4,000,000 examples 1.2M/s ETA 3s".
        let positions: Vec<u64> = screen
            .split(" examples ")
            .filter_map(|s| s.rsplit(']').next()?.split('/').next()?.trim().replace(',', "").parse().ok())
            .collect();
        let moving = positions.iter().filter(|&&n| n > 0 && n < 4_000_000).count();
        assert!(moving >= 2, "{parts} part(s): the bar did not move: {positions:?}\n{screen}");
        assert!(positions.windows(2).all(|w| w[0] <= w[1]), "{positions:?}");
        assert!(screen.contains("/s ETA "), "{screen}");
        assert!(screen.contains("model written to"), "{screen}");
    }
    // A kernel learner's pass takes seconds: the bar moves within it, not
    // only from one pass's end to the next.
    let model = tmp.path().join("k.model");
    let args = ["train", p(&ds), "--learner", "kernel-perceptron", "--passes", "2", "--threads", "2", "-o", p(&model)];
    let screen = on_a_terminal(&args);
    let positions: Vec<u64> = screen
        .split(" examples ")
        .filter_map(|s| s.rsplit(']').next()?.split('/').next()?.trim().replace(',', "").parse().ok())
        .collect();
    let within = positions.iter().filter(|&&n| n % 10_000 != 0).count();
    assert!(within >= 2, "the bar stood still through the passes: {positions:?}\n{screen}");
    assert!(positions.windows(2).all(|w| w[0] <= w[1]), "{positions:?}");
}

/// `bench ocr`'s spinner says what runs, with no stray count.
#[test]
fn the_spinner_says_what_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let m = mnist();
    let cache = tmp.path().join("cache");
    let screen = on_a_terminal(&[
        "demo",
        "--data",
        p(&m),
        "--test-data",
        p(&m),
        "--cache",
        p(&cache),
        "--passes",
        "1",
        "--seeds",
        "1",
    ]);
    assert!(screen.contains("averaged-perceptron"), "{screen}");
    assert!(!screen.contains(" 0  "), "a stray count in the spinner: {screen}");
}

/// Messages that name the fix.
#[test]
fn mistakes_get_messages_that_name_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let text = tmp.path().join("d.svm");
    std::fs::write(&text, "+1 1:1\n-1 2:1\n").unwrap();
    let ds = tmp.path().join("d");
    assert_eq!(run(&["convert", p(&text), "-o", p(&ds)]).0, 0);
    let model = tmp.path().join("m.model");
    // A text file given to train is converted on the way in (here afresh,
    // not into the cache); an IDX file alone is refused, naming the fix.
    let (code, _, err) = run(&["train", p(&text), "--learner", "perceptron", "--no-cache", "-o", p(&model)]);
    assert_eq!(code, 0, "{err}");
    let labels = mnist().join("t10k-labels.idx1-ubyte.gz");
    let (code, _, err) = run(&["train", p(&labels), "--learner", "perceptron", "--no-cache", "-o", p(&model)]);
    assert_eq!(code, 1);
    assert!(err.contains("an MNIST IDX file alone; give the images file and then its labels file"), "{err}");
    assert_eq!(run(&["train", p(&ds), "--learner", "perceptron", "-o", p(&model)]).0, 0);
    // eval with its arguments swapped.
    let (code, _, err) = run(&["eval", p(&ds), p(&model)]);
    assert_eq!(code, 1);
    assert!(err.contains("is a directory, not a model file") && err.contains("eval MODEL DATASET"), "{err}");
    // A flag the parser rejects: exit 2, naming the flag.
    let (code, _, err) = run(&["train", p(&ds), "--learner", "perceptorn", "-o", p(&model)]);
    assert_eq!(code, 2);
    assert!(err.contains("perceptorn") && err.contains("averaged-perceptron"), "{err}");
    // A hyper-parameter the learner does not take.
    let (code, _, err) = run(&["train", p(&ds), "--learner", "perceptron", "--lambda", "0.1", "-o", p(&model)]);
    assert_eq!(code, 1);
    assert!(err.contains("perceptron takes no --lambda"), "{err}");
}

/// An output path that cannot be written fails before the work, not after
/// it: `train` printed its whole pass table (hours, on a large set) and
/// only then refused the model's path; `predict` predicted every row first.
#[test]
fn a_bad_output_path_fails_before_the_work() {
    let tmp = tempfile::tempdir().unwrap();
    let text = tmp.path().join("d.svm");
    std::fs::write(&text, "+1 1:1\n-1 2:1\n").unwrap();
    let ds = tmp.path().join("d");
    assert_eq!(run(&["convert", p(&text), "-o", p(&ds)]).0, 0);
    // Folders are made as needed; a path through a file cannot be.
    let missing = text.join("m.model");
    let train = |out: &Path, extra: &[&str]| {
        let mut args = vec!["train", p(&ds), "--learner", "perceptron", "--passes", "2", "-o", p(out)];
        args.extend(extra);
        run(&args)
    };
    for (out, extra, says) in [
        (missing.as_path(), &[][..], "is not a directory (it is a file)"),
        (ds.as_path(), &[], "is a directory, not a file"),
        (&tmp.path().join("m.model"), &["--report", p(&text)], "is not a directory (--report takes a directory)"),
    ] {
        let (code, stdout, err) = train(out, extra);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(says), "{err}");
        assert!(stdout.is_empty(), "no pass was trained: {stdout}");
        no_panic(&err);
    }
    assert!(!tmp.path().join("m.model").exists());
    let (code, _, _) = train(&tmp.path().join("m.model"), &[]);
    assert_eq!(code, 0);
    let model = tmp.path().join("m.model");
    let (code, stdout, err) = run(&["predict", p(&model), p(&text), "-o", p(&missing)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is not a directory") && err.contains(p(&text)) && stdout.is_empty(), "{err}");
    // Nothing was left beside the dataset: no temporary file.
    let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
}

/// Text from a pipe (`cat d.svm | rosenblatt predict m /dev/stdin`, or
/// `<(zcat d.svm.gz)`): a pipe's size reads as 0, so `predict` printed no
/// prediction and exited 0, `convert` said "no rows", and a compressed
/// stream lost the bytes read to tell its format ("invalid gzip header").
#[cfg(target_os = "linux")]
#[test]
fn text_from_a_pipe_is_read_whole() {
    use std::io::Write;
    let tmp = tempfile::tempdir().unwrap();
    let text = b"+1 1:1 2:0.5\n-1 3:1\n+1 1:2\n";
    let file = tmp.path().join("d.svm");
    std::fs::write(&file, text).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text).unwrap();
    let gz = gz.finish().unwrap();
    // Runs the binary with `input` on a pipe to its standard input.
    let piped = |args: &[&str], input: &[u8]| {
        let mut child = rosenblatt()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input = input.to_vec();
        let writer = std::thread::spawn(move || stdin.write_all(&input));
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let ds = tmp.path().join("d");
    assert_eq!(run(&["convert", p(&file), "-o", p(&ds)]).0, 0);
    let model = tmp.path().join("m.model");
    assert_eq!(run(&["train", p(&ds), "--learner", "perceptron", "--passes", "3", "-o", p(&model)]).0, 0);
    let (code, from_file, err) = run(&["predict", p(&model), p(&file)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(from_file.lines().count(), 3);
    for input in [&text[..], &gz] {
        let (code, out, err) = piped(&["predict", p(&model), "/dev/stdin"], input);
        assert_eq!((code, out.as_str()), (0, from_file.as_str()), "{err}");
        let piped_ds = tmp.path().join(format!("piped-{}", input.len()));
        let (code, _, err) = piped(&["convert", "/dev/stdin", "-o", p(&piped_ds)], input);
        assert_eq!(code, 0, "{err}");
        no_panic(&err);
        let (a, b) = (
            Dataset::open(&ds, OpenOptions::default()).unwrap(),
            Dataset::open(&piped_ds, OpenOptions::default()).unwrap(),
        );
        assert_eq!(a.manifest().rows, b.manifest().rows);
        assert_eq!(a.manifest().nnz, b.manifest().nnz);
    }
}
