//! Oracle tests of the hand evaluator: every 7-card hand against the
//! published category counts, and the fast evaluator against the slow
//! reference on 10^6 random 6-card and 10^6 random 7-card hands.

use cardsim::cards::Card;
use cardsim::holdem::eval::{
    category, for_each_seven_card_strength, reference, tables, Category, Hand,
};
use cardsim::rng::game_rng;
use rand::seq::SliceRandom;

#[test]
fn all_133_784_560_seven_card_hands() {
    let t = tables();
    let mut by_strength = vec![0u64; 7463];
    for_each_seven_card_strength(t, |s| by_strength[s as usize] += 1);
    let mut counts = [0u64; 9];
    for (s, &n) in by_strength.iter().enumerate().skip(1) {
        counts[category(s as u16) as usize] += n;
    }
    assert_eq!(by_strength.iter().sum::<u64>(), 133_784_560);
    assert_eq!(
        counts,
        [
            23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
            224_848, 41_584
        ]
    );
    assert_eq!(by_strength[7462], 4_324, "royal flushes");
    assert_eq!(by_strength.iter().filter(|&&n| n > 0).count(), 4824);
    assert_eq!(category(7462), Category::StraightFlush);
}

#[test]
fn fast_matches_reference_on_a_million_random_six_and_seven_card_hands() {
    let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
    for n in [6usize, 7] {
        let mut rng = game_rng(2026, n as u64);
        for _ in 0..1_000_000 {
            // A partial shuffle is enough to draw n random distinct cards.
            let (cards, _) = deck.partial_shuffle(&mut rng, n);
            let fast = Hand::from_cards(cards).strength();
            assert_eq!(fast, reference::evaluate(cards), "{cards:?}");
        }
    }
}
