//! Tiến lên rules (RULES.md §3): card strength, combinations, and which
//! combination beats which, under the `seed` and `vietnamese` rule sets.
//!
//! Cards are the crate's [`Card`]s; a combination is a [`CardSet`] plus its
//! kind, length and top card, so "beats" compares small integers.

use std::fmt;
use std::sync::OnceLock;

use thiserror::Error;

use crate::cards::{Card, CardSet, Rank, Suit};

/// The two rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Cambodian rules (the default; the game as the project's source
    /// describes it): suits ♥ < ♦ < ♣ < ♠, the 3♥ leads, a
    /// four of a kind chops a single 2, four or more consecutive pairs chop
    /// a pair of 2s.
    Cambodian,
    /// Southern Vietnamese rules: suits ♠ < ♣ < ♦ < ♥, the 3♠ leads and the
    /// first play must hold it, and the wider chops of RULES.md §3.
    Vietnamese,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown rule set '{0}': expected cambodian or vietnamese")]
pub struct UnknownRuleSet(pub String);

impl RuleSet {
    pub fn parse(s: &str) -> Result<RuleSet, UnknownRuleSet> {
        match s.trim().to_ascii_lowercase().as_str() {
            // `seed` is the name before 0.2, kept so old commands still run.
            "cambodian" | "seed" => Ok(RuleSet::Cambodian),
            "vietnamese" => Ok(RuleSet::Vietnamese),
            other => Err(UnknownRuleSet(crate::text::quote(other))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Cambodian => "cambodian",
            RuleSet::Vietnamese => "vietnamese",
        }
    }

    /// The card that leads the first trick when it was dealt.
    pub fn leading_card(self) -> Card {
        let three = Rank::new(1);
        match self {
            RuleSet::Cambodian => Card::new(three, Suit::Hearts),
            RuleSet::Vietnamese => Card::new(three, Suit::Spades),
        }
    }

    /// Card strength, 0 (the lowest card) to 51 (the highest): rank first
    /// (3 lowest, 2 highest), then suit in the rule set's order.
    #[inline]
    pub fn strength(self, c: Card) -> u8 {
        rank_of(c) * 4 + self.suit_order(c)
    }

    /// The 52 cards from weakest to strongest (index = strength).
    pub fn cards_by_strength(self) -> &'static [Card; 52] {
        static SEED: OnceLock<[Card; 52]> = OnceLock::new();
        static VIETNAMESE: OnceLock<[Card; 52]> = OnceLock::new();
        let cell = match self {
            RuleSet::Cambodian => &SEED,
            RuleSet::Vietnamese => &VIETNAMESE,
        };
        cell.get_or_init(|| {
            let mut t = [Card::from_index(0); 52];
            for i in 0..52 {
                let c = Card::from_index(i);
                t[self.strength(c) as usize] = c;
            }
            t
        })
    }

    fn suit_order(self, c: Card) -> u8 {
        // Card suit indices: 0 spades, 1 hearts, 2 diamonds, 3 clubs.
        let s = c.index() & 3;
        match self {
            RuleSet::Cambodian => [3, 0, 1, 2][s as usize],
            RuleSet::Vietnamese => [0, 3, 2, 1][s as usize],
        }
    }
}

/// Rank in Tiến lên order: 0 for a three up to 11 for an ace and 12 for a 2.
#[inline]
pub fn rank_of(c: Card) -> u8 {
    let r = c.index() >> 2; // 0 = deuce .. 12 = ace
    if r == 0 {
        12
    } else {
        r - 1
    }
}

/// The rank of a two.
pub const TWO: u8 = 12;

/// Kinds of combination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Single,
    Pair,
    Triple,
    /// Four of a kind (the "bomb").
    Quads,
    /// Three or more consecutive ranks, one card each, no 2.
    Straight,
    /// Three or more consecutive pairs, no 2.
    PairRun,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Triple => "triple",
            Kind::Quads => "four of a kind",
            Kind::Straight => "straight",
            Kind::PairRun => "consecutive pairs",
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Triple => "triple",
            Kind::Quads => "four_of_a_kind",
            Kind::Straight => "straight",
            Kind::PairRun => "consecutive_pairs",
        }
    }
}

/// A combination: its cards and what they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Combo {
    pub cards: CardSet,
    pub kind: Kind,
    /// Ranks spanned (1 for same-rank kinds).
    pub len: u8,
    /// Strength of the highest card.
    pub top: u8,
}

impl Combo {
    /// Whether this is a combination of 2s (a single, pair or triple of 2s).
    pub fn is_twos(&self) -> bool {
        self.top >> 2 == TWO && matches!(self.kind, Kind::Single | Kind::Pair | Kind::Triple)
    }
}

impl fmt::Display for Combo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cards: Vec<String> = self.cards.iter().map(|c| c.to_string()).collect();
        write!(f, "{} [{}]", self.kind.name(), cards.join(" "))
    }
}

/// What a set of cards is as one combination, or `None` ("not a
/// combination"). Straightforward: sort the ranks and check each shape.
pub fn classify(rules: RuleSet, cards: CardSet) -> Option<Combo> {
    let n = cards.len() as usize;
    if n == 0 || cards.0 >> 52 != 0 {
        return None;
    }
    let top = cards.iter().map(|c| rules.strength(c)).max()?;
    let mut ranks: Vec<u8> = cards.iter().map(rank_of).collect();
    ranks.sort_unstable();
    let combo = |kind, len| {
        Some(Combo {
            cards,
            kind,
            len,
            top,
        })
    };
    if ranks.iter().all(|&r| r == ranks[0]) {
        return match n {
            1 => combo(Kind::Single, 1),
            2 => combo(Kind::Pair, 1),
            3 => combo(Kind::Triple, 1),
            _ => combo(Kind::Quads, 1),
        };
    }
    let no_two = ranks[n - 1] != TWO;
    let consecutive = |rs: &[u8]| rs.windows(2).all(|w| w[1] == w[0] + 1);
    if no_two && n >= 3 && consecutive(&ranks) {
        return combo(Kind::Straight, n as u8);
    }
    if no_two && n >= 6 && n.is_multiple_of(2) {
        let paired = ranks.chunks(2).all(|p| p[0] == p[1]);
        let heads: Vec<u8> = ranks.chunks(2).map(|p| p[0]).collect();
        if paired && consecutive(&heads) {
            return combo(Kind::PairRun, (n / 2) as u8);
        }
    }
    None
}

/// Whether `play` may follow `last`: the same kind and size with a stronger
/// top card, or a chop of the rule set.
pub fn beats(rules: RuleSet, play: &Combo, last: &Combo) -> bool {
    if play.kind == last.kind && play.len == last.len {
        return play.top > last.top;
    }
    is_chop(rules, play, last)
}

/// Whether `play` beats `last` across kinds (a "chop").
pub fn is_chop(rules: RuleSet, play: &Combo, last: &Combo) -> bool {
    let twos = last.is_twos();
    match rules {
        RuleSet::Cambodian => match (play.kind, last.kind) {
            (Kind::Quads, Kind::Single) => twos,
            (Kind::PairRun, Kind::Pair) => twos && play.len >= 4,
            _ => false,
        },
        RuleSet::Vietnamese => match (play.kind, last.kind) {
            (Kind::Quads, Kind::Single) => twos,
            (Kind::PairRun, Kind::Single) => twos && play.len >= 3,
            (Kind::PairRun, Kind::Pair) => twos && play.len >= 4,
            // Nothing beats four 2s.
            (Kind::PairRun, Kind::Quads) => play.len >= 4 && last.top >> 2 != TWO,
            (Kind::PairRun, Kind::Triple) => twos && play.len >= 5,
            _ => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card_set;

    fn c(rules: RuleSet, s: &str) -> Option<Combo> {
        classify(rules, parse_card_set(s).unwrap())
    }

    fn beat(rules: RuleSet, a: &str, b: &str) -> bool {
        beats(rules, &c(rules, a).unwrap(), &c(rules, b).unwrap())
    }

    #[test]
    fn strength_orders_rank_then_suit() {
        let s = RuleSet::Cambodian;
        let st = |x: &str| s.strength(x.parse().unwrap());
        assert_eq!(st("3h"), 0);
        assert_eq!(st("2s"), 51);
        assert!(st("3s") > st("3c") && st("3c") > st("3d") && st("3d") > st("3h"));
        assert!(st("Ah") < st("2h") && st("Ks") < st("Ah"));
        let v = RuleSet::Vietnamese;
        assert_eq!(v.strength("3s".parse().unwrap()), 0);
        assert_eq!(v.strength("2h".parse().unwrap()), 51);
    }

    #[test]
    fn combinations_are_recognised() {
        let s = RuleSet::Cambodian;
        assert_eq!(c(s, "3h").unwrap().kind, Kind::Single);
        assert_eq!(c(s, "5h 5s").unwrap().kind, Kind::Pair);
        assert_eq!(c(s, "5h 5s 5d").unwrap().kind, Kind::Triple);
        assert_eq!(c(s, "5h 5s 5d 5c").unwrap().kind, Kind::Quads);
        let st = c(s, "3h 4h 5s").unwrap();
        assert_eq!((st.kind, st.len), (Kind::Straight, 3));
        assert_eq!(c(s, "Qh Kd As").unwrap().kind, Kind::Straight);
        let pr = c(s, "3h 3s 4d 4c 5h 5d").unwrap();
        assert_eq!((pr.kind, pr.len), (Kind::PairRun, 3));
        // Not combinations: a 2 in a run, a wrap, a gap, mixed shapes.
        for bad in [
            "Kh Ad 2s",
            "Ah 2d 3s",
            "3h 4h 6h",
            "3h 3s 4d",
            "3h 3s 4d 4c",
            "5h 5s 6d 6c 7h 7d 8s",
            "3h 4d",
        ] {
            assert_eq!(c(s, bad), None, "{bad}");
        }
    }

    #[test]
    fn same_kind_beats_by_top_card_then_suit() {
        let s = RuleSet::Cambodian;
        assert!(beat(s, "4h", "3s"));
        assert!(beat(s, "3s", "3h"), "spades highest under the seed");
        assert!(!beat(s, "3h", "3s"));
        assert!(beat(s, "4h 5h 6s", "3s 4s 5d"));
        assert!(!beat(s, "4h 5h 6s 7s", "3s 4s 5d"), "length must match");
        assert!(!beat(s, "9h 9s", "8h"), "kinds must match");
        assert!(
            beat(RuleSet::Vietnamese, "3h", "3s"),
            "hearts highest there"
        );
    }

    #[test]
    fn seed_chops() {
        let s = RuleSet::Cambodian;
        assert!(beat(s, "5h 5s 5d 5c", "2h"));
        assert!(!beat(s, "5h 5s 5d 5c", "Ah"), "a bomb only chops a 2");
        assert!(!beat(s, "5h 5s 5d 5c", "2h 2s"));
        assert!(beat(s, "3h 3s 4d 4c 5h 5d 6s 6h", "2h 2s"));
        assert!(!beat(s, "3h 3s 4d 4c 5h 5d", "2h 2s"), "three pairs do not");
        assert!(!beat(s, "3h 3s 4d 4c 5h 5d", "2h"), "not under the seed");
        assert!(beat(s, "6h 6s 6d 6c", "5h 5s 5d 5c"));
    }

    #[test]
    fn vietnamese_chops() {
        let v = RuleSet::Vietnamese;
        assert!(beat(v, "5h 5s 5d 5c", "2h"));
        assert!(beat(v, "3h 3s 4d 4c 5h 5d", "2h"));
        assert!(!beat(v, "3h 3s 4d 4c 5h 5d", "2h 2s"));
        assert!(beat(v, "3h 3s 4d 4c 5h 5d 6s 6h", "2h 2s"));
        assert!(beat(v, "3h 3s 4d 4c 5h 5d 6s 6h", "Ah As Ad Ac"));
        assert!(beat(v, "3h 3s 4d 4c 5h 5d 6s 6h 7s 7h", "2h 2s 2d"));
        assert!(!beat(v, "3h 3s 4d 4c 5h 5d 6s 6h", "2h 2s 2d"));
        assert!(!beat(v, "3h 3s 4d 4c 5h 5d 6s 6h 7s 7h", "2h 2s 2d 2c"));
        // A chop is beaten by a higher combination of its own kind.
        assert!(beat(v, "4h 4s 5d 5c 6h 6d", "3h 3s 4d 4c 5h 5d"));
    }
}
