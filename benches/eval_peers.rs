//! A fair comparison of 7-card evaluators: every side reads the same file of
//! hands and does the same work on it, in alternated rounds.
//!
//! ```sh
//! cargo bench --bench eval_peers -- write hands64k.bin 65536
//! cargo bench --bench eval_peers -- run hands64k.bin --rounds 7 --peer ./driver
//! cargo bench --bench eval_peers -- run hands1e7.bin --rounds 5 --enumerate --peer ./driver
//! ```
//!
//! **The hands file**: no header; 7 bytes per hand, each a card index
//! `4 * rank + suit` (rank 0 = deuce .. 12 = ace, suit 0..3), the 7 cards of
//! a hand distinct. `write` draws them with a partial Fisher-Yates shuffle
//! from `game_rng(seed, 0)` (seed 7 unless `--seed`), so the same command
//! writes the same file.
//!
//! **What is measured** (one thread, CPU time of that thread from
//! `/proc/thread-self/schedstat`, so time the shared machine gives to other
//! programs is not counted; wall time where that file is missing):
//! - `one`: each hand evaluated from its 7 cards, one at a time, the
//!   strengths summed (`Tables::strength_of_cards`, what `eval::evaluate`
//!   calls);
//! - `batch`: the same hands through `eval::batch::strengths_of_sevens`;
//! - `enum` (with `--enumerate`): all 133,784,560 7-card hands in nested
//!   loops, one card added per level (`for_each_seven_card_strength`).
//!
//! Passes over the file repeat until a pass count calibrated by one
//! untimed pass fills `--min-time` seconds (1 unless told; the kernel's
//! count of a thread's CPU time moves in steps of a few milliseconds).
//!
//! **A peer** is any program given as `--peer CMD`; each round runs
//! `CMD FILE MIN_TIME ENUMERATE(0|1)` and reads from its stdout the lines
//! `categories N1 .. N9` (how many of the file's hands fall in each hand
//! category, high card first: the check that both sides evaluated the same
//! hands, compared before any rate is printed), `one HANDS SECONDS` and,
//! when asked, `enum HANDS SECONDS`. Rounds alternate which side goes
//! first. The table prints each round's rates in M hands/s, cardsim over
//! the peer per round, and the medians.

mod common;

use std::hint::black_box;
use std::process::ExitCode;

use common::{args, flag, measure, median as med, read_records, show, write_records, Res};

use cardsim::cards::Card;
use cardsim::holdem::eval::batch::strengths_of_sevens;
use cardsim::holdem::eval::{category, for_each_seven_card_strength, tables, Hand, Tables};

fn main() -> ExitCode {
    let args = args();
    let result = match args.first().map(String::as_str) {
        Some("write") => write_records(&args[1..], 7),
        Some("run") => run(&args[1..]),
        // One pass of the enumeration and nothing else, for a profiler
        // (`valgrind --tool=callgrind`) to count its instructions.
        Some("enum-once") => {
            println!("sum {}", enumerate(tables(), 1));
            Ok(())
        }
        _ => Err(
            "usage: eval_peers write FILE N [--seed S] | run FILE [--rounds R] \
             [--min-time SECS] [--enumerate] [--peer CMD] | enum-once"
                .into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("eval_peers: {e}");
            ExitCode::from(2)
        }
    }
}

// Not inlined, so that a profile (callgrind) shows each loop apart.
#[inline(never)]
fn one_at_a_time(t: &Tables, hands: &[[Card; 7]], passes: u64) -> u64 {
    let mut sum = 0u32;
    for _ in 0..passes {
        // One black_box for the whole table, as a peer's loop reads a plain
        // array, not one per hand.
        for h in black_box(hands) {
            sum = sum.wrapping_add(u32::from(t.strength_of_cards(h)));
        }
    }
    u64::from(sum)
}

// Not inlined, so that a profile (callgrind) shows each loop apart.
#[inline(never)]
fn batch(t: &Tables, hands: &[[Card; 7]], out: &mut [u16], passes: u64) -> u64 {
    let mut sum = 0u32;
    for _ in 0..passes {
        strengths_of_sevens(t, black_box(hands), out);
        sum = out.iter().fold(sum, |s, &x| s.wrapping_add(u32::from(x)));
    }
    u64::from(sum)
}

// Not inlined, so that a profile (callgrind) shows each loop apart.
#[inline(never)]
fn enumerate(t: &Tables, passes: u64) -> u64 {
    // A 32-bit sum, as the peer driver's `unsigned`.
    let mut sum = 0u32;
    for _ in 0..passes {
        for_each_seven_card_strength(black_box(t), |s| sum = sum.wrapping_add(u32::from(s)));
    }
    u64::from(sum)
}

/// One side's rates in a round, M hands/s.
#[derive(Default, Clone, Copy)]
struct Rates {
    one: f64,
    batch: f64,
    enumerate: f64,
}

fn mhs((hands, secs): (u64, f64)) -> f64 {
    hands as f64 / secs / 1e6
}

fn run(args: &[String]) -> Res<()> {
    let path = args.first().ok_or("run FILE")?;
    let rounds = flag(args, "--rounds", 5usize)?;
    let min_time = flag(args, "--min-time", 1.0f64)?;
    let with_enum = args.iter().any(|a| a == "--enumerate");
    let peer: Option<String> = flag(args, "--peer", String::new())?.into();
    let peer = peer.filter(|p| !p.is_empty());
    let hands = read_records::<7>(path)?;
    let t = tables();
    let n = hands.len() as u64;

    let mut categories = [0u64; 9];
    for h in &hands {
        categories[category(t.strength(Hand::from_cards(h))) as usize] += 1;
    }
    println!(
        "{} hands from {path}; categories {:?}; one thread, CPU time; rounds alternate",
        n, categories
    );

    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    let mut out = vec![0u16; hands.len()];
    for round in 0..rounds {
        let mut mine = || Rates {
            one: mhs(measure(n, min_time, |p| one_at_a_time(t, &hands, p))),
            batch: mhs(measure(n, min_time, |p| batch(t, &hands, &mut out, p))),
            enumerate: if with_enum {
                mhs(measure(133_784_560, min_time, |p| enumerate(t, p)))
            } else {
                0.0
            },
        };
        let (a, b) = match &peer {
            None => (mine(), None),
            Some(cmd) if round % 2 == 0 => {
                let a = mine();
                (
                    a,
                    Some(run_peer(cmd, path, min_time, with_enum, &categories)?),
                )
            }
            Some(cmd) => {
                let b = run_peer(cmd, path, min_time, with_enum, &categories)?;
                (mine(), Some(b))
            }
        };
        print!(
            "round {round}: cardsim one {:.0} batch {:.0}",
            a.one, a.batch
        );
        if with_enum {
            print!(" enum {:.0}", a.enumerate);
        }
        if let Some(b) = b {
            print!(
                " | peer one {:.0} (ratio {:.3}) | batch/peer one {:.3}",
                b.one,
                a.one / b.one,
                a.batch / b.one
            );
            if with_enum {
                print!(
                    " | peer enum {:.0} (ratio {:.3})",
                    b.enumerate,
                    a.enumerate / b.enumerate
                );
            }
            theirs.push(b);
        }
        println!();
        ours.push(a);
    }
    let col = |v: &[Rates], f: fn(&Rates) -> f64| v.iter().map(f).collect::<Vec<f64>>();
    println!(
        "median M hands/s: cardsim one {:.0}, batch {:.0}{}",
        med(col(&ours, |r| r.one)),
        med(col(&ours, |r| r.batch)),
        if with_enum {
            format!(", enum {:.0}", med(col(&ours, |r| r.enumerate)))
        } else {
            String::new()
        }
    );
    if !theirs.is_empty() {
        let ratios = |f: fn(&Rates) -> f64, g: fn(&Rates) -> f64| -> Vec<f64> {
            ours.iter().zip(&theirs).map(|(a, b)| f(a) / g(b)).collect()
        };
        let one = ratios(|r| r.one, |r| r.one);
        let bat = ratios(|r| r.batch, |r| r.one);
        println!(
            "median M hands/s: peer one {:.0}{}",
            med(col(&theirs, |r| r.one)),
            if with_enum {
                format!(", enum {:.0}", med(col(&theirs, |r| r.enumerate)))
            } else {
                String::new()
            }
        );
        println!(
            "one/peer one, per round: {} (median {:.3})",
            show(&one),
            med(one.clone())
        );
        println!(
            "batch/peer one, per round: {} (median {:.3})",
            show(&bat),
            med(bat.clone())
        );
        if with_enum {
            let en = ratios(|r| r.enumerate, |r| r.enumerate);
            println!(
                "enum/peer enum, per round: {} (median {:.3})",
                show(&en),
                med(en.clone())
            );
        }
    }
    Ok(())
}

/// Runs the peer once and checks it saw the same hands.
fn run_peer(cmd: &str, path: &str, min_time: f64, with_enum: bool, want: &[u64; 9]) -> Res<Rates> {
    let min_time = min_time.to_string();
    let text = common::run_peer(cmd, &[path, &min_time, if with_enum { "1" } else { "0" }])?;
    let mut rates = Rates::default();
    let mut seen = false;
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let num = |i: usize| -> Res<f64> {
            w.get(i)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{cmd}: bad line {line:?}"))
        };
        match w.first().copied() {
            Some("categories") => {
                let got: Vec<u64> = w[1..].iter().filter_map(|v| v.parse().ok()).collect();
                if got != want {
                    return Err(format!("{cmd} counts categories {got:?}, cardsim {want:?}"));
                }
                seen = true;
            }
            Some("one") => rates.one = num(1)? / num(2)? / 1e6,
            Some("enum") => rates.enumerate = num(1)? / num(2)? / 1e6,
            _ => {}
        }
    }
    if !seen {
        return Err(format!("{cmd} printed no categories line"));
    }
    Ok(rates)
}
