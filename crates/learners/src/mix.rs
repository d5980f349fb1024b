//! The state that iterative parameter mixing combines, and how: a learner
//! lays its state out through [`Mixable`] as a part to average
//! ([`MixState::mean`]: weights, biases) and a part to accumulate
//! ([`MixState::total`]: step counts, averaging sums); a [`Reducer`] combines
//! the parts' states. The driver that runs the parts is
//! [`crate::train_parallel`].
//!
//! The reducer sees flat vectors only, so a cross-machine all-reduce can
//! take the place of [`LocalReducer`] without touching a learner.

use crate::learner::OnlineLearner;
use rayon::prelude::*;

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
    /// `out.total = total_0 + Σ_{p>0} (total_p − base.total)`, each
    /// coordinate summed over `p = 0, 1, …` in that order, so that the bits
    /// do not depend on how the work was scheduled.
    fn reduce(&self, base: &MixState, parts: &[MixState], mu: &[f64], out: &mut MixState);
}

/// Mixing in this process: the means in parallel over chunks of
/// coordinates, the totals serially.
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mixing {
    /// Every part counts the same.
    #[default]
    Uniform,
    /// Each part by its share of the pass's updates (uniform when no part
    /// updated).
    Weighted,
}

impl std::fmt::Display for Mixing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Mixing::Uniform => "uniform",
            Mixing::Weighted => "weighted",
        })
    }
}

impl Mixing {
    /// The mixing weights of parts that made `updates` updates each.
    pub(crate) fn weights(self, updates: &[u64]) -> Vec<f64> {
        let total: u64 = updates.iter().sum();
        match self {
            Mixing::Weighted if total > 0 => updates.iter().map(|&u| u as f64 / total as f64).collect(),
            _ => vec![1.0 / updates.len() as f64; updates.len()],
        }
    }
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
