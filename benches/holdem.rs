//! Hold'em simulation speed: whole 6-max hands (100 big blinds) played by
//! agents through the table engine, payout included, as the `holdem`
//! command plays them (`Game::play`), on one thread and on two (rayon over
//! chunks of 1,024 hands, as the runner does). All-in equity is off here
//! (`allin_trials = 0`); the figures in docs/performance.md also time the
//! whole command with CSV output.
//!
//! The second group times the CSV rows alone: hands played once, then
//! their rows written as the runner writes them (`Row::new`, the game
//! index, `Game::write_row`, `Row::end`) into one buffer.
//!
//! `cargo bench --bench holdem`

use cardsim::holdem::agents::AgentKind;
use cardsim::holdem::sim::{HoldemGame, StackSpec};
use cardsim::rng::game_rng;
use cardsim::sim::{Game, Row};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rayon::prelude::*;

fn game(agent: AgentKind) -> HoldemGame {
    HoldemGame {
        allin_trials: 0,
        ..HoldemGame::new(vec![agent.into(); 6], StackSpec::Fixed(200))
    }
}

/// Plays hands `range` and returns a checksum of the final stacks (so the
/// work cannot be optimised away).
fn play(game: &HoldemGame, range: std::ops::Range<u64>) -> u64 {
    let mut scratch = game.new_scratch();
    range
        .map(|i| {
            let r = game.play(i, &mut game_rng(1, i), &mut scratch);
            r.hand().seats()[0].stack
        })
        .sum()
}

fn holdem(c: &mut Criterion) {
    let mut g = c.benchmark_group("holdem 6-max");
    let hands = 65_536u64;
    g.throughput(Throughput::Elements(hands));
    g.sample_size(20);
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a 2-thread pool");
    for agent in [AgentKind::Random, AgentKind::Station] {
        let game = game(agent);
        g.bench_function(format!("{agent}, 1 thread"), |b| {
            b.iter(|| play(&game, 0..hands))
        });
        g.bench_function(format!("{agent}, 2 threads"), |b| {
            b.iter(|| {
                two.install(|| {
                    (0..hands / 1024)
                        .into_par_iter()
                        .map(|k| play(&game, k * 1024..(k + 1) * 1024))
                        .sum::<u64>()
                })
            })
        });
    }
    g.finish();
}

fn rows(c: &mut Criterion) {
    let game = game(AgentKind::Random);
    let mut scratch = game.new_scratch();
    let records: Vec<_> = (0..4096)
        .map(|i| game.play(i, &mut game_rng(1, i), &mut scratch))
        .collect();
    let mut g = c.benchmark_group("holdem rows");
    g.throughput(Throughput::Elements(records.len() as u64));
    let mut buf = Vec::with_capacity(1 << 20);
    g.bench_function("6-max random, write_row", |b| {
        b.iter(|| {
            buf.clear();
            for (i, r) in records.iter().enumerate() {
                let mut row = Row::new(&mut buf);
                row.int(i as u64);
                game.write_row(r, &mut row);
                row.end();
            }
            buf.len()
        })
    });
    g.finish();
}

criterion_group!(benches, holdem, rows);
criterion_main!(benches);
