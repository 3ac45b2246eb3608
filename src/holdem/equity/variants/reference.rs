//! The slow, obviously correct twin of variant equity, for tests: every
//! deal and every board, each hand ranked by the reference evaluators, in
//! floating point.

use super::VariantPrepared;
use crate::cards::{Card, CardSet};
use crate::holdem::equity::types::PlayerEquity;
use crate::holdem::eval::Strength;

/// Every deal of the lists and every board, the reference evaluators on
/// each hand. For small cases.
pub fn reference_exact(p: &VariantPrepared) -> Vec<PlayerEquity> {
    let n = p.players();
    let lists = p.lists();
    let mut totals = vec![(0.0f64, 0.0f64, 0.0f64); n];
    let mut total_weight = 0.0;
    VariantPrepared::each_deal(&lists, 0..lists[0].len(), p.used.0, &mut |deal, w| {
        let taken = deal.iter().fold(p.used.0, |m, h| m | h.mask);
        let deck = p.game.deck().difference(CardSet(taken)).to_vec();
        let mut acc = vec![(0.0, 0.0, 0.0); n];
        let mut boards = 0u64;
        each_subset(&deck, 5 - p.board.len(), &mut Vec::new(), &mut |extra| {
            let mut board = p.board.clone();
            board.extend_from_slice(extra);
            let s: Vec<Strength> = deal
                .iter()
                .map(|h| p.game.reference_strength(h.cards(), &board))
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

/// Calls `f` with every `k`-card subset of `deck`, in lexicographic order
/// of positions.
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
        if deck.len() - i < k {
            break;
        }
        pick.push(deck[i]);
        each_subset(&deck[i + 1..], k - 1, pick, f);
        pick.pop();
    }
}
