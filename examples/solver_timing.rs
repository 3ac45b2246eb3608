//! Times the endgame solver on random K-vs-K deals (the deals of
//! `cardsim solve --random N --cards K --seed S`): median and maximum time
//! and nodes to find the winner, and to find every winning first move.
//!
//! `cargo run --release --example solver_timing -- RULES K DEALS [SEED] [TABLE_BITS] [winner-only]`
//! e.g. `cargo run --release --example solver_timing -- pairs 13 1000`

use std::time::Instant;

use cardsim::cards::{Card, CardSet};
use cardsim::rng::game_rng;
use cardsim::solver::{RuleSet, Solver};
use rand::seq::SliceRandom;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: solver_timing RULES K DEALS [SEED] [TABLE_BITS] [winner-only]";
    let winner_only = args.get(5).is_some_and(|s| s == "winner-only");
    let rules = RuleSet::parse(args.first().map_or("pairs", String::as_str)).expect(usage);
    let k: usize = args.get(1).map_or(Ok(13), |s| s.parse()).expect(usage);
    let deals: u64 = args.get(2).map_or(Ok(100), |s| s.parse()).expect(usage);
    let seed: u64 = args
        .get(3)
        .map_or(Ok(20_261_122), |s| s.parse())
        .expect(usage);
    let bits: u32 = args.get(4).map_or(Ok(20), |s| s.parse()).expect(usage);
    let mut solver = Solver::new(rules, bits);
    let (mut win_ms, mut win_nodes, mut all_ms, mut all_nodes) = (vec![], vec![], vec![], vec![]);
    for i in 0..deals {
        let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
        deck.shuffle(&mut game_rng(seed, i));
        let a: CardSet = deck[..k].iter().copied().collect();
        let b: CardSet = deck[k..2 * k].iter().copied().collect();
        solver.reset();
        let t = Instant::now();
        solver.winner(a, b);
        win_ms.push(t.elapsed().as_secs_f64() * 1e3);
        win_nodes.push(solver.nodes as f64);
        if winner_only {
            continue;
        }
        solver.reset();
        let t = Instant::now();
        solver.winning_first_moves(a, b);
        all_ms.push(t.elapsed().as_secs_f64() * 1e3);
        all_nodes.push(solver.nodes as f64);
    }
    println!(
        "rules {} K {k} deals {deals} seed {seed} table 2^{bits}",
        rules.name()
    );
    for (name, v) in [
        ("winner: time ms", &mut win_ms),
        ("winner: nodes", &mut win_nodes),
        ("all winning first moves: time ms", &mut all_ms),
        ("all winning first moves: nodes", &mut all_nodes),
    ] {
        if v.is_empty() {
            continue;
        }
        v.sort_by(f64::total_cmp);
        let median = v[v.len() / 2];
        let max = v[v.len() - 1];
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        println!("{name:34} median {median:12.3} mean {mean:12.3} max {max:12.3}");
    }
}
