//! `rosenblatt train` under `mpirun` on this machine (loopback): 2, 3 and 4
//! processes (4 oversubscribed on a 2-core machine) write the model file of
//! one process training the same parts, byte for byte; bad set-ups and a
//! killed process end the job with an error naming what is wrong, and no
//! model. Needs the `mpi` feature and OpenMPI's `mpirun`
//! (`cargo test -p rosenblatt --features mpi --test mpi`; `.ci/run` installs
//! it). Outside CI, a machine without `mpirun` skips them, saying so.
#![cfg(feature = "mpi")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_rosenblatt")
}

/// Whether `mpirun` is here; in CI its absence is a failure.
fn have_mpirun() -> bool {
    let there = Command::new("mpirun").arg("--version").output().is_ok_and(|o| o.status.success());
    if !there {
        assert!(std::env::var_os("CI").is_none(), "CI must have mpirun (OpenMPI) for the MPI tests");
        eprintln!("skipped: no mpirun on this machine (apt-get install openmpi-bin libopenmpi-dev)");
    }
    there
}

/// `mpirun` for `n` processes on this machine, as root too, not bound to
/// cores (or rayon would see one), oversubscribed when cores are fewer.
fn mpirun(n: usize) -> Command {
    let mut c = Command::new("mpirun");
    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1").env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    c.args(["--bind-to", "none", "--oversubscribe", "--mca", "mpi_yield_when_idle", "1", "-np", &n.to_string()]);
    c
}

fn run(c: &mut Command) -> Output {
    c.stdin(Stdio::null()).output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// MNIST 9-vs-rest, 12 shards of 5,000 rows (so that processes open only
/// some), and its test set: made once per test binary.
fn data() -> &'static (PathBuf, PathBuf) {
    static DATA: OnceLock<(tempfile::TempDir, PathBuf, PathBuf)> = OnceLock::new();
    let d = DATA.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let mnist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/mnist");
        let (train, test) = (tmp.path().join("train"), tmp.path().join("test"));
        for (set, out, shard) in [("train", &train, "4000000"), ("t10k", &test, "100000000")] {
            let o = run(Command::new(bin())
                .args(["--quiet", "convert"])
                .args([
                    mnist.join(format!("{set}-images.idx3-ubyte.gz")),
                    mnist.join(format!("{set}-labels.idx1-ubyte.gz")),
                ])
                .args(["--target", "9", "--shard-size", shard, "-o"])
                .arg(out));
            assert!(o.status.success(), "{}", text(&o));
        }
        (tmp, train, test)
    });
    // (The directory lives as long as the test binary.)
    static PATHS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    PATHS.get_or_init(|| (d.1.clone(), d.2.clone()))
}

/// `train` flags: 2 passes, scored on the test set after each (but for the
/// voted Perceptron, which does not score under mpirun).
fn train_args(learner: &str, parts: usize, out: &Path) -> Vec<String> {
    let (train, test) = data();
    let mut args: Vec<String> = ["--quiet", "train"].map(String::from).to_vec();
    args.push(train.display().to_string());
    args.extend(["--learner", learner, "--parts", &parts.to_string(), "--passes", "2", "-o"].map(String::from));
    args.push(out.display().to_string());
    if learner != "voted-perceptron" {
        args.extend(["--test".to_string(), test.display().to_string()]);
    }
    args
}

/// The model of 2, 3 and 4 processes is the file one process writes for
/// the same parts, for the Perceptron, the averaged and voted Perceptrons
/// (its mistaken rows gathered from the processes that hold them) and
/// logistic regression; the pass lines print once. `eval` and `predict`
/// over 2 and 3 processes print and write what one process does.
#[test]
fn processes_write_the_model_of_one_process() {
    if !have_mpirun() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for learner in ["perceptron", "averaged-perceptron", "voted-perceptron", "logistic"] {
        let one = tmp.path().join(format!("{learner}-one"));
        let o = run(Command::new(bin()).args(train_args(learner, 12, &one)));
        assert!(o.status.success(), "{}", text(&o));
        let lines = String::from_utf8_lossy(&o.stdout).into_owned();
        for n in [2, 3, 4] {
            let many = tmp.path().join(format!("{learner}-{n}"));
            let o = run(mpirun(n).arg(bin()).args(train_args(learner, 12, &many)));
            assert!(o.status.success(), "{learner} on {n}: {}", text(&o));
            assert_eq!(std::fs::read(&many).unwrap(), std::fs::read(&one).unwrap(), "{learner} on {n} processes");
            // Every line of the one-process run (times aside), once: pass,
            // mistakes, online error, and the test error where scored.
            let got = String::from_utf8_lossy(&o.stdout);
            let strip = |s: &str| -> Vec<String> {
                s.lines()
                    .filter(|l| !l.starts_with("model written"))
                    .map(|l| {
                        l.split_whitespace()
                            .take(if learner == "voted-perceptron" { 3 } else { 4 })
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect()
            };
            assert_eq!(strip(&got), strip(&lines), "{learner} on {n}: {got}");
        }
        // eval and predict share the rows out and report once, the same.
        let (train, test) = data();
        for set in [train, test] {
            let alone = run(Command::new(bin()).arg("eval").arg(&one).arg(set));
            for n in [2, 3] {
                let under = run(mpirun(n).arg(bin()).arg("eval").arg(&one).arg(set));
                assert!(alone.status.success() && under.status.success(), "{}", text(&under));
                assert_eq!(under.stdout, alone.stdout, "{learner} eval on {n} processes");
            }
        }
        let (p1, p3) = (tmp.path().join("p1"), tmp.path().join("p3"));
        let o = run(Command::new(bin()).arg("predict").arg(&one).arg(train).arg("-o").arg(&p1));
        assert!(o.status.success(), "{}", text(&o));
        let o = run(mpirun(3).arg(bin()).arg("predict").arg(&one).arg(train).arg("-o").arg(&p3));
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(std::fs::read(&p3).unwrap(), std::fs::read(&p1).unwrap(), "{learner} predict on 3 processes");
    }
}

/// Parts that do not divide among the processes, a learner that cannot
/// mix, scoring that needs rows no process holds, and processes that see
/// different datasets are each refused with one line saying why, and no
/// model is written.
#[test]
fn bad_set_ups_are_refused_once_and_write_nothing() {
    if !have_mpirun() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    let test = data().1.display().to_string();
    for (n, learner, parts, extra, want) in [
        (2, "perceptron", 3, vec![], "--parts 3 over 2 processes: the parts must be a multiple of the processes"),
        (2, "voted-perceptron", 2, vec!["--test", &test], "voted-perceptron cannot score --test after each pass"),
        (2, "kernel-perceptron", 2, vec![], "kernel-perceptron cannot train"),
        (2, "averaged-perceptron", 2, vec!["--train-error"], "drop --holdout and --train-error"),
    ] {
        let o = run(mpirun(n).arg(bin()).args(train_args(learner, parts, &out)).args(extra));
        assert!(!o.status.success(), "{learner}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.matches(want).count(), 1, "{learner}: {err}");
        assert!(!out.exists(), "{learner}");
    }
    // Rank 1 is given another dataset (an MPMD launch: its own flags).
    let (_, test) = data();
    let mut c = mpirun(1);
    c.arg(bin()).args(train_args("perceptron", 2, &out)).arg(":").args(["-np", "1", bin()]);
    let mut second = train_args("perceptron", 2, &out);
    second[2] = test.display().to_string();
    c.args(second);
    let o = run(&mut c);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.matches("the processes disagree on the manifest of").count(), 1, "{err}");
    assert!(!out.exists());
}

/// A process killed in the middle of training ends the job: `mpirun`
/// names it and exits non-zero, and no model file is written.
#[test]
fn a_killed_process_ends_the_job_without_a_model() {
    if !have_mpirun() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    let mut args = train_args("perceptron", 2, &out);
    let passes = args.iter().position(|a| a == "--passes").unwrap() + 1;
    args[passes] = "100000".into();
    let job = mpirun(2).arg(bin()).args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    // Wait for both processes, then for training to be under way.
    let kids = (0..200)
        .find_map(|_| {
            std::thread::sleep(std::time::Duration::from_millis(50));
            let o = Command::new("pgrep").args(["-P", &job.id().to_string()]).output().ok()?;
            let pids: Vec<String> = String::from_utf8_lossy(&o.stdout).split_whitespace().map(String::from).collect();
            (pids.len() == 2).then_some(pids)
        })
        .expect("mpirun started two processes");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill").args(["-9", &kids[1]]).status().unwrap();
    assert!(killed.success());
    let o = job.wait_with_output().unwrap();
    assert!(!o.status.success(), "{}", text(&o));
    let all = text(&o);
    assert!(all.contains("rank 1") && all.contains("signal 9"), "{all}");
    assert!(!out.exists());
}
