//! Equity speed, one core unless named: exact AsAh vs KsKd over all
//! 1,712,304 boards and exact AA vs KK over all 36 combination pairs, by
//! the board enumerator and by the preflop table; the 3-way range spot
//! `QQ+,AKs` vs `random` vs `T9s,22-55` on `Ah 7d 2c`, board-major and by
//! the class-by-class enumeration; heads-up Monte Carlo showdowns per
//! second on one and on two threads.
//!
//! `cargo bench --bench equity`

use std::hint::black_box;

use cardsim::cards::{parse_cards, CardSet};
use cardsim::holdem::equity::range::Range;
use cardsim::holdem::equity::{exact, exact_enumerated, monte_carlo, Query, Stop};
use cardsim::holdem::eval::tables;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn query(players: &[&str], board: &str) -> cardsim::holdem::equity::Prepared {
    Query {
        ranges: players.iter().map(|p| Range::parse(p).unwrap()).collect(),
        board: parse_cards(board).unwrap(),
        dead: CardSet::EMPTY,
    }
    .prepare()
    .unwrap()
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn equity(c: &mut Criterion) {
    tables();
    let one = pool(1);
    let two = pool(2);
    let mut g = c.benchmark_group("equity");
    g.sample_size(20);
    let aces_kings = query(&["AsAh", "KsKd"], "");
    g.throughput(Throughput::Elements(1_712_304));
    g.bench_function("exact AsAh vs KsKd, enumerated (1 thread)", |b| {
        b.iter(|| one.install(|| exact_enumerated(black_box(&aces_kings))))
    });
    g.bench_function("exact AsAh vs KsKd, preflop table", |b| {
        b.iter(|| exact(black_box(&aces_kings)))
    });
    let aa_kk = query(&["AA", "KK"], "");
    g.throughput(Throughput::Elements(36 * 1_712_304));
    g.bench_function("exact AA vs KK, 36 pairs, enumerated (1 thread)", |b| {
        b.iter(|| one.install(|| exact_enumerated(black_box(&aa_kk))))
    });
    g.bench_function("exact AA vs KK, 36 pairs, preflop table", |b| {
        b.iter(|| exact(black_box(&aa_kk)))
    });
    // 445,500 combinations times 903 boards each.
    let spot = query(&["QQ+,AKs", "random", "T9s,22-55"], "Ah 7d 2c");
    g.throughput(Throughput::Elements(445_500 * 903));
    g.bench_function("exact 3-way spot, board-major (1 thread)", |b| {
        b.iter(|| one.install(|| exact(black_box(&spot))))
    });
    g.sample_size(10);
    g.bench_function("exact 3-way spot, class by class (1 thread)", |b| {
        b.iter(|| one.install(|| exact_enumerated(black_box(&spot))))
    });
    g.sample_size(20);
    let trials = 1u64 << 20;
    g.throughput(Throughput::Elements(trials));
    for (name, p) in [("1 thread", &one), ("2 threads", &two)] {
        g.bench_function(format!("Monte Carlo AKs vs QQ, showdowns ({name})"), |b| {
            let q = query(&["AKs", "QQ"], "");
            b.iter(|| p.install(|| monte_carlo(black_box(&q), 1, Stop::Trials(trials))))
        });
    }
    g.finish();
}

criterion_group!(benches, equity);
criterion_main!(benches);
