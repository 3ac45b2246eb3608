//! Which combinations can be part of a valid deal, and whether any deal is
//! valid at all, decided quickly.
//!
//! A deal gives every player one combination of their range, no card used
//! twice. Deciding whether one exists is a packing problem (hard in
//! general), and a plain depth-first walk over the players in their given
//! order can take minutes to learn that ten overlapping ranges never fit.
//! Two steps make it fast on every request of at most ten players:
//!
//! - [`prune`] removes every combination that shares a card with each
//!   combination some other player has left (it can be in no valid deal),
//!   and repeats until nothing changes. It never removes a combination that
//!   is in a valid deal, so the distribution over valid deals is unchanged.
//! - [`any_deal`] then searches, always dealing next to the player with the
//!   fewest combinations that still fit (a player with none ends the branch
//!   at once), and remembers every (players left, cards that matter to
//!   them) state already shown to fail.

use std::collections::HashSet;

/// The most failed states [`any_deal`] remembers (about 100 MB at most);
/// beyond, it searches on without remembering more.
const MAX_MEMO: usize = 4_000_000;

/// Per player, the indices (into `masks[player]`) of the combinations that
/// survive pairwise pruning: a combination goes when some other player's
/// every remaining combination shares a card with it. `masks[p]` holds
/// player `p`'s combinations as 52-bit card masks, each listed once (as in
/// a [`super::range::Range`]).
pub(super) fn prune(masks: &[Vec<u64>]) -> Vec<Vec<usize>> {
    let n = masks.len();
    let mut keep: Vec<Vec<usize>> = masks.iter().map(|m| (0..m.len()).collect()).collect();
    loop {
        // Per player: how many kept combinations hold each card, and which
        // two-card combinations are kept (bit y of pairs[x]).
        let counts: Vec<([u32; 64], [u64; 64])> = (0..n)
            .map(|p| {
                let mut cards = [0u32; 64];
                let mut pairs = [0u64; 64];
                for &k in &keep[p] {
                    let m = masks[p][k];
                    let (a, b) = (m.trailing_zeros() as usize, 63 - m.leading_zeros() as usize);
                    cards[a] += 1;
                    cards[b] += 1;
                    pairs[a] |= 1 << b;
                    pairs[b] |= 1 << a;
                }
                (cards, pairs)
            })
            .collect();
        // Lengths as counted (a pass compares against these, never against
        // lists it has already shortened).
        let lens: Vec<usize> = keep.iter().map(Vec::len).collect();
        let mut changed = false;
        for p in 0..n {
            let before = keep[p].len();
            keep[p].retain(|&k| {
                let m = masks[p][k];
                let (a, b) = (m.trailing_zeros() as usize, 63 - m.leading_zeros() as usize);
                (0..n).filter(|&q| q != p).all(|q| {
                    let (cards, pairs) = &counts[q];
                    let clash = cards[a] + cards[b] - ((pairs[a] >> b) & 1) as u32;
                    (clash as usize) < lens[q]
                })
            });
            changed |= keep[p].len() != before;
        }
        if !changed {
            return keep;
        }
    }
}

/// Whether some deal gives every player one of their combinations (`masks`,
/// as in [`prune`]) with no card twice.
pub(super) fn any_deal(masks: &[Vec<u64>]) -> bool {
    let keep = prune(masks);
    if keep.iter().any(Vec::is_empty) {
        return false;
    }
    let lists: Vec<Vec<u64>> = keep
        .iter()
        .zip(masks)
        .map(|(k, m)| k.iter().map(|&i| m[i]).collect())
        .collect();
    let mut search = Search {
        cards_of: lists
            .iter()
            .map(|l| l.iter().fold(0, |a, &m| a | m))
            .collect(),
        lists,
        failed: HashSet::new(),
    };
    let all = (1u32 << masks.len()) - 1;
    search.fits(all, 0)
}

struct Search {
    lists: Vec<Vec<u64>>,
    /// Every card some combination of the player holds.
    cards_of: Vec<u64>,
    /// (players left, used cards that any of them could hold) known to fail.
    failed: HashSet<(u32, u64)>,
}

impl Search {
    /// Whether the players in `left` (a bit set) can all be dealt around
    /// the `used` cards.
    fn fits(&mut self, left: u32, used: u64) -> bool {
        if left == 0 {
            return true;
        }
        let relevant = (0..self.lists.len())
            .filter(|&p| left & (1 << p) != 0)
            .fold(0, |a, p| a | self.cards_of[p]);
        let key = (left, used & relevant);
        if self.failed.contains(&key) {
            return false;
        }
        // The player with the fewest combinations that still fit.
        let mut best = (usize::MAX, 0);
        for p in (0..self.lists.len()).filter(|&p| left & (1 << p) != 0) {
            let fit = self.lists[p].iter().filter(|&&m| m & used == 0).count();
            if fit < best.0 {
                best = (fit, p);
            }
        }
        let (fit, p) = best;
        let found = fit > 0 && {
            let list = std::mem::take(&mut self.lists[p]);
            let found = list
                .iter()
                .any(|&m| m & used == 0 && self.fits(left & !(1 << p), used | m));
            self.lists[p] = list;
            found
        };
        if !found && self.failed.len() < MAX_MEMO {
            self.failed.insert(key);
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::game_rng;
    use rand::RngExt;

    /// The obvious search: every player in order, every combination.
    fn brute(masks: &[Vec<u64>], used: u64) -> bool {
        match masks.split_first() {
            None => true,
            Some((first, rest)) => first
                .iter()
                .any(|&m| m & used == 0 && brute(rest, used | m)),
        }
    }

    /// Small random instances over a few cards (so that conflicts are
    /// common): the fast answer equals the brute-force one, and pruning
    /// keeps exactly the combinations that some valid deal uses.
    #[test]
    fn matches_brute_force_on_small_random_instances() {
        let mut rng = game_rng(5, 29);
        for case in 0..3000 {
            let players = rng.random_range(2..=5usize);
            let cards = rng.random_range(4..=12u32);
            let masks: Vec<Vec<u64>> = (0..players)
                .map(|_| {
                    let k = rng.random_range(1..=6usize);
                    let mut list: Vec<u64> = (0..k)
                        .map(|_| loop {
                            let (a, b) = (rng.random_range(0..cards), rng.random_range(0..cards));
                            if a != b {
                                break (1u64 << a) | (1u64 << b);
                            }
                        })
                        .collect();
                    // A range lists each combination once.
                    list.sort_unstable();
                    list.dedup();
                    list
                })
                .collect();
            assert_eq!(any_deal(&masks), brute(&masks, 0), "case {case}: {masks:?}");
            let keep = prune(&masks);
            for (p, list) in masks.iter().enumerate() {
                for (k, &m) in list.iter().enumerate() {
                    let mut fixed = masks.clone();
                    fixed[p] = vec![m];
                    if brute(&fixed, 0) {
                        assert!(keep[p].contains(&k), "case {case}: pruned a usable combo");
                    }
                }
            }
        }
    }
}
