//! Exact range equity board by board, for spots with a flop, turn or river
//! on the table.
//!
//! Enumerating deal by deal evaluates every player's hand once per board
//! per combination of hole cards: with ranges of 22, 1081 and 28
//! combinations on a flop that is 445,500 combinations times 1,176 boards
//! times 3 players. Turned around, each board completion is dealt once,
//! each player's distinct hole cards are evaluated once on it, and the
//! combinations are joined by their card masks. The player with the largest
//! range (the *counted* player) is not enumerated at all: for each
//! combination of the other players, only how many of the counted player's
//! hands are below, equal to and above the others' best hand matters, and
//! those are read by binary search from its strengths sorted once per
//! board. Its hands that share a card with the others' hole cards are taken
//! out by inclusion-exclusion: strengths sorted per card (the hands holding
//! that card), less the one hand holding two of the others' cards, if any
//! (a hand has two cards, so no hand holds three).
//!
//! Counts are integers (pot shares in units of 1/[`UNITS`]), so the answer
//! is exactly the deal-by-deal enumeration's; it needs every range's weights
//! to be equal within the range (a common weight cancels out).

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::range::Combo;
use super::types::{binomial, Hooks, Progress, MAX_PLAYERS, UNITS};
use crate::cards::{Card, CardSet};
use crate::holdem::eval::{tables, Hand, Strength, Tables};

/// Integer totals over every (deal of hole cards, board completion) pair.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub wins: [u64; MAX_PLAYERS],
    pub ties: [u64; MAX_PLAYERS],
    /// Pot shares in units of 1/[`UNITS`].
    pub shares: [u64; MAX_PLAYERS],
    /// Deals times the boards completing each.
    pub deal_boards: u64,
}

impl Totals {
    fn add(mut self, o: &Totals) -> Totals {
        for i in 0..MAX_PLAYERS {
            self.wins[i] += o.wins[i];
            self.ties[i] += o.ties[i];
            self.shares[i] += o.shares[i];
        }
        self.deal_boards += o.deal_boards;
        self
    }
}

/// Work of [`totals`] in strength look-ups and joins, saturating: per board
/// completion, every combination evaluated once and every combination of
/// the players other than the counted one joined (about a dozen steps).
pub fn work(ranges: &[Vec<Combo>], board_cards: usize, used: CardSet) -> u64 {
    let left = 52 - u64::from(used.len());
    let boards = binomial(left, 5 - board_cards as u64);
    let big = counted_player(ranges);
    let evals: u64 = ranges.iter().map(|r| r.len() as u64).sum();
    let joins = ranges
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != big)
        .fold(1u64, |p, (_, r)| p.saturating_mul(r.len() as u64));
    boards.saturating_mul(evals.saturating_add(joins.saturating_mul(12)))
}

/// The player with the most combinations (the first of them).
fn counted_player(ranges: &[Vec<Combo>]) -> usize {
    let most = ranges.iter().map(Vec::len).max().unwrap_or(0);
    ranges.iter().position(|r| r.len() == most).unwrap_or(0)
}

/// Exact totals of every deal of `ranges` (combinations already free of the
/// board and `used` cards, which hold the board and dead cards) over every
/// completion of `board` from the cards not in `used`.
pub fn totals(ranges: &[Vec<Combo>], board: &[Card], used: CardSet) -> Totals {
    match totals_with(ranges, board, used, 0.0, Hooks::default()) {
        Some(t) => t,
        None => unreachable!("only a cancel hook interrupts the enumeration"),
    }
}

/// [`totals`], reporting the board completions done (with
/// `expected_seconds` in the first report) and giving up (`None`) once
/// `hooks` asks to stop.
pub(super) fn totals_with(
    ranges: &[Vec<Combo>],
    board: &[Card],
    used: CardSet,
    expected_seconds: f64,
    hooks: Hooks<'_>,
) -> Option<Totals> {
    let t = tables();
    let plan = Plan::new(ranges, board);
    let deck: Vec<Card> = CardSet::FULL52.difference(used).iter().collect();
    let missing = 5 - board.len();
    let count = binomial(deck.len() as u64, missing as u64);
    hooks.report(Progress {
        done: 0,
        total: Some(count),
        unit: "boards",
        expected_seconds: Some(expected_seconds),
    });
    let done = AtomicU64::new(0);
    // The totals of one board completion, none once the caller asked to
    // stop (checked once a board: thousands of joins each).
    let one = |s: &mut Scratch, extra: CardSet| -> Totals {
        if hooks.cancelled() {
            return Totals::default();
        }
        let totals = plan.board_totals(t, s, extra);
        let k = done.fetch_add(1, Ordering::Relaxed) + 1;
        hooks.report(Progress {
            done: k,
            total: Some(count),
            unit: "boards",
            expected_seconds: None,
        });
        totals
    };
    let totals = match missing {
        0 => one(&mut Scratch::new(&plan), CardSet::EMPTY),
        1 => deck
            .par_iter()
            .map_init(|| Scratch::new(&plan), |s, &c| one(s, CardSet(c.bit())))
            .reduce(Totals::default, |a, b| a.add(&b)),
        2 => (0..deck.len())
            .into_par_iter()
            .map_init(
                || Scratch::new(&plan),
                |s, i| {
                    deck[i + 1..].iter().fold(Totals::default(), |acc, &d| {
                        acc.add(&one(s, CardSet(deck[i].bit() | d.bit())))
                    })
                },
            )
            .reduce(Totals::default, |a, b| a.add(&b)),
        k => panic!("board-major enumeration needs a flop, turn or river, {k} cards to come"),
    };
    (!hooks.cancelled()).then_some(totals)
}

/// What does not change from board to board.
struct Plan {
    board: Hand,
    /// The counted player and the others, in order.
    big: usize,
    others: Vec<usize>,
    /// Per player: each combination's cards as a set and as a hand.
    masks: Vec<Vec<u64>>,
    hands: Vec<Vec<Hand>>,
    /// The counted player's combinations holding each card.
    by_card: Vec<Vec<u32>>,
    /// The counted player's combination of two cards (`pair[a * 52 + b]`),
    /// or `u32::MAX`.
    pair: Vec<u32>,
}

impl Plan {
    fn new(ranges: &[Vec<Combo>], board: &[Card]) -> Plan {
        let big = counted_player(ranges);
        let others = (0..ranges.len()).filter(|&i| i != big).collect();
        let masks = ranges
            .iter()
            .map(|r| r.iter().map(|c| c[0].bit() | c[1].bit()).collect())
            .collect();
        let hands = ranges
            .iter()
            .map(|r| r.iter().map(|c| Hand::from_cards(c)).collect())
            .collect();
        let mut by_card = vec![Vec::new(); 52];
        let mut pair = vec![u32::MAX; 52 * 52];
        for (k, c) in ranges[big].iter().enumerate() {
            let (a, b) = (usize::from(c[0].index()), usize::from(c[1].index()));
            by_card[a].push(k as u32);
            by_card[b].push(k as u32);
            pair[a * 52 + b] = k as u32;
            pair[b * 52 + a] = k as u32;
        }
        Plan {
            board: Hand::from_cards(board),
            big,
            others,
            masks,
            hands,
            by_card,
            pair,
        }
    }

    /// Totals of every deal on the board completed by `extra`.
    fn board_totals(&self, t: &Tables, s: &mut Scratch, extra: CardSet) -> Totals {
        let board = extra.iter().fold(self.board, |h, c| h.with(c));
        // Everyone's strengths on this board; u16::MAX (above every
        // strength: the evaluator's fit in 16 bits with room to spare, a
        // test checks the royal flush) marks a combination the completion
        // takes a card from.
        for (p, st) in s.strengths.iter_mut().enumerate() {
            st.clear();
            st.extend(self.hands[p].iter().zip(&self.masks[p]).map(|(h, &m)| {
                if m & extra.0 != 0 {
                    u16::MAX
                } else {
                    t.strength(board.combine(*h))
                }
            }));
        }
        let big = &s.strengths[self.big];
        s.all.clear();
        s.all.extend(big.iter().copied().filter(|&x| x != u16::MAX));
        s.all.sort_unstable();
        s.card_sorted.clear();
        for (card, combos) in self.by_card.iter().enumerate() {
            let start = s.card_sorted.len();
            s.card_sorted.extend(
                combos
                    .iter()
                    .map(|&k| big[k as usize])
                    .filter(|&x| x != u16::MAX),
            );
            s.card_sorted[start..].sort_unstable();
            s.card_range[card] = (start as u32, s.card_sorted.len() as u32);
        }
        // Where each of the others' hands falls among the counted player's
        // (once per hand and board, not once per combination of hands).
        for &p in &self.others {
            let (st, at) = (&s.strengths[p], &mut s.place[p]);
            at.clear();
            at.extend(st.iter().map(|&x| below_equal(&s.all, x)));
        }
        let mut out = Totals::default();
        let mut chosen = [0u32; MAX_PLAYERS];
        self.join(s, 0, extra.0, 0, &mut chosen, &mut out);
        out
    }

    /// Every combination of the other players from `depth` on, then the
    /// counted player's hands counted against them.
    fn join(
        &self,
        s: &Scratch,
        depth: usize,
        used: u64,
        holes: u64,
        chosen: &mut [u32; MAX_PLAYERS],
        out: &mut Totals,
    ) {
        if depth == self.others.len() {
            self.count(s, holes, chosen, out);
            return;
        }
        let p = self.others[depth];
        for (k, (&m, &st)) in self.masks[p].iter().zip(&s.strengths[p]).enumerate() {
            if m & used != 0 || st == u16::MAX {
                continue;
            }
            chosen[depth] = k as u32;
            self.join(s, depth + 1, used | m, holes | m, chosen, out);
        }
    }

    /// One combination of the other players (`chosen`, hole cards
    /// `holes`): the counted player's hands below, equal to and
    /// above their best, less those sharing a card, and the showdowns'
    /// totals.
    #[inline]
    fn count(&self, s: &Scratch, holes: u64, chosen: &[u32; MAX_PLAYERS], out: &mut Totals) {
        let mut best: Strength = 0;
        let mut at_best = 0u32;
        let mut first_best = 0;
        for (d, &p) in self.others.iter().enumerate() {
            let st = s.strengths[p][chosen[d] as usize];
            if st > best {
                (best, at_best, first_best) = (st, 1, d);
            } else if st == best {
                at_best += 1;
            }
        }
        let (mut below, mut equal) = s.place[self.others[first_best]][chosen[first_best] as usize];
        let mut total = s.all.len() as u64;
        // The others' hole cards, taken out of the counted player's hands.
        let mut cards = [0usize; 2 * MAX_PLAYERS];
        let mut held = holes;
        let mut c = 0;
        while held != 0 {
            cards[c] = held.trailing_zeros() as usize;
            held &= held - 1;
            c += 1;
        }
        let big = &s.strengths[self.big];
        for i in 0..c {
            for j in i + 1..c {
                let k = self.pair[cards[i] * 52 + cards[j]];
                if k == u32::MAX {
                    continue;
                }
                let st = big[k as usize];
                if st == u16::MAX {
                    continue;
                }
                // Taken out twice below: put back once first.
                total += 1;
                if st < best {
                    below += 1;
                } else if st == best {
                    equal += 1;
                }
            }
        }
        for &x in &cards[..c] {
            let (a, b) = s.card_range[x];
            let list = &s.card_sorted[a as usize..b as usize];
            let (lo, eq) = below_equal(list, best);
            below -= lo;
            equal -= eq;
            total -= list.len() as u64;
        }
        let above = total - below - equal;
        let units = UNITS;
        let b = self.big;
        out.wins[b] += above;
        out.ties[b] += equal;
        out.shares[b] += above * units + equal * (units / u64::from(at_best + 1));
        for (d, &p) in self.others.iter().enumerate() {
            if s.strengths[p][chosen[d] as usize] != best {
                continue;
            }
            out.ties[p] += equal;
            out.shares[p] += equal * (units / u64::from(at_best + 1));
            if at_best == 1 {
                out.wins[p] += below;
            } else {
                out.ties[p] += below;
            }
            out.shares[p] += below * (units / u64::from(at_best));
        }
        out.deal_boards += total;
    }
}

/// How many of `sorted` are below `m`, and how many equal it.
#[inline]
fn below_equal(sorted: &[u16], m: u16) -> (u64, u64) {
    let lo = sorted.partition_point(|&x| x < m);
    let hi = lo + sorted[lo..].partition_point(|&x| x <= m);
    (lo as u64, (hi - lo) as u64)
}

/// Per-thread buffers reused from board to board.
struct Scratch {
    strengths: Vec<Vec<Strength>>,
    /// Per other player and hand: the counted player's hands below and
    /// equal to it on this board.
    place: Vec<Vec<(u64, u64)>>,
    all: Vec<Strength>,
    card_sorted: Vec<Strength>,
    card_range: [(u32, u32); 52],
}

impl Scratch {
    fn new(plan: &Plan) -> Scratch {
        Scratch {
            strengths: plan
                .hands
                .iter()
                .map(|h| Vec::with_capacity(h.len()))
                .collect(),
            place: plan
                .hands
                .iter()
                .map(|h| Vec::with_capacity(h.len()))
                .collect(),
            all: Vec::new(),
            card_sorted: Vec::new(),
            card_range: [(0, 0); 52],
        }
    }
}
