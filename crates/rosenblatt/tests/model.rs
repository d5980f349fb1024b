//! Model files: round trips, and every way a file can be wrong.

use rosenblatt::learners::{
    Hooks, InMemoryExamples, Kernel, KernelForm, KernelParams, Learner, LinearModel, Mixing, MulticlassModel,
    OneProcess, OnlineLearner, Outputs, ParallelOptions, PerceptronParams, TrainOptions, VotedPerceptron, train,
    train_kernel, train_parallel,
};
use rosenblatt::model::{Model, ModelMeta, Training, Weights};
use std::path::Path;

fn meta(dim: u64, classes: Vec<f64>) -> ModelMeta {
    let params = [("eta".to_string(), 1.0)].into();
    let training = Training { passes: 2.0, parts: 1, ..Default::default() };
    ModelMeta { learner: Learner::Perceptron, params, dim, classes, index_base: 1, training, hashing: None }
}

fn linear() -> Model {
    Model {
        meta: meta(4, vec![-1.0, 1.0]),
        weights: Weights::Linear(LinearModel { weights: vec![0.5, -1.25, 0.0, 3.0], bias: -0.75 }),
        state: None,
    }
}

#[test]
fn models_round_trip_through_files() {
    let tmp = tempfile::tempdir().unwrap();
    let multi = Model {
        meta: meta(3, vec![0.0, 1.0, 2.0]),
        weights: Weights::Multiclass(MulticlassModel {
            dim: 3,
            weights: (0..9).map(|i| i as f32 * 0.5).collect(),
            bias: vec![1.0, 2.0, 3.0],
        }),
        // A state travels with the model, byte for byte.
        state: Some(vec![7, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3]),
    };
    for (name, m) in [("linear.model", linear()), ("multi.model", multi)] {
        let path = tmp.path().join(name);
        m.save(&path).unwrap();
        assert_eq!(Model::load(&path).unwrap(), m);
    }
}

#[test]
fn every_damaged_file_is_refused_with_a_reason() {
    let good = linear().to_bytes();
    let p = Path::new("m.model");
    let err = |b: &[u8]| Model::decode(p, b).unwrap_err().to_string();
    // Every truncation.
    for len in 0..good.len() {
        let e = err(&good[..len]);
        assert!(e.contains("m.model"), "{e}");
    }
    // Every single-bit flip is caught (by the magic, the version or the checksum).
    for i in 0..good.len() {
        let mut b = good.clone();
        b[i] ^= 0x04;
        assert!(Model::decode(p, &b).is_err(), "flip at byte {i} went unnoticed");
    }
    // Another format version, with a valid checksum: named as such.
    let mut b = good.clone();
    b[8..12].copy_from_slice(&7u32.to_le_bytes());
    let n = b.len();
    let crc = crc32fast::hash(&b[..n - 4]);
    b[n - 4..].copy_from_slice(&crc.to_le_bytes());
    assert!(err(&b).contains("model format version 7; this build reads versions 1 to 3"), "{}", err(&b));
    // Metadata and weights that disagree, checksum fixed.
    let mut m = linear();
    m.meta.dim = 5;
    let b = m.to_bytes();
    assert!(err(&b).contains("do not fit dimension 5"), "{}", err(&b));
    assert!(err(b"not a model at all, just some text here").contains("not a rosenblatt model"));
}

#[test]
fn metadata_floats_round_trip_exactly() {
    // Without a correctly rounded float parser, some f64 values came back
    // one ulp off, and a loaded model differed.
    let mut m = linear();
    for v in [0.24185886299999998f64, 0.1 + 0.2, 1e-300, 123456.78901234567] {
        m.meta.params.insert("r".into(), v);
        m.meta.training.passes = v;
        let back = Model::decode(Path::new("m.model"), &m.to_bytes()).unwrap();
        assert_eq!((back.meta.params["r"], back.meta.training.passes), (v, v));
    }
}

/// A version 1 file, as the previous release wrote it (its metadata
/// verbatim), with the payload of [`linear`].
#[test]
fn version_1_files_are_still_read() {
    let meta = br#"{"learner":"averaged-perceptron","params":{"eta":1.0},"dim":4,"classes":[-1.0,1.0],"training":{"mistakes":7,"updates":7,"passes_run":2,"seconds":0.001234,"mistakes_per_pass":[5,2],"examples":10,"holdout":0,"seed":3,"order":"Sequential","passes":2.0,"threads":2,"mixing":"weighted","index_base":0}}"#;
    let mut b = Vec::new();
    b.extend_from_slice(b"RBLTMODL");
    b.extend_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&0u32.to_le_bytes());
    b.extend_from_slice(&(meta.len() as u64).to_le_bytes());
    b.extend_from_slice(meta);
    for w in [0.5f32, -1.25, 0.0, 3.0, -0.75] {
        b.extend_from_slice(&w.to_le_bytes());
    }
    let crc = crc32fast::hash(&b);
    b.extend_from_slice(&crc.to_le_bytes());
    let m = Model::decode(Path::new("old.model"), &b).unwrap();
    assert_eq!(m.weights, linear().weights);
    assert_eq!(m.meta.learner, Learner::AveragedPerceptron);
    assert_eq!(m.meta.index_base, 0);
    let t = &m.meta.training;
    assert_eq!(
        (t.parts, t.mixing, t.order, t.seed),
        (2, Some(Mixing::Weighted), rosenblatt::learners::Order::Sequential, 3)
    );
    assert_eq!(t.mistakes_per_pass, vec![5, 2]);
    // Written back, it is a version 3 file with no clock in it.
    let again = m.to_bytes();
    assert_eq!(u32::from_le_bytes(again[8..12].try_into().unwrap()), 3);
    assert!(!String::from_utf8_lossy(&again).contains("seconds"));
}

/// A version 2 file (no learner state section) is read, without a state.
#[test]
fn version_2_files_are_read_without_a_state() {
    let v3 = linear().to_bytes();
    // Version 3 with no state ends in 8 zero bytes (its length) before the
    // checksum; version 2 had neither.
    let mut b = v3[..v3.len() - 12].to_vec();
    b[8..12].copy_from_slice(&2u32.to_le_bytes());
    let crc = crc32fast::hash(&b);
    b.extend_from_slice(&crc.to_le_bytes());
    let m = Model::decode(Path::new("v2.model"), &b).unwrap();
    assert_eq!((m.weights, m.state), (linear().weights, None));
    // A version 3 file whose state length runs past its payload is refused.
    let mut bad = v3.clone();
    let n = bad.len();
    bad[n - 12..n - 4].copy_from_slice(&1_000_000u64.to_le_bytes());
    let crc = crc32fast::hash(&bad[..n - 4]);
    bad[n - 4..].copy_from_slice(&crc.to_le_bytes());
    let e = Model::decode(Path::new("bad.model"), &bad).unwrap_err().to_string();
    assert!(e.contains("learner state of 1000000 bytes runs past"), "{e}");
}

/// A voted Perceptron trained on a small separable problem (in `parts`
/// mixed parts when more than one), saved as a model.
fn voted_in(parts: usize) -> (Model, InMemoryExamples) {
    let mut data = InMemoryExamples::new(6);
    for i in 0..120u32 {
        let (a, b) = ((i * 37 % 100) as f32 / 50.0, (i * 61 % 100) as f32 / 50.0);
        let y = if a > b { 1.0 } else { -1.0 };
        data.push(&[0, 1, 5], &[a, b, 1.0], y).unwrap();
    }
    let mut l = VotedPerceptron::new(6, PerceptronParams::default(), false).unwrap();
    let opts = TrainOptions { passes: 3.0, ..Default::default() };
    if parts == 1 {
        train(&mut l, &&data, &opts).unwrap();
    } else {
        let par = ParallelOptions { parts, mixing: Mixing::Uniform };
        train_parallel(&mut l, &&data, &opts, &par, &OneProcess, Hooks::none()).unwrap();
    }
    let predictor = l.model().predictor(&&data);
    assert!(predictor.mistakes() > 5);
    let mut meta = meta(6, vec![-1.0, 1.0]);
    meta.learner = Learner::VotedPerceptron;
    (Model { meta, weights: Weights::Voted(predictor), state: None }, data)
}

#[test]
fn voted_models_round_trip_and_vote_alone() {
    for parts in [1, 3] {
        voted_round_trip(parts);
    }
}

fn voted_round_trip(parts: usize) {
    let tmp = tempfile::tempdir().unwrap();
    let (m, data) = voted_in(parts);
    let Weights::Voted(v) = &m.weights else { unreachable!() };
    let p = v.to_parts();
    // Per part: the first segment, then one per mix (3 passes, 3 mixes).
    assert_eq!(p.segment_firsts.len(), if parts == 1 { 1 } else { 4 * parts }, "segments");
    assert_eq!(p.starts.len(), if parts == 1 { 0 } else { 3 * 7 }, "one start per mix");
    let path = tmp.path().join("voted.model");
    m.save(&path).unwrap();
    let back = Model::load(&path).unwrap();
    assert_eq!(back, m);
    // The loaded file votes exactly as the predictor built from the training set.
    let Weights::Voted(v) = &m.weights else { unreachable!() };
    let mut want = vec![0.0; data.len()];
    v.votes(&&data, &mut want);
    let mut got = vec![Default::default(); data.len()];
    back.weights.predictions_into(&back.meta.classes, &&data, &mut got).unwrap();
    let scores: Vec<f32> = got.iter().map(|p: &rosenblatt::model::Prediction| p.score).collect();
    assert_eq!(scores, want.iter().map(|&v| v as f32).collect::<Vec<_>>());
}

#[test]
fn damaged_voted_files_are_refused_and_never_panic() {
    let (m, _) = voted_in(2);
    let good = m.to_bytes();
    let p = Path::new("v.model");
    for len in 0..good.len() {
        assert!(Model::decode(p, &good[..len]).is_err(), "truncated to {len}");
    }
    // Payload damage behind a recomputed checksum: every byte of the payload
    // header and a sample of the arrays, each set to a few bad values.
    let meta_len = u64::from_le_bytes(good[16..24].try_into().unwrap()) as usize;
    let payload = 24 + meta_len;
    let n = good.len();
    let mut refused = 0;
    for i in (payload..n - 4).step_by(3) {
        for v in [0x00u8, 0xff, 0x80] {
            let mut b = good.clone();
            if b[i] == v {
                continue;
            }
            b[i] = v;
            let crc = crc32fast::hash(&b[..n - 4]);
            b[n - 4..].copy_from_slice(&crc.to_le_bytes());
            // Either refused with the file named, or a valid model (a count
            // or value changed to another valid one) that writes back the
            // same bytes — never a panic.
            match Model::decode(p, &b) {
                Err(e) => {
                    assert!(e.to_string().starts_with("v.model: "), "{e}");
                    refused += 1;
                }
                Ok(back) => assert_eq!(back.to_bytes(), b, "byte {i} = {v}"),
            }
        }
    }
    assert!(refused > 100, "only {refused} damaged files refused");
}

/// A kernel model of `form` and `outputs` trained on 120 rows of 6 byte-valued
/// features (values `byte / 255`), with its byte scale when `bytes`.
fn kernel_in(kernel: Kernel, form: KernelForm, outputs: Outputs, bytes: bool) -> (Model, InMemoryExamples) {
    let scale = 1.0f32 / 255.0;
    let mut data = InMemoryExamples::new(6);
    let mut s = 12345u64;
    for i in 0..120u32 {
        let mut x = [0f32; 6];
        for v in &mut x {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            *v = f32::from((s >> 56) as u8) * scale;
        }
        let y = match outputs {
            Outputs::Binary => {
                if x[0] + x[1] > x[2] + 0.6 {
                    1.0
                } else {
                    -1.0
                }
            }
            _ => (i % 3) as f32,
        };
        data.push(&[0, 1, 2, 3, 4, 5], &x, y).unwrap();
    }
    let p = KernelParams { kernel, form, outputs, budget: None, passes: 2, shuffle: true, seed: 3 };
    let m = train_kernel(&&data, &p).unwrap().with_byte_scale(bytes.then_some(scale));
    assert_eq!(m.scale.is_some(), bytes);
    let classes = if outputs == Outputs::Binary { vec![-1.0, 1.0] } else { vec![0.0, 1.0, 2.0] };
    let meta = ModelMeta { learner: Learner::KernelAveragedPerceptron, ..meta(6, classes) };
    (Model { meta, weights: Weights::Kernel(m), state: None }, data)
}

fn kernels() -> Vec<(Kernel, KernelForm, Outputs)> {
    let (rbf, poly) = (Kernel::Rbf { gamma: 0.7 }, Kernel::Poly { gamma: 1.0, coef0: 1.0, degree: 3 });
    vec![
        (rbf, KernelForm::Averaged, Outputs::Binary),
        (poly, KernelForm::Last, Outputs::Binary),
        (rbf, KernelForm::Voted, Outputs::Binary),
        (rbf, KernelForm::Averaged, Outputs::OneVsRest(3)),
        (poly, KernelForm::Voted, Outputs::OneVsRest(3)),
        (rbf, KernelForm::Last, Outputs::Multiclass(3)),
    ]
}

#[test]
fn kernel_models_round_trip_with_their_rows_as_bytes_and_predict_alone() {
    let tmp = tempfile::tempdir().unwrap();
    for (kernel, form, outputs) in kernels() {
        let (m, data) = kernel_in(kernel, form, outputs, true);
        let (f32s, _) = kernel_in(kernel, form, outputs, false);
        let Weights::Kernel(k) = &m.weights else { unreachable!() };
        assert!(k.support_rows() > 3, "{kernel:?} {form:?} {outputs:?}");
        // One byte per support value instead of four.
        assert_eq!(f32s.to_bytes().len() - m.to_bytes().len(), 3 * 6 * k.support_rows(), "{form:?}");
        for m in [m, f32s] {
            let path = tmp.path().join("kernel.model");
            m.save(&path).unwrap();
            let back = Model::load(&path).unwrap();
            assert_eq!(back, m, "{kernel:?} {form:?} {outputs:?}");
            assert_eq!(back.to_bytes(), m.to_bytes());
            let mut want = vec![Default::default(); data.len()];
            let mut got = want.clone();
            m.weights.predictions_into(&m.meta.classes, &&data, &mut want).unwrap();
            back.weights.predictions_into(&back.meta.classes, &&data, &mut got).unwrap();
            assert_eq!(want, got);
            // Labels are the model's classes; the scores its outputs'.
            let Weights::Kernel(k) = &m.weights else { unreachable!() };
            let c = k.outputs.count();
            let mut scores = vec![0f32; data.len() * c];
            k.scores_into(&&data, &mut scores);
            for (p, s) in want.iter().zip(scores.chunks(c)) {
                let p: &rosenblatt::model::Prediction = p;
                assert!(m.meta.classes.contains(&f64::from(p.label)));
                assert!(s.contains(&p.score));
            }
        }
    }
}

#[test]
fn damaged_kernel_files_are_refused_and_never_panic() {
    let p = Path::new("k.model");
    for (kernel, form, outputs) in kernels() {
        let (m, _) = kernel_in(kernel, form, outputs, form != KernelForm::Last);
        let good = m.to_bytes();
        for len in (0..good.len()).step_by(7) {
            assert!(Model::decode(p, &good[..len]).is_err(), "truncated to {len}");
        }
        let meta_len = u64::from_le_bytes(good[16..24].try_into().unwrap()) as usize;
        let payload = 24 + meta_len;
        let n = good.len();
        let mut refused = 0;
        // Every byte of the 68-byte header, then a sample of the arrays.
        let header = payload..payload + 68;
        for i in header.clone().chain((payload + 68..n - 12).step_by(5)) {
            for v in [0x00u8, 0xff, 0x80, 0x7f] {
                let mut b = good.clone();
                if b[i] == v {
                    continue;
                }
                b[i] = v;
                let crc = crc32fast::hash(&b[..n - 4]);
                b[n - 4..].copy_from_slice(&crc.to_le_bytes());
                match Model::decode(p, &b) {
                    Err(e) => {
                        assert!(e.to_string().starts_with("k.model: "), "{e}");
                        refused += usize::from(header.contains(&i));
                    }
                    Ok(back) => assert_eq!(back.to_bytes(), b, "byte {} = {v}: {form:?}", i - payload),
                }
            }
        }
        assert!(refused > 100, "{form:?}: only {refused} damaged headers refused");
    }
}

#[test]
fn a_kernel_file_of_too_many_features_is_refused_before_predicting() {
    // No support rows, but a dimension that prediction's dense block rows
    // would have to allocate: refused when read.
    let dim = rosenblatt::learners::KERNEL_MAX_DIM + 1;
    let (m, _) = kernel_in(Kernel::Rbf { gamma: 0.5 }, KernelForm::Last, Outputs::Binary, false);
    let Weights::Kernel(k) = m.weights else { unreachable!() };
    let wide = rosenblatt::learners::KernelModel { dim, rows: vec![], norms: vec![], coef: vec![], ..k };
    let m = Model { meta: meta(dim as u64, vec![-1.0, 1.0]), weights: Weights::Kernel(wide), state: None };
    let e = Model::decode(Path::new("k.model"), &m.to_bytes()).unwrap_err().to_string();
    assert!(e.contains("dimension 65537 above 65536"), "{e}");
}

/// Linear and multi-class models score a block of rows or fewer on the
/// calling thread and more in parallel blocks: every row gets the same
/// prediction either way.
#[test]
fn predictions_are_the_same_on_this_thread_and_in_parallel_blocks() {
    use rosenblatt::learners::Slice;
    use rosenblatt::model::Prediction;
    let (dim, n) = (6, 9000);
    let mut data = InMemoryExamples::new(dim);
    for i in 0..n {
        let x: Vec<f32> = (0..dim).map(|j| ((i * 7 + j * 13) % 23) as f32 / 11.0 - 1.0).collect();
        data.push_dense(&x, 1.0).unwrap();
    }
    let linear = Weights::Linear(LinearModel { weights: vec![0.5, -1.25, 0.25, 3.0, -0.5, 1.0], bias: -0.75 });
    let weights: Vec<f32> = (0..3 * dim).map(|k| ((k * 5) % 7) as f32 / 3.0 - 1.0).collect();
    let multiclass = Weights::Multiclass(MulticlassModel { dim, weights, bias: vec![0.0, 0.25, -0.125] });
    for (w, classes, block) in [(linear, vec![-1.0, 1.0], 4096), (multiclass, vec![0.0, 1.0, 2.0], 1024)] {
        assert!(w.predicts_on_this_thread(block) && !w.predicts_on_this_thread(block + 1));
        let mut all = vec![Prediction::default(); n];
        w.predictions_into(&classes, &&data, &mut all).unwrap();
        assert!(all.iter().any(|p| p.label != all[0].label), "the rows are not all of one class");
        for (start, len) in [(0, 1), (17, 600), (4000, block), (n - 5, 5)] {
            let mut some = vec![Prediction::default(); len];
            w.predictions_into(&classes, &Slice::new(&&data, start, len), &mut some).unwrap();
            assert_eq!(some, all[start..start + len], "rows {start}..{}", start + len);
        }
    }
}
