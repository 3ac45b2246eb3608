//! The slow, obviously correct twin of [`super::play()`]: queues, a linear search of
//! the row, and a map from every state seen to the card count when it was
//! seen.

use std::collections::{HashMap, VecDeque};

use super::rules::{Face, Outcome, Rules, JACK};

/// Piles, row and the player to move.
type State = (Vec<Vec<Face>>, Vec<Face>, usize);

/// Outcome and cards played (as [`super::Record`] defines them).
pub fn play(deal: &[Face], rules: Rules) -> (Outcome, u64) {
    let n = rules.players;
    let (base, extra) = (deal.len() / n, deal.len() % n);
    let mut piles: Vec<VecDeque<Face>> = Vec::new();
    let mut at = 0;
    for p in 0..n {
        let size = base + usize::from(p < extra);
        piles.push(deal[at..at + size].iter().copied().collect());
        at += size;
    }
    let mut row: Vec<Face> = Vec::new();
    let mut mover = 0;
    let mut seen: HashMap<State, u64> = HashMap::new();
    let mut played = 0u64;
    loop {
        let state = (
            piles.iter().map(|p| p.iter().copied().collect()).collect(),
            row.clone(),
            mover,
        );
        if let Some(&first) = seen.get(&state) {
            return (
                Outcome::Cycle {
                    start: first,
                    length: played - first,
                },
                played,
            );
        }
        seen.insert(state, played);
        let card = piles[mover].pop_front().expect("the mover has cards");
        played += 1;
        let hook = card == JACK && (!row.is_empty() || rules.jack_captures_empty_row);
        let matched = row.iter().position(|&f| f == card);
        let from = if hook { Some(0) } else { matched };
        row.push(card);
        if let Some(from) = from {
            let mut taken: Vec<Face> = row.drain(from..).collect();
            if rules.reverse_captures {
                taken.reverse();
            }
            piles[mover].extend(taken);
            continue;
        }
        if piles[mover].is_empty() {
            let left: Vec<usize> = (0..n).filter(|&q| !piles[q].is_empty()).collect();
            if left.len() == 1 {
                return (Outcome::Win { winner: left[0] }, played);
            }
        }
        loop {
            mover = (mover + 1) % n;
            if !piles[mover].is_empty() {
                break;
            }
        }
    }
}
