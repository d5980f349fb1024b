//! The Averaged Perceptron: the Perceptron's updates, predicting with the
//! average of the weight vectors after every step (Freund & Schapire 1999),
//! kept in O(nonzeros) per mistake by lazy averaging ([`crate::average`]).

use crate::average::LazyAverage;
use crate::error::LearnError;
use crate::learner::{OnlineLearner, Plan, Step};
use crate::linear::{Linear, PerceptronParams};
use crate::mix::{MixState, MixView, Mixable};
use crate::model::LinearModel;
use rosenblatt_kernels::Row;

/// The Averaged Perceptron.
#[derive(Clone, Debug)]
pub struct AveragedPerceptron {
    s: Linear,
    avg: LazyAverage,
    eta: f32,
}

impl AveragedPerceptron {
    /// A zero learner over `dim` features, averaging every step, or only the
    /// last half of the run with `last_half`.
    pub fn new(dim: usize, params: PerceptronParams, last_half: bool) -> Result<Self, LearnError> {
        let p = params.check()?;
        Ok(AveragedPerceptron { s: Linear::new(dim, p.bias)?, avg: LazyAverage::new(dim, 1, last_half)?, eta: p.eta })
    }

    /// The current (not averaged) weights.
    pub fn weights(&self) -> &[f32] {
        &self.s.w
    }
}

impl OnlineLearner for AveragedPerceptron {
    type Model = LinearModel;
    fn dim(&self) -> usize {
        self.s.w.len()
    }
    fn begin(&mut self, plan: &Plan) {
        self.avg.begin(plan);
    }
    #[inline]
    fn margin<R: Row>(&self, x: &R) -> f32 {
        self.s.margin(x)
    }
    // Inlined into the pass, and the margin before the averaging step's
    // counters: out of line, with the counters' conversion to f32 held
    // across the call to the dot, the averaged pass cost 1.14–1.15× the
    // plain one's in the default order; 1.05× this way (SPEED.md#the-averaged-perceptron).
    #[inline(always)]
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, _example: usize) -> Step {
        let mistake = y * self.s.margin(x) <= 0.0;
        let t = self.avg.tick();
        if mistake {
            let a = self.eta * h * y;
            match t {
                // w now; the averaging vector now, or a few mistakes later
                // for a sparse row over a large one (`LazyAverage::add`).
                Some(t) => {
                    self.avg.add(x, a, &mut self.s.w, t, 0);
                    if self.s.bias {
                        self.avg.ub[0] += t * a;
                        self.s.b[0] += a;
                    }
                }
                None => self.s.add(x, a),
            }
        }
        self.avg.end_step(&self.s.w, &self.s.b);
        Step { mistake, updated: mistake }
    }
    fn end_pass(&mut self) {
        self.avg.settle();
    }
    fn model(&self) -> LinearModel {
        match self.avg.average(&self.s.w, &self.s.b) {
            Some((weights, b)) => LinearModel { weights, bias: b[0] },
            None => self.s.model(),
        }
    }
}

/// The current `w` is mixed as a mean; the averaging sums and step counts
/// accumulate every part's, so the final average is over every part's
/// history.
impl Mixable for AveragedPerceptron {
    fn save_state(&mut self, out: &mut MixState) {
        self.s.save(out);
        self.avg.save_totals(&self.s.w, &self.s.b, &mut out.total);
    }
    fn load_state(&mut self, s: &MixState) {
        self.s.load(s);
        self.avg.load_totals(&s.total);
    }
    /// Mixed in place: the held updates of `u` applied, the segment's fold
    /// into the sums computed as the sums are read.
    fn ready_to_mix(&mut self, _: &mut MixState) {
        self.avg.settle();
    }
    fn mix_view<'a>(&'a self, _: &'a MixState) -> &'a dyn MixView {
        self
    }
}

/// What `save_state` writes, read in place (after `ready_to_mix`).
impl MixView for AveragedPerceptron {
    fn lens(&self) -> (usize, usize) {
        let n = self.s.w.len() + self.s.b.len();
        (n, n + 2)
    }
    fn mean_into(&self, at: usize, out: &mut [f64]) {
        self.s.mean_into(at, out);
    }
    fn total_into(&self, at: usize, out: &mut [f64]) {
        self.avg.totals_into(&self.s.w, &self.s.b, at, out);
    }
}

impl crate::state::Resume for AveragedPerceptron {
    fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        self.s.fields(f);
        self.avg.fields(f);
    }
}
