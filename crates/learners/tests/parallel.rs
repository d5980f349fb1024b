//! Iterative parameter mixing against plain f64 implementations written
//! here, one part against the sequential loop, and determinism across
//! thread pools.

mod common;
use common::{Plain, dot, generate, plain};
use rosenblatt_learners::{
    AveragedPerceptron, FtrlParams, FtrlProximal, Hooks, InMemoryExamples, LearnError, LinearModel, Loss, MixState,
    Mixable, Mixing, MulticlassPerceptron, OneProcess, OnlineLearner, Order, PaVariant, ParallelOptions,
    PassiveAggressive, Perceptron, PerceptronParams, Schedule, Sgd, SgdParams, TrainOptions, VotedPerceptron, train,
    train_parallel,
};

fn opts(passes: f64, order: Order, seed: u64) -> TrainOptions {
    TrainOptions { passes, order, seed, stop_when_separated: false, first_pass: 0 }
}

fn par(parts: usize, mixing: Mixing) -> ParallelOptions {
    ParallelOptions { parts, mixing }
}

fn bits(m: &LinearModel) -> Vec<u32> {
    m.weights.iter().chain([&m.bias]).map(|v| v.to_bits()).collect()
}

fn run_parallel<L: Mixable>(mut l: L, data: &InMemoryExamples, o: &TrainOptions, p: &ParallelOptions) -> L::Model {
    train_parallel(&mut l, &data, o, p, &OneProcess, Hooks::none()).unwrap();
    l.model()
}

/// One part is the sequential loop, bit for bit, for every mixable learner
/// and order, fractional passes included.
#[test]
fn one_part_replays_the_sequential_loop() {
    let (data, _) = generate(300, 20, 0.0, 0.1, false, 31);
    let pp = PerceptronParams::default();
    for order in [Order::Sequential, Order::Shuffle, Order::Sample, Order::Blocks] {
        let o = opts(2.5, order, 7);
        let one = par(1, Mixing::Uniform);
        macro_rules! same {
            ($make:expr) => {{
                let mut seq = $make;
                train(&mut seq, &&data, &o).unwrap();
                assert_eq!(bits(&run_parallel($make, &data, &o, &one)), bits(&seq.model()), "{order:?}");
            }};
        }
        same!(Perceptron::new(20, pp).unwrap());
        same!(AveragedPerceptron::new(20, pp, false).unwrap());
        same!(Sgd::new(20, SgdParams::pegasos(1e-3)).unwrap());
        same!(PassiveAggressive::new(20, PaVariant::PaI { c: 0.5 }, Default::default()).unwrap());
        same!(FtrlProximal::new(20, FtrlParams::default()).unwrap());
        for schedule in [Schedule::Adaptive, Schedule::Normalized] {
            let p = SgdParams { schedule, average: true, ..SgdParams::default() };
            same!(Sgd::new(20, p).unwrap());
        }
    }
}

/// The f64 reference: `parts` contiguous parts, sequential order in each,
/// the Perceptron from the mixed state every pass, mixed uniformly or by
/// updates. Returns the mixed (w, b) and, for the averaged Perceptron, the
/// average of every part's vector after every step.
fn ref_ipm(p: &Plain, parts: usize, passes: usize, weighted: bool) -> ((Vec<f64>, f64), (Vec<f64>, f64)) {
    let (n, d) = (p.x.len(), p.x[0].len());
    let (mut w, mut b) = (vec![0.0; d], 0.0);
    let (mut sum, mut sum_b, mut steps) = (vec![0.0; d], 0.0, 0.0);
    for _ in 0..passes {
        let mut results = Vec::new();
        for k in 0..parts {
            let (mut wk, mut bk, mut updates) = (w.clone(), b, 0.0);
            for i in k * n / parts..(k + 1) * n / parts {
                let (x, y) = (&p.x[i], p.y[i]);
                if y * (dot(&wk, x) + bk) <= 0.0 {
                    wk.iter_mut().zip(x).for_each(|(a, c)| *a += y * c);
                    bk += y;
                    updates += 1.0;
                }
                sum.iter_mut().zip(&wk).for_each(|(s, a)| *s += a);
                sum_b += bk;
                steps += 1.0;
            }
            results.push((wk, bk, updates));
        }
        let total: f64 = results.iter().map(|r| r.2).sum();
        let mu: Vec<f64> =
            results.iter().map(|r| if weighted && total > 0.0 { r.2 / total } else { 1.0 / parts as f64 }).collect();
        w = (0..d).map(|j| results.iter().zip(&mu).map(|(r, m)| m * r.0[j]).sum()).collect();
        b = results.iter().zip(&mu).map(|(r, m)| m * r.1).sum();
    }
    ((w, b), (sum.iter().map(|s| s / steps).collect(), sum_b / steps))
}

fn close(got: &LinearModel, want: &(Vec<f64>, f64), what: &str) {
    let scale = want.0.iter().fold(want.1.abs(), |m, v| m.max(v.abs())).max(1.0);
    for (g, w) in got.weights.iter().zip(&want.0).chain([(&got.bias, &want.1)]) {
        assert!((f64::from(*g) - w).abs() <= 1e-5 * scale, "{what}: {g} vs {w}");
    }
}

#[test]
fn perceptron_and_averaged_perceptron_match_the_f64_reference() {
    let (data, _) = generate(240, 16, 0.0, 0.05, true, 32);
    let p = plain(&data);
    let pp = PerceptronParams::default();
    for (parts, weighted) in [(2, false), (3, false), (4, true), (3, true)] {
        let mixing = if weighted { Mixing::Weighted } else { Mixing::Uniform };
        let o = opts(4.0, Order::Sequential, 0);
        let (want_w, want_avg) = ref_ipm(&p, parts, 4, weighted);
        let what = format!("{parts} parts, weighted {weighted}");
        close(&run_parallel(Perceptron::new(16, pp).unwrap(), &data, &o, &par(parts, mixing)), &want_w, &what);
        let avg = run_parallel(AveragedPerceptron::new(16, pp, false).unwrap(), &data, &o, &par(parts, mixing));
        close(&avg, &want_avg, &format!("averaged, {what}"));
    }
}

/// Same data, seed and parts: the same bits, whatever the thread pool.
#[test]
fn same_seed_same_parts_same_bits_on_any_pool() {
    let (data, _) = generate(500, 30, 0.0, 0.1, false, 33);
    let o = opts(3.0, Order::Shuffle, 11);
    let run = |threads: usize, parts: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let l = AveragedPerceptron::new(30, PerceptronParams::default(), false).unwrap();
            bits(&run_parallel(l, &data, &o, &par(parts, Mixing::Weighted)))
        })
    };
    let a = run(1, 4);
    // NAG mixes its scales and sums too.
    let nag = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let p = SgdParams { loss: Loss::Logistic, schedule: Schedule::Normalized, eta0: 0.5, ..SgdParams::default() };
        pool.install(|| bits(&run_parallel(Sgd::new(30, p).unwrap(), &data, &o, &par(4, Mixing::Uniform))))
    };
    let n1 = nag(1);
    assert_eq!(n1, nag(3));
    assert!(n1.iter().any(|&b| b != 0), "NAG learned nothing");
    assert_eq!(a, run(4, 4));
    assert_eq!(a, run(3, 4));
    assert_ne!(a, run(4, 3), "another part count is another run");
    let mc = |threads: usize| {
        let mut data = InMemoryExamples::new(4);
        for i in 0..300u32 {
            let (a, b) = ((i * 37 % 100) as f32 / 50.0, (i * 61 % 100) as f32 / 50.0);
            // argmax(a, b, 1): separable by linear class scores.
            let class = if a.max(b) <= 1.0 {
                2.0
            } else if a > b {
                0.0
            } else {
                1.0
            };
            data.push(&[0, 1, 3], &[a, b, 1.0], class).unwrap();
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let l = MulticlassPerceptron::new(4, 3, PerceptronParams::default(), Some(false)).unwrap();
            let m = run_parallel(l, &data, &opts(5.0, Order::Shuffle, 1), &par(3, Mixing::Uniform));
            (m.error_rate(&&data), m.weights.iter().map(|v| v.to_bits()).collect::<Vec<_>>())
        })
    };
    let (err, w) = mc(1);
    assert_eq!((err, w.clone()), mc(3));
    assert!(err < 0.1, "multi-class mixing learns: {err}");
}

/// On separable data the mixed Perceptron converges (McDonald et al. 2010,
/// Theorem 3): with a margin, some pass makes no mistake in any part.
#[test]
fn mixed_perceptron_separates_separable_data() {
    let (data, _) = generate(2000, 20, 0.1, 0.0, false, 34);
    for (parts, mixing) in [(2, Mixing::Uniform), (4, Mixing::Uniform), (4, Mixing::Weighted)] {
        let mut l = Perceptron::new(20, PerceptronParams::default()).unwrap();
        let mut mistakes = Vec::new();
        train_parallel(
            &mut l,
            &&data,
            &opts(60.0, Order::Shuffle, 2),
            &par(parts, mixing),
            &OneProcess,
            Hooks::on_pass(&mut |_: &_, p: &_| mistakes.push(p.mistakes)),
        )
        .unwrap();
        assert_eq!(mistakes.last(), Some(&0), "{parts} {mixing:?}: {mistakes:?}");
        assert_eq!(l.model().error_rate(&&data), 0.0);
    }
}

#[test]
fn bad_requests_are_errors() {
    let (data, _) = generate(10, 4, 0.0, 0.0, false, 35);
    let mut l = Perceptron::new(4, PerceptronParams::default()).unwrap();
    let go = |l: &mut Perceptron, o: TrainOptions, parts| {
        train_parallel(l, &&data, &o, &par(parts, Mixing::Uniform), &OneProcess, Hooks::none()).unwrap_err()
    };
    assert!(matches!(go(&mut l, opts(1.0, Order::Shuffle, 0), 0), LearnError::Parameter { name: "parts", .. }));
    assert!(matches!(go(&mut l, opts(1.0, Order::Shuffle, 0), 11), LearnError::Parameter { name: "parts", .. }));
    let batch = TrainOptions { stop_when_separated: true, ..opts(5.0, Order::Sequential, 0) };
    assert!(go(&mut l, batch, 2).to_string().contains("batch Perceptron"));
    assert!(matches!(go(&mut l, opts(0.0, Order::Shuffle, 0), 2), LearnError::Parameter { name: "passes", .. }));
}

/// The examples each pass presents: every part's rows once per full pass,
/// the fraction of each part's order in a partial one.
#[test]
fn passes_count_every_part() {
    let (data, _) = generate(100, 4, 0.0, 0.0, false, 36);
    let mut l = Perceptron::new(4, PerceptronParams::default()).unwrap();
    let mut seen = Vec::new();
    let o = opts(2.5, Order::Shuffle, 0);
    let r = train_parallel(
        &mut l,
        &&data,
        &o,
        &par(3, Mixing::Uniform),
        &OneProcess,
        Hooks::on_pass(&mut |_: &_, p: &_| seen.push(p.examples)),
    )
    .unwrap();
    // Parts of 33, 33 and 34 rows: half of each, rounded.
    assert_eq!(seen, vec![100, 100, 17 + 17 + 17]);
    assert_eq!(r.steps(), 251);
    assert_eq!(data.len(), 100);
}

/// The f64 voted Perceptron under mixing: every vector of every part (the
/// pass's mixed start, then one per mistake) with its survival count, and
/// the vote for a row over all of them; plus the votes that rounding could
/// flip (margins near zero).
fn ref_voted(p: &Plain, parts: usize, passes: usize, x: &[f64]) -> (f64, f64) {
    let (n, d) = (p.x.len(), p.x[0].len());
    let (mut w, mut b) = (vec![0.0; d], 0.0);
    let mut vectors: Vec<(Vec<f64>, f64, u64)> = Vec::new();
    for _ in 0..passes {
        let mut ends = Vec::new();
        for k in 0..parts {
            let (mut wk, mut bk) = (w.clone(), b);
            vectors.push((wk.clone(), bk, 0));
            for i in k * n / parts..(k + 1) * n / parts {
                let (xi, y) = (&p.x[i], p.y[i]);
                if y * (dot(&wk, xi) + bk) <= 0.0 {
                    wk.iter_mut().zip(xi).for_each(|(a, c)| *a += y * c);
                    bk += y;
                    vectors.push((wk.clone(), bk, 0));
                }
                vectors.last_mut().unwrap().2 += 1;
            }
            ends.push((wk, bk));
        }
        w = (0..d).map(|j| ends.iter().map(|e| e.0[j]).sum::<f64>() / parts as f64).collect();
        b = ends.iter().map(|e| e.1).sum::<f64>() / parts as f64;
    }
    let (mut vote, mut slack) = (0.0, 0.0);
    for (v, vb, c) in &vectors {
        let m = dot(v, x) + vb;
        vote += *c as f64 * m.signum() * f64::from(u8::from(m != 0.0));
        if m.abs() < 1e-3 {
            slack += *c as f64;
        }
    }
    (vote, slack)
}

#[test]
fn voted_perceptron_votes_over_every_part_as_the_f64_reference() {
    let (data, _) = generate(240, 12, 0.0, 0.1, false, 37);
    let (test, _) = generate(60, 12, 0.0, 0.1, false, 38);
    let (p, pt) = (plain(&data), plain(&test));
    let pp = PerceptronParams::default();
    for parts in [2, 3] {
        let mut l = VotedPerceptron::new(12, pp, false).unwrap();
        let o = opts(3.0, Order::Sequential, 0);
        let mut seen = None;
        train_parallel(
            &mut l,
            &&data,
            &o,
            &par(parts, Mixing::Uniform),
            &OneProcess,
            Hooks::on_pass(&mut |l: &VotedPerceptron, _: &_| seen = Some(l.model())),
        )
        .unwrap();
        // The observer's last look is the final model: every part's mistakes.
        assert_eq!(seen.unwrap(), l.model());
        let predictor = l.model().predictor(&&data);
        let mut votes = vec![0.0; test.len()];
        predictor.votes(&&test, &mut votes);
        for (i, x) in pt.x.iter().enumerate() {
            let (want, slack) = ref_voted(&p, parts, 3, x);
            assert!((votes[i] - want).abs() <= 2.0 * slack, "{parts} parts, row {i}: {} vs {want}", votes[i]);
        }
    }
    // One part votes exactly as sequential training.
    let mut seq = VotedPerceptron::new(12, pp, false).unwrap();
    let o = opts(2.0, Order::Shuffle, 4);
    train(&mut seq, &&data, &o).unwrap();
    let mut one = VotedPerceptron::new(12, pp, false).unwrap();
    train_parallel(&mut one, &&data, &o, &par(1, Mixing::Uniform), &OneProcess, Hooks::none()).unwrap();
    let (mut a, mut b) = (vec![0.0; test.len()], vec![0.0; test.len()]);
    seq.model().predictor(&&data).votes(&&test, &mut a);
    one.model().predictor(&&data).votes(&&test, &mut b);
    assert_eq!(a, b);
}

/// A learner mixed in place (`ready_to_mix`, then `mix_view`) shows mixing
/// every coordinate `save_state` writes, bit for bit, read in runs of any
/// length; the learners mixed from a saved copy show that copy.
#[test]
fn states_read_in_place_are_the_saved_states() {
    // Sparse rows over 2^18 features: the averaged Perceptron then holds
    // back its updates of `u` between steps.
    let dim = 1 << 18;
    let mut data = InMemoryExamples::new(dim);
    let mut s = 5u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for _ in 0..400 {
        let mut idx: Vec<u32> = (0..30).map(|_| (next() % dim as u64) as u32).collect();
        idx.sort_unstable();
        idx.dedup();
        let val: Vec<f32> = idx.iter().map(|_| (next() % 200) as f32 / 50.0 - 2.0).collect();
        data.push(&idx, &val, if next() % 2 == 0 { 1.0 } else { -1.0 }).unwrap();
    }
    fn check<L: Mixable>(mut l: L, data: &InMemoryExamples, what: &str) {
        // A mixed pass (the averaging sums non-zero), then half a pass:
        // the averaging segment is open (τ > 0, u ≠ 0).
        train_parallel(
            &mut l,
            &data,
            &opts(1.0, Order::Shuffle, 3),
            &par(2, Mixing::Uniform),
            &OneProcess,
            Hooks::none(),
        )
        .unwrap();
        train(&mut l, &data, &opts(0.5, Order::Shuffle, 4)).unwrap();
        let mut saved = MixState::default();
        l.clone().save_state(&mut saved);
        assert!(saved.mean.iter().any(|&x| x != 0.0), "{what}: learned nothing");
        let mut scratch = MixState::default();
        l.ready_to_mix(&mut scratch);
        let v = l.mix_view(&scratch);
        let (n_mean, n_total) = v.lens();
        assert_eq!((n_mean, n_total), (saved.mean.len(), saved.total.len()), "{what}");
        for run in [1, 7, 4096, 1 << 20] {
            let (mut mean, mut total) = (vec![f64::NAN; n_mean], vec![f64::NAN; n_total]);
            for at in (0..n_mean).step_by(run) {
                v.mean_into(at, &mut mean[at..(at + run).min(n_mean)]);
            }
            for at in (0..n_total).step_by(run) {
                v.total_into(at, &mut total[at..(at + run).min(n_total)]);
            }
            for (part, got, want) in [("mean", &mean, &saved.mean), ("total", &total, &saved.total)] {
                let bad = got.iter().zip(want.iter()).position(|(a, b)| a.to_bits() != b.to_bits());
                assert_eq!(
                    bad,
                    None,
                    "{what}, {part} in runs of {run}: {:?} vs {:?}",
                    bad.map(|i| got[i]),
                    bad.map(|i| want[i])
                );
            }
        }
    }
    let pp = PerceptronParams::default();
    check(Perceptron::new(dim, pp).unwrap(), &data, "perceptron");
    check(AveragedPerceptron::new(dim, pp, false).unwrap(), &data, "averaged");
    check(AveragedPerceptron::new(dim, pp, true).unwrap(), &data, "averaged over the last half");
    check(
        PassiveAggressive::new(dim, PaVariant::PaI { c: 0.5 }, rosenblatt_learners::Bias::Explicit).unwrap(),
        &data,
        "pa-i",
    );
    check(Sgd::new(dim, SgdParams::default()).unwrap(), &data, "sgd (a saved copy)");
}
