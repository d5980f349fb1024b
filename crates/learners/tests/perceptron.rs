//! The Perceptron family against plain f64 implementations written here, and
//! against the mistake bounds of Novikoff and of Freund & Schapire on
//! generated data.

mod common;
use common::{Plain, Spy, dot, generate, importance, plain, seq};
use rosenblatt_kernels::Examples;
use rosenblatt_learners::{
    AveragedPerceptron, Bias, Hooks, InMemoryExamples, LearnError, LiftedExamples, OnlineLearner, Order,
    PROGRESS_EVERY, Perceptron, PerceptronParams, TrainOptions, VotedParts, VotedPerceptron, VotedPredictor, Weighted,
    train, train_with,
};

/// The f64 Perceptron, sequential order: per-pass mistake positions, final
/// weights and bias.
fn ref_perceptron(p: &Plain, passes: usize, eta: f64, bias: bool) -> (Vec<Vec<usize>>, Vec<f64>, f64) {
    let mut w = vec![0.0; p.x[0].len()];
    let mut b = 0.0;
    let mut all = Vec::new();
    for _ in 0..passes {
        let mut mistakes = Vec::new();
        for (i, (x, &y)) in p.x.iter().zip(&p.y).enumerate() {
            if y * (dot(&w, x) + b) <= 0.0 {
                mistakes.push(i);
                w.iter_mut().zip(x).for_each(|(wi, xi)| *wi += eta * y * xi);
                if bias {
                    b += eta * y;
                }
            }
        }
        all.push(mistakes);
    }
    (all, w, b)
}

fn close(a: f32, b: f64, scale: f64) -> bool {
    (f64::from(a) - b).abs() <= 1e-4 * (1.0 + scale)
}

#[test]
fn perceptron_matches_the_f64_reference_exactly_on_dyadic_data() {
    let (data, _) = generate(300, 40, 0.0, 0.1, true, 1);
    let p = plain(&data);
    let (ref_mistakes, w, b) = ref_perceptron(&p, 5, 1.0, true);
    let mut l = Spy::new(Perceptron::new(40, PerceptronParams::default()).unwrap());
    let report = train(&mut l, &&data, &seq(5.0)).unwrap();
    assert_eq!(l.mistakes, ref_mistakes.concat());
    for (pass, m) in report.passes.iter().zip(&ref_mistakes) {
        assert_eq!(pass.mistakes as usize, m.len());
    }
    let model = l.model();
    // Dyadic values: every f32 sum is exact, so the weights are equal.
    assert_eq!(model.weights.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(), w);
    assert_eq!(f64::from(model.bias), b);
}

#[test]
fn perceptron_matches_the_f64_reference_on_real_valued_data() {
    let (data, _) = generate(400, 60, 0.0, 0.05, false, 2);
    let p = plain(&data);
    let (ref_mistakes, w, b) = ref_perceptron(&p, 3, 1.0, true);
    let mut l = Spy::new(Perceptron::new(60, PerceptronParams::default()).unwrap());
    train(&mut l, &&data, &seq(3.0)).unwrap();
    assert_eq!(l.mistakes, ref_mistakes.concat());
    let model = l.model();
    let scale = w.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for (a, r) in model.weights.iter().zip(&w) {
        assert!(close(*a, *r, scale), "{a} vs {r}");
    }
    assert!(close(model.bias, b, scale));
}

#[test]
fn explicit_bias_and_lifted_rows_agree() {
    let (data, _) = generate(300, 30, 0.0, 0.1, false, 3);
    let mut explicit = Spy::new(Perceptron::new(30, PerceptronParams::default()).unwrap());
    train(&mut explicit, &&data, &seq(4.0)).unwrap();
    let params = PerceptronParams { bias: Bias::None, ..Default::default() };
    let mut lifted = Spy::new(Perceptron::new(31, params).unwrap());
    let d = &data;
    train(&mut lifted, &LiftedExamples(&d), &seq(4.0)).unwrap();
    assert_eq!(explicit.mistakes, lifted.mistakes);
    let (e, l) = (explicit.model(), lifted.model());
    assert_eq!(&l.weights[..30], &e.weights[..]);
    assert_eq!(l.weights[30], e.bias);
    assert_eq!(l.bias, 0.0);
}

#[test]
fn the_step_size_changes_no_prediction_and_no_mistake() {
    let (data, _) = generate(300, 30, 0.0, 0.1, false, 4);
    let run = |eta: f32| {
        let mut l = Spy {
            inner: Perceptron::new(30, PerceptronParams { eta, ..Default::default() }).unwrap(),
            mistakes: vec![],
        };
        train(&mut l, &&data, &TrainOptions { passes: 3.0, seed: 9, ..Default::default() }).unwrap();
        (l.mistakes.clone(), l.model())
    };
    let (m1, w1) = run(1.0);
    for eta in [0.125f32, 32.0, 0.37, 5.5] {
        let (m, w) = run(eta);
        assert_eq!(m, m1, "eta {eta}");
        let d = &data;
        for i in 0..d.len() {
            assert_eq!(w.predict(&d.row(i)), w1.predict(&d.row(i)), "eta {eta}, example {i}");
        }
        if eta.log2().fract() == 0.0 {
            // Powers of two scale every f32 exactly.
            assert!(w.weights.iter().zip(&w1.weights).all(|(a, b)| *a == b * eta));
        }
    }
}

#[test]
fn novikoff_bound_holds_and_the_batch_perceptron_converges() {
    for (seed, gamma) in [(5u64, 0.3f64), (6, 0.1), (7, 0.5)] {
        let (data, u) = generate(500, 20, gamma, 0.0, false, seed);
        let p = plain(&data);
        let r = p.x.iter().map(|x| dot(x, x).sqrt()).fold(0.0, f64::max);
        // The margin actually achieved by u (at least `gamma` by construction).
        let g = p.x.iter().zip(&p.y).map(|(x, y)| y * dot(&u, x)).fold(f64::INFINITY, f64::min);
        assert!(g >= gamma);
        let params = PerceptronParams { bias: Bias::None, ..Default::default() };
        let mut l = Perceptron::new(20, params).unwrap();
        let opts =
            TrainOptions { passes: 1000.0, order: Order::Shuffle, seed, stop_when_separated: true, first_pass: 0 };
        let report = train(&mut l, &&data, &opts).unwrap();
        let bound = (r / g).powi(2);
        assert!(report.separated_at.is_some(), "separable data must converge");
        assert!(report.mistakes() as f64 <= bound, "{} mistakes > (R/γ)² = {bound}", report.mistakes());
        // Converged: the final vector classifies every example correctly.
        assert_eq!(l.model().error_rate(&&data), 0.0);
    }
}

#[test]
fn freund_schapire_bound_holds_on_non_separable_data() {
    for (seed, noise) in [(8u64, 0.05f64), (9, 0.15), (10, 0.3)] {
        let (data, u) = generate(2000, 25, 0.0, noise, false, seed);
        let p = plain(&data);
        let r = p.x.iter().map(|x| dot(x, x).sqrt()).fold(0.0, f64::max);
        let params = PerceptronParams { bias: Bias::None, ..Default::default() };
        let mut l = Perceptron::new(25, params).unwrap();
        let report = train(&mut l, &&data, &seq(1.0)).unwrap();
        // The bound holds for every γ > 0; check several.
        for gamma in [0.05, 0.2, 0.5, 1.0] {
            let d2: f64 = p.x.iter().zip(&p.y).map(|(x, y)| (gamma - y * dot(&u, x)).max(0.0).powi(2)).sum();
            let bound = ((r + d2.sqrt()) / gamma).powi(2);
            assert!(report.mistakes() as f64 <= bound, "{} > {bound} (γ = {gamma})", report.mistakes());
        }
    }
}

#[test]
fn the_batch_perceptron_reports_when_data_is_not_separated() {
    let (data, _) = generate(300, 10, 0.0, 0.2, false, 11);
    let mut l = Perceptron::new(10, PerceptronParams::default()).unwrap();
    let opts =
        TrainOptions { passes: 5.0, order: Order::Sequential, seed: 0, stop_when_separated: true, first_pass: 0 };
    let report = train(&mut l, &&data, &opts).unwrap();
    assert_eq!(report.separated_at, None);
    assert_eq!(report.passes.len(), 5);
}

/// f64 averaged perceptron: the mean of the weights after each step, over
/// steps `from..T`.
fn ref_averaged(p: &Plain, passes: usize, from: usize) -> (Vec<f64>, f64) {
    let mut w = vec![0.0; p.x[0].len()];
    let mut b = 0.0;
    let mut sum = vec![0.0; w.len()];
    let mut sb = 0.0;
    let mut t = 0;
    let mut count = 0.0;
    for _ in 0..passes {
        for ((x, &y), &h) in p.x.iter().zip(&p.y).zip(&p.h) {
            if h == 0.0 {
                continue;
            }
            if y * (dot(&w, x) + b) <= 0.0 {
                w.iter_mut().zip(x).for_each(|(wi, xi)| *wi += h * y * xi);
                b += h * y;
            }
            t += 1;
            if t > from {
                sum.iter_mut().zip(&w).for_each(|(s, wi)| *s += wi);
                sb += b;
                count += 1.0;
            }
        }
    }
    (sum.iter().map(|s| s / count).collect(), sb / count)
}

#[test]
fn averaged_perceptron_matches_the_f64_reference() {
    let (data, _) = generate(500, 50, 0.0, 0.1, false, 12);
    let p = plain(&data);
    for last_half in [false, true] {
        let (w, b) = ref_averaged(&p, 4, if last_half { 1000 } else { 0 });
        let mut l = AveragedPerceptron::new(50, PerceptronParams::default(), last_half).unwrap();
        train(&mut l, &&data, &seq(4.0)).unwrap();
        let m = l.model();
        let scale = w.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        for (a, r) in m.weights.iter().zip(&w) {
            assert!(close(*a, *r, scale), "last_half {last_half}: {a} vs {r}");
        }
        assert!(close(m.bias, b, scale));
    }
}

#[test]
fn averaged_perceptron_matches_the_f64_reference_over_a_large_sparse_dimension() {
    // The same rows with their 50 features scattered over 2^18: `u` (1 MB)
    // is large enough that the learner defers its updates of it.
    let (data, _) = generate(500, 50, 0.0, 0.1, false, 13);
    let p = plain(&data);
    let dim = 1 << 18;
    let at: Vec<u32> = (0..50).map(|j| j * 5_227 + 17).collect();
    let mut wide = InMemoryExamples::new(dim);
    for (x, &y) in p.x.iter().zip(&p.y) {
        let (ix, v): (Vec<u32>, Vec<f32>) =
            x.iter().zip(&at).filter(|e| *e.0 != 0.0).map(|(&v, &i)| (i, v as f32)).unzip();
        wide.push(&ix, &v, y as f32).unwrap();
    }
    for last_half in [false, true] {
        let (w, b) = ref_averaged(&p, 4, if last_half { 1000 } else { 0 });
        let mut l = AveragedPerceptron::new(dim, PerceptronParams::default(), last_half).unwrap();
        train(&mut l, &&wide, &seq(4.0)).unwrap();
        let m = l.model();
        let scale = w.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        for (j, r) in w.iter().enumerate() {
            let a = m.weights[at[j] as usize];
            assert!(close(a, *r, scale), "last_half {last_half}, feature {j}: {a} vs {r}");
        }
        let elsewhere = m.weights.iter().enumerate().filter(|(i, v)| !at.contains(&(*i as u32)) && **v != 0.0).count();
        assert_eq!(elsewhere, 0, "weights away from the rows' features");
        assert!(close(m.bias, b, scale));
    }
}

/// Runs an f64 average beside a learner: the same updates (the learner's
/// decisions), accumulated in f64 after every step.
struct F64Average<L> {
    inner: L,
    w: Vec<f64>,
    sum: Vec<f64>,
    steps: u64,
}
impl<L: OnlineLearner> OnlineLearner for F64Average<L> {
    type Model = L::Model;
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn begin(&mut self, plan: &rosenblatt_learners::Plan) {
        self.inner.begin(plan)
    }
    fn margin<R: rosenblatt_kernels::Row>(&self, x: &R) -> f32 {
        self.inner.margin(x)
    }
    fn learn<R: rosenblatt_kernels::Row>(&mut self, x: &R, y: f32, h: f32, e: usize) -> rosenblatt_learners::Step {
        let s = self.inner.learn(x, y, h, e);
        if s.updated {
            for k in 0..x.nnz() {
                let (i, v) = x.entry(k);
                self.w[i] += f64::from(y) * f64::from(v);
            }
        }
        self.sum.iter_mut().zip(&self.w).for_each(|(a, w)| *a += w);
        self.steps += 1;
        s
    }
    fn model(&self) -> L::Model {
        self.inner.model()
    }
}

#[test]
fn averaging_stays_accurate_over_a_hundred_million_steps() {
    // Non-separable points in a shuffled order: updates at irregular steps
    // throughout the 10^8 steps, so rounding in a long-lived accumulator
    // would not cancel.
    let mut data = InMemoryExamples::new(2);
    data.push(&[0, 1], &[1.0, 0.3], 1.0).unwrap();
    data.push(&[0, 1], &[1.0, 0.3], -1.0).unwrap();
    data.push(&[0, 1], &[0.7, -1.1], 1.0).unwrap();
    data.push(&[0, 1], &[-0.2, 0.9], -1.0).unwrap();
    let params = PerceptronParams { bias: Bias::None, ..Default::default() };
    let inner = AveragedPerceptron::new(2, params, false).unwrap();
    let mut l = F64Average { inner, w: vec![0.0; 2], sum: vec![0.0; 2], steps: 0 };
    let opts = TrainOptions {
        passes: 25_000_000.0,
        order: Order::Shuffle,
        seed: 5,
        stop_when_separated: false,
        first_pass: 0,
    };
    let report = train(&mut l, &&data, &opts).unwrap();
    assert_eq!(report.steps(), 100_000_000);
    assert!(report.updates() > 10_000_000, "{} updates", report.updates());
    let m = l.model();
    for j in 0..2 {
        let want = l.sum[j] / l.steps as f64;
        let rel = (f64::from(m.weights[j]) - want).abs() / want.abs().max(1e-12);
        assert!(rel < 1e-5, "weight {j}: {} vs {want} (relative error {rel})", m.weights[j]);
    }
}

/// f64 voted perceptron: every vector and count, and the vote for a row.
fn ref_vote(p: &Plain, passes: usize, x: &[f64]) -> (f64, f64) {
    let mut w = vec![0.0; p.x[0].len()];
    let mut b = 0.0;
    let (mut vecs, mut counts) = (vec![(w.clone(), b)], vec![0u64]);
    for _ in 0..passes {
        for ((xi, &y), &h) in p.x.iter().zip(&p.y).zip(&p.h) {
            if h == 0.0 {
                continue;
            }
            if y * (dot(&w, xi) + b) <= 0.0 {
                w.iter_mut().zip(xi).for_each(|(a, c)| *a += h * y * c);
                b += h * y;
                vecs.push((w.clone(), b));
                counts.push(0);
            }
            *counts.last_mut().unwrap() += 1;
        }
    }
    let mut vote = 0.0;
    let mut near_zero = 0.0; // votes that rounding could flip
    for ((v, vb), c) in vecs.iter().zip(&counts) {
        let m = dot(v, x) + vb;
        vote += *c as f64 * m.signum() * f64::from(u8::from(m != 0.0));
        if m.abs() < 1e-3 {
            near_zero += *c as f64;
        }
    }
    (vote, near_zero)
}

#[test]
fn voted_perceptron_matches_the_f64_reference() {
    let (data, _) = generate(300, 30, 0.0, 0.1, false, 13);
    let (test, _) = generate(100, 30, 0.0, 0.1, false, 14);
    let p = plain(&data);
    let pt = plain(&test);
    let mut l = VotedPerceptron::new(30, PerceptronParams::default(), false).unwrap();
    let report = train(&mut l, &&data, &seq(3.0)).unwrap();
    let model = l.model();
    assert_eq!(model.mistakes() as u64, report.mistakes());
    assert!(model.distinct_examples() < model.mistakes(), "mistakes repeat across passes");
    let predictor = model.predictor(&&data);
    let mut votes = vec![0.0; test.len()];
    predictor.votes(&&test, &mut votes);
    for (i, x) in pt.x.iter().enumerate() {
        let (want, slack) = ref_vote(&p, 3, x);
        assert!((votes[i] - want).abs() <= 2.0 * slack, "row {i}: {} vs {want}", votes[i]);
    }
    // One row alone votes exactly as in a block.
    let t = &test;
    for i in [0, 7, 8, 99] {
        assert_eq!(predictor.vote(&t.row(i)), votes[i]);
    }
    // Training-set predictions are mostly right on this easy data.
    assert!(predictor.error_rate(&&data) < 0.2);
}

/// Weighted rows: each mistake's update `h·y·x`, rows of weight 0 not
/// steps; the averaged and voted forms average and vote over steps.
#[test]
fn weighted_perceptrons_match_the_f64_reference() {
    let (data, _) = generate(300, 30, 0.0, 0.1, true, 15);
    let (test, _) = generate(100, 30, 0.0, 0.1, true, 16);
    let h = importance(data.len());
    let h32: Vec<f32> = h.iter().map(|&v| v as f32).collect();
    let weighted = Weighted::new(&data, &h32).unwrap();
    let p = plain(&data).weighted(&h);
    let (w, b) = ref_averaged(&p, 3, 0);
    let mut l = AveragedPerceptron::new(30, PerceptronParams::default(), false).unwrap();
    train(&mut l, &weighted, &seq(3.0)).unwrap();
    let (m, scale) = (l.model(), w.iter().fold(0.0f64, |a, v| a.max(v.abs())));
    m.weights.iter().zip(&w).for_each(|(a, r)| assert!(close(*a, *r, scale), "{a} vs {r}"));
    assert!(close(m.bias, b, scale));
    // The last vector: the Perceptron's own (dyadic rows and weights: exact).
    let mut last = Perceptron::new(30, PerceptronParams::default()).unwrap();
    train(&mut last, &weighted, &seq(3.0)).unwrap();
    let (mut w, mut b) = (vec![0.0f64; 30], 0.0);
    for _ in 0..3 {
        for ((x, &y), &h) in p.x.iter().zip(&p.y).zip(&p.h) {
            if h != 0.0 && y * (dot(&w, x) + b) <= 0.0 {
                w.iter_mut().zip(x).for_each(|(a, c)| *a += h * y * c);
                b += h * y;
            }
        }
    }
    assert_eq!(last.weights().iter().map(|&v| f64::from(v)).collect::<Vec<_>>(), w);
    assert_eq!(f64::from(last.bias()), b);
    let mut v = VotedPerceptron::new(30, PerceptronParams::default(), false).unwrap();
    train(&mut v, &weighted, &seq(3.0)).unwrap();
    let predictor = v.model().predictor(&&data);
    let mut votes = vec![0.0; test.len()];
    predictor.votes(&&test, &mut votes);
    for (i, x) in plain(&test).x.iter().enumerate() {
        let (want, slack) = ref_vote(&p, 3, x);
        assert!((votes[i] - want).abs() <= 2.0 * slack, "row {i}: {} vs {want}", votes[i]);
    }
}

/// Weight k is k repeats of the row exactly when each repeat is still a
/// mistake: here a row (x, +1) met after (x, −1) of weight 10 is wrong for
/// its first ten repeats, so weight k ≤ 10 and k repeats leave the same
/// vector, bit for bit. (Past that, repeats stop updating and weight k does
/// not: the weight scales the update, as scikit-learn's and VW's do.)
#[test]
fn weight_k_is_k_repeats_while_each_repeat_is_a_mistake() {
    let x: Vec<f32> = vec![0.5, -1.0, 0.25, 2.0];
    let mut data = InMemoryExamples::new(4);
    data.push_dense(&x, -1.0).unwrap();
    for k in 1..=10u8 {
        let mut repeated = data.clone();
        (0..k).for_each(|_| repeated.push_dense(&x, 1.0).unwrap());
        let mut once = data.clone();
        once.push_dense(&x, 1.0).unwrap();
        let h = [10.0, f32::from(k)];
        let mut a = Perceptron::new(4, PerceptronParams::default()).unwrap();
        let mut b = a.clone();
        let hr: Vec<f32> = std::iter::once(10.0).chain((0..k).map(|_| 1.0)).collect();
        train(&mut a, &Weighted::new(&repeated, &hr).unwrap(), &seq(1.0)).unwrap();
        train(&mut b, &Weighted::new(&once, &h).unwrap(), &seq(1.0)).unwrap();
        assert_eq!(a.weights(), b.weights(), "k = {k}");
        assert_eq!(a.bias(), b.bias(), "k = {k}");
    }
}

#[test]
fn voted_predictor_round_trips_through_its_parts_and_rejects_bad_ones() {
    let (data, _) = generate(200, 20, 0.0, 0.1, false, 21);
    let (test, _) = generate(50, 20, 0.0, 0.1, false, 22);
    let mut l = VotedPerceptron::new(20, PerceptronParams::default(), false).unwrap();
    train(&mut l, &&data, &seq(2.0)).unwrap();
    let predictor = l.model().predictor(&&data);
    let parts = predictor.to_parts();
    let back = VotedPredictor::from_parts(parts.clone()).unwrap();
    let (mut a, mut b) = (vec![0.0; test.len()], vec![0.0; test.len()]);
    predictor.votes(&&test, &mut a);
    back.votes(&&test, &mut b);
    assert_eq!(a, b);
    assert_eq!(back.to_parts(), parts);
    type Break = fn(&mut VotedParts);
    let breaks: [(&str, Break); 9] = [
        ("eta", |p| p.eta = f32::NAN),
        ("offsets", |p| *p.offsets.last_mut().unwrap() += 1),
        ("offsets", |p| p.offsets.swap(1, 2)),
        ("indices", |p| p.indices[0] = p.dim as u32),
        ("values", |p| p.values[0] = 0.0),
        ("slots", |p| p.slots[0] = u32::MAX),
        ("labels", |p| p.labels[0] = 0.0),
        ("labels", |p| p.labels[1] = f32::INFINITY),
        ("mistakes", |p| {
            p.counts.pop();
        }),
    ];
    for (name, f) in breaks {
        let mut p = parts.clone();
        f(&mut p);
        let e = VotedPredictor::from_parts(p).unwrap_err();
        assert!(e.to_string().starts_with(name), "{name}: {e}");
    }
}

#[test]
fn same_seed_same_model_bit_for_bit() {
    let (data, _) = generate(500, 40, 0.0, 0.1, false, 15);
    let run = |seed: u64, order: Order| {
        let mut l = AveragedPerceptron::new(40, PerceptronParams::default(), false).unwrap();
        let r = train(
            &mut l,
            &&data,
            &TrainOptions { passes: 2.5, order, seed, stop_when_separated: false, first_pass: 0 },
        )
        .unwrap();
        (l.model(), r.mistakes())
    };
    for order in [Order::Shuffle, Order::Sample] {
        let (a, ma) = run(3, order);
        let (b, mb) = run(3, order);
        assert_eq!(ma, mb);
        assert_eq!(
            a.weights.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            b.weights.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        let (c, _) = run(4, order);
        assert_ne!(a.weights, c.weights, "another seed gives another order");
    }
}

#[test]
fn orders_and_fractional_passes() {
    let (data, _) = generate(200, 10, 0.0, 0.1, false, 16);
    let run = |order: Order, passes: f64| {
        let mut l = Seen::new(10);
        let r =
            train(&mut l, &&data, &TrainOptions { passes, order, seed: 1, stop_when_separated: false, first_pass: 0 })
                .unwrap();
        (l.seen, r)
    };
    let (seen, r) = run(Order::Sequential, 2.1);
    assert_eq!(r.passes.iter().map(|p| p.examples).collect::<Vec<_>>(), vec![200, 200, 20]);
    assert_eq!(&seen[..200], &(0..200).collect::<Vec<_>>()[..]);
    assert_eq!(&seen[400..], &(0..20).collect::<Vec<_>>()[..]);
    let (seen, _) = run(Order::Shuffle, 2.0);
    for pass in seen.chunks(200) {
        let mut s = pass.to_vec();
        s.sort_unstable();
        assert_eq!(s, (0..200).collect::<Vec<_>>(), "each shuffled pass is a permutation");
    }
    assert_ne!(&seen[..200], &seen[200..], "passes are shuffled afresh");
    let (seen, _) = run(Order::Sample, 1.0);
    assert_eq!(seen.len(), 200);
    let mut s = seen.clone();
    s.sort_unstable();
    s.dedup();
    assert!(s.len() < 200, "sampling with replacement repeats examples");
    let (seen, _) = run(Order::Shuffle, 0.1);
    assert_eq!(seen.len(), 20);
    // The least fraction that reaches a row (0.5 of one row rounds up),
    // and one that reaches none: refused, not a model that learned nothing.
    assert_eq!(run(Order::Sequential, 0.0025).0.len(), 1);
    let mut l = Seen::new(10);
    let e = train(&mut l, &&data, &TrainOptions { passes: 0.002, ..TrainOptions::default() }).unwrap_err();
    assert!(e.to_string().contains("passes = 0.002 is invalid: enough of a pass for one example"), "{e}");
}

#[test]
fn bad_parameters_and_labels_are_refused() {
    let (data, _) = generate(50, 5, 0.0, 0.0, false, 17);
    assert!(matches!(
        Perceptron::new(5, PerceptronParams { eta: 0.0, ..Default::default() }),
        Err(LearnError::Parameter { name: "eta", .. })
    ));
    assert!(matches!(
        Perceptron::new(5, PerceptronParams { eta: f32::NAN, ..Default::default() }),
        Err(LearnError::Parameter { .. })
    ));
    let mut l = Perceptron::new(5, PerceptronParams::default()).unwrap();
    for passes in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e18] {
        let e = train(&mut l, &&data, &seq(passes)).unwrap_err();
        assert!(matches!(e, LearnError::Parameter { name: "passes", .. }), "{e}");
    }
    let mut bad = InMemoryExamples::new(5);
    bad.push(&[1], &[1.0], 1.0).unwrap();
    bad.push(&[2], &[1.0], 3.0).unwrap();
    assert_eq!(train(&mut l, &&bad, &seq(1.0)).unwrap_err(), LearnError::NotBinary { index: 1, label: 3.0 });
    assert_eq!(train(&mut l, &&InMemoryExamples::new(5), &seq(1.0)).unwrap_err(), LearnError::Empty);
    let mut small = Perceptron::new(3, PerceptronParams::default()).unwrap();
    assert_eq!(train(&mut small, &&data, &seq(1.0)).unwrap_err(), LearnError::Dimension { data: 5, learner: 3 });
}

#[test]
fn bound_diagnostics_match_a_direct_computation_and_hold() {
    use rosenblatt_learners::{LinearModel, mistake_bounds};
    let (data, u) = generate(800, 15, 0.2, 0.0, false, 21);
    let p = plain(&data);
    let reference = LinearModel { weights: u.iter().map(|&v| v as f32).collect(), bias: 0.0 };
    let b = mistake_bounds(&&data, &reference, false).unwrap();
    let r = p.x.iter().map(|x| dot(x, x).sqrt()).fold(0.0, f64::max);
    let norm = reference.weights.iter().map(|&w| f64::from(w).powi(2)).sum::<f64>().sqrt();
    let g =
        p.x.iter()
            .zip(&p.y)
            .map(|(x, y)| y * x.iter().zip(&reference.weights).map(|(a, w)| a * f64::from(*w)).sum::<f64>() / norm)
            .fold(f64::INFINITY, f64::min);
    assert!((b.r - r).abs() < 1e-9 && (b.margin - g).abs() < 1e-9, "{b:?}");
    assert!((b.novikoff.unwrap() - (r / g).powi(2)).abs() < 1e-6);
    // Separable: at γ = margin, D = 0 and Freund–Schapire is Novikoff; the
    // chosen γ can only do better.
    assert!(b.freund_schapire <= b.novikoff.unwrap() + 1e-9);
    let mut l = Perceptron::new(15, PerceptronParams { bias: Bias::None, ..Default::default() }).unwrap();
    let mistakes = train(&mut l, &&data, &seq(1.0)).unwrap().mistakes() as f64;
    assert!(mistakes <= b.freund_schapire, "{mistakes} > {}", b.freund_schapire);
    // With noise, u no longer separates: no Novikoff bound, Freund–Schapire still holds.
    let (noisy, u) = generate(800, 15, 0.0, 0.1, false, 22);
    let reference = LinearModel { weights: u.iter().map(|&v| v as f32).collect(), bias: 0.0 };
    let b = mistake_bounds(&&noisy, &reference, false).unwrap();
    assert!(b.margin < 0.0 && b.novikoff.is_none() && b.deficit > 0.0);
    let mut l = Perceptron::new(15, PerceptronParams { bias: Bias::None, ..Default::default() }).unwrap();
    let mistakes = train(&mut l, &&noisy, &seq(1.0)).unwrap().mistakes() as f64;
    assert!(mistakes <= b.freund_schapire, "{mistakes} > {}", b.freund_schapire);
}

#[test]
fn progress_is_reported_every_progress_every_examples() {
    let (data, _) = generate(1000, 5, 0.0, 0.1, false, 23);
    let mut l = Perceptron::new(5, PerceptronParams::default()).unwrap();
    let seen = std::sync::Mutex::new(Vec::new());
    let opts = TrainOptions { passes: 200.0, ..seq(1.0) };
    let hooks = Hooks { on_pass: None, progress: Some(&|n| seen.lock().unwrap().push(n)) };
    train_with(&mut l, &&data, &opts, hooks).unwrap();
    // Within a pass every PROGRESS_EVERY examples, and at every pass's end:
    // here the passes (1000 examples) end first.
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen, (1..=200).map(|p| p * 1000).collect::<Vec<u64>>());
    let long = TrainOptions { passes: 3.5, ..seq(1.0) };
    let (data, _) = generate(PROGRESS_EVERY as usize + 5, 5, 0.0, 0.1, false, 24);
    let seen = std::sync::Mutex::new(Vec::new());
    let hooks = Hooks { on_pass: None, progress: Some(&|n| seen.lock().unwrap().push(n)) };
    train_with(&mut Perceptron::new(5, PerceptronParams::default()).unwrap(), &&data, &long, hooks).unwrap();
    let n = PROGRESS_EVERY + 5;
    let tail = (0.5 * n as f64).round() as u64;
    assert_eq!(
        seen.into_inner().unwrap(),
        vec![PROGRESS_EVERY, n, n + PROGRESS_EVERY, 2 * n, 2 * n + PROGRESS_EVERY, 3 * n, 3 * n + tail]
    );
}

/// A learner that only records the examples it is shown.
struct Seen {
    dim: usize,
    seen: Vec<usize>,
}
impl Seen {
    fn new(dim: usize) -> Self {
        Seen { dim, seen: Vec::new() }
    }
}
impl OnlineLearner for Seen {
    type Model = ();
    fn dim(&self) -> usize {
        self.dim
    }
    fn margin<R: rosenblatt_kernels::Row>(&self, _: &R) -> f32 {
        0.0
    }
    fn learn<R: rosenblatt_kernels::Row>(&mut self, _: &R, _: f32, _: f32, e: usize) -> rosenblatt_learners::Step {
        self.seen.push(e);
        Default::default()
    }
    fn model(&self) {}
}

/// Examples that record what training releases and prefetches.
struct Recorded<'a> {
    data: &'a InMemoryExamples,
    released: std::sync::Mutex<Vec<std::ops::Range<usize>>>,
    asked: std::sync::Mutex<Vec<usize>>,
}
impl<'a> Recorded<'a> {
    fn new(data: &'a InMemoryExamples) -> Self {
        Recorded { data, released: Default::default(), asked: Default::default() }
    }
}
impl<'a> rosenblatt_kernels::Examples for Recorded<'a> {
    type Row = <&'a InMemoryExamples as rosenblatt_kernels::Examples>::Row;
    fn len(&self) -> usize {
        self.data.len()
    }
    fn dim(&self) -> usize {
        1
    }
    fn row(&self, i: usize) -> Self::Row {
        (&self.data).row(i)
    }
    fn label(&self, i: usize) -> f32 {
        (&self.data).label(i)
    }
    fn release(&self, range: std::ops::Range<usize>) {
        self.released.lock().unwrap().push(range);
    }
    fn prefetch(&self, i: usize) {
        self.asked.lock().unwrap().push(i);
    }
}

#[test]
fn block_order_visits_shuffled_blocks_and_releases_each_after_use() {
    use rosenblatt_learners::BLOCK_ROWS;
    // 2.5 blocks of one-feature rows.
    let n = 2 * BLOCK_ROWS + BLOCK_ROWS / 2;
    let mut data = InMemoryExamples::new(1);
    for i in 0..n {
        data.push(&[0], &[1.0], if i % 2 == 0 { 1.0 } else { -1.0 }).unwrap();
    }
    let ex = Recorded::new(&data);
    let mut l = Seen::new(1);
    let opts = TrainOptions { passes: 2.0, order: Order::Blocks, seed: 3, stop_when_separated: false, first_pass: 0 };
    train(&mut l, &ex, &opts).unwrap();
    let released = ex.released.into_inner().unwrap();
    let block = |i: usize| i / BLOCK_ROWS;
    for (pass, seen) in l.seen.chunks(n).enumerate() {
        let mut s = seen.to_vec();
        s.sort_unstable();
        assert_eq!(s, (0..n).collect::<Vec<_>>(), "pass {pass} is a permutation");
        // Each block's rows come together, shuffled within the block.
        let order: Vec<usize> = seen.chunk_by(|a, b| block(*a) == block(*b)).map(|c| block(c[0])).collect();
        assert_eq!(order.len(), 3, "pass {pass}: three runs of blocks {order:?}");
        let first = seen.chunk_by(|a, b| block(*a) == block(*b)).next().unwrap();
        assert!(first.windows(2).any(|w| w[1] != w[0] + 1), "rows shuffled within a block");
        // And each block is released right after, whole.
        let want: Vec<_> = order.iter().map(|&b| b * BLOCK_ROWS..((b + 1) * BLOCK_ROWS).min(n)).collect();
        assert_eq!(&released[pass * 3..pass * 3 + 3], &want[..], "pass {pass}");
    }
    assert_eq!(released.len(), 6);
    // A fractional pass stops inside a block and releases what it read.
    let ex = Recorded::new(&data);
    let mut l = Seen::new(1);
    train(&mut l, &ex, &TrainOptions { passes: 0.5, ..opts }).unwrap();
    assert_eq!(l.seen.len(), n / 2);
    assert!(!ex.released.into_inner().unwrap().is_empty());
}

#[test]
fn releasing_voted_predictor_votes_the_same_and_releases_each_block_once() {
    use rosenblatt_learners::BLOCK_ROWS;
    // 2.5 blocks of noisy rows: mistakes fall in every block.
    let n = 2 * BLOCK_ROWS + BLOCK_ROWS / 2;
    let (data, _) = generate(n, 8, 0.2, 0.0, false, 31);
    let (test, _) = generate(64, 8, 0.2, 0.0, false, 32);
    let ex = Recorded::new(&data);
    let mut l = VotedPerceptron::new(8, PerceptronParams::default(), false).unwrap();
    let opts = TrainOptions { passes: 1.0, order: Order::Blocks, seed: 5, stop_when_separated: false, first_pass: 0 };
    train(&mut l, &ex, &opts).unwrap();
    ex.released.lock().unwrap().clear();
    let model = l.model();
    let (plain, released) = (model.predictor(&&data), model.predictor_releasing(&ex));
    assert_eq!(plain.to_parts(), released.to_parts());
    let (mut a, mut b) = (vec![0.0; test.len()], vec![0.0; test.len()]);
    plain.votes(&&test, &mut a);
    released.votes(&&test, &mut b);
    assert_eq!(a, b);
    // Released in row order, block by block, every row exactly once.
    let r = ex.released.into_inner().unwrap();
    assert!(r.len() >= 3, "{r:?}");
    assert_eq!(r.first().unwrap().start, 0);
    assert_eq!(r.last().unwrap().end, n);
    for w in r.windows(2) {
        assert_eq!(w[0].end, w[1].start, "{r:?}");
        assert_eq!(w[0].end % BLOCK_ROWS, 0, "{r:?}");
    }
}

#[test]
fn a_slice_releases_its_own_rows_in_the_whole_sets_numbering() {
    let (data, _) = generate(300, 4, 0.0, 0.1, false, 41);
    let ex = Recorded::new(&data);
    let s = rosenblatt_learners::Slice::new(&ex, 100, 50);
    s.release(10..20);
    s.release(40..70); // clipped to the slice
    s.release(60..70); // wholly outside: nothing
    assert_eq!(ex.released.into_inner().unwrap(), vec![110..120, 140..150]);
}

#[test]
fn sequential_order_reads_as_stored_and_asks_for_each_row_four_steps_ahead() {
    let n = 300;
    let mut data = InMemoryExamples::new(1);
    for i in 0..n {
        data.push(&[0], &[1.0], if i % 3 == 0 { 1.0 } else { -1.0 }).unwrap();
    }
    let ex = Recorded::new(&data);
    let mut l = Seen::new(1);
    let opts =
        TrainOptions { passes: 2.0, order: Order::Sequential, seed: 9, stop_when_separated: false, first_pass: 0 };
    train(&mut l, &ex, &opts).unwrap();
    let stored: Vec<usize> = (0..n).collect();
    assert_eq!(l.seen, [&stored[..], &stored[..]].concat(), "both passes as stored");
    // At step k the row k + 4 (none in the last four steps), every pass.
    let ahead: Vec<usize> = (4..n).collect();
    assert_eq!(ex.asked.into_inner().unwrap(), [&ahead[..], &ahead[..]].concat());
}

#[test]
fn chunk_order_shuffles_windows_and_reads_the_next_window_ahead_in_runs() {
    use rosenblatt_learners::{CHUNK_ROWS, WINDOW_CHUNKS};
    let window = CHUNK_ROWS * WINDOW_CHUNKS;
    // Two whole windows and a partial one; the last chunk is partial.
    let n = 2 * window + 5 * CHUNK_ROWS + 17;
    let mut data = InMemoryExamples::new(1);
    for i in 0..n {
        data.push(&[0], &[1.0], if i % 2 == 0 { 1.0 } else { -1.0 }).unwrap();
    }
    let ex = Recorded::new(&data);
    let mut l = Seen::new(1);
    let opts = TrainOptions { passes: 2.0, order: Order::Chunks, seed: 9, stop_when_separated: false, first_pass: 0 };
    train(&mut l, &ex, &opts).unwrap();
    let asked = ex.asked.into_inner().unwrap();
    // At each step: the next window's row (but in the last window), then
    // the row two steps ahead in training order (but in the last two steps).
    let (per_pass, near) = (n - window, n - 2);
    assert_eq!(asked.len(), 2 * (per_pass + near), "rows asked for over two passes");
    let (mut ahead, mut close) = (Vec::new(), Vec::new());
    let mut it = asked.iter().copied();
    for _ in 0..2 {
        for k in 0..n {
            if k < per_pass {
                ahead.push(it.next().unwrap());
            }
            if k < near {
                close.push(it.next().unwrap());
            }
        }
    }
    let sorted = |rows: &[usize]| {
        let mut s = rows.to_vec();
        s.sort_unstable();
        s
    };
    let passes: Vec<&[usize]> = l.seen.chunks(n).collect();
    assert_eq!(passes.len(), 2);
    assert_ne!(passes[0], passes[1], "each pass draws a new order");
    for (p, seen) in passes.iter().enumerate() {
        assert_eq!(sorted(seen), (0..n).collect::<Vec<_>>(), "pass {p} is a permutation");
        assert_eq!(&close[p * near..(p + 1) * near], &seen[2..], "pass {p}: each row prefetched two steps before");
        let ahead = &ahead[p * per_pass..(p + 1) * per_pass];
        let windows: Vec<&[usize]> = seen.chunks(window).collect();
        assert_eq!(windows.len(), 3);
        for (w, rows) in windows.iter().enumerate() {
            // Rows are shuffled within a window: few consecutive pairs.
            let runs = rows.windows(2).filter(|x| x[1] == x[0] + 1).count();
            assert!(runs < rows.len() / 8, "pass {p} window {w}: {runs} consecutive pairs");
            // While a window trains, the next one is read ahead: the same
            // rows, in runs of whole chunks in storage order.
            if let Some(next) = windows.get(w + 1) {
                let read = &ahead[w * window..(w * window + next.len()).min(per_pass)];
                assert_eq!(sorted(read), sorted(next), "pass {p} window {w}");
                let breaks = read.windows(2).filter(|x| x[1] != x[0] + 1).count();
                assert!(breaks <= WINDOW_CHUNKS + 1, "pass {p} window {w}: {breaks} jumps");
            }
        }
        // The first window spans chunks from all over the data.
        let spread = sorted(windows[0]);
        assert!(spread[spread.len() - 1] - spread[0] > n / 2, "pass {p}");
    }
}
