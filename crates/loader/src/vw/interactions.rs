//! VW's namespace interactions: the specs as `-q`, `--cubic` and
//! `--interactions` take them (namespace letters, `:` for any namespace,
//! `\xNN` for a byte), compiled as VW compiles them — the list sorted,
//! duplicates (the same letters in another order) removed, a spec that
//! repeats a letter among others sorted — and each interaction's features
//! generated as VW generates them: the first index times the FNV prime,
//! XORed with the next, values multiplied; a namespace crossed with itself
//! gives each unordered pair (and triple) once, a feature with itself
//! included.

use super::hash::FNV_PRIME;

/// VW's wildcard letter.
pub const WILDCARD: u8 = b':';

/// An interaction spec's letters, `\xNN` escapes decoded.
pub fn parse_spec(spec: &str) -> Result<Vec<u8>, String> {
    let b = spec.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') {
            let hex = spec.get(i + 2..i + 4).and_then(|h| u8::from_str_radix(h, 16).ok());
            let Some(byte) = hex else { return Err(format!("`{spec}`: `\\x` takes two hexadecimal digits")) };
            out.push(byte);
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(out)
}

/// Whether VW puts a spec's letters in order: a repeated letter among
/// others (`aab`, `abb`, `aba`); `aaa` and `abc` are kept as written.
fn must_be_left_sorted(s: &[u8]) -> bool {
    let (mut different, mut pair) = (false, false);
    for w in s.windows(2) {
        if w[0] == w[1] {
            if different {
                return true;
            }
            pair = true;
        } else {
            if pair {
                return true;
            }
            different = true;
        }
    }
    false
}

/// VW's `sort_and_filter_duplicate_interactions` after its overall sort:
/// the list by length then letters; one of each set of letters kept (the
/// first); the kept ones sorted where [`must_be_left_sorted`].
pub fn compile(specs: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut all = specs.to_vec();
    all.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    let mut keyed: Vec<(Vec<u8>, usize)> = all
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut k = s.clone();
            k.sort_unstable();
            (k, i)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.dedup_by(|b, a| a.0 == b.0);
    keyed.sort_by_key(|k| k.1);
    keyed.into_iter().map(|(sorted, i)| if must_be_left_sorted(&sorted) { sorted } else { all[i].clone() }).collect()
}

/// Whether a namespace letter takes part in wildcard interactions (VW's
/// `is_interaction_ns`: printable ASCII).
pub fn interacts(ns: u8) -> bool {
    (b' '..=b'~').contains(&ns)
}

/// `specs` with their wildcards expanded over `present` (sorted, distinct,
/// interacting letters), as VW's `compile_interactions`: each wildcard
/// position takes the combinations with repetition of the letters, the
/// fixed letters kept in place; then [`compile`].
pub fn expand(specs: &[Vec<u8>], present: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for s in specs {
        let wild = s.iter().filter(|&&c| c == WILDCARD).count();
        if wild == 0 {
            out.push(s.clone());
            continue;
        }
        if present.is_empty() {
            continue;
        }
        for combo in combinations(present, wild) {
            let mut picks = combo.into_iter();
            out.push(s.iter().map(|&c| if c == WILDCARD { picks.next().unwrap_or(c) } else { c }).collect());
        }
    }
    compile(&out)
}

/// The non-decreasing sequences of `k` letters of `set`.
fn combinations(set: &[u8], k: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut idx = vec![0usize; k];
    loop {
        out.push(idx.iter().map(|&i| set[i]).collect());
        // The rightmost position that can still grow; those after it
        // restart from its new value.
        let Some(p) = (0..k).rev().find(|&p| idx[p] + 1 < set.len()) else { return out };
        idx[p] += 1;
        for q in p + 1..k {
            idx[q] = idx[p];
        }
    }
}

/// Calls `emit(index, value, picks)` for each feature of the interaction
/// of the namespaces `spaces` (each its features' `(index, value)` in the
/// order written; `picks` the position chosen in each); `same[t]` says
/// namespace `t` is the one before it, so that its features start from
/// the one chosen there (combinations).
pub fn generate(spaces: &[&[(u64, f32)]], same: &[bool], emit: &mut dyn FnMut(u64, f32, &[usize])) {
    struct Walk<'s, 'e> {
        spaces: &'s [&'s [(u64, f32)]],
        same: &'s [bool],
        picks: Vec<usize>,
        emit: &'e mut dyn FnMut(u64, f32, &[usize]),
    }
    impl Walk<'_, '_> {
        fn go(&mut self, t: usize, from: usize, hash: u64, value: f32) {
            let last = t + 1 == self.spaces.len();
            let start = if t > 0 && self.same[t] { from } else { 0 };
            for (j, &(index, v)) in self.spaces[t].iter().enumerate().skip(start) {
                let value = if t == 0 { v } else { value * v };
                self.picks[t] = j;
                if last {
                    (self.emit)(hash ^ index, value, &self.picks);
                } else {
                    let next =
                        if t == 0 { FNV_PRIME.wrapping_mul(index) } else { FNV_PRIME.wrapping_mul(hash ^ index) };
                    self.go(t + 1, j, next, value);
                }
            }
        }
    }
    if spaces.len() >= 2 && spaces.iter().all(|s| !s.is_empty()) {
        Walk { spaces, same, picks: vec![0; spaces.len()], emit }.go(0, 0, 0, 1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_compile_as_vw_compiles_them() {
        let v = |s: &[&str]| s.iter().map(|s| s.as_bytes().to_vec()).collect::<Vec<_>>();
        assert_eq!(compile(&v(&["ba", "ab"])), v(&["ab"]));
        assert_eq!(compile(&v(&["ba"])), v(&["ba"]));
        assert_eq!(compile(&v(&["aba", "ab"])), v(&["ab", "aab"]));
        assert_eq!(compile(&v(&["cba", "aaa"])), v(&["aaa", "cba"]));
        assert_eq!(parse_spec("\\x41b").unwrap(), b"Ab");
        assert!(parse_spec("\\xZZ").is_err());
        assert_eq!(expand(&v(&["::"]), b"ab"), v(&["aa", "ab", "bb"]));
        assert_eq!(expand(&v(&["a:"]), b"ab"), v(&["aa", "ab"]));
        assert_eq!(combinations(b"ab", 3).len(), 4);
    }

    #[test]
    fn a_namespace_with_itself_gives_each_pair_once() {
        let a = [(1u64, 1.0f32), (2, 2.0), (3, 3.0)];
        let mut got = Vec::new();
        generate(&[&a, &a], &[false, true], &mut |i, v, _| got.push((i, v)));
        assert_eq!(got.len(), 6);
        assert_eq!(got[0], (FNV_PRIME ^ 1, 1.0));
        assert_eq!(got[1], (FNV_PRIME ^ 2, 2.0));
        let mut cubic = 0;
        generate(&[&a, &a, &a], &[false, true, true], &mut |_, _, _| cubic += 1);
        assert_eq!(cubic, 10);
        let mut cross = 0;
        generate(&[&a, &a[..2]], &[false, false], &mut |_, _, _| cross += 1);
        assert_eq!(cross, 6);
    }
}
