//! Legal plays: every combination a hand can lead, or play over the last
//! combination (chops included), each exactly once; and the seed's hints,
//! the legal plays weakest first.

use super::rules::{beats, classify, is_chop, rank_of, Combo, Kind, RuleSet, TWO};
use crate::cards::{Card, CardSet};

/// Every combination `hand` can play: over `last`, or as a lead when
/// `last` is `None`. With `must_hold`, only plays holding that card (the
/// first play under `vietnamese`). Written into `out` (cleared first), with
/// no duplicates, in a fixed order.
pub fn legal_plays(
    rules: RuleSet,
    hand: CardSet,
    last: Option<&Combo>,
    must_hold: Option<Card>,
    out: &mut Vec<Combo>,
) {
    out.clear();
    let mut by_rank = [[Card::from_index(0); 4]; 13];
    let mut counts = [0usize; 13];
    for c in hand.iter() {
        let r = rank_of(c) as usize;
        by_rank[r][counts[r]] = c;
        counts[r] += 1;
    }
    let mut push = |cards: CardSet, kind: Kind, len: u8| {
        if must_hold.is_some_and(|m| !cards.contains(m)) {
            return;
        }
        let top = cards.iter().map(|c| rules.strength(c)).max().unwrap_or(0);
        let combo = Combo {
            cards,
            kind,
            len,
            top,
        };
        if last.is_none_or(|l| beats(rules, &combo, l)) {
            out.push(combo);
        }
    };
    // Which kinds can follow at all (saves generating the rest).
    let want = |kind: Kind| -> bool {
        let Some(l) = last else { return true };
        if l.kind == kind {
            return true;
        }
        match kind {
            Kind::Quads => matches!(l.kind, Kind::Single),
            Kind::PairRun => matches!(
                l.kind,
                Kind::Single | Kind::Pair | Kind::Triple | Kind::Quads
            ),
            _ => false,
        }
    };
    // Same-rank kinds: every subset of each rank's cards.
    for r in 0..13 {
        let cs = &by_rank[r][..counts[r]];
        for mask in 1u32..(1 << cs.len()) {
            let kind = match mask.count_ones() {
                1 => Kind::Single,
                2 => Kind::Pair,
                3 => Kind::Triple,
                _ => Kind::Quads,
            };
            if !want(kind) {
                continue;
            }
            let set = (0..cs.len())
                .filter(|i| mask >> i & 1 == 1)
                .fold(CardSet::EMPTY, |s, i| s.union(CardSet(cs[i].bit())));
            push(set, kind, 1);
        }
    }
    // Runs (no 2): straights take one card per rank, pair runs one pair.
    let (straights, pair_runs) = (want(Kind::Straight), want(Kind::PairRun));
    if !straights && !pair_runs {
        return;
    }
    let mut singles: Vec<CardSet> = Vec::new();
    let mut pairs: Vec<CardSet> = Vec::new();
    let mut next: Vec<CardSet> = Vec::new();
    for start in 0..TWO as usize {
        singles.clear();
        singles.push(CardSet::EMPTY);
        pairs.clear();
        pairs.push(CardSet::EMPTY);
        for r in start..TWO as usize {
            let cs = &by_rank[r][..counts[r]];
            if cs.is_empty() {
                break;
            }
            let len = (r - start + 1) as u8;
            if straights {
                next.clear();
                for s in &singles {
                    next.extend(cs.iter().map(|c| s.union(CardSet(c.bit()))));
                }
                std::mem::swap(&mut singles, &mut next);
            }
            if pair_runs {
                next.clear();
                for s in &pairs {
                    for i in 0..cs.len() {
                        for j in i + 1..cs.len() {
                            next.push(s.union(CardSet(cs[i].bit() | cs[j].bit())));
                        }
                    }
                }
                std::mem::swap(&mut pairs, &mut next);
            }
            if len >= 3 {
                if straights {
                    for &s in &singles {
                        push(s, Kind::Straight, len);
                    }
                }
                if pair_runs {
                    for &s in &pairs {
                        push(s, Kind::PairRun, len);
                    }
                }
            }
            if pairs.is_empty() && !straights {
                break;
            }
        }
    }
}

/// The seed's hint: the legal plays, weakest first. Plays of the last
/// combination's own kind come before chops; then lower top card first,
/// then fewer cards (leads: the lowest card's plays first).
pub fn hints(rules: RuleSet, hand: CardSet, last: Option<&Combo>) -> Vec<Combo> {
    let mut out = Vec::new();
    legal_plays(rules, hand, last, None, &mut out);
    out.sort_by_key(|p| {
        let chop = last.is_some_and(|l| is_chop(rules, p, l));
        (chop, p.top, p.cards.len(), p.cards.0)
    });
    out
}

/// The slow, obviously correct generator: classify every subset of the
/// hand. For tests.
pub fn reference_plays(
    rules: RuleSet,
    hand: CardSet,
    last: Option<&Combo>,
    must_hold: Option<Card>,
) -> Vec<Combo> {
    let cards = hand.to_vec();
    let mut out = Vec::new();
    for mask in 1u32..(1 << cards.len()) {
        let set: CardSet = (0..cards.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| cards[i])
            .collect();
        if must_hold.is_some_and(|m| !set.contains(m)) {
            continue;
        }
        if let Some(c) = classify(rules, set) {
            if last.is_none_or(|l| beats(rules, &c, l)) {
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card_set;

    #[test]
    fn the_seed_hint_example() {
        let r = RuleSet::Seed;
        let hand = parse_card_set("3h 4h 5h 5s 9c 2s").unwrap();
        let last = classify(r, parse_card_set("4d").unwrap()).unwrap();
        let h: Vec<String> = hints(r, hand, Some(&last))
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(
            h,
            // 4h does not beat 4d: hearts are the lowest suit.
            ["single [5h]", "single [5s]", "single [9c]", "single [2s]"]
        );
    }

    #[test]
    fn chops_come_after_same_kind_plays() {
        let r = RuleSet::Seed;
        let hand = parse_card_set("7h 7s 7d 7c 2s").unwrap();
        let last = classify(r, parse_card_set("2d").unwrap()).unwrap();
        let h = hints(r, hand, Some(&last));
        assert_eq!(h.len(), 2);
        assert_eq!(h[0].kind, Kind::Single);
        assert_eq!(h[1].kind, Kind::Quads);
    }

    #[test]
    fn a_lead_lists_every_combination_once() {
        let r = RuleSet::Seed;
        let hand = parse_card_set("3h 3s 4d 4c 5h").unwrap();
        let mut out = Vec::new();
        legal_plays(r, hand, None, None, &mut out);
        // 5 singles, 2 pairs, straights 3-4-5: 2*2*1 = 4.
        assert_eq!(out.len(), 11);
        let mut sorted = out.clone();
        sorted.sort_by_key(|c| c.cards.0);
        sorted.dedup_by_key(|c| c.cards.0);
        assert_eq!(sorted.len(), out.len());
    }
}
