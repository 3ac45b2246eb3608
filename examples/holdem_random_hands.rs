//! Plays random hold'em hands through the table engine (random stacks,
//! blinds, antes; uniformly random legal actions with many all-ins) and
//! prints one JSON object per hand: the table, the cards, every action and
//! the finishing stacks. `scripts/pokerkit_check.py` replays them in
//! PokerKit and compares the stacks.
//!
//! `cargo run --release --example holdem_random_hands -- HANDS [SEED] [pokerkit]`
//! (`pokerkit`: PokerKit's switches, odd chips to the first winner and a
//! short big blind matched only as posted).

use cardsim::holdem::table::random::{hand_record, play_random_hand};
use cardsim::rng::game_rng;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let hands: u64 = args.first().map_or(Ok(1000), |s| s.parse()).expect("HANDS");
    let seed: u64 = args.get(1).map_or(Ok(1), |s| s.parse()).expect("SEED");
    let pokerkit = args.get(2).is_some_and(|s| s == "pokerkit");
    for g in 0..hands {
        let (h, deck) = play_random_hand(&mut game_rng(seed, g), pokerkit);
        println!("{}", hand_record(&h, &deck, g));
    }
}
