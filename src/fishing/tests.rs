//! The engine against its reference twin, the rules on hand-made deals,
//! and the runner game.

use super::play::{play_checked, play_checking_from};
use super::*;
use crate::rng::game_rng;
use crate::sim::Game;

fn faces(s: &str) -> Vec<Face> {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| {
            if c == 'W' {
                JOKER
            } else {
                b"23456789TJQKA"
                    .iter()
                    .position(|&r| r as char == c)
                    .unwrap() as Face
            }
        })
        .collect()
}

#[test]
fn fast_engine_matches_the_reference_on_random_deals() {
    // The J-on-an-empty-row switch is left out: its deals run past 10^9
    // cards (see `a_card_limit_stops_a_game_as_unresolved`).
    let variants = [
        Rules::default(),
        Rules {
            reverse_captures: true,
            ..Rules::default()
        },
        Rules {
            players: 3,
            ..Rules::default()
        },
    ];
    for rules in variants {
        let game = FishingGame::new(rules);
        let mut d = deck();
        for i in 0..100 {
            let rec = game.play(i, &mut game_rng(7, i), &mut d);
            let (outcome, played) = reference::play(&d, rules);
            assert_eq!(rec.outcome, outcome, "deal {i} {rules:?}");
            assert_eq!(rec.cards_played, played, "deal {i} {rules:?}");
        }
    }
}

#[test]
fn parse_deal_rejects_wrong_decks_by_name() {
    let good: String = deck().iter().map(|&f| face_char(f)).collect();
    assert_eq!(parse_deal(&good).unwrap(), deck());
    let err = parse_deal(&good[1..]).unwrap_err();
    assert_eq!(
        err,
        DealError::Count {
            got: 53,
            expected: 54
        }
    );
    let five_aces = good.replacen('2', "A", 1);
    assert!(parse_deal(&five_aces)
        .unwrap_err()
        .to_string()
        .contains("5 aces"));
    assert!(matches!(parse_deal("A Z"), Err(DealError::BadToken(t)) if t == "Z"));
    let spaced = good.chars().map(|c| format!("{c}s ")).collect::<String>();
    assert!(parse_deal(&spaced.replace("Ws", "W").replace("Ts", "10h")).is_ok());
}

#[test]
fn a_jack_on_an_empty_row_captures_nothing() {
    // P1: J then 3; P2: 4 5. J stays, 4 stays, 3 stays, 5 stays: P1 out.
    let rec = play(&faces("J3 45"), Rules::default(), DEFAULT_CARD_LIMIT).unwrap();
    assert_eq!(rec.outcome, Outcome::Win { winner: 1 });
    assert_eq!(rec.cards_played, 3);
    assert_eq!(rec.captures[..2], [0, 0]);
}

#[test]
fn a_match_captures_from_the_matching_card_and_plays_again() {
    // P1: 5 7 9; P2: 6 5 8. Row 5,6 then... P1 plays 5 (row 5), P2 6
    // (row 5 6), P1 7 (row 5 6 7), P2 5 captures 5 6 7 5 and plays 8.
    let mut t = Table::new(&faces("579 658"), Rules::default()).unwrap();
    for _ in 0..3 {
        assert_eq!(t.step(), Step::Placed);
    }
    assert_eq!(
        t.step(),
        Step::Captured {
            cards: 4,
            jack: false
        }
    );
    assert_eq!(t.mover(), 1);
    assert_eq!(t.pile(1), faces("85675"));
    assert!(t.row().is_empty());
}

#[test]
fn a_partial_match_leaves_the_start_of_the_row() {
    // Row 2 3 4 9, then 3 captures 3 4 9 3 and leaves 2.
    let mut t = Table::new(&faces("243 398"), Rules::default()).unwrap();
    t.step(); // P1 2
    t.step(); // P2 3
    t.step(); // P1 4
    t.step(); // P2 9
    assert_eq!(
        t.step(),
        Step::Captured {
            cards: 4,
            jack: false
        }
    );
    assert_eq!(t.row(), faces("2").as_slice());
}

#[test]
fn a_jack_captures_the_whole_row() {
    let mut t = Table::new(&faces("4J 56"), Rules::default()).unwrap();
    t.step(); // 4
    t.step(); // 5
    assert_eq!(
        t.step(),
        Step::Captured {
            cards: 3,
            jack: true
        }
    );
    assert_eq!(t.pile(0), faces("45J"));
    let rev = Rules {
        reverse_captures: true,
        ..Rules::default()
    };
    let mut t = Table::new(&faces("4J 56"), rev).unwrap();
    t.step();
    t.step();
    t.step();
    assert_eq!(t.pile(0), faces("J54"));
}

#[test]
fn capturing_with_the_last_card_keeps_the_player_in() {
    // P1 has one card left, a 5, and captures with it: still in the game.
    let mut t = Table::new(&faces("75 58"), Rules::default()).unwrap();
    t.step(); // P1 7
    t.step(); // P2 5
    let step = t.step(); // P1 5: captures 5 5 with its last card
    assert_eq!(
        step,
        Step::Captured {
            cards: 2,
            jack: false
        }
    );
    assert_eq!(t.pile_len(0), 2);
    assert_eq!(t.mover(), 0);
}

#[test]
fn a_constructed_cyclic_deal_is_a_draw() {
    // P1: 2 2, P2: 2. P1 plays 2; P2 captures it with its 2 and plays
    // that 2 again; P1 captures with its last 2 and leads a 2 again: the
    // position after the first card comes back every 4 cards.
    let deal = faces("22 2");
    let rec = play(&deal, Rules::default(), DEFAULT_CARD_LIMIT).unwrap();
    let (outcome, played) = reference::play(&deal, Rules::default());
    assert_eq!(rec.outcome, outcome);
    assert_eq!(rec.cards_played, played);
    assert!(matches!(rec.outcome, Outcome::Cycle { .. }), "{rec:?}");
}

#[test]
fn checking_from_a_threshold_gives_the_checked_engine_record() {
    // The J-on-an-empty-row switch makes many cycles (and many games
    // that run to the limit); every threshold, below, inside and past
    // the cycles, must give the record of the engine checking from the
    // first card, field for field.
    let rules = Rules {
        jack_captures_empty_row: true,
        ..Rules::default()
    };
    let game = FishingGame::new(rules);
    let limit = 20_000;
    // Games of seed 11 that cycle within 20,000 cards (found with
    // `cardsim fishing --seed 11 --jack-captures-empty-row`), then the
    // first 40 games of the run, most of which reach the limit.
    let cycling = [
        4392, 19435, 14728, 2293, 7121, 6555, 5670, 13002, 4407, 19916, 11610,
    ];
    let mut cycles = 0;
    for i in cycling.into_iter().chain(0..40) {
        let d = game.deal_of(11, i);
        let table = Table::new(&d, rules).unwrap();
        let checked = play_checked(table.clone(), limit);
        cycles += usize::from(matches!(checked.outcome, Outcome::Cycle { .. }));
        for from in [
            0,
            1,
            37,
            400,
            1_500,
            5_000,
            limit - 1,
            limit,
            CHECK_FROM_CARD,
        ] {
            let fast = play_checking_from(table.clone(), limit, from);
            assert_eq!(fast, checked, "game {i}, checking from card {from}");
        }
        assert_eq!(play(&d, rules, limit).unwrap(), checked, "game {i}");
    }
    assert!(
        cycles >= cycling.len(),
        "{cycles} cycles: the test needs cycling deals"
    );
}

#[test]
fn a_card_limit_stops_a_game_as_unresolved() {
    let rules = Rules {
        jack_captures_empty_row: true,
        ..Rules::default()
    };
    let game = FishingGame {
        rules,
        limit: 100_000,
    };
    let mut d = deck();
    let rec = game.play(0, &mut game_rng(7, 0), &mut d);
    assert_eq!(rec.outcome, Outcome::Unresolved);
    assert_eq!(rec.cards_played, 100_000);
    // The same deal under a limit it cannot reach is not cut short by it.
    let short = play(&d, Rules::default(), 100_000).unwrap();
    let long = play(&d, Rules::default(), u64::MAX).unwrap();
    assert_eq!(short, long);
}

#[test]
fn a_jack_on_an_empty_row_can_capture_itself_under_the_switch() {
    let rules = Rules {
        jack_captures_empty_row: true,
        ..Rules::default()
    };
    let mut t = Table::new(&faces("J3 45"), rules).unwrap();
    assert_eq!(
        t.step(),
        Step::Captured {
            cards: 1,
            jack: true
        }
    );
    assert_eq!(t.pile(0), faces("3J"));
    assert_eq!(t.mover(), 0);
}

#[test]
fn a_game_does_not_depend_on_the_one_before() {
    let game = FishingGame::new(Rules::default());
    let mut used = game.new_scratch();
    for i in 0..20 {
        let a = game.play(i, &mut game_rng(3, i), &mut used);
        let b = game.play(i, &mut game_rng(3, i), &mut game.new_scratch());
        assert_eq!(a, b, "game {i}");
    }
}
