//! The two rule sets of the endgame (RULES.md §4): what a play is, which
//! plays beat which, and every play a hand can make.
//!
//! Hands are [`CardSet`]s. A play is a set of cards plus its kind, length and
//! top card strength, so "beats" is a comparison of small integers.

use crate::cards::{Card, CardSet};

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

/// Kinds of play. Two plays can beat each other (without a chop) only when
/// they are of the same kind and length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Single,
    Pair,
    Triple,
    Quads,
    /// A run of single cards, `len` ranks.
    Straight,
    /// A run of pairs, `len` ranks (2 * len cards).
    PairRun,
}

/// One play: which cards, and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    pub cards: CardSet,
    pub kind: Kind,
    /// Ranks in a run (1 for the other kinds).
    pub len: u8,
    /// Strength of the highest card (rule-set order; suits count only under
    /// `tienlen`).
    pub top: u8,
}

/// Strength order of a card: under `pairs` its rank (2 lowest, A highest);
/// under `tienlen` rank (3 lowest, 2 highest) then suit (♥ ♦ ♣ ♠).
pub fn strength(rules: RuleSet, c: Card) -> u8 {
    let rank = c.index() >> 2; // 0 = deuce .. 12 = ace
    match rules {
        RuleSet::Pairs => rank,
        RuleSet::TienLen => {
            let tl_rank = if rank == 0 { 12 } else { rank - 1 };
            let suit = match c.index() & 3 {
                1 => 0, // hearts
                2 => 1, // diamonds
                3 => 2, // clubs
                _ => 3, // spades
            };
            tl_rank * 4 + suit
        }
    }
}

/// Rank in rule-set order (`tienlen`: 0 = three .. 12 = two).
fn order_rank(rules: RuleSet, c: Card) -> u8 {
    match rules {
        RuleSet::Pairs => c.index() >> 2,
        RuleSet::TienLen => strength(rules, c) >> 2,
    }
}

/// Whether `play` may follow `last` (`None`: a lead, anything goes).
pub fn beats(rules: RuleSet, play: &Play, last: Option<&Play>) -> bool {
    let Some(last) = last else { return true };
    if play.kind == last.kind && play.len == last.len {
        return play.top > last.top;
    }
    match rules {
        RuleSet::Pairs => false,
        RuleSet::TienLen => {
            let two = |p: &Play| p.top >> 2 == 12;
            match (play.kind, last.kind) {
                // Chops: a four of a kind beats a single 2; four or more
                // consecutive pairs beat a pair of 2s.
                (Kind::Quads, Kind::Single) => two(last),
                (Kind::PairRun, Kind::Pair) => play.len >= 4 && two(last),
                _ => false,
            }
        }
    }
}

/// What a set of cards is as one play, if anything (the slow, obviously
/// correct classification the reference solver uses).
pub fn classify(rules: RuleSet, cards: CardSet) -> Option<Play> {
    let cs = cards.to_vec();
    let n = cs.len();
    if n == 0 {
        return None;
    }
    let top = cs.iter().map(|&c| strength(rules, c)).max()?;
    let mut ranks: Vec<u8> = cs.iter().map(|&c| order_rank(rules, c)).collect();
    ranks.sort_unstable();
    let same = ranks.iter().all(|&r| r == ranks[0]);
    let play = |kind, len| {
        Some(Play {
            cards,
            kind,
            len,
            top,
        })
    };
    match (rules, n, same) {
        (_, 1, _) => play(Kind::Single, 1),
        (_, 2, true) => play(Kind::Pair, 1),
        (RuleSet::Pairs, _, _) => None,
        (_, 3, true) => play(Kind::Triple, 1),
        (_, 4, true) => play(Kind::Quads, 1),
        _ => {
            let no_two = ranks.iter().all(|&r| r != 12);
            let consecutive = |rs: &[u8]| rs.windows(2).all(|w| w[1] == w[0] + 1);
            if no_two && n >= 3 && consecutive(&ranks) {
                return play(Kind::Straight, n as u8);
            }
            if no_two && n >= 6 && n % 2 == 0 {
                let pairs_ok = ranks.chunks(2).all(|p| p[0] == p[1]);
                let heads: Vec<u8> = ranks.chunks(2).map(|p| p[0]).collect();
                if pairs_ok && consecutive(&heads) {
                    return play(Kind::PairRun, (n / 2) as u8);
                }
            }
            None
        }
    }
}

/// Every play `hand` can make after `last` (`None`: a lead), without
/// duplicates. Under `pairs`, one play per rank and size (suits do not
/// matter, so the others are the same move).
pub fn plays(rules: RuleSet, hand: CardSet, last: Option<&Play>, out: &mut Vec<Play>) {
    out.clear();
    // Cards of each rule-set rank, as sets.
    let mut by_rank = [CardSet::EMPTY; 13];
    for c in hand.iter() {
        by_rank[order_rank(rules, c) as usize].insert(c);
    }
    let mut push = |p: Play| {
        if beats(rules, &p, last) {
            out.push(p);
        }
    };
    let top_of = |s: CardSet| s.iter().map(|c| strength(rules, c)).max().unwrap_or(0);
    match rules {
        RuleSet::Pairs => {
            for group in by_rank.iter().filter(|g| !g.is_empty()) {
                let cs = group.to_vec();
                let single = CardSet::EMPTY.union(one(cs[0]));
                push(Play {
                    cards: single,
                    kind: Kind::Single,
                    len: 1,
                    top: top_of(single),
                });
                if cs.len() >= 2 {
                    let pair = single.union(one(cs[1]));
                    push(Play {
                        cards: pair,
                        kind: Kind::Pair,
                        len: 1,
                        top: top_of(pair),
                    });
                }
            }
        }
        RuleSet::TienLen => {
            // Same-rank groups: every subset of size 1 to 4.
            for group in by_rank.iter().filter(|g| !g.is_empty()) {
                let cs = group.to_vec();
                for mask in 1u32..(1 << cs.len()) {
                    let set: CardSet = (0..cs.len())
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| cs[i])
                        .collect();
                    let kind = match set.len() {
                        1 => Kind::Single,
                        2 => Kind::Pair,
                        3 => Kind::Triple,
                        _ => Kind::Quads,
                    };
                    push(Play {
                        cards: set,
                        kind,
                        len: 1,
                        top: top_of(set),
                    });
                }
            }
            // Runs (no 2: rank 12): straights pick one card per rank,
            // pair runs one pair per rank.
            for start in 0..12usize {
                let mut singles: Vec<CardSet> = vec![CardSet::EMPTY];
                let mut pairs: Vec<CardSet> = vec![CardSet::EMPTY];
                for (r, group) in by_rank.iter().enumerate().take(12).skip(start) {
                    let cs = group.to_vec();
                    if cs.is_empty() {
                        break;
                    }
                    let len = (r - start + 1) as u8;
                    singles = singles
                        .iter()
                        .flat_map(|s| cs.iter().map(move |&c| s.union(one(c))))
                        .collect();
                    let mut next_pairs = Vec::new();
                    for s in &pairs {
                        for i in 0..cs.len() {
                            for j in i + 1..cs.len() {
                                next_pairs.push(s.union(one(cs[i])).union(one(cs[j])));
                            }
                        }
                    }
                    pairs = next_pairs;
                    if len >= 3 {
                        for &s in &singles {
                            push(Play {
                                cards: s,
                                kind: Kind::Straight,
                                len,
                                top: top_of(s),
                            });
                        }
                        for &s in &pairs {
                            push(Play {
                                cards: s,
                                kind: Kind::PairRun,
                                len,
                                top: top_of(s),
                            });
                        }
                    }
                }
            }
        }
    }
}

fn one(c: Card) -> CardSet {
    CardSet(c.bit())
}

/// A play in the seed's notation: `Single [4H]`, `Double [6H,6D]`, and for
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
    // Highest rank first; within a rank in suit-letter order s, h, d, c,
    // which prints the seed's example as `Double [6H,6D]`.
    let mut cards = p.cards.to_vec();
    cards.sort_by_key(|c| (std::cmp::Reverse(c.index() >> 2), c.index() & 3));
    let cards: Vec<String> = cards
        .iter()
        .map(|c| {
            format!(
                "{}{}",
                c.rank().char(),
                c.suit().char().to_ascii_uppercase()
            )
        })
        .collect();
    format!("{name} [{}]", cards.join(","))
}
