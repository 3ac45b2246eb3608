use rand::seq::SliceRandom;
use rand::RngExt;

use super::*;
use crate::cards::deck;
use crate::rng::game_rng;

/// A random table of 2 to 5 seats on a turn board: the hole cards, the
/// board, and who is live (at least two).
fn random_turn(rng: &mut GameRng) -> (Vec<[Card; 2]>, Vec<Card>, Vec<bool>) {
    let n = rng.random_range(2..=5);
    let mut cards = deck::standard52();
    cards.shuffle(rng);
    let holes = (0..n).map(|s| [cards[2 * s], cards[2 * s + 1]]).collect();
    let board = cards[2 * n..2 * n + 4].to_vec();
    let mut live: Vec<bool> = (0..n).map(|_| rng.random_bool(0.7)).collect();
    live[0] = true;
    live[1] = true;
    (holes, board, live)
}

#[test]
fn the_river_strengths_give_every_count_its_values_to_the_bit() {
    // Counts of the river cards on a turn board, from the strengths held
    // and counted afresh, for the seats counted and for fewer (a seat has
    // folded since), with side pots: the same values, bit for bit.
    let mut rng = game_rng(26, 0);
    for _ in 0..300 {
        let (holes, board, live) = random_turn(&mut rng);
        let rivers = RiverStrengths::new(&holes, &board, &live);
        let mut fewer = live.clone();
        let last = live.iter().rposition(|&l| l).expect("live seats");
        if last > 1 && rng.random_bool(0.5) {
            fewer[last] = false;
        }
        let chips: Vec<Vec<u64>> = (0..3)
            .map(|_| holes.iter().map(|_| rng.random_range(1..60)).collect())
            .collect();
        let moments = [
            Chips {
                contributed: &chips[0],
                live: &live,
            },
            Chips {
                contributed: &chips[1],
                live: &fewer,
            },
            Chips {
                contributed: &chips[2],
                live: &live,
            },
        ];
        let mut a = game_rng(1, 1);
        let mut b = game_rng(1, 1);
        let held = expected_payouts(&holes, &board, &moments, 50, &rivers, &mut a);
        let fresh = expected_payouts(
            &holes,
            &board,
            &moments,
            50,
            &RiverStrengths::none(),
            &mut b,
        );
        assert_eq!(held.1, fresh.1);
        for (x, y) in held.0.iter().zip(&fresh.0) {
            assert_eq!(x.map(f64::to_bits), y.map(f64::to_bits));
        }
    }
}

#[test]
fn the_river_strengths_serve_only_their_own_turn_and_seats() {
    let mut rng = game_rng(26, 1);
    let (holes, board, live) = random_turn(&mut rng);
    let rivers = RiverStrengths::new(&holes, &board, &live);
    let (cards, strength) = rivers.of(&holes, &board, &live).expect("its own");
    assert_eq!(cards.len(), 52 - 2 * holes.len() - 4);
    assert_eq!(strength.len(), cards.len());
    // Each strength is the seat's 7-card hand's.
    for (&river, row) in cards.iter().zip(strength) {
        for s in (0..holes.len()).filter(|&s| live[s]) {
            let mut seven = board.clone();
            seven.extend(holes[s]);
            seven.push(river);
            assert_eq!(row[s], Hand::from_cards(&seven).strength());
        }
    }
    // Another board, other hole cards, or a seat not counted: none.
    let mut other = board.clone();
    other[3] = cards[0];
    assert!(rivers.of(&holes, &other, &live).is_none());
    assert!(rivers.of(&holes, &board[..3], &live).is_none());
    let mut swapped = holes.clone();
    swapped[0].swap(0, 1);
    assert!(rivers.of(&swapped, &board, &live).is_none());
    let all = vec![true; holes.len()];
    assert_eq!(rivers.of(&holes, &board, &all).is_some(), live == all);
    assert!(RiverStrengths::none().of(&holes, &board, &live).is_none());
}

#[test]
fn too_few_trials_to_count_the_rivers_sample_as_before() {
    // With fewer trials than river cards the count is sampled, from the
    // generator, whether or not the strengths are held.
    let mut rng = game_rng(26, 2);
    let (holes, board, live) = random_turn(&mut rng);
    let rivers = RiverStrengths::new(&holes, &board, &live);
    let chips: Vec<u64> = holes.iter().map(|_| 10).collect();
    let moments = [Chips {
        contributed: &chips,
        live: &live,
    }];
    let mut a = game_rng(2, 2);
    let mut b = game_rng(2, 2);
    let held = expected_payouts(&holes, &board, &moments, 10, &rivers, &mut a);
    let none = RiverStrengths::none();
    let fresh = expected_payouts(&holes, &board, &moments, 10, &none, &mut b);
    assert!(!held.1);
    assert_eq!(held, fresh);
}
