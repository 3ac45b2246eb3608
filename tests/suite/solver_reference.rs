//! The solver against the slow reference (plain recursion over every subset,
//! no table, no reductions) on 10^4 random deals of up to 6 cards each, under
//! both rule sets, and the move generator against brute force.

use cardsim::cards::{Card, CardSet};
use cardsim::rng::game_rng;
use cardsim::solver::{plays, reference, RuleSet, Solver};
use rand::seq::SliceRandom;
use rand::RngExt;

fn deal(rng: &mut cardsim::rng::GameRng, deck: &mut [Card]) -> (CardSet, CardSet) {
    deck.shuffle(rng);
    let ka = rng.random_range(1..=6usize);
    let kb = rng.random_range(1..=6usize);
    let a = deck[..ka].iter().copied().collect();
    let b = deck[ka..ka + kb].iter().copied().collect();
    (a, b)
}

#[test]
fn solver_agrees_with_the_reference_on_10_000_deals_per_rule_set() {
    let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
    for rules in [RuleSet::Pairs, RuleSet::TienLen] {
        let mut rng = game_rng(6, rules as u64);
        // A small table, so replacement is exercised too.
        let mut solver = Solver::new(rules, 10);
        let mut a_wins = 0;
        for i in 0..10_000 {
            let (a, b) = deal(&mut rng, &mut deck);
            let fast = solver.wins(a, b, None, 0);
            let slow = reference::wins(rules, a, b, None);
            assert_eq!(fast, slow, "deal {i} {rules:?}: {a} vs {b}");
            a_wins += usize::from(fast);
        }
        // Both outcomes occur, so the comparison is not vacuous.
        assert!(a_wins > 1000 && a_wins < 9000, "{rules:?}: {a_wins}");
    }
}

#[test]
fn tienlen_move_generation_equals_brute_force() {
    let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
    let mut rng = game_rng(8, 0);
    let mut fast = Vec::new();
    for _ in 0..3_000 {
        deck.shuffle(&mut rng);
        let n = rng.random_range(1..=10usize);
        let hand: CardSet = deck[..n].iter().copied().collect();
        let lead_pool = reference::plays(
            RuleSet::TienLen,
            deck[20..30].iter().copied().collect(),
            None,
        );
        let last = if lead_pool.is_empty() || rng.random_range(0..3) == 0 {
            None
        } else {
            Some(lead_pool[rng.random_range(0..lead_pool.len())])
        };
        plays(RuleSet::TienLen, hand, last.as_ref(), &mut fast);
        let mut got: Vec<u64> = fast.iter().map(|p| p.cards.0).collect();
        let mut want: Vec<u64> = reference::plays(RuleSet::TienLen, hand, last.as_ref())
            .iter()
            .map(|p| p.cards.0)
            .collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "{hand} after {last:?}");
    }
}
