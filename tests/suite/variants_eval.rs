//! The Omaha and short-deck evaluators against PokerKit's on random hands:
//! `tests/fixtures/variants/pokerkit_hands.txt` holds 1,500 hands of each
//! of PLO4, PLO5, PLO6 and short deck with the index of PokerKit's lookup
//! entry for each (written by `scripts/pokerkit_variants.py`, PokerKit
//! 0.7.7). PokerKit numbers the 7,462 hold'em classes and the 1,404
//! short-deck classes from 0 in the same order as cardsim from 1, so each
//! strength must be its index plus one.

use cardsim::cards::parse_cards;
use cardsim::holdem::{omaha, shortdeck};

const FIXTURE: &str = include_str!("../fixtures/variants/pokerkit_hands.txt");

#[test]
fn omaha_and_short_deck_strengths_are_pokerkits() {
    let mut seen = std::collections::BTreeMap::new();
    for line in FIXTURE.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [game, hole, board, index] = f[..] else {
            panic!("bad line {line}")
        };
        let hole = parse_cards(hole).unwrap();
        let board = parse_cards(board).unwrap();
        let index: u16 = index.parse().unwrap();
        let ours = if game == "shortdeck" {
            let cards: Vec<_> = hole.iter().chain(&board).copied().collect();
            assert!(shortdeck::all_short(&cards));
            assert_eq!(
                shortdeck::evaluate(&cards),
                shortdeck::reference::evaluate(&cards)
            );
            shortdeck::evaluate(&cards)
        } else {
            assert_eq!(hole.len(), game[3..].parse::<usize>().unwrap());
            omaha::evaluate(&hole, &board).unwrap()
        };
        assert_eq!(ours, index + 1, "{line}");
        *seen.entry(game).or_insert(0) += 1;
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        [
            ("plo4", 1500),
            ("plo5", 1500),
            ("plo6", 1500),
            ("shortdeck", 1500)
        ]
    );
}
