//! Deals of hole cards grouped into classes that are equal up to a renaming
//! of suits which fixes the board and the dead cards: such deals have the
//! same outcome, so exact enumeration counts each class once (AA vs KK: 3
//! classes instead of 36 pairs).

use std::collections::HashMap;

use super::query::Prepared;
use super::range::Combo;
use crate::cards::{Card, CardSet};

impl Prepared {
    /// Every conflict-free combination of hole cards, grouped into classes
    /// equal up to a renaming of suits that fixes the board and the dead
    /// cards: (one representative, total weight, members), in a fixed order.
    pub(super) fn classes(&self) -> Vec<(Vec<Combo>, f64, u64)> {
        let perms = stabilizing_suit_perms(&self.board, self.dead);
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut out: Vec<(Vec<Combo>, f64, u64)> = Vec::new();
        let mut stack: Vec<Combo> = Vec::with_capacity(self.players());
        self.each_deal(0, self.used, 1.0, &mut stack, &mut |deal, w| {
            let key = canonical_key(deal, &perms);
            match index.get(&key) {
                Some(&i) => {
                    out[i].1 += w;
                    out[i].2 += 1;
                }
                None => {
                    index.insert(key, out.len());
                    out.push((deal.to_vec(), w, 1));
                }
            }
        });
        out
    }
}

/// The renamings of suits (as `perm[suit] = new suit`) that map the board
/// onto itself and the dead cards onto themselves.
fn stabilizing_suit_perms(board: &[Card], dead: CardSet) -> Vec<[u8; 4]> {
    let board_set: CardSet = board.iter().copied().collect();
    let rename = |set: CardSet, p: &[u8; 4]| -> CardSet {
        set.iter()
            .map(|c| Card::from_index(c.index() & !3 | p[(c.index() & 3) as usize]))
            .collect()
    };
    let mut perms = Vec::new();
    for a in 0..4u8 {
        for b in 0..4u8 {
            for c in 0..4u8 {
                for d in 0..4u8 {
                    let p = [a, b, c, d];
                    let distinct = (0..4).all(|i| (0..i).all(|j| p[i] != p[j]));
                    if distinct && rename(board_set, &p) == board_set && rename(dead, &p) == dead {
                        perms.push(p);
                    }
                }
            }
        }
    }
    perms
}

/// The smallest renaming of a deal over `perms` (each hand's cards sorted).
fn canonical_key(deal: &[Combo], perms: &[[u8; 4]]) -> Vec<u8> {
    let mut best: Option<Vec<u8>> = None;
    let mut key = Vec::with_capacity(2 * deal.len());
    for p in perms {
        key.clear();
        for hand in deal {
            let [x, y] = hand.map(|c| c.index() & !3 | p[(c.index() & 3) as usize]);
            key.extend_from_slice(&[x.max(y), x.min(y)]);
        }
        if best.as_ref().is_none_or(|b| key < *b) {
            best = Some(key.clone());
        }
    }
    best.unwrap_or_default()
}
