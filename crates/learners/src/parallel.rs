//! Parallel multi-pass training by iterative parameter mixing (McDonald,
//! Hall & Mann 2010): the rows are cut into `P` contiguous parts; every pass
//! runs one copy of the learner per part, in parallel, all starting from the
//! same mixed state; then the `P` states are mixed into the next pass's.
//!
//! Mixing sits behind [`Reducer`]: it sees flat state vectors only, so a
//! cross-machine all-reduce can take the place of [`LocalReducer`] without
//! touching a learner. A learner takes part through [`Mixable`], which lays
//! its state out as a part to average ([`MixState::mean`]: weights, biases)
//! and a part to accumulate ([`MixState::total`]: step counts and the
//! averaged Perceptron's running sums, so that the final average is over
//! every part's history).
//!
//! Determinism: each part's order comes from its own generator (part 0's is
//! the sequential loop's), parts never share state within a pass, and the
//! reducer sums parts in a fixed order, so the same data, seed and `P` give
//! a bit-identical model whatever the scheduling. With `P = 1` nothing is
//! mixed and the result equals [`crate::train`]'s.

use crate::error::{LearnError, param};
use crate::learner::{OnlineLearner, Plan};
use crate::train::{Order, PassReport, TrainOptions, TrainReport, present_order, shuffle_blocks};
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use rosenblatt_kernels::Examples;
use std::time::Instant;

/// The part of a learner's state that mixing combines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MixState {
    /// Combined as the weighted mean over parts: weights and biases.
    pub mean: Vec<f64>,
    /// Combined as the starting value plus every part's increment: step
    /// counts, averaging sums.
    pub total: Vec<f64>,
}

/// A learner whose state can be mixed across parts.
pub trait Mixable: OnlineLearner + Clone + Send {
    /// Writes the state into `out` (resizing its vectors), first settling
    /// anything kept lazily.
    fn save_state(&mut self, out: &mut MixState);
    /// Replaces the state with `s` (laid out as `save_state` writes it).
    fn load_state(&mut self, s: &MixState);
    /// Whether the parts keep something mixing does not carry (the voted
    /// Perceptron's mistake lists), so that the model needs [`Mixable::absorb`].
    const GATHERS: bool = false;
    /// At the end of training, takes in what the other parts kept that
    /// mixing does not carry.
    fn absorb(&mut self, _others: Vec<Self>) {}
}

/// Combines the parts' states after a pass.
pub trait Reducer: Sync {
    /// `parts[p]` is part `p`'s state after the pass, all having started
    /// from `base`; `mu` are the mixing weights (summing to 1). Writes
    /// `out.mean = Σ_p μ_p·mean_p` and
    /// `out.total = total_0 + Σ_{p>0} (total_p − base.total)`.
    fn reduce(&self, base: &MixState, parts: &[MixState], mu: &[f64], out: &mut MixState);
}

/// Mixing in this process, parallel over coordinates; each coordinate sums
/// its parts in order 0, 1, …, so the result does not depend on the
/// threads.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocalReducer;

impl Reducer for LocalReducer {
    fn reduce(&self, base: &MixState, parts: &[MixState], mu: &[f64], out: &mut MixState) {
        const CHUNK: usize = 1 << 14;
        let n = parts[0].mean.len();
        out.mean.resize(n, 0.0);
        out.mean.par_chunks_mut(CHUNK).enumerate().for_each(|(c, chunk)| {
            for (k, o) in chunk.iter_mut().enumerate() {
                let i = c * CHUNK + k;
                *o = parts.iter().zip(mu).map(|(p, &m)| m * p.mean[i]).sum();
            }
        });
        out.total.clone_from(&parts[0].total);
        for p in &parts[1..] {
            for ((o, &t), &b) in out.total.iter_mut().zip(&p.total).zip(&base.total) {
                *o += t - b;
            }
        }
    }
}

/// How the parts' states are weighted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mixing {
    /// Every part counts the same.
    #[default]
    Uniform,
    /// Each part by its share of the pass's updates (uniform when no part
    /// updated).
    Weighted,
}

/// What parallel training adds to [`TrainOptions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParallelOptions {
    /// Parts (and at most as many threads): `P`.
    pub parts: usize,
    /// How the parts are weighted when mixed.
    pub mixing: Mixing,
}

/// Seed of part `p`'s generator: part 0 uses the run's seed, so that one
/// part replays [`crate::train`].
fn part_seed(seed: u64, p: usize) -> u64 {
    // SplitMix64's increment spreads neighbouring parts apart.
    seed ^ (p as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Trains `learner` on `data` by iterative parameter mixing over
/// `par.parts` contiguous parts, each pass's parts run on rayon's threads;
/// `on_pass` hears every mixed pass (examples, mistakes and updates summed
/// over the parts; wall time of the pass and the mix). Fractional passes
/// run the first part of each part's order. `stop_when_separated` is not
/// available (separation is a property of one sequential pass).
pub fn train_parallel<L, E, R>(
    learner: &mut L,
    data: &E,
    opts: &TrainOptions,
    par: &ParallelOptions,
    reducer: &R,
    mut on_pass: impl FnMut(&L, &PassReport),
) -> Result<TrainReport, LearnError>
where
    L: Mixable,
    E: Examples,
    R: Reducer,
{
    let n = data.len();
    if n == 0 {
        return Err(LearnError::Empty);
    }
    if par.parts == 0 || par.parts > n {
        return Err(param("threads", par.parts, "between 1 and the number of examples"));
    }
    if opts.stop_when_separated {
        return Err(param("threads", par.parts, "1 for the batch Perceptron (stop when separated)"));
    }
    if !(opts.passes.is_finite() && opts.passes > 0.0 && opts.passes * n as f64 <= 9.0e18) {
        return Err(param("passes", opts.passes, "a finite number > 0 (passes × examples below 9e18)"));
    }
    if data.dim() > learner.dim() {
        return Err(LearnError::Dimension { data: data.dim(), learner: learner.dim() });
    }
    learner.check_labels(data)?;
    let full = opts.passes.floor() as usize;
    let frac = opts.passes - full as f64;
    let total_passes = full + usize::from(frac > 0.0);
    let steps = (opts.passes * n as f64).round() as u64;
    learner.begin(&Plan { examples: n, steps });

    let p_count = par.parts;
    struct Part<L> {
        learner: L,
        order: Vec<u32>,
        rng: Xoshiro256PlusPlus,
        start: u32,
        state: MixState,
    }
    let mut parts: Vec<Part<L>> = (0..p_count)
        .map(|p| {
            let (s, e) = (p * n / p_count, (p + 1) * n / p_count);
            Part {
                learner: learner.clone(),
                order: (s as u32..e as u32).collect(),
                rng: Xoshiro256PlusPlus::seed_from_u64(part_seed(opts.seed, p)),
                start: s as u32,
                state: MixState::default(),
            }
        })
        .collect();
    let (mut base, mut mixed) = (MixState::default(), MixState::default());
    if p_count > 1 {
        learner.save_state(&mut base);
    }
    let mut report = TrainReport { passes: Vec::new(), separated_at: None };
    for pass in 0..total_passes {
        let started = Instant::now();
        let last_fraction = pass == full;
        let results: Vec<PassReport> = parts
            .par_iter_mut()
            .map(|part| {
                let len = part.order.len();
                let mut ends = Vec::new();
                match opts.order {
                    Order::Sequential => {}
                    Order::Shuffle => part.order.shuffle(&mut part.rng),
                    Order::Sample => {
                        for o in part.order.iter_mut() {
                            *o = part.start + part.rng.random_range(0..len as u32);
                        }
                    }
                    Order::Blocks => ends = shuffle_blocks(&mut part.order, part.start, &mut part.rng),
                }
                let len = if last_fraction { (frac * len as f64).round() as usize } else { len };
                let mut r = PassReport { examples: len as u64, mistakes: 0, updates: 0, seconds: 0.0 };
                let t = Instant::now();
                present_order(&mut part.learner, data, &part.order, len, opts.order, &ends, |_, s| {
                    r.mistakes += u64::from(s.mistake);
                    r.updates += u64::from(s.updated);
                });
                part.learner.end_pass();
                r.seconds = t.elapsed().as_secs_f64();
                if p_count > 1 {
                    part.learner.save_state(&mut part.state);
                }
                r
            })
            .collect();
        if p_count > 1 {
            let updates: u64 = results.iter().map(|r| r.updates).sum();
            let mu: Vec<f64> = match par.mixing {
                Mixing::Weighted if updates > 0 => results.iter().map(|r| r.updates as f64 / updates as f64).collect(),
                _ => vec![1.0 / p_count as f64; p_count],
            };
            let states: Vec<MixState> = parts.iter_mut().map(|p| std::mem::take(&mut p.state)).collect();
            reducer.reduce(&base, &states, &mu, &mut mixed);
            parts.par_iter_mut().zip(states).for_each(|(p, s)| {
                p.learner.load_state(&mixed);
                p.state = s;
            });
            std::mem::swap(&mut base, &mut mixed);
        }
        let mut p = PassReport { examples: 0, mistakes: 0, updates: 0, seconds: 0.0 };
        for r in &results {
            p.examples += r.examples;
            p.mistakes += r.mistakes;
            p.updates += r.updates;
        }
        p.seconds = started.elapsed().as_secs_f64();
        report.passes.push(p);
        if L::GATHERS && p_count > 1 {
            // The observer sees the model of every part so far.
            let mut all = parts[0].learner.clone();
            all.absorb(parts[1..].iter().map(|p| p.learner.clone()).collect());
            on_pass(&all, &p);
        } else {
            on_pass(&parts[0].learner, &p);
        }
    }
    let mut rest = parts.into_iter().map(|p| p.learner);
    *learner = rest.next().expect("at least one part");
    learner.absorb(rest.collect());
    Ok(report)
}

/// Lays `vectors` end to end into `out` as f64 (exactly).
pub(crate) fn put(out: &mut Vec<f64>, vectors: &[&[f32]]) {
    out.clear();
    for v in vectors {
        out.extend(v.iter().map(|&x| f64::from(x)));
    }
}

/// Fills each of `vectors` in turn from the front of `src` (rounding to
/// f32); returns what is left of `src`.
pub(crate) fn take<'s>(mut src: &'s [f64], vectors: &mut [&mut [f32]]) -> &'s [f64] {
    for v in vectors.iter_mut() {
        let (head, rest) = src.split_at(v.len());
        v.iter_mut().zip(head).for_each(|(x, &s)| *x = s as f32);
        src = rest;
    }
    src
}
