//! The two rule sets of the endgame (RULES.md §4): what a play is, which
//! plays beat which, and every play a hand can make.
//!
//! Hands are [`CardSet`]s. A play is a set of cards plus its kind, length and
//! top card strength, so "beats" is a comparison of small integers. The
//! `tienlen` rule set is the Tiến lên engine's own ([`crate::tienlen`], rule
//! set `seed`); `pairs` is defined here.

use crate::cards::{Card, CardSet};
use crate::tienlen::moves::MoveGen;
use crate::tienlen::RuleSet as TienlenRules;

/// One play: its cards, kind, length and top card (the Tiến lên engine's
/// combination; under `pairs`, `top` is the rank).
pub use crate::tienlen::Combo as Play;
/// The kinds of play (shared with the Tiến lên engine; `pairs` uses only
/// singles and pairs).
pub use crate::tienlen::Kind;

/// Which plays exist and how they beat each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// The seed's: singles and pairs, higher rank beats (2 low, A high),
    /// suits never matter.
    Pairs,
    /// Tiến lên combinations and beats (RULES.md §3, `seed` rule set: ranks
    /// 3 < ... < A < 2, suits ♥ < ♦ < ♣ < ♠, chops included).
    TienLen,
}

impl RuleSet {
    pub fn parse(s: &str) -> Result<RuleSet, String> {
        match s.to_ascii_lowercase().as_str() {
            "pairs" => Ok(RuleSet::Pairs),
            "tienlen" | "tien-len" => Ok(RuleSet::TienLen),
            other => Err(format!(
                "unknown rule set '{other}': expected pairs or tienlen"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Pairs => "pairs",
            RuleSet::TienLen => "tienlen",
        }
    }
}

/// Strength order of a card: under `pairs` its rank (2 lowest, A highest);
/// under `tienlen` the Tiến lên strength (rank 3 lowest, 2 highest, then
/// suit ♥ ♦ ♣ ♠).
pub fn strength(rules: RuleSet, c: Card) -> u8 {
    match rules {
        RuleSet::Pairs => c.index() >> 2,
        RuleSet::TienLen => TienlenRules::Cambodian.strength(c),
    }
}

/// Whether `play` may follow `last` (`None`: a lead, anything goes).
pub fn beats(rules: RuleSet, play: &Play, last: Option<&Play>) -> bool {
    let Some(last) = last else { return true };
    match rules {
        RuleSet::Pairs => play.kind == last.kind && play.top > last.top,
        RuleSet::TienLen => crate::tienlen::beats(TienlenRules::Cambodian, play, last),
    }
}

/// What a set of cards is as one play, if anything (the slow, obviously
/// correct classification the reference solver uses).
pub fn classify(rules: RuleSet, cards: CardSet) -> Option<Play> {
    match rules {
        RuleSet::TienLen => crate::tienlen::classify(TienlenRules::Cambodian, cards),
        RuleSet::Pairs => {
            let cs = cards.to_vec();
            let same = cs.iter().all(|c| c.rank() == cs[0].rank());
            let kind = match (cs.len(), same) {
                (1, _) => Kind::Single,
                (2, true) => Kind::Pair,
                _ => return None,
            };
            Some(Play {
                cards,
                kind,
                len: 1,
                top: cs[0].index() >> 2,
            })
        }
    }
}

/// Every play `hand` can make after `last` (`None`: a lead), without
/// duplicates. Under `pairs`, one play per rank and size (suits do not
/// matter, so the others are the same move); under `tienlen`, the Tiến lên
/// engine's legal plays.
pub fn plays(rules: RuleSet, hand: CardSet, last: Option<&Play>, out: &mut Vec<Play>) {
    plays_with(rules, hand, last, &mut MoveGen::default(), out);
}

/// [`plays`] reusing a generator's buffers (the search calls it at every
/// node).
pub fn plays_with(
    rules: RuleSet,
    hand: CardSet,
    last: Option<&Play>,
    gen: &mut MoveGen,
    out: &mut Vec<Play>,
) {
    if rules == RuleSet::TienLen {
        gen.generate(TienlenRules::Cambodian, hand, last, None, out);
        return;
    }
    out.clear();
    // Card index = rank * 4 + suit, so a rank's cards are one nibble; the
    // lowest one or two cards of each rank stand for every choice of suits.
    for rank in 0..13u8 {
        let group = hand.0 & (0xF << (4 * rank));
        if group == 0 {
            continue;
        }
        let low = group & group.wrapping_neg();
        let rest = group & !low;
        let mut push = |cards: u64, kind| {
            let p = Play {
                cards: CardSet(cards),
                kind,
                len: 1,
                top: rank,
            };
            if beats(rules, &p, last) {
                out.push(p);
            }
        };
        push(low, Kind::Single);
        if rest != 0 {
            push(low | (rest & rest.wrapping_neg()), Kind::Pair);
        }
    }
}

/// A play as the solver prints it: `Single [4h]`, `Double [6h,6d]`, and for
/// the Tiến lên kinds `Triple [...]`, `Bomb [...]`, `Straight [...]`,
/// `PairRun [...]`.
pub fn describe(p: &Play) -> String {
    let name = match p.kind {
        Kind::Single => "Single",
        Kind::Pair => "Double",
        Kind::Triple => "Triple",
        Kind::Quads => "Bomb",
        Kind::Straight => "Straight",
        Kind::PairRun => "PairRun",
    };
    format!("{name} [{}]", ordered_cards(&p.cards.to_vec()).join(","))
}

/// Cards in the order the solver prints them: highest rank first, and within
/// a rank in suit-letter order s, h, d, c (`6h,6d`), each in cardsim's one
/// notation (`As Kd 7c Th`, the same as every other command).
pub fn ordered_cards(cards: &[Card]) -> Vec<String> {
    let mut cards = cards.to_vec();
    cards.sort_by_key(|c| (std::cmp::Reverse(c.index() >> 2), c.index() & 3));
    cards.iter().map(|c| c.to_string()).collect()
}
