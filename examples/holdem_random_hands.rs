//! Plays random hold'em hands through the table engine (random tables of 2
//! to 9 seats, stacks, blinds, antes; uniformly random legal actions, so
//! many all-ins, side pots and multi-way pots) and prints them as one PHH
//! `.phhs` text. `scripts/pokerkit_check.py` replays them in PokerKit.
//!
//! `cargo run --release --example holdem_random_hands -- HANDS [SEED] [pokerkit] > hands.phhs`
//! (`pokerkit`: PokerKit's switches, odd chips to the first winner and a
//! short big blind matched only as posted).

use std::io::Write;

use cardsim::holdem::phh;
use cardsim::holdem::table::random::play_random_hand;
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
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for g in 0..hands {
        let (h, _) = play_random_hand(&mut game_rng(seed, g), pokerkit);
        // Sections numbered by hand index + 1 (one .phhs text).
        let text = phh::export_section(&h, g + 1, Some(g));
        if out.write_all(text.as_bytes()).is_err() {
            return;
        }
    }
}
