//! cardsim's peer driver for rs_poker's Omaha evaluator (`OmahaHand::rank`),
//! speaking the protocol of cardsim's `benches/omaha_peers.rs`:
//!
//! - `rs_poker_driver eval FILE MIN_TIME`: FILE holds 9 bytes a hand (4 hole
//!   cards, then a 5-card board), each a card index `4 * rank + suit`. Prints
//!   `categories N1 .. N9` (hands per category, high card first), then
//!   `one HANDS SECONDS`: every hand ranked once per pass, passes repeated to
//!   fill MIN_TIME seconds of this thread's CPU time.
//! - `rs_poker_driver equity FILE MIN_TIME`: FILE holds 11 bytes a spot (two
//!   PLO4 hands, then a flop). rs_poker has no Omaha equity calculator, so
//!   this is our own plain loop over every turn and river, both hands ranked
//!   by `OmahaHand::rank` on each board. Prints `counts W1 W2 T` (boards won
//!   by each hand and tied, summed over the spots), then `spots N SECONDS`.

use std::hint::black_box;
use std::time::Instant;

use rs_poker::core::{Card, CardBitSet, Rankable, Suit, Value};
use rs_poker::omaha::OmahaHand;

fn card(i: u8) -> Card {
    Card::new(Value::from_u8(i / 4), Suit::from_u8(i % 4))
}

fn set(bytes: &[u8]) -> CardBitSet {
    bytes.iter().map(|&b| card(b)).collect()
}

/// This thread's CPU time in seconds (wall time if the kernel does not say).
fn cpu_seconds(origin: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(|| origin.elapsed().as_secs_f64(), |ns| ns as f64 * 1e-9)
}

/// One untimed pass to calibrate, then enough passes for `min_time`
/// seconds; returns (passes, CPU seconds).
fn measure(min_time: f64, mut work: impl FnMut(u64) -> u64) -> (u64, f64) {
    let origin = Instant::now();
    black_box(work(1));
    let one = origin.elapsed().as_secs_f64().max(1e-6);
    let passes = (min_time / one).ceil().max(1.0) as u64;
    let t0 = cpu_seconds(origin);
    black_box(work(passes));
    (passes, cpu_seconds(origin) - t0)
}

fn read(path: &str, size: usize) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    if bytes.is_empty() || bytes.len() % size != 0 || bytes.iter().any(|&b| b >= 52) {
        eprintln!("{path}: not a whole number of {size}-card records");
        std::process::exit(2);
    }
    bytes
}

fn eval(path: &str, min_time: f64) {
    let bytes = read(path, 9);
    let hands: Vec<OmahaHand> = bytes
        .chunks_exact(9)
        .map(|r| OmahaHand::new(set(&r[..4]), set(&r[4..])).expect("a valid PLO4 hand"))
        .collect();
    let mut categories = [0u64; 9];
    for h in &hands {
        categories[h.rank().category() as usize] += 1;
    }
    let counts: Vec<String> = categories.iter().map(u64::to_string).collect();
    println!("categories {}", counts.join(" "));
    let (passes, secs) = measure(min_time, |passes| {
        let mut sum = 0u32;
        for _ in 0..passes {
            for h in black_box(&hands) {
                sum = sum.wrapping_add(u32::from(h.rank().to_raw()));
            }
        }
        u64::from(sum)
    });
    println!("one {} {secs}", passes * hands.len() as u64);
}

/// Boards won by each hand and tied, over every turn and river.
fn spot(r: &[u8]) -> [u64; 3] {
    let (a, b, flop) = (set(&r[..4]), set(&r[4..8]), set(&r[8..11]));
    let rest: Vec<Card> = (0..52u8).filter(|c| !r.contains(c)).map(card).collect();
    let mut out = [0u64; 3];
    for (i, &t) in rest.iter().enumerate() {
        for &v in &rest[i + 1..] {
            let board = flop | t | v;
            let x = OmahaHand::new(a, board).expect("valid").rank();
            let y = OmahaHand::new(b, board).expect("valid").rank();
            let k = match x.cmp(&y) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => 2,
            };
            out[k] += 1;
        }
    }
    out
}

fn equity(path: &str, min_time: f64) {
    let bytes = read(path, 11);
    let spots: Vec<&[u8]> = bytes.chunks_exact(11).collect();
    let mut total = [0u64; 3];
    for s in &spots {
        let c = spot(s);
        for k in 0..3 {
            total[k] += c[k];
        }
    }
    println!("counts {} {} {}", total[0], total[1], total[2]);
    let (passes, secs) = measure(min_time, |passes| {
        let mut sum = 0u64;
        for _ in 0..passes {
            for s in black_box(&spots) {
                sum = sum.wrapping_add(spot(s)[0]);
            }
        }
        sum
    });
    println!("spots {} {secs}", passes * spots.len() as u64);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let min_time = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(1.0);
    match (args.first().map(String::as_str), args.get(1)) {
        (Some("eval"), Some(path)) => eval(path, min_time),
        (Some("equity"), Some(path)) => equity(path, min_time),
        _ => {
            eprintln!("usage: rs_poker_driver eval|equity FILE [MIN_TIME]");
            std::process::exit(2);
        }
    }
}
