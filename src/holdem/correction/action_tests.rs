use rand::seq::SliceRandom;

use super::*;
use crate::cards::deck;
use crate::holdem::agents::{Agent, AgentKind};
use crate::holdem::correction::chance::chance_correction;
use crate::holdem::table::Config;
use crate::rng::game_rng;

fn config(stacks: &[u64], button: usize) -> Config {
    Config::holdem(stacks.to_vec(), button, 1, 2)
}

fn shuffled(seed: u64, i: u64) -> Vec<Card> {
    let mut cards = deck::standard52();
    cards.shuffle(&mut game_rng(seed, i));
    cards
}

#[test]
fn the_draw_is_fair_over_every_action() {
    // At every decision of random hands, the luck of each possible action,
    // weighted by the random agent's chance of it (every raise size
    // counted one by one), adds up to zero for every seat.
    // Three-handed preflop values are sampled, so there only the flop on
    // is checked; heads-up every decision.
    let mut checked = 0;
    for i in 0..60 {
        let cards = shuffled(21, i);
        let stacks: &[u64] = if i % 2 == 0 { &[60, 45, 80] } else { &[70, 33] };
        let button = (i as usize) % stacks.len();
        let mut hand = HandState::new(config(stacks, button), &cards).expect("a valid table");
        let holes: Vec<[Card; 2]> = hand
            .seats()
            .iter()
            .map(|s| [s.hole[0], s.hole[1]])
            .collect();
        let mut rng = game_rng(22, i);
        while let Some(legal) = hand.legal() {
            if stacks.len() == 2 || hand.board().len() >= 3 {
                checked += fair_at(&hand, &holes, &legal, &mut rng);
            }
            let view = hand.view().expect("a seat to act");
            let action = AgentKind::Random.act(&view, &mut rng);
            hand.apply(action).expect("a legal action");
        }
    }
    assert!(checked > 100, "{checked}");
}

/// Checks the weighted luck of every action at this decision adds up to
/// zero; 1 for a decision checked.
fn fair_at(hand: &HandState, holes: &[[Card; 2]], legal: &Legal, rng: &mut GameRng) -> u32 {
    {
        {
            let choices = uniform_kinds(legal);
            let each = 1.0 / choices.len() as f64;
            let mut all: Vec<(Action, f64)> = Vec::new();
            for &c in &choices {
                match c {
                    Choice::Fold => all.push((Action::Fold, each)),
                    Choice::Passive if legal.can_check => all.push((Action::Check, each)),
                    Choice::Passive => all.push((Action::Call, each)),
                    Choice::Raise(lo, hi) => {
                        for to in lo..=hi {
                            all.push((Action::RaiseTo(to), each / (hi - lo + 1) as f64));
                        }
                    }
                }
            }
            let mut total = [0.0; MAX_SEATS];
            for &(a, p) in &all {
                let (term, exact) = draw_luck(hand, holes, legal, &choices, a, 2000, rng);
                assert!(exact);
                for s in 0..holes.len() {
                    total[s] += p * term[s];
                }
            }
            for (s, t) in total.iter().enumerate() {
                assert!(t.abs() < 1e-7, "seat {s}: {t}");
            }
            u32::from(choices.len() > 1)
        }
    }
}

#[test]
fn only_known_draws_are_corrected() {
    let cards = shuffled(3, 3);
    let mut hand = HandState::new(config(&[100, 100], 0), &cards).expect("a valid table");
    let mut rng = game_rng(4, 4);
    while let Some(view) = hand.view() {
        let action = AgentKind::Random.act(&view, &mut rng);
        hand.apply(action).expect("a legal action");
    }
    let none = action_correction(&hand, &[Policy::Unknown; 2], 1000, &mut rng).expect("hold'em");
    assert_eq!(none.chips, [0.0; MAX_SEATS]);
    assert_eq!(none.decisions, 0);
    let both =
        action_correction(&hand, &[Policy::UniformKinds; 2], 1000, &mut rng).expect("hold'em");
    assert!(both.decisions > 0);
    // Chips only move between the seats: the lucks add up to zero.
    let sum: f64 = both.chips.iter().sum();
    assert!(sum.abs() < 1e-9, "{sum}");
}

#[test]
fn random_play_averages_zero_and_loses_most_of_its_noise() {
    // Random against station heads-up: the action correction's mean is
    // within 4 standard errors of zero, and with the chance correction it
    // leaves less noise than the chance correction alone.
    let policies = [Policy::UniformKinds, Policy::Unknown];
    let mut rows = Vec::new();
    for i in 0..3000u64 {
        let mut rng = game_rng(31, i);
        let cards = shuffled(32, i);
        let mut hand =
            HandState::new(config(&[200, 200], (i % 2) as usize), &cards).expect("a valid table");
        while let Some(view) = hand.view() {
            let agent = [AgentKind::Random, AgentKind::Station][view.seat()];
            let action = { agent }.act(&view, &mut rng);
            hand.apply(action).expect("a legal action");
        }
        let chance = chance_correction(&hand, 300, &mut rng).expect("hold'em");
        let action = action_correction(&hand, &policies, 300, &mut rng).expect("hold'em");
        let net = hand.seats()[0].stack as f64 - 200.0;
        rows.push((net, chance.chips[0], action.chips[0]));
    }
    let stats = |f: &dyn Fn(&(f64, f64, f64)) -> f64| {
        let n = rows.len() as f64;
        let mean = rows.iter().map(f).sum::<f64>() / n;
        let var = rows.iter().map(|r| (f(r) - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, (var / n).sqrt())
    };
    let (mean, se) = stats(&|r| r.2);
    assert!(mean.abs() < 4.0 * se, "{mean} ± {se}");
    let (_, chance_only) = stats(&|r| r.0 - r.1);
    let (_, both) = stats(&|r| r.0 - r.1 - r.2);
    // Chips that follow a draw (a call of the raise) are valued with it;
    // the luck of the hole cards under later bets is left (see baseline).
    assert!(both < 0.9 * chance_only, "{both} vs {chance_only}");
}
