//! Exact showdown counts over every completion of the board, enumerated by
//! rank pattern instead of card by card.
//!
//! Without flushes a hand is worth only its rank counts, so every board with
//! the same ranks gives the same showdown: the boards are enumerated as
//! multisets of ranks, each counted as many times as the remaining deck can
//! deal it (a product of binomials). Flushes are then put right: a player
//! can only make a flush in a suit `s` when the board holds three or more
//! of it, and a five-card board has at most one such suit, so for each suit
//! the boards where someone makes a flush are enumerated with their `s`
//! cards explicit and the other cards again as rank multisets (their suits
//! cannot make a second flush); each such board's true showdown is added and
//! its rank-only showdown subtracted. Preflop heads-up this evaluates about
//! 120 thousand boards instead of 1.7 million.

use crate::cards::Card;
use crate::holdem::eval::{rank_unit, Hand, Strength, Tables};

use super::types::MAX_PLAYERS;

/// Pot shares are counted in units of 1/`UNITS` (signed here).
pub const UNITS: i64 = super::types::UNITS as i64;

/// Showdown counts over boards (signed while corrections are applied; the
/// final counts are never negative).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub wins: [i64; MAX_PLAYERS],
    pub ties: [i64; MAX_PLAYERS],
    /// Pot shares in units of 1/`UNITS`.
    pub shares: [i64; MAX_PLAYERS],
    pub boards: i64,
}

impl Counts {
    /// Adds `weight` boards on which the players have these strengths.
    #[inline]
    fn record(&mut self, strengths: &[Strength], weight: i64) {
        let best = strengths.iter().copied().max().unwrap_or(0);
        let winners = strengths.iter().filter(|&&s| s == best).count() as i64;
        for (i, &s) in strengths.iter().enumerate() {
            if s == best {
                if winners == 1 {
                    self.wins[i] += weight;
                } else {
                    self.ties[i] += weight;
                }
                self.shares[i] += weight * (UNITS / winners);
            }
        }
        self.boards += weight;
    }
}

/// C(n, k) for n <= 4.
const fn choose_small(n: u8, k: u8) -> i64 {
    const T: [[i64; 5]; 5] = [
        [1, 0, 0, 0, 0],
        [1, 1, 0, 0, 0],
        [1, 2, 1, 0, 0],
        [1, 3, 3, 1, 0],
        [1, 4, 6, 4, 1],
    ];
    if k > n {
        0
    } else {
        T[n as usize][k as usize]
    }
}

/// Calls `f(rank_delta, ways)` for every multiset of `k` ranks that `avail`
/// (cards left of each rank) can deal, with the number of ways to deal it.
fn rank_multisets(avail: &[u8; 13], k: u8, f: &mut impl FnMut(u32, i64)) {
    fn go(
        rank: usize,
        left: u8,
        avail: &[u8; 13],
        delta: u32,
        ways: i64,
        f: &mut impl FnMut(u32, i64),
    ) {
        if left == 0 {
            f(delta, ways);
            return;
        }
        if rank == 13 {
            return;
        }
        for m in 0..=left.min(avail[rank]) {
            go(
                rank + 1,
                left - m,
                avail,
                delta + u32::from(m) * rank_unit(rank as u8),
                ways * choose_small(avail[rank], m),
                f,
            );
        }
    }
    go(0, k, avail, 0, 1, f);
}

/// Showdown counts of `holes` (each player's two cards) over every way to
/// complete `board` from `deck` (the cards left, none of them on the board,
/// in a hole or dead).
pub fn enumerate_boards(t: &Tables, holes: &[[Card; 2]], board: &[Card], deck: &[Card]) -> Counts {
    let n = holes.len();
    let k = (5 - board.len()) as u8;
    let board_hand = Hand::from_cards(board);
    let hands: Vec<Hand> = holes
        .iter()
        .map(|h| board_hand.combine(Hand::from_cards(h)))
        .collect();
    let keys: Vec<u32> = hands.iter().map(|h| h.rank_key()).collect();
    let mut counts = Counts::default();
    let mut strengths = [0 as Strength; MAX_PLAYERS];
    if k == 0 {
        for (s, h) in strengths.iter_mut().zip(&hands) {
            *s = t.strength(*h);
        }
        counts.record(&strengths[..n], 1);
        return counts;
    }
    let mut avail = [0u8; 13];
    let mut deck_suit_masks = [0u16; 4];
    for c in deck {
        let (r, s) = (c.index() >> 2, c.index() & 3);
        avail[r as usize] += 1;
        deck_suit_masks[s as usize] |= 1 << r;
    }
    // Every board, flushes ignored.
    rank_multisets(&avail, k, &mut |delta, ways| {
        for (s, key) in strengths.iter_mut().zip(&keys) {
            *s = t.seven_rank_strength(key + delta);
        }
        counts.record(&strengths[..n], ways);
    });
    // Flush corrections, suit by suit.
    let mut rank_only = [0 as Strength; MAX_PLAYERS];
    for suit in 0..4u8 {
        let in_deck = deck_suit_masks[suit as usize];
        let masks: Vec<u16> = hands.iter().map(|h| h.suit_mask(suit)).collect();
        let most = masks.iter().map(|m| m.count_ones()).max().unwrap_or(0) as u8;
        // Cards of other suits left of each rank.
        let mut others = avail;
        for (r, o) in others.iter_mut().enumerate() {
            *o -= ((in_deck >> r) & 1) as u8;
        }
        for j in 0..=k.min(in_deck.count_ones() as u8) {
            if most + j < 5 {
                continue; // nobody reaches five cards of this suit
            }
            // Each way to draw exactly j new cards of this suit.
            let mut sub = in_deck;
            loop {
                if sub.count_ones() == u32::from(j) {
                    let drawn_delta: u32 = (0..13u8)
                        .filter(|r| (sub >> r) & 1 == 1)
                        .map(rank_unit)
                        .sum();
                    let mut flush = [None::<Strength>; MAX_PLAYERS];
                    for (f, m) in flush.iter_mut().zip(&masks) {
                        let all = m | sub;
                        if all.count_ones() >= 5 {
                            *f = Some(t.flush_strength(all));
                        }
                    }
                    rank_multisets(&others, k - j, &mut |delta, ways| {
                        for i in 0..n {
                            let r = t.seven_rank_strength(keys[i] + drawn_delta + delta);
                            rank_only[i] = r;
                            strengths[i] = flush[i].unwrap_or(r);
                        }
                        counts.record(&strengths[..n], ways);
                        counts.record(&rank_only[..n], -ways);
                    });
                }
                if sub == 0 {
                    break;
                }
                sub = (sub - 1) & in_deck;
            }
        }
    }
    counts
}
