//! The slow, obviously correct solver the tests compare with: plain
//! recursion over every subset of the hand that classifies as a play, no
//! table, no reductions, no ordering.

use super::rules::{beats, classify, Play, RuleSet};
use crate::cards::CardSet;

/// Every play of `hand` after `last`, found by trying every subset.
pub fn plays(rules: RuleSet, hand: CardSet, last: Option<&Play>) -> Vec<Play> {
    hand.subsets()
        .filter_map(|set| classify(rules, set))
        .filter(|p| beats(rules, p, last))
        .collect()
}

/// Whether the side to move wins (see [`super::Solver::wins`]).
pub fn wins(rules: RuleSet, me: CardSet, you: CardSet, last: Option<&Play>) -> bool {
    plays(rules, me, last).iter().any(|p| {
        let rest = me.difference(p.cards);
        rest.is_empty() || !wins(rules, you, rest, Some(p))
    }) || (last.is_some() && !wins(rules, you, me, None))
}
