//! VW's number reader (`VW::details::parse_float`), bit for bit: its fast
//! path accumulates digits in `f32` and scales by a table of powers of
//! ten, which can differ from a correctly rounded parse in the last bit;
//! anything the fast path does not end cleanly falls back to `strtof`
//! (correctly rounded, as Rust's parser is).

/// VW's `fast_pow10` tables: 10^0..10^38 by repeated multiplication and
/// 10^-1..10^-37 by repeated division, in `f32` (made at compile time, as
/// VW's `constexpr` tables are).
const POW10: ([f32; 39], [f32; 38]) = {
    let mut up = [1.0f32; 39];
    let mut k = 1;
    while k < 39 {
        up[k] = 10.0 * up[k - 1];
        k += 1;
    }
    let mut down = [1.0f32; 38];
    let mut k = 1;
    while k < 38 {
        down[k] = down[k - 1] / 10.0;
        k += 1;
    }
    (up, down)
};

fn fast_pow10(e: i8) -> f32 {
    let (up, down) = &POW10;
    match e {
        39.. => f32::INFINITY,
        ..-37 => 0.0,
        0.. => up[e as usize],
        _ => down[(-(e as i16)) as usize],
    }
}

/// The number at the start of `s` as VW reads it, and the bytes it took
/// (0: no number there).
#[inline]
pub fn parse_float(s: &[u8]) -> (f32, usize) {
    short_decimal(s).unwrap_or_else(|| vw_loop(s))
}

/// The usual value, a plain decimal of one to seven digits (`0.5625`,
/// `-3`, `12.5`) ended cleanly, read as [`vw_loop`] reads it but with
/// the digits gathered as an integer: below 10^7 + 48 < 2^24, every sum
/// and product VW's loop makes in f32 is exact, so both give the same
/// bits (a property test holds them equal), and the integer chain is
/// shorter than f32's. `None`: anything else, left to [`vw_loop`].
#[inline(always)]
fn short_decimal(s: &[u8]) -> Option<(f32, usize)> {
    let negative = s.first() == Some(&b'-');
    let mut i = usize::from(negative);
    let mut n = 0u32;
    let mut digits = |i: &mut usize| {
        let from = *i;
        while let Some(d) = s.get(*i).map(|c| c.wrapping_sub(b'0')).filter(|&d| d <= 9) {
            n = n.wrapping_mul(10).wrapping_add(u32::from(d));
            *i += 1;
        }
        *i - from
    };
    let whole = digits(&mut i);
    let decimals = if s.get(i) == Some(&b'.') {
        i += 1;
        digits(&mut i)
    } else {
        0
    };
    if !(1..=7).contains(&(whole + decimals)) || !matches!(s.get(i), None | Some(b' ' | b'\n' | b'\t')) {
        return None;
    }
    // VW's scale, fast_pow10(−decimals), read straight from its table.
    let acc = n as f32 * POW10.1[decimals];
    Some((if negative { -acc } else { acc }, i))
}

/// VW's loop: digits gathered in f32, scaled by a power of ten; what it
/// does not end cleanly, `strtof` reads.
fn vw_loop(s: &[u8]) -> (f32, usize) {
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let digit = |c: u8| c.is_ascii_digit();
    let mut i = 0;
    while at(i) == b' ' {
        i += 1;
    }
    let mut sign = 1.0f32;
    if at(i) == b'-' {
        sign = -1.0;
        i += 1;
    }
    let mut acc = 0.0f32;
    while digit(at(i)) {
        // VW's `acc * 10 + *p++ - '0'`: the byte is added, then 48
        // taken away, each rounded to f32.
        acc = (acc * 10.0 + f32::from(at(i))) - 48.0;
        i += 1;
    }
    let mut decimals = 0i32;
    if at(i) == b'.' {
        i += 1;
        while digit(at(i)) {
            if decimals < 35 {
                acc = acc * 10.0 + f32::from(at(i) - b'0');
                decimals += 1;
            }
            i += 1;
        }
    }
    let mut exp = 0i32;
    if matches!(at(i), b'e' | b'E') {
        i += 1;
        let mut exp_sign = 1;
        if at(i) == b'-' {
            exp_sign = -1;
            i += 1;
        }
        while digit(at(i)) {
            exp = exp.wrapping_mul(10).wrapping_add(i32::from(at(i) - b'0'));
            i += 1;
        }
        exp *= exp_sign;
    }
    if i == s.len() || matches!(at(i), b' ' | b'\n' | b'\t') {
        acc *= fast_pow10(exp.wrapping_sub(decimals) as i8);
        return (sign * acc, i);
    }
    strtof(s)
}

/// C's `strtof` on `s`: leading white space, a sign, a decimal number
/// with an optional exponent, or `inf`/`infinity`/`nan`; the value and the
/// bytes taken (0: none).
fn strtof(s: &[u8]) -> (f32, usize) {
    let mut i = s.iter().take_while(|c| matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')).count();
    let start = i;
    if matches!(s.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let rest = &s[i..];
    let lower: Vec<u8> = rest.iter().take(8).map(u8::to_ascii_lowercase).collect();
    let word = if lower.starts_with(b"infinity") {
        Some(8)
    } else if lower.starts_with(b"inf") || lower.starts_with(b"nan") {
        Some(3)
    } else {
        None
    };
    if let Some(n) = word {
        let negative = s[start] == b'-';
        let v = if lower[0] == b'n' {
            f32::NAN
        } else if negative {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        };
        return (v, i + n);
    }
    let digits = |from: usize| s[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let whole = digits(i);
    i += whole;
    let mut fraction = 0;
    if s.get(i) == Some(&b'.') {
        fraction = digits(i + 1);
        if whole + fraction > 0 {
            i += 1 + fraction;
        }
    }
    if whole + fraction == 0 {
        return (0.0, 0);
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(s.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let e = digits(j);
        if e > 0 {
            i = j + e;
        }
    }
    let text = std::str::from_utf8(&s[start..i]).unwrap_or("0");
    (text.parse::<f32>().unwrap_or(0.0), i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_vw_does() {
        assert_eq!(parse_float(b"1"), (1.0, 1));
        assert_eq!(parse_float(b"0.5 x"), (0.5, 3));
        assert_eq!(parse_float(b"-2.25"), (-2.25, 5));
        assert_eq!(parse_float(b"  3"), (3.0, 3));
        assert_eq!(parse_float(b"1e3"), (1000.0, 3));
        assert_eq!(parse_float(b"1E-2"), (0.01, 4));
        // What the fast path does not end cleanly, strtof reads.
        assert_eq!(parse_float(b"1e+2"), (100.0, 4));
        assert_eq!(parse_float(b"+4|"), (4.0, 2));
        assert_eq!(parse_float(b"2|a"), (2.0, 1));
        assert_eq!(parse_float(b"1.5abc"), (1.5, 3));
        assert_eq!(parse_float(b"red"), (0.0, 0));
        assert_eq!(parse_float(b""), (0.0, 0));
        assert!(parse_float(b"nan").0.is_nan());
        assert_eq!(parse_float(b"-inf"), (f32::NEG_INFINITY, 4));
        // A lone sign or point is VW's zero, one byte long.
        assert_eq!(parse_float(b"-"), (-0.0, 1));
        // The tables: repeated products and quotients in f32.
        assert_eq!(fast_pow10(2), 100.0);
        assert_eq!(fast_pow10(-1), 0.1);
        assert_eq!(fast_pow10(39), f32::INFINITY);
        assert_eq!(fast_pow10(-38), 0.0);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]

        /// The integer gather gives VW's loop's bits, or leaves the
        /// number to it: over short and long digit runs, points, signs,
        /// exponents and what may follow a number.
        #[test]
        fn the_short_path_is_vw_loops(
            parts in proptest::collection::vec(
                proptest::sample::select(vec!["0", "1", "5", "9", "00", "123", "9999999", "16777215", ".", "-", "e", "e-2", " ", "x", "|", "\t"]),
                0..7,
            )
        ) {
            let s = parts.concat();
            let (w, m) = vw_loop(s.as_bytes());
            if let Some((v, n)) = short_decimal(s.as_bytes()) {
                proptest::prop_assert_eq!((v.to_bits(), n), (w.to_bits(), m), "{:?}", s);
            }
            let (v, n) = parse_float(s.as_bytes());
            proptest::prop_assert_eq!((v.to_bits(), n), (w.to_bits(), m), "{:?}", s);
        }
    }

    /// Values on grids of up to seven decimals, and their negatives, as
    /// generated sets write them: the short path takes every one of up to
    /// seven digits, with VW's loop's bits.
    #[test]
    fn the_short_path_is_vw_loops_on_every_grid_value() {
        for (k, d) in [(1u32, 0usize), (16, 4), (255, 3), (9_999_999, 7), (9_999_999, 1)] {
            let step = (k / 50_000).max(1);
            for n in (0..=k).step_by(step as usize) {
                let text = if d == 0 {
                    n.to_string()
                } else {
                    format!("{}.{:0d$}", n / 10u32.pow(d as u32), n % 10u32.pow(d as u32))
                };
                for t in [text.clone(), format!("-{text}")] {
                    let (v, m) = vw_loop(t.as_bytes());
                    let short = t.bytes().filter(u8::is_ascii_digit).count() <= 7;
                    let got = short_decimal(t.as_bytes()).map(|(x, n)| (x.to_bits(), n));
                    assert_eq!(got, short.then_some((v.to_bits(), m)), "{t}");
                }
            }
        }
    }
}
