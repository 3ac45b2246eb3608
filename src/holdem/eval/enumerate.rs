//! Every 7-card hand in order: the loop behind
//! [`super::for_each_seven_card_strength`].
//!
//! Nested loops add one card's key per level and look each 7-card hand up
//! on its own (one rank-key lookup, or a flush lookup), as a plain nested
//! loop does; three things keep the loops short:
//! - a level carries only its key (one general register), not the suit
//!   masks: with both, six levels' state and counters do not fit in the
//!   registers and spill to the stack. The suit masks, which only a flush
//!   needs, are rebuilt from the card indices on the path that needs them;
//! - the last two levels are one loop over a table of the pairs of cards
//!   that follow a five-card prefix ([`PAIRS`], in the order the two loops
//!   would visit them), two hands an iteration: no per-sixth-card loop
//!   set-up;
//! - a flush needs five cards of one suit, so which pairs can make one is
//!   decided once per five-card prefix, not tested per hand. With no suit
//!   above two (about 63% of prefixes) none can. With one suit at exactly
//!   three (about 33%), only the pairs of two more cards of it can: the
//!   prefix's pairs are runs that need the rank lookup alone, split at
//!   those pairs ([`SUITED`]). Only with four or five of a suit is each
//!   hand tested.
//!
//! The test below holds the walk equal, hand by hand in order, to plain
//! nested loops that look every hand up with [`Tables::strength`].

use super::{Hand, Strength, Tables, CARD_BITS, FLUSH_BITS, KEY_BIAS, SUIT_SHIFT};

/// Added to a key, carries a suit's counter into its flush bit when the
/// suit has four cards or more (the counters start at 3, and the flush bit
/// is the counter's 8): "can one more card make a flush?".
const ONE_PER_SUIT: u64 = 0x1111 << SUIT_SHIFT;

/// Every pair of cards `(g, h)`, `g < h`, in lexicographic order: the sum
/// of their keys. The pairs that follow a five-card prefix ending in card
/// `e` are the suffix from [`PAIR_START`]`[e + 1]`, in the order the two
/// innermost loops would visit them.
static PAIRS: [u64; 1326] = pair_sums(0);

/// The suit masks of the pairs of [`PAIRS`], in the same order (two
/// distinct cards have distinct suit-mask bits, so their sum is their
/// union).
static PAIR_SUITS: [u64; 1326] = pair_sums(256);

/// `CARD_BITS[from + g] + CARD_BITS[from + h]` for every pair `g < h`, in
/// lexicographic order.
const fn pair_sums(from: usize) -> [u64; 1326] {
    let mut pairs = [0; 1326];
    let (mut g, mut at) = (0, 0);
    while g < 52 {
        let mut h = g + 1;
        while h < 52 {
            pairs[at] = CARD_BITS[from + g] + CARD_BITS[from + h];
            at += 1;
            h += 1;
        }
        g += 1;
    }
    pairs
}

/// For each suit, the indices in [`PAIRS`] of the 78 pairs of two cards
/// of that suit, in increasing order.
static SUITED: [[u16; 78]; 4] = {
    let mut suited = [[0; 78]; 4];
    let mut suit = 0;
    while suit < 4 {
        let (mut g, mut at, mut n) = (0, 0, 0);
        while g < 52 {
            let mut h = g + 1;
            while h < 52 {
                if g % 4 == suit && h % 4 == suit {
                    suited[suit][n] = at as u16;
                    n += 1;
                }
                at += 1;
                h += 1;
            }
            g += 1;
        }
        suit += 1;
    }
    suited
};

/// Where the pairs whose first card is `g` start in [`PAIRS`] (53 entries,
/// the last one the end).
static PAIR_START: [usize; 53] = {
    let mut start = [0; 53];
    let mut g = 0;
    while g < 52 {
        start[g + 1] = start[g] + (51 - g);
        g += 1;
    }
    start
};

/// Calls `f` with the strength of each 7-card hand in lexicographic order
/// of card indices.
#[inline]
pub(super) fn walk(t: &Tables, mut f: impl FnMut(Strength)) {
    let key = |i: usize| CARD_BITS[i];
    for a in 0..52 {
        // One more in every suit's counter than a hand's key has, so that
        // a six-card key has its flush bit set exactly when one more card
        // could make a flush, and a five-card key plus one more per suit
        // when two more could (see `ONE_PER_SUIT`): each test is one
        // mask. The rank key, in the low bits, is the hand's own.
        let ka = KEY_BIAS + ONE_PER_SUIT + key(a);
        for b in a + 1..52 {
            let kb = ka + key(b);
            for c in b + 1..52 {
                let kc = kb + key(c);
                for d in c + 1..52 {
                    let kd = kc + key(d);
                    for e in d + 1..52 {
                        let ke = kd + key(e);
                        let from = PAIR_START[e + 1];
                        if (ke + ONE_PER_SUIT) & FLUSH_BITS == 0 {
                            // No suit has three of the five cards: no two
                            // more make a flush, and the last two levels
                            // are one loop over the pairs that follow.
                            rank_only(t, ke, &PAIRS[from..], &mut f);
                            continue;
                        }
                        let suits = [a, b, c, d, e]
                            .iter()
                            .fold(0, |s, &i| s | CARD_BITS[256 + i]);
                        if ke & FLUSH_BITS == 0 {
                            // One suit has exactly three of the five cards
                            // (two such suits would take six): a pair
                            // makes a flush when both its cards are of
                            // that suit. Those pairs are the suit's
                            // entries in `SUITED`; the runs of pairs
                            // between them need the rank lookup alone.
                            let three = (ke + ONE_PER_SUIT) & FLUSH_BITS;
                            let suit = (three.trailing_zeros() - SUIT_SHIFT - 3) as usize / 4;
                            let mask = (suits >> (16 * suit)) as u16;
                            let suited = &SUITED[suit];
                            let mut at = from;
                            for &pair in
                                &suited[suited.partition_point(|&p| usize::from(p) < from)..]
                            {
                                let pair = usize::from(pair);
                                rank_only(t, ke, &PAIRS[at..pair], &mut f);
                                let pair_mask = (PAIR_SUITS[pair] >> (16 * suit)) as u16;
                                f(t.flush_strength(mask | pair_mask));
                                at = pair + 1;
                            }
                            rank_only(t, ke, &PAIRS[at..], &mut f);
                            continue;
                        }
                        // A suit has four or five of the five cards: most
                        // pairs make a flush, and each hand is tested (its
                        // key's flush bits, as `Tables::strength` tests
                        // them).
                        let five = Hand {
                            key: ke - ONE_PER_SUIT,
                            suits,
                        };
                        for (&pair, &pair_suits) in PAIRS[from..].iter().zip(&PAIR_SUITS[from..]) {
                            let key = five.key + pair;
                            f(if key & FLUSH_BITS == 0 {
                                t.seven_rank_strength(key as u32)
                            } else {
                                flush(t, key, five.suits | pair_suits)
                            });
                        }
                    }
                }
            }
        }
    }
}

/// The hands of five cards with key `five` (either bias) and each pair of
/// `pairs`, none of them a flush: the rank lookup alone, two hands an
/// iteration (which halves the loop's own instructions).
#[inline(always)]
fn rank_only(t: &Tables, five: u64, pairs: &[u64], f: &mut impl FnMut(Strength)) {
    let look = |pair: u64| t.seven_rank_strength((five + pair) as u32);
    let mut twos = pairs.chunks_exact(2);
    for two in &mut twos {
        f(look(two[0]));
        f(look(two[1]));
    }
    twos.remainder().iter().for_each(|&pair| f(look(pair)));
}

/// The flush of a 7-card hand whose key `key` has a flush bit, with suit
/// masks `suits`. Out of line: inlined, the compiler shares the final
/// load between it and the rank lookup, and the common path pays for it.
#[inline(never)]
fn flush(t: &Tables, key: u64, suits: u64) -> Strength {
    let suit = ((key & FLUSH_BITS).trailing_zeros() - SUIT_SHIFT - 3) / 4;
    t.flush_strength((suits >> (16 * suit)) as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;
    use crate::holdem::eval::tables;

    /// The walk calls `f` with the same strengths in the same order as
    /// plain nested loops that build each hand card by card and look it up
    /// with [`Tables::strength`] (a position-weighted checksum over all
    /// 133,784,560 hands, and the count).
    #[test]
    fn the_walk_equals_plain_nested_loops() {
        let t = tables();
        let (mut n, mut sum) = (0u64, 0u64);
        walk(t, |s| {
            n += 1;
            sum = sum.wrapping_mul(31).wrapping_add(u64::from(s));
        });
        let (mut plain_n, mut plain_sum) = (0u64, 0u64);
        let card = |i: u8| Card::from_index(i);
        for a in 0..52 {
            let ha = Hand::EMPTY.with(card(a));
            for b in a + 1..52 {
                let hb = ha.with(card(b));
                for c in b + 1..52 {
                    let hc = hb.with(card(c));
                    for d in c + 1..52 {
                        let hd = hc.with(card(d));
                        for e in d + 1..52 {
                            let he = hd.with(card(e));
                            for g in e + 1..52 {
                                let hg = he.with(card(g));
                                for h in g + 1..52 {
                                    let s = t.strength(hg.with(card(h)));
                                    plain_n += 1;
                                    plain_sum =
                                        plain_sum.wrapping_mul(31).wrapping_add(u64::from(s));
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(n, 133_784_560);
        assert_eq!((n, sum), (plain_n, plain_sum));
    }
}
