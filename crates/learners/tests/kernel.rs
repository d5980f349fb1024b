//! The kernel Perceptrons against a plain f64 kernel Perceptron written
//! here (the same order, one example at a time), the degree-1 kernel
//! against the linear Perceptron, Novikoff's bound in feature space, the
//! budget, and the model being the same on any number of threads.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rosenblatt_kernels::Examples;
use rosenblatt_learners::{InMemoryExamples, Kernel, KernelForm, KernelParams, Outputs, train_kernel};

/// Rows of small whole numbers (so that f32 kernel values and scores of
/// the polynomial kernel are exact) and labels from `label`.
fn data(n: usize, dim: usize, seed: u64, label: impl Fn(&[f64]) -> f32) -> (InMemoryExamples, Vec<Vec<f64>>) {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut ex = InMemoryExamples::new(dim);
    let mut rows = Vec::new();
    for _ in 0..n {
        let mut x = vec![0f64; dim];
        for v in &mut x {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            *v = (s % 4) as f64;
        }
        let (idx, val): (Vec<u32>, Vec<f32>) =
            x.iter().enumerate().filter(|e| *e.1 != 0.0).map(|(i, &v)| (i as u32, v as f32)).unzip();
        ex.push(&idx, &val, label(&x)).unwrap();
        rows.push(x);
    }
    (ex, rows)
}

/// The kernel Perceptron as the notes write it, in f64: per pass a fresh
/// permutation (the same generator as the engine's), each example scored
/// against every support row; returns the updates (class, delta, step),
/// the final coefficients per example, and the average of every step's.
struct Reference {
    events: Vec<(usize, f64, u64)>,
    alpha: Vec<Vec<f64>>,
    average: Vec<Vec<f64>>,
}

fn reference(
    rows: &[Vec<f64>],
    labels: &[f64],
    weights: &[f64],
    k: &dyn Fn(&[f64], &[f64]) -> f64,
    outputs: Outputs,
    passes: usize,
    seed: u64,
) -> Reference {
    let (n, c) = (rows.len(), outputs.count());
    let mut alpha = vec![vec![0f64; c]; n];
    let mut sum = vec![vec![0f64; c]; n];
    let mut events = Vec::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut step = 0u64;
    for _ in 0..passes {
        order.shuffle(&mut rng);
        for &e in &order {
            let e = e as usize;
            let h = weights[e];
            if h == 0.0 {
                continue;
            }
            let mut f = vec![0f64; c];
            for (s, a) in alpha.iter().enumerate() {
                if a.iter().any(|&v| v != 0.0) {
                    let kv = k(&rows[s], &rows[e]);
                    f.iter_mut().zip(a).for_each(|(f, &a)| *f += a * kv);
                }
            }
            let y = labels[e];
            let mut delta = vec![0f64; c];
            match outputs {
                Outputs::Binary => {
                    if y * f[0] <= 0.0 {
                        delta[0] = y;
                    }
                }
                Outputs::OneVsRest(_) => {
                    for cl in 0..c {
                        let yc = if cl == y as usize { 1.0 } else { -1.0 };
                        if yc * f[cl] <= 0.0 {
                            delta[cl] = yc;
                        }
                    }
                }
                Outputs::Multiclass(_) => {
                    let t = y as usize;
                    let mut rival = None;
                    for cl in (0..c).filter(|&cl| cl != t) {
                        if rival.is_none_or(|r: usize| f[cl] > f[r]) {
                            rival = Some(cl);
                        }
                    }
                    let r = rival.unwrap();
                    if f[r] >= f[t] {
                        delta[t] = 1.0;
                        delta[r] = -1.0;
                    }
                }
            }
            for (cl, &d) in delta.iter().enumerate().filter(|e| *e.1 != 0.0) {
                let d = d * h;
                alpha[e][cl] += d;
                events.push((cl, d, step));
            }
            step += 1;
            for (s, a) in sum.iter_mut().zip(&alpha) {
                s.iter_mut().zip(a).for_each(|(s, &a)| *s += a);
            }
        }
    }
    let average = sum.iter().map(|s| s.iter().map(|v| v / step as f64).collect()).collect();
    Reference { events, alpha, average }
}

fn poly(gamma: f64, coef0: f64, degree: i32) -> impl Fn(&[f64], &[f64]) -> f64 {
    move |a, b| (gamma * a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>() + coef0).powi(degree)
}

fn params(kernel: Kernel, form: KernelForm, outputs: Outputs, passes: usize) -> KernelParams {
    KernelParams { kernel, form, outputs, budget: None, passes, shuffle: true, seed: 7 }
}

/// How a generated row is labelled.
type Labeller = fn(&[f64]) -> f32;

/// The outputs a kernel Perceptron learns, each with labels it can learn
/// with the quadratic kernel: binary, the sign of a quadratic form;
/// one-vs-rest and multi-class, which of three quadratic forms is largest.
fn quadratic_tasks() -> [(Outputs, Labeller); 3] {
    fn quad(x: &[f64], w: usize) -> f64 {
        x.iter().enumerate().map(|(i, v)| v * v * ((i + w) % 3) as f64).sum()
    }
    fn binary(x: &[f64]) -> f32 {
        if quad(x, 0) - quad(x, 1) + x[0] > 0.5 { 1.0 } else { -1.0 }
    }
    fn three(x: &[f64]) -> f32 {
        (0..3).map(|w| (quad(x, w), w)).fold((f64::MIN, 0), |b, q| if q.0 > b.0 { q } else { b }).1 as f32
    }
    [(Outputs::Binary, binary), (Outputs::OneVsRest(3), three), (Outputs::Multiclass(3), three)]
}

#[test]
fn the_same_updates_as_the_f64_kernel_perceptron() {
    let kernel = Kernel::Poly { gamma: 1.0, coef0: 1.0, degree: 2 };
    for (outputs, label) in quadratic_tasks() {
        // Over 64 rows, so that blocks resolve updates among themselves.
        let (ex, rows) = data(300, 6, 1, label);
        let labels: Vec<f64> = (0..ex.len()).map(|i| f64::from((&ex).label(i))).collect();
        let r = reference(&rows, &labels, &vec![1.0; labels.len()], &poly(1.0, 1.0, 2), outputs, 3, 7);
        let voted = train_kernel(&&ex, &params(kernel, KernelForm::Voted, outputs, 3)).unwrap();
        let got: Vec<(usize, f64, u64)> =
            voted.events.iter().map(|e| (e.class as usize, f64::from(e.delta), e.step)).collect();
        assert_eq!(got, r.events, "{outputs:?}: the updates differ");
        assert!(r.events.len() > 20, "{outputs:?}: too few mistakes to test anything ({})", r.events.len());
        // The last vector's and the average's coefficients, support row by
        // support row (rows are stored in the order they became support
        // rows).
        let order_of_support: Vec<usize> = {
            let mut seen = Vec::new();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
            let mut order: Vec<u32> = (0..rows.len() as u32).collect();
            let mut step = 0u64;
            let mut at = 0;
            for _ in 0..3 {
                order.shuffle(&mut rng);
                for &e in &order {
                    while at < r.events.len() && r.events[at].2 == step {
                        if !seen.contains(&(e as usize)) {
                            seen.push(e as usize);
                        }
                        at += 1;
                    }
                    step += 1;
                }
            }
            seen
        };
        let c = outputs.count();
        for form in [KernelForm::Last, KernelForm::Averaged] {
            let m = train_kernel(&&ex, &params(kernel, form, outputs, 3)).unwrap();
            assert_eq!(m.support_rows(), order_of_support.len());
            let want = if form == KernelForm::Last { &r.alpha } else { &r.average };
            for (slot, &e) in order_of_support.iter().enumerate() {
                for cl in 0..c {
                    let (got, want) = (f64::from(m.coef[slot * c + cl]), want[e][cl]);
                    assert!((got - want).abs() <= 1e-5 * want.abs().max(1.0), "{outputs:?} {form:?}: {got} vs {want}");
                }
                let row: Vec<f64> = m.rows[slot * 6..(slot + 1) * 6].iter().map(|&v| f64::from(v)).collect();
                assert_eq!(row, rows[e]);
            }
        }
    }
}

/// Weighted rows: each mistake moves its coefficients by the row's weight
/// times ±1; rows of weight 0 are not steps. Every update as the f64
/// reference makes it, for one output, one-vs-rest and multi-class.
#[test]
fn weighted_updates_are_the_f64_kernel_perceptrons() {
    let kernel = Kernel::Poly { gamma: 1.0, coef0: 1.0, degree: 2 };
    for (outputs, label) in quadratic_tasks() {
        let (ex, rows) = data(300, 6, 2, label);
        let labels: Vec<f64> = (0..ex.len()).map(|i| f64::from((&ex).label(i))).collect();
        let h: Vec<f64> = (0..ex.len()).map(|i| [1.0, 0.5, 2.0, 0.0, 3.0][i % 5]).collect();
        let h32: Vec<f32> = h.iter().map(|&v| v as f32).collect();
        let r = reference(&rows, &labels, &h, &poly(1.0, 1.0, 2), outputs, 3, 7);
        let weighted = rosenblatt_learners::Weighted::new(&ex, &h32).unwrap();
        let voted = train_kernel(&weighted, &params(kernel, KernelForm::Voted, outputs, 3)).unwrap();
        let got: Vec<(usize, f64, u64)> =
            voted.events.iter().map(|e| (e.class as usize, f64::from(e.delta), e.step)).collect();
        assert_eq!(got, r.events, "{outputs:?}: the updates differ");
        assert!(r.events.iter().any(|e| e.1.abs() != 1.0), "{outputs:?}: no weighted update");
    }
}

#[test]
fn degree_one_without_offset_is_the_linear_perceptron() {
    let (ex, rows) = data(400, 8, 2, |x| if x[0] + x[1] - x[2] - x[3] + 0.5 * x[4] > 1.0 { 1.0 } else { -1.0 });
    let (test, test_rows) = data(200, 8, 3, |x| if x[0] > 1.5 { 1.0 } else { -1.0 });
    let labels: Vec<f64> = (0..ex.len()).map(|i| f64::from((&ex).label(i))).collect();
    // The linear Perceptron without a bias, in the same order.
    let mut w = [0f64; 8];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut order: Vec<u32> = (0..rows.len() as u32).collect();
    let mut mistakes = 0;
    for _ in 0..2 {
        order.shuffle(&mut rng);
        for &e in &order {
            let (x, y) = (&rows[e as usize], labels[e as usize]);
            if y * w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>() <= 0.0 {
                w.iter_mut().zip(x).for_each(|(w, x)| *w += y * x);
                mistakes += 1;
            }
        }
    }
    let m = train_kernel(
        &&ex,
        &params(Kernel::Poly { gamma: 1.0, coef0: 0.0, degree: 1 }, KernelForm::Last, Outputs::Binary, 2),
    )
    .unwrap();
    assert_eq!(m.mistakes, mistakes);
    let mut scores = vec![0f32; test.len()];
    m.scores_into(&&test, &mut scores);
    for (i, x) in test_rows.iter().enumerate() {
        let linear = w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>();
        assert_eq!(f64::from(scores[i]), linear, "row {i}");
    }
    let predicted = m.predict(&&test);
    for (i, x) in test_rows.iter().enumerate() {
        let linear = w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>();
        assert_eq!(predicted[i], if linear > 0.0 { 1.0 } else { -1.0 });
    }
}

#[test]
fn mistakes_stay_within_novikoffs_bound_in_feature_space() {
    // Inside or outside a circle, with a gap: separable by the quadratic
    // kernel (⟨x, x′⟩ + 1)², whose features are (x₁², x₂², √2x₁x₂, √2x₁,
    // √2x₂, 1); the separator u = (−1, −1, 0, 0, 0, r²).
    let mut ex = InMemoryExamples::new(2);
    let (mut s, r2) = (0x1234_5678_9abc_def1u64, 2.0f64);
    let mut points = Vec::new();
    while points.len() < 400 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let (a, b) = ((s % 1000) as f64 / 250.0 - 2.0, ((s >> 20) % 1000) as f64 / 250.0 - 2.0);
        let q = a * a + b * b;
        if (q - r2).abs() > 0.4 {
            points.push((a, b, if q < r2 { 1.0 } else { -1.0 }));
        }
    }
    for &(a, b, y) in &points {
        ex.push(&[0, 1], &[a as f32, b as f32], y as f32).unwrap();
    }
    let phi = |a: f64, b: f64| [a * a, b * b, 2f64.sqrt() * a * b, 2f64.sqrt() * a, 2f64.sqrt() * b, 1.0];
    let u = [-1.0, -1.0, 0.0, 0.0, 0.0, r2];
    let un = u.iter().map(|v| v * v).sum::<f64>().sqrt();
    let gamma = points.iter().map(|&(a, b, y)| y * phi(a, b).iter().zip(&u).map(|(p, u)| p * u).sum::<f64>() / un);
    let gamma = gamma.fold(f64::INFINITY, f64::min);
    let r = points.iter().map(|&(a, b, _)| a * a + b * b + 1.0).fold(0.0, f64::max); // √k(x, x)
    assert!(gamma > 0.0);
    let bound = (r / gamma).powi(2);
    let kernel = Kernel::Poly { gamma: 1.0, coef0: 1.0, degree: 2 };
    let m = train_kernel(&&ex, &params(kernel, KernelForm::Last, Outputs::Binary, 30)).unwrap();
    assert!((m.mistakes as f64) <= bound, "{} mistakes, bound {bound:.1}", m.mistakes);
    // Separated: the model classifies every training point.
    assert!(m.predict(&&ex).iter().zip(&points).all(|(p, q)| *p == q.2 as f32));
}

#[test]
fn the_budget_is_never_exceeded_and_the_voted_form_refuses_one() {
    let (ex, _) = data(600, 6, 4, |x| if x[0] * x[1] > x[2] + (x[3] % 2.0) { 1.0 } else { -1.0 });
    let rbf = Kernel::Rbf { gamma: 0.3 };
    let free = train_kernel(&&ex, &params(rbf, KernelForm::Last, Outputs::Binary, 2)).unwrap();
    for budget in [1, 7, 50] {
        assert!(free.support_rows() > budget);
        for form in [KernelForm::Last, KernelForm::Averaged] {
            let m = train_kernel(&&ex, &KernelParams { budget: Some(budget), ..params(rbf, form, Outputs::Binary, 2) })
                .unwrap();
            assert_eq!(m.support_rows(), budget, "{form:?}, budget {budget}");
        }
    }
    let e = train_kernel(&&ex, &KernelParams { budget: Some(5), ..params(rbf, KernelForm::Voted, Outputs::Binary, 1) })
        .unwrap_err()
        .to_string();
    assert!(e.contains("budget") && e.contains("voted"), "{e}");
    let e = train_kernel(&&ex, &params(Kernel::Rbf { gamma: -1.0 }, KernelForm::Last, Outputs::Binary, 1))
        .unwrap_err()
        .to_string();
    assert!(e.contains("gamma"), "{e}");
    let e = train_kernel(&&ex, &params(rbf, KernelForm::Last, Outputs::OneVsRest(3), 1)).unwrap_err().to_string();
    assert!(e.contains("label"), "{e}");
}

#[test]
fn the_budgeted_run_is_the_sequential_one() {
    // With a budget, evictions inside a block must be taken back from the
    // scores of the block's later examples: the same model as blocks of
    // one example would give, i.e. as scoring every example afresh.
    let (ex, rows) = data(500, 5, 5, |x| if x[0] + x[1] > x[2] + x[3] { 1.0 } else { -1.0 });
    let kernel = Kernel::Poly { gamma: 1.0, coef0: 1.0, degree: 2 };
    let m =
        train_kernel(&&ex, &KernelParams { budget: Some(10), ..params(kernel, KernelForm::Last, Outputs::Binary, 2) })
            .unwrap();
    // The plain algorithm with the documented rule: least Σ|α|, oldest first.
    let k = poly(1.0, 1.0, 2);
    let mut support: Vec<(usize, f64, u64)> = Vec::new(); // (example, α, born)
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut order: Vec<u32> = (0..rows.len() as u32).collect();
    let (mut step, mut mistakes) = (0u64, 0u64);
    for _ in 0..2 {
        order.shuffle(&mut rng);
        for &e in &order {
            let e = e as usize;
            let y = f64::from((&ex).label(e));
            let f: f64 = support.iter().map(|&(s, a, _)| a * k(&rows[s], &rows[e])).sum();
            if y * f <= 0.0 {
                mistakes += 1;
                match support.iter().position(|s| s.0 == e) {
                    Some(p) => support[p].1 += y,
                    None => {
                        if support.len() == 10 {
                            let p = (0..support.len())
                                .min_by(|&a, &b| {
                                    support[a]
                                        .1
                                        .abs()
                                        .total_cmp(&support[b].1.abs())
                                        .then(support[a].2.cmp(&support[b].2))
                                })
                                .unwrap();
                            support[p] = (e, y, step);
                        } else {
                            support.push((e, y, step));
                        }
                    }
                }
            }
            step += 1;
        }
    }
    assert_eq!(m.mistakes, mistakes);
    for (slot, &(e, a, _)) in support.iter().enumerate() {
        assert_eq!(f64::from(m.coef[slot]), a, "slot {slot}");
        assert_eq!(m.rows[slot * 5..(slot + 1) * 5].iter().map(|&v| f64::from(v)).collect::<Vec<_>>(), rows[e]);
    }
}

#[test]
fn the_model_is_the_same_on_one_and_two_threads() {
    // Enough support rows for several chunks of the block's kernel values.
    let (ex, _) = data(3000, 10, 6, |x| if (x[0] * x[3] + x[5]) % 3.0 == 0.0 { 1.0 } else { -1.0 });
    let p = params(Kernel::Rbf { gamma: 0.05 }, KernelForm::Averaged, Outputs::Binary, 1);
    let on = |threads| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| train_kernel(&&ex, &p).unwrap())
    };
    let (one, two) = (on(1), on(2));
    assert!(one.support_rows() > 2 * rosenblatt_learners::KERNEL_CHUNK, "{} support rows", one.support_rows());
    assert_eq!(one, two);
}

/// The same rows, saying that their values are bytes times `scale`: the
/// trainer then dots support rows and examples in exact integers.
struct Bytes<'a>(&'a InMemoryExamples, f32);

impl<'a> Examples for Bytes<'a> {
    type Row = <&'a InMemoryExamples as Examples>::Row;
    fn len(&self) -> usize {
        self.0.len()
    }
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn row(&self, i: usize) -> Self::Row {
        (&self.0).row(i)
    }
    fn label(&self, i: usize) -> f32 {
        (&self.0).label(i)
    }
    fn byte_scale(&self) -> Option<f32> {
        Some(self.1)
    }
}

#[test]
fn rows_of_bytes_dotted_in_integers_give_the_same_models() {
    // Whole numbers 0–3 are bytes with scale 1, and every f32 dot of them
    // is exact: both paths must give the same model, bit for bit, in every
    // form, with and without a budget (whose evictions copy byte rows too),
    // over dimensions below, at and past a load's width (16 and 64 bytes).
    let rbf = Kernel::Rbf { gamma: 0.05 };
    let poly2 = Kernel::Poly { gamma: 1.0, coef0: 1.0, degree: 2 };
    for dim in [5, 16, 70] {
        let (ex, _) = data(400, dim, 9, |x| if x[0] + x[1] > x[2] + x[3] { 1.0 } else { -1.0 });
        let (multi, _) = data(400, dim, 10, |x| ((x[0] + x[1]) as usize % 3) as f32);
        for (set, outputs) in
            [(&ex, Outputs::Binary), (&multi, Outputs::OneVsRest(3)), (&multi, Outputs::Multiclass(3))]
        {
            for (kernel, form, budget) in [
                (rbf, KernelForm::Averaged, None),
                (poly2, KernelForm::Voted, None),
                (rbf, KernelForm::Last, Some(12)),
                (poly2, KernelForm::Averaged, Some(30)),
            ] {
                let p = KernelParams { budget, ..params(kernel, form, outputs, 2) };
                let f32s = train_kernel(&set, &p).unwrap();
                let bytes = train_kernel(&Bytes(set, 1.0), &p).unwrap();
                assert!(f32s.mistakes > 10, "{dim} {outputs:?} {form:?}");
                // The byte model knows its rows are bytes; otherwise equal.
                assert_eq!(bytes.scale, Some(1.0));
                assert_eq!(
                    rosenblatt_learners::KernelModel { scale: None, ..bytes },
                    f32s,
                    "{dim} {outputs:?} {form:?}"
                );
            }
        }
    }
    // A set that claims bytes but holds other values is computed in f32.
    let (ex, _) = data(200, 6, 11, |x| if x[0] > x[1] { 1.0 } else { -1.0 });
    let p = params(rbf, KernelForm::Last, Outputs::Binary, 1);
    let claimed = train_kernel(&Bytes(&ex, 0.7), &p).unwrap();
    assert_eq!(claimed.scale, None);
    assert_eq!(claimed, train_kernel(&&ex, &p).unwrap());
}
