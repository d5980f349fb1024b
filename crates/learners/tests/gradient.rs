//! Gradient descent (hinge, perceptron, logistic; schedules; L2; Pegasos)
//! and Passive-Aggressive against plain f64 implementations, and online
//! gradient descent against its regret bound.

use rosenblatt_kernels::{Examples, Row};
use rosenblatt_learners::{
    Bias, EgForm, ExponentiatedGradient, FtrlParams, FtrlProximal, InMemoryExamples, LinearModel, Loss, OnlineLearner,
    Order, PaVariant, PassiveAggressive, Schedule, Sgd, SgdParams, TrainOptions, Weighted, train,
};

fn generate(n: usize, dim: usize, noise: f64, seed: u64) -> (InMemoryExamples, Vec<f64>) {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let u: Vec<f64> = (0..dim).map(|_| next() * 2.0 - 1.0).collect();
    let mut data = InMemoryExamples::new(dim);
    for _ in 0..n {
        let x: Vec<f32> = (0..dim).map(|_| if next() < 0.4 { (next() * 2.0 - 1.0) as f32 } else { 0.0 }).collect();
        let m: f64 = x.iter().zip(&u).map(|(a, b)| f64::from(*a) * b).sum();
        let y = if (m > 0.0) != (next() < noise) { 1.0 } else { -1.0 };
        data.push_dense(&x, y).unwrap();
    }
    (data, u)
}

fn dense_rows(data: &InMemoryExamples) -> Vec<(Vec<f64>, f64)> {
    let d = &data;
    (0..d.len())
        .map(|i| {
            let r = d.row(i);
            let mut x = vec![0.0; d.dim()];
            for k in 0..r.nnz() {
                let (j, v) = r.entry(k);
                x[j] = f64::from(v);
            }
            (x, f64::from(d.label(i)))
        })
        .collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(p, q)| p * q).sum()
}

/// f64 gradient descent, sequential order, following the same definitions.
/// With `p.average`, the model is the mean of the iterates after every step.
fn reference(rows: &[(Vec<f64>, f64)], p: &SgdParams, passes: usize) -> (Vec<f64>, f64, u64) {
    weighted_reference(rows, &vec![1.0; rows.len()], p, passes)
}

/// [`reference`] with row `i`'s loss gradient scaled by `h[i]`; rows of
/// weight 0 are not steps.
fn weighted_reference(rows: &[(Vec<f64>, f64)], h: &[f64], p: &SgdParams, passes: usize) -> (Vec<f64>, f64, u64) {
    let mut w = vec![0.0; rows[0].0.len()];
    let mut b = 0.0;
    let (mut sum, mut sum_b) = (vec![0.0; w.len()], 0.0);
    // AdaGrad's sums of squared gradients, per coordinate and the bias's.
    let (mut g2, mut g2b) = (vec![0.0; w.len()], 0.0);
    // NAG's largest |x_i| so far, and N = Σ_t Σ_i (x_ti/s_i)².
    let (mut smax, mut n_sum) = (vec![0.0f64; w.len()], 0.0);
    let normalized = p.schedule == Schedule::Normalized;
    let mut updates = 0;
    let mut k = 0.0f64;
    let lambda = f64::from(p.lambda);
    for _ in 0..passes {
        for ((x, y), &h) in rows.iter().zip(h) {
            if h == 0.0 {
                continue;
            }
            if normalized {
                for i in 0..w.len() {
                    if x[i].abs() > smax[i] {
                        if smax[i] > 0.0 {
                            w[i] *= smax[i] / x[i].abs();
                        }
                        smax[i] = x[i].abs();
                    }
                    if x[i] != 0.0 {
                        n_sum += (x[i] / smax[i]).powi(2);
                    }
                }
                if p.bias == Bias::Explicit {
                    n_sum += 1.0;
                }
            }
            let ym = y * (dot(&w, x) + b);
            let eta = match p.schedule {
                Schedule::Constant => f64::from(p.eta0),
                Schedule::InverseK => f64::from(p.eta0) / (k + 1.0),
                Schedule::InverseSqrtK => f64::from(p.eta0) / (k + 1.0).sqrt(),
                Schedule::Pegasos => 1.0 / (lambda * (k + 1.0)),
                Schedule::Adaptive => f64::from(p.eta0),
                Schedule::Normalized => f64::from(p.eta0) * ((k + 1.0) / n_sum).sqrt(),
            };
            k += 1.0;
            let f = (1.0 - eta * lambda).max(0.0);
            w.iter_mut().for_each(|v| *v *= f);
            let g = h * match p.loss {
                Loss::Hinge => f64::from(u8::from(ym <= 1.0)),
                Loss::Perceptron => f64::from(u8::from(ym <= 0.0)),
                Loss::Logistic => 1.0 / (1.0 + ym.exp()),
            };
            if g != 0.0 && matches!(p.schedule, Schedule::Adaptive | Schedule::Normalized) {
                updates += 1;
                for i in 0..w.len() {
                    if x[i] != 0.0 {
                        g2[i] += (g * x[i]).powi(2);
                        let s = if normalized { smax[i] } else { 1.0 };
                        w[i] += eta * g * y * x[i] / (g2[i].sqrt() * s);
                    }
                }
                if p.bias == Bias::Explicit {
                    g2b += g * g;
                    b += eta * g * y / f64::sqrt(g2b);
                }
            } else if g != 0.0 {
                updates += 1;
                w.iter_mut().zip(x).for_each(|(a, xi)| *a += eta * g * y * xi);
                if p.bias == Bias::Explicit {
                    b += eta * g * y;
                }
            }
            if let Some(r) = p.radius {
                let norm = dot(&w, &w).sqrt();
                if norm > f64::from(r) {
                    w.iter_mut().for_each(|v| *v *= f64::from(r) / norm);
                }
            }
            sum.iter_mut().zip(&w).for_each(|(s, v)| *s += v);
            sum_b += b;
        }
    }
    if p.average {
        return (sum.iter().map(|s| s / k).collect(), sum_b / k, updates);
    }
    (w, b, updates)
}

fn seq(passes: f64) -> TrainOptions {
    TrainOptions { passes, order: Order::Sequential, seed: 0, stop_when_separated: false, first_pass: 0 }
}

fn assert_model_close(m: &LinearModel, w: &[f64], b: f64, what: &str) {
    let scale = w.iter().fold(b.abs(), |a, v| a.max(v.abs()));
    for (g, r) in m.weights.iter().zip(w) {
        assert!((f64::from(*g) - r).abs() <= 2e-4 * (1.0 + scale), "{what}: {g} vs {r}");
    }
    assert!((f64::from(m.bias) - b).abs() <= 2e-4 * (1.0 + scale), "{what}: bias {} vs {b}", m.bias);
}

#[test]
fn gradient_descent_matches_the_f64_reference() {
    let (data, _) = generate(400, 30, 0.1, 1);
    let rows = dense_rows(&data);
    for loss in [Loss::Hinge, Loss::Perceptron, Loss::Logistic] {
        for schedule in [Schedule::Constant, Schedule::InverseK, Schedule::InverseSqrtK] {
            for (lambda, radius) in [(0.0, None), (0.01, None), (0.0, Some(1.5)), (0.05, Some(2.0))] {
                for average in [false, true] {
                    let p = SgdParams { loss, schedule, eta0: 0.2, lambda, radius, bias: Bias::Explicit, average };
                    let (w, b, updates) = reference(&rows, &p, 3);
                    let mut l = Sgd::new(30, p).unwrap();
                    let report = train(&mut l, &&data, &seq(3.0)).unwrap();
                    let what = format!("{loss:?} {schedule:?} λ={lambda} r={radius:?} average={average}");
                    assert_eq!(report.updates(), updates, "{what}");
                    assert_model_close(&l.model(), &w, b, &what);
                }
            }
        }
    }
}

#[test]
fn adagrad_matches_the_f64_reference() {
    let (data, _) = generate(400, 30, 0.1, 4);
    let rows = dense_rows(&data);
    for loss in [Loss::Hinge, Loss::Logistic] {
        for (average, bias) in [(false, Bias::Explicit), (true, Bias::Explicit), (false, Bias::None)] {
            let p = SgdParams { loss, schedule: Schedule::Adaptive, eta0: 0.3, average, bias, ..Default::default() };
            let (w, b, updates) = reference(&rows, &p, 3);
            let mut l = Sgd::new(30, p).unwrap();
            let report = train(&mut l, &&data, &seq(3.0)).unwrap();
            let what = format!("adagrad {loss:?} average={average} {bias:?}");
            assert_eq!(report.updates(), updates, "{what}");
            assert_model_close(&l.model(), &w, b, &what);
        }
    }
    // AdaGrad and NAG take no L2 and no projection.
    for schedule in [Schedule::Adaptive, Schedule::Normalized] {
        for p in [
            SgdParams { schedule, lambda: 0.1, ..Default::default() },
            SgdParams { schedule, radius: Some(1.0), ..Default::default() },
        ] {
            assert!(Sgd::new(3, p).is_err());
        }
    }
}

/// `data` with feature `i` multiplied by `f(i)`.
fn rescaled(data: &InMemoryExamples, f: impl Fn(usize) -> f32) -> InMemoryExamples {
    let mut out = InMemoryExamples::new(data.dim());
    for (x, y) in dense_rows(data) {
        let x: Vec<f32> = x.iter().enumerate().map(|(i, &v)| v as f32 * f(i)).collect();
        out.push_dense(&x, y as f32).unwrap();
    }
    out
}

#[test]
fn normalized_steps_match_the_f64_reference_and_ignore_feature_scales() {
    // Features on scales from 1e-3 to 1e3.
    let (data, _) = generate(400, 30, 0.1, 6);
    let data = rescaled(&data, |i| 10f32.powi(i as i32 % 7 - 3));
    let rows = dense_rows(&data);
    for loss in [Loss::Hinge, Loss::Logistic] {
        for (average, bias) in [(false, Bias::Explicit), (true, Bias::Explicit), (false, Bias::None)] {
            let p = SgdParams { loss, schedule: Schedule::Normalized, eta0: 0.5, average, bias, ..Default::default() };
            let (w, b, updates) = reference(&rows, &p, 3);
            let mut l = Sgd::new(30, p).unwrap();
            let report = train(&mut l, &&data, &seq(3.0)).unwrap();
            let what = format!("nag {loss:?} average={average} {bias:?}");
            assert_eq!(report.updates(), updates, "{what}");
            // Relative per weight: the weights span six decades.
            let m = l.model();
            for (g, r) in m.weights.iter().zip(&w) {
                assert!((f64::from(*g) - r).abs() <= 1e-3 * r.abs() + 1e-5, "{what}: {g} vs {r}");
            }
            assert!((f64::from(m.bias) - b).abs() <= 1e-4 * (1.0 + b.abs()), "{what}: bias {} vs {b}", m.bias);
        }
    }
    // Invariance: every feature scaled by a power of two (exact in f32)
    // gives the same margins on the correspondingly scaled rows, where
    // AdaGrad's do not.
    let scaled = rescaled(&data, |i| 2f32.powi(i as i32 % 9 - 4));
    let margins = |schedule: Schedule, d: &InMemoryExamples| {
        let mut l = Sgd::new(30, SgdParams { schedule, eta0: 0.5, ..Default::default() }).unwrap();
        train(&mut l, &d, &seq(2.0)).unwrap();
        (0..d.len()).map(|i| l.margin(&d.row(i))).collect::<Vec<_>>()
    };
    let (a, b) = (margins(Schedule::Normalized, &data), margins(Schedule::Normalized, &scaled));
    for (p, q) in a.iter().zip(&b) {
        assert!((p - q).abs() <= 1e-4 * (1.0 + p.abs()), "NAG margins {p} vs {q}");
    }
    let (a, b) = (margins(Schedule::Adaptive, &data), margins(Schedule::Adaptive, &scaled));
    assert!(a.iter().zip(&b).any(|(p, q)| (p - q).abs() > 1e-2 * (1.0 + p.abs())), "AdaGrad is not scale-free");
}

/// The rows of `data` as sparse rows twice: over their own features, and
/// with feature `j` moved to `at[j]` over `dim`.
fn scattered(data: &InMemoryExamples, at: &[u32], dim: usize) -> (InMemoryExamples, InMemoryExamples) {
    let (mut small, mut wide) = (InMemoryExamples::new(data.dim()), InMemoryExamples::new(dim));
    for i in 0..data.len() {
        let r = data.row(i);
        let (ix, v): (Vec<usize>, Vec<f32>) = (0..r.nnz()).map(|k| r.entry(k)).filter(|e| e.1 != 0.0).unzip();
        small.push(&ix.iter().map(|&j| j as u32).collect::<Vec<_>>(), &v, data.label(i)).unwrap();
        wide.push(&ix.iter().map(|&j| at[j]).collect::<Vec<_>>(), &v, data.label(i)).unwrap();
    }
    (small, wide)
}

/// Averaged steps over 2^18 features, where the running sum (2 MB) is
/// large enough that its updates are held back while its cells load,
/// learn the bits the same rows learn over their own 25 features.
#[test]
fn averaging_over_a_large_dimension_learns_the_small_ones_bits() {
    let (data, _) = generate(400, 25, 0.1, 5);
    let dim = 1 << 18;
    let at: Vec<u32> = (0..25).map(|j| j * 10_007 + 3).collect();
    let (small, wide) = scattered(&data, &at, dim);
    let bits = |v: &mut dyn Iterator<Item = f32>| v.map(f32::to_bits).collect::<Vec<_>>();
    for p in [
        SgdParams { average: true, ..SgdParams::pegasos(0.01) },
        SgdParams { average: true, lambda: 0.001, ..SgdParams::default() },
        SgdParams { average: true, schedule: Schedule::Adaptive, loss: Loss::Logistic, ..SgdParams::default() },
        SgdParams { average: true, schedule: Schedule::Normalized, ..SgdParams::default() },
    ] {
        let (mut a, mut b) = (Sgd::new(25, p).unwrap(), Sgd::new(dim, p).unwrap());
        train(&mut a, &&small, &seq(3.0)).unwrap();
        train(&mut b, &&wide, &seq(3.0)).unwrap();
        let (a, b) = (a.model(), b.model());
        assert!(a.weights.iter().any(|&w| w != 0.0), "{p:?}: it learned");
        assert_eq!(bits(&mut a.weights.iter().copied()), bits(&mut at.iter().map(|&i| b.weights[i as usize])), "{p:?}");
        assert_eq!(b.weights.iter().filter(|&&w| w != 0.0).count(), a.weights.iter().filter(|&&w| w != 0.0).count());
        assert_eq!(a.bias.to_bits(), b.bias.to_bits(), "{p:?}");
    }
}

#[test]
fn pegasos_matches_the_f64_reference_and_stays_in_its_ball() {
    let (data, _) = generate(500, 25, 0.05, 2);
    let rows = dense_rows(&data);
    for (lambda, average) in [(0.001f32, false), (0.01, false), (0.1, false), (0.01, true), (0.1, true)] {
        let p = SgdParams { average, ..SgdParams::pegasos(lambda) };
        let (w, b, _) = reference(&rows, &p, 5);
        let mut l = Sgd::new(25, p).unwrap();
        train(&mut l, &&data, &seq(5.0)).unwrap();
        let m = l.model();
        assert_model_close(&m, &w, b, &format!("pegasos λ={lambda} average={average}"));
        let norm = m.weights.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt();
        assert!(norm <= 1.0 / f64::from(lambda).sqrt() * (1.0 + 1e-5), "‖w‖ = {norm}");
    }
}

#[test]
fn long_runs_rescale_without_losing_the_weights() {
    // λη close to 1 for thousands of steps drives the scale factor through
    // many rescales; the result must still match the reference.
    let (data, _) = generate(200, 10, 0.1, 3);
    let rows = dense_rows(&data);
    for average in [false, true] {
        let p = SgdParams {
            loss: Loss::Hinge,
            schedule: Schedule::Constant,
            eta0: 0.5,
            lambda: 1.9,
            radius: None,
            bias: Bias::None,
            average,
        };
        let (w, b, _) = reference(&rows, &p, 50);
        let mut l = Sgd::new(10, p).unwrap();
        train(&mut l, &&data, &seq(50.0)).unwrap();
        assert_model_close(&l.model(), &w, b, &format!("rescaling, average={average}"));
    }
}

/// Sums the loss each step incurs before its update.
struct Regret<L> {
    inner: L,
    loss: Loss,
    total: f64,
}
impl<L: OnlineLearner> OnlineLearner for Regret<L> {
    type Model = L::Model;
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn margin<R: Row>(&self, x: &R) -> f32 {
        self.inner.margin(x)
    }
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, e: usize) -> rosenblatt_learners::Step {
        self.total += self.loss.value(f64::from(y) * f64::from(self.inner.margin(x)));
        self.inner.learn(x, y, h, e)
    }
    fn model(&self) -> L::Model {
        self.inner.model()
    }
}

#[test]
fn online_gradient_descent_meets_its_regret_bound() {
    // Hinge loss, G-Lipschitz with G = max‖x‖, projected onto the ball of
    // radius D, constant η = D/(G√T): regret ≤ D·G·√T against every u in
    // the ball.
    for (seed, noise) in [(4u64, 0.0), (5, 0.1), (6, 0.3)] {
        let (data, u) = generate(3000, 20, noise, seed);
        let rows = dense_rows(&data);
        let t = rows.len() as f64;
        let g = rows.iter().map(|(x, _)| dot(x, x).sqrt()).fold(0.0, f64::max);
        let d = 3.0;
        let eta = d / (g * t.sqrt());
        let p = SgdParams {
            loss: Loss::Hinge,
            schedule: Schedule::Constant,
            eta0: eta as f32,
            lambda: 0.0,
            radius: Some(d as f32),
            bias: Bias::None,
            average: false,
        };
        let mut l = Regret { inner: Sgd::new(20, p).unwrap(), loss: Loss::Hinge, total: 0.0 };
        train(&mut l, &&data, &seq(1.0)).unwrap();
        let norm_u = dot(&u, &u).sqrt();
        let final_w: Vec<f64> = l.model().weights.iter().map(|&v| f64::from(v)).collect();
        let comparators: Vec<Vec<f64>> = vec![
            u.iter().map(|v| v * d / norm_u).collect(),
            u.iter().map(|v| v * 0.5 * d / norm_u).collect(),
            final_w,
            vec![0.0; 20],
        ];
        for c in comparators {
            let theirs: f64 = rows.iter().map(|(x, y)| Loss::Hinge.value(y * dot(&c, x))).sum();
            let regret = l.total - theirs;
            assert!(regret <= d * g * t.sqrt(), "seed {seed}: regret {regret} > {}", d * g * t.sqrt());
        }
    }
}

#[test]
fn logistic_models_give_probabilities_and_log_loss() {
    let (data, _) = generate(2000, 15, 0.05, 7);
    let p = SgdParams { loss: Loss::Logistic, schedule: Schedule::InverseSqrtK, eta0: 0.5, ..Default::default() };
    let mut l = Sgd::new(15, p).unwrap();
    train(&mut l, &&data, &TrainOptions { passes: 5.0, seed: 1, ..Default::default() }).unwrap();
    let m = l.model();
    let d = &data;
    let mut direct = 0.0;
    for i in 0..d.len() {
        let pr = m.probability(&d.row(i));
        assert!((0.0..=1.0).contains(&pr));
        let py = if d.label(i) > 0.0 { pr } else { 1.0 - pr };
        direct -= py.max(1e-300).ln();
    }
    let ll = m.log_loss(&d);
    assert!((ll - direct / d.len() as f64).abs() < 1e-6, "{ll}");
    assert!(ll < std::f64::consts::LN_2, "learned something: {ll}");
}

/// f64 Passive-Aggressive over rows lifted to `(x, beta)`; returns the
/// weights and the bias `beta·w_lift`.
fn pa_reference(rows: &[(Vec<f64>, f64)], variant: PaVariant, passes: usize, beta: f64) -> (Vec<f64>, f64) {
    weighted_pa_reference(rows, &vec![1.0; rows.len()], variant, passes, beta)
}

/// [`pa_reference`] with row `i`'s C scaled by `h[i]` (PA-I, PA-II; plain
/// PA's projection takes no C); rows of weight 0 are not steps.
fn weighted_pa_reference(
    rows: &[(Vec<f64>, f64)],
    h: &[f64],
    variant: PaVariant,
    passes: usize,
    beta: f64,
) -> (Vec<f64>, f64) {
    let mut w = vec![0.0; rows[0].0.len()];
    let mut lift = 0.0;
    for _ in 0..passes {
        for ((x, y), &h) in rows.iter().zip(h) {
            if h == 0.0 {
                continue;
            }
            let loss = 1.0 - y * (dot(&w, x) + beta * lift);
            if loss <= 0.0 {
                continue;
            }
            let sq = dot(x, x) + beta * beta;
            let tau = match variant {
                PaVariant::Pa => loss / sq,
                PaVariant::PaI { c } => (h * f64::from(c)).min(loss / sq),
                PaVariant::PaII { c } => loss / (sq + 1.0 / (2.0 * h * f64::from(c))),
            };
            w.iter_mut().zip(x).for_each(|(a, xi)| *a += tau * y * xi);
            lift += tau * y * beta;
        }
    }
    (w, beta * lift)
}

#[test]
fn passive_aggressive_matches_the_f64_reference() {
    let (data, _) = generate(400, 20, 0.1, 8);
    let rows = dense_rows(&data);
    for variant in [PaVariant::Pa, PaVariant::PaI { c: 0.1 }, PaVariant::PaII { c: 0.5 }] {
        for beta in [1.0, 2.5] {
            let (w, b) = pa_reference(&rows, variant, 3, beta);
            let mut l = PassiveAggressive::new(20, variant, Bias::Explicit).unwrap().with_bias_input(beta).unwrap();
            train(&mut l, &&data, &seq(3.0)).unwrap();
            assert_model_close(&l.model(), &w, b, &format!("{variant:?} β = {beta}"));
        }
    }
    // After a PA step the example has margin exactly 1 (PA is the projection
    // onto the set of vectors with zero hinge loss on it).
    let mut l = PassiveAggressive::new(20, PaVariant::Pa, Bias::Explicit).unwrap();
    let d = &data;
    for i in 0..10 {
        let x = d.row(i);
        l.learn(&x, d.label(i), 1.0, i);
        assert!((d.label(i) * l.margin(&x) - 1.0).abs() < 1e-4 || d.label(i) * l.margin(&x) > 1.0);
    }
}

/// Importance weights: 0 (the row is not a step), fractions, integers.
fn importance(n: usize) -> Vec<f64> {
    (0..n).map(|i| [1.0, 0.5, 2.0, 0.0, 3.0, 0.25][i % 6]).collect()
}

#[test]
fn weighted_steps_match_the_f64_reference() {
    let (data, _) = generate(400, 30, 0.1, 11);
    let rows = dense_rows(&data);
    let h = importance(rows.len());
    let h32: Vec<f32> = h.iter().map(|&v| v as f32).collect();
    let weighted = Weighted::new(&data, &h32).unwrap();
    let mut cases = Vec::new();
    for loss in [Loss::Hinge, Loss::Perceptron, Loss::Logistic] {
        for schedule in [Schedule::Constant, Schedule::InverseSqrtK, Schedule::Adaptive, Schedule::Normalized] {
            for average in [false, true] {
                cases.push(SgdParams { loss, schedule, eta0: 0.2, average, ..Default::default() });
            }
        }
        cases.push(SgdParams { loss, schedule: Schedule::InverseK, eta0: 0.2, lambda: 0.01, ..Default::default() });
    }
    cases.push(SgdParams { average: true, ..SgdParams::pegasos(0.01) });
    for p in cases {
        let (w, b, updates) = weighted_reference(&rows, &h, &p, 3);
        let mut l = Sgd::new(30, p).unwrap();
        let report = train(&mut l, &weighted, &seq(3.0)).unwrap();
        let what = format!("weighted {:?} {:?} average={} λ={}", p.loss, p.schedule, p.average, p.lambda);
        assert_eq!(report.updates(), updates, "{what}");
        assert_model_close(&l.model(), &w, b, &what);
    }
    for variant in [PaVariant::Pa, PaVariant::PaI { c: 0.1 }, PaVariant::PaII { c: 0.5 }] {
        let (w, b) = weighted_pa_reference(&rows, &h, variant, 3, 1.5);
        let mut l = PassiveAggressive::new(30, variant, Bias::Explicit).unwrap().with_bias_input(1.5).unwrap();
        train(&mut l, &weighted, &seq(3.0)).unwrap();
        assert_model_close(&l.model(), &w, b, &format!("weighted {variant:?}"));
    }
}

#[test]
fn bad_parameters_are_refused() {
    for p in [
        SgdParams { eta0: 0.0, ..Default::default() },
        SgdParams { lambda: -1.0, ..Default::default() },
        SgdParams { radius: Some(0.0), ..Default::default() },
        SgdParams::pegasos(0.0),
    ] {
        assert!(Sgd::new(3, p).is_err(), "{p:?}");
    }
    assert!(PassiveAggressive::new(3, PaVariant::PaI { c: -1.0 }, Bias::None).is_err());
    for beta in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(PassiveAggressive::new(3, PaVariant::Pa, Bias::Explicit).unwrap().with_bias_input(beta).is_err());
    }
}

#[test]
fn the_pocket_keeps_the_best_vector_by_hinge_risk() {
    use rosenblatt_learners::{PocketEvery, train_pocket};
    let (data, _) = generate(800, 20, 0.2, 9);
    let p = SgdParams { loss: Loss::Hinge, schedule: Schedule::Constant, eta0: 0.5, ..Default::default() };
    for every in [PocketEvery::Pass, PocketEvery::Updates(150)] {
        let mut l = Sgd::new(20, p).unwrap();
        let (report, pocket) = train_pocket(&mut l, &&data, &seq(6.0), every).unwrap();
        // The last vector is what training ends with; the pocket is never worse.
        assert_eq!(pocket.last_risk, l.model().mean_loss(&&data, Loss::Hinge));
        assert!(pocket.best_risk <= pocket.last_risk);
        assert_eq!(pocket.best.mean_loss(&&data, Loss::Hinge), pocket.best_risk);
        assert!(pocket.best_at_update <= report.updates());
        // The same checkpoints by hand: train pass by pass (or update by update
        // through the observer) and take the minimum.
        let expected_evaluations = match every {
            PocketEvery::Pass => 6 + 1,
            PocketEvery::Updates(n) => (report.updates() / n) as u32 + 1,
        };
        assert_eq!(pocket.evaluations, expected_evaluations);
        if every == PocketEvery::Pass {
            let mut m = Sgd::new(20, p).unwrap();
            let mut risks = Vec::new();
            for _ in 0..6 {
                train(&mut m, &&data, &seq(1.0)).unwrap();
                risks.push(m.model().mean_loss(&&data, Loss::Hinge));
            }
            // A constant schedule makes pass-by-pass training the same run.
            let best = risks.iter().copied().fold(f64::INFINITY, f64::min);
            assert_eq!(pocket.best_risk, best);
        }
    }
    let mut l = Sgd::new(20, p).unwrap();
    assert!(train_pocket(&mut l, &&data, &seq(1.0), PocketEvery::Updates(0)).is_err());
}

#[test]
fn every_learner_is_bit_identical_for_a_seed() {
    use rosenblatt_learners::{EgForm, ExponentiatedGradient, FtrlParams, FtrlProximal, RandomizedFtrl, max_norm};
    let (data, _) = generate(600, 16, 0.1, 10);
    fn run<L: OnlineLearner<Model = LinearModel>>(mut l: L, data: &InMemoryExamples, seed: u64) -> Vec<u32> {
        let opts = TrainOptions { passes: 2.5, order: Order::Shuffle, seed, stop_when_separated: false, first_pass: 0 };
        train(&mut l, &data, &opts).unwrap();
        let m = l.model();
        m.weights.iter().chain([&m.bias]).map(|v| v.to_bits()).collect()
    }
    let r = max_norm(&&data);
    type Make = Box<dyn Fn() -> Box<dyn Fn(&InMemoryExamples, u64) -> Vec<u32>>>;
    let makers: Vec<(&str, Make)> = vec![
        ("sgd", Box::new(|| Box::new(|d, s| run(Sgd::new(16, SgdParams::default()).unwrap(), d, s)))),
        ("pegasos", Box::new(|| Box::new(|d, s| run(Sgd::new(16, SgdParams::pegasos(0.01)).unwrap(), d, s)))),
        (
            "pa2",
            Box::new(|| {
                Box::new(|d, s| {
                    run(PassiveAggressive::new(16, PaVariant::PaII { c: 1.0 }, Bias::Explicit).unwrap(), d, s)
                })
            }),
        ),
        (
            "eg",
            Box::new(|| {
                Box::new(|d, s| {
                    run(ExponentiatedGradient::new(16, EgForm::PlusMinus { b: 5.0 }, 0.2, Loss::Hinge).unwrap(), d, s)
                })
            }),
        ),
        ("ftrl", Box::new(|| Box::new(|d, s| run(FtrlProximal::new(16, FtrlParams::default()).unwrap(), d, s)))),
        ("randomized", Box::new(move || Box::new(move |d, s| run(RandomizedFtrl::new(16, r, 7).unwrap(), d, s)))),
    ];
    for (name, make) in makers {
        let f = make();
        let (a, b, c) = (f(&data, 1), f(&data, 1), f(&data, 2));
        assert_eq!(a, b, "{name}: same seed, same bits");
        assert_ne!(a, c, "{name}: another seed, another order");
    }
}

/// `n` sparse rows of about 40 entries over `dim` features, random labels.
fn sparse_rows(n: usize, dim: usize) -> InMemoryExamples {
    let mut data = InMemoryExamples::new(dim);
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |m: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % m
    };
    for _ in 0..n {
        let mut idx: Vec<u32> = (0..40).map(|_| next(dim as u64) as u32).collect();
        idx.sort_unstable();
        idx.dedup();
        let vals: Vec<f32> = idx.iter().map(|_| next(1000) as f32 / 500.0 - 1.0).collect();
        let y = if next(2) == 0 { 1.0 } else { -1.0 };
        data.push(&idx, &vals, y).unwrap();
    }
    data
}

/// `train` (which hands the learner the row four ahead to prefetch) learns
/// the bits that calling `learn` row by row learns: a hint changes nothing.
fn hints_change_no_bit<L: OnlineLearner<Model = LinearModel>>(
    make: impl Fn() -> L,
    data: &InMemoryExamples,
    what: &str,
) {
    let mut looped = make();
    train(&mut looped, &data, &seq(2.0)).unwrap();
    let mut direct = make();
    for _ in 0..2 {
        for i in 0..data.len() {
            direct.learn(&data.row(i), data.label(i), 1.0, i);
        }
    }
    let (a, b) = (looped.model(), direct.model());
    assert!(a.weights.iter().any(|&w| w != 0.0), "{what}: it learned");
    let bits = |m: &LinearModel| m.weights.iter().map(|w| w.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&a), bits(&b), "{what}");
    assert_eq!(a.bias.to_bits(), b.bias.to_bits(), "{what}");
}

/// Learners whose state is prefetched above a size (AdaGrad and NAG steps,
/// FTRL-Proximal, EG±), at a dimension below it and one above it.
#[test]
fn prefetching_the_state_changes_no_bit() {
    for dim in [1 << 10, 1 << 17] {
        let data = sparse_rows(300, dim);
        for schedule in [Schedule::Adaptive, Schedule::Normalized] {
            for average in [false, true] {
                let p = SgdParams { loss: Loss::Logistic, schedule, eta0: 0.5, average, ..Default::default() };
                hints_change_no_bit(
                    || Sgd::new(dim, p).unwrap(),
                    &data,
                    &format!("{schedule:?} average={average} dim {dim}"),
                );
            }
        }
        let p = FtrlParams { l1: 0.01, ..FtrlParams::default() };
        hints_change_no_bit(|| FtrlProximal::new(dim, p).unwrap(), &data, &format!("FTRL-Proximal dim {dim}"));
        let form = EgForm::PlusMinus { b: 10.0 };
        hints_change_no_bit(
            || ExponentiatedGradient::new(dim, form, 0.5, Loss::Hinge).unwrap(),
            &data,
            &format!("EG± dim {dim}"),
        );
    }
}
