//! Omaha speed, one core: random PLO4, PLO5 and PLO6 hands on random
//! river boards, each evaluated from its cards (the fast evaluator, and
//! for PLO4 the plain enumeration of its 60 fives too); exact heads-up
//! PLO4 equity on a flop (820 boards), by the variant enumeration and by
//! the plain loop over boards.
//!
//! `cargo bench --bench omaha`

use std::hint::black_box;

use cardsim::cards::{parse_cards, Card, CardSet};
use cardsim::holdem::equity::variants::hands::HandList;
use cardsim::holdem::equity::variants::{exact, plain_exact, VariantQuery};
use cardsim::holdem::eval::tables;
use cardsim::holdem::omaha;
use cardsim::holdem::variant::Game;
use cardsim::rng::game_rng;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::seq::SliceRandom;

/// `n` deals of `hole` hole cards and a 5-card board.
fn random_deals(n: usize, hole: usize) -> Vec<Vec<Card>> {
    let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
    let mut rng = game_rng(7, 28);
    (0..n)
        .map(|_| deck.partial_shuffle(&mut rng, hole + 5).0.to_vec())
        .collect()
}

fn omaha(c: &mut Criterion) {
    let t = tables();
    let mut g = c.benchmark_group("omaha");
    let n = 1 << 14;
    g.throughput(Throughput::Elements(n as u64));
    for hole in omaha::MIN_HOLE..=omaha::MAX_HOLE {
        let deals = random_deals(n, hole);
        g.bench_function(format!("PLO{hole} river hands"), |b| {
            b.iter(|| {
                let mut sum = 0u32;
                for d in black_box(&deals) {
                    let board = omaha::Board::new(&d[hole..]);
                    sum += u32::from(board.strength_in(t, &omaha::Hole::new(&d[..hole])));
                }
                sum
            })
        });
        if hole == 4 {
            g.bench_function("PLO4 river hands, plain enumeration", |b| {
                b.iter(|| {
                    let mut sum = 0u32;
                    for d in black_box(&deals) {
                        sum += u32::from(omaha::evaluate_plain(&d[..4], &d[4..]));
                    }
                    sum
                })
            });
        }
    }
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let hand = |h| HandList::parse(Game::Plo4, h).unwrap();
    let spot = VariantQuery {
        game: Game::Plo4,
        players: vec![hand("AsKsQhJh"), hand("9c9d8c7d")],
        board: parse_cards("Ts 8h 2c").unwrap(),
        dead: CardSet::EMPTY,
    }
    .prepare()
    .unwrap();
    g.throughput(Throughput::Elements(spot.boards()));
    g.bench_function("exact PLO4 heads-up on a flop (1 thread)", |b| {
        b.iter(|| one.install(|| exact(black_box(&spot), None)))
    });
    g.bench_function("exact PLO4 heads-up on a flop, plain (1 thread)", |b| {
        b.iter(|| one.install(|| plain_exact(black_box(&spot))))
    });
    g.finish();
}

criterion_group!(benches, omaha);
criterion_main!(benches);
