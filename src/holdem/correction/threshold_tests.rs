use super::*;

/// The chance of each score by listing every subset of a small pool.
fn brute(pool: Pool, n: u32) -> Vec<f64> {
    let mut deals = Vec::new();
    deals.extend(std::iter::repeat_n(2u32, pool.wins as usize));
    deals.extend(std::iter::repeat_n(1u32, pool.splits as usize));
    deals.extend(std::iter::repeat_n(0u32, pool.losses as usize));
    let mut counts = vec![0u64; 2 * n as usize + 1];
    let mut subsets = 0u64;
    for mask in 0u32..(1 << deals.len()) {
        if mask.count_ones() == n {
            let k: u32 = (0..deals.len())
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| deals[i])
                .sum();
            counts[k as usize] += 1;
            subsets += 1;
        }
    }
    counts.iter().map(|&c| c as f64 / subsets as f64).collect()
}

#[test]
fn subset_scores_match_a_listing_of_every_subset() {
    for (w, t, l, n) in [
        (3, 2, 4, 4),
        (5, 0, 5, 3),
        (0, 3, 7, 5),
        (9, 1, 2, 6),
        (4, 4, 4, 12),
        (6, 0, 0, 2),
    ] {
        let pool = Pool {
            wins: w,
            splits: t,
            losses: l,
        };
        let mut got = vec![9.0; 2 * n as usize + 1];
        subset_halves(pool, n, &mut got);
        let want = brute(pool, n);
        for (k, (a, b)) in got.iter().zip(&want).enumerate() {
            assert!((a - b).abs() < 1e-12, "{pool:?} n={n} k={k}: {a} vs {b}");
        }
    }
}

#[test]
fn plan_segments_find_every_step() {
    // Step functions of up to three plans, the steps anywhere (at the
    // ends, side by side, one point wide): the stretches equal a plain
    // scan of every point.
    for a in 0..=10usize {
        for b in a..=11 {
            let plan = |k: usize| u8::from(k >= a) + u8::from(k >= b);
            let mut want: Vec<(usize, usize, u8)> = Vec::new();
            for k in 0..=10 {
                match want.last_mut() {
                    Some((_, hi, p)) if *p == plan(k) => *hi = k,
                    _ => want.push((k, k, plan(k))),
                }
            }
            let mut got: Vec<(usize, usize, u8)> = Vec::new();
            plan_segments(10, plan, |lo, hi, p| match got.last_mut() {
                Some((_, end, q)) if *q == p && *end + 1 == lo => *end = hi,
                _ => got.push((lo, hi, p)),
            });
            assert_eq!(got, want, "steps at {a} and {b}");
        }
    }
}

use crate::cards::{deck, Card, CardSet};
use crate::holdem::agents::{deal_outcomes, DealOutcomes, Mix, TagPlan};
use crate::holdem::eval::Hand;
use crate::holdem::table::{Config, HandState};
use crate::rng::game_rng;
use rand::seq::SliceRandom;

/// The exact chances of one deal against a random hand on a full board:
/// (won, split, lost), over every pair of unseen cards.
fn river_odds(hole: [Card; 2], board: &[Card]) -> (f64, f64, f64) {
    let known: CardSet = hole.iter().chain(board).copied().collect();
    let unseen: Vec<Card> = deck::standard52()
        .into_iter()
        .filter(|c| !known.contains(*c))
        .collect();
    let me = Hand::from_cards(board)
        .combine(Hand::from_cards(&hole))
        .strength();
    let (mut w, mut t, mut all) = (0u32, 0u32, 0u32);
    for i in 0..unseen.len() {
        for j in i + 1..unseen.len() {
            let opp = Hand::from_cards(board)
                .with(unseen[i])
                .with(unseen[j])
                .strength();
            all += 1;
            w += u32::from(opp < me);
            t += u32::from(opp == me);
        }
    }
    let all = f64::from(all);
    (
        f64::from(w) / all,
        f64::from(t) / all,
        f64::from(all as u32 - w - t) / all,
    )
}

/// The exact chance of each score (halves won) of `n` independent deals.
fn score_law(n: u32, (w, t, l): (f64, f64, f64)) -> Vec<f64> {
    let mut law = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; law.len() + 2];
        for (k, &p) in law.iter().enumerate() {
            next[k] += p * l;
            next[k + 1] += p * t;
            next[k + 2] += p * w;
        }
        law = next;
    }
    law
}

/// A heads-up hand checked down to the river, `tag`'s seat to act.
fn river_spot(seed: u64) -> HandState {
    let mut cards = deck::standard52();
    cards.shuffle(&mut game_rng(seed, 0));
    let mut hand =
        HandState::new(Config::holdem(vec![200, 200], 0, 1, 2), &cards).expect("a table");
    while hand.board().len() < 5 || hand.legal().is_some_and(|l| l.call.is_some()) {
        let legal = hand.legal().expect("a seat to act");
        let passive = if legal.can_check {
            Action::Check
        } else {
            Action::Call
        };
        hand.apply(passive).expect("a legal action");
    }
    hand
}

#[test]
fn estimated_chances_average_to_the_exact_chances() {
    // River spots where tag's bet is a real draw (its exact chance
    // between 0.15 and 0.85, from every opponent hand): over independent
    // replays, the estimate's mean is the exact chance, and tag's own
    // bets come as often; for the default tag and one that bluffs.
    let bluffer = TagParams {
        bluff: 0.3,
        ..TagParams::DEFAULT
    };
    let mut spots = 0;
    for seed in 0..400 {
        let hand = river_spot(seed);
        let view = hand.view().expect("a seat to act");
        let legal = view.legal();
        let odds = river_odds(view.hole(), view.board());
        let law = score_law(EQUITY_DEALS, odds);
        let bet_of = |plan: TagPlan| match plan.choices() {
            [(Action::RaiseTo(_), p), _] => p,
            [_, (Action::RaiseTo(_), p)] => p,
            _ => 0.0,
        };
        let exact_of = |params: &TagParams| -> f64 {
            law.iter()
                .enumerate()
                .map(|(k, p)| {
                    p * bet_of(tag_postflop(&view, &legal, params, (k as f64 / 2.0) / 64.0))
                })
                .sum()
        };
        if !(0.15..=0.85).contains(&exact_of(&TagParams::DEFAULT)) {
            continue;
        }
        spots += 1;
        for params in [&TagParams::DEFAULT, &bluffer] {
            let exact = exact_of(params);
            let reps = 3000u64;
            let (mut sum, mut squares, mut bets) = (0.0, 0.0, 0.0);
            for r in 0..reps {
                let mut rng = game_rng(seed * 7 + 1, r);
                let own = deal_outcomes(view.hole(), view.board(), 1, EQUITY_DEALS, &mut rng);
                let fresh = fresh_deals(view.hole(), view.board(), FRESH_DEALS, &mut rng);
                let bet = tag_chances(&view, &legal, params, own, fresh).map_or_else(
                    || bet_of(tag_postflop(&view, &legal, params, own.equity())),
                    |mix| {
                        mix.choices()
                            .iter()
                            .filter(|(a, _)| matches!(a, Action::RaiseTo(_)))
                            .map(|&(_, p)| p)
                            .sum()
                    },
                );
                sum += bet;
                squares += bet * bet;
                bets += bet_of(tag_postflop(&view, &legal, params, own.equity()));
            }
            let n = reps as f64;
            let mean = sum / n;
            let se = ((squares / n - mean * mean) / n).sqrt();
            assert!(
                (mean - exact).abs() < 4.5 * se + 1e-9,
                "seed {seed}: {mean} ± {se} vs {exact}"
            );
            // Tag's own chance, from its estimate alone: an indicator (or
            // its bluff's chance) with a larger spread.
            let own_se = (exact * (1.0 - exact) / n).sqrt();
            assert!(
                (bets / n - exact).abs() < 4.5 * own_se,
                "seed {seed}: {} vs {exact}",
                bets / n
            );
            // The pooled estimate is less noisy than tag's own draw.
            assert!(se < own_se, "seed {seed}: {se} vs {own_se}");
        }
        if spots >= 4 {
            break;
        }
    }
    assert!(spots >= 4, "{spots}");
}

#[test]
fn the_estimate_is_exactly_unbiased_over_every_pool() {
    // Over every pool of 128 deals (its counts' multinomial chances from a
    // deal's exact odds), the mean of the estimated chance of a bet is the
    // exact chance that 64 deals make tag bet: unbiased, not merely
    // close. At a river spot where the bet is a real draw, with ties, for
    // the default tag and one that bluffs.
    let bluffer = TagParams {
        bluff: 0.3,
        ..TagParams::DEFAULT
    };
    let (hand, odds) = (0..400)
        .map(river_spot)
        .find_map(|hand| {
            let view = hand.view().expect("a seat to act");
            let odds = river_odds(view.hole(), view.board());
            let law = score_law(EQUITY_DEALS, odds);
            let p: f64 = law[90..].iter().sum(); // 45 or more of 64: 0.7
            ((0.2..=0.8).contains(&p) && odds.1 > 0.0).then_some((hand, odds))
        })
        .expect("a spot");
    let view = hand.view().expect("a seat to act");
    let legal = view.legal();
    let law = score_law(EQUITY_DEALS, odds);
    let pool_size = EQUITY_DEALS + FRESH_DEALS;
    let ln = |x: f64| if x > 0.0 { x.ln() } else { f64::NEG_INFINITY };
    let lnf = |n: u32| (1..=n).map(|k| f64::from(k).ln()).sum::<f64>();
    for params in [&TagParams::DEFAULT, &bluffer] {
        let bet_in = |mix: Option<Mix>, fallback: f64| {
            mix.map_or(fallback, |m| {
                m.choices()
                    .iter()
                    .filter(|(a, _)| matches!(a, Action::RaiseTo(_)))
                    .map(|&(_, p)| p)
                    .sum()
            })
        };
        let plan_bet = |k: usize| {
            let plan = tag_postflop(&view, &legal, params, (k as f64 / 2.0) / 64.0);
            plan.choices()
                .iter()
                .filter(|(a, _)| matches!(a, Action::RaiseTo(_)))
                .map(|&(_, p)| p)
                .sum::<f64>()
        };
        let exact: f64 = law.iter().enumerate().map(|(k, p)| p * plan_bet(k)).sum();
        let mut mean = 0.0;
        for w in 0..=pool_size {
            for t in 0..=pool_size - w {
                let l = pool_size - w - t;
                let chance = (lnf(pool_size) - lnf(w) - lnf(t) - lnf(l)
                    + f64::from(w) * ln(odds.0)
                    + f64::from(t) * ln(odds.1)
                    + f64::from(l) * ln(odds.2))
                .exp();
                if chance == 0.0 {
                    continue;
                }
                // Any split of the pool between tag's deals and the
                // fresh ones gives the same estimate.
                let ow = w.min(EQUITY_DEALS);
                let ot = t.min(EQUITY_DEALS - ow);
                let own = DealOutcomes {
                    deals: EQUITY_DEALS,
                    splits: ot,
                    won: f64::from(ow) + f64::from(ot) / 2.0,
                };
                let fresh = DealOutcomes {
                    deals: FRESH_DEALS,
                    splits: t - ot,
                    won: f64::from(w - ow) + f64::from(t - ot) / 2.0,
                };
                // One action left: its chance, as tag would take it.
                let only = plan_bet(2 * w.min(64) as usize);
                mean += chance * bet_in(tag_chances(&view, &legal, params, own, fresh), only);
            }
        }
        assert!((mean - exact).abs() < 1e-9, "{mean} vs {exact}");
        assert!(
            (0.2..=0.8).contains(&exact) || params.bluff > 0.0,
            "{exact}"
        );
    }
}

#[test]
fn fresh_deals_are_drawn_as_tag_draws_its_own() {
    // On the river against the exact odds; on the flop and the turn
    // against tag's own sampler: the chances of a win and of a split
    // agree within 4.5 standard errors (80,000 deals each).
    let deals = 80_000;
    for seed in 0..3u64 {
        let hand = river_spot(seed);
        let view = hand.view().expect("a seat to act");
        let (hole, board) = (view.hole(), view.board());
        let mut rng = game_rng(99, seed);
        for cards in [3, 4, 5] {
            let fresh = fresh_deals(hole, &board[..cards], deals, &mut rng);
            let (w, t) = if cards == 5 {
                let (w, t, _) = river_odds(hole, board);
                (w, t)
            } else {
                let own = deal_outcomes(hole, &board[..cards], 1, 4 * deals, &mut rng);
                let n = f64::from(own.deals);
                (
                    f64::from(own.heads_up_wins()) / n,
                    f64::from(own.splits) / n,
                )
            };
            let n = f64::from(deals);
            for (got, want) in [(fresh.heads_up_wins(), w), (fresh.splits, t)] {
                let se = (want * (1.0 - want) / n).sqrt().max(1.0 / n);
                let got = f64::from(got) / n;
                assert!(
                    (got - want).abs() < 4.5 * se * 1.2,
                    "seed {seed}, {cards} cards: {got} vs {want}"
                );
            }
        }
    }
}
