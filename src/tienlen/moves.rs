//! Legal plays: every combination a hand can lead, or play over the last
//! combination (chops included), each exactly once; and the seed's hints,
//! the legal plays weakest first.

use super::rules::{beats, classify, is_chop, Combo, Kind, RuleSet, TWO};
use crate::cards::{Card, CardSet};

/// Every combination `hand` can play: over `last`, or as a lead when
/// `last` is `None`. With `must_hold`, only plays holding that card (the
/// first play under `vietnamese`). Written into `out` (cleared first), with
/// no duplicates, in a fixed order. Allocates its buffers; a game loop uses
/// [`MoveGen`] to reuse them.
pub fn legal_plays(
    rules: RuleSet,
    hand: CardSet,
    last: Option<&Combo>,
    must_hold: Option<Card>,
    out: &mut Vec<Combo>,
) {
    MoveGen::default().generate(rules, hand, last, must_hold, out);
}

/// The legal-play generator with its buffers, reused from call to call.
#[derive(Clone, Debug, Default)]
pub struct MoveGen {
    singles: Vec<(CardSet, u8)>,
    pairs: Vec<(CardSet, u8)>,
    next: Vec<(CardSet, u8)>,
}

impl MoveGen {
    /// [`legal_plays`] without allocating once the buffers have grown.
    ///
    /// Same-rank kinds come from the subsets of each rank's cards; runs from
    /// extending every choice of one card (or one pair) per rank. Following,
    /// only the kinds that can beat `last` are built, ranks that cannot beat
    /// it are skipped, and runs stop at `last`'s length; `beats` still
    /// decides every play, so the pruning only saves work.
    pub fn generate(
        &mut self,
        rules: RuleSet,
        hand: CardSet,
        last: Option<&Combo>,
        must_hold: Option<Card>,
        out: &mut Vec<Combo>,
    ) {
        out.clear();
        // Cards of each rank with their strengths, weakest suit first
        // (strength = rank * 4 + suit order, so visiting strengths in order
        // visits each rank's suits in order).
        let mut by_rank = [[(CardSet::EMPTY, 0u8); 4]; 13];
        let mut counts = [0usize; 13];
        let order = rules.cards_by_strength();
        for (st, &c) in order.iter().enumerate() {
            if hand.contains(c) {
                let r = st >> 2;
                by_rank[r][counts[r]] = (CardSet(c.bit()), st as u8);
                counts[r] += 1;
            }
        }
        let mut push = |cards: CardSet, kind: Kind, len: u8, top: u8| {
            if must_hold.is_some_and(|m| !cards.contains(m)) {
                return;
            }
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
        // Which kinds can follow at all: `last`'s own kind, and the kinds
        // that could chop it (a probe of the longest such run decides, as
        // every chop rule only asks for a minimum length).
        let want = |kind: Kind| -> bool {
            let Some(l) = last else { return true };
            let probe = Combo {
                cards: CardSet::EMPTY,
                kind,
                len: if kind == Kind::PairRun { 6 } else { 1 },
                top: 51,
            };
            l.kind == kind || is_chop(rules, &probe, l)
        };
        // Same-rank plays of the same kind as `last` need a rank at least
        // as high as its top card's.
        let min_rank = |kind: Kind| match last {
            Some(l) if l.kind == kind => (l.top >> 2) as usize,
            _ => 0,
        };
        for (kind, size) in [
            (Kind::Single, 1u32),
            (Kind::Pair, 2),
            (Kind::Triple, 3),
            (Kind::Quads, 4),
        ] {
            if !want(kind) {
                continue;
            }
            for r in min_rank(kind)..13 {
                let cs = &by_rank[r][..counts[r]];
                if cs.len() < size as usize {
                    continue;
                }
                if size == 1 {
                    for &(c, st) in cs {
                        push(c, kind, 1, st);
                    }
                    continue;
                }
                for mask in 1u32..(1 << cs.len()) {
                    if mask.count_ones() != size {
                        continue;
                    }
                    let (mut set, mut top) = (CardSet::EMPTY, 0);
                    for (i, &(c, st)) in cs.iter().enumerate() {
                        if mask >> i & 1 == 1 {
                            set = set.union(c);
                            top = top.max(st);
                        }
                    }
                    push(set, kind, 1, top);
                }
            }
        }
        // Runs (no 2): straights take one card per rank, pair runs one pair.
        let (straights, pair_runs) = (want(Kind::Straight), want(Kind::PairRun));
        if !straights && !pair_runs {
            return;
        }
        // Following a straight, only its length can follow.
        let straight_len = last.filter(|l| l.kind == Kind::Straight).map(|l| l.len);
        for start in 0..TWO as usize {
            self.singles.clear();
            self.singles.push((CardSet::EMPTY, 0));
            self.pairs.clear();
            self.pairs.push((CardSet::EMPTY, 0));
            let mut grow_singles = straights;
            let mut grow_pairs = pair_runs;
            for r in start..TWO as usize {
                let cs = &by_rank[r][..counts[r]];
                if cs.is_empty() || !(grow_singles || grow_pairs) {
                    break;
                }
                let len = (r - start + 1) as u8;
                if grow_singles {
                    self.next.clear();
                    for &(s, _) in &self.singles {
                        // The top card is this rank's card (the highest rank).
                        self.next.extend(cs.iter().map(|&(c, st)| (s.union(c), st)));
                    }
                    std::mem::swap(&mut self.singles, &mut self.next);
                }
                if grow_pairs {
                    self.next.clear();
                    for &(s, _) in &self.pairs {
                        for i in 0..cs.len() {
                            for j in i + 1..cs.len() {
                                // Sorted by strength: j is the higher card.
                                self.next.push((s.union(cs[i].0).union(cs[j].0), cs[j].1));
                            }
                        }
                    }
                    std::mem::swap(&mut self.pairs, &mut self.next);
                    grow_pairs = !self.pairs.is_empty();
                }
                if len >= 3 {
                    if grow_singles && straight_len.is_none_or(|l| l == len) {
                        for &(s, top) in &self.singles {
                            push(s, Kind::Straight, len, top);
                        }
                    }
                    if grow_pairs {
                        for &(s, top) in &self.pairs {
                            push(s, Kind::PairRun, len, top);
                        }
                    }
                }
                if straight_len == Some(len) {
                    grow_singles = false;
                }
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
    hand.subsets()
        .filter(|set| must_hold.is_none_or(|m| set.contains(m)))
        .filter_map(|set| classify(rules, set))
        .filter(|c| last.is_none_or(|l| beats(rules, c, l)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card_set;

    #[test]
    fn the_seed_hint_example() {
        let r = RuleSet::Cambodian;
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
        let r = RuleSet::Cambodian;
        let hand = parse_card_set("7h 7s 7d 7c 2s").unwrap();
        let last = classify(r, parse_card_set("2d").unwrap()).unwrap();
        let h = hints(r, hand, Some(&last));
        assert_eq!(h.len(), 2);
        assert_eq!(h[0].kind, Kind::Single);
        assert_eq!(h[1].kind, Kind::Quads);
    }

    #[test]
    fn a_lead_lists_every_combination_once() {
        let r = RuleSet::Cambodian;
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
