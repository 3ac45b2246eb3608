//! The slow, obviously correct twin of exact equity, for tests: every deal
//! and every board, each hand evaluated from scratch by the reference
//! evaluator.

use super::query::Prepared;
use super::types::{deck_left, PlayerEquity};
use crate::cards::Card;
use crate::holdem::eval::Strength;

/// The slow, obviously correct exact equity: every deal of hole cards and
/// every board, each showdown evaluated from scratch by the reference
/// evaluator. For tests on small cases.
pub fn reference_exact(p: &Prepared) -> Vec<PlayerEquity> {
    let n = p.players();
    let mut totals = vec![(0.0f64, 0.0f64, 0.0f64); n];
    let mut total_weight = 0.0;
    let mut stack = Vec::new();
    p.each_deal(0, p.used, 1.0, &mut stack, &mut |deal, w| {
        let deck = deck_left(p.used, deal);
        let missing = 5 - p.board.len();
        let mut boards = 0u64;
        let mut acc = vec![(0.0, 0.0, 0.0); n];
        let mut pick = Vec::new();
        each_subset(&deck, missing, &mut pick, &mut |extra| {
            let s: Vec<Strength> = deal
                .iter()
                .map(|h| {
                    let mut cards = p.board.clone();
                    cards.extend_from_slice(extra);
                    cards.extend_from_slice(h);
                    crate::holdem::eval::reference::evaluate(&cards)
                })
                .collect();
            let best = *s.iter().max().unwrap_or(&0);
            let k = s.iter().filter(|&&x| x == best).count();
            for i in 0..n {
                if s[i] == best {
                    acc[i].0 += 1.0 / k as f64;
                    if k == 1 {
                        acc[i].1 += 1.0;
                    } else {
                        acc[i].2 += 1.0;
                    }
                }
            }
            boards += 1;
        });
        for i in 0..n {
            totals[i].0 += w * acc[i].0 / boards as f64;
            totals[i].1 += w * acc[i].1 / boards as f64;
            totals[i].2 += w * acc[i].2 / boards as f64;
        }
        total_weight += w;
    });
    totals
        .into_iter()
        .map(|(e, w, t)| PlayerEquity {
            equity: e / total_weight,
            win: w / total_weight,
            tie: t / total_weight,
            stderr: None,
        })
        .collect()
}

/// Calls `f` with every `k`-card subset of `deck` (in `pick`), in
/// lexicographic order of positions.
pub(crate) fn each_subset(
    deck: &[Card],
    k: usize,
    pick: &mut Vec<Card>,
    f: &mut dyn FnMut(&[Card]),
) {
    if k == 0 {
        f(pick);
        return;
    }
    for i in 0..deck.len() {
        pick.push(deck[i]);
        each_subset(&deck[i + 1..], k - 1, pick, f);
        pick.pop();
    }
}
