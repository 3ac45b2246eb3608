//! Plays random hold'em hands through the table engine (random stacks,
//! blinds, antes; uniformly random legal actions with many all-ins) and
//! prints one JSON object per hand: the table, the cards, every action and
//! the finishing stacks. `scripts/pokerkit_check.py` replays them in
//! PokerKit and compares the stacks.
//!
//! `cargo run --release --example holdem_random_hands -- HANDS [SEED] [pokerkit]`
//! (`pokerkit`: PokerKit's switches, odd chips to the first winner and a
//! short big blind matched only as posted).

use cardsim::cards::Card;
use cardsim::holdem::table::pots::OddChips;
use cardsim::holdem::table::{Action, Config, HandState, ShortBigBlind};
use cardsim::rng::game_rng;
use rand::seq::SliceRandom;
use rand::RngExt;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let hands: u64 = args.first().map_or(Ok(1000), |s| s.parse()).expect("HANDS");
    let seed: u64 = args.get(1).map_or(Ok(1), |s| s.parse()).expect("SEED");
    let pokerkit = args.get(2).is_some_and(|s| s == "pokerkit");
    for g in 0..hands {
        let mut rng = game_rng(seed, g);
        let n = rng.random_range(2..=9usize);
        let bb = rng.random_range(2..=20u64);
        let config = Config {
            stacks: (0..n).map(|_| rng.random_range(1..=40 * bb)).collect(),
            button: rng.random_range(0..n),
            small_blind: bb / 2,
            big_blind: bb,
            ante: if rng.random_bool(0.3) {
                rng.random_range(1..=bb / 2)
            } else {
                0
            },
            odd_chips: if pokerkit {
                OddChips::FirstWinner
            } else {
                OddChips::LeftOfButton
            },
            short_big_blind: if pokerkit {
                ShortBigBlind::Posted
            } else {
                ShortBigBlind::FullBlind
            },
        };
        let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
        deck.shuffle(&mut rng);
        let mut h = HandState::new(config.clone(), &deck).expect("a valid random table");
        while let Some(legal) = h.legal() {
            let mut options = Vec::new();
            if legal.can_fold {
                options.push(Action::Fold);
            }
            if legal.can_check {
                options.push(Action::Check);
            }
            if legal.call.is_some() {
                options.push(Action::Call);
                options.push(Action::Call);
            }
            if let Some((lo, hi)) = legal.raise {
                let to = if rng.random_bool(0.3) {
                    hi
                } else {
                    rng.random_range(lo..=hi)
                };
                options.push(Action::RaiseTo(to));
            }
            let a = options[rng.random_range(0..options.len())];
            h.apply(a).expect("a legal action");
        }
        let holes: Vec<String> = h
            .seats()
            .iter()
            .map(|s| format!("{}{}", s.hole[0], s.hole[1]))
            .collect();
        let board: Vec<String> = deck[2 * n..2 * n + 5]
            .iter()
            .map(|c| c.to_string())
            .collect();
        let actions: Vec<serde_json::Value> = h
            .history()
            .iter()
            .map(|&(seat, a)| {
                let (kind, to) = match a {
                    Action::Fold => ("f", 0),
                    Action::Check | Action::Call => ("cc", 0),
                    Action::RaiseTo(to) => ("cbr", to),
                };
                serde_json::json!([seat, kind, to])
            })
            .collect();
        let v = serde_json::json!({
            "hand": g,
            "stacks": config.stacks,
            "button": config.button,
            "small_blind": config.small_blind,
            "big_blind": config.big_blind,
            "ante": config.ante,
            "holes": holes,
            "board": board,
            "actions": actions,
            "final": h.seats().iter().map(|s| s.stack).collect::<Vec<_>>(),
        });
        println!("{v}");
    }
}
