//! Importance weights as programs and users meet them: every learner of
//! the table takes them (weights of 1 change no bit, on one part or
//! several); VW text's importance column trains as the same rows handed
//! over with those weights; `train` straight from weighted text; `export`
//! refuses what LIBSVM text cannot hold.

use rosenblatt::learners::{Labels as Takes, Learner};
use rosenblatt::prelude::*;

mod common;
use common::{p, run};

/// `n` sparse rows over `dim` features (a hidden linear rule, some noise):
/// (indptr, indices, values, ±1 labels, class ids 0..3).
#[allow(clippy::type_complexity)]
fn rows(n: usize, dim: u32) -> (Vec<u64>, Vec<u32>, Vec<f32>, Vec<f32>, Vec<f32>) {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let (mut indptr, mut indices, mut values, mut y, mut c) = (vec![0u64], vec![], vec![], vec![], vec![]);
    for _ in 0..n {
        let mut m = 0.0f32;
        for j in 0..dim {
            if next() % 4 == 0 {
                // Quarters in (-2, 2), never 0: decimal text that any
                // reader gives back exactly.
                let v = [-1.75f32, -1.0, -0.5, -0.25, 0.25, 0.75, 1.25, 2.0][(next() % 8) as usize];
                indices.push(j);
                values.push(v);
                m += v * if j % 3 == 0 { 1.0 } else { -0.5 };
            }
        }
        indptr.push(indices.len() as u64);
        let noisy = next() % 10 == 0;
        y.push(if (m > 0.0) != noisy { 1.0 } else { -1.0 });
        c.push(if m > 1.0 {
            2.0
        } else if m > -1.0 {
            1.0
        } else {
            0.0
        });
    }
    (indptr, indices, values, y, c)
}

#[test]
fn every_learner_takes_weights_and_weights_of_one_change_no_bit() {
    let (indptr, indices, values, y, c) = rows(400, 24);
    let ones = vec![1.0f32; y.len()];
    let h: Vec<f32> = (0..y.len()).map(|i| [1.0, 0.5, 2.0, 0.0][i % 4]).collect();
    // Winnow takes binary features: the same rows with every value 1.
    let binary = vec![1.0f32; values.len()];
    for learner in Learner::ALL {
        let labels = if learner.labels() == Takes::Classes { &c } else { &y };
        let values = if learner == Learner::Winnow { &binary } else { &values };
        let plain = Rows::csr(&indptr, &indices, values, 24).unwrap().with_labels(labels).unwrap();
        let (with_ones, weighted) =
            (plain.with_weights(&ones).unwrap(), plain.with_weights(&h).unwrap().with_labels(labels).unwrap());
        assert!(with_ones.weighted() && !plain.weighted());
        let parts: &[usize] = if learner.mixes() { &[1, 3] } else { &[1] };
        for &k in parts {
            let config = Config::new(learner).passes(2.0).seed(9).parts(k);
            let a = config.fit(&plain).unwrap();
            let b = config.fit(&with_ones).unwrap();
            assert!(a.to_bytes() == b.to_bytes(), "{} in {k} parts: weights of 1 changed the model", learner.name());
            let w = config.fit(&weighted).unwrap();
            let changed = a.predict(&plain).unwrap() != w.predict(&plain).unwrap();
            assert!(changed, "{} in {k} parts: weights changed nothing", learner.name());
        }
    }
}

#[test]
fn bad_weights_are_refused_naming_the_row() {
    let (indptr, indices, values, y, _) = rows(50, 8);
    let base = Rows::csr(&indptr, &indices, &values, 8).unwrap().with_labels(&y).unwrap();
    let mut h = vec![1.0f32; 50];
    h[12] = f32::NAN;
    let e = base.with_weights(&h).unwrap_err().to_string();
    assert!(e.contains("example 12 has weight NaN"), "{e}");
    let e = base.with_weights(&h[..3]).unwrap_err().to_string();
    assert!(e.contains("3 weights for 50 rows"), "{e}");
}

#[test]
fn vw_importance_trains_as_the_same_rows_handed_over_with_those_weights() {
    let tmp = tempfile::tempdir().unwrap();
    let d = |n: &str| tmp.path().join(n);
    let (indptr, indices, values, y, _) = rows(600, 16);
    let h: Vec<f32> = (0..y.len()).map(|i| [1.0, 0.25, 3.0, 0.0, 1.5][i % 5]).collect();
    // The rows as VW text: anonymous features of the default namespace
    // land on their own numbers (`--noconstant` aside: the bias is ours).
    let mut text = String::new();
    for i in 0..y.len() {
        let weight = if h[i] == 1.0 { String::new() } else { format!(" {}", h[i]) };
        text.push_str(&format!("{}{weight} |", y[i]));
        for k in indptr[i] as usize..indptr[i + 1] as usize {
            text.push_str(&format!(" {}:{}", indices[k], values[k]));
        }
        text.push('\n');
    }
    std::fs::write(d("w.vw"), &text).unwrap();
    let (code, _, err) = run(&["convert", p(&d("w.vw")), "-o", p(&d("w")), "--encoding", "sparse-u32-f32", "-b", "4"]);
    assert_eq!(code, 0, "{err}");
    let weighted = h.iter().filter(|&&w| w != 1.0).count();
    let said = format!(
        "{weighted} row(s) carry an importance weight other than 1, which scales their updates (120 of weight 0"
    );
    assert!(err.contains(&said), "{err}");
    let (code, out, _) = run(&["inspect", p(&d("w"))]);
    assert_eq!(code, 0);
    assert!(out.contains("weights      importance per row: 0 to 3; 120 row(s) of weight 0"), "{out}");
    let ds = Dataset::open(d("w")).unwrap();
    assert_eq!(ds.as_loader().to_rows().weights, h);
    let config = Config::from_name("logistic").unwrap().passes(3.0).seed(2);
    let from_text = config.fit(&ds).unwrap();
    let handed = Rows::csr(&indptr, &indices, &values, 16).unwrap().with_labels(&y).unwrap().with_weights(&h).unwrap();
    let from_rows = config.fit(&handed).unwrap();
    let same = from_text.predict(&handed).unwrap() == from_rows.predict(&handed).unwrap();
    assert!(same, "the converted text and the rows handed over train different models");

    // Straight from the text, the same model's predictions.
    let (code, _, err) = run(&[
        "train",
        p(&d("w.vw")),
        "--learner",
        "logistic",
        "--passes",
        "3",
        "--seed",
        "2",
        "-b",
        "4",
        "--no-cache",
        "-o",
        p(&d("m.model")),
    ]);
    assert_eq!(code, 0, "{err}");
    // It trains on the text converted as `convert` would, by default:
    // the same rows in the encoding chosen for them.
    let (code, _, err) = run(&["convert", p(&d("w.vw")), "-o", p(&d("auto")), "-b", "4"]);
    assert_eq!(code, 0, "{err}");
    let auto = Dataset::open(d("auto")).unwrap();
    let m = Model::load(&d("m.model")).unwrap();
    assert!(m.predict(&auto).unwrap() == config.fit(&auto).unwrap().predict(&auto).unwrap(), "train from text differs");

    // LIBSVM text has no place for a weight: export says so.
    let (code, out, err) = run(&["export", p(&d("w")), "-o", p(&d("w.svm"))]);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("importance weights, which LIBSVM text cannot hold"), "{err}");
    assert!(!d("w.svm").exists());
}
