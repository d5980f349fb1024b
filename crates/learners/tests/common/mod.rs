//! Helpers shared by the learner tests.
#![allow(dead_code)]

use rosenblatt_kernels::{Examples, Row};
use rosenblatt_learners::{InMemoryExamples, LearnError, OnlineLearner, Order, Plan, Step, TrainOptions};

/// Sequential order, `passes` passes.
pub fn seq(passes: f64) -> TrainOptions {
    TrainOptions { passes, order: Order::Sequential, seed: 0, stop_when_separated: false, first_pass: 0 }
}

/// Records which examples were mistakes, around any learner.
pub struct Spy<L> {
    pub inner: L,
    pub mistakes: Vec<usize>,
}

impl<L> Spy<L> {
    pub fn new(inner: L) -> Self {
        Spy { inner, mistakes: Vec::new() }
    }
}

impl<L: OnlineLearner> OnlineLearner for Spy<L> {
    type Model = L::Model;
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn check_labels<E: Examples>(&self, data: &E) -> Result<(), LearnError> {
        self.inner.check_labels(data)
    }
    fn begin(&mut self, plan: &Plan) {
        self.inner.begin(plan)
    }
    fn margin<R: Row>(&self, x: &R) -> f32 {
        self.inner.margin(x)
    }
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, e: usize) -> Step {
        let s = self.inner.learn(x, y, h, e);
        if s.mistake {
            self.mistakes.push(e);
        }
        s
    }
    fn model(&self) -> L::Model {
        self.inner.model()
    }
}

pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn normal(&mut self) -> f64 {
        let (a, b) = (self.unit().max(1e-300), self.unit());
        (-2.0 * a.ln()).sqrt() * (std::f64::consts::TAU * b).cos()
    }
}

/// Dense f64 copies of the rows, for the references.
pub struct Plain {
    pub x: Vec<Vec<f64>>,
    pub y: Vec<f64>,
    /// Importance weights (1 unless [`Plain::weighted`]).
    pub h: Vec<f64>,
}

impl Plain {
    /// The same rows weighted `h`.
    pub fn weighted(self, h: &[f64]) -> Plain {
        Plain { h: h.to_vec(), ..self }
    }
}

/// Importance weights cycling through 0 (not a step), fractions and
/// integers, all exact in f32.
pub fn importance(n: usize) -> Vec<f64> {
    (0..n).map(|i| [1.0, 0.5, 2.0, 0.0, 3.0, 0.25][i % 6]).collect()
}

pub fn plain(data: &InMemoryExamples) -> Plain {
    let d = &data;
    let mut x = Vec::new();
    let mut y = Vec::new();
    for i in 0..d.len() {
        let mut v = vec![0.0; d.dim()];
        let r = d.row(i);
        for k in 0..rosenblatt_kernels::Row::nnz(&r) {
            let (j, val) = rosenblatt_kernels::Row::entry(&r, k);
            v[j] = f64::from(val);
        }
        x.push(v);
        y.push(f64::from(d.label(i)));
    }
    let h = vec![1.0; y.len()];
    Plain { x, y, h }
}

pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(p, q)| p * q).sum()
}

/// Random sparse rows over `dim` features labelled by a hidden unit vector
/// `u` (returned): `y = sign(u·x)`, rows with `|u·x| < margin` dropped, and
/// labels flipped with probability `noise`. `dyadic` keeps every value a
/// multiple of 1/8 in [-2, 2], so f32 arithmetic is exact.
pub fn generate(
    n: usize,
    dim: usize,
    margin: f64,
    noise: f64,
    dyadic: bool,
    seed: u64,
) -> (InMemoryExamples, Vec<f64>) {
    let mut r = Rng(seed);
    let mut u: Vec<f64> = (0..dim).map(|_| r.normal()).collect();
    let norm = dot(&u, &u).sqrt();
    u.iter_mut().for_each(|v| *v /= norm);
    let mut data = InMemoryExamples::new(dim);
    while data.len() < n {
        let mut x = vec![0.0f32; dim];
        for v in x.iter_mut() {
            if r.next().is_multiple_of(3) {
                *v = if dyadic { (r.next() % 33) as f32 / 8.0 - 2.0 } else { r.normal() as f32 };
            }
        }
        let m: f64 = x.iter().zip(&u).map(|(a, b)| f64::from(*a) * b).sum();
        if m.abs() < margin {
            continue;
        }
        let mut y = if m > 0.0 { 1.0 } else { -1.0 };
        if r.unit() < noise {
            y = -y;
        }
        data.push_dense(&x, y).unwrap();
    }
    (data, u)
}
