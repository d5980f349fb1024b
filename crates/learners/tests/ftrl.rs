//! FTRL-Proximal against a plain f64 implementation; the randomised FTRL
//! classifier against its expected-regret bound and, with importance
//! weights, against a plain f64 implementation.

use rosenblatt_kernels::{Examples, Row};
use rosenblatt_learners::{
    Bias, FtrlParams, FtrlProximal, InMemoryExamples, Loss, OnlineLearner, Order, RandomizedFtrl, TrainOptions,
    Weighted, max_norm, train,
};

fn generate(n: usize, dim: usize, active: usize, noise: f64, seed: u64) -> InMemoryExamples {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    // Only the first `active` features are ever non-zero.
    let u: Vec<f64> = (0..dim).map(|_| next() * 2.0 - 1.0).collect();
    let mut data = InMemoryExamples::new(dim);
    for _ in 0..n {
        let x: Vec<f32> =
            (0..dim).map(|i| if i < active && next() < 0.5 { (next() * 4.0 - 2.0) as f32 } else { 0.0 }).collect();
        let m: f64 = x.iter().zip(&u).map(|(a, b)| f64::from(*a) * b).sum();
        data.push_dense(&x, if (m > 0.0) != (next() < noise) { 1.0 } else { -1.0 }).unwrap();
    }
    data
}

fn seq(passes: f64) -> TrainOptions {
    TrainOptions { passes, order: Order::Sequential, seed: 0, stop_when_separated: false, first_pass: 0 }
}

/// f64 FTRL-Proximal (bias as a constant feature without L1/L2), each
/// row's gradient scaled by its importance (rows of weight 0 not steps).
fn reference<E: Examples>(data: &E, p: &FtrlParams, passes: usize) -> (Vec<f64>, f64) {
    let d = data.dim() + 1;
    let (mut z, mut n) = (vec![0.0f64; d], vec![0.0f64; d]);
    let w = |z: f64, n: f64, reg: bool| {
        let (l1, l2) = if reg { (p.l1, p.l2) } else { (0.0, 0.0) };
        if z.abs() <= l1 { 0.0 } else { -(z - z.signum() * l1) / ((p.beta + n.sqrt()) / p.alpha + l2) }
    };
    for _ in 0..passes {
        for i in 0..data.len() {
            let h = f64::from(data.weight(i));
            if h == 0.0 {
                continue;
            }
            let r = data.row(i);
            let mut x: Vec<(usize, f64)> = (0..r.nnz()).map(|k| (r.entry(k).0, f64::from(r.entry(k).1))).collect();
            x.push((d - 1, 1.0));
            let m: f64 = x.iter().map(|&(j, v)| w(z[j], n[j], j != d - 1) * v).sum();
            let y = f64::from(data.label(i));
            let gm = -y / (1.0 + (y * m).exp()) * h;
            for &(j, v) in &x {
                let g = gm * v;
                let wj = w(z[j], n[j], j != d - 1);
                let sigma = ((n[j] + g * g).sqrt() - n[j].sqrt()) / p.alpha;
                z[j] += g - sigma * wj;
                n[j] += g * g;
            }
        }
    }
    ((0..d - 1).map(|j| w(z[j], n[j], true)).collect(), w(z[d - 1], n[d - 1], false))
}

#[test]
fn ftrl_proximal_matches_the_f64_reference() {
    let data = generate(600, 40, 25, 0.1, 1);
    for (l1, l2) in [(0.0, 0.0), (1.0, 1.0), (5.0, 0.1)] {
        let p = FtrlParams { alpha: 0.3, beta: 1.0, l1, l2, loss: Loss::Logistic, bias: Bias::Explicit };
        let (w, b) = reference(&&data, &p, 3);
        let mut l = FtrlProximal::new(40, p).unwrap();
        train(&mut l, &&data, &seq(3.0)).unwrap();
        let m = l.model();
        for (a, r) in m.weights.iter().zip(&w) {
            assert!((f64::from(*a) - r).abs() < 1e-5 * (1.0 + r.abs()), "l1 {l1}: {a} vs {r}");
            assert_eq!(*a == 0.0, *r == 0.0, "zeros agree");
        }
        assert!((f64::from(m.bias) - b).abs() < 1e-5 * (1.0 + b.abs()));
        // Features never seen (25..40) keep weight exactly zero.
        assert!(m.weights[25..].iter().all(|&v| v == 0.0));
    }
}

#[test]
fn weighted_ftrl_proximal_matches_the_f64_reference() {
    let data = generate(600, 40, 25, 0.1, 3);
    let h: Vec<f32> = (0..data.len()).map(|i| [1.0, 0.5, 2.0, 0.0, 3.0][i % 5]).collect();
    let weighted = Weighted::new(&data, &h).unwrap();
    let p = FtrlParams { alpha: 0.3, beta: 1.0, l1: 1.0, l2: 0.5, loss: Loss::Logistic, bias: Bias::Explicit };
    let (w, b) = reference(&weighted, &p, 3);
    let mut l = FtrlProximal::new(40, p).unwrap();
    train(&mut l, &weighted, &seq(3.0)).unwrap();
    let m = l.model();
    for (a, r) in m.weights.iter().zip(&w) {
        assert!((f64::from(*a) - r).abs() < 1e-5 * (1.0 + r.abs()), "{a} vs {r}");
    }
    assert!((f64::from(m.bias) - b).abs() < 1e-5 * (1.0 + b.abs()));
    // The weights changed the model.
    let (unweighted, _) = reference(&&data, &p, 3);
    assert!(unweighted.iter().zip(&w).any(|(a, b)| (a - b).abs() > 1e-3));
}

#[test]
fn l1_makes_ftrl_sparse_and_logistic_loss_falls() {
    let data = generate(3000, 60, 60, 0.05, 2);
    let train_with = |l1: f64| {
        let p = FtrlParams { l1, ..Default::default() };
        let mut l = FtrlProximal::new(60, p).unwrap();
        train(&mut l, &&data, &TrainOptions { passes: 3.0, seed: 3, ..Default::default() }).unwrap();
        l.model()
    };
    let dense = train_with(0.0);
    let sparse = train_with(30.0);
    let nonzero = |m: &rosenblatt_learners::LinearModel| m.weights.iter().filter(|&&w| w != 0.0).count();
    assert!(nonzero(&sparse) < nonzero(&dense), "{} vs {}", nonzero(&sparse), nonzero(&dense));
    assert!(dense.log_loss(&&data) < std::f64::consts::LN_2);
}

#[test]
fn randomized_ftrl_meets_its_expected_regret_bound() {
    for (seed, noise, scale) in [(4u64, 0.0, 1.0f32), (5, 0.1, 3.0), (6, 0.3, 0.2)] {
        let base = generate(4000, 20, 20, noise, seed);
        // Rescale rows so that R is not 1.
        let mut data = InMemoryExamples::new(20);
        let b = &base;
        for i in 0..b.len() {
            let r = b.row(i);
            let idx: Vec<u32> = (0..r.nnz()).map(|k| r.entry(k).0 as u32).collect();
            let val: Vec<f32> = (0..r.nnz()).map(|k| r.entry(k).1 * scale).collect();
            data.push(&idx, &val, b.label(i)).unwrap();
        }
        let r = max_norm(&&data);
        let mut l = RandomizedFtrl::new(20, r, seed).unwrap();
        let report = train(&mut l, &&data, &seq(1.0)).unwrap();
        let t = data.len() as f64;
        // The best u in the ball of radius 1/R for the linear losses: along Σ y z.
        let d = &data;
        let mut s = [0.0f64; 20];
        for i in 0..d.len() {
            let x = d.row(i);
            (0..x.nnz()).for_each(|k| s[x.entry(k).0] += f64::from(d.label(i)) * f64::from(x.entry(k).1));
        }
        let best = t / 2.0 - s.iter().map(|v| v * v).sum::<f64>().sqrt() / (2.0 * r);
        let regret = l.expected_mistakes() - best;
        assert!(regret <= (2.0 * t).sqrt(), "seed {seed}: regret {regret} > √(2T) = {}", (2.0 * t).sqrt());
        // The drawn mistakes are close to their expectation.
        let drawn = report.mistakes() as f64;
        assert!((drawn - l.expected_mistakes()).abs() < 5.0 * t.sqrt(), "{drawn} vs {}", l.expected_mistakes());
        // Same seed, same draws.
        let mut again = RandomizedFtrl::new(20, r, seed).unwrap();
        assert_eq!(train(&mut again, &&data, &seq(1.0)).unwrap().mistakes(), report.mistakes());
    }
    assert!(RandomizedFtrl::new(3, 0.0, 1).is_err());
}

/// f64 randomised FTRL: `S += h·y·z` for each row of weight `h > 0` (rows of
/// weight 0 are not steps), `q_t = clamp(⟨z_t, S⟩ / max(R²√(2t), R‖S‖))`.
/// Returns `x_{T+1}` and `Σ (1 − y q)/2`.
fn randomized_reference<E: Examples>(data: &E, r: f64, passes: usize) -> (Vec<f64>, f64) {
    let mut s = vec![0.0f64; data.dim()];
    let (mut t, mut expected) = (0u64, 0.0f64);
    let scale =
        |s: &[f64], t: u64| (r * r * (2.0 * t as f64).sqrt()).max(r * s.iter().map(|v| v * v).sum::<f64>().sqrt());
    for _ in 0..passes {
        for i in 0..data.len() {
            let h = f64::from(data.weight(i));
            if h == 0.0 {
                continue;
            }
            let z = data.row(i);
            let x: Vec<(usize, f64)> = (0..z.nnz()).map(|k| (z.entry(k).0, f64::from(z.entry(k).1))).collect();
            let y = f64::from(data.label(i));
            let d = scale(&s, t + 1);
            let q = if d == 0.0 { 0.0 } else { (x.iter().map(|&(j, v)| s[j] * v).sum::<f64>() / d).clamp(-1.0, 1.0) };
            expected += (1.0 - y * q) / 2.0;
            x.iter().for_each(|&(j, v)| s[j] += h * y * v);
            t += 1;
        }
    }
    let d = scale(&s, t + 1);
    (s.iter().map(|v| v / d).collect(), expected)
}

#[test]
fn weighted_randomized_ftrl_matches_the_f64_reference() {
    let data = generate(1500, 30, 30, 0.1, 8);
    let h: Vec<f32> = (0..data.len()).map(|i| [1.0, 0.25, 2.0, 0.0, 3.0, 0.5][i % 6]).collect();
    let weighted = Weighted::new(&data, &h).unwrap();
    let r = max_norm(&&data);
    for passes in [1usize, 3] {
        let (w, expected) = randomized_reference(&weighted, r, passes);
        let mut l = RandomizedFtrl::new(30, r, 11).unwrap();
        train(&mut l, &weighted, &seq(passes as f64)).unwrap();
        let m = l.model();
        let norm = w.iter().map(|v| v * v).sum::<f64>().sqrt();
        for (a, b) in m.weights.iter().zip(&w) {
            assert!((f64::from(*a) - b).abs() < 1e-5 * norm, "{passes} passes: {a} vs {b}");
        }
        assert_eq!(m.bias, 0.0);
        let got = l.expected_mistakes();
        assert!((got - expected).abs() < 1e-6 * expected, "{passes} passes: {got} vs {expected}");
        // The weights changed the learner's path.
        let (unweighted, _) = randomized_reference(&&data, r, passes);
        assert!(unweighted.iter().zip(&w).any(|(a, b)| (a - b).abs() > 1e-3 * norm));
    }
}
