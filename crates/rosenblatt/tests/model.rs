//! Model files: round trips, and every way a file can be wrong.

use rosenblatt::learners::{LinearModel, MulticlassModel};
use rosenblatt::model::{ModelMeta, SavedModel, Weights};
use std::path::Path;

fn meta(dim: u64, classes: Vec<f64>) -> ModelMeta {
    let mut params = serde_json::Map::new();
    params.insert("eta".into(), 1.0.into());
    let mut training = serde_json::Map::new();
    training.insert("passes".into(), 2.0.into());
    ModelMeta { learner: "perceptron".into(), params, dim, classes, training }
}

fn linear() -> SavedModel {
    SavedModel {
        meta: meta(4, vec![-1.0, 1.0]),
        weights: Weights::Linear(LinearModel { weights: vec![0.5, -1.25, 0.0, 3.0], bias: -0.75 }),
    }
}

#[test]
fn models_round_trip_through_files() {
    let tmp = tempfile::tempdir().unwrap();
    let multi = SavedModel {
        meta: meta(3, vec![0.0, 1.0, 2.0]),
        weights: Weights::Multiclass(MulticlassModel {
            dim: 3,
            weights: (0..9).map(|i| i as f32 * 0.5).collect(),
            bias: vec![1.0, 2.0, 3.0],
        }),
    };
    for (name, m) in [("linear.model", linear()), ("multi.model", multi)] {
        let path = tmp.path().join(name);
        m.save(&path).unwrap();
        assert_eq!(SavedModel::load(&path).unwrap(), m);
    }
}

#[test]
fn every_damaged_file_is_refused_with_a_reason() {
    let good = linear().to_bytes();
    let p = Path::new("m.model");
    let err = |b: &[u8]| SavedModel::from_bytes(p, b).unwrap_err().to_string();
    // Every truncation.
    for len in 0..good.len() {
        let e = err(&good[..len]);
        assert!(e.contains("m.model"), "{e}");
    }
    // Every single-bit flip is caught (by the magic, the version or the checksum).
    for i in 0..good.len() {
        let mut b = good.clone();
        b[i] ^= 0x04;
        assert!(SavedModel::from_bytes(p, &b).is_err(), "flip at byte {i} went unnoticed");
    }
    // Another format version, with a valid checksum: named as such.
    let mut b = good.clone();
    b[8..12].copy_from_slice(&7u32.to_le_bytes());
    let n = b.len();
    let crc = crc32fast::hash(&b[..n - 4]);
    b[n - 4..].copy_from_slice(&crc.to_le_bytes());
    assert!(err(&b).contains("model format version 7"), "{}", err(&b));
    // Metadata and weights that disagree, checksum fixed.
    let mut m = linear();
    m.meta.dim = 5;
    let b = m.to_bytes();
    assert!(err(&b).contains("do not fit dimension 5"), "{}", err(&b));
    assert!(err(b"not a model at all, just some text here").contains("not a rosenblatt model"));
}

#[test]
fn metadata_floats_round_trip_exactly() {
    // Without a correctly rounded float parser, some f64 values (like this
    // training time) came back one ulp off, and a loaded model differed.
    let mut m = linear();
    for v in [0.24185886299999998f64, 0.1 + 0.2, 1e-300, 123456.78901234567] {
        m.meta.training.insert("seconds".into(), v.into());
        let back = SavedModel::from_bytes(Path::new("m.model"), &m.to_bytes()).unwrap();
        assert_eq!(back.meta.training["seconds"].as_f64(), Some(v));
    }
}
