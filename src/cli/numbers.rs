//! Whole numbers as users type them on the command line: `1000000`,
//! `1_000_000`, `1,000,000` or `1e6`, with one error that says which forms
//! are accepted, and apart from it the two mistakes worth naming on their
//! own: a negative number and one too large.
//!
//! Every count, seed and chip amount of the command line goes through
//! [`parse_whole`]; the clap value parsers below only add the allowed range.

/// The forms [`parse_whole`] accepts, for error messages.
pub const FORMS: &str = "a whole number such as 1000000, 1_000_000, 1,000,000 or 1e6";

/// Parses a whole number of at least `min` and at most `max`.
///
/// Accepted: digits, optionally grouped by `_` anywhere between digits or
/// by `,` in groups of three (`1,000,000`); or a decimal in scientific
/// notation whose value is whole (`1e6`, `2.5E3`). Leading `+` is allowed,
/// surrounding spaces are ignored. Nothing is rounded: `1.5` and `1e-3` are
/// not whole and are refused.
pub fn parse_whole(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let s = text.trim();
    // clap quotes the value before this message; callers outside clap
    // quote it themselves.
    let refuse = |why: String| Err(why);
    let digits = s.strip_prefix('+').unwrap_or(s);
    if let Some(rest) = digits.strip_prefix('-') {
        if parse_unsigned(rest).is_some() {
            return refuse(format!(
                "must not be negative (expected {})",
                range_words(min, max)
            ));
        }
        return refuse(format!("expected {FORMS}"));
    }
    match parse_unsigned(digits) {
        Some(Value::Whole(n)) if n < u128::from(min) => {
            refuse(format!("is too small (expected {})", range_words(min, max)))
        }
        Some(Value::Whole(n)) if n > u128::from(max) => {
            refuse(format!("is too large (expected {})", range_words(min, max)))
        }
        Some(Value::Whole(n)) => Ok(n as u64),
        Some(Value::Huge) => refuse(format!("is too large (expected {})", range_words(min, max))),
        Some(Value::Fraction) => refuse(format!("is not a whole number (expected {FORMS})")),
        None => refuse(format!("expected {FORMS}")),
    }
}

/// `from 1 to 1,024`, `at least 1`, or `any whole number from 0`.
fn range_words(min: u64, max: u64) -> String {
    let g = crate::sim::report::grouped;
    if max == u64::MAX && min == 0 {
        "a whole number, 0 or more".to_string()
    } else if max == u64::MAX {
        format!("a whole number of at least {}", g(min))
    } else {
        format!("a whole number from {} to {}", g(min), g(max))
    }
}

/// What a well-formed unsigned number is worth.
#[derive(Debug, PartialEq, Eq)]
enum Value {
    /// Its exact value (up to 2^128; more is [`Value::Huge`]).
    Whole(u128),
    /// Larger than any count or seed could be.
    Huge,
    /// Well formed but not whole (`1.5`, `1e-3`).
    Fraction,
}

/// Parses the unsigned forms; `None` when the text is not one of them.
fn parse_unsigned(s: &str) -> Option<Value> {
    if let Some((mantissa, exponent)) = s.split_once(['e', 'E']) {
        return scientific(mantissa, exponent);
    }
    if let Some((int, frac)) = s.split_once('.') {
        // A plain decimal: whole only when its fraction is zeros (`2.0`).
        return scientific(&format!("{int}.{frac}"), "0").filter(|_| !int.contains(['_', ',']));
    }
    let plain = grouped_digits(s)?;
    Some(exact(&plain, 0))
}

/// `1_000_000`, `1,000,000` or plain digits, as plain digits. Underscores
/// may sit between any two digits; commas must group by three from the
/// right, and the two are not mixed.
fn grouped_digits(s: &str) -> Option<String> {
    if s.is_empty() || !s.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if s.contains(',') {
        let mut groups = s.split(',');
        let first = groups.next()?;
        let ok_first = (1..=3).contains(&first.len()) && first.bytes().all(|b| b.is_ascii_digit());
        let rest: Vec<&str> = groups.collect();
        let ok_rest = rest
            .iter()
            .all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()));
        return (ok_first && ok_rest).then(|| s.replace(',', ""));
    }
    let bytes = s.as_bytes();
    let ok = bytes.iter().enumerate().all(|(i, &b)| {
        b.is_ascii_digit()
            || (b == b'_'
                && i + 1 < bytes.len()
                && bytes[i - 1].is_ascii_digit()
                && bytes[i + 1].is_ascii_digit())
    });
    ok.then(|| s.replace('_', ""))
}

/// `M e E` with M a decimal (`2.5`) and E a signed integer, evaluated
/// exactly.
fn scientific(mantissa: &str, exponent: &str) -> Option<Value> {
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !all_digits(int) || !all_digits(frac) {
        return None;
    }
    let exp_digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    if exp_digits.is_empty() || exp_digits.len() > 6 || !all_digits(exp_digits) {
        return None;
    }
    let exp: i64 = exponent.parse().ok()?;
    let digits = format!("{int}{frac}");
    Some(exact(&digits, exp - frac.len() as i64))
}

/// The value of `digits × 10^exp`, exactly.
fn exact(digits: &str, exp: i64) -> Value {
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Value::Whole(0);
    }
    // Trailing zeros may pay for a negative exponent.
    let zeros = digits.len() - digits.trim_end_matches('0').len();
    let (digits, exp) = if exp < 0 {
        let used = zeros.min(exp.unsigned_abs() as usize);
        (&digits[..digits.len() - used], exp + used as i64)
    } else {
        (digits, exp)
    };
    if exp < 0 {
        return Value::Fraction;
    }
    if digits.len() as i64 + exp > 39 {
        return Value::Huge;
    }
    let mut value: u128 = 0;
    for b in digits.bytes() {
        value = match value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u128::from(b - b'0')))
        {
            Some(v) => v,
            None => return Value::Huge,
        };
    }
    for _ in 0..exp {
        value = match value.checked_mul(10) {
            Some(v) => v,
            None => return Value::Huge,
        };
    }
    Value::Whole(value)
}

/// Any u64 (`--seed`).
pub fn any_u64(s: &str) -> Result<u64, String> {
    parse_whole(s, 0, u64::MAX)
}

/// A whole number of at least 1 (`--trials`, `--phh-every`, ...).
pub fn positive(s: &str) -> Result<u64, String> {
    parse_whole(s, 1, u64::MAX)
}

/// Chips or another amount that may be 0 (`--ante`).
pub fn non_negative(s: &str) -> Result<u64, String> {
    parse_whole(s, 0, u64::MAX)
}

/// The most worker threads a command starts: more cannot run at once on
/// any machine this is built for, and each costs a stack.
pub const MAX_THREADS: u64 = 1024;

/// `-j/--threads`: 1 to [`MAX_THREADS`].
pub fn threads(s: &str) -> Result<u64, String> {
    parse_whole(s, 1, MAX_THREADS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_form_is_read() {
        for s in [
            "1000000",
            "1_000_000",
            "1,000,000",
            "1e6",
            "1E6",
            "1e+6",
            "10e5",
            "0.001e9",
            "+1000000",
            " 1000000 ",
            "1000000e0",
            "100000000e-2",
        ] {
            assert_eq!(parse_whole(s, 0, u64::MAX), Ok(1_000_000), "{s}");
        }
        assert_eq!(parse_whole("2.5e3", 0, u64::MAX), Ok(2500));
        assert_eq!(parse_whole("2.0", 0, u64::MAX), Ok(2));
        assert_eq!(parse_whole("0", 0, u64::MAX), Ok(0));
        assert_eq!(any_u64("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(any_u64("18,446,744,073,709,551,615"), Ok(u64::MAX));
    }

    #[test]
    fn mistakes_are_named() {
        let e = any_u64("-1").unwrap_err();
        assert!(e.starts_with("must not be negative"), "{e}");
        let e = any_u64("99999999999999999999").unwrap_err();
        assert!(e.starts_with("is too large"), "{e}");
        let e = any_u64(&"9".repeat(300)).unwrap_err();
        assert!(e.starts_with("is too large"), "{e}");
        assert!(e.len() < 200, "{e}");
        let e = any_u64("1e400").unwrap_err();
        assert!(e.starts_with("is too large"), "{e}");
        let e = positive("0").unwrap_err();
        assert!(e.starts_with("is too small"), "{e}");
        let e = threads("1025").unwrap_err();
        assert!(e.contains("from 1 to 1,024"), "{e}");
        for bad in ["1.5", "1e-3", "2.5e0"] {
            let e = any_u64(bad).unwrap_err();
            assert!(e.starts_with("is not a whole number"), "{bad}: {e}");
        }
        for bad in [
            "",
            "abc",
            "1,00",
            "1,0000",
            "1__0",
            "_1",
            "1_",
            "1,000_000",
            "0x10",
            "nan",
            "inf",
            "1e",
            "e6",
            "1e6.5",
            "٣",
            "1/2",
            "--5",
            "1 000",
        ] {
            let e = any_u64(bad).unwrap_err();
            assert!(
                e.starts_with("expected a whole number such as"),
                "{bad:?}: {e}"
            );
        }
    }
}
