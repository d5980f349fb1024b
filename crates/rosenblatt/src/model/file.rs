//! The model file: versioned, checksummed, little-endian.
//!
//!
//! ```text
//! offset  size  field
//! 0       8     magic "RBLTMODL"
//! 8       4     format version (u32) = 3
//! 12      4     kind (u32): 0 linear (binary), 1 multi-class, 2 voted,
//!                           3 kernel
//! 16      8     metadata length M (u64)
//! 24      M     metadata, JSON: learner, hyper-parameters, dimension, classes,
//!               index base, training summary (no clock: the same training
//!               writes the same bytes)
//! 24+M    …     payload (below)
//! …       S     the learner's state (version 3; `S` may be 0): what
//!               `train --init` resumes from ([`rosenblatt_learners::state`])
//! end−12  8     S (u64; version 3)
//! end−4   4     CRC-32 of everything before it
//! ```
//!
//! Payloads, all little-endian:
//! - linear: dim + 1 f32 weights (bias last);
//! - multi-class: k·dim f32 weights (class-major), then k f32 biases;
//! - voted: u64 R (stored rows), u64 K (mistakes), u64 N (entries), u64 S
//!   (segments), u64 T (start vectors), f32 η, u32 bias flag; then R + 1
//!   u64 row offsets, N u32 indices, N f32 values, K u32 row slots, K f32
//!   labels (each mistake's ±1 times its row's importance weight: its
//!   update's coefficient), K + S u64 survival counts, S u32 segment starts (`u32::MAX`:
//!   zero), S u32 segment first mistakes, T·(dim + 1) f32 start vectors.
//!   The voted Perceptron's mistaken training rows (and, trained in
//!   parallel, the mixed vectors its segments start from) travel with it,
//!   so the file predicts on its own.
//! - kernel: u32 kernel (0 Gaussian, 1 polynomial), f32 γ, f32 c, u32
//!   degree, u32 form (0 last, 1 averaged, 2 voted), u32 outputs (0 one
//!   for ±1 labels, 1 one-vs-rest, 2 the multi-class Perceptron), u32
//!   output count C, u32 row encoding (0 f32, 1 bytes), f32 byte scale;
//!   u64 R (support rows), u64 E (updates), u64 steps, u64 mistakes; then
//!   R·dim row values (f32, or one byte each decoding as `byte · scale`:
//!   rows from u8 data keep their compact encoding), R·C f32
//!   coefficients, and E updates of (u32 row, u32 output, f32 change, u64
//!   step) — the voted form's whole history.
//!
//! Loading checks magic, version and checksum before anything else, then
//! that the payload is exactly as long as the metadata's dimension and
//! classes (or the voted header's counts) imply, with checked arithmetic and
//! before allocating anything from a count, and that every value is finite
//! (voted: every structural invariant, by `VotedPredictor::from_parts`).
//! Version 1 files (whose metadata was an untyped map with the training
//! time in it) and version 2 files (no learner state: they predict, but do
//! not resume) are still read. Models are written under a temporary name
//! and renamed.

use super::*;

impl Model {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        // About its size (the weights and the state are nearly all of it),
        // so that tens of MB are not copied at every doubling.
        let weights = match &self.weights {
            Weights::Linear(m) => 4 * m.weights.len(),
            Weights::Multiclass(m) => 4 * (m.weights.len() + m.bias.len()),
            Weights::Voted(_) | Weights::Kernel(_) => 0,
        };
        let mut out = Vec::with_capacity(weights + self.state.as_deref().map_or(0, <[u8]>::len) + 4096);
        self.write_to(&mut out).expect("writing to memory does not fail");
        out
    }

    /// Writes the file's bytes to `out` as they are made, the checksum kept
    /// on the way: no copy of the whole file in memory first (a linear
    /// model's file with its learner's state is tens of MB, and building it
    /// in a buffer before writing it cost a one-pass `train` a tenth of its
    /// run on the benchmark set: SPEED.md#a-runs-fixed-cost).
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let meta = serde_json::to_vec(&self.meta).expect("metadata serialises");
        let state = self.state.as_deref().unwrap_or_default();
        let kind: u32 = match &self.weights {
            Weights::Linear(_) => 0,
            Weights::Multiclass(_) => 1,
            Weights::Voted(_) => 2,
            Weights::Kernel(_) => 3,
        };
        let mut w = Hashed { out, crc: crc32fast::Hasher::new() };
        w.put(MAGIC)?;
        w.u32s(&[VERSION, kind])?;
        w.u64s(&[meta.len() as u64])?;
        w.put(&meta)?;
        match &self.weights {
            Weights::Linear(m) => {
                w.f32s(&m.weights)?;
                w.f32s(&[m.bias])?;
            }
            Weights::Multiclass(m) => {
                w.f32s(&m.weights)?;
                w.f32s(&m.bias)?;
            }
            Weights::Voted(v) => {
                let p = v.to_parts();
                let counts = [
                    p.offsets.len() as u64 - 1,
                    p.slots.len() as u64,
                    p.indices.len() as u64,
                    p.segment_firsts.len() as u64,
                    (p.starts.len() / (p.dim + 1)) as u64,
                ];
                w.u64s(&counts)?;
                w.f32s(&[p.eta])?;
                w.u32s(&[u32::from(p.bias)])?;
                w.u64s(&p.offsets)?;
                w.u32s(&p.indices)?;
                w.f32s(&p.values)?;
                w.u32s(&p.slots)?;
                w.f32s(&p.labels)?;
                w.u64s(&p.counts)?;
                w.u32s(&p.segment_starts)?;
                w.u32s(&p.segment_firsts)?;
                w.f32s(&p.starts)?;
            }
            Weights::Kernel(m) => {
                let (kernel, gamma, coef0, degree) = match m.kernel {
                    Kernel::Rbf { gamma } => (0, gamma, 0.0, 0),
                    Kernel::Poly { gamma, coef0, degree } => (1, gamma, coef0, degree),
                };
                let form = match m.form {
                    KernelForm::Last => 0,
                    KernelForm::Averaged => 1,
                    KernelForm::Voted => 2,
                };
                let (outputs, count) = match m.outputs {
                    Outputs::Binary => (0, 1),
                    Outputs::OneVsRest(c) => (1, c as u32),
                    Outputs::Multiclass(c) => (2, c as u32),
                };
                let bytes = m.bytes();
                let scale = if bytes.is_some() { m.scale.unwrap_or(0.0) } else { 0.0 };
                w.u32s(&[kernel])?;
                w.f32s(&[gamma, coef0])?;
                w.u32s(&[degree, form, outputs, count, u32::from(bytes.is_some())])?;
                w.f32s(&[scale])?;
                w.u64s(&[m.support_rows() as u64, m.events.len() as u64, m.steps, m.mistakes])?;
                match &bytes {
                    Some(b) => w.put(b)?,
                    None => w.f32s(&m.rows)?,
                }
                w.f32s(&m.coef)?;
                for e in &m.events {
                    w.u32s(&[e.slot, e.class])?;
                    w.f32s(&[e.delta])?;
                    w.u64s(&[e.step])?;
                }
            }
        }
        w.put(state)?;
        w.u64s(&[state.len() as u64])?;
        let crc = w.crc.finalize();
        w.out.write_all(&crc.to_le_bytes())
    }

    /// Checks and decodes a model file's bytes, `path` naming them in errors.
    pub fn decode(path: &Path, b: &[u8]) -> Result<Model, Error> {
        if b.len() < 28 || &b[..8] != MAGIC {
            return Err(bad(path, "not a rosenblatt model file (bad magic or too short)"));
        }
        let version = u32::from_le_bytes(b[8..12].try_into().expect("4 bytes"));
        if !(1..=VERSION).contains(&version) {
            return Err(bad(path, format!("model format version {version}; this build reads versions 1 to {VERSION}")));
        }
        let (body, tail) = b.split_at(b.len() - 4);
        let stored = u32::from_le_bytes(tail.try_into().expect("4 bytes"));
        if crc32fast::hash(body) != stored {
            return Err(bad(path, "checksum mismatch: the file is truncated or corrupted"));
        }
        let kind = u32::from_le_bytes(b[12..16].try_into().expect("4 bytes"));
        let mlen = u64::from_le_bytes(b[16..24].try_into().expect("8 bytes"));
        let mend = usize::try_from(mlen).ok().and_then(|m| m.checked_add(24)).filter(|&e| e <= body.len());
        let Some(mend) = mend else {
            return Err(bad(path, format!("metadata length {mlen} runs past the end of the file")));
        };
        let meta: ModelMeta = if version == 1 {
            meta_v1(&b[24..mend])
        } else {
            serde_json::from_slice(&b[24..mend]).map_err(|e| e.to_string())
        }
        .map_err(|e| bad(path, format!("metadata is not valid: {e}")))?;
        let mut payload = &body[mend..];
        let mut state = None;
        if version >= 3 {
            let Some(at) = payload.len().checked_sub(8) else {
                return Err(bad(path, "the file ends before its state length"));
            };
            let s = u64::from_le_bytes(payload[at..].try_into().expect("8 bytes"));
            let Some(start) = usize::try_from(s).ok().and_then(|s| at.checked_sub(s)) else {
                return Err(bad(path, format!("a learner state of {s} bytes runs past the payload")));
            };
            state = (s > 0).then(|| payload[start..at].to_vec());
            payload = &payload[..start];
        }
        let dim = usize::try_from(meta.dim).map_err(|_| bad(path, format!("dimension {} too large", meta.dim)))?;
        let k = meta.classes.len();
        if kind == 2 {
            if k != 2 {
                return Err(bad(path, format!("a voted model needs 2 classes, the metadata lists {k}")));
            }
            let parts = voted_parts(payload, dim).map_err(|reason| bad(path, reason))?;
            let v = VotedPredictor::from_parts(parts).map_err(|e| bad(path, e.to_string()))?;
            return Ok(Model { meta, weights: Weights::Voted(v), state });
        }
        if kind == 3 {
            let parts = kernel_parts(payload, dim).map_err(|reason| bad(path, reason))?;
            let c = parts.outputs.count();
            let fits = match parts.outputs {
                Outputs::Binary => meta.classes == [-1.0, 1.0],
                _ => c == k,
            };
            if !fits {
                return Err(bad(path, format!("a kernel model with {c} outputs does not fit {k} classes")));
            }
            let m = parts.checked().map_err(|e| bad(path, e.to_string()))?;
            return Ok(Model { meta, weights: Weights::Kernel(m), state });
        }
        let want = match kind {
            0 => dim.checked_add(1),
            1 => dim.checked_mul(k).and_then(|n| n.checked_add(k)),
            x => return Err(bad(path, format!("unknown model kind {x}"))),
        };
        if want.and_then(|n| n.checked_mul(4)) != Some(payload.len()) {
            return Err(bad(
                path,
                format!("{} weight bytes do not fit dimension {dim} and {k} classes", payload.len()),
            ));
        }
        let floats: Vec<f32> = payload.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4"))).collect();
        if let Some(i) = floats.iter().position(|f| !f.is_finite()) {
            return Err(bad(path, format!("weight {i} is not finite")));
        }
        let weights = if kind == 0 {
            if k != 2 {
                return Err(bad(path, format!("a linear model needs 2 classes, the metadata lists {k}")));
            }
            let (w, b) = floats.split_at(dim);
            Weights::Linear(LinearModel { weights: w.to_vec(), bias: b[0] })
        } else {
            let (w, b) = floats.split_at(dim * k);
            Weights::Multiclass(MulticlassModel { dim, weights: w.to_vec(), bias: b.to_vec() })
        };
        Ok(Model { meta, weights, state })
    }
}

/// Reads a voted payload's arrays after checking that the counts in its
/// header account for its length exactly.
fn voted_parts(b: &[u8], dim: usize) -> Result<VotedParts, String> {
    const HEADER: usize = 48;
    let u64_at = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"));
    if b.len() < HEADER {
        return Err(format!("voted payload of {} bytes is shorter than its {HEADER}-byte header", b.len()));
    }
    let (rows, mistakes, entries, segments, starts) = (u64_at(0), u64_at(8), u64_at(16), u64_at(24), u64_at(32));
    // 8 per offset and count, 8 per entry (index + value), 8 per mistake
    // (slot + label), 8 per segment (start + first), 4·(dim + 1) per start.
    let width = (dim as u64).checked_add(1);
    let want = (|| {
        let mut n = rows.checked_add(1)?.checked_mul(8)?;
        n = n.checked_add(entries.checked_mul(8)?)?;
        n = n.checked_add(mistakes.checked_mul(8)?)?;
        n = n.checked_add(mistakes.checked_add(segments)?.checked_mul(8)?)?;
        n = n.checked_add(segments.checked_mul(8)?)?;
        n = n.checked_add(starts.checked_mul(width?)?.checked_mul(4)?)?;
        n.checked_add(HEADER as u64)
    })();
    if want != Some(b.len() as u64) {
        return Err(format!(
            "voted payload of {} bytes does not fit {rows} rows, {mistakes} mistakes, {entries} entries, \
             {segments} segments and {starts} start vectors",
            b.len()
        ));
    }
    // Every count now fits in the file, so in usize.
    let (rows, mistakes, entries, segments) = (rows as usize, mistakes as usize, entries as usize, segments as usize);
    let start_values = starts as usize * (dim + 1);
    let mut at = HEADER;
    let mut take = |n: usize, size: usize| {
        let s = &b[at..at + n * size];
        at += n * size;
        s
    };
    let f32v = |s: &[u8]| s.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4"))).collect();
    let u32v = |s: &[u8]| s.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4"))).collect();
    let u64v = |s: &[u8]| s.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8"))).collect();
    let eta = f32::from_le_bytes(b[40..44].try_into().expect("4"));
    let bias = match u32::from_le_bytes(b[44..48].try_into().expect("4")) {
        0 => false,
        1 => true,
        x => return Err(format!("voted bias flag {x} is neither 0 nor 1")),
    };
    Ok(VotedParts {
        dim,
        eta,
        bias,
        offsets: u64v(take(rows + 1, 8)),
        indices: u32v(take(entries, 4)),
        values: f32v(take(entries, 4)),
        slots: u32v(take(mistakes, 4)),
        labels: f32v(take(mistakes, 4)),
        counts: u64v(take(mistakes + segments, 8)),
        segment_starts: u32v(take(segments, 4)),
        segment_firsts: u32v(take(segments, 4)),
        starts: f32v(take(start_values, 4)),
    })
}

/// Reads a kernel payload after checking that its header's counts account
/// for its length exactly; [`KernelModel::checked`] checks the rest.
fn kernel_parts(b: &[u8], dim: usize) -> Result<KernelModel, String> {
    const HEADER: usize = 68;
    if b.len() < HEADER {
        return Err(format!("kernel payload of {} bytes is shorter than its {HEADER}-byte header", b.len()));
    }
    let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"));
    let f32_at = |o: usize| f32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"));
    let u64_at = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"));
    let (gamma, coef0, degree) = (f32_at(4), f32_at(8), u32_at(12));
    let kernel = match u32_at(0) {
        // The Gaussian kernel's unused fields are written as zeros.
        0 if coef0.to_bits() == 0 && degree == 0 => Kernel::Rbf { gamma },
        0 => return Err(format!("a Gaussian kernel with c = {coef0} and degree {degree} (written as 0)")),
        1 => Kernel::Poly { gamma, coef0, degree },
        x => return Err(format!("unknown kernel {x}")),
    };
    let form = match u32_at(16) {
        0 => KernelForm::Last,
        1 => KernelForm::Averaged,
        2 => KernelForm::Voted,
        x => return Err(format!("unknown kernel form {x}")),
    };
    let count = u32_at(24) as usize;
    let outputs = match (u32_at(20), count) {
        (0, 1) => Outputs::Binary,
        (1, c) => Outputs::OneVsRest(c),
        (2, c) => Outputs::Multiclass(c),
        (x, c) => return Err(format!("unknown outputs {x} with {c} scores")),
    };
    let bytes = match u32_at(28) {
        0 => false,
        1 => true,
        x => return Err(format!("unknown row encoding {x}")),
    };
    let scale = f32_at(32);
    if !bytes && scale.to_bits() != 0 {
        return Err(format!("byte scale {scale} for rows stored as f32 (written as 0)"));
    }
    let (rows, events, steps, mistakes) = (u64_at(36), u64_at(44), u64_at(52), u64_at(60));
    let value = if bytes { 1 } else { 4 };
    let want = (|| {
        let values = rows.checked_mul(dim as u64)?;
        let mut n = values.checked_mul(value)?;
        n = n.checked_add(rows.checked_mul(count as u64)?.checked_mul(4)?)?;
        n = n.checked_add(events.checked_mul(20)?)?;
        n.checked_add(HEADER as u64)
    })();
    if want != Some(b.len() as u64) {
        return Err(format!(
            "kernel payload of {} bytes does not fit {rows} support rows of dimension {dim}, {count} outputs and \
             {events} updates",
            b.len()
        ));
    }
    // Every count now fits in the file, so in usize.
    let (values, coefs) = (rows as usize * dim, rows as usize * count);
    let mut at = HEADER;
    let rows_v: Vec<f32> = if bytes {
        if !(scale.is_finite() && scale > 0.0) {
            return Err(format!("byte scale {scale} is not a positive number"));
        }
        let v = b[at..at + values].iter().map(|&x| f32::from(x) * scale).collect();
        at += values;
        v
    } else {
        let v = b[at..at + 4 * values].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4"))).collect();
        at += 4 * values;
        v
    };
    let coef = b[at..at + 4 * coefs].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4"))).collect();
    at += 4 * coefs;
    let events = b[at..]
        .chunks_exact(20)
        .map(|e| Event {
            slot: u32::from_le_bytes(e[0..4].try_into().expect("4")),
            class: u32::from_le_bytes(e[4..8].try_into().expect("4")),
            delta: f32::from_le_bytes(e[8..12].try_into().expect("4")),
            step: u64::from_le_bytes(e[12..20].try_into().expect("8")),
        })
        .collect();
    Ok(KernelModel {
        kernel,
        form,
        outputs,
        dim,
        rows: rows_v,
        norms: Vec::new(),
        coef,
        events,
        steps,
        mistakes,
        scale: bytes.then_some(scale),
    })
}

/// Reads version 1 metadata: the same fields, but hyper-parameters and the
/// training summary as free maps (with the training time, which version 2
/// leaves out so that files are reproducible) and the index base inside the
/// summary.
fn meta_v1(json: &[u8]) -> Result<ModelMeta, String> {
    #[derive(Deserialize)]
    struct V1 {
        learner: Learner,
        params: serde_json::Map<String, serde_json::Value>,
        dim: u64,
        classes: Vec<f64>,
        training: serde_json::Map<String, serde_json::Value>,
    }
    let v: V1 = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    let t = &v.training;
    let u64_of = |k: &str| t.get(k).and_then(|x| x.as_u64()).unwrap_or(0);
    let order = match t.get("order").and_then(|x| x.as_str()) {
        Some("Sequential") => Order::Sequential,
        Some("Sample") => Order::Sample,
        Some("Blocks") => Order::Blocks,
        _ => Order::Shuffle,
    };
    let parts = u64_of("threads").max(1) as usize;
    let training = Training {
        examples: u64_of("examples"),
        holdout: u64_of("holdout"),
        passes: t.get("passes").and_then(|x| x.as_f64()).unwrap_or(0.0),
        passes_run: u64_of("passes_run") as usize,
        order,
        seed: u64_of("seed"),
        parts,
        first_pass: 0,
        mixing: match t.get("mixing").and_then(|x| x.as_str()) {
            Some("weighted") => Some(Mixing::Weighted),
            Some(_) => Some(Mixing::Uniform),
            None => None,
        },
        mistakes: u64_of("mistakes"),
        updates: u64_of("updates"),
        mistakes_per_pass: t
            .get("mistakes_per_pass")
            .and_then(|x| x.as_array())
            .map(|a| a.iter().filter_map(|m| m.as_u64()).collect())
            .unwrap_or_default(),
        separated_at: t.get("separated_at").and_then(|x| x.as_u64()).map(|p| p as usize),
        batches: 0,
    };
    let index_base = u8::from(t.get("index_base").and_then(|x| x.as_u64()).unwrap_or(1) != 0);
    let params = v.params.into_iter().filter_map(|(k, x)| x.as_f64().map(|f| (k, f))).collect();
    Ok(ModelMeta { learner: v.learner, params, dim: v.dim, classes: v.classes, index_base, training, hashing: None })
}

/// A writer that keeps the CRC-32 of what went through it, and writes
/// numbers little-endian.
struct Hashed<'w, W> {
    out: &'w mut W,
    crc: crc32fast::Hasher,
}

impl<W: std::io::Write> Hashed<'_, W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.crc.update(bytes);
        self.out.write_all(bytes)
    }

    /// Numbers as their little-endian bytes: in place on a little-endian
    /// machine (the weights are most of a file), a copy otherwise.
    fn le<T: bytemuck::Pod, const N: usize>(&mut self, v: &[T], le: impl Fn(&T) -> [u8; N]) -> std::io::Result<()> {
        if cfg!(target_endian = "little") {
            self.put(bytemuck::cast_slice(v))
        } else {
            let bytes: Vec<u8> = v.iter().flat_map(le).collect();
            self.put(&bytes)
        }
    }

    fn f32s(&mut self, v: &[f32]) -> std::io::Result<()> {
        self.le(v, |x| x.to_le_bytes())
    }

    fn u32s(&mut self, v: &[u32]) -> std::io::Result<()> {
        self.le(v, |x| x.to_le_bytes())
    }

    fn u64s(&mut self, v: &[u64]) -> std::io::Result<()> {
        self.le(v, |x| x.to_le_bytes())
    }
}
