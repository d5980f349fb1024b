//! One block of examples resolved against the support rows: the kernel
//! values as small matrix products (or exact integer dots of byte rows),
//! then each example's mistake and update in order.

use super::*;

/// Where an evicted row's kernel values with the block are.
#[derive(Clone, Copy, Debug)]
pub(super) enum Source {
    /// Its column among the slots at the block's start.
    Start(usize),
    /// Its position in the block.
    Block(usize),
}

/// The data's byte scale ([`Examples::byte_scale`]) when its rows can be
/// dotted as bytes: a positive scale, a dimension whose byte sums fit an
/// `i32`, and every value checked to be a byte times the scale (one read of
/// the data; a set that says more than it holds is computed in f32).
pub(super) fn byte_scale<E: Examples>(data: &E) -> Option<f32> {
    let s = data.byte_scale().filter(|s| s.is_finite() && *s > 0.0)?;
    if data.dim() == 0 || data.dim() > rosenblatt_kernels::bytes::MAX_DIM {
        return None;
    }
    let ok = (0..data.len()).all(|i| {
        let r = data.row(i);
        (0..r.nnz()).all(|k| to_byte(r.entry(k).1, s).is_some())
    });
    ok.then_some(s)
}

/// `v` as the byte `b` with `b · s == v`, if there is one.
pub(super) fn to_byte(v: f32, s: f32) -> Option<u8> {
    let b = (v / s).round();
    (0.0..=255.0).contains(&b).then_some(b as u8).filter(|&b| f32::from(b) * s == v)
}

/// A borrowed matrix: `rows × cols` values at `v[r·rs + c·cs]`.
#[derive(Clone, Copy)]
pub(super) struct Mat<'a> {
    v: &'a [f32],
    rows: usize,
    cols: usize,
    rs: usize,
    cs: usize,
}

impl Mat<'_> {
    /// Whether every index of the matrix lies inside `v`.
    pub(super) fn fits(&self) -> bool {
        self.rows == 0 || self.cols == 0 || (self.rows - 1) * self.rs + (self.cols - 1) * self.cs < self.v.len()
    }
}

/// `out = a·b`, `out` row-major (`a.rows × b.cols`), by sgemm; the shapes
/// are checked here, once for both callers.
pub(super) fn gemm(a: Mat<'_>, b: Mat<'_>, out: &mut [f32]) {
    assert!(a.cols == b.rows && a.fits() && b.fits() && out.len() == a.rows * b.cols, "gemm: shapes");
    if out.is_empty() {
        return;
    }
    if a.cols == 0 {
        out.fill(0.0);
        return;
    }
    // SAFETY: `a` and `b` index only inside their slices (`fits`, asserted
    // above), `out` is `a.rows × b.cols` row-major with exactly that many
    // values, and `out` (a `&mut`) aliases neither input.
    unsafe {
        matrixmultiply::sgemm(
            a.rows,
            a.cols,
            b.cols,
            1.0,
            a.v.as_ptr(),
            a.rs as isize,
            a.cs as isize,
            b.v.as_ptr(),
            b.rs as isize,
            b.cs as isize,
            0.0,
            out.as_mut_ptr(),
            b.cols as isize,
            1,
        );
    }
}

/// `out[i·n + j] = ⟨a_i, b_j⟩` for row-major `a` (`m × k`) and `b`
/// (`n × k`).
pub(super) fn dots(a: &[f32], b: &[f32], k: usize, out: &mut [f32]) {
    let (m, n) = (a.len() / k.max(1), b.len() / k.max(1));
    gemm(Mat { v: a, rows: m, cols: k, rs: k, cs: 1 }, Mat { v: b, rows: k, cols: n, rs: 1, cs: k }, out);
}

/// `out[i·c + j] = Σ_s kt[s·b + i]·alpha[s·c + j]`: the scores of `b`
/// examples from their kernel values with `kt.len() / b` support rows
/// (support-major) and those rows' `c` coefficients each.
pub(super) fn scores(kt: &[f32], b: usize, alpha: &[f32], c: usize, out: &mut [f32]) {
    let m = kt.len() / b.max(1);
    gemm(Mat { v: kt, rows: b, cols: m, rs: 1, cs: b }, Mat { v: alpha, rows: m, cols: c, rs: c, cs: 1 }, out);
}

impl State {
    pub(super) fn slots(&self) -> usize {
        self.norms.len()
    }

    /// One block of examples `block`, in order; `x` is scratch for their
    /// rows.
    pub(super) fn block<E: Examples>(&mut self, data: &E, block: &[u32], x: &mut [f32]) {
        let (d, c, b) = (self.dim, self.c, block.len());
        let x = &mut x[..b * d];
        x.fill(0.0);
        let mut xb = std::mem::take(&mut self.xb);
        if self.bytes.is_some() {
            xb.clear();
            xb.resize(b * d, 0);
        }
        let mut nx = vec![0f32; b];
        for (i, &e) in block.iter().enumerate() {
            let r = data.row(e as usize);
            for k in 0..r.nnz() {
                let (j, v) = r.entry(k);
                x[i * d + j] = v;
                if let Some(s) = self.bytes {
                    // Every value was checked to be a byte (`byte_scale`).
                    xb[i * d + j] = to_byte(v, s).unwrap_or(0);
                }
            }
            nx[i] = norm_sq(&x[i * d..(i + 1) * d]);
        }
        let kernel = self.p.kernel;
        // Scores from the support rows as the block starts, chunk by chunk
        // (each chunk's kernel values kept for evictions), summed in chunk
        // order.
        let m = self.slots();
        let mut kt = std::mem::take(&mut self.kt);
        kt.resize(m * b, 0.0);
        let partial: Vec<Vec<f32>> = kt
            .par_chunks_mut(CHUNK * b)
            .enumerate()
            // The integer sums' buffer, one per thread's run of chunks.
            .map_init(Vec::new, |exact: &mut Vec<i32>, (ch, out)| {
                let lo = ch * CHUNK;
                let hi = lo + out.len() / b;
                match self.bytes {
                    Some(s) => {
                        exact.resize(out.len(), 0);
                        rosenblatt_kernels::dots_u8(&self.rows_u8[lo * d..hi * d], &xb, d, exact);
                        let s2 = s * s;
                        out.iter_mut().zip(exact.iter()).for_each(|(o, &v)| *o = v as f32 * s2);
                    }
                    None => dots(&self.rows[lo * d..hi * d], x, d, out),
                }
                for (s, row) in out.chunks_mut(b).enumerate() {
                    kernel.map(row, &nx, self.norms[lo + s]);
                }
                let mut f = vec![0f32; b * c];
                scores(out, b, &self.alpha[lo * c..hi * c], c, &mut f);
                f
            })
            .collect();
        let mut f = vec![0f32; b * c];
        for part in &partial {
            f.iter_mut().zip(part).for_each(|(a, v)| *a += v);
        }
        // The block's rows among themselves, column `q` (`k(x_i, x_q)` for
        // every `i`, at `kbb[q·b + i]`) made when row `q` is first needed:
        // when it is learned from, or leaves under the budget. Only the
        // mistakes' columns are (a few percent of the rows after the
        // first pass), not the whole b × b product.
        let mut kbb = std::mem::take(&mut self.kbb);
        kbb.resize(b * b, 0.0);
        let mut have = vec![false; b];
        let x: &[f32] = x;
        let column = |q: usize, kbb: &mut [f32], have: &mut [bool]| {
            if !have[q] {
                let col = &mut kbb[q * b..(q + 1) * b];
                dots(x, &x[q * d..(q + 1) * d], d, col);
                kernel.map(col, &nx, nx[q]);
                have[q] = true;
            }
        };
        // Slots at the block's start, by their column in `kt`.
        let start_slots = m;
        // Per position: the update made there (if any), and evictions as
        // (slot's column at the start or position in the block, its
        // coefficients).
        let mut deltas = vec![0f32; b * c];
        let mut changed = vec![false; b];
        let mut evicted: Vec<(Source, Vec<f32>)> = Vec::new();
        let mut delta = vec![0f32; c];
        for (i, &e) in block.iter().enumerate() {
            // A row of importance 0 is passed over: not a step.
            let h = data.weight(e as usize);
            if h == 0.0 {
                continue;
            }
            let mut score = f[i * c..(i + 1) * c].to_vec();
            for j in (0..i).filter(|&j| changed[j]) {
                let k = kbb[j * b + i];
                score.iter_mut().zip(&deltas[j * c..(j + 1) * c]).for_each(|(s, &dl)| *s += dl * k);
            }
            for (src, a) in &evicted {
                let k = match *src {
                    Source::Start(col) => kt[col * b + i],
                    Source::Block(q) => kbb[q * b + i],
                };
                score.iter_mut().zip(a).for_each(|(s, &ac)| *s -= ac * k);
            }
            let y = data.label(e as usize);
            delta.fill(0.0);
            let mistake = match self.p.outputs {
                Outputs::Binary => {
                    let wrong = y * score[0] <= 0.0;
                    if wrong {
                        delta[0] = y;
                    }
                    wrong
                }
                Outputs::OneVsRest(_) => {
                    let mut any = false;
                    for (cl, (&sc, dl)) in score.iter().zip(delta.iter_mut()).enumerate() {
                        let yc = if cl == y as usize { 1.0 } else { -1.0 };
                        if yc * sc <= 0.0 {
                            *dl = yc;
                            any = true;
                        }
                    }
                    any
                }
                Outputs::Multiclass(_) => {
                    // The first highest score wins; the true class must beat
                    // every other strictly.
                    let t = y as usize;
                    let rival = (0..c).filter(|&k| k != t).fold(None, |best: Option<usize>, k| match best {
                        Some(bk) if score[bk] >= score[k] => Some(bk),
                        _ => Some(k),
                    });
                    match rival {
                        Some(r) if score[r] >= score[t] => {
                            delta[t] = 1.0;
                            delta[r] = -1.0;
                            true
                        }
                        _ => false,
                    }
                }
            };
            if mistake {
                // The update of a row that counts h times.
                delta.iter_mut().for_each(|dl| *dl *= h);
                self.mistakes += 1;
                let before = evicted.len();
                let slot = match self.slot_of[e as usize] {
                    NONE => {
                        let bytes = self.bytes.map(|_| &xb[i * d..(i + 1) * d]);
                        self.insert(e, &x[i * d..(i + 1) * d], bytes, nx[i], block, start_slots, &mut evicted)
                    }
                    s => s as usize,
                };
                column(i, &mut kbb, &mut have);
                for (src, _) in &evicted[before..] {
                    if let Source::Block(q) = *src {
                        column(q, &mut kbb, &mut have);
                    }
                }
                let t = self.steps;
                for (cl, &dl) in delta.iter().enumerate().filter(|(_, dl)| **dl != 0.0) {
                    self.alpha[slot * c + cl] += dl;
                    if self.p.form == KernelForm::Averaged {
                        self.u[slot * c + cl] += t as f64 * f64::from(dl);
                    }
                    if self.p.form == KernelForm::Voted {
                        self.events.push(Event { slot: slot as u32, class: cl as u32, delta: dl, step: t });
                    }
                }
                deltas[i * c..(i + 1) * c].copy_from_slice(&delta);
                changed[i] = true;
            }
            self.steps += 1;
        }
        self.kt = kt;
        self.kbb = kbb;
        self.xb = xb;
    }

    /// A slot for example `e` (its row `x`, squared norm `nx`): a new one,
    /// or under a full budget the least-weighted one's, whose contribution
    /// is recorded in `evicted` for the rest of the block.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn insert(
        &mut self,
        e: u32,
        x: &[f32],
        bytes: Option<&[u8]>,
        nx: f32,
        block: &[u32],
        start_slots: usize,
        evicted: &mut Vec<(Source, Vec<f32>)>,
    ) -> usize {
        let c = self.c;
        let slot = match self.p.budget {
            Some(budget) if self.slots() >= budget => {
                let weight = |s: usize| self.alpha[s * c..(s + 1) * c].iter().map(|a| a.abs()).sum::<f32>();
                let s = (0..self.slots())
                    .min_by(|&a, &b| weight(a).total_cmp(&weight(b)).then(self.born[a].cmp(&self.born[b])))
                    .expect("a full budget has slots");
                let old = self.example[s];
                let src = match block.iter().position(|&q| q == old) {
                    Some(q) => Source::Block(q),
                    None => Source::Start(s),
                };
                // A slot reused in this block is found by its example above;
                // one that was a support row at the start, by its column.
                debug_assert!(matches!(src, Source::Block(_)) || s < start_slots);
                evicted.push((src, self.alpha[s * c..(s + 1) * c].to_vec()));
                self.slot_of[old as usize] = NONE;
                self.rows[s * self.dim..(s + 1) * self.dim].copy_from_slice(x);
                if let Some(xb) = bytes {
                    self.rows_u8[s * self.dim..(s + 1) * self.dim].copy_from_slice(xb);
                }
                self.norms[s] = nx;
                self.alpha[s * c..(s + 1) * c].fill(0.0);
                if self.p.form == KernelForm::Averaged {
                    self.u[s * c..(s + 1) * c].fill(0.0);
                }
                s
            }
            _ => {
                self.rows.extend_from_slice(x);
                self.rows_u8.extend_from_slice(bytes.unwrap_or_default());
                self.norms.push(nx);
                self.alpha.extend(std::iter::repeat_n(0.0, c));
                if self.p.form == KernelForm::Averaged {
                    self.u.extend(std::iter::repeat_n(0.0, c));
                }
                self.example.push(0);
                self.born.push(0);
                self.slots() - 1
            }
        };
        self.example[slot] = e;
        self.born[slot] = self.steps;
        self.slot_of[e as usize] = slot as u32;
        slot
    }

    /// The coefficients that predict: the last vector's, or the average's.
    pub(super) fn coef(&self) -> Vec<f32> {
        match self.p.form {
            KernelForm::Averaged if self.steps > 0 => {
                let t = self.steps as f64;
                self.alpha.iter().zip(&self.u).map(|(&a, &u)| (f64::from(a) - u / t) as f32).collect()
            }
            _ => self.alpha.clone(),
        }
    }

    pub(super) fn model(&self) -> KernelModel {
        KernelModel {
            kernel: self.p.kernel,
            form: self.p.form,
            outputs: self.p.outputs,
            dim: self.dim,
            rows: self.rows.clone(),
            norms: self.norms.clone(),
            coef: self.coef(),
            events: self.events.clone(),
            steps: self.steps,
            mistakes: self.mistakes,
            scale: self.bytes,
        }
    }
}
