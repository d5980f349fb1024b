//! Multi-class learners against plain f64 implementations.

mod common;
use common::{Spy, seq};
use rosenblatt_kernels::{Examples, Row};
use rosenblatt_learners::{
    InMemoryExamples, LearnError, LinearModel, MulticlassPerceptron, OneVsRest, OnlineLearner, Order, Perceptron,
    PerceptronParams, TrainOptions, combine, one_vs_rest, train,
};

fn generate(n: usize, dim: usize, k: usize, seed: u64) -> InMemoryExamples {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let u: Vec<Vec<f64>> = (0..k).map(|_| (0..dim).map(|_| next()).collect()).collect();
    let mut data = InMemoryExamples::new(dim);
    for _ in 0..n {
        let x: Vec<f32> = (0..dim).map(|_| if next() > 0.3 { next() as f32 } else { 0.0 }).collect();
        let scores: Vec<f64> = u.iter().map(|uc| uc.iter().zip(&x).map(|(a, b)| a * f64::from(*b)).sum()).collect();
        // Some label noise: every 10th example gets the runner-up class.
        let mut order: Vec<usize> = (0..k).collect();
        order.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]));
        let y = if data.len().is_multiple_of(10) { order[1] } else { order[0] };
        data.push_dense(&x, y as f32).unwrap();
    }
    data
}

/// Mistakes, final weights and bias, averaged weights and bias.
type Reference = (Vec<usize>, Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>);

/// f64 multi-class Perceptron, sequential, each update scaled by the row's
/// importance (rows of weight 0 not steps).
fn reference<E: Examples>(data: &E, k: usize, passes: usize) -> Reference {
    let d = data.dim();
    let (mut w, mut b) = (vec![0.0; k * d], vec![0.0; k]);
    let (mut sw, mut sb) = (vec![0.0; k * d], vec![0.0; k]);
    let mut mistakes = Vec::new();
    let mut steps = 0.0;
    for _ in 0..passes {
        for i in 0..data.len() {
            let h = f64::from(data.weight(i));
            if h == 0.0 {
                continue;
            }
            let r = data.row(i);
            let mut x = vec![0.0; d];
            for e in 0..r.nnz() {
                let (j, v) = r.entry(e);
                x[j] = f64::from(v);
            }
            let s: Vec<f64> = (0..k).map(|c| (0..d).map(|j| w[c * d + j] * x[j]).sum::<f64>() + b[c]).collect();
            let pred = (0..k).fold(0, |best, c| if s[c] > s[best] { c } else { best });
            let y = data.label(i) as usize;
            if pred != y {
                mistakes.push(i);
                for j in 0..d {
                    w[y * d + j] += h * x[j];
                    w[pred * d + j] -= h * x[j];
                }
                b[y] += h;
                b[pred] -= h;
            }
            sw.iter_mut().zip(&w).for_each(|(a, v)| *a += v);
            sb.iter_mut().zip(&b).for_each(|(a, v)| *a += v);
            steps += 1.0;
        }
    }
    (mistakes, w, b, sw.iter().map(|v| v / steps).collect(), sb.iter().map(|v| v / steps).collect())
}

fn assert_close(got: &[f32], want: &[f64]) {
    let scale = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for (g, w) in got.iter().zip(want) {
        assert!((f64::from(*g) - w).abs() <= 1e-4 * (1.0 + scale), "{g} vs {w}");
    }
}

#[test]
fn multiclass_perceptron_matches_the_f64_reference() {
    // 10 classes, so scoring runs the eight-class kernel and the remainder.
    let data = generate(600, 24, 10, 1);
    let (mistakes, w, b, aw, ab) = reference(&&data, 10, 3);
    let mut plain = Spy::new(MulticlassPerceptron::new(24, 10, PerceptronParams::default(), None).unwrap());
    train(&mut plain, &&data, &seq(3.0)).unwrap();
    assert_eq!(plain.mistakes, mistakes);
    let m = plain.model();
    assert_close(&m.weights, &w);
    assert_close(&m.bias, &b);
    let mut avg = MulticlassPerceptron::new(24, 10, PerceptronParams::default(), Some(false)).unwrap();
    train(&mut avg, &&data, &seq(3.0)).unwrap();
    let m = avg.model();
    assert_close(&m.weights, &aw);
    assert_close(&m.bias, &ab);
    // Averaging helps on noisy labels (and the model classifies most rows).
    assert!(m.error_rate(&&data) < 0.35, "{}", m.error_rate(&&data));
}

#[test]
fn weighted_multiclass_perceptrons_match_the_f64_reference() {
    let data = generate(600, 24, 5, 2);
    let h: Vec<f32> = (0..data.len()).map(|i| [1.0, 0.5, 2.0, 0.0, 3.0][i % 5]).collect();
    let weighted = rosenblatt_learners::Weighted::new(&data, &h).unwrap();
    let (_, w, b, aw, ab) = reference(&weighted, 5, 3);
    for (average, (w, b)) in [(None, (&w, &b)), (Some(false), (&aw, &ab))] {
        let mut l = MulticlassPerceptron::new(24, 5, PerceptronParams::default(), average).unwrap();
        train(&mut l, &weighted, &seq(3.0)).unwrap();
        let m = l.model();
        assert_close(&m.weights, w);
        assert_close(&m.bias, b);
    }
}

#[test]
fn one_vs_rest_equals_separate_binary_runs() {
    let data = generate(400, 16, 4, 2);
    let opts = TrainOptions { passes: 2.0, order: Order::Shuffle, seed: 7, stop_when_separated: false, first_pass: 0 };
    let models = one_vs_rest(&&data, 4, |_| Perceptron::new(16, PerceptronParams::default()), &opts).unwrap();
    assert_eq!(models.len(), 4);
    let d = &data;
    for (c, (model, report)) in models.iter().enumerate() {
        let mut l = Perceptron::new(16, PerceptronParams::default()).unwrap();
        let r = train(&mut l, &OneVsRest { data: &d, class: c as f32 }, &opts).unwrap();
        assert_eq!(&l.model(), model, "class {c}");
        assert_eq!(r.mistakes(), report.mistakes());
    }
    let linear: Vec<LinearModel> = models.into_iter().map(|(m, _)| m).collect();
    let mc = combine(&linear);
    assert_eq!((mc.classes(), mc.dim), (4, 16));
    // The combined model predicts the class whose binary margin is highest.
    for i in 0..d.len() {
        let x = d.row(i);
        let best = (0..4).fold(0, |b, c| if linear[c].margin(&x) > linear[b].margin(&x) { c } else { b });
        assert_eq!(mc.predict(&x), best);
    }
}

#[test]
fn labels_must_be_classes() {
    let mut data = InMemoryExamples::new(3);
    data.push(&[0], &[1.0], 0.0).unwrap();
    data.push(&[1], &[1.0], 2.5).unwrap();
    let mut l = MulticlassPerceptron::new(3, 3, PerceptronParams::default(), None).unwrap();
    assert_eq!(
        train(&mut l, &&data, &seq(1.0)).unwrap_err(),
        LearnError::NotAClass { index: 1, label: 2.5, classes: 3 }
    );
    assert!(MulticlassPerceptron::new(3, 1, PerceptronParams::default(), None).is_err());
    let e = one_vs_rest(&&data, 2, |_| Perceptron::new(3, PerceptronParams::default()), &seq(1.0)).unwrap_err();
    assert!(matches!(e, LearnError::NotAClass { .. }));
}
