//! Plays random hold'em hands through the table engine (random tables of 2
//! to 9 seats, stacks, blinds, antes; uniformly random legal actions, so
//! many all-ins, side pots and multi-way pots) and prints them as one PHH
//! `.phhs` text. `scripts/pokerkit_check.py` replays them in PokerKit.
//!
//! `cargo run --release --example holdem_random_hands -- HANDS [SEED] [pokerkit] [GAME] > hands.phhs`
//! (`pokerkit`: PokerKit's switches, odd chips to the first winner and a
//! short big blind matched only as posted; GAME: `plo4`, `plo5`, `plo6`
//! (pot limit) or `shortdeck` in place of hold'em).

use std::io::Write;

use cardsim::holdem::phh;
use cardsim::holdem::table::random::{play_random_game_hand, play_random_hand};
use cardsim::holdem::variant::Game;
use cardsim::rng::game_rng;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64, what: &str| -> u64 {
        args.get(i).map_or(default, |s| {
            s.parse().unwrap_or_else(|_| {
                eprintln!("error: {what} must be a whole number, got '{s}'");
                std::process::exit(2)
            })
        })
    };
    let hands = number(0, 1000, "HANDS");
    let seed = number(1, 1, "SEED");
    let pokerkit = args.get(2).is_some_and(|s| s == "pokerkit");
    let game = match args.get(3) {
        None => Game::Holdem,
        Some(name) => Game::parse(name).unwrap_or_else(|| {
            eprintln!("error: GAME must be plo4, plo5, plo6 or shortdeck, got '{name}'");
            std::process::exit(2)
        }),
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for g in 0..hands {
        let mut rng = game_rng(seed, g);
        let (h, _) = if game == Game::Holdem {
            play_random_hand(&mut rng, pokerkit)
        } else {
            play_random_game_hand(&mut rng, game, pokerkit)
        };
        // Sections numbered by hand index + 1 (one .phhs text).
        let text = phh::export_section(&h, g + 1, Some(g));
        if out.write_all(text.as_bytes()).is_err() {
            return;
        }
    }
}
