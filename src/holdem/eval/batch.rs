//! Many 7-card hands at once: [`strengths_of_sevens`] fills one strength
//! per hand, equal to [`Tables::strength`] of the hand.
//!
//! One hand at a time, the evaluator spends most of its time adding cards
//! (for each card a load of its byte, a load of its key and an add); the
//! lookups after that are two loads. With AVX2, four hands are added at
//! once: one 32-byte load takes their 28 card bytes, two shuffles spread
//! them to one hand per 64-bit lane, byte shuffles map every card to the
//! three bytes of its rank multiplier and to a suit counter, and one sum of
//! absolute differences per lane adds each hand's bytes. The lookups stay
//! scalar. Without AVX2, or off x86-64, hands go one at a time.

use super::{Strength, Tables};
use crate::cards::Card;

/// `out[i]` = the strength of `hands[i]`. Panics if the lengths differ.
pub fn strengths_of_sevens(t: &Tables, hands: &[[Card; 7]], out: &mut [Strength]) {
    assert_eq!(hands.len(), out.len(), "one strength per hand");
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: `avx2::strengths` requires only that the CPU supports
        // AVX2, detected just above.
        unsafe { avx2::strengths(t, hands, out) };
        return;
    }
    one_at_a_time(t, hands, out);
}

/// The plain evaluator, hand by hand: the reference for the batch, and its
/// tail.
pub fn one_at_a_time(t: &Tables, hands: &[[Card; 7]], out: &mut [Strength]) {
    for (h, o) in hands.iter().zip(out) {
        *o = t.strength_of_cards(h);
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{one_at_a_time, Card, Strength, Tables};
    use crate::holdem::eval::RANK_MULTIPLIERS;

    /// A shuffle table (the same in both 128-bit halves): byte `k` of each
    /// rank's multiplier, 0 past the 13 ranks.
    #[target_feature(enable = "avx2")]
    fn multiplier_byte(k: u32) -> __m256i {
        let mut b = [0u8; 16];
        for (r, m) in RANK_MULTIPLIERS.iter().enumerate() {
            b[r] = (m >> (8 * k)) as u8;
        }
        let lo = i64::from_le_bytes(b[..8].try_into().unwrap_or_default());
        let hi = i64::from_le_bytes(b[8..].try_into().unwrap_or_default());
        _mm256_setr_epi64x(lo, hi, lo, hi)
    }

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn strengths(t: &Tables, hands: &[[Card; 7]], out: &mut [Strength]) {
        let bytes = [multiplier_byte(0), multiplier_byte(1), multiplier_byte(2)];
        // Suit counters: suits 0 and 1 count in the low and high nibble of
        // one sum, suits 2 and 3 in another.
        let suits_01 = _mm256_setr_epi64x(0x1001, 0, 0x1001, 0);
        let suits_23 = _mm256_setr_epi64x(0x1001_0000, 0, 0x1001_0000, 0);
        // Dwords 0..4 (hands 0 and 1) to the low half, 3..7 (hands 2 and 3)
        // to the high half; then each hand's 7 bytes to its lane's bytes
        // 0..7, and 0 (control bit 7) to the lane's byte 7.
        let dwords = _mm256_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6);
        let spread = _mm256_setr_epi8(
            0, 1, 2, 3, 4, 5, 6, -128, 7, 8, 9, 10, 11, 12, 13, -128, //
            2, 3, 4, 5, 6, 7, 8, -128, 9, 10, 11, 12, 13, 14, 15, -128,
        );
        // A set bit 7 makes a shuffle give 0: the pad byte of each lane.
        let pad = _mm256_set1_epi64x(i64::MIN);
        let low_nibble = _mm256_set1_epi8(0x0f);
        let low_two = _mm256_set1_epi8(3);
        let zero = _mm256_setzero_si256();
        let bias = _mm256_set1_epi64x(0x3333);
        let top_bits = _mm256_set1_epi64x(0x8888);
        let sum = |table: __m256i, index: __m256i| {
            _mm256_sad_epu8(_mm256_shuffle_epi8(table, index), zero)
        };
        // Four hands are 28 bytes; the load reads 32, so it needs a fifth
        // hand after them: the last 1 to 4 hands go one at a time.
        let batched = hands.len().saturating_sub(1) / 4 * 4;
        for (i, os) in out[..batched].chunks_exact_mut(4).enumerate() {
            let first = &hands[4 * i..4 * i + 5];
            // SAFETY: `first` holds 5 hands of 7 cards, 35 bytes (`Card` is
            // a transparent `u8`), so the 32 bytes from its start are in
            // the slice; `loadu` needs no alignment.
            let raw = unsafe { _mm256_loadu_si256(first.as_ptr().cast()) };
            let cards = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(raw, dwords), spread);
            let ranks = _mm256_or_si256(
                _mm256_and_si256(_mm256_srli_epi16::<2>(cards), low_nibble),
                pad,
            );
            let suits = _mm256_or_si256(_mm256_and_si256(cards, low_two), pad);
            let key = _mm256_add_epi64(
                sum(bytes[0], ranks),
                _mm256_add_epi64(
                    _mm256_slli_epi64::<8>(sum(bytes[1], ranks)),
                    _mm256_slli_epi64::<16>(sum(bytes[2], ranks)),
                ),
            );
            // The four suit counts in nibbles, biased so that 5 or more
            // sets the nibble's top bit.
            let counts = _mm256_add_epi64(
                sum(suits_01, suits),
                _mm256_slli_epi64::<8>(sum(suits_23, suits)),
            );
            let flush = _mm256_and_si256(_mm256_add_epi64(counts, bias), top_bits);
            let lanes = _mm256_or_si256(key, _mm256_slli_epi64::<32>(flush));
            let lane = [
                _mm256_extract_epi64::<0>(lanes) as u64,
                _mm256_extract_epi64::<1>(lanes) as u64,
                _mm256_extract_epi64::<2>(lanes) as u64,
                _mm256_extract_epi64::<3>(lanes) as u64,
            ];
            for ((o, &l), h) in os.iter_mut().zip(&lane).zip(first) {
                *o = if l >> 32 == 0 {
                    t.seven_rank_strength(l as u32)
                } else {
                    t.strength_of_cards(h)
                };
            }
        }
        one_at_a_time(t, &hands[batched..], &mut out[batched..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::eval::tables;
    use crate::rng::game_rng;
    use rand::seq::SliceRandom;

    /// The batch equals the one-at-a-time evaluator on random hands, on
    /// hands of one suit (every one a flush), and for every length up to
    /// 40 (the tail that goes one at a time).
    #[test]
    fn batch_equals_one_at_a_time() {
        let t = tables();
        let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
        let mut rng = game_rng(5, 0);
        let mut hands: Vec<[Card; 7]> = (0..200_000)
            .map(|_| {
                deck.shuffle(&mut rng);
                std::array::from_fn(|i| deck[i])
            })
            .collect();
        let spades: Vec<Card> = (0..13).map(|r| Card::from_index(4 * r + 3)).collect();
        for k in 0..1000 {
            let mut s = spades.clone();
            s.shuffle(&mut rng);
            hands[k * 7] = std::array::from_fn(|i| s[i]);
        }
        for n in (0..40).chain([hands.len()]) {
            let mut fast = vec![0; n];
            let mut slow = vec![0; n];
            strengths_of_sevens(t, &hands[..n], &mut fast);
            one_at_a_time(t, &hands[..n], &mut slow);
            assert_eq!(fast, slow, "{n} hands");
        }
    }
}
