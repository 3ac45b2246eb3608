//! Omaha side by side with a peer: PLO4 evaluation on the river and exact
//! PLO4 heads-up equity on the flop, every side reading the same file and
//! doing the same work on it, in alternated rounds.
//!
//! ```sh
//! cargo bench --bench omaha_peers -- write-rivers rivers.bin 65536
//! cargo bench --bench omaha_peers -- eval rivers.bin --rounds 7 --peer ./driver
//! cargo bench --bench omaha_peers -- write-flops flops.bin 200
//! cargo bench --bench omaha_peers -- equity flops.bin --rounds 7 --peer ./driver
//! ```
//!
//! **The files**: no header; card indices `4 * rank + suit` (rank 0 = deuce
//! .. 12 = ace, suit 0..3), one byte each, the cards of a record distinct.
//! A river record is 9 bytes, a PLO4 hand then a 5-card board; a flop
//! record is 11 bytes, two PLO4 hands then a flop. `write-rivers` and
//! `write-flops` draw them with a partial Fisher-Yates shuffle from
//! `game_rng(seed, 0)` (seed 7 unless `--seed`), so the same command writes
//! the same file.
//!
//! **What is measured** (one thread, its CPU time, as in `eval_peers`):
//! - `eval`: each hand's strength from its 9 cards, one at a time, the
//!   strengths summed: `fast` is `omaha::Board::new` and `Hole::new` then
//!   `Board::strength_in` (what `omaha::evaluate` does after its checks),
//!   `plain` is `omaha::evaluate_plain` (the 60 fives of two hole and three
//!   board cards, each looked up whole by the hold'em evaluator);
//! - `equity`: for each spot, exact equity over every turn and river (820
//!   boards): `exact` builds the query and runs `variants::exact`, `plain`
//!   the same query through `variants::plain_exact` (every board built and
//!   both hands evaluated on it with the fast Omaha evaluator), both in a
//!   one-thread pool.
//!
//! **A peer** is any program given as `--peer CMD`; each round runs
//! `CMD eval FILE MIN_TIME` and reads the lines `categories N1 .. N9` (the
//! file's hands per category, high card first) and `one HANDS SECONDS`, or
//! `CMD equity FILE MIN_TIME` and reads `counts W1 W2 T` (boards won by the
//! first hand, by the second, and tied, summed over the file's spots) and
//! `spots N SECONDS`. The counts are compared with cardsim's before any
//! rate is printed. Rounds alternate which side goes first.

mod common;

use std::hint::black_box;
use std::process::ExitCode;

use cardsim::cards::{Card, CardSet};
use cardsim::holdem::equity::variants::hands::{HandList, Hands, Holding};
use cardsim::holdem::equity::variants::{exact, plain_exact, VariantQuery};
use cardsim::holdem::equity::{EquityResult, Method};
use cardsim::holdem::eval::{category, tables, Tables};
use cardsim::holdem::omaha;
use cardsim::holdem::variant::Game;
use common::{args, flag, measure, median, read_records, run_peer, show, write_records, Res};

fn main() -> ExitCode {
    let args = args();
    let result = match args.first().map(String::as_str) {
        Some("write-rivers") => write_records(&args[1..], 9),
        Some("write-flops") => write_records(&args[1..], 11),
        Some("eval") => run_eval(&args[1..]),
        Some("equity") => run_equity(&args[1..]),
        _ => Err(
            "usage: omaha_peers write-rivers|write-flops FILE N [--seed S] | \
                  eval|equity FILE [--rounds R] [--min-time SECS] [--peer CMD]"
                .into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("omaha_peers: {e}");
            ExitCode::from(2)
        }
    }
}

/// The numbers after `key` on the peer's line that starts with it.
fn peer_line(text: &str, key: &str) -> Res<Vec<f64>> {
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(key))
        .ok_or_else(|| format!("the peer printed no {key} line"))?;
    line.split_whitespace()
        .skip(1)
        .map(|v| v.parse().map_err(|_| format!("bad peer line {line:?}")))
        .collect()
}

/// The peer's rate from its `key ITEMS SECONDS` line, after checking its
/// `check` line equals `want`.
fn peer_rate(text: &str, check: &str, want: &[u64], key: &str) -> Res<f64> {
    let got: Vec<u64> = peer_line(text, check)?.iter().map(|&x| x as u64).collect();
    if got != want {
        return Err(format!("the peer's {check} {got:?}, cardsim's {want:?}"));
    }
    match peer_line(text, key)?[..] {
        [items, secs] => Ok(items / secs),
        _ => Err(format!("the peer's {key} line needs ITEMS SECONDS")),
    }
}

/// Runs `rounds` rounds, cardsim's `ours()` and the peer's `theirs()`
/// alternately first, and prints each round's rates (scaled by `unit`,
/// named `label`), the ratios of each of cardsim's columns to the peer's
/// and of its first column to its second, and the medians.
fn rounds(
    rounds: usize,
    names: &[&str],
    label: &str,
    unit: f64,
    mut ours: impl FnMut() -> Vec<f64>,
    mut theirs: Option<impl FnMut() -> Res<f64>>,
) -> Res<()> {
    let mut mine: Vec<Vec<f64>> = Vec::new();
    let mut peer: Vec<f64> = Vec::new();
    for round in 0..rounds {
        let (a, b) = match theirs.as_mut() {
            None => (ours(), None),
            Some(t) if round % 2 == 0 => {
                let a = ours();
                (a, Some(t()?))
            }
            Some(t) => {
                let b = t()?;
                (ours(), Some(b))
            }
        };
        print!("round {round}:");
        for (n, x) in names.iter().zip(&a) {
            print!(" cardsim {n} {:.3}", x / unit);
        }
        if let Some(b) = b {
            print!(" | peer {:.3}", b / unit);
            for (n, x) in names.iter().zip(&a) {
                print!(" | {n}/peer {:.3}", x / b);
            }
            peer.push(b);
        }
        println!();
        mine.push(a);
    }
    for (i, n) in names.iter().enumerate() {
        let col: Vec<f64> = mine.iter().map(|r| r[i]).collect();
        println!(
            "median {label}: cardsim {n} {:.3}",
            median(col.clone()) / unit
        );
        if !peer.is_empty() {
            let ratios: Vec<f64> = col.iter().zip(&peer).map(|(a, b)| a / b).collect();
            println!(
                "{n}/peer, per round: {} (median {:.3})",
                show(&ratios),
                median(ratios.clone())
            );
        }
    }
    if !peer.is_empty() {
        println!("median {label}: peer {:.3}", median(peer) / unit);
    }
    // cardsim's first column over its second (fast over plain), per round.
    let own: Vec<f64> = mine.iter().map(|r| r[0] / r[1]).collect();
    println!(
        "{}/{}, per round: {} (median {:.3})",
        names[0],
        names[1],
        show(&own),
        median(own.clone())
    );
    Ok(())
}

fn rate((items, secs): (u64, f64)) -> f64 {
    items as f64 / secs
}

// Not inlined, so that a profile shows each loop apart.
#[inline(never)]
fn fast(t: &Tables, hands: &[[Card; 9]], passes: u64) -> u64 {
    let mut sum = 0u32;
    for _ in 0..passes {
        for h in black_box(hands) {
            let s = omaha::Board::new(&h[4..]).strength_in(t, &omaha::Hole::new(&h[..4]));
            sum = sum.wrapping_add(u32::from(s));
        }
    }
    u64::from(sum)
}

#[inline(never)]
fn plain(hands: &[[Card; 9]], passes: u64) -> u64 {
    let mut sum = 0u32;
    for _ in 0..passes {
        for h in black_box(hands) {
            sum = sum.wrapping_add(u32::from(omaha::evaluate_plain(&h[..4], &h[4..])));
        }
    }
    u64::from(sum)
}

fn run_eval(args: &[String]) -> Res<()> {
    let path = args.first().ok_or("eval FILE")?;
    let n_rounds = flag(args, "--rounds", 5usize)?;
    let min_time = flag(args, "--min-time", 1.0f64)?;
    let peer = flag(args, "--peer", String::new())?;
    let hands = read_records::<9>(path)?;
    let t = tables();
    let mut categories = [0u64; 9];
    for h in &hands {
        let s = omaha::evaluate(&h[..4], &h[4..]).map_err(|e| e.to_string())?;
        if s != omaha::evaluate_plain(&h[..4], &h[4..]) {
            return Err(format!("the fast and plain evaluators differ on {h:?}"));
        }
        categories[category(s) as usize] += 1;
    }
    println!(
        "{} PLO4 river hands from {path}; categories {categories:?}; one thread, CPU time; \
         M hands/s",
        hands.len()
    );
    let n = hands.len() as u64;
    let ours = || {
        vec![
            rate(measure(n, min_time, |p| fast(t, &hands, p))),
            rate(measure(n, min_time, |p| plain(&hands, p))),
        ]
    };
    let theirs = (!peer.is_empty()).then_some(|| {
        let text = run_peer(&peer, &["eval", path, &min_time.to_string()])?;
        peer_rate(&text, "categories", &categories, "one")
    });
    rounds(n_rounds, &["fast", "plain"], "M hands/s", 1e6, ours, theirs)
}

/// The prepared heads-up PLO4 question of a flop record.
fn spot_query(r: &[Card; 11]) -> VariantQuery {
    let hand = |cards: &[Card]| HandList {
        text: String::new(),
        hands: Hands::Listed(vec![Holding::new(cards, 1.0)]),
    };
    VariantQuery {
        game: Game::Plo4,
        players: vec![hand(&r[..4]), hand(&r[4..8])],
        board: r[8..].to_vec(),
        dead: CardSet::EMPTY,
    }
}

/// Boards won by each player and tied, from an exact result.
fn board_counts(r: &EquityResult) -> [u64; 3] {
    let Method::Exact { boards, .. } = r.method else {
        return [0; 3];
    };
    let b = boards as f64;
    [
        (r.players[0].win * b).round() as u64,
        (r.players[1].win * b).round() as u64,
        (r.players[0].tie * b).round() as u64,
    ]
}

type Solver = fn(&VariantQuery) -> EquityResult;

fn solve_exact(q: &VariantQuery) -> EquityResult {
    let p = q.prepare().expect("a valid spot");
    exact(&p, None).expect("no cancel hook")
}

fn solve_plain(q: &VariantQuery) -> EquityResult {
    plain_exact(&q.prepare().expect("a valid spot"))
}

#[inline(never)]
fn spots(solve: Solver, spots: &[[Card; 11]], passes: u64) -> u64 {
    let mut sum = 0u64;
    for _ in 0..passes {
        for r in black_box(spots) {
            sum = sum.wrapping_add(board_counts(&solve(&spot_query(r)))[0]);
        }
    }
    sum
}

fn run_equity(args: &[String]) -> Res<()> {
    let path = args.first().ok_or("equity FILE")?;
    let n_rounds = flag(args, "--rounds", 5usize)?;
    let min_time = flag(args, "--min-time", 1.0f64)?;
    let peer = flag(args, "--peer", String::new())?;
    let records = read_records::<11>(path)?;
    tables();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| e.to_string())?;
    let mut counts = [0u64; 3];
    for r in &records {
        let q = spot_query(r);
        let (a, b) = pool.install(|| (solve_exact(&q), solve_plain(&q)));
        let c = board_counts(&a);
        if c != board_counts(&b) {
            return Err(format!("exact and plain differ on {r:?}"));
        }
        for k in 0..3 {
            counts[k] += c[k];
        }
    }
    println!(
        "{} PLO4 heads-up flops from {path}; boards won {} and {}, tied {}; one thread, \
         CPU time; spots/s",
        records.len(),
        counts[0],
        counts[1],
        counts[2]
    );
    let n = records.len() as u64;
    let ours = || {
        pool.install(|| {
            vec![
                rate(measure(n, min_time, |p| spots(solve_exact, &records, p))),
                rate(measure(n, min_time, |p| spots(solve_plain, &records, p))),
            ]
        })
    };
    let theirs = (!peer.is_empty()).then_some(|| {
        let text = run_peer(&peer, &["equity", path, &min_time.to_string()])?;
        peer_rate(&text, "counts", &counts, "spots")
    });
    rounds(n_rounds, &["exact", "plain"], "spots/s", 1.0, ours, theirs)
}
