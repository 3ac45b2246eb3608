//! Fishing-game engine speed: nanoseconds per card played (one core), over a
//! fixed set of seeded deals so every run measures the same work.
//!
//! `cargo bench --bench fishing`
//!
//! With `FISHING_DEALS=FILE` the deals are read from FILE instead (54 bytes
//! a deal, faces 0..12 for 2..A and 13 for a joker, front of the deck
//! first): the file `scripts/peers/fishing/` plays with its Java
//! reference, for a side-by-side comparison on the same deals. With
//! `FISHING_CPU_PASSES=N` as well, it plays the deals N times and prints
//! each pass's ns per card by the thread's CPU time (the clock the Java
//! reference uses: `/proc/thread-self/schedstat`, fair on a shared machine),
//! instead of running criterion.

use std::hint::black_box;

use cardsim::fishing::{self, FishingGame, Rules, DEFAULT_CARD_LIMIT};
use cardsim::rng::game_rng;
use cardsim::sim::Game;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn deals(n: u64) -> Vec<Vec<u8>> {
    let game = FishingGame::new(Rules::default());
    let mut scratch = game.new_scratch();
    (0..n)
        .map(|i| {
            // Replay the runner's own shuffle for game i.
            use rand::seq::SliceRandom;
            scratch.clear();
            scratch.extend(fishing::deck());
            scratch.shuffle(&mut game_rng(1, i));
            scratch.clone()
        })
        .collect()
}

/// The deals of a `FISHING_DEALS` file, each checked to be a fishing deck.
fn deals_from(path: &str) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).expect("FISHING_DEALS names a readable file");
    let mut sorted_deck = fishing::deck();
    sorted_deck.sort_unstable();
    bytes
        .chunks_exact(54)
        .map(|d| {
            let mut sorted = d.to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, sorted_deck, "not a fishing deck: {d:?}");
            d.to_vec()
        })
        .collect()
}

/// CPU time of the calling thread in ns (Linux), or 0 if unreadable.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The `FISHING_CPU_PASSES` mode: passes over the deals timed by CPU time.
fn cpu_passes(deals: &[Vec<u8>], passes: usize) {
    for pass in 0..=passes {
        let t0 = thread_cpu_ns();
        let mut cards = 0u64;
        for d in deals {
            let rec = fishing::play(black_box(d), Rules::default(), DEFAULT_CARD_LIMIT);
            cards += black_box(rec.expect("valid deal")).cards_played;
        }
        let ns = thread_cpu_ns() - t0;
        let what = if pass == 0 { "warmup" } else { "pass" };
        println!(
            "{what} deals={} cards={cards} ns_per_card={:.3}",
            deals.len(),
            ns as f64 / cards as f64
        );
    }
}

fn engine(c: &mut Criterion) {
    let deals = match std::env::var("FISHING_DEALS") {
        Ok(path) => deals_from(&path),
        Err(_) => deals(1000),
    };
    if let Some(passes) = std::env::var("FISHING_CPU_PASSES")
        .ok()
        .and_then(|p| p.parse().ok())
    {
        cpu_passes(&deals, passes);
        std::process::exit(0);
    }
    let cards: u64 = deals
        .iter()
        .map(|d| {
            fishing::play(d, Rules::default(), DEFAULT_CARD_LIMIT)
                .expect("valid deal")
                .cards_played
        })
        .sum();
    let mut g = c.benchmark_group("fishing");
    g.throughput(Throughput::Elements(cards));
    g.bench_function("play the deals (per card)", |b| {
        b.iter(|| {
            for d in &deals {
                black_box(fishing::play(black_box(d), Rules::default(), DEFAULT_CARD_LIMIT).ok());
            }
        })
    });
    let game = FishingGame::new(Rules::default());
    g.throughput(Throughput::Elements(1000));
    g.bench_function("runner game: shuffle + play (per game)", |b| {
        let mut scratch = game.new_scratch();
        b.iter(|| {
            for i in 0..1000 {
                black_box(game.play(i, &mut game_rng(1, i), &mut scratch));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
