//! Exact amounts. Real hand histories write money as decimals (`0.50`,
//! `200.30`) and iPoker writes unknown stacks as `inf`. A hand is played in
//! integer minor units (10^-d of the file's unit, d the most decimal places
//! any amount of the hand uses) and printed back in the file's unit, with
//! no floating point anywhere: the TOML text of each number is kept as
//! written ([`read_document`]) and read digit by digit.

use toml::de::{DeTable, DeValue};

/// The key of the one-entry table that stands for a number kept as its
/// TOML text (a decimal, `inf`) in the tables [`read_document`] returns.
pub const EXACT_KEY: &str = "$exact";

/// Most decimal places an amount may have (10^9 minor units a unit).
pub const MAX_DECIMALS: u32 = 9;

/// An amount as written: a whole number of 10^-`scale` units, or `inf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    Finite {
        negative: bool,
        /// The digits without the point: `200.30` is 20030 at scale 2.
        digits: u128,
        scale: u32,
    },
    Inf,
}

impl Amount {
    /// Reads `12`, `-0.50`, `1_000.25`, `inf`, `+inf`. Exponents are
    /// refused (no real history uses them).
    pub fn parse(text: &str) -> Result<Amount, String> {
        let t = text.trim();
        let (negative, body) = match t.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        if body == "inf" && !negative {
            return Ok(Amount::Inf);
        }
        let bad = || format!("'{}' is not an amount", crate::text::quote(text));
        // Digits (TOML's `_` separators skipped), at most one point with
        // digits on both sides; read without allocating, checked for
        // overflow.
        let (mut digits, mut scale, mut point, mut int_digits) = (0u128, 0u32, false, 0u32);
        let mut last_digit = false;
        for b in body.bytes() {
            match b {
                b'0'..=b'9' => {
                    digits = digits
                        .checked_mul(10)
                        .and_then(|d| d.checked_add(u128::from(b - b'0')))
                        .ok_or_else(bad)?;
                    if point {
                        scale += 1;
                    } else {
                        int_digits += 1;
                    }
                    last_digit = true;
                }
                b'_' => {}
                b'.' if !point && int_digits > 0 => {
                    point = true;
                    last_digit = false;
                }
                _ => return Err(bad()),
            }
        }
        if int_digits == 0 || (point && !last_digit) {
            return Err(bad());
        }
        if scale > MAX_DECIMALS {
            return Err(format!(
                "'{}' has more than {MAX_DECIMALS} decimal places",
                crate::text::quote(text)
            ));
        }
        Ok(Amount::Finite {
            negative: negative && digits != 0,
            digits,
            scale,
        })
    }

    /// Decimal places used (0 for `inf`).
    pub fn scale(&self) -> u32 {
        match *self {
            Amount::Finite { scale, .. } => scale,
            Amount::Inf => 0,
        }
    }

    pub fn is_negative(&self) -> bool {
        matches!(self, Amount::Finite { negative: true, .. })
    }

    /// The magnitude in minor units of 10^-`decimals` (`decimals` at least
    /// the amount's own scale); `None` for `inf` or past `limit`.
    pub fn units(&self, decimals: u32, limit: u64) -> Option<u64> {
        match *self {
            Amount::Finite { digits, scale, .. } => {
                let v = digits.checked_mul(10u128.checked_pow(decimals.checked_sub(scale)?)?)?;
                u64::try_from(v).ok().filter(|&u| u <= limit)
            }
            Amount::Inf => None,
        }
    }
}

/// `units` minor units of 10^-`decimals` written as a decimal with exactly
/// `decimals` places (`20030`, 2 -> `200.30`).
pub fn format_units(units: u64, decimals: u32) -> String {
    if decimals == 0 {
        return units.to_string();
    }
    let p = 10u64.pow(decimals);
    format!(
        "{}.{:0width$}",
        units / p,
        units % p,
        width = decimals as usize
    )
}

/// An amount field's value: an integer, a kept number text, or (from a
/// table built elsewhere) a float read back through its shortest exact
/// decimal form.
pub fn amount_of(v: &toml::Value) -> Option<Result<Amount, String>> {
    match v {
        toml::Value::Integer(i) => Some(Ok(Amount::Finite {
            negative: *i < 0,
            digits: u128::from(i.unsigned_abs()),
            scale: 0,
        })),
        toml::Value::Table(t) if t.len() == 1 => match t.get(EXACT_KEY) {
            Some(toml::Value::String(s)) => Some(Amount::parse(s)),
            _ => None,
        },
        toml::Value::Float(f) if f.is_infinite() && *f > 0.0 => Some(Ok(Amount::Inf)),
        toml::Value::Float(f) if f.is_finite() => Some(Amount::parse(&format!("{f}"))),
        _ => None,
    }
}

/// Parses a TOML document keeping every float (and any integer beyond
/// i64) as its text, in a one-entry table `{ "$exact" = "200.30" }`, so
/// that amounts are read exactly.
pub fn read_document(text: &str) -> Result<toml::Table, String> {
    let doc = DeTable::parse(text).map_err(|e| e.message().to_string())?;
    Ok(table_of(doc.get_ref()))
}

fn table_of(t: &DeTable<'_>) -> toml::Table {
    t.iter()
        .map(|(k, v)| (k.get_ref().to_string(), value_of(v.get_ref())))
        .collect()
}

fn exact(text: &str) -> toml::Value {
    let mut t = toml::Table::new();
    t.insert(EXACT_KEY.into(), toml::Value::String(text.to_string()));
    toml::Value::Table(t)
}

fn value_of(v: &DeValue<'_>) -> toml::Value {
    match v {
        DeValue::String(s) => toml::Value::String(s.to_string()),
        DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix())
            .map(toml::Value::Integer)
            .unwrap_or_else(|_| exact(i.as_str())),
        DeValue::Float(f) => exact(f.as_str()),
        DeValue::Boolean(b) => toml::Value::Boolean(*b),
        DeValue::Datetime(d) => toml::Value::Datetime(*d),
        DeValue::Array(a) => toml::Value::Array(a.iter().map(|x| value_of(x.get_ref())).collect()),
        DeValue::Table(t) => toml::Value::Table(table_of(t)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_are_read_digit_by_digit() {
        let a = Amount::parse("200.30").unwrap();
        assert_eq!(a.units(2, u64::MAX), Some(20030));
        assert_eq!(a.units(3, u64::MAX), Some(200300));
        assert_eq!(a.units(1, u64::MAX), None);
        assert_eq!(Amount::parse("inf"), Ok(Amount::Inf));
        assert!(Amount::parse("-0.50").unwrap().is_negative());
        assert!(Amount::parse("1e3").is_err());
        assert!(Amount::parse("1.").is_err());
        assert!(Amount::parse("0.1234567891").is_err());
        // TOML's separators; no digits before the point, two points, a
        // separator alone, a sign in the middle, an overflow: refused.
        assert_eq!(
            Amount::parse("1_000.25").unwrap().units(2, u64::MAX),
            Some(100025)
        );
        for bad in [".5", "1.2.3", "_", "1-2", "", "-", "9".repeat(40).as_str()] {
            assert!(Amount::parse(bad).is_err(), "{bad}");
        }
        assert!(!Amount::parse("-0").unwrap().is_negative());
        assert_eq!(format_units(20030, 2), "200.30");
        assert_eq!(format_units(5, 2), "0.05");
        assert_eq!(format_units(7, 0), "7");
    }

    #[test]
    fn documents_keep_the_text_of_their_numbers() {
        let t = read_document("a = [0.1, 3, inf]\n[s]\nb = 0.30000000000000004\n").unwrap();
        let a = t["a"].as_array().unwrap();
        assert_eq!(amount_of(&a[0]), Some(Amount::parse("0.1")));
        assert_eq!(amount_of(&a[1]), Some(Ok(Amount::parse("3").unwrap())));
        assert_eq!(amount_of(&a[2]), Some(Ok(Amount::Inf)));
        // Read as written (17 places, refused), never rounded to 0.3.
        assert!(amount_of(&t["s"]["b"]).unwrap().is_err());
    }
}
