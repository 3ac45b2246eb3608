//! Monte Carlo deals drawn directly when valid deals are rare.
//!
//! The target is the distribution the whole equity module uses: a deal of
//! hole cards `d = (c_1, ..., c_n)` has probability proportional to
//! `w_1(c_1) * ... * w_n(c_n)` when no card is used twice, and 0 otherwise.
//! The plain sampler ([`super::sampler`]) draws every player independently
//! and rejects the whole deal on a conflict: exact, but when valid deals
//! carry a tiny share of the weight (`AsAh,KsKh:0.000001` against
//! `AsAd,AsAc`: one draw in a million is valid) it draws for minutes.
//!
//! Drawing players one after another, each from their range conditioned on
//! the cards already out, would be fast but biased: it gives a deal the
//! probability `prod_i w_i(c_i) / W_i(c_1..c_{i-1})`, where `W_i(..)` is the
//! weight player `i` has left around the earlier hands, so deals whose
//! early hands leave little room are over-drawn. This sampler is exact
//! instead, in three steps:
//!
//! 1. Combinations that are in no valid deal are dropped
//!    ([`super::feasible::prune`]): probability 0 either way.
//! 2. The players with the smallest ranges (the *table* players `S`) have
//!    every valid joint deal `s` enumerated, as long as there are at most
//!    [`MAX_TABLE`] of them, each with the proposal weight
//!    `w_S(s) * prod_{j not in S} W_j(s)`, where `W_j(s)` is the weight of
//!    player `j`'s combinations that share no card with `s`.
//! 3. A trial draws `s` from the table by that weight, then each other
//!    player `j` from their range conditioned on sharing no card with `s`
//!    (drawn again until it does: exact for that conditional), and rejects
//!    the whole trial, `s` included, if two of those players collide.
//!
//! The proposal gives a deal `(s, l)` the probability
//! `w_S(s) prod_j W_j(s) / T * prod_j w_j(l_j) / W_j(s)
//! = w_S(s) prod_j w_j(l_j) / T` (`T` the table's total weight), the same
//! for every valid deal, so the accepted deals follow the target exactly.
//! Only collisions among the players outside the table cost draws: when
//! every player fits in the table there is no rejection at all, and the
//! rare deals that made the plain sampler slow (a tiny weight, or small
//! ranges fighting over the same cards) are in the table.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::Rng;

use super::feasible::prune;
use super::query::Prepared;
use super::range::Range;
use super::sampler::{pilot_acceptance, Seat, Trials};
use super::tally::Tally;
use super::types::{EquityError, MAX_PLAYERS};
use crate::cards::CardSet;
use crate::holdem::eval::Hand;
use crate::rng::GameRng;

/// The most joint deals of the table players kept (32 bytes each at most).
pub(super) const MAX_TABLE: usize = 1 << 20;

/// The direct sampler of one prepared question.
pub(super) struct Direct {
    n: usize,
    board: Hand,
    /// Board and dead cards.
    used: CardSet,
    missing: usize,
    /// Per player, their pruned range as the trials draw from it.
    seats: Vec<Seat>,
    /// The table players, in the order of `picks`' columns.
    table_players: Vec<usize>,
    /// The others, drawn per trial.
    drawn_players: Vec<usize>,
    /// Per joint deal of the table players: its cards, its combinations
    /// (indices into each table player's seat, `table_players.len()` per
    /// deal) and the cumulative proposal weight.
    cards: Vec<u64>,
    picks: Vec<u16>,
    cumulative: Vec<f64>,
    /// The last deal of positive weight (a draw that rounds up to the
    /// total lands there, never on a deal of weight 0).
    last: usize,
}

/// One player's pruned range as weights by card mask, for `W_j(s)`.
struct Weights {
    masks: Vec<u64>,
    weights: Vec<f64>,
    total: f64,
    /// Weight of the combinations holding each card.
    by_card: [f64; 52],
    /// Weight of the combination of two cards (`by_pair[a * 52 + b]`).
    by_pair: Vec<f64>,
}

impl Weights {
    fn new(r: &Range) -> Weights {
        let mut w = Weights {
            masks: Vec::with_capacity(r.combos.len()),
            weights: Vec::with_capacity(r.combos.len()),
            total: 0.0,
            by_card: [0.0; 52],
            by_pair: vec![0.0; 52 * 52],
        };
        for c in &r.combos {
            let (a, b) = (
                usize::from(c.cards[0].index()),
                usize::from(c.cards[1].index()),
            );
            w.masks.push(c.cards[0].bit() | c.cards[1].bit());
            w.weights.push(c.weight);
            w.total += c.weight;
            w.by_card[a] += c.weight;
            w.by_card[b] += c.weight;
            w.by_pair[a * 52 + b] += c.weight;
            w.by_pair[b * 52 + a] += c.weight;
        }
        w
    }

    /// The weight of the combinations sharing no card with `cards`: by
    /// inclusion and exclusion over the cards, summed directly when that
    /// leaves too little to trust the subtraction.
    fn left_around(&self, cards: u64) -> f64 {
        let mut list = [0usize; 2 * MAX_PLAYERS];
        let mut k = 0;
        let mut rest = cards;
        while rest != 0 {
            list[k] = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            k += 1;
        }
        let mut left = self.total;
        for i in 0..k {
            left -= self.by_card[list[i]];
            for j in i + 1..k {
                left += self.by_pair[list[i] * 52 + list[j]];
            }
        }
        if left > 1e-9 * self.total {
            return left;
        }
        self.masks
            .iter()
            .zip(&self.weights)
            .filter(|&(&m, _)| m & cards == 0)
            .map(|(_, &w)| w)
            .sum()
    }
}

impl Direct {
    /// Prunes the ranges, picks the table players and builds their table.
    pub(super) fn new(p: &Prepared) -> Result<Direct, EquityError> {
        Direct::with_table_limit(p, MAX_TABLE)
    }

    /// [`Direct::new`] with a table of at most `limit` deals (tests use
    /// small limits to leave players out of the table).
    pub(super) fn with_table_limit(p: &Prepared, limit: usize) -> Result<Direct, EquityError> {
        let n = p.players();
        let masks = p.combo_masks();
        let keep = prune(&masks);
        if keep.iter().any(Vec::is_empty) {
            return Err(EquityError::NoDeal);
        }
        let ranges: Vec<Range> = p
            .ranges
            .iter()
            .zip(&keep)
            .map(|(r, k)| Range {
                text: r.text.clone(),
                combos: k.iter().map(|&i| r.combos[i]).collect(),
            })
            .collect();
        // Smallest ranges first (ties in player order).
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| ranges[i].combos.len());
        let mut table_players = Vec::new();
        let mut cards = vec![0u64];
        let mut weight = vec![1.0f64];
        let mut picks: Vec<u16> = Vec::new();
        for &player in &order {
            match extend(
                &ranges[player],
                &cards,
                &weight,
                &picks,
                table_players.len(),
                limit,
            ) {
                Some((c, w, k)) => {
                    (cards, weight, picks) = (c, w, k);
                    table_players.push(player);
                }
                None => break,
            }
        }
        let drawn_players: Vec<usize> = (0..n).filter(|i| !table_players.contains(i)).collect();
        let others: Vec<Weights> = drawn_players
            .iter()
            .map(|&j| Weights::new(&ranges[j]))
            .collect();
        let mut total = 0.0;
        let cumulative: Vec<f64> = cards
            .iter()
            .zip(&weight)
            .map(|(&c, &w)| {
                total += others.iter().fold(w, |acc, o| acc * o.left_around(c));
                total
            })
            .collect();
        if cards.is_empty() || total <= 0.0 {
            return Err(EquityError::NoDeal);
        }
        let last = cumulative.partition_point(|&c| c < total);
        Ok(Direct {
            n,
            board: Hand::from_cards(&p.board),
            used: p.used,
            missing: 5 - p.board.len(),
            seats: ranges.iter().map(Seat::new).collect(),
            table_players,
            drawn_players,
            cards,
            picks,
            cumulative,
            last,
        })
    }

    /// How many players have their joint deals enumerated in the table.
    #[cfg(test)]
    pub(super) fn table_players(&self) -> usize {
        self.table_players.len()
    }

    /// One proposed deal into `hands`: its cards (with the board and dead
    /// cards), or `None` when two drawn players collide.
    #[inline]
    fn propose(&self, rng: &mut GameRng, hands: &mut [Hand; MAX_PLAYERS]) -> Option<CardSet> {
        let total = self.cumulative[self.cumulative.len() - 1];
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        let k = self.cumulative.partition_point(|&c| c <= u).min(self.last);
        let table = self.cards[k];
        let width = self.table_players.len();
        for (i, &p) in self.table_players.iter().enumerate() {
            hands[p] = self.seats[p].combos[usize::from(self.picks[k * width + i])].1;
        }
        let mut cards = table;
        for &j in &self.drawn_players {
            let seat = &self.seats[j];
            // Drawn again until it misses the table's cards: exactly the
            // range conditioned on that (the table's weight made room).
            let (m, h) = loop {
                let (m, h) = seat.combos[seat.draw(rng)];
                if m.0 & table == 0 {
                    break (m, h);
                }
            };
            if m.0 & cards != 0 {
                return None;
            }
            cards |= m.0;
            hands[j] = h;
        }
        Some(CardSet(cards | self.used.0))
    }

    /// The share of proposals that are valid, from [`PILOT_DEALS`] of them
    /// (at least one in `PILOT_DEALS`).
    pub(super) fn acceptance(&self, rng: &mut GameRng) -> f64 {
        pilot_acceptance(rng, |rng, hands| self.propose(rng, hands))
    }

    /// `size` accepted trials, or fewer when `deadline` passes or `cancel`
    /// is set first (as [`super::sampler::Sampler::batch`]).
    pub(super) fn batch(
        &self,
        rng: &mut GameRng,
        size: u64,
        deadline: Option<Instant>,
        cancel: Option<&AtomicBool>,
    ) -> Tally {
        let trials = Trials {
            board: self.board,
            missing: self.missing,
            players: self.n,
            size,
            deadline,
            cancel,
        };
        trials.run(rng, [Hand::EMPTY; MAX_PLAYERS], |rng, hands| {
            self.propose(rng, hands)
        })
    }
}

/// The table extended by one more player (`r`): every valid joint deal
/// times each combination of `r` that fits, or `None` past `limit`
/// deals (`limit`). `width` is the number of players already in it.
#[allow(clippy::type_complexity)]
fn extend(
    r: &Range,
    cards: &[u64],
    weight: &[f64],
    picks: &[u16],
    width: usize,
    limit: usize,
) -> Option<(Vec<u64>, Vec<f64>, Vec<u16>)> {
    let masks: Vec<u64> = r
        .combos
        .iter()
        .map(|c| c.cards[0].bit() | c.cards[1].bit())
        .collect();
    let mut out = (Vec::new(), Vec::new(), Vec::new());
    for (d, (&c, &w)) in cards.iter().zip(weight).enumerate() {
        for (k, (&m, combo)) in masks.iter().zip(&r.combos).enumerate() {
            if m & c != 0 {
                continue;
            }
            if out.0.len() == limit {
                return None;
            }
            out.0.push(c | m);
            out.1.push(w * combo.weight);
            out.2.extend_from_slice(&picks[d * width..(d + 1) * width]);
            out.2.push(k as u16);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::cards::{parse_cards, CardSet};
    use crate::holdem::equity::Query;
    use crate::rng::game_rng;

    fn prepared(players: &[&str], board: &str) -> Prepared {
        Query {
            ranges: players.iter().map(|h| Range::parse(h).unwrap()).collect(),
            board: parse_cards(board).unwrap(),
            dead: CardSet::default(),
        }
        .prepare()
        .unwrap()
    }

    /// The exact probability of every valid deal (keyed by each player's
    /// two cards as one mask), by enumeration.
    fn exact_distribution(p: &Prepared) -> HashMap<Vec<u64>, f64> {
        let mut out = HashMap::new();
        let mut total = 0.0;
        let mut stack = Vec::new();
        p.each_deal(0, p.used, 1.0, &mut stack, &mut |deal, w| {
            let key = deal.iter().map(|c| c[0].bit() | c[1].bit()).collect();
            *out.entry(key).or_insert(0.0) += w;
            total += w;
        });
        out.values_mut().for_each(|v| *v /= total);
        out
    }

    /// The hands of a proposal, as card masks per player.
    fn masks_of(d: &Direct, hands: &[Hand; MAX_PLAYERS]) -> Vec<u64> {
        (0..d.n)
            .map(|p| {
                let seat = &d.seats[p];
                let k = seat
                    .combos
                    .iter()
                    .position(|&(_, h)| h == hands[p])
                    .expect("a hand of the player's range");
                seat.combos[k].0 .0
            })
            .collect()
    }

    /// Accepted deals follow the weighted distribution over valid deals
    /// exactly, whether every player is in the table or only some (the
    /// others drawn around it, collisions rejected): a chi-square over
    /// every valid deal, far under its 0.1% point, and no invalid deal.
    #[test]
    fn accepted_deals_follow_the_weighted_distribution() {
        let cases: [(&[&str], &str); 3] = [
            (
                &[
                    "AsAh,KsKh:0.001,QsQh:0.3",
                    "AsAd,KsKd:0.5,QdQc",
                    "AhKh:0.2,AdKs,QcJc",
                ],
                "",
            ),
            (&["AsAh,KsKh:0.000001", "AsAd,AsAc"], ""),
            (
                &["AA:0.2,KK", "AKs,KQs:0.05", "AA,QQ:0.01", "KQ"],
                "2c 7d 9h",
            ),
        ];
        for (players, board) in cases {
            let p = prepared(players, board);
            let exact = exact_distribution(&p);
            for limit in [1, 4, 40, MAX_TABLE] {
                let Ok(d) = Direct::with_table_limit(&p, limit.max(4)) else {
                    panic!("{players:?}: a valid deal exists");
                };
                if limit == MAX_TABLE {
                    assert_eq!(d.table_players(), p.players(), "{players:?}");
                }
                let mut rng = game_rng(11, limit as u64);
                let mut hands = [Hand::EMPTY; MAX_PLAYERS];
                let mut counts: HashMap<Vec<u64>, u64> = HashMap::new();
                let mut accepted = 0u64;
                while accepted < 200_000 {
                    if let Some(used) = d.propose(&mut rng, &mut hands) {
                        let key = masks_of(&d, &hands);
                        let all = key.iter().fold(p.used.0, |a, &m| {
                            assert_eq!(a & m, 0, "{players:?}: a card dealt twice");
                            a | m
                        });
                        assert_eq!(all, used.0);
                        *counts.entry(key).or_insert(0) += 1;
                        accepted += 1;
                    }
                }
                let n = accepted as f64;
                let mut chi2 = 0.0;
                for (deal, &prob) in &exact {
                    let seen = counts.get(deal).copied().unwrap_or(0) as f64;
                    chi2 += (seen - n * prob).powi(2) / (n * prob);
                }
                for deal in counts.keys() {
                    assert!(
                        exact.contains_key(deal),
                        "{players:?}: drew an invalid deal"
                    );
                }
                // The 0.1% point of chi-square with k - 1 degrees of
                // freedom is under k + 4 sqrt(2k) + 12 for these k.
                let k = exact.len() as f64;
                let bound = k + 4.0 * (2.0 * k).sqrt() + 12.0;
                assert!(
                    chi2 < bound,
                    "{players:?} table limit {limit}: chi-square {chi2:.1} over {k} deals"
                );
            }
        }
    }

    /// Heads-up with all of the weight on deals that collide: every player
    /// fits in the table and no proposal is ever rejected.
    #[test]
    fn a_table_of_every_player_rejects_nothing() {
        let p = prepared(&["AsAh,KsKh:0.000001", "AsAd,AsAc"], "");
        let d = Direct::new(&p).unwrap();
        assert_eq!(d.table_players(), 2);
        assert_eq!(d.acceptance(&mut game_rng(1, 2)), 1.0);
    }
}
