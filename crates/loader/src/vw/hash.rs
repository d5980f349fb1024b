//! Vowpal Wabbit's feature hashing, bit for bit: MurmurHash3 x86_32 (VW's
//! `uniform_hash`), the `strings` rule that takes a name made only of
//! digits as its number plus the namespace hash, and the FNV prime that
//! combines the indices of an interaction.

/// The prime VW multiplies an interaction's first index by before it is
/// XORed with the next (`VW::details::FNV_PRIME`).
pub const FNV_PRIME: u64 = 16_777_619;

/// MurmurHash3 x86_32 of `data` from `seed`, as VW's `murmurhash_x86_32`
/// (little-endian blocks, the tail's bytes unsigned).
pub fn murmur3_32(data: &[u8], seed: u32) -> u32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mix = |k: u32| k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
    let mut h = seed;
    let blocks = data.chunks_exact(4);
    let tail = blocks.remainder();
    for b in blocks {
        h ^= mix(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    if !tail.is_empty() {
        let k = tail.iter().rev().fold(0u32, |k, &b| (k << 8) | u32::from(b));
        h ^= mix(k);
    }
    // VW XORs the length as a size_t truncated to 32 bits.
    h ^= data.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// VW's `hashstring` (`--hash strings`, the default): ASCII whitespace and
/// control bytes trimmed from both ends; a name of decimal digits only
/// (the empty name too) is its value plus `seed`, wrapping as VW's
/// `size_t` arithmetic does; any other name is hashed.
#[inline]
pub fn hash_strings(name: &[u8], seed: u32) -> u32 {
    // Most names start with a letter and end with no blank: nothing to
    // trim, not a number, hashed as they are.
    if let (Some(&a), Some(&z)) = (name.first(), name.last())
        && a > 0x20
        && !a.is_ascii_digit()
        && z > 0x20
    {
        return murmur3_32(name, seed);
    }
    // Names of digits alone are common (numbered features): one pass.
    let mut n = 0u64;
    let mut digits = !name.is_empty();
    for &c in name {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            digits = false;
            break;
        }
        n = n.wrapping_mul(10).wrapping_add(u64::from(d));
    }
    if digits {
        return (n as u32).wrapping_add(seed);
    }
    // VW's test `c <= 0x20` on a signed char: bytes of 0x80 and above are
    // negative there, so never trimmed.
    let blank = |c: &u8| *c <= 0x20;
    let start = name.iter().position(|c| !blank(c)).unwrap_or(name.len());
    let end = name.iter().rposition(|c| !blank(c)).map_or(start, |i| i + 1);
    let name = &name[start..end];
    if name.iter().all(u8::is_ascii_digit) {
        let n = name.iter().fold(0u64, |n, &d| n.wrapping_mul(10).wrapping_add(u64::from(d - b'0')));
        (n as u32).wrapping_add(seed)
    } else {
        murmur3_32(name, seed)
    }
}

/// VW's `hashall` (`--hash all`): every name hashed.
pub fn hash_all(name: &[u8], seed: u32) -> u32 {
    murmur3_32(name, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn murmur_matches_the_reference_vectors() {
        // MurmurHash3_x86_32's published test vectors.
        assert_eq!(murmur3_32(b"", 0), 0);
        assert_eq!(murmur3_32(b"", 1), 0x514e_28b7);
        assert_eq!(murmur3_32(b"", 0xffff_ffff), 0x81f1_6f39);
        assert_eq!(murmur3_32(b"\xff\xff\xff\xff", 0), 0x7629_3b50);
        assert_eq!(murmur3_32(b"\x21\x43\x65\x87", 0), 0xf55b_516b);
        assert_eq!(murmur3_32(b"\x21\x43\x65\x87", 0x5082_edee), 0x2362_f9de);
        assert_eq!(murmur3_32(b"\x21\x43\x65", 0), 0x7e4a_8634);
        assert_eq!(murmur3_32(b"\x21\x43", 0), 0xa0f7_b07a);
        assert_eq!(murmur3_32(b"\x21", 0), 0x7266_1cf4);
        assert_eq!(murmur3_32(b"Hello, world!", 1234), 0xfaf6_cdb3);
        assert_eq!(murmur3_32(b"The quick brown fox jumps over the lazy dog", 0x9747_b28c), 0x2fa8_26cd);
        // VW's `--audit` of `1 | feature` at 18 bits: feature:118880.
        assert_eq!(murmur3_32(b"feature", 0) & 0x3ffff, 118_880);
    }

    #[test]
    fn digits_are_numbers_and_words_are_hashed() {
        assert_eq!(hash_strings(b"123", 0), 123);
        assert_eq!(hash_strings(b" 123\t", 7), 130);
        assert_eq!(hash_strings(b"", 5), 5);
        assert_eq!(hash_strings(b"12a", 0), murmur3_32(b"12a", 0));
        assert_eq!(hash_strings(b" x ", 3), murmur3_32(b"x", 3));
        assert_eq!(hash_strings(b"x1 ", 3), murmur3_32(b"x1", 3));
        assert_eq!(hash_strings(b"\x01x", 3), murmur3_32(b"x", 3));
        assert_eq!(hash_strings(b"\x80", 3), murmur3_32(b"\x80", 3));
        assert_eq!(hash_strings(b"x", 3), murmur3_32(b"x", 3));
        assert_eq!(hash_all(b"123", 0), murmur3_32(b"123", 0));
        // Digits past u32 wrap as VW's size_t arithmetic, then truncate.
        assert_eq!(hash_strings(b"4294967296", 0), 0);
        assert_eq!(hash_strings(b"4294967297", 1), 2);
    }
}
