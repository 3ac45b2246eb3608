//! Endgame solver speed: the seed's 5-vs-2 example, and who wins on fixed
//! random deals (the deals of `cardsim solve --random N --cards K`), one
//! core, a fresh table per deal.
//!
//! `cargo bench --bench solver`. The 1,000-deal median and maximum come from
//! `cargo run --release --example solver_timing -- pairs 13 1000`.

use std::hint::black_box;

use cardsim::cards::{Card, CardSet};
use cardsim::rng::game_rng;
use cardsim::solver::{parse_hand, RuleSet, Solver};
use criterion::{criterion_group, criterion_main, Criterion};
use rand::seq::SliceRandom;

fn deal(k: usize, seed: u64, i: u64) -> (CardSet, CardSet) {
    let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
    deck.shuffle(&mut game_rng(seed, i));
    (
        deck[..k].iter().copied().collect(),
        deck[k..2 * k].iter().copied().collect(),
    )
}

fn solver(c: &mut Criterion) {
    let mut g = c.benchmark_group("solver");
    let (a, b) = (
        parse_hand("9H 6H 6D 4H 3S").unwrap(),
        parse_hand("8S 8H").unwrap(),
    );
    let mut s = Solver::new(RuleSet::Pairs, 16);
    g.bench_function("seed example 5v2, winner and all winning moves", |bch| {
        bch.iter(|| {
            s.reset();
            (s.winner(black_box(a), b), s.winning_first_moves(a, b).len())
        })
    });
    g.sample_size(10);
    for (rules, k, deals) in [(RuleSet::Pairs, 13, 10u64), (RuleSet::TienLen, 8, 10)] {
        let mut s = Solver::new(rules, 20);
        let hands: Vec<_> = (0..deals).map(|i| deal(k, 20_261_122, i)).collect();
        g.bench_function(
            format!("{} {k}v{k}, winner of {deals} fixed deals", rules.name()),
            |bch| {
                bch.iter(|| {
                    hands
                        .iter()
                        .map(|&(a, b)| {
                            s.reset();
                            s.winner(a, b) as u8
                        })
                        .sum::<u8>()
                })
            },
        );
    }
    g.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
