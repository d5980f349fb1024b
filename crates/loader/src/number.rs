//! Strict decimal number scanning for the text formats.
//!
//! The accepted grammar is `[+-]? (digits ['.' digits?] | '.' digits)
//! ([eE] [+-]? digits)?`, ASCII only: no hex floats, no digit separators, no
//! `inf`/`nan`, nothing after the number. Conversion is correctly rounded to
//! f32; a result that is not finite as f32 is an error.

/// Why a token is not an acceptable number, and the byte offset in the token
/// where the problem starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NumberError {
    /// Nothing that could start a number.
    NotANumber,
    /// `0x…` hexadecimal notation.
    Hex,
    /// `1_000`-style digit separators.
    DigitSeparator,
    /// A number followed by other characters.
    Garbage(usize),
    /// A valid number that is infinite or NaN as f32.
    NonFinite,
    /// `1e` or `1e+` with no exponent digits.
    MissingExponent,
}

/// Scans `tok` (the whole token) as a decimal number and converts it to f32.
#[inline]
pub(crate) fn parse_f32(tok: &[u8]) -> Result<f32, NumberError> {
    let n = tok.len();
    let mut i = 0;
    if i < n && (tok[i] == b'+' || tok[i] == b'-') {
        i += 1;
    }
    if i + 1 < n && tok[i] == b'0' && (tok[i + 1] | 0x20) == b'x' {
        return Err(NumberError::Hex);
    }
    // Digits accumulate while the mantissa stays below 10^18 (exact in
    // u64); the rest only shift the exponent. Clinger's fast path below needs
    // a mantissa below 2^24, so truncation never reaches it.
    const CAP: u64 = 1_000_000_000_000_000_000;
    let mut mant: u64 = 0;
    let mut exp10: i32 = 0;
    let int_start = i;
    while i < n && tok[i].is_ascii_digit() {
        if mant < CAP {
            mant = mant * 10 + u64::from(tok[i] - b'0');
        } else {
            exp10 += 1;
        }
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if i < n && tok[i] == b'.' {
        i += 1;
        let s = i;
        while i < n && tok[i].is_ascii_digit() {
            if mant < CAP {
                mant = mant * 10 + u64::from(tok[i] - b'0');
                exp10 -= 1;
            }
            i += 1;
        }
        frac_digits = i - s;
    }
    if int_digits == 0 && frac_digits == 0 {
        return Err(if i < n && tok[i] == b'_' { NumberError::DigitSeparator } else { NumberError::NotANumber });
    }
    if i < n && (tok[i] | 0x20) == b'e' {
        i += 1;
        let mut neg = false;
        if i < n && (tok[i] == b'+' || tok[i] == b'-') {
            neg = tok[i] == b'-';
            i += 1;
        }
        let s = i;
        let mut e: i32 = 0;
        while i < n && tok[i].is_ascii_digit() {
            e = e.saturating_mul(10).saturating_add(i32::from(tok[i] - b'0'));
            i += 1;
        }
        if i == s {
            return Err(NumberError::MissingExponent);
        }
        exp10 = exp10.saturating_add(if neg { -e } else { e });
    }
    if i < n {
        return Err(if tok[i] == b'_' { NumberError::DigitSeparator } else { NumberError::Garbage(i) });
    }
    // Clinger's fast path: an exactly representable mantissa times an exactly
    // representable power of ten, one correctly rounded operation.
    const POW10: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
    let v = if mant < (1 << 24) && exp10.unsigned_abs() <= 10 {
        let m = mant as f32;
        if exp10 >= 0 { m * POW10[exp10 as usize] } else { m / POW10[(-exp10) as usize] }
    } else {
        // SAFETY-free: the scanner accepted only ASCII digits, signs, '.', 'e'.
        match std::str::from_utf8(tok).ok().and_then(|s| s.parse::<f32>().ok()) {
            Some(v) => v,
            None => return Err(NumberError::NotANumber),
        }
    };
    let v = if tok[0] == b'-' { -v.abs() } else { v };
    if v.is_finite() { Ok(v) } else { Err(NumberError::NonFinite) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_decimal_forms() {
        for (s, v) in [
            ("1", 1.0f32),
            ("+1", 1.0),
            ("-1", -1.0),
            ("0", 0.0),
            (".5", 0.5),
            ("5.", 5.0),
            ("1e-3", 1e-3),
            ("1E3", 1e3),
            ("-2.5e+2", -250.0),
            ("0.1", 0.1),
            ("123456789", 123456789.0),
            ("3.4028235e38", f32::MAX),
            ("1e-50", 0.0),
            ("0.000000000000000000000000000000000000000000001", 1e-45),
        ] {
            assert_eq!(parse_f32(s.as_bytes()), Ok(v), "{s}");
        }
        assert!(parse_f32(b"-0").unwrap().is_sign_negative());
    }

    #[test]
    fn rejects_the_rest() {
        use NumberError::*;
        for (s, e) in [
            ("", NotANumber),
            ("+", NotANumber),
            (".", NotANumber),
            ("abc", NotANumber),
            ("inf", NotANumber),
            ("nan", NotANumber),
            ("0x1p3", Hex),
            ("1_0", DigitSeparator),
            ("1e", MissingExponent),
            ("1e+", MissingExponent),
            ("1.5x", Garbage(3)),
            ("1..2", Garbage(2)),
            ("1e5e5", Garbage(3)),
            ("3.5e38", NonFinite),
            ("1e400", NonFinite),
            ("--1", NotANumber),
        ] {
            assert_eq!(parse_f32(s.as_bytes()), Err(e), "{s}");
        }
    }

    #[test]
    fn fast_path_agrees_with_std_parse() {
        // Every short decimal the fast path handles must round exactly as std does.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mant = x % 100_000_000;
            let e = (x >> 40) % 21;
            let s = format!("{mant}e{}", e as i64 - 10);
            assert_eq!(parse_f32(s.as_bytes()).unwrap().to_bits(), s.parse::<f32>().unwrap().to_bits(), "{s}");
            let s = format!("{}.{:04}", mant / 10_000, mant % 10_000);
            assert_eq!(parse_f32(s.as_bytes()).unwrap().to_bits(), s.parse::<f32>().unwrap().to_bits(), "{s}");
        }
    }
}
