use rand::seq::SliceRandom;

use super::*;
use crate::cards::deck;
use crate::holdem::agents::{Agent, AgentKind, Answer, Mix};
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

/// [`draw_luck`] with 2000 trials, the river cards counted afresh.
fn luck(
    hand: &HandState,
    holes: &[[Card; 2]],
    legal: &Legal,
    choices: &[(Choice, f64)],
    taken: Action,
    rng: &mut GameRng,
) -> ([f64; MAX_SEATS], bool) {
    let values = Values {
        holes,
        trials: 2000,
        rivers: &RiverStrengths::none(),
    };
    draw_luck(hand, &values, legal, choices, taken, rng)
}

/// Checks the weighted luck of every action at this decision adds up to
/// zero; 1 for a decision checked.
fn fair_at(hand: &HandState, holes: &[[Card; 2]], legal: &Legal, rng: &mut GameRng) -> u32 {
    {
        {
            let choices = uniform_kinds(legal);
            let mut all: Vec<(Action, f64)> = Vec::new();
            for &(c, each) in &choices {
                match c {
                    Choice::Act(a) => all.push((a, each)),
                    Choice::Raise(lo, hi) => {
                        for to in lo..=hi {
                            all.push((Action::RaiseTo(to), each / (hi - lo + 1) as f64));
                        }
                    }
                }
            }
            let mut total = [0.0; MAX_SEATS];
            for &(a, p) in &all {
                let (term, exact) = luck(hand, holes, legal, &choices, a, rng);
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
    let none = action_correction(
        &hand,
        &[Policy::Unknown; 2],
        &[],
        1000,
        &RiverStrengths::none(),
        &mut rng,
    )
    .expect("hold'em");
    assert_eq!(none.chips, [0.0; MAX_SEATS]);
    assert_eq!(none.decisions, 0);
    let both = action_correction(
        &hand,
        &[Policy::UniformKinds; 2],
        &[],
        1000,
        &RiverStrengths::none(),
        &mut rng,
    )
    .expect("hold'em");
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
        let action = action_correction(
            &hand,
            &policies,
            &[],
            300,
            &RiverStrengths::none(),
            &mut rng,
        )
        .expect("hold'em");
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

/// A mixed strategy an agent might answer: fold a fifth of the time when
/// facing a bet, raise to twice the minimum a third of the time when it
/// may (else the whole raise share goes to the minimum), else check or call.
fn some_mix(legal: &Legal) -> Mix {
    let mut mixed = vec![(Answer::CheckCall, 0.5)];
    let mut rest = 0.5;
    if legal.can_fold {
        mixed.push((Answer::Fold, 0.2));
        rest -= 0.2;
    }
    match legal.raise {
        Some((lo, hi)) if 2 * lo <= hi => {
            mixed.push((Answer::RaiseTo(lo), rest / 3.0));
            mixed.push((Answer::RaiseTo(2 * lo), 2.0 * rest / 3.0));
        }
        Some((lo, _)) => mixed.push((Answer::RaiseTo(lo), rest)),
        None => mixed[0].1 += rest,
    }
    Mix::new(&mixed, legal).expect("a legal mix")
}

#[test]
fn a_mixed_answer_is_fair_over_its_own_actions() {
    // At every decision of heads-up hands played by a mixed strategy, the
    // luck of each action it could have drawn, weighted by its
    // probability, adds up to zero for every seat: the correction of a
    // mixed answer has mean zero over the draw, whatever the mix.
    let mut checked = 0;
    for i in 0..40 {
        let cards = shuffled(41, i);
        let mut hand =
            HandState::new(config(&[90, 60], (i % 2) as usize), &cards).expect("a valid table");
        let holes: Vec<[Card; 2]> = hand
            .seats()
            .iter()
            .map(|s| [s.hole[0], s.hole[1]])
            .collect();
        let mut rng = game_rng(42, i);
        while let Some(legal) = hand.legal() {
            let mix = some_mix(&legal);
            let choices: Vec<(Choice, f64)> = mix
                .choices()
                .iter()
                .map(|&(a, p)| (Choice::Act(a), p))
                .collect();
            let mut total = [0.0; MAX_SEATS];
            for &(a, p) in mix.choices() {
                let (term, exact) = luck(&hand, &holes, &legal, &choices, a, &mut rng);
                assert!(exact);
                for s in 0..2 {
                    total[s] += p * term[s];
                }
            }
            for (s, t) in total.iter().enumerate() {
                assert!(t.abs() < 1e-7, "hand {i}, seat {s}: {t}");
            }
            checked += u32::from(mix.choices().len() > 1);
            hand.apply(mix.draw(&mut rng)).expect("a legal action");
        }
    }
    assert!(checked > 60, "{checked}");
}

#[test]
fn mixed_answers_are_corrected_at_their_own_decisions() {
    // Seat 0 plays a mix, seat 1 checks or calls: only seat 0's drawn
    // decisions are corrected, whatever the seats' policies say.
    let cards = shuffled(5, 5);
    let mut hand = HandState::new(config(&[100, 100], 0), &cards).expect("a valid table");
    let mut rng = game_rng(6, 6);
    let mut mixes = Vec::new();
    while let Some(legal) = hand.legal() {
        let action = if legal.seat == 0 {
            let mix = some_mix(&legal);
            let action = mix.draw(&mut rng);
            mixes.push((hand.history().len(), mix));
            action
        } else if legal.can_check {
            Action::Check
        } else {
            Action::Call
        };
        hand.apply(action).expect("a legal action");
    }
    let drawn = mixes.iter().filter(|(_, m)| m.choices().len() > 1).count() as u32;
    assert!(drawn > 0);
    let mixed = action_correction(
        &hand,
        &[Policy::Unknown; 2],
        &mixes,
        1000,
        &RiverStrengths::none(),
        &mut rng,
    )
    .expect("hold'em");
    assert_eq!(mixed.decisions, drawn);
    let sum: f64 = mixed.chips.iter().sum();
    assert!(sum.abs() < 1e-9, "{sum}");
    assert!(mixed.chips[0] != 0.0);
}

#[test]
fn a_hands_river_strengths_leave_its_corrections_as_they_were() {
    // Random play two and three handed, every seat's draws corrected: the
    // chance and action corrections counted with the hand's river
    // strengths are those counted without, bit for bit (the generator
    // too: the river counts never draw from it).
    use crate::holdem::correction::chance::{chance_of_deals, deals, river_strengths};
    use crate::holdem::correction::ChanceCorrection;
    use rand::RngExt;
    let mut turns = 0;
    for i in 0..200u64 {
        let stacks: &[u64] = if i % 2 == 0 { &[60, 45, 80] } else { &[70, 33] };
        let cards = shuffled(41, i);
        let mut hand = HandState::new(config(stacks, (i % 2) as usize), &cards).expect("a table");
        let mut rng = game_rng(42, i);
        while let Some(view) = hand.view() {
            let action = AgentKind::Random.act(&view, &mut rng);
            hand.apply(action).expect("a legal action");
        }
        let deals = deals(&hand).expect("hold'em");
        let rivers = river_strengths(&hand, &deals);
        turns += usize::from(hand.board().len() >= 4);
        let policies = vec![Policy::UniformKinds; stacks.len()];
        let none = RiverStrengths::none();
        let mut counted = Vec::new();
        for r in [&rivers, &none] {
            let mut rng = game_rng(43, i);
            let chance = chance_of_deals(&hand, &deals, 50, r, &mut rng);
            let action = action_correction(&hand, &policies, &[], 50, r, &mut rng).expect("ok");
            counted.push((chance, action, rng.random::<u64>()));
        }
        let bits = |(c, a, next): &(ChanceCorrection, ActionCorrection, u64)| {
            let mut v: Vec<u64> = c
                .chips
                .iter()
                .chain(a.chips.iter())
                .map(|x| x.to_bits())
                .collect();
            v.extend(c.by_deal.iter().flatten().map(|x| x.to_bits()));
            v.extend(c.after.iter().flatten().map(|x| x.to_bits()));
            v.push(*next);
            v
        };
        assert_eq!(bits(&counted[0]), bits(&counted[1]), "hand {i}");
    }
    assert!(turns > 50, "{turns} hands saw the turn");
}
