//! The state that iterative parameter mixing combines, and how: a learner
//! lays its state out through [`Mixable`] as a part to average
//! ([`MixState::mean`]: weights, biases) and a part to accumulate
//! ([`MixState::total`]: step counts, averaging sums); [`mix`] combines
//! the parts' states, over the processes of a [`Team`]. The driver that
//! runs the parts is [`crate::train_parallel`].
//!
//! Mixing sees flat vectors only, so the parts can live in other processes
//! (MPI, in the `rosenblatt` crate's `mpi` feature) without touching a
//! learner.

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

/// A part's state as [`mix`] reads it, a run of coordinates at a time, in
/// the layout [`Mixable::save_state`] gives [`MixState`]: so that a
/// learner can be mixed from its own arrays, not from a copy of them in
/// f64 made first (at 16 parts of 16 MB, making the copies took 25–27 ms
/// a pass, and 256 MB of fresh memory: SPEED.md#parallel-passes-parameter-mixing).
pub trait MixView: Sync {
    /// How many coordinates the mean and the total parts have.
    fn lens(&self) -> (usize, usize);
    /// Mean coordinates `at..at + out.len()`, into `out`.
    fn mean_into(&self, at: usize, out: &mut [f64]);
    /// Total coordinates `at..at + out.len()`, into `out`.
    fn total_into(&self, at: usize, out: &mut [f64]);
}

impl MixView for MixState {
    fn lens(&self) -> (usize, usize) {
        (self.mean.len(), self.total.len())
    }
    fn mean_into(&self, at: usize, out: &mut [f64]) {
        out.copy_from_slice(&self.mean[at..at + out.len()]);
    }
    fn total_into(&self, at: usize, out: &mut [f64]) {
        out.copy_from_slice(&self.total[at..at + out.len()]);
    }
}

/// A learner whose state can be mixed across parts.
pub trait Mixable: OnlineLearner + Clone + Send + Sync {
    /// Writes the state into `out` (resizing its vectors), first settling
    /// anything kept lazily.
    fn save_state(&mut self, out: &mut MixState);
    /// Replaces the state with `s` (laid out as `save_state` writes it).
    fn load_state(&mut self, s: &MixState);
    /// After a pass, readies this part's state for [`Self::mix_view`]. By
    /// default it is saved into `saved`; a learner read in place settles
    /// what it keeps lazily and leaves `saved` alone.
    fn ready_to_mix(&mut self, saved: &mut MixState) {
        self.save_state(saved);
    }
    /// The state as mixing reads it, after [`Self::ready_to_mix`]: by
    /// default `saved`. A learner read in place gives the values
    /// `save_state` would have written, bit for bit (and is left as it
    /// was: the mix replaces its state before it learns again).
    fn mix_view<'a>(&'a self, saved: &'a MixState) -> &'a dyn MixView {
        saved
    }
    /// Whether the parts keep something mixing does not carry (the voted
    /// Perceptron's mistake lists), so that the model needs [`Mixable::absorb`].
    const GATHERS: bool = false;
    /// At the end of training, takes in what the other parts kept that
    /// mixing does not carry.
    fn absorb(&mut self, _others: Vec<Self>) {}
    /// What this part keeps that mixing does not carry, as words, for a
    /// part in another process ([`Mixable::GATHERS`] learners).
    fn kept(&self) -> Vec<u64> {
        Vec::new()
    }
    /// This part with `kept` (another part's [`Mixable::kept`], after the
    /// same passes and mixes) in place of what it keeps; `None` if `kept`
    /// is not laid out as `kept` writes it.
    fn with_kept(&self, _kept: &[u64]) -> Option<Self> {
        Some(self.clone())
    }
}

/// The processes that train one model together, as seen from one of them:
/// the few collective operations mixing needs. [`OneProcess`] is the
/// in-process case; the `rosenblatt` crate's `mpi` feature puts MPI behind
/// it. Every process calls the same operations in the same order.
pub trait Team: Sync {
    /// This process's number, `0..size()`.
    fn rank(&self) -> usize;
    /// How many processes there are.
    fn size(&self) -> usize;
    /// Every process's `mine` (lengths may differ), in rank order.
    fn all_gather(&self, mine: &[u64]) -> Vec<Vec<u64>>;
    /// Sends `data` to process `to`, which receives it with [`Team::receive`].
    fn send(&self, to: usize, data: &[f64]);
    /// Fills `data` with what process `from` sends.
    fn receive(&self, from: usize, data: &mut [f64]);
    /// Makes every process's `data` equal to process `root`'s.
    fn broadcast(&self, root: usize, data: &mut [f64]);
}

/// The team of one: training in this process only.
#[derive(Clone, Copy, Debug, Default)]
pub struct OneProcess;

impl Team for OneProcess {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn all_gather(&self, mine: &[u64]) -> Vec<Vec<u64>> {
        vec![mine.to_vec()]
    }
    fn send(&self, to: usize, _: &[f64]) {
        unreachable!("a team of one has no process {to} to send to")
    }
    fn receive(&self, from: usize, _: &mut [f64]) {
        unreachable!("a team of one has no process {from} to receive from")
    }
    fn broadcast(&self, _: usize, _: &mut [f64]) {}
}

/// Every process's `rows` (how many rows each holds), in rank order.
pub fn held(team: &dyn Team, rows: usize) -> Vec<usize> {
    if team.size() == 1 {
        return vec![rows];
    }
    team.all_gather(&[rows as u64]).iter().map(|w| w.first().map_or(0, |&r| r as usize)).collect()
}

/// The rows process `rank` of `size` trains on when `parts` parts (a
/// multiple of `size`) cut `rows` rows: its parts `rank·P/N..(rank+1)·P/N`,
/// part `p` starting at row `p·rows/P`.
pub fn rows_of(rank: usize, size: usize, parts: usize, rows: usize) -> std::ops::Range<usize> {
    let per = (parts / size) as u128;
    let (p, n, r) = (parts as u128, rows as u128, rank as u128);
    (r * per * n / p) as usize..((r + 1) * per * n / p) as usize
}

/// What the processes of `team` say of a step that can fail on any of
/// them (`mine`: this one's failure, if it failed). `None` if it passed
/// everywhere; otherwise the first failing process's reason, with its rank
/// unless every process failed alike. Every process calls it at the same
/// point.
pub fn failures(team: &dyn Team, mine: Option<&str>) -> Option<(Option<usize>, String)> {
    // A failure as its text, a byte a word; none as no words.
    let words: Vec<u64> = mine.map_or_else(Vec::new, |m| m.bytes().map(u64::from).collect());
    let all = team.all_gather(&words);
    let rank = all.iter().position(|w| !w.is_empty())?;
    let bytes: Vec<u8> = all[rank].iter().map(|&b| b as u8).collect();
    let reason = String::from_utf8_lossy(&bytes).into_owned();
    Some((if all.iter().all(|w| *w == all[rank]) { None } else { Some(rank) }, reason))
}

/// Coordinates per message of the chain in [`mix`], for `len` coordinates
/// over `size` processes: about `len / size`, so that the chain's fill (a
/// segment passing every process) costs about what the rest of its
/// transfer does; at least 4,096 (32 KB: per-message costs small beside
/// the transfer), at most 65,536 (512 KB). Segments only cut the messages:
/// the sums, and so the bits, are the same for any size.
fn segment(len: usize, size: usize) -> usize {
    (len / size.max(1)).clamp(1 << 12, 1 << 16)
}

/// Mixes the parts' states after a pass. This process holds parts
/// `first..first + local.len()` of `mu.len()` (the ranks hold consecutive
/// runs of parts, in rank order), each having started from `base`; `mu`
/// are every part's mixing weights (summing to 1). Writes, on every
/// process,
/// `out.mean = Σ_p μ_p·mean_p` and
/// `out.total = total_0 + Σ_{p>0} (total_p − base.total)`,
/// each coordinate summed over `p = 0, 1, …` in that order: rank 0 starts
/// the sums over its parts, each next rank continues them over its own
/// (segment by segment, so that the ranks work at once, as a pipeline),
/// and the last rank broadcasts the result. The additions are the same, in
/// the same order, however the parts are spread over processes and
/// threads, so the bits are too.
pub fn mix(team: &dyn Team, base: &MixState, local: &[&dyn MixView], first: usize, mu: &[f64], out: &mut MixState) {
    let (rank, size) = (team.rank(), team.size());
    let (n_mean, n_total) = local[0].lens();
    out.mean.resize(n_mean, 0.0);
    out.total.resize(n_total, 0.0);
    let mu = &mu[first..first + local.len()];
    let go_on = rank > 0;
    let step = segment(n_mean, size);
    for a in (0..n_mean).step_by(step) {
        let seg = &mut out.mean[a..(a + step).min(n_mean)];
        if go_on {
            team.receive(rank - 1, seg);
        }
        // A chunk at a time, part after part over it: each coordinate
        // still adds its terms in part order (so the bits are the same),
        // but the parts are read one stream at a time, not sixteen streams
        // a coordinate apart (SPEED.md#parallel-passes-parameter-mixing).
        const CHUNK: usize = 1 << 12;
        seg.par_chunks_mut(CHUNK).enumerate().for_each_init(
            || vec![0.0; CHUNK],
            |x, (c, chunk)| {
                let (at, x) = (a + c * CHUNK, &mut x[..chunk.len()]);
                let mut parts = local.iter().zip(mu);
                // Rank 0's first term starts the sum (as −0.0 + x = x: the
                // same bits as summing from −0.0).
                if !go_on {
                    match parts.next() {
                        Some((first, &m)) => {
                            first.mean_into(at, x);
                            chunk.iter_mut().zip(&*x).for_each(|(o, &x)| *o = m * x);
                        }
                        None => chunk.fill(-0.0),
                    }
                }
                for (p, &m) in parts {
                    p.mean_into(at, x);
                    chunk.iter_mut().zip(&*x).for_each(|(o, &x)| *o += m * x);
                }
            },
        );
        if rank + 1 < size {
            team.send(rank + 1, seg);
        }
    }
    let step = segment(n_total, size);
    for a in (0..n_total).step_by(step) {
        let b = (a + step).min(n_total);
        let seg = &mut out.total[a..b];
        let rest = if go_on {
            team.receive(rank - 1, seg);
            local
        } else {
            &local[1..]
        };
        // In chunks on the pool, as the means: each coordinate still adds
        // the parts in order, so the bits do not depend on the threads.
        const CHUNK: usize = 1 << 12;
        seg.par_chunks_mut(CHUNK).enumerate().for_each_init(
            || vec![0.0; CHUNK],
            |t, (c, chunk)| {
                let (at, t) = (a + c * CHUNK, &mut t[..chunk.len()]);
                if !go_on {
                    local[0].total_into(at, chunk);
                }
                let s = &base.total[at..at + chunk.len()];
                for p in rest {
                    p.total_into(at, t);
                    for ((o, &t), &s) in chunk.iter_mut().zip(&*t).zip(s) {
                        *o += t - s;
                    }
                }
            },
        );
        if rank + 1 < size {
            team.send(rank + 1, seg);
        }
    }
    if size > 1 {
        team.broadcast(size - 1, &mut out.mean);
        team.broadcast(size - 1, &mut out.total);
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

/// Coordinates `at..at + out.len()` of vectors of lengths `lens` laid end
/// to end, cut where the vectors meet: `f(k, from, run)` fills `run` with
/// vector `k`'s coordinates from `from` on. Returns what is left of `out`
/// past the vectors' end, and its first coordinate counted from there.
pub(crate) fn runs(
    lens: impl IntoIterator<Item = usize>,
    mut at: usize,
    mut out: &mut [f64],
    mut f: impl FnMut(usize, usize, &mut [f64]),
) -> (usize, &mut [f64]) {
    for (k, len) in lens.into_iter().enumerate() {
        if at >= len {
            at -= len;
            continue;
        }
        let n = (len - at).min(out.len());
        let (run, rest) = std::mem::take(&mut out).split_at_mut(n);
        f(k, at, run);
        (at, out) = (0, rest);
    }
    (at, out)
}

/// Coordinates `at..at + out.len()` of `vectors` laid end to end as f64
/// (what [`put`] writes there), into `out`.
pub(crate) fn read(vectors: &[&[f32]], at: usize, out: &mut [f64]) {
    let (_, rest) = runs(vectors.iter().map(|v| v.len()), at, out, |k, from, run| {
        run.iter_mut().zip(&vectors[k][from..]).for_each(|(o, &x)| *o = f64::from(x));
    });
    debug_assert!(rest.is_empty(), "coordinates past the vectors' end");
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
