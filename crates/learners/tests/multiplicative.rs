//! Winnow and exponentiated gradient against plain f64 implementations, and
//! Winnow against its mistake bound.

use rosenblatt_kernels::{Examples, Row};
use rosenblatt_learners::{
    EgForm, ExponentiatedGradient, InMemoryExamples, LearnError, Loss, OnlineLearner, Order, TrainOptions, Winnow,
    train,
};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Binary rows over `d` variables labelled by the disjunction of the first
/// `k` variables of a random permutation (returned).
fn disjunction(n: usize, d: usize, k: usize, density: f64, seed: u64) -> InMemoryExamples {
    let mut r = Rng(seed | 1);
    let mut relevant: Vec<usize> = (0..d).collect();
    for i in (1..d).rev() {
        relevant.swap(i, (r.next() % (i as u64 + 1)) as usize);
    }
    relevant.truncate(k);
    let mut data = InMemoryExamples::new(d);
    for _ in 0..n {
        let x: Vec<f32> = (0..d).map(|_| if r.unit() < density { 1.0 } else { 0.0 }).collect();
        let y = if relevant.iter().any(|&i| x[i] == 1.0) { 1.0 } else { -1.0 };
        data.push_dense(&x, y).unwrap();
    }
    data
}

fn seq(passes: f64) -> TrainOptions {
    TrainOptions { passes, order: Order::Sequential, seed: 0, stop_when_separated: false, first_pass: 0 }
}

fn rows(data: &InMemoryExamples) -> Vec<(Vec<f64>, f64)> {
    let d = &data;
    (0..d.len())
        .map(|i| {
            let r = d.row(i);
            let mut x = vec![0.0; d.dim()];
            (0..r.nnz()).for_each(|k| x[r.entry(k).0] = f64::from(r.entry(k).1));
            (x, f64::from(d.label(i)))
        })
        .collect()
}

#[test]
fn winnow_matches_the_f64_reference_and_its_mistake_bound() {
    for (seed, d, k) in [(1u64, 100usize, 3usize), (2, 500, 5), (3, 1000, 1), (4, 2000, 8)] {
        let data = disjunction(3000, d, k, 3.0 / d as f64 + 0.002, seed);
        // Reference: weights as plain f64 (powers of two stay exact).
        let (mut w, mut mistakes) = (vec![1.0f64; d], 0u64);
        for (x, y) in rows(&data) {
            let s: f64 = w.iter().zip(&x).map(|(a, b)| a * b).sum();
            let pred = if s >= d as f64 { 1.0 } else { -1.0 };
            if pred != y {
                mistakes += 1;
                w.iter_mut()
                    .zip(&x)
                    .filter(|e| *e.1 == 1.0)
                    .for_each(|(a, _)| *a = if y > 0.0 { *a * 2.0 } else { *a / 2.0 });
            }
        }
        let mut l = Winnow::new(d, 2.0, d as f64).unwrap();
        let report = train(&mut l, &&data, &seq(1.0)).unwrap();
        assert_eq!(report.mistakes(), mistakes, "d = {d}");
        let m = l.model();
        assert!(m.weights.iter().zip(&w).all(|(a, b)| f64::from(*a) == *b));
        // Littlestone: at most 2 + 3k(1 + log₂ d) mistakes on a k-literal
        // monotone disjunction.
        let bound = 2.0 + 3.0 * k as f64 * (1.0 + (d as f64).log2());
        assert!(mistakes as f64 <= bound, "{mistakes} > {bound} (d = {d}, k = {k})");
    }
}

#[test]
fn winnow_needs_binary_features() {
    let mut data = InMemoryExamples::new(3);
    data.push(&[0, 2], &[1.0, 0.5], 1.0).unwrap();
    let mut l = Winnow::new(3, 2.0, 3.0).unwrap();
    let e = train(&mut l, &&data, &seq(1.0)).unwrap_err();
    assert!(matches!(e, LearnError::Parameter { name: "feature value", .. }), "{e}");
    assert!(Winnow::new(3, 1.0, 3.0).is_err() && Winnow::new(3, 2.0, 0.0).is_err());
}

#[test]
fn winnow_reads_stored_zeros_as_inactive() {
    // A dense encoding stores every zero: Winnow must neither sum nor
    // promote those weights. The same rows with their zeros stored and
    // without give the same model.
    let sparse = disjunction(2000, 60, 3, 0.05, 9);
    let mut dense = InMemoryExamples::new(60);
    for (x, y) in rows(&sparse) {
        let v: Vec<f32> = x.iter().map(|&a| a as f32).collect();
        let all: Vec<u32> = (0..60).collect();
        dense.push(&all, &v, y as f32).unwrap();
    }
    let run = |data: &InMemoryExamples| {
        let mut l = Winnow::new(60, 1.5, 60.0).unwrap();
        let r = train(&mut l, &data, &seq(2.0)).unwrap();
        (r.mistakes(), l.model())
    };
    let (a, b) = (run(&sparse), run(&dense));
    assert!(a.0 > 0);
    assert_eq!(a, b);
}

/// f64 EG with explicit weights, normalised every step.
fn eg_reference(rows: &[(Vec<f64>, f64)], form: EgForm, eta: f64, loss: Loss, passes: usize) -> (Vec<f64>, u64) {
    weighted_eg_reference(rows, &vec![1.0; rows.len()], form, eta, loss, passes)
}

/// [`eg_reference`] with row `i`'s exponent scaled by `h[i]` (rows of
/// weight 0 not steps).
fn weighted_eg_reference(
    rows: &[(Vec<f64>, f64)],
    h: &[f64],
    form: EgForm,
    eta: f64,
    loss: Loss,
    passes: usize,
) -> (Vec<f64>, u64) {
    let d = rows[0].0.len();
    let mut theta = vec![0.0f64; d];
    let weights = |theta: &[f64]| -> Vec<f64> {
        match form {
            EgForm::Unnormalized { w0 } => theta.iter().map(|t| w0 * t.exp()).collect(),
            EgForm::Simplex { b } => {
                let z: f64 = theta.iter().map(|t| t.exp()).sum();
                theta.iter().map(|t| b * t.exp() / z).collect()
            }
            EgForm::PlusMinus { b } => {
                let z: f64 = theta.iter().map(|t| t.exp() + (-t).exp()).sum();
                theta.iter().map(|t| b * (t.exp() - (-t).exp()) / z).collect()
            }
        }
    };
    let mut updates = 0;
    for _ in 0..passes {
        for ((x, y), &h) in rows.iter().zip(h) {
            if h == 0.0 {
                continue;
            }
            let w = weights(&theta);
            let ym = y * w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>();
            let g = f64::from(loss.gradient_factor(ym as f32)) * h;
            if g != 0.0 {
                updates += 1;
                theta.iter_mut().zip(x).for_each(|(t, xi)| *t += eta * g * y * xi);
            }
        }
    }
    (weights(&theta), updates)
}

fn signed_data(n: usize, d: usize, seed: u64) -> InMemoryExamples {
    let mut r = Rng(seed | 1);
    let u: Vec<f64> = (0..d).map(|i| if i < 3 { 1.0 - 2.0 * (i % 2) as f64 } else { 0.0 }).collect();
    let mut data = InMemoryExamples::new(d);
    for _ in 0..n {
        let x: Vec<f32> = (0..d).map(|_| if r.unit() < 0.5 { (r.unit() * 2.0 - 1.0) as f32 } else { 0.0 }).collect();
        let m: f64 = x.iter().zip(&u).map(|(a, b)| f64::from(*a) * b).sum();
        data.push_dense(&x, if m > 0.0 { 1.0 } else { -1.0 }).unwrap();
    }
    data
}

#[test]
fn exponentiated_gradient_matches_the_f64_reference() {
    let data = signed_data(500, 12, 5);
    let rs = rows(&data);
    for form in [EgForm::Unnormalized { w0: 0.1 }, EgForm::Simplex { b: 3.0 }, EgForm::PlusMinus { b: 4.0 }] {
        for loss in [Loss::Hinge, Loss::Perceptron, Loss::Logistic] {
            let (w, updates) = eg_reference(&rs, form, 0.3, loss, 3);
            let mut l = ExponentiatedGradient::new(12, form, 0.3, loss).unwrap();
            let report = train(&mut l, &&data, &seq(3.0)).unwrap();
            assert_eq!(report.updates(), updates, "{form:?} {loss:?}");
            let m = l.model();
            let scale = w.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            for (a, b) in m.weights.iter().zip(&w) {
                assert!((f64::from(*a) - b).abs() <= 1e-5 * (1.0 + scale), "{form:?} {loss:?}: {a} vs {b}");
            }
        }
    }
}

#[test]
fn weighted_eg_and_winnow_match_the_f64_references() {
    let data = signed_data(500, 12, 6);
    let rs = rows(&data);
    let h: Vec<f64> = (0..rs.len()).map(|i| [1.0, 0.5, 2.0, 0.0, 3.0][i % 5]).collect();
    let h32: Vec<f32> = h.iter().map(|&v| v as f32).collect();
    let weighted = rosenblatt_learners::Weighted::new(&data, &h32).unwrap();
    for form in [EgForm::Unnormalized { w0: 0.1 }, EgForm::Simplex { b: 3.0 }, EgForm::PlusMinus { b: 4.0 }] {
        let (w, updates) = weighted_eg_reference(&rs, &h, form, 0.3, Loss::Hinge, 3);
        let mut l = ExponentiatedGradient::new(12, form, 0.3, Loss::Hinge).unwrap();
        let report = train(&mut l, &weighted, &seq(3.0)).unwrap();
        assert_eq!(report.updates(), updates, "{form:?}");
        let scale = w.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        for (a, b) in l.model().weights.iter().zip(&w) {
            assert!((f64::from(*a) - b).abs() <= 1e-5 * (1.0 + scale), "{form:?}: {a} vs {b}");
        }
    }
    // Winnow: promotion α^h, demotion α^-h.
    let (d, alpha) = (200usize, 1.5f64);
    let data = disjunction(2000, d, 3, 0.02, 9);
    let h: Vec<f64> = (0..data.len()).map(|i| [1.0, 0.5, 2.0, 0.0, 3.0][i % 5]).collect();
    let h32: Vec<f32> = h.iter().map(|&v| v as f32).collect();
    let mut w = vec![1.0f64; d];
    for ((x, y), &h) in rows(&data).iter().zip(&h) {
        let s: f64 = w.iter().zip(x).map(|(a, b)| a * b).sum();
        if h != 0.0 && (s >= d as f64) != (*y > 0.0) {
            let f = if *y > 0.0 { alpha.powf(h) } else { alpha.powf(-h) };
            w.iter_mut().zip(x).filter(|e| *e.1 == 1.0).for_each(|(a, _)| *a *= f);
        }
    }
    let mut l = Winnow::new(d, alpha, d as f64).unwrap();
    train(&mut l, &rosenblatt_learners::Weighted::new(&data, &h32).unwrap(), &seq(1.0)).unwrap();
    for (a, b) in l.model().weights.iter().zip(&w) {
        assert!((f64::from(*a) - b).abs() <= 1e-5 * b, "{a} vs {b}");
    }
}

#[test]
fn exponentiated_gradient_with_a_bias_is_eg_on_the_lifted_rows() {
    // The bias is coordinates of constant input c: (x, c) for EG±, (x, c,
    // −c) for the positive forms. The reference runs on those rows.
    let data = signed_data(400, 10, 7);
    let c = 0.75;
    for form in [EgForm::Unnormalized { w0: 0.1 }, EgForm::Simplex { b: 3.0 }, EgForm::PlusMinus { b: 4.0 }] {
        let extra: &[f64] = if matches!(form, EgForm::PlusMinus { .. }) { &[c] } else { &[c, -c] };
        let lifted: Vec<(Vec<f64>, f64)> = rows(&data)
            .into_iter()
            .map(|(mut x, y)| {
                x.extend_from_slice(extra);
                (x, y)
            })
            .collect();
        let (w, updates) = eg_reference(&lifted, form, 0.3, Loss::Hinge, 2);
        let mut l = ExponentiatedGradient::new(10, form, 0.3, Loss::Hinge).unwrap().with_bias(c).unwrap();
        let report = train(&mut l, &&data, &seq(2.0)).unwrap();
        assert_eq!(report.updates(), updates, "{form:?}");
        let m = l.model();
        assert_eq!(m.weights.len(), 10);
        let scale = w.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        for (a, b) in m.weights.iter().zip(&w) {
            assert!((f64::from(*a) - b).abs() <= 1e-5 * (1.0 + scale), "{form:?}: {a} vs {b}");
        }
        let bias: f64 = w[10..].iter().zip(extra).map(|(a, b)| a * b).sum();
        assert!(bias.abs() > 1e-3, "{form:?}: the bias moved");
        assert!((f64::from(m.bias) - bias).abs() <= 1e-5 * (1.0 + scale), "{form:?}: bias {} vs {bias}", m.bias);
    }
    assert!(
        ExponentiatedGradient::new(4, EgForm::PlusMinus { b: 1.0 }, 0.1, Loss::Hinge).unwrap().with_bias(0.0).is_err()
    );
}

#[test]
fn ten_million_updates_neither_overflow_nor_underflow() {
    // A large step on noisy data: exponents drift far beyond what e^x can
    // hold in f64, and the normalised forms must stay on their simplex.
    let data = signed_data(64, 8, 6);
    for form in [EgForm::Simplex { b: 2.0 }, EgForm::PlusMinus { b: 2.0 }] {
        let mut l = ExponentiatedGradient::new(8, form, 5.0, Loss::Hinge).unwrap();
        let opts = TrainOptions {
            passes: 160_000.0,
            order: Order::Shuffle,
            seed: 1,
            stop_when_separated: false,
            first_pass: 0,
        };
        let report = train(&mut l, &&data, &opts).unwrap();
        assert!(report.updates() >= 1_000_000, "{} updates", report.updates());
        let m = l.model();
        assert!(m.weights.iter().all(|w| w.is_finite()), "{form:?}: {:?}", m.weights);
        let l1: f64 = m.weights.iter().map(|w| f64::from(w.abs())).sum();
        match form {
            EgForm::Simplex { b } => assert!((l1 - b).abs() < 1e-4 * b, "{l1}"),
            _ => assert!(l1 <= 2.0 * (1.0 + 1e-5), "{l1}"),
        }
        let d = &data;
        assert!((0..d.len()).all(|i| l.margin(&d.row(i)).is_finite()));
    }
}
