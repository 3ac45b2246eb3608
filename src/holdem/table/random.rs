//! Random hands for testing the engine against other engines: random
//! tables (2 to 9 seats, stacks, blinds, antes) played with uniformly random
//! legal actions (many all-ins), and their record as JSON, which
//! `scripts/pokerkit_check.py` replays in PokerKit.

use rand::seq::SliceRandom;
use rand::RngExt;

use super::pots::OddChips;
use super::{Action, Betting, Config, HandState, ShortBigBlind};
use crate::cards::Card;
use crate::holdem::variant::Game;
use crate::rng::GameRng;

/// A random table for property tests: 2 to 10 seats, stacks of 1 to
/// `max_stack` chips, a big blind of 1 to 20, a small blind of 0 to the big
/// blind, an ante of 0 to 3, and each switch (the betting structure too)
/// either way.
pub fn random_config(rng: &mut GameRng, max_stack: u64) -> Config {
    let n = rng.random_range(2..=10usize);
    let bb = rng.random_range(1..=20u64);
    Config {
        stacks: (0..n).map(|_| rng.random_range(1..=max_stack)).collect(),
        button: rng.random_range(0..n),
        small_blind: rng.random_range(0..=bb),
        big_blind: bb,
        ante: rng.random_range(0..=3u64),
        ante_trimming: true,
        odd_chips: if rng.random_bool(0.5) {
            OddChips::LeftOfButton
        } else {
            OddChips::FirstWinner
        },
        short_big_blind: if rng.random_bool(0.5) {
            ShortBigBlind::FullBlind
        } else {
            ShortBigBlind::Posted
        },
        betting: if rng.random_bool(0.5) {
            Betting::NoLimit
        } else {
            Betting::PotLimit
        },
        game: Game::Holdem,
    }
}

/// Plays one random hand to the end; returns it with the deck it used.
/// `pokerkit` selects PokerKit's switches.
pub fn play_random_hand(rng: &mut GameRng, pokerkit: bool) -> (HandState, Vec<Card>) {
    play_random_game_hand(rng, Game::Holdem, pokerkit)
}

/// A random hand of `game` at a random table of 2 to 9 seats (fewer when
/// the deck serves fewer), as [`play_random_hand`] plays hold'em, under
/// the betting structure PHH's code for the game implies (pot-limit
/// Omaha, no-limit short deck). `pokerkit` selects PokerKit's switches.
pub fn play_random_game_hand(
    rng: &mut GameRng,
    game: Game,
    pokerkit: bool,
) -> (HandState, Vec<Card>) {
    let most = (game.deck().len() as usize - 5) / game.hole_cards();
    let n = rng.random_range(2..=most.min(9));
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
        ante_trimming: true,
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
        betting: if game.is_omaha() {
            Betting::PotLimit
        } else {
            Betting::NoLimit
        },
        game,
    };
    play_random_actions(config, rng)
}

/// Deals a shuffled deck at `config`'s table and plays random legal actions
/// to the end (a call twice as likely as the other choices, a raise all-in
/// three times in ten); returns the hand with the deck it used.
pub fn play_random_actions(config: Config, rng: &mut GameRng) -> (HandState, Vec<Card>) {
    let mut deck: Vec<Card> = config.game.deck().to_vec();
    deck.shuffle(rng);
    let mut h = HandState::new(config, &deck).expect("a valid random table");
    while let Some(legal) = h.legal() {
        let mut options = Vec::new();
        if legal.can_fold {
            options.push(Action::Fold);
        }
        if legal.can_check {
            options.push(Action::Check);
        }
        if legal.call.is_some() {
            options.extend([Action::Call, Action::Call]);
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
    (h, deck)
}

/// A finished hand as one JSON object: the table, the cards (holes by seat,
/// the five board cards in dealing order), every action as `[seat, "f" |
/// "cc" | "cbr", raise_to]`, and the finishing stacks.
pub fn hand_record(h: &HandState, deck: &[Card], index: u64) -> serde_json::Value {
    let c = h.config();
    let n = c.stacks.len();
    let holes: Vec<String> = h
        .seats()
        .iter()
        .map(|s| s.hole.iter().map(|c| c.to_string()).collect())
        .collect();
    let b = c.game.hole_cards() * n;
    let board: Vec<String> = deck[b..b + 5].iter().map(|c| c.to_string()).collect();
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
    serde_json::json!({
        "hand": index,
        "stacks": c.stacks,
        "button": c.button,
        "small_blind": c.small_blind,
        "big_blind": c.big_blind,
        "ante": c.ante,
        "holes": holes,
        "board": board,
        "actions": actions,
        "final": h.seats().iter().map(|s| s.stack).collect::<Vec<_>>(),
    })
}
