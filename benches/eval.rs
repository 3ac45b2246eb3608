//! Evaluator speed, one core: random-order 7-card hands (each from its 7
//! cards), one at a time (as a `Hand`, and keys only through
//! `Tables::strength_of_cards`) and through the batch evaluator, and the
//! enumeration of all 133,784,560 7-card hands.
//!
//! `cargo bench --bench eval`

use std::hint::black_box;

use cardsim::cards::Card;
use cardsim::holdem::eval::batch::strengths_of_sevens;
use cardsim::holdem::eval::{for_each_seven_card_strength, tables, Hand};
use cardsim::rng::game_rng;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::seq::SliceRandom;

fn random_hands(n: usize) -> Vec<[Card; 7]> {
    let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
    let mut rng = game_rng(7, 7);
    (0..n)
        .map(|_| {
            let (cards, _) = deck.partial_shuffle(&mut rng, 7);
            [
                cards[0], cards[1], cards[2], cards[3], cards[4], cards[5], cards[6],
            ]
        })
        .collect()
}

fn eval(c: &mut Criterion) {
    let t = tables();
    let hands = random_hands(1 << 16);
    let mut g = c.benchmark_group("eval");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("random 7-card hands", |b| {
        b.iter(|| {
            // One black_box for the whole table (as OMPEval's benchmark
            // reads a plain array), not one per hand, which would force a
            // stack round trip into every iteration.
            let hands = black_box(&hands);
            let mut sum = 0u32;
            for h in hands {
                sum += u32::from(t.strength(Hand::from_cards(h)));
            }
            sum
        })
    });
    g.bench_function("random 7-card hands, strength_of_cards", |b| {
        b.iter(|| {
            let hands = black_box(&hands);
            let mut sum = 0u32;
            for h in hands {
                sum += u32::from(t.strength_of_cards(h));
            }
            sum
        })
    });
    let mut out = vec![0; hands.len()];
    g.bench_function("random 7-card hands, batch", |b| {
        b.iter(|| {
            strengths_of_sevens(t, black_box(&hands), &mut out);
            out.iter().map(|&s| u32::from(s)).sum::<u32>()
        })
    });
    g.throughput(Throughput::Elements(133_784_560));
    g.sample_size(10);
    g.bench_function("all 133,784,560 7-card hands", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for_each_seven_card_strength(black_box(t), |s| sum += u64::from(s));
            sum
        })
    });
    g.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
