//! The slow, obviously correct solver the tests compare with: plain
//! recursion over every subset of the hand that classifies as a play, no
//! table, no reductions, no ordering.

use super::rules::{beats, classify, Play, RuleSet};
use crate::cards::CardSet;

/// Every play of `hand` after `last`, found by trying every subset.
pub fn plays(rules: RuleSet, hand: CardSet, last: Option<&Play>) -> Vec<Play> {
    let cards = hand.to_vec();
    let mut out = Vec::new();
    for mask in 1u32..(1 << cards.len()) {
        let set: CardSet = (0..cards.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| cards[i])
            .collect();
        if let Some(p) = classify(rules, set) {
            if beats(rules, &p, last) {
                out.push(p);
            }
        }
    }
    out
}

/// Whether the side to move wins (see [`super::Solver::wins`]).
pub fn wins(rules: RuleSet, me: CardSet, you: CardSet, last: Option<&Play>) -> bool {
    plays(rules, me, last).iter().any(|p| {
        let rest = me.difference(p.cards);
        rest.is_empty() || !wins(rules, you, rest, Some(p))
    }) || (last.is_some() && !wins(rules, you, me, None))
}
