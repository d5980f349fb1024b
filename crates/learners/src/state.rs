//! A learner's whole state as bytes, so that training can stop, be saved,
//! and resume bit-identically: averaging sums, step counters, FTRL's `z`
//! and `n`, EG's normalisers, the voted Perceptron's mistakes.
//!
//! Each learner lists its fields once ([`Resume::fields`]); the same list
//! writes them ([`save`]) and reads them back ([`restore`]). The bytes are
//! a sequence of fields, each a u64 element count then its elements,
//! little-endian. Reading checks every count against what the learner
//! expects (fixed-length fields) and that nothing is left over, so a state
//! from another learner or dimension is refused, never misread.

use crate::error::LearnError;
use crate::memory::HUGE_FROM;

/// What a learner's fields are visited with: a writer or a reader.
pub trait Fields {
    /// A fixed-length run of f32.
    fn f32s(&mut self, v: &mut [f32]);
    /// A fixed-length run of f64.
    fn f64s(&mut self, v: &mut [f64]);
    /// A variable-length run of f32.
    fn vec_f32(&mut self, v: &mut Vec<f32>);
    /// A variable-length run of u32.
    fn vec_u32(&mut self, v: &mut Vec<u32>);
    /// A variable-length run of u64.
    fn vec_u64(&mut self, v: &mut Vec<u64>);
    /// One u64.
    fn u64(&mut self, v: &mut u64) {
        let mut a = vec![*v];
        self.vec_u64(&mut a);
        *v = a.first().copied().unwrap_or(0);
    }
    /// One f64.
    fn f64(&mut self, v: &mut f64) {
        self.f64s(std::slice::from_mut(v));
    }
    /// Reading: refuses the state unless `ok` (fields that must agree).
    fn require(&mut self, ok: bool, what: &str);
}

/// A learner whose whole state can be saved and restored.
pub trait Resume {
    /// Visits every field of the state that training changes, in a fixed
    /// order. Configuration (hyper-parameters, dimension) is not state: the
    /// learner is built from it first.
    fn fields(&mut self, f: &mut dyn Fields);
    /// Checks a restored state against the `examples` training rows it
    /// continues on (the voted Perceptron's mistakes name rows).
    fn check_rows(&self, _examples: usize) -> Result<(), LearnError> {
        Ok(())
    }
}

/// The state of `learner` as bytes.
pub fn save<L: Resume>(learner: &mut L) -> Vec<u8> {
    // Measured first, then written into one buffer of that size: grown as
    // it went, a linear learner's tens of MB were copied at every doubling.
    let mut size = Size(0);
    learner.fields(&mut size);
    let mut w = Writer(Vec::with_capacity(size.0));
    // In 2 MB pages, advised before the first write: a linear learner's
    // state is tens of MB, and in 4 KB pages the copy into it took
    // thousands of page faults (SPEED.md, "A run's fixed cost").
    if size.0 >= HUGE_FROM {
        crate::memory::advise_huge_pages(w.0.spare_capacity_mut());
    }
    learner.fields(&mut w);
    w.0
}

/// Restores `learner` (built with the same configuration) from `bytes`.
pub fn restore<L: Resume>(learner: &mut L, bytes: &[u8]) -> Result<(), LearnError> {
    let mut r = Reader { b: bytes, at: 0, field: 0, error: None };
    learner.fields(&mut r);
    if let Some(e) = r.error {
        return Err(e);
    }
    if r.at != bytes.len() {
        return Err(bad(format!("{} bytes left over after {} fields", bytes.len() - r.at, r.field)));
    }
    Ok(())
}

fn bad(what: String) -> LearnError {
    LearnError::State(what)
}

/// The bytes [`Writer`] would write.
struct Size(usize);

impl Size {
    fn add<T>(&mut self, v: &[T]) {
        self.0 += 8 + size_of_val(v);
    }
}

impl Fields for Size {
    fn f32s(&mut self, v: &mut [f32]) {
        self.add(v);
    }
    fn f64s(&mut self, v: &mut [f64]) {
        self.add(v);
    }
    fn vec_f32(&mut self, v: &mut Vec<f32>) {
        self.add(v);
    }
    fn vec_u32(&mut self, v: &mut Vec<u32>) {
        self.add(v);
    }
    fn vec_u64(&mut self, v: &mut Vec<u64>) {
        self.add(v);
    }
    fn require(&mut self, _ok: bool, _what: &str) {}
}

struct Writer(Vec<u8>);

impl Writer {
    /// A field: its count, then its elements little-endian (on a
    /// little-endian machine, their bytes as they are).
    fn put<T: bytemuck::Pod, const N: usize>(&mut self, v: &[T], le: impl Fn(&T) -> [u8; N]) {
        self.0.extend_from_slice(&(v.len() as u64).to_le_bytes());
        if cfg!(target_endian = "little") {
            self.0.extend_from_slice(bytemuck::cast_slice(v));
        } else {
            v.iter().for_each(|x| self.0.extend_from_slice(&le(x)));
        }
    }
}

impl Fields for Writer {
    fn f32s(&mut self, v: &mut [f32]) {
        self.put(v, |x| x.to_le_bytes());
    }
    fn f64s(&mut self, v: &mut [f64]) {
        self.put(v, |x| x.to_le_bytes());
    }
    fn vec_f32(&mut self, v: &mut Vec<f32>) {
        self.f32s(v);
    }
    fn vec_u32(&mut self, v: &mut Vec<u32>) {
        self.put(v, |x| x.to_le_bytes());
    }
    fn vec_u64(&mut self, v: &mut Vec<u64>) {
        self.put(v, |x| x.to_le_bytes());
    }
    fn require(&mut self, _ok: bool, _what: &str) {}
}

/// Reads fields in order; the first error stops every later read.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    field: usize,
    error: Option<LearnError>,
}

impl Reader<'_> {
    /// The next field's elements of `size` bytes, checked against `want`
    /// when fixed: their bytes.
    fn take(&mut self, size: usize, want: Option<usize>) -> Option<&[u8]> {
        if self.error.is_some() {
            return None;
        }
        self.field += 1;
        let field = self.field;
        let n = self.b.get(self.at..self.at + 8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")));
        let Some(n) = n else {
            self.error = Some(bad(format!("field {field}: the state ends before its length")));
            return None;
        };
        if let Some(w) = want
            && n != w as u64
        {
            self.error = Some(bad(format!("field {field}: {n} elements where this learner has {w}")));
            return None;
        }
        let len = usize::try_from(n).ok().and_then(|n| n.checked_mul(size));
        let end = len.and_then(|l| (self.at + 8).checked_add(l)).filter(|&e| e <= self.b.len());
        let Some(end) = end else {
            self.error = Some(bad(format!("field {field}: {n} elements run past the state's end")));
            return None;
        };
        let s = &self.b[self.at + 8..end];
        self.at = end;
        Some(s)
    }
}

impl Fields for Reader<'_> {
    fn f32s(&mut self, v: &mut [f32]) {
        if let Some(b) = self.take(4, Some(v.len())) {
            v.iter_mut().zip(b.chunks_exact(4)).for_each(|(x, c)| *x = f32::from_le_bytes(c.try_into().expect("4")));
        }
    }
    fn f64s(&mut self, v: &mut [f64]) {
        if let Some(b) = self.take(8, Some(v.len())) {
            v.iter_mut().zip(b.chunks_exact(8)).for_each(|(x, c)| *x = f64::from_le_bytes(c.try_into().expect("8")));
        }
    }
    fn vec_f32(&mut self, v: &mut Vec<f32>) {
        if let Some(b) = self.take(4, None) {
            *v = b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4"))).collect();
        }
    }
    fn vec_u32(&mut self, v: &mut Vec<u32>) {
        if let Some(b) = self.take(4, None) {
            *v = b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4"))).collect();
        }
    }
    fn vec_u64(&mut self, v: &mut Vec<u64>) {
        if let Some(b) = self.take(8, None) {
            *v = b.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8"))).collect();
        }
    }
    fn require(&mut self, ok: bool, what: &str) {
        if !ok && self.error.is_none() {
            self.error = Some(bad(format!("after field {}: {what}", self.field)));
        }
    }
}
