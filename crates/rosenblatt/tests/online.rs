//! The online trainer: one batch is `train` on the same rows, bit for bit;
//! borrowed CSR rows train as the same rows in shards do; batches are
//! deterministic on any pool and resume from a saved model; bad input is
//! refused with what is wrong and where.

use rosenblatt::learners::LinearModel;
use rosenblatt::learners::{Learner, Mixing};
use rosenblatt::loader::format::{Layout, ValueEncoding};
use rosenblatt::loader::{Dataset, Encoding, OpenOptions, Rows as Parsed, WriteOptions, write_dataset};
use rosenblatt::model::{Model, Weights};
use rosenblatt::online::{
    CsrRows, DenseRows, Rows, Trainer, TrainerOptions, learn_together, margins_into, predict_into,
};
use rosenblatt::{Config, Fit, Labels};
use rosenblatt_datasets::tabular::{TabularSpec, generate};
use std::path::Path;

/// A census-shaped binary set as parsed rows and as shards holding the same
/// rows in the same encoding as borrowed CSR (u32 indices, f32 values).
fn data(dir: &Path, rows: usize) -> (Parsed, Dataset) {
    let spec = TabularSpec { rows, ..TabularSpec::default() };
    let parsed = generate(&spec, 0).unwrap();
    let encoding = Encoding { layout: Layout::Sparse, index_bytes: 4, values: ValueEncoding::F32 };
    let opts = WriteOptions { dim: Some(spec.dim() as u64), encoding: Some(encoding), ..Default::default() };
    write_dataset(&dir.join("d"), &parsed, &opts).unwrap();
    (parsed, Dataset::open(dir.join("d"), OpenOptions::default()).unwrap())
}

fn csr(p: &Parsed) -> CsrRows<'_> {
    CsrRows::try_new(p.dim as usize, &p.offsets, &p.indices, &p.values, Some(&p.labels)).unwrap()
}

/// The parsed rows as a row-major dense matrix.
fn dense_of(p: &Parsed) -> Vec<f32> {
    let (n, d) = (p.labels.len(), p.dim as usize);
    let mut dense = vec![0.0f32; n * d];
    for i in 0..n {
        for k in p.offsets[i] as usize..p.offsets[i + 1] as usize {
            dense[i * d + p.indices[k] as usize] = p.values[k];
        }
    }
    dense
}

/// A trainer as embedding code makes one: through a checked config.
fn trainer(learner: Learner, dim: usize, classes: usize, o: TrainerOptions) -> Result<Trainer, rosenblatt::Error> {
    let labels = Labels::of(learner, classes);
    Config::new(learner).seed(o.seed).order(o.order).parts(o.parts).mixing(o.mixing).trainer(dim, labels)
}

fn opts(seed: u64) -> TrainerOptions {
    TrainerOptions { seed, ..TrainerOptions::default() }
}

/// The binary learners that learn batch by batch: every one but the
/// kernel learners, which learn from one whole batch.
fn binary_learners() -> impl Iterator<Item = Learner> {
    Learner::ALL.into_iter().filter(|l| !l.multiclass() && !l.kernel())
}

#[test]
fn a_kernel_learner_learns_one_whole_batch_as_train_does() {
    let tmp = tempfile::tempdir().unwrap();
    let (parsed, ds) = data(tmp.path(), 600);
    let view = ds.examples().unwrap();
    for learner in Learner::ALL.into_iter().filter(|l| l.kernel() && !l.multiclass()) {
        let want = Config::new(learner).passes(2.0).seed(5).fit(&ds).unwrap();
        for rows in [Rows::View(view.clone()), Rows::Csr(csr(&parsed))] {
            let mut t = trainer(learner, 123, 2, opts(5)).unwrap();
            t.learn_passes(&rows, 2.0).unwrap();
            let got = t.model().unwrap();
            assert_eq!(got.weights, want.weights, "{learner}");
            assert_eq!(got.meta.params, want.meta.params, "{learner}");
            assert_eq!(got.meta.training.mistakes_per_pass, want.meta.training.mistakes_per_pass, "{learner}");
            assert!(!t.notes().is_empty(), "{learner}: gamma's derivation is said");
            // Its predictions are the saved model's, and so after a round
            // trip through the file's bytes (no learner state: it learns
            // no further).
            let (mut l1, mut s1) = (vec![0.0; 600], vec![0.0; 600]);
            t.predict_into(&rows, &mut l1, &mut s1).unwrap();
            let back = Model::decode(Path::new("m"), &got.to_bytes()).unwrap();
            let again = Trainer::resume_with(&back, opts(5)).unwrap();
            let (mut l2, mut s2) = (vec![0.0; 600], vec![0.0; 600]);
            again.predict_into(&rows, &mut l2, &mut s2).unwrap();
            assert_eq!((l1, s1), (l2, s2), "{learner}");
            let e = t.learn_passes(&rows, 1.0).unwrap_err().to_string();
            assert!(e.contains("learns from one batch"), "{learner}: {e}");
        }
    }
    // Class ids: one output per class over one support set, as `train`.
    let mut three = parsed.clone();
    three.labels.iter_mut().enumerate().for_each(|(i, y)| *y = (i % 3) as f32);
    let rows = CsrRows::try_new(three.dim as usize, &three.offsets, &three.indices, &three.values, Some(&three.labels))
        .unwrap();
    let mut t = trainer(Learner::KernelAveragedPerceptron, 123, 3, opts(1)).unwrap();
    t.learn_passes(&Rows::Csr(rows), 1.0).unwrap();
    assert_eq!(t.classes(), [0.0, 1.0, 2.0]);
}

#[test]
fn one_batch_is_train_on_the_same_rows_bit_for_bit() {
    let tmp = tempfile::tempdir().unwrap();
    let (parsed, ds) = data(tmp.path(), 2000);
    let view = ds.examples().unwrap();
    for learner in binary_learners() {
        // The default orders on both sides (chunks; sequential for the
        // batch Perceptron).
        let want = Config::new(learner).passes(3.0).seed(5).fit(&ds).unwrap();
        for rows in [Rows::View(view.clone()), Rows::Csr(csr(&parsed))] {
            let mut t = trainer(learner, 123, 2, opts(5)).unwrap();
            t.learn_passes(&rows, 3.0).unwrap();
            let got = t.model().unwrap();
            assert_eq!(got.weights, want.weights, "{learner}");
            assert_eq!(got.meta.params, want.meta.params, "{learner}");
            assert_eq!(got.state, want.state, "{learner}");
            assert_eq!(got.meta.training.mistakes_per_pass, want.meta.training.mistakes_per_pass, "{learner}");
        }
    }
}

#[test]
fn dense_rows_learn_what_the_same_sparse_rows_learn() {
    let tmp = tempfile::tempdir().unwrap();
    let (parsed, _) = data(tmp.path(), 1000);
    let d = parsed.dim as usize;
    let n = parsed.labels.len();
    let dense = dense_of(&parsed);
    let dense = DenseRows::try_new(n, d, &dense, Some(&parsed.labels)).unwrap();
    for learner in [Learner::AveragedPerceptron, Learner::Logistic, Learner::Pa1] {
        let model = |rows: Rows<'_>| {
            let mut t = trainer(learner, d, 2, opts(1)).unwrap();
            t.learn_passes(&rows, 2.0).unwrap();
            match t.model().unwrap().weights {
                Weights::Linear(m) => m,
                other => panic!("{other:?}"),
            }
        };
        let (a, b) = (model(Rows::Csr(csr(&parsed))), model(Rows::Dense(dense)));
        let scale = a.weights.iter().fold(a.bias.abs(), |m, w| m.max(w.abs()));
        for (x, y) in a.weights.iter().zip(&b.weights).chain([(&a.bias, &b.bias)]) {
            assert!((x - y).abs() <= 1e-4 * scale, "{learner}: {x} vs {y}");
        }
        // And they predict into the caller's buffers alike.
        let mut t = trainer(learner, d, 2, opts(1)).unwrap();
        t.learn_passes(&Rows::Dense(dense), 2.0).unwrap();
        let (mut l1, mut s1, mut l2, mut s2) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        t.predict_into(&Rows::Dense(dense), &mut l1, &mut s1).unwrap();
        t.predict_into(&Rows::Csr(csr(&parsed)), &mut l2, &mut s2).unwrap();
        let agree = l1.iter().zip(&l2).filter(|(a, b)| a == b).count();
        assert!(agree >= n - 2, "{learner}: {agree} of {n}");
        let right = l1.iter().zip(&parsed.labels).filter(|(a, b)| a == b).count();
        assert!(right as f64 > 0.8 * n as f64, "{learner} learned: {right} of {n}");
    }
}

/// One-vs-rest trainers share one checked batch, each with its own labels:
/// rows relabelled by `with_labels` learn what rows made with those labels
/// learn, in every form, and a label count that is not the row count is
/// refused.
#[test]
fn relabelled_rows_learn_what_rows_made_with_those_labels_learn() {
    let tmp = tempfile::tempdir().unwrap();
    let (parsed, ds) = data(tmp.path(), 1000);
    let view = ds.examples().unwrap();
    let (n, d) = (parsed.labels.len(), parsed.dim as usize);
    let flipped: Vec<f32> = parsed.labels.iter().enumerate().map(|(i, &y)| if i % 3 == 0 { -y } else { y }).collect();
    let dense = dense_of(&parsed);
    let csr_with = |l| CsrRows::try_new(d, &parsed.offsets, &parsed.indices, &parsed.values, l).unwrap();
    let flipped_view = view.with_labels(&flipped);
    let forms = [
        ("csr", Rows::Csr(csr_with(None)), Rows::Csr(csr_with(Some(&flipped)))),
        (
            "dense",
            Rows::Dense(DenseRows::try_new(n, d, &dense, Some(&parsed.labels)).unwrap()),
            Rows::Dense(DenseRows::try_new(n, d, &dense, Some(&flipped)).unwrap()),
        ),
        ("shards", Rows::View(view.clone()), Rows::View(flipped_view)),
    ];
    let model = |rows: &Rows<'_>| {
        let mut t = trainer(Learner::AveragedPerceptron, d, 2, opts(3)).unwrap();
        t.learn_passes(rows, 2.0).unwrap();
        t.model().unwrap().weights
    };
    let original = model(&Rows::Csr(csr_with(Some(&parsed.labels))));
    for (form, base, made) in &forms {
        let relabelled = base.with_labels(&flipped).unwrap();
        let got = model(&relabelled);
        assert_eq!(got, model(made), "{form}");
        assert_ne!(got, original, "{form}: the new labels are the ones learned");
        let e = base.with_labels(&flipped[1..]).unwrap_err().to_string();
        assert!(e.contains(&format!("{} labels for {n} rows", n - 1)), "{form}: {e}");
    }
}

/// Trainers that learn together from one pass over the same rows (one per
/// class) end bit for bit as each learning alone: weights, state, online
/// mistakes per pass, over two batches (one for the voted Perceptron), for
/// every binary learner (the batch
/// Perceptron, which stops at its own pass, learns alone inside), on CSR and
/// dense rows; rows that are not the same arrays learn one after another.
#[test]
fn trainers_learning_together_end_as_each_learning_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let (parsed, _) = data(tmp.path(), 1500);
    let (n, d) = (parsed.labels.len(), parsed.dim as usize);
    // Three one-vs-rest tasks over a made-up class per row.
    let class = |i: usize| (parsed.indices[parsed.offsets[i] as usize] as usize + i) % 3;
    let labels: Vec<Vec<f32>> =
        (0..3).map(|c| (0..n).map(|i| if class(i) == c { 1.0 } else { -1.0 }).collect()).collect();
    let dense = dense_of(&parsed);
    let copy = parsed.values.clone();
    for learner in binary_learners() {
        for form in ["csr", "dense", "csr, not the same arrays"] {
            let batch = |k: usize| match form {
                "csr" => Rows::Csr(
                    CsrRows::try_new(d, &parsed.offsets, &parsed.indices, &parsed.values, Some(&labels[k])).unwrap(),
                ),
                "dense" => Rows::Dense(DenseRows::try_new(n, d, &dense, Some(&labels[k])).unwrap()),
                _ => {
                    let values = if k == 1 { &copy } else { &parsed.values };
                    Rows::Csr(CsrRows::try_new(d, &parsed.offsets, &parsed.indices, values, Some(&labels[k])).unwrap())
                }
            };
            let batches: Vec<Rows<'_>> = (0..3).map(batch).collect();
            let new = || trainer(learner, d, 2, opts(9)).unwrap();
            let mut alone: Vec<Trainer> = (0..3).map(|_| new()).collect();
            let mut together: Vec<Trainer> = (0..3).map(|_| new()).collect();
            // The voted Perceptron learns from one batch only.
            let rounds: &[f64] = if learner == Learner::VotedPerceptron { &[2.0] } else { &[2.0, 1.5] };
            for &passes in rounds {
                let want: Vec<_> =
                    alone.iter_mut().zip(&batches).map(|(t, r)| t.learn_passes(r, passes).unwrap()).collect();
                let mut refs: Vec<&mut Trainer> = together.iter_mut().collect();
                let got = learn_together(&mut refs, &batches, passes).unwrap();
                // Everything but the seconds.
                let counts = |rs: &[rosenblatt::learners::TrainReport]| -> Vec<_> {
                    rs.iter()
                        .map(|r| {
                            (
                                r.separated_at,
                                r.passes.iter().map(|p| (p.examples, p.mistakes, p.updates)).collect::<Vec<_>>(),
                            )
                        })
                        .collect()
                };
                assert_eq!(counts(&got), counts(&want), "{learner}, {form}: reports");
            }
            for (a, b) in alone.iter_mut().zip(&mut together) {
                let (a, b) = (a.model().unwrap(), b.model().unwrap());
                assert_eq!(a.weights, b.weights, "{learner}, {form}");
                assert_eq!(a.state, b.state, "{learner}, {form}");
                assert_eq!(a.meta.training.mistakes_per_pass, b.meta.training.mistakes_per_pass, "{learner}, {form}");
            }
        }
    }
}

/// Linear models scoring together (each row read once for all) give each
/// model's own margins, bit for bit, row by row: on CSR, dense and shard
/// rows, over more than one block of rows, with a model narrower than the
/// rows (its missing features weigh 0).
#[test]
fn margins_together_are_each_models_margins() {
    let tmp = tempfile::tempdir().unwrap();
    let (parsed, ds) = data(tmp.path(), 9000);
    let (n, d) = (parsed.labels.len(), parsed.dim as usize);
    let view = ds.examples().unwrap();
    let dense = dense_of(&parsed);
    let forms = [
        Rows::Csr(csr(&parsed)),
        Rows::Dense(DenseRows::try_new(n, d, &dense, Some(&parsed.labels)).unwrap()),
        Rows::View(view),
    ];
    let mut trainers: Vec<Trainer> = [Learner::Perceptron, Learner::Logistic, Learner::Pa1]
        .into_iter()
        .map(|l| trainer(l, d, 2, opts(4)).unwrap())
        .collect();
    for t in &mut trainers {
        t.learn_passes(&forms[0], 1.0).unwrap();
    }
    let narrow = match trainers[1].weights() {
        Some(Weights::Linear(m)) => LinearModel { weights: m.weights[..d - 3].to_vec(), bias: m.bias },
        other => panic!("{other:?}"),
    };
    let mut models: Vec<&LinearModel> = trainers
        .iter()
        .map(|t| match t.weights() {
            Some(Weights::Linear(m)) => m,
            other => panic!("{other:?}"),
        })
        .collect();
    models.push(&narrow);
    for rows in &forms {
        let mut out = vec![0.0f32; n * models.len()];
        margins_into(&models, rows, &mut out).unwrap();
        for (c, m) in models.iter().enumerate() {
            let (mut labels, mut want) = (vec![0.0; n], vec![0.0; n]);
            predict_into(&Weights::Linear((*m).clone()), &[-1.0, 1.0], rows, &mut labels, &mut want).unwrap();
            let got: Vec<f32> = out.iter().skip(c).step_by(models.len()).copied().collect();
            assert!(got.iter().zip(&want).all(|(a, b)| a.to_bits() == b.to_bits()), "model {c}");
        }
        assert!(margins_into(&models, rows, &mut out[1..]).is_err());
    }
}

#[test]
fn batches_are_deterministic_on_any_pool_and_resume_from_a_saved_model() {
    let tmp = tempfile::tempdir().unwrap();
    let (parsed, _) = data(tmp.path(), 3000);
    let all = csr(&parsed);
    // Ten batches of 300 rows.
    let batch = |b: usize| {
        let (s, e) = (b * 300, (b + 1) * 300);
        let p = &parsed;
        let base = p.offsets[s];
        let indptr: Vec<u64> = p.offsets[s..=e].iter().map(|o| o - base).collect();
        (indptr, s, e, base as usize, p.offsets[e] as usize)
    };
    let feed = |t: &mut Trainer, batches: std::ops::Range<usize>| {
        for b in batches {
            let (indptr, s, e, lo, hi) = batch(b);
            let p = &parsed;
            let rows = CsrRows::try_new(123, &indptr, &p.indices[lo..hi], &p.values[lo..hi], Some(&p.labels[s..e]));
            // Batch 1 takes two passes: batches, not passes, draw orders.
            t.learn_passes(&Rows::Csr(rows.unwrap()), if b == 1 { 2.0 } else { 1.0 }).unwrap();
        }
    };
    for (learner, parts) in [(Learner::Logistic, 1), (Learner::AveragedPerceptron, 3), (Learner::FtrlProximal, 1)] {
        let o = TrainerOptions { parts, mixing: Mixing::Uniform, ..opts(9) };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let mut t = trainer(learner, 123, 2, o).unwrap();
                feed(&mut t, 0..10);
                t.model().unwrap()
            })
        };
        let whole = run(1);
        assert_eq!(whole.weights, run(2).weights, "{learner}: another pool, other bits");
        assert_eq!(whole.meta.training.examples, 3000);
        // 4 batches, saved to a file, loaded, and 6 more: the same model.
        let mut t = trainer(learner, 123, 2, o).unwrap();
        feed(&mut t, 0..4);
        let path = tmp.path().join(format!("{learner}.model"));
        t.model().unwrap().save(&path).unwrap();
        let mut r = Trainer::resume_with(&Model::load(&path).unwrap(), o).unwrap();
        // It predicts at once, as the trainer it was saved from.
        let n = parsed.labels.len();
        let predict = |t: &Trainer| {
            let (mut l, mut s) = (vec![0.0; n], vec![0.0; n]);
            t.predict_into(&Rows::Csr(all), &mut l, &mut s).unwrap();
            (l, s)
        };
        assert_eq!(predict(&r), predict(&t), "{learner}");
        feed(&mut r, 4..10);
        let resumed = r.model().unwrap();
        assert_eq!(resumed.weights, whole.weights, "{learner}: resumed");
        assert_eq!(resumed.state, whole.state, "{learner}: resumed state");
        // Batches are not one big batch: each has its own order.
        let mut one = trainer(learner, 123, 2, o).unwrap();
        one.learn_passes(&Rows::Csr(all), 1.0).unwrap();
        assert_ne!(one.model().unwrap().weights, whole.weights, "{learner}");
    }
}

#[test]
fn data_derived_defaults_come_from_the_first_batch_and_survive_a_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let (parsed, _) = data(tmp.path(), 500);
    let mut t = trainer(Learner::Pa, 123, 2, opts(0)).unwrap();
    t.learn_passes(&Rows::Csr(csr(&parsed)), 1.0).unwrap();
    assert!(t.notes().iter().any(|n| n.contains("R = max ‖x‖")), "{:?}", t.notes());
    let m = t.model().unwrap();
    // Every row of this set has 14 ones: R = √14.
    assert_eq!(m.meta.params.get("bias_input"), Some(&14f64.sqrt()));
    let mut r = Trainer::resume_with(&m, opts(0)).unwrap();
    // A batch of rows ten times larger does not change the recorded R.
    let big: Vec<f32> = parsed.values.iter().map(|v| v * 10.0).collect();
    let rows = CsrRows::try_new(123, &parsed.offsets, &parsed.indices, &big, Some(&parsed.labels)).unwrap();
    r.learn_passes(&Rows::Csr(rows), 1.0).unwrap();
    assert_eq!(r.model().unwrap().meta.params, m.meta.params);
}

#[test]
fn multiclass_learners_take_class_ids_and_binary_ones_refuse_them() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut parsed, _) = data(tmp.path(), 900);
    for i in 0..parsed.labels.len() {
        parsed.labels[i] = (parsed.indices[parsed.offsets[i] as usize] % 3) as f32;
    }
    let mut t = trainer(Learner::MulticlassAveragedPerceptron, 123, 3, opts(2)).unwrap();
    t.learn_passes(&Rows::Csr(csr(&parsed)), 5.0).unwrap();
    let n = parsed.labels.len();
    let (mut labels, mut scores) = (vec![0.0; n], vec![0.0; n]);
    t.predict_into(&Rows::Csr(csr(&parsed)), &mut labels, &mut scores).unwrap();
    // The class is the first attribute's value mod 3: learnable exactly.
    let right = labels.iter().zip(&parsed.labels).filter(|(a, b)| a == b).count();
    assert!(right as f64 > 0.95 * n as f64, "{right} of {n}");
    let e = trainer(Learner::Logistic, 123, 3, opts(0)).unwrap_err().to_string();
    assert!(e.contains("binary") && e.contains("3 classes"), "{e}");
    let mut b = trainer(Learner::Logistic, 123, 2, opts(0)).unwrap();
    let e = b.learn_passes(&Rows::Csr(csr(&parsed)), 1.0).unwrap_err().to_string();
    assert!(e.contains("label 0 is not ±1") || e.contains("label 2 is not ±1"), "{e}");
}

#[test]
fn bad_rows_and_requests_are_refused_with_what_and_where() {
    let e = |r: Result<CsrRows<'_>, rosenblatt::Error>| r.unwrap_err().to_string();
    let y = [1.0f32, -1.0];
    assert!(e(CsrRows::try_new(5, &[0, 2, 3], &[3, 1, 0], &[1.0; 3], Some(&y))).contains("row 0"));
    assert!(e(CsrRows::try_new(5, &[0, 2, 3], &[1, 1, 0], &[1.0; 3], Some(&y))).contains("row 0"));
    let out = e(CsrRows::try_new(5, &[0, 1, 3], &[1, 2, 5], &[1.0; 3], Some(&y)));
    assert!(out.contains("row 1") && out.contains('5'), "{out}");
    let nan = e(CsrRows::try_new(5, &[0, 1, 3], &[1, 2, 4], &[1.0, 1.0, f32::NAN], Some(&y)));
    assert!(nan.contains("row 1") && nan.contains("NaN"), "{nan}");
    assert!(e(CsrRows::try_new(5, &[0, 2, 1, 3], &[1, 2, 4], &[1.0; 3], None)).contains("row 1: indptr decreases"));
    assert!(e(CsrRows::try_new(5, &[1, 2, 3], &[1, 2, 4], &[1.0; 3], Some(&y))).contains("indptr[0]"));
    assert!(e(CsrRows::try_new(5, &[0, 1, 4], &[1, 2, 4], &[1.0; 3], Some(&y))).contains("indptr ends at 4"));
    assert!(e(CsrRows::try_new(5, &[0, 1, 3], &[1, 2, 4], &[1.0; 3], Some(&y[..1]))).contains("1 labels for 2 rows"));
    assert!(e(CsrRows::try_new(5, &[], &[], &[], None)).contains("indptr is empty"));
    let past = e(CsrRows::try_new(5, &[0, 5, 3], &[1, 2, 4], &[1.0; 3], None));
    assert!(past.contains("row 0: indptr[1] is 5, past the 3 indices"), "{past}");
    let d = DenseRows::try_new(2, 2, &[1.0, f32::INFINITY, 0.0, 1.0], None).unwrap_err().to_string();
    assert!(d.contains("row 0, column 1") && d.contains("inf"), "{d}");
    assert!(DenseRows::try_new(2, 3, &[1.0; 5], None).unwrap_err().to_string().contains("5 values for 2 rows of 3"));

    let rows = CsrRows::try_new(5, &[0, 1, 3], &[1, 2, 4], &[1.0; 3], Some(&y)).unwrap();
    let mut t = trainer(Learner::Perceptron, 3, 2, opts(0)).unwrap();
    let wide = t.learn_passes(&Rows::Csr(rows), 1.0).unwrap_err().to_string();
    assert!(wide.contains("5 features") && wide.contains('3'), "{wide}");
    let mut t = trainer(Learner::Perceptron, 5, 2, opts(0)).unwrap();
    assert!(t.model().unwrap_err().to_string().contains("no batch"));
    assert!(t.learn_passes(&Rows::Csr(rows), 0.0).unwrap_err().to_string().contains("passes = 0"));
    // A hyper-parameter the learner does not take is refused before any row.
    let e = Config::perceptron().lambda(1.0).trainer(5, Labels::Binary).unwrap_err().to_string();
    assert!(e.contains("lambda"), "{e}");
    let mut v = trainer(Learner::VotedPerceptron, 5, 2, opts(0)).unwrap();
    v.learn_passes(&Rows::Csr(rows), 1.0).unwrap();
    assert!(v.learn_passes(&Rows::Csr(rows), 1.0).unwrap_err().to_string().contains("one batch"));
    let e = trainer(Learner::Winnow, 5, 2, TrainerOptions { parts: 2, ..opts(0) });
    assert!(e.unwrap_err().to_string().contains("one part"));
}

/// The check runs over all rows at once in blocks spread over the pool, and
/// searches row by row only when that fails: on rows of every length
/// (empty ones too) that cross the blocks, each single fault — wherever it
/// falls, at a block's edge or a row's — is found and named by its row,
/// and a row starting below where the row before it ended is no fault.
#[test]
fn a_csr_batch_is_checked_everywhere_and_the_fault_named() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: u64| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % n
    };
    let dim = 1000u32;
    let (mut indptr, mut indices) = (vec![0u64], Vec::new());
    while indices.len() < 400_000 {
        let len = [0, 1, 2, 7, 300][next(5) as usize];
        let mut row: Vec<u32> = (0..len).map(|_| next(u64::from(dim)) as u32).collect();
        row.sort_unstable();
        row.dedup();
        indices.extend(row);
        indptr.push(indices.len() as u64);
    }
    let values: Vec<f32> = (0..indices.len()).map(|k| k as f32 - 1000.0).collect();
    let rows = indptr.len() - 1;
    let row_of = |k: usize| indptr.partition_point(|&p| p <= k as u64) - 1;
    assert!(CsrRows::try_new(dim as usize, &indptr, &indices, &values, None).is_ok());
    assert!((1..rows).any(|i| indptr[i] > 0
        && indptr[i] < indptr[i + 1]
        && indices[indptr[i] as usize - 1] >= indices[indptr[i] as usize]));

    let block = 1usize << 17;
    let mut places = vec![0, 1, indices.len() - 1];
    for b in [block, 2 * block, 3 * block] {
        places.extend([b - 1, b, b + 1]);
    }
    places.extend((0..200).map(|_| next(indices.len() as u64) as usize));
    let e = |r: Result<CsrRows<'_>, rosenblatt::Error>| r.unwrap_err().to_string();
    for k in places {
        let row = format!("row {}:", row_of(k));
        let (mut bad, mut nan) = (indices.clone(), values.clone());
        nan[k] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][k % 3];
        let msg = e(CsrRows::try_new(dim as usize, &indptr, &indices, &nan, None));
        assert!(msg.starts_with(&row), "{k}: {msg}");
        bad[k] = dim;
        let msg = e(CsrRows::try_new(dim as usize, &indptr, &bad, &values, None));
        assert!(msg.starts_with(&row), "{k}: {msg}");
        let first = indptr[row_of(k)] as usize == k;
        if !first {
            bad[k] = bad[k - 1];
            let msg = e(CsrRows::try_new(dim as usize, &indptr, &bad, &values, None));
            assert!(msg.starts_with(&row) && msg.contains("increas"), "{k}: {msg}");
        }
    }
}
