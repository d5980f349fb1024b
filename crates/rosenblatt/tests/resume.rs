//! Training resumes: 3 passes, saved to a file and loaded, then 2 more
//! with `init` give the model — and the whole learner state — of 5 passes
//! in one go, for every learner.

use rosenblatt::learners::{Learner, Order};
use rosenblatt::loader::{Dataset, LabelKind, OpenOptions, WriteOptions, write_dataset};
use rosenblatt::model::Model;
use rosenblatt::train::Run;
use rosenblatt::{Config, Fit};
use rosenblatt_datasets::tabular::{TabularSpec, generate};
use std::path::Path;

/// A census-shaped binary set, and the same rows labelled with three
/// classes (by their first attribute) for the multi-class learners.
fn data(dir: &Path) -> (Dataset, Dataset) {
    let spec = TabularSpec { rows: 3000, ..TabularSpec::default() };
    let rows = generate(&spec, 0).unwrap();
    let opts = WriteOptions { dim: Some(spec.dim() as u64), ..Default::default() };
    write_dataset(&dir.join("binary"), &rows, &opts).unwrap();
    let mut classes = rows.clone();
    for i in 0..classes.labels.len() {
        classes.labels[i] = (classes.indices[classes.offsets[i] as usize] % 3) as f32;
    }
    let opts = WriteOptions { label_kind: Some(LabelKind::Classes), ..opts };
    write_dataset(&dir.join("classes"), &classes, &opts).unwrap();
    let open = |n: &str| Dataset::open(dir.join(n), OpenOptions::default()).unwrap();
    (open("binary"), open("classes"))
}

fn spec(learner: Learner, passes: f64) -> Config {
    // (The batch Perceptron keeps its sequential order.)
    let s = Config::new(learner).passes(passes).seed(7).order(Order::Shuffle);
    // EG's derived step size depends on the planned passes: give it.
    if matches!(learner, Learner::Eg | Learner::EgPm) { s.eta(0.01) } else { s }
}

/// `spec` resuming `init`.
fn resumed(spec: &Config, data: &Dataset, init: Model) -> Result<Model, rosenblatt::Error> {
    spec.fit_run(data, Run { init: Some(init), ..Run::default() })
}

#[test]
fn three_passes_then_two_resumed_equal_five() {
    let tmp = tempfile::tempdir().unwrap();
    let (binary, classes) = data(tmp.path());
    // Every learner with its defaults, and the gradient learners' other
    // step kinds (normalised; averaged).
    let runs = Learner::ALL.map(|l| (l, false)).into_iter().chain([(Learner::HingeSgd, true)]);
    for (learner, normalized) in runs {
        if learner.kernel() {
            // The kernel learners do not resume, and say so.
            let data = if learner.multiclass() { &classes } else { &binary };
            let first = spec(learner, 1.0).fit(data).unwrap();
            assert!(first.state.is_none(), "{learner}");
            let e = resumed(&spec(learner, 1.0), data, first).unwrap_err().to_string();
            assert!(e.contains("does not resume"), "{learner}: {e}");
            continue;
        }
        let spec = |passes| {
            let s = spec(learner, passes);
            if normalized { s.normalized(true).average(true) } else { s }
        };
        let data = if learner.multiclass() { &classes } else { &binary };
        let whole = spec(5.0).fit(data).unwrap();
        let first = spec(3.0).fit(data).unwrap();
        let path = tmp.path().join(format!("{learner}.model"));
        first.save(&path).unwrap();
        let rest = resumed(&spec(2.0), data, Model::load(&path).unwrap()).unwrap();
        let learner = format!("{learner} normalized {normalized}");
        assert!(whole.state.as_ref().is_some_and(|s| !s.is_empty()), "{learner}: no state saved");
        assert_eq!(rest.weights, whole.weights, "{learner}: the resumed model differs");
        assert_eq!(rest.state, whole.state, "{learner}: the resumed state differs");
        assert_eq!(rest.meta.params, whole.meta.params, "{learner}");
        // The record goes on: the file is the one-go run's, byte for byte.
        assert_eq!(rest.meta.training, whole.meta.training, "{learner}");
        let (a, b) = (tmp.path().join("rest.model"), tmp.path().join("whole.model"));
        rest.save(&a).unwrap();
        whole.save(&b).unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), "{learner}: the files differ");
    }
}

#[test]
fn a_resume_that_cannot_continue_the_run_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (binary, _) = data(tmp.path());
    let model = spec(Learner::Logistic, 2.0).fit(&binary).unwrap();
    let resume = |s: Config, holdout: Option<f64>| {
        let run = Run { init: Some(model.clone()), holdout, ..Run::default() };
        s.fit_run(&binary, run).unwrap_err().to_string()
    };
    let e = resume(spec(Learner::HingeSgd, 1.0), None);
    assert!(e.contains("the model is a logistic, not a hinge-sgd"), "{e}");
    let e = resume(spec(Learner::Logistic, 1.0).eta(0.5), None);
    assert!(e.contains("eta = 0.5 differs from the model's 0.1"), "{e}");
    let e = resume(spec(Learner::Logistic, 1.0), Some(0.5));
    assert!(e.contains("resume on the same data"), "{e}");
    let e = resume(spec(Learner::Logistic, 1.0).parts(2), None);
    assert!(e.contains("one part"), "{e}");
    let mut old = model.clone();
    old.state = None;
    let e = resumed(&spec(Learner::Logistic, 1.0), &binary, old).unwrap_err().to_string();
    assert!(e.contains("carries no learner state"), "{e}");
    // A state that does not fit the learner is refused, not misread.
    let mut cut = model.clone();
    cut.state.as_mut().unwrap().truncate(40);
    let e = resumed(&spec(Learner::Logistic, 1.0), &binary, cut).unwrap_err().to_string();
    assert!(e.contains("saved learner state does not fit"), "{e}");
}

#[test]
fn train_init_resumes_from_the_command_line() {
    let tmp = tempfile::tempdir().unwrap();
    let (_binary, _) = data(tmp.path());
    let bin = env!("CARGO_BIN_EXE_rosenblatt");
    let run = |args: &[&str]| std::process::Command::new(bin).args(args).output().unwrap();
    let d = tmp.path().join("binary");
    let d = d.to_str().unwrap();
    let m = |n: &str| tmp.path().join(n).to_str().unwrap().to_string();
    let (five, three, two) = (m("five.model"), m("three.model"), m("two.model"));
    for (passes, out) in [("5", &five), ("3", &three)] {
        let o = run(&["train", d, "--learner", "pegasos", "--passes", passes, "--seed", "4", "-o", out]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    // The seed and order come from the model.
    let o = run(&["train", d, "--learner", "pegasos", "--passes", "2", "--init", &three, "-o", &two]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (a, b) = (Model::load(Path::new(&five)).unwrap(), Model::load(Path::new(&two)).unwrap());
    assert_eq!((a.weights, a.state), (b.weights, b.state));
    let o = run(&["train", d, "--learner", "pegasos", "--passes", "2", "--init", &three, "--seed", "5", "-o", &two]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--seed 5 differs from the resumed model's seed 4"));
}
