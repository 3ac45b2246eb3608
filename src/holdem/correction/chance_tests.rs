use rand::seq::SliceRandom;

use super::*;
use crate::cards::{deck, parse_cards};
use crate::holdem::agents::{Agent, AgentKind};
use crate::holdem::equity::allin::pot_shares;
use crate::holdem::eval::evaluate;
use crate::holdem::table::pots::Pot;
use crate::holdem::table::Action;
use crate::rng::game_rng;

fn config(stacks: &[u64], button: usize) -> Config {
    Config::holdem(stacks.to_vec(), button, 1, 2)
}

/// A deck that deals `cards` first (hole cards in dealing order, then the
/// board), the rest of the 52 after them.
fn deck_with(cards: &str) -> Vec<Card> {
    let mut deck = parse_cards(cards).expect("cards");
    let used: CardSet = deck.iter().copied().collect();
    deck.extend(CardSet::FULL52.difference(used).iter());
    deck
}

/// Plays `actions` (by whoever is to act) and returns the finished hand.
fn play(config: Config, deck: &[Card], actions: &[Action]) -> HandState {
    let mut hand = HandState::new(config, deck).expect("a valid table");
    for &a in actions {
        hand.apply(a).expect("a legal action");
    }
    assert!(hand.settled().is_some(), "the hand is over");
    hand
}

fn net(hand: &HandState, s: usize) -> f64 {
    let seat = &hand.seats()[s];
    seat.stack as f64 - hand.config().stacks[s] as f64
}

/// Heads-up, button (seat 0) posts 1, seat 1 posts 2. Preflop: raise to
/// 6, call; flop: bet 10, call; turn: check, check; river: bet, fold.
pub(in crate::holdem::correction) fn raised_flop_bet_turn_river_fold() -> HandState {
    let deck = deck_with("As Kd Ah Kc 2c 7d 9h Js 3s");
    let a = [
        Action::RaiseTo(6),
        Action::Call,
        Action::Check,
        Action::RaiseTo(10),
        Action::Call,
        Action::Check,
        Action::Check,
        Action::Check,
        Action::RaiseTo(20),
        Action::Fold,
    ];
    play(config(&[100, 100], 0), &deck, &a)
}

#[test]
fn deals_record_the_chips_in_when_each_card_came() {
    let hand = raised_flop_bet_turn_river_fold();
    let d = deals(&hand).expect("a simulated hand");
    let chips: Vec<Vec<u64>> = d.iter().map(|d| d.contributed.to_vec()).collect();
    assert_eq!(chips, [[1, 2], [6, 6], [16, 16], [16, 16]]);
    let boards: Vec<(usize, usize)> = d.iter().map(|d| (d.board_before, d.board_after)).collect();
    assert_eq!(boards, [(0, 0), (0, 3), (3, 4), (4, 5)]);
    assert!(d.iter().all(|d| d.live[..] == [true, true]));
}

#[test]
fn the_crossed_luck_is_a_deals_part_where_the_pot_doubled_before_it() {
    // The hand above: the pot is 3 at the hole cards, 12 at the flop
    // (raised: doubled), 32 at the turn (a bet called: doubled) and 32 at
    // the river (checked). The crossed features are the flop's and turn's
    // parts and 0 for the river: a part times what was known before its
    // deal, so each keeps the part's mean of zero over the deal.
    let hand = raised_flop_bet_turn_river_fold();
    let c = chance_correction(&hand, 1000, &mut game_rng(3, 0)).expect("a simulated hand");
    assert_eq!(c.pot, [3.0, 12.0, 32.0, 32.0]);
    for seat in 0..2 {
        let f = super::super::baseline::Features::of(&hand, seat, &c, 0.0, &[]);
        assert_eq!(f.crossed, [c.by_deal[1][seat], c.by_deal[2][seat], 0.0]);
        assert!(f.crossed[0] != 0.0 && f.crossed[1] != 0.0);
    }
}

#[test]
fn checked_down_hands_have_no_luck_left() {
    // When no chips move after equal blinds, the corrected result of each
    // seat is its fair share of the pot minus its chips, whatever the
    // cards: exactly zero for both seats of a checked-down heads-up hand.
    // (A small blind that completes moves chips at its equity: that part
    // of the result is the play's, not the cards'.)
    let mut rng = game_rng(7, 0);
    for i in 0..50 {
        let mut cards = deck::standard52();
        cards.shuffle(&mut game_rng(11, i));
        let mut table = config(&[100, 100], (i % 2) as usize);
        table.small_blind = 2;
        let hand = play(table, &cards, &[Action::Check; 8]);
        let c = chance_correction(&hand, 1000, &mut rng).expect("a simulated hand");
        assert!(c.exact);
        for s in 0..2 {
            let corrected = net(&hand, s) - c.chips[s];
            assert!(corrected.abs() < 1e-9, "hand {i} seat {s}: {corrected}");
        }
    }
}

/// Expected chips of each seat from `pots`, counted the slow way: every
/// completion of the board from the undealt cards, each hand evaluated from
/// its seven cards, each pot split evenly among its best hands.
pub(crate) fn expected_slowly(
    holes: &[[Card; 2]],
    live: &[bool],
    board: &[Card],
    pots: &[Pot],
) -> Vec<f64> {
    let mut used: Vec<Card> = board.to_vec();
    used.extend(holes.iter().flatten());
    let rest: Vec<Card> = deck::standard52()
        .into_iter()
        .filter(|c| !used.contains(c))
        .collect();
    let missing = 5 - board.len();
    let mut won = vec![0.0; holes.len()];
    let mut boards = 0u64;
    each_subset(&rest, missing, &mut |more| {
        boards += 1;
        let full: Vec<Card> = board.iter().chain(more).copied().collect();
        for pot in pots {
            let strength = |s: usize| {
                let mut seven = full.clone();
                seven.extend(holes[s]);
                evaluate(&seven)
            };
            let best = pot
                .eligible
                .iter()
                .map(|&s| strength(s))
                .max()
                .expect("a contender");
            let winners: Vec<usize> = pot
                .eligible
                .iter()
                .copied()
                .filter(|&s| strength(s) == best)
                .collect();
            for &w in &winners {
                won[w] += pot.amount as f64 / winners.len() as f64;
            }
        }
    });
    assert!(live.iter().filter(|&&l| l).count() >= 1);
    won.iter().map(|w| w / boards as f64).collect()
}

/// Calls `f` with every `k`-card subset of `cards`.
fn each_subset(cards: &[Card], k: usize, f: &mut dyn FnMut(&[Card])) {
    fn walk(cards: &[Card], k: usize, pick: &mut Vec<Card>, f: &mut dyn FnMut(&[Card])) {
        if pick.len() == k {
            return f(pick);
        }
        for (i, &c) in cards.iter().enumerate() {
            pick.push(c);
            walk(&cards[i + 1..], k, pick, f);
            pick.pop();
        }
    }
    walk(cards, k, &mut Vec::new(), f);
}

#[test]
fn pot_shares_with_dead_cards_equal_the_slow_count() {
    // Three seats, the middle one folded (its cards are dead), a side pot:
    // on the flop (the 903 completions of the 43 cards left), the turn and
    // the river.
    let holes = [
        [Card::from_index(0), Card::from_index(13)],
        [Card::from_index(26), Card::from_index(39)],
        [Card::from_index(12), Card::from_index(25)],
    ];
    let live = [true, false, true];
    let dead: CardSet = holes[1].iter().copied().collect();
    let pots = build_pots(&[40, 10, 25], &live);
    let board = parse_cards("Qs 7d 3c 9h 2d").expect("cards");
    for b in [3, 4, 5] {
        let mut rng = game_rng(1, 1);
        let shares = pot_shares(&holes, &live, dead, &board[..b], &pots, 2000, &mut rng);
        assert!(shares.exact);
        // The slow count takes every hole card, the dead ones too, as used.
        let slow = expected_slowly(&holes, &live, &board[..b], &pots);
        for s in [0, 2] {
            let fast: f64 = pots
                .iter()
                .enumerate()
                .map(|(k, p)| p.amount as f64 * shares.share[k][s])
                .sum();
            assert!(
                (fast - slow[s]).abs() < 1e-9,
                "seat {s}: {fast} vs {}",
                slow[s]
            );
        }
    }
}

#[test]
fn each_deal_is_fair_on_average() {
    // The mean of the value after a deal over all its outcomes is the value
    // before it, exactly: for a turn and a river of a three-way hand with
    // a folded seat and a side pot.
    let holes = [
        [Card::from_index(3), Card::from_index(4)],
        [Card::from_index(30), Card::from_index(31)],
        [Card::from_index(50), Card::from_index(17)],
    ];
    let live = [true, false, true];
    let dead: CardSet = holes[1].iter().copied().collect();
    let pots = build_pots(&[60, 20, 35], &live);
    let flop = parse_cards("Ks 8h 8c").expect("cards");
    let value = |board: &[Card]| {
        let mut rng = game_rng(0, 0);
        let sh = pot_shares(&holes, &live, dead, board, &pots, 2000, &mut rng);
        assert!(sh.exact);
        [0, 2].map(|s| {
            pots.iter()
                .enumerate()
                .map(|(k, p)| p.amount as f64 * sh.share[k][s])
                .sum::<f64>()
        })
    };
    let used: CardSet = holes.iter().flatten().chain(&flop).copied().collect();
    let turns: Vec<Card> = CardSet::FULL52.difference(used).iter().collect();
    let before = value(&flop);
    let mut mean = [0.0; 2];
    for &t in &turns {
        let mut b = flop.clone();
        b.push(t);
        let after = value(&b);
        // And the river from this turn.
        let rivers: Vec<Card> = turns.iter().copied().filter(|&r| r != t).collect();
        let mut river_mean = [0.0; 2];
        for &r in &rivers {
            let mut full = b.clone();
            full.push(r);
            let v = value(&full);
            for k in 0..2 {
                river_mean[k] += v[k] / rivers.len() as f64;
            }
        }
        for k in 0..2 {
            assert!((river_mean[k] - after[k]).abs() < 1e-9);
            mean[k] += after[k] / turns.len() as f64;
        }
    }
    for k in 0..2 {
        assert!((mean[k] - before[k]).abs() < 1e-9, "{mean:?} vs {before:?}");
    }
}

/// Plays `hands` hands of `agents` from seed `seed`; per hand, seat 0's net
/// and chance correction.
fn simulate(agents: &[AgentKind], hands: u64, seed: u64) -> Vec<(f64, f64)> {
    let n = agents.len();
    let mut out = Vec::new();
    for i in 0..hands {
        let mut rng = game_rng(seed, i);
        let mut cards = deck::standard52();
        cards.shuffle(&mut rng);
        let mut hand =
            HandState::new(config(&vec![200; n], (i as usize) % n), &cards).expect("a valid table");
        while let Some(view) = hand.view() {
            let seat = view.seat();
            let mut agent = agents[seat];
            let action = agent.act(&view, &mut rng);
            hand.apply(action).expect("a legal action");
        }
        let c = chance_correction(&hand, 300, &mut rng).expect("a simulated hand");
        out.push((net(&hand, 0), c.chips[0]));
    }
    out
}

fn mean_and_se(xs: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let n = xs.clone().count() as f64;
    let mean = xs.clone().sum::<f64>() / n;
    let var = xs.map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

#[test]
fn corrections_average_zero_and_cut_the_noise() {
    // Random against station heads-up, and three random players (sampled
    // preflop values, folded hands dead): the correction's mean is within
    // 4 standard errors of zero, and the corrected result is less noisy.
    for (agents, seed) in [
        (vec![AgentKind::Random, AgentKind::Station], 5),
        (vec![AgentKind::Station, AgentKind::Station], 6),
        (vec![AgentKind::Tag, AgentKind::Station], 8),
        (
            vec![AgentKind::Random, AgentKind::Random, AgentKind::Station],
            7,
        ),
    ] {
        let rows = simulate(&agents, 3000, seed);
        let (mean, se) = mean_and_se(rows.iter().map(|r| r.1));
        assert!(mean.abs() < 4.0 * se, "{agents:?}: {mean} ± {se}");
        let (_, plain) = mean_and_se(rows.iter().map(|r| r.0));
        let (_, corrected) = mean_and_se(rows.iter().map(|r| r.0 - r.1));
        assert!(corrected < plain, "{agents:?}: {corrected} vs {plain}");
    }
}
