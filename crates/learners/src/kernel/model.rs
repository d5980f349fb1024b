//! A trained kernel model: its outputs' scores for rows, in parallel over
//! blocks, and its checks when read back.

use super::*;

impl KernelModel {
    /// Support rows.
    pub fn support_rows(&self) -> usize {
        self.norms.len()
    }

    /// Checks a model read from a file — the kernel's ranges, every length
    /// against the counts, every value finite, the updates in order and
    /// naming rows and outputs that exist — and returns it with the rows'
    /// norms computed as training computes them (`norms` as given is
    /// ignored).
    pub fn checked(self) -> Result<KernelModel, LearnError> {
        let p = self;
        let bad = |what: String| Err(LearnError::State(what));
        p.kernel.check()?;
        if p.dim > MAX_DIM {
            return bad(format!("dimension {} above {MAX_DIM} (support rows are dense)", p.dim));
        }
        let c = p.outputs.count();
        if c == 0 || (c < 2 && !matches!(p.outputs, Outputs::Binary)) {
            return bad(format!("{c} outputs"));
        }
        let m = p.rows.len().checked_div(p.dim).unwrap_or(0);
        if p.rows.len() != m * p.dim || p.coef.len() != m * c || (p.dim == 0 && !p.coef.is_empty()) {
            return bad(format!(
                "{} support values and {} coefficients do not fit dimension {} and {c} outputs",
                p.rows.len(),
                p.coef.len(),
                p.dim
            ));
        }
        if let Some(i) = p.rows.iter().position(|v| !v.is_finite()) {
            return bad(format!("support value {i} is not finite"));
        }
        if let Some(i) = p.coef.iter().position(|v| !v.is_finite()) {
            return bad(format!("coefficient {i} is not finite"));
        }
        if p.form != KernelForm::Voted && !p.events.is_empty() {
            return bad("updates recorded for a form that does not vote".into());
        }
        let mut last = 0;
        for (i, e) in p.events.iter().enumerate() {
            if e.slot as usize >= m
                || e.class as usize >= c
                || !e.delta.is_finite()
                || e.step < last
                || e.step > p.steps
            {
                return bad(format!("update {i} ({e:?}) names no support row or output, or is out of order"));
            }
            last = e.step;
        }
        if p.mistakes > p.steps {
            return bad(format!("{} mistakes in {} steps", p.mistakes, p.steps));
        }
        let norms = p.rows.chunks(p.dim.max(1)).map(norm_sq).collect();
        Ok(KernelModel { norms, ..p })
    }

    /// The support rows as bytes, when every value is exactly a byte times
    /// [`KernelModel::scale`].
    pub fn bytes(&self) -> Option<Vec<u8>> {
        let s = self.scale.filter(|s| s.is_finite() && *s > 0.0)?;
        self.rows
            .iter()
            .map(|&v| {
                let b = (v / s).round();
                (0.0..=255.0).contains(&b).then_some(b as u8).filter(|&b| f32::from(b) * s == v)
            })
            .collect()
    }

    /// Sets [`KernelModel::scale`] to `scale` if every support value is a
    /// byte times it.
    pub fn with_byte_scale(mut self, scale: Option<f32>) -> KernelModel {
        self.scale = scale;
        if self.bytes().is_none() {
            self.scale = None;
        }
        self
    }

    /// Every row's scores into `out` (`outputs.count()` per row, row by
    /// row): the margins of the last or averaged vector, or the voted
    /// form's `Σ_k c_k·sign(f_k(x))` per output; in parallel over blocks
    /// of rows, each row's scores the same in any block.
    pub fn scores_into<E: Examples>(&self, data: &E, out: &mut [f32]) {
        let (c, d) = (self.outputs.count(), self.dim);
        assert_eq!(out.len(), data.len() * c, "scores_into: one score per row and output");
        out.par_chunks_mut(BLOCK * c).enumerate().for_each(|(blk, out)| {
            let lo = blk * BLOCK;
            let b = out.len() / c;
            let mut x = vec![0f32; b * d];
            let mut nx = vec![0f32; b];
            for i in 0..b {
                let r = data.row(lo + i);
                for k in 0..r.nnz() {
                    let (j, v) = r.entry(k);
                    if j < d {
                        x[i * d + j] = v;
                    }
                }
                nx[i] = norm_sq(&x[i * d..(i + 1) * d]);
            }
            let m = self.support_rows();
            let mut kv = vec![0f32; m * b];
            dots(&self.rows, &x, d, &mut kv);
            for (s, row) in kv.chunks_mut(b).enumerate() {
                self.kernel.map(row, &nx, self.norms[s]);
            }
            out.fill(0.0);
            if self.form == KernelForm::Voted {
                for i in 0..b {
                    for cl in 0..c {
                        out[i * c + cl] = self.vote(cl, |s| kv[s * b + i]);
                    }
                }
            } else {
                scores(&kv, b, &self.coef, c, out);
            }
        });
    }

    /// The voted form's vote for output `class`, `k(s)` the kernel value
    /// with support row `s`: each vector counts for the examples it
    /// survived (to the next update of that output, or the end).
    pub(super) fn vote(&self, class: usize, k: impl Fn(usize) -> f32) -> f32 {
        let sign = |v: f32| {
            if v > 0.0 {
                1.0
            } else if v < 0.0 {
                -1.0
            } else {
                0.0
            }
        };
        let (mut f, mut vote, mut since) = (0f32, 0f64, 0u64);
        for ev in self.events.iter().filter(|e| e.class as usize == class) {
            vote += (ev.step - since) as f64 * sign(f);
            f += ev.delta * k(ev.slot as usize);
            since = ev.step;
        }
        vote += (self.steps - since) as f64 * sign(f);
        vote as f32
    }

    /// Every row's predicted label: the sign of the one output (±1, a zero
    /// score −1), or the class with the highest score (the first of equals).
    pub fn predict<E: Examples>(&self, data: &E) -> Vec<f32> {
        let c = self.outputs.count();
        let mut scores = vec![0f32; data.len() * c];
        self.scores_into(data, &mut scores);
        scores.chunks(c).map(|s| if c == 1 { if s[0] > 0.0 { 1.0 } else { -1.0 } } else { best(s).0 as f32 }).collect()
    }
}

/// The first of the highest scores, and the score: the class a
/// multi-output kernel model predicts.
pub fn best(scores: &[f32]) -> (usize, f32) {
    scores.iter().enumerate().fold((0, f32::NEG_INFINITY), |b, (k, &v)| if v > b.1 { (k, v) } else { b })
}
