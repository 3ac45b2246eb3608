//! Fishing-game engine speed: nanoseconds per card played (one core), over a
//! fixed set of seeded deals so every run measures the same work.
//!
//! `cargo bench --bench fishing`

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

fn engine(c: &mut Criterion) {
    let deals = deals(1000);
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
    g.bench_function("play 1000 deals (per card)", |b| {
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
