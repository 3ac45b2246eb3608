//! Parameters of the built-in agents: `tag(open=8,cbet=0.6)`. Every
//! default is today's fixed behaviour, so an agent written without
//! parameters plays exactly as before; amounts that must compare exactly
//! with chips (bet sizes, the share of a stack a call may cost) are ratios
//! of integers, never rounded floats.

use std::fmt;
use std::sync::OnceLock;

use super::chen_score_x2;
use super::spec::SpecError;
use crate::cards::Card;

/// `a/b` or a decimal, kept exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub num: u64,
    pub den: u64,
}

impl Ratio {
    pub const fn new(num: u64, den: u64) -> Ratio {
        Ratio { num, den }
    }

    /// Reads `2/3`, `0.75` or `3` (at most 6 decimals, positive).
    pub(crate) fn parse(text: &str) -> Option<Ratio> {
        let t = text.trim();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let r = if let Some((a, b)) = t.split_once('/') {
            if !digits(a) || !digits(b) {
                return None;
            }
            Ratio::new(a.parse().ok()?, b.parse().ok()?)
        } else {
            let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
            if !digits(whole) || (!frac.is_empty() && !digits(frac)) || frac.len() > 6 {
                return None;
            }
            let den = 10u64.pow(frac.len() as u32);
            let num = whole.parse::<u64>().ok()?.checked_mul(den)? + frac.parse().unwrap_or(0);
            Ratio::new(num, den)
        };
        (r.num > 0 && r.den > 0 && r.num <= 1_000_000 && r.den <= 1_000_000).then_some(r)
    }

    /// `ceil(x * self)`.
    pub fn of_ceil(self, x: u64) -> u64 {
        (u128::from(x) * u128::from(self.num)).div_ceil(u128::from(self.den)) as u64
    }

    pub fn as_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// A preflop hand threshold: a Chen score (`9`, `8.5`: the hands scoring
/// at least that), or, below 1, a share of all hands (`0.18`: the best 18%
/// by Chen score, the threshold whose hands are at most that share).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threshold {
    /// The doubled Chen score to reach ([`chen_score_x2`]).
    pub x2: i32,
}

impl Threshold {
    const fn chen(points: i32) -> Threshold {
        Threshold { x2: 2 * points }
    }

    fn parse(text: &str) -> Option<Threshold> {
        let v: f64 = text.trim().parse().ok()?;
        if !v.is_finite() || v <= 0.0 || v > 20.0 {
            return None;
        }
        let x2 = if v < 1.0 {
            x2_for_share(v)
        } else {
            // Chen scores come in halves: 8.3 needs 8.5.
            (2.0 * v).ceil() as i32
        };
        Some(Threshold { x2 })
    }

    pub fn admits(self, hole: [Card; 2]) -> bool {
        chen_score_x2(hole) >= self.x2
    }
}

/// Per doubled Chen score from -3 to 40, how many of the 1,326 starting
/// hands score exactly that.
fn chen_counts() -> &'static [u32; 44] {
    static COUNTS: OnceLock<[u32; 44]> = OnceLock::new();
    COUNTS.get_or_init(|| {
        let mut counts = [0u32; 44];
        for a in 0..52u8 {
            for b in 0..a {
                let s = chen_score_x2([Card::from_index(a), Card::from_index(b)]);
                counts[(s + 3) as usize] += 1;
            }
        }
        counts
    })
}

/// The lowest doubled Chen score whose hands (scoring at least it) are at
/// most `share` of all hands; AA's score when even they are more.
fn x2_for_share(share: f64) -> i32 {
    let counts = chen_counts();
    let mut above = 0u32;
    let mut best = 40;
    for x2 in (-3..=40).rev() {
        above += counts[(x2 + 3) as usize];
        if f64::from(above) / 1326.0 > share {
            break;
        }
        best = x2;
    }
    best
}

/// The share of all starting hands a threshold admits.
pub fn share_of(threshold: Threshold) -> f64 {
    let counts = chen_counts();
    let n: u32 = (threshold.x2.max(-3)..=40)
        .map(|x2| counts[(x2 + 3) as usize])
        .sum();
    f64::from(n) / 1326.0
}

/// `tag`'s parameters (see docs/agents.md for each).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TagParams {
    pub open: Threshold,
    pub open_late: Threshold,
    pub threebet: Threshold,
    pub call: Threshold,
    /// The largest share of its chips a preflop call may cost.
    pub call_cost: Ratio,
    /// Open raise size in big blinds (plus one per limper).
    pub open_size: u64,
    /// Re-raise size: this many times the bet faced.
    pub threebet_size: u64,
    /// Postflop equity to bet or raise with.
    pub value: f64,
    /// Postflop: call when equity beats the pot odds by this much.
    pub margin: f64,
    /// Postflop bet size, a share of the pot (after the call).
    pub bet: Ratio,
    /// Chance to bet the flop as the preflop raiser when checked to.
    pub cbet: f64,
    /// Chance to bet when checked to without the equity to (any street).
    pub bluff: f64,
}

impl TagParams {
    pub const DEFAULT: TagParams = TagParams {
        open: Threshold::chen(9),
        open_late: Threshold::chen(8),
        threebet: Threshold::chen(12),
        call: Threshold::chen(10),
        call_cost: Ratio::new(1, 5),
        open_size: 3,
        threebet_size: 3,
        value: 0.7,
        margin: 0.05,
        bet: Ratio::new(2, 3),
        cbet: 0.0,
        bluff: 0.0,
    };
}

/// `pushfold`'s parameters: all-in when the Chen score reaches `push +
/// push_per_bb * E` (E the effective stack in big blinds), call an all-in
/// with `call + call_per_bb * E`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PushFoldParams {
    pub push: f64,
    pub push_per_bb: Ratio,
    pub call: f64,
    pub call_per_bb: Ratio,
}

impl PushFoldParams {
    pub const DEFAULT: PushFoldParams = PushFoldParams {
        push: 6.0,
        push_per_bb: Ratio::new(1, 3),
        call: 10.0,
        call_per_bb: Ratio::new(1, 5),
    };
}

/// `key=value` pairs as written.
pub type Pairs<'a> = Vec<(&'a str, &'a str)>;

/// `name(key=value,...)` split into the name and its pairs (`name` alone
/// has none).
pub fn split_call(text: &str) -> Result<(&str, Pairs<'_>), SpecError> {
    let text = text.trim();
    let Some(open) = text.find('(') else {
        return Ok((text, Vec::new()));
    };
    let name = text[..open].trim();
    let inner = text[open + 1..].strip_suffix(')').ok_or_else(|| {
        SpecError(format!(
            "'{}': parameters end with ')'",
            crate::text::quote(text)
        ))
    })?;
    let mut pairs = Vec::new();
    for part in super::spec::split_list(inner)? {
        if part.trim().is_empty() {
            continue;
        }
        let (k, v) = part.split_once('=').ok_or_else(|| {
            SpecError(format!(
                "'{}' in {name}(...): expected KEY=VALUE",
                crate::text::quote(part.trim())
            ))
        })?;
        pairs.push((k.trim(), v.trim()));
    }
    Ok((name, pairs))
}

fn bad_value(agent: &str, key: &str, value: &str, expected: &str) -> SpecError {
    SpecError(format!(
        "{agent}: {key}={} is not {expected}",
        crate::text::quote(value)
    ))
}

fn unknown_key(agent: &str, key: &str, keys: &[&str]) -> SpecError {
    SpecError(format!(
        "{agent} has no parameter '{}' (it has {})",
        crate::text::quote(key),
        keys.join(", ")
    ))
}

fn chance(agent: &str, key: &str, v: &str) -> Result<f64, SpecError> {
    match v.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(bad_value(agent, key, v, "a probability from 0 to 1")),
    }
}

fn positive_int(agent: &str, key: &str, v: &str) -> Result<u64, SpecError> {
    match v.parse::<u64>() {
        Ok(x) if (1..=1000).contains(&x) => Ok(x),
        _ => Err(bad_value(agent, key, v, "a whole number from 1 to 1000")),
    }
}

fn ratio(agent: &str, key: &str, v: &str) -> Result<Ratio, SpecError> {
    Ratio::parse(v)
        .ok_or_else(|| bad_value(agent, key, v, "a positive number or fraction (0.75, 2/3)"))
}

fn threshold(agent: &str, key: &str, v: &str) -> Result<Threshold, SpecError> {
    Threshold::parse(v).ok_or_else(|| {
        bad_value(
            agent,
            key,
            v,
            "a Chen score from 1 to 20, or a share of hands below 1 (0.18)",
        )
    })
}

fn number(agent: &str, key: &str, v: &str, lo: f64, hi: f64) -> Result<f64, SpecError> {
    match v.parse::<f64>() {
        Ok(x) if (lo..=hi).contains(&x) => Ok(x),
        _ => Err(bad_value(
            agent,
            key,
            v,
            &format!("a number from {lo} to {hi}"),
        )),
    }
}

pub const TAG_KEYS: [&str; 12] = [
    "open",
    "open_late",
    "threebet",
    "call",
    "call_cost",
    "open_size",
    "threebet_size",
    "value",
    "margin",
    "bet",
    "cbet",
    "bluff",
];

/// `tag`'s parameters from `key=value` pairs over the defaults.
pub fn tag_params(pairs: &[(&str, &str)]) -> Result<TagParams, SpecError> {
    let mut p = TagParams::DEFAULT;
    for &(k, v) in pairs {
        match k {
            "open" => p.open = threshold("tag", k, v)?,
            "open_late" => p.open_late = threshold("tag", k, v)?,
            "threebet" => p.threebet = threshold("tag", k, v)?,
            "call" => p.call = threshold("tag", k, v)?,
            "call_cost" => p.call_cost = ratio("tag", k, v)?,
            "open_size" => p.open_size = positive_int("tag", k, v)?,
            "threebet_size" => p.threebet_size = positive_int("tag", k, v)?,
            "value" => p.value = chance("tag", k, v)?,
            "margin" => p.margin = number("tag", k, v, -1.0, 1.0)?,
            "bet" => p.bet = ratio("tag", k, v)?,
            "cbet" => p.cbet = chance("tag", k, v)?,
            "bluff" => p.bluff = chance("tag", k, v)?,
            _ => return Err(unknown_key("tag", k, &TAG_KEYS)),
        }
    }
    Ok(p)
}

pub const PUSHFOLD_KEYS: [&str; 4] = ["push", "push_per_bb", "call", "call_per_bb"];

/// `pushfold`'s parameters from `key=value` pairs over the defaults.
pub fn pushfold_params(pairs: &[(&str, &str)]) -> Result<PushFoldParams, SpecError> {
    let mut p = PushFoldParams::DEFAULT;
    for &(k, v) in pairs {
        match k {
            "push" => p.push = number("pushfold", k, v, -2.0, 20.0)?,
            "call" => p.call = number("pushfold", k, v, -2.0, 20.0)?,
            "push_per_bb" => p.push_per_bb = ratio("pushfold", k, v)?,
            "call_per_bb" => p.call_per_bb = ratio("pushfold", k, v)?,
            _ => return Err(unknown_key("pushfold", k, &PUSHFOLD_KEYS)),
        }
    }
    Ok(p)
}

/// `name(k=v,...)` with the pairs as given (the spec recorded in a
/// summary); `name` alone without pairs.
pub fn canonical(name: &str, pairs: &[(&str, &str)]) -> String {
    if pairs.is_empty() {
        return name.to_string();
    }
    let inner: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{name}({})", inner.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_exact() {
        assert_eq!(Ratio::parse("2/3"), Some(Ratio::new(2, 3)));
        assert_eq!(Ratio::parse("0.75"), Some(Ratio::new(75, 100)));
        assert_eq!(Ratio::parse("1"), Some(Ratio::new(1, 1)));
        for bad in ["", "0", "-1", "1/0", "a", "0.1234567", "1e3"] {
            assert_eq!(Ratio::parse(bad), None, "{bad}");
        }
        assert_eq!(Ratio::new(2, 3).of_ceil(10), 7);
    }

    #[test]
    fn thresholds_take_chen_scores_or_shares() {
        assert_eq!(Threshold::parse("9").unwrap().x2, 18);
        assert_eq!(Threshold::parse("8.5").unwrap().x2, 17);
        assert_eq!(Threshold::parse("8.3").unwrap().x2, 17);
        let t = Threshold::parse("0.18").unwrap();
        assert!(share_of(t) <= 0.18);
        assert!(share_of(Threshold { x2: t.x2 - 1 }) > 0.18);
        assert!(Threshold::parse("0").is_none());
        assert!(Threshold::parse("21").is_none());
        assert!(Threshold::parse("nan").is_none());
    }

    #[test]
    fn parameters_parse_with_clear_errors() {
        let (name, pairs) = split_call("tag(open=8, cbet=0.6)").unwrap();
        assert_eq!(name, "tag");
        let p = tag_params(&pairs).unwrap();
        assert_eq!(p.open.x2, 16);
        assert_eq!(p.cbet, 0.6);
        assert_eq!(p.call, TagParams::DEFAULT.call);
        let e = tag_params(&[("opne", "8")]).unwrap_err().to_string();
        assert!(
            e.contains("tag has no parameter 'opne' (it has open, "),
            "{e}"
        );
        let e = tag_params(&[("cbet", "2")]).unwrap_err().to_string();
        assert!(e.contains("cbet=2 is not a probability from 0 to 1"), "{e}");
        assert!(split_call("tag(open)").is_err());
        assert!(split_call("tag(open=8").is_err());
        assert_eq!(tag_params(&[]).unwrap(), TagParams::DEFAULT);
        assert_eq!(canonical("tag", &pairs), "tag(open=8,cbet=0.6)");
    }
}
