//! Mixed answers: an agent the user brings may answer with the probability
//! of each action instead of one action, and cardsim draws the action from
//! the seat's own random stream.
//!
//! Why cardsim draws rather than the agent: the action correction
//! ([`crate::holdem::correction::action`]) takes the luck of a draw out of
//! a result without bias only if the action really was drawn from the
//! probabilities it is told. An agent that drew by itself and reported its
//! probabilities could not be checked; a draw made here is exact by
//! construction, and replays with the seed.
//!
//! The text form is one JSON object, actions to probabilities:
//! `{"f": 0.25, "cc": 0.5, "cbr 300": 0.25}` (an `exec:` program writes it
//! as its answer line; a Python agent returns the same as a `dict`).

use std::fmt;

use rand::RngExt;
use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, Visitor};

use super::view::{Answer, NotAnAction};
use crate::holdem::table::{Action, Legal};
use crate::rng::GameRng;

/// The most actions one mixed answer may name: enough for every kind of
/// action and dozens of raise sizes, and a bound on what one decision
/// costs the action correction (one valuation per action).
pub const MOST_CHOICES: usize = 64;

/// How far from 1 the probabilities may add up (rounding in the agent's
/// arithmetic); they are then divided by their sum.
pub const SUM_TOLERANCE: f64 = 1e-6;

/// An agent's answer as read: one action, or actions with probabilities
/// (in the order written).
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Pure(Answer),
    Mixed(Vec<(Answer, f64)>),
}

/// Why an answer was refused, in one line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BadReply {
    #[error(transparent)]
    NotAnAction(#[from] NotAnAction),
    #[error("mixed answer {0} is not a JSON object of actions and probabilities (e.g. {{\"cc\": 0.7, \"cbr 300\": 0.3}}): {1}")]
    NotAMix(String, String),
    #[error("mixed answer: {0}")]
    Mix(String),
}

impl Reply {
    /// Reads an answer: `f`, `cc`, `cbr AMOUNT`, or a mixed answer, a JSON
    /// object whose keys are such actions and whose values are their
    /// probabilities. Each probability must be between 0 and 1 and they
    /// must add up to 1 (within [`SUM_TOLERANCE`]).
    pub fn parse(text: &str) -> Result<Reply, BadReply> {
        let trimmed = text.trim();
        if !trimmed.starts_with('{') {
            return Ok(Reply::Pure(Answer::parse(text)?));
        }
        let shown = || crate::text::quote(&trimmed.chars().take(60).collect::<String>());
        let Pairs(pairs) = serde_json::from_str(trimmed)
            .map_err(|e| BadReply::NotAMix(shown(), first_line(&e.to_string())))?;
        let mut mixed = Vec::with_capacity(pairs.len());
        for (action, p) in pairs {
            let answer = Answer::parse(&action).map_err(|e| BadReply::Mix(e.to_string()))?;
            if !(0.0..=1.0).contains(&p) {
                return Err(BadReply::Mix(format!(
                    "the probability of '{answer}' is {p}, not between 0 and 1"
                )));
            }
            mixed.push((answer, p));
        }
        let sum = mixed.iter().fold(0.0, |sum, &(_, p)| sum + p);
        if (sum - 1.0).abs() > SUM_TOLERANCE {
            return Err(BadReply::Mix(format!(
                "the probabilities add up to {sum}, not 1"
            )));
        }
        Ok(Reply::Mixed(mixed))
    }
}

/// The first line of a message (serde's errors are one line already; this
/// keeps the error contract if one is not).
fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().to_string()
}

/// Writes pairs of actions and probabilities as the JSON object a mixed
/// answer is, in their order (for agents that build one as data, such as a
/// Python `dict`). A probability JSON cannot hold (NaN, infinite) is
/// written as `null`, which reading refuses.
pub fn mix_json<'a>(pairs: impl IntoIterator<Item = (&'a str, f64)>) -> String {
    let mut out = String::from("{");
    for (k, (action, p)) in pairs.into_iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::Value::from(action).to_string());
        out.push(':');
        let value = serde_json::Number::from_f64(p).map_or(serde_json::Value::Null, Into::into);
        out.push_str(&value.to_string());
    }
    out.push('}');
    out
}

/// A mixed answer checked against the table: legal, distinct actions with
/// positive probabilities adding up to exactly 1, in a canonical order
/// (fold, check, call, raises by size), so the same probabilities draw the
/// same action whatever order they were written in.
#[derive(Clone, Debug, PartialEq)]
pub struct Mix {
    choices: Vec<(Action, f64)>,
}

impl Mix {
    /// Checks `mixed` against `legal`. Actions of probability 0 are left
    /// out, legal or not (an agent may list every action it knows); every
    /// other must be legal and name a different table action (`cc` and a
    /// `cbr` can never coincide, but two raises to one size would).
    pub fn new(mixed: &[(Answer, f64)], legal: &Legal) -> Result<Mix, String> {
        let mut choices: Vec<(Action, f64)> = Vec::with_capacity(mixed.len());
        for &(answer, p) in mixed.iter().filter(|&&(_, p)| p > 0.0) {
            let action = answer
                .resolve(legal)
                .ok_or_else(|| format!("mixed answer: '{answer}' is not legal"))?;
            if choices.iter().any(|&(a, _)| a == action) {
                return Err(format!("mixed answer: '{answer}' is named twice"));
            }
            choices.push((action, p));
        }
        let sum = choices.iter().fold(0.0, |sum, &(_, p)| sum + p);
        if choices.is_empty() || sum <= 0.0 {
            return Err("mixed answer: no action has a positive probability".into());
        }
        for (_, p) in &mut choices {
            *p /= sum;
        }
        choices.sort_by_key(|&(a, _)| order(a));
        Ok(Mix { choices })
    }

    /// A built-in agent's draw (`tag`'s c-bets and bluffs, a chart's
    /// weighted ranges): its actions with their probabilities, which add up
    /// to one. Equal actions are merged (a raise clamped to the stack may be
    /// the all-in another branch chose) and actions of probability 0 left
    /// out; `None` when one action is left, so nothing was drawn.
    pub fn of_actions(pairs: &[(Action, f64)]) -> Option<Mix> {
        let mut choices: Vec<(Action, f64)> = Vec::with_capacity(pairs.len());
        for &(action, p) in pairs.iter().filter(|&&(_, p)| p > 0.0) {
            match choices.iter_mut().find(|(a, _)| *a == action) {
                Some((_, q)) => *q += p,
                None => choices.push((action, p)),
            }
        }
        if choices.len() < 2 {
            return None;
        }
        choices.sort_by_key(|&(a, _)| order(a));
        Some(Mix { choices })
    }

    /// The actions and their probabilities (adding up to 1).
    pub fn choices(&self) -> &[(Action, f64)] {
        &self.choices
    }

    /// Draws an action: one uniform number from `rng`, against the
    /// cumulative probabilities. (A single choice draws nothing, so an
    /// answer of `{"cc": 1}` plays exactly as `cc`.)
    pub fn draw(&self, rng: &mut GameRng) -> Action {
        if let [(only, _)] = self.choices[..] {
            return only;
        }
        let u: f64 = rng.random();
        pick(&self.choices, u)
    }
}

/// The action whose stretch of the cumulative probabilities holds `u` (in
/// [0, 1)); the last one if rounding leaves `u` past the end.
fn pick(choices: &[(Action, f64)], u: f64) -> Action {
    let mut below = 0.0;
    for &(action, p) in choices {
        below += p;
        if u < below {
            return action;
        }
    }
    choices.last().map_or(Action::Check, |&(a, _)| a)
}

/// The exact chance that `rng.random::<f32>() < w`: rand's uniform `f32`
/// is `k / 2^24` for a uniform integer `k` below `2^24`, so the chance is
/// `ceil(w × 2^24) / 2^24` (within 6 × 10⁻⁸ of `w`; exact, so a draw's
/// correction has mean exactly zero).
pub fn chance_below_f32(w: f32) -> f64 {
    const STEPS: f64 = (1u32 << 24) as f64;
    (f64::from(w) * STEPS).ceil().clamp(0.0, STEPS) / STEPS
}

/// The exact chance that `rng.random::<f64>() < p`: rand's uniform `f64`
/// is `k / 2^53`, so `ceil(p × 2^53) / 2^53`.
pub fn chance_below_f64(p: f64) -> f64 {
    const STEPS: f64 = (1u64 << 53) as f64;
    (p * STEPS).ceil().clamp(0.0, STEPS) / STEPS
}

/// The canonical order of actions: fold, check, call, raises by size.
fn order(action: Action) -> (u8, u64) {
    match action {
        Action::Fold => (0, 0),
        Action::Check => (1, 0),
        Action::Call => (2, 0),
        Action::RaiseTo(to) => (3, to),
    }
}

/// A JSON object read as its pairs, in order, duplicates kept (a map would
/// keep only the last of two equal keys, hiding the agent's mistake), at
/// most [`MOST_CHOICES`].
struct Pairs(Vec<(String, f64)>);

impl<'de> Deserialize<'de> for Pairs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Pairs, D::Error> {
        d.deserialize_map(PairsVisitor)
    }
}

struct PairsVisitor;

impl<'de> Visitor<'de> for PairsVisitor {
    type Value = Pairs;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of actions and probabilities")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pairs, A::Error> {
        let mut pairs = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if pairs.len() == MOST_CHOICES {
                return Err(A::Error::custom(format!(
                    "more than {MOST_CHOICES} actions"
                )));
            }
            if pairs.iter().any(|(k, _)| *k == key) {
                return Err(A::Error::custom(format!(
                    "'{}' is named twice",
                    crate::text::quote(&key)
                )));
            }
            let p: f64 = map.next_value()?;
            pairs.push((key, p));
        }
        Ok(Pairs(pairs))
    }
}

#[cfg(test)]
#[path = "mixed_tests.rs"]
mod tests;
