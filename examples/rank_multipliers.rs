//! Finds the evaluator's rank multipliers (`holdem::eval::RANK_MULTIPLIERS`)
//! and checks them against the ones in the library.
//!
//! The evaluator's rank key is the sum of one multiplier per card's rank, so
//! it is additive (a card is added with one add), and it must give every
//! multiset of at most 7 cards (at most 4 of a rank) its own sum. The search
//! is greedy: each rank, deuce first, takes the smallest multiplier above
//! the previous one that keeps every sum distinct. Small multipliers keep
//! the keys below 2^25, so the row-displacement hash needs only 13 bits of
//! row and 12 of column.
//!
//! `cargo run --release --example rank_multipliers` (about 9 minutes on one
//! core: the last rank tries about 1.9 million candidates).

use cardsim::holdem::eval::RANK_MULTIPLIERS;

const MAX_CARDS: u64 = 7;

fn main() {
    let mut found: Vec<u32> = Vec::with_capacity(13);
    // (sum, cards) of every multiset over the ranks chosen so far.
    let mut sums: Vec<(u64, u64)> = vec![(0, 0)];
    // seen[v] == stamp: sum v already taken by the candidate being tried.
    let mut seen: Vec<u32> = Vec::new();
    let mut stamp = 0u32;
    let mut m = 1u64;
    for rank in 0..13 {
        loop {
            stamp += 1;
            let top = sums.iter().map(|s| s.0).max().unwrap_or(0) + 4 * m;
            if seen.len() <= top as usize {
                seen.resize(2 * top as usize + 1, 0);
            }
            if all_distinct(&sums, m, &mut seen, stamp) {
                break;
            }
            m += 1;
        }
        found.push(u32::try_from(m).expect("multipliers fit in u32"));
        sums = sums
            .iter()
            .flat_map(|&(s, n)| {
                (0..=4)
                    .filter(move |c| n + c <= MAX_CARDS)
                    .map(move |c| (s + c * m, n + c))
            })
            .collect();
        eprintln!("rank {rank}: {m} ({} multisets so far)", sums.len());
        m += 1;
    }
    println!("{found:?}");
    if found == RANK_MULTIPLIERS {
        println!("matches holdem::eval::RANK_MULTIPLIERS");
    } else {
        println!("differs from holdem::eval::RANK_MULTIPLIERS {RANK_MULTIPLIERS:?}");
        std::process::exit(1);
    }
}

/// Whether adding 0 to 4 cards of multiplier `m` to every multiset in
/// `sums` (within 7 cards) keeps all sums distinct. The old sums are
/// distinct already; the new ones are marked first, most cards first,
/// since those collide soonest, so most candidates fail fast.
fn all_distinct(sums: &[(u64, u64)], m: u64, seen: &mut [u32], stamp: u32) -> bool {
    for c in (0..=4u64).rev() {
        for &(s, n) in sums {
            if n + c > MAX_CARDS {
                continue;
            }
            let v = (s + c * m) as usize;
            if seen[v] == stamp {
                return false;
            }
            seen[v] = stamp;
        }
    }
    true
}
