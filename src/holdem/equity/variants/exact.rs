//! Exact variant equity: every deal of the lists, every board completion,
//! counted in integers per deal ([`DealCounts`]) and weighted per deal.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::hands::Holding;
use super::{DealCounts, VariantPrepared};
use crate::cards::{Card, CardSet};
use crate::holdem::equity::reference::each_subset;
use crate::holdem::equity::types::{
    EquityError, EquityResult, Method, PlayerEquity, MAX_PLAYERS, UNITS,
};
use crate::holdem::eval::{rank_unit, tables, Hand, Strength, Tables};
use crate::holdem::omaha;
use crate::holdem::shortdeck;

/// Exact equity: deals in parallel by the first player's hand, each deal's
/// boards by nested loops (in parallel by the lowest board card when the
/// whole board is to come). Stops with [`EquityError::Interrupted`] soon
/// after `cancel` is set. The answer does not depend on the threads: each
/// job sums its deals in order, and the jobs are summed in order.
pub fn exact(
    p: &VariantPrepared,
    cancel: Option<&AtomicBool>,
) -> Result<EquityResult, EquityError> {
    run(p, cancel, deal_counts)
}

/// The plain enumeration with the same evaluators, the baseline of the
/// benchmarks: every board built and every player's hand evaluated on it
/// ([`crate::holdem::variant::Game::strength`]'s evaluators, Omaha's board
/// prepared once per board), deals in parallel as in [`exact`].
pub fn plain_exact(p: &VariantPrepared) -> EquityResult {
    match run(p, None, plain_counts) {
        Ok(r) => r,
        Err(_) => unreachable!("only a cancel hook interrupts an enumeration"),
    }
}

type Counter = fn(&VariantPrepared, &[&Holding], Option<&AtomicBool>) -> DealCounts;

fn run(
    p: &VariantPrepared,
    cancel: Option<&AtomicBool>,
    counter: Counter,
) -> Result<EquityResult, EquityError> {
    let lists = p.lists();
    let n = p.players();
    let stopped = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    // Per first-player hand: weighted (equity, win, tie) sums, the weight
    // and the deals.
    type Part = (Vec<[f64; 3]>, f64, u64);
    let parts: Vec<Part> = (0..lists[0].len())
        .into_par_iter()
        .with_max_len(1)
        .map(|i| {
            let mut acc = vec![[0.0; 3]; n];
            let (mut weight, mut deals) = (0.0, 0u64);
            VariantPrepared::each_deal(&lists, i..i + 1, p.used.0, &mut |deal, w| {
                if stopped() {
                    return;
                }
                let c = counter(p, deal, cancel);
                let boards = c.showdowns as f64;
                for (j, a) in acc.iter_mut().enumerate() {
                    a[0] += w * c.shares[j] as f64 / UNITS as f64 / boards;
                    a[1] += w * c.wins[j] as f64 / boards;
                    a[2] += w * c.ties[j] as f64 / boards;
                }
                weight += w;
                deals += 1;
            });
            (acc, weight, deals)
        })
        .collect();
    if stopped() {
        return Err(EquityError::Interrupted);
    }
    let mut total = vec![[0.0; 3]; n];
    let (mut weight, mut deals) = (0.0, 0u64);
    for (acc, w, d) in &parts {
        for (t, a) in total.iter_mut().zip(acc) {
            for x in 0..3 {
                t[x] += a[x];
            }
        }
        weight += w;
        deals += d;
    }
    if deals == 0 {
        return Err(EquityError::NoDeal);
    }
    let players = total
        .iter()
        .map(|t| PlayerEquity {
            equity: t[0] / weight,
            win: t[1] / weight,
            tie: t[2] / weight,
            stderr: None,
        })
        .collect();
    Ok(EquityResult {
        players,
        method: Method::Exact {
            combinations: deals,
            classes: deals,
            boards: p.boards(),
        },
    })
}

/// The cards a deal's boards are made of: the board so far first (`k`
/// cards), then the cards left in the deck, in index order.
fn universe(p: &VariantPrepared, deal: &[&Holding]) -> Vec<Card> {
    let taken = deal.iter().fold(p.used.0, |m, h| m | h.mask);
    let mut u = p.board.clone();
    u.extend(p.game.deck().difference(CardSet(taken)).iter());
    u
}

/// One deal's counts over every board, by the variant's fast loop.
fn deal_counts(p: &VariantPrepared, deal: &[&Holding], cancel: Option<&AtomicBool>) -> DealCounts {
    let uni = universe(p, deal);
    let k = p.board.len();
    let hands: Vec<Hand> = uni.iter().map(|&c| Hand::EMPTY.with(c)).collect();
    let t = tables();
    let eval = if p.game.is_omaha() {
        Eval::Omaha(deal.iter().map(|h| cube(t, h.cards(), &uni, k)).collect())
    } else {
        Eval::Seven(deal.iter().map(|h| Hand::from_cards(h.cards())).collect())
    };
    let u = uni.len();
    let walk = |a: Range<usize>| {
        let mut c = DealCounts::default();
        if !cancel.is_some_and(|x| x.load(Ordering::Relaxed)) {
            eval.boards(&hands, k, a, &mut c);
        }
        c
    };
    if k == 0 {
        // The whole board to come: one job per lowest board card.
        let parts: Vec<DealCounts> = (0..u - 4).into_par_iter().map(|a| walk(a..a + 1)).collect();
        let mut c = DealCounts::default();
        parts.iter().for_each(|x| c.add(x));
        c
    } else {
        walk(0..1)
    }
}

/// How a deal's boards are ranked.
enum Eval {
    /// Omaha: each player's best five per triple of universe positions,
    /// `u * u * u` entries (those of triples a board can hold).
    Omaha(Vec<Vec<Strength>>),
    /// Short deck: each player's hole cards, added to the board.
    Seven(Vec<Hand>),
}

/// A player's best five over their pairs, for every triple of universe
/// positions `a < b < c` that a board can hold (at most `5 - k` of them at
/// or past `k`, the cards to come), at `(a * u + b) * u + c`: one rank-key
/// lookup per pair, and flush lookups only for a suited triple
/// ([`omaha::Hole::best_with_triple`]).
fn cube(t: &Tables, hole: &[Card], uni: &[Card], k: usize) -> Vec<Strength> {
    let u = uni.len();
    let hole = omaha::Hole::new(hole);
    let units: Vec<u32> = uni.iter().map(|c| rank_unit(c.rank().index())).collect();
    let mut cube = vec![0; u * u * u];
    let unknown = |x: usize| usize::from(x >= k);
    for a in 0..u {
        for b in a + 1..u {
            for c in b + 1..u {
                if unknown(a) + unknown(b) + unknown(c) > 5 - k {
                    continue;
                }
                let suit = uni[a].suit();
                let flush = (uni[b].suit() == suit && uni[c].suit() == suit).then(|| {
                    let bit = |x: usize| 1u16 << uni[x].rank().index();
                    (suit.index() as usize, bit(a) | bit(b) | bit(c))
                });
                let key = units[a] + units[b] + units[c];
                cube[(a * u + b) * u + c] = hole.best_with_triple(t, key, flush);
            }
        }
    }
    cube
}

impl Eval {
    /// Every board of five universe positions `a < b < c < d < e` that
    /// holds the first `k` (the board so far), with `a` in `first`: each
    /// level of the loops keeps what its cards decide (Omaha: the best of
    /// the triples they complete; short deck: the board's hand so far), so
    /// the innermost reads only what the last card adds.
    fn boards(&self, uni: &[Hand], k: usize, first: Range<usize>, out: &mut DealCounts) {
        let u = uni.len();
        // Level j: one position while it is a known card, else up to where
        // the deeper levels still fit.
        let hi = |j: usize| if j < k { j + 1 } else { u - 4 + j };
        let mut s = [0 as Strength; MAX_PLAYERS];
        match self {
            Eval::Omaha(cubes) => {
                let n = cubes.len();
                let row = |a: usize, b: usize| (a * u + b) * u;
                let (mut m3, mut m4) = ([0 as Strength; MAX_PLAYERS], [0 as Strength; MAX_PLAYERS]);
                for a in first {
                    for b in a + 1..hi(1) {
                        for c in b + 1..hi(2) {
                            for i in 0..n {
                                m3[i] = cubes[i][row(a, b) + c];
                            }
                            for d in c + 1..hi(3) {
                                for i in 0..n {
                                    let q = &cubes[i];
                                    m4[i] = m3[i]
                                        .max(q[row(a, b) + d])
                                        .max(q[row(a, c) + d])
                                        .max(q[row(b, c) + d]);
                                }
                                let rows = [
                                    row(a, b),
                                    row(a, c),
                                    row(a, d),
                                    row(b, c),
                                    row(b, d),
                                    row(c, d),
                                ];
                                for e in d + 1..hi(4) {
                                    for i in 0..n {
                                        let q = &cubes[i];
                                        s[i] = rows.iter().fold(m4[i], |m, &r| m.max(q[r + e]));
                                    }
                                    out.record(&s[..n]);
                                }
                            }
                        }
                    }
                }
            }
            Eval::Seven(holes) => {
                let n = holes.len();
                for a in first {
                    for b in a + 1..hi(1) {
                        let h2 = uni[a].combine(uni[b]);
                        for c in b + 1..hi(2) {
                            let h3 = h2.combine(uni[c]);
                            for d in c + 1..hi(3) {
                                let h4 = h3.combine(uni[d]);
                                for &card in &uni[d + 1..hi(4)] {
                                    let board = h4.combine(card);
                                    for i in 0..n {
                                        s[i] = shortdeck::strength(board.combine(holes[i]));
                                    }
                                    out.record(&s[..n]);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// One deal's counts, every board built and evaluated whole.
fn plain_counts(p: &VariantPrepared, deal: &[&Holding], _: Option<&AtomicBool>) -> DealCounts {
    let uni = universe(p, deal);
    let k = p.board.len();
    let n = deal.len();
    let holes: Vec<omaha::Hole> = deal.iter().map(|h| omaha::Hole::new(h.cards())).collect();
    let mut c = DealCounts::default();
    let mut s = [0 as Strength; MAX_PLAYERS];
    let mut board: Vec<Card> = p.board.clone();
    let t = tables();
    each_subset(&uni[k..], 5 - k, &mut Vec::new(), &mut |extra| {
        board.truncate(k);
        board.extend_from_slice(extra);
        if p.game.is_omaha() {
            let b = omaha::Board::new(&board);
            for i in 0..n {
                s[i] = b.strength_in(t, &holes[i]);
            }
        } else {
            for i in 0..n {
                s[i] = p.game.strength(deal[i].cards(), &board);
            }
        }
        c.record(&s[..n]);
    });
    c
}
