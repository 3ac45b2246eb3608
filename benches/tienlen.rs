//! Tiến lên speed, one core: whole games of four greedy agents, and legal
//! play generation on full 13-card hands (as a lead, and over a single, a
//! pair and a straight).
//!
//! `cargo bench --bench tienlen`

use std::hint::black_box;

use cardsim::cards::CardSet;
use cardsim::rng::game_rng;
use cardsim::sim::Game;
use cardsim::tienlen::game::deal;
use cardsim::tienlen::moves::MoveGen;
use cardsim::tienlen::sim::TienlenGame;
use cardsim::tienlen::{classify, AgentKind, Combo, RuleSet};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn tienlen(c: &mut Criterion) {
    let mut g = c.benchmark_group("tienlen");
    let game = TienlenGame {
        rules: RuleSet::Cambodian,
        agents: vec![AgentKind::Greedy; 4],
        rotate: false,
    };
    let mut scratch = game.new_scratch();
    let games = 1000u64;
    g.throughput(Throughput::Elements(games));
    g.bench_function("games, four greedy agents", |b| {
        b.iter(|| {
            (0..games)
                .map(|i| {
                    let r = game.play(i, &mut game_rng(1, i), &mut scratch);
                    r.outcome.plays
                })
                .sum::<u32>()
        })
    });
    // 1,000 full hands from real deals.
    let hands: Vec<CardSet> = (0..250u64)
        .flat_map(|i| deal(4, &mut game_rng(2, i)))
        .collect();
    let combo = |s: &str| -> Combo {
        let set: CardSet = cardsim::cards::parse_cards(s)
            .unwrap()
            .into_iter()
            .collect::<CardSet>();
        classify(RuleSet::Cambodian, set).unwrap()
    };
    let mut gen = MoveGen::default();
    let mut out = Vec::new();
    g.throughput(Throughput::Elements(hands.len() as u64));
    for (name, last) in [
        ("lead", None),
        ("over a single 7h", Some(combo("7h"))),
        ("over a pair 6h 6d", Some(combo("6h 6d"))),
        ("over a straight 5h 6h 7h", Some(combo("5h 6h 7h"))),
    ] {
        g.bench_function(format!("legal plays of 13-card hands, {name}"), |b| {
            b.iter(|| {
                let mut n = 0;
                for &h in &hands {
                    let h = h.difference(last.map_or(CardSet::EMPTY, |l: Combo| l.cards));
                    gen.generate(
                        RuleSet::Cambodian,
                        black_box(h),
                        last.as_ref(),
                        None,
                        &mut out,
                    );
                    n += out.len();
                }
                n
            })
        });
    }
    g.finish();
}

criterion_group!(benches, tienlen);
criterion_main!(benches);
