//! The embedding API as a program written only against the prelude meets
//! it: `Config` → `fit` → `Model` → `predict`, borrowed rows, the online
//! trainer, the adapters' `from_name`/`set`; and fitting a dataset gives
//! the predictions `rosenblatt train` + `rosenblatt predict` give.

use rosenblatt::prelude::*;
use std::path::{Path, PathBuf};

mod common;
use common::{mnist, p, rosenblatt};

/// MNIST's test images, 9 against the rest, converted into `dir/name`
/// (every other row for the training half, the rest for testing).
fn mnist9(dir: &Path) -> (PathBuf, PathBuf) {
    let m = mnist();
    let (images, labels) = (m.join("t10k-images.idx3-ubyte.gz"), m.join("t10k-labels.idx1-ubyte.gz"));
    let all = dir.join("all");
    let ok = rosenblatt().args(["convert", p(&images), p(&labels), "--target", "9", "-o", p(&all)]).status().unwrap();
    assert!(ok.success());
    let text = dir.join("all.svm");
    assert!(rosenblatt().args(["export", p(&all), "-o", p(&text)]).status().unwrap().success());
    let lines: Vec<String> = std::fs::read_to_string(&text).unwrap().lines().map(String::from).collect();
    let (mut a, mut b) = (String::new(), String::new());
    for (i, l) in lines.iter().enumerate() {
        let s = if i % 2 == 0 { &mut a } else { &mut b };
        s.push_str(l);
        s.push('\n');
    }
    let (train, test) = (dir.join("train"), dir.join("test"));
    for (s, out) in [(a, &train), (b, &test)] {
        let t = out.with_extension("svm");
        std::fs::write(&t, s).unwrap();
        assert!(rosenblatt().args(["convert", p(&t), "-o", p(out), "--dim", "784"]).status().unwrap().success());
    }
    (train, test)
}

/// The example, as written there: it must compile and run.
#[test]
fn the_api_example_compiles_and_runs() -> Result<(), Box<dyn std::error::Error>> {
    let tmp = tempfile::tempdir()?;
    let (train_dir, test_dir) = mnist9(tmp.path());
    let train = Dataset::open(&train_dir)?; // a converted dataset directory
    let test = Dataset::open(&test_dir)?;
    let model: Model = Config::averaged_perceptron().passes(2.0).seed(4).fit(&train)?;
    let preds: Vec<Prediction> = model.predict(&test)?; // Prediction { pub label: f32, pub score: f32 }
    let ap = tmp.path().join("ap.model");
    model.save(&ap)?;
    assert_eq!(Model::load(&ap)?.predict(&test)?, preds);
    let wrong = preds.iter().zip(test.as_loader().examples()?.labels()).filter(|(p, y)| p.label != *y).count();
    assert!(wrong < preds.len() / 20, "{wrong} of {} wrong", preds.len());

    // borrowed rows: zero-based CSR (u64 indptr, u32 indices, f32 values)
    let (indptr, indices, values, dim) =
        (vec![0u64, 2, 3, 5], vec![0u32, 2, 1, 0, 1], vec![1.0f32, 0.5, 2.0, -1.0, 1.0], 3);
    let labels = vec![1.0f32, -1.0, 1.0];
    let rows = Rows::csr(&indptr, &indices, &values, dim)?.with_labels(&labels)?;
    let model = Config::logistic().eta(0.5).fit(&rows)?;
    let mut t: Trainer = Config::logistic().trainer(dim, Labels::Binary)?;
    t.learn(&rows)?; // one pass over the batch
    let m: Model = t.model()?;
    let mut again = Trainer::resume(&m)?; // continues bit for bit
    assert_eq!(model.dim(), 3);

    let c = Config::from_name("hinge-sgd")?.set("eta", 0.5)?; // for adapters
    assert!(Config::from_name("perceptron")?.set("gamma", 1.0).is_err());

    // Dense rows, the same values: the same model as the CSR rows.
    let dense = [1.0f32, 0.0, 0.5, 0.0, 2.0, 0.0, -1.0, 1.0, 0.0];
    let d = Rows::dense(&dense, 3, dim)?.with_labels(&labels)?;
    assert_eq!(Config::logistic().eta(0.5).fit(&d)?, model);
    // The resumed trainer continues as the one that never stopped.
    t.learn(&rows)?;
    again.learn(&rows)?;
    assert_eq!(t.model()?, again.model()?);
    assert_eq!(c.learner().name(), "hinge-sgd");
    let mut out = vec![Prediction::default(); 3];
    model.predict_into(&rows, &mut out)?;
    assert_eq!(out, model.predict(&rows)?);
    assert_eq!(Model::from_bytes(&model.to_bytes())?, model);
    Ok(())
}

/// What `rosenblatt train` + `rosenblatt predict` print is what the API
/// predicts: labels and scores, for learners of every kind.
#[test]
fn fitting_a_dataset_is_train_then_predict() {
    let tmp = tempfile::tempdir().unwrap();
    let (train_dir, test_dir) = mnist9(tmp.path());
    let (train, test) = (Dataset::open(&train_dir).unwrap(), Dataset::open(&test_dir).unwrap());
    for (learner, passes, seed) in
        [("averaged-perceptron", "2", "4"), ("logistic", "1", "0"), ("voted-perceptron", "1", "2")]
    {
        let model = tmp.path().join(format!("{learner}.model"));
        let args = ["train", p(&train_dir), "--learner", learner, "--passes", passes, "--seed", seed, "-o", p(&model)];
        assert!(rosenblatt().args(args).output().unwrap().status.success());
        let out = rosenblatt().args(["predict", p(&model), p(&test_dir)]).output().unwrap();
        assert!(out.status.success());
        let printed = String::from_utf8(out.stdout).unwrap();
        let config = Config::from_name(learner).unwrap().passes(passes.parse().unwrap()).seed(seed.parse().unwrap());
        let fitted = config.fit(&train).unwrap();
        assert_eq!(fitted.to_bytes(), std::fs::read(&model).unwrap(), "{learner}: the same model file");
        let ours: String =
            fitted.predict(&test).unwrap().iter().map(|p| format!("{} {}\n", p.label, p.score)).collect();
        assert_eq!(ours, printed, "{learner}");
        // On two threads, the same bits.
        assert_eq!(config.threads(2).fit(&train).unwrap(), fitted, "{learner}");
    }
}

/// Every check happens before any data is read, in the library's words.
#[test]
fn a_config_is_checked_before_the_data() {
    let e = Config::from_name("perceptron").unwrap().set("gamma", 1.0).unwrap_err().to_string();
    assert!(e.contains("perceptron takes no `gamma`"), "{e}");
    let e = Config::from_name("logistic").unwrap().set("adaptive", 2.0).unwrap_err().to_string();
    assert!(e.contains("adaptive = 2"), "{e}");
    let e = Config::from_name("nope").unwrap_err().to_string();
    assert!(e.contains("unknown learner `nope`") && e.contains("averaged-perceptron"), "{e}");
    let e = Config::from_name("eg").unwrap().set("etta", 1.0).unwrap_err().to_string();
    assert!(e.contains("unknown hyper-parameter `etta`"), "{e}");
    assert!(Config::winnow().parts(2).check().unwrap_err().to_string().contains("one part"));
    assert!(Config::perceptron().passes(0.0).check().unwrap_err().to_string().contains("passes = 0"));
    assert!(Config::kernel_perceptron().kernel("cubic").check().is_err());
    assert!(Config::kernel_perceptron().kernel("poly").degree(3.0).check().is_ok());
    assert!(Config::hinge_sgd().normalized(true).adaptive(false).check().is_err());
    // No library message names a command-line flag.
    for e in [
        Config::hinge_sgd().normalized(true).adaptive(false).check().unwrap_err().to_string(),
        Config::kernel_perceptron().coef0(1.0).check().unwrap_err().to_string(),
    ] {
        assert!(!e.contains("--"), "a flag in a library message: {e}");
    }
    // Every learner of the table has its constructor, named as its name.
    for l in rosenblatt::learners::Learner::ALL {
        assert_eq!(Config::from_name(l.name()).unwrap().learner(), l);
    }
    assert_eq!(Config::multiclass_kernel_perceptron().learner().name(), "multiclass-kernel-perceptron");
}
