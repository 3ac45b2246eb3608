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
//! - a flush needs five cards of one suit, so whether the cards still to
//!   come can make one is decided once per prefix, not tested per hand:
//!   after five cards with no suit above two (about 63% of five-card
//!   prefixes) no two more cards make a flush, and after six cards with no
//!   suit above three none of the seventh cards does. Those hands need the
//!   rank lookup alone;
//! - after such a five-card prefix, the last two levels are one loop over a
//!   table of the pairs of cards that follow it ([`PAIRS`], in the order
//!   the two loops would visit them), two hands an iteration: no
//!   per-sixth-card loop set-up.
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
static PAIRS: [u64; 1326] = {
    let mut pairs = [0; 1326];
    let (mut g, mut at) = (0, 0);
    while g < 52 {
        let mut h = g + 1;
        while h < 52 {
            pairs[at] = CARD_BITS[g] + CARD_BITS[h];
            at += 1;
            h += 1;
        }
        g += 1;
    }
    pairs
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
                        if (ke + ONE_PER_SUIT) & FLUSH_BITS == 0 {
                            // No suit has three of the five cards: no two
                            // more make a flush, and the last two levels
                            // are one loop over the pairs that follow.
                            // Two hands an iteration halves the loop's
                            // own instructions.
                            let look = |pair: u64| t.seven_rank_strength((ke + pair) as u32);
                            let mut twos = PAIRS[PAIR_START[e + 1]..].chunks_exact(2);
                            for two in &mut twos {
                                f(look(two[0]));
                                f(look(two[1]));
                            }
                            twos.remainder().iter().for_each(|&pair| f(look(pair)));
                            continue;
                        }
                        for g in e + 1..52 {
                            let kg = ke + key(g);
                            if kg & FLUSH_BITS == 0 {
                                // No suit has four of the six cards.
                                for &k in &CARD_BITS[g + 1..52] {
                                    f(t.seven_rank_strength((kg + k) as u32));
                                }
                            } else {
                                let six = Hand {
                                    key: kg - ONE_PER_SUIT,
                                    suits: [a, b, c, d, e, g]
                                        .iter()
                                        .fold(0, |s, &i| s | CARD_BITS[256 + i]),
                                };
                                sevenths_with_flushes(t, six, g + 1, &mut f);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The seventh cards `first..52` after six cards `six` of which four or
/// more share a suit: with five or more, every hand is a flush of that
/// suit; with four, the hands whose seventh card is of that suit are, and
/// the others are not flushes at all (no other suit can reach five). Out of
/// line, so that the common loop above keeps its registers.
#[inline(never)]
fn sevenths_with_flushes(t: &Tables, six: Hand, first: usize, f: &mut impl FnMut(Strength)) {
    let fours = (six.key + ONE_PER_SUIT) & FLUSH_BITS;
    let suit = (fours.trailing_zeros() - SUIT_SHIFT - 3) as usize / 4;
    let mask = six.suit_mask(suit as u8);
    if six.key & FLUSH_BITS != 0 {
        // Five or six of the suit already.
        for i in first..52 {
            f(t.flush_strength(mask | u16::from(i & 3 == suit) << (i >> 2)));
        }
        return;
    }
    // Cards are numbered 4 * rank + suit: the rest of the first card's
    // rank one at a time, then whole ranks with the suit fixed at compile
    // time, so that which card flushes needs no test.
    let whole = first.next_multiple_of(4);
    for (i, &k) in CARD_BITS.iter().enumerate().take(whole.min(52)).skip(first) {
        f(if i & 3 == suit {
            t.flush_strength(mask | 1 << (i >> 2))
        } else {
            t.seven_rank_strength((six.key + k) as u32)
        });
    }
    let ranks = whole / 4..13;
    match suit {
        0 => by_rank::<0>(t, six.key, mask, ranks, f),
        1 => by_rank::<1>(t, six.key, mask, ranks, f),
        2 => by_rank::<2>(t, six.key, mask, ranks, f),
        _ => by_rank::<3>(t, six.key, mask, ranks, f),
    }
}

/// The seventh cards of `ranks`, four a rank, after six cards with key
/// `key` holding four cards of `SUIT` (rank mask `mask`): the card of
/// `SUIT` makes a flush, the other three are looked up by rank.
#[inline(always)]
fn by_rank<const SUIT: usize>(
    t: &Tables,
    key: u64,
    mask: u16,
    ranks: std::ops::Range<usize>,
    f: &mut impl FnMut(Strength),
) {
    for rank in ranks {
        for suit in 0..4 {
            f(if suit == SUIT {
                t.flush_strength(mask | 1 << rank)
            } else {
                t.seven_rank_strength((key + CARD_BITS[4 * rank + suit]) as u32)
            });
        }
    }
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
