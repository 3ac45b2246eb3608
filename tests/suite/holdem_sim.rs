//! The hold'em simulation as a library: agents only ever act legally, chips
//! are conserved after every action over a million random hands, all-in
//! equity adds up, and hand histories replay to the same stacks.

use crate::common;
use cardsim::cards::Card;
use cardsim::holdem::agents::{Agent, AgentKind};
use cardsim::holdem::phh::{self, ReplayOptions};
use cardsim::holdem::sim::{play_hand, HoldemGame, StackSpec};
use cardsim::holdem::table::random::{play_random_hand, random_config};
use cardsim::holdem::table::{Action, HandState};
use cardsim::rng::game_rng;
use rand::seq::SliceRandom;
use rand::RngExt;
use rayon::prelude::*;

fn game(agents: &[AgentKind], stacks: StackSpec) -> HoldemGame {
    HoldemGame {
        allin_trials: 200,
        ..HoldemGame::new(agents.iter().map(|&a| a.into()).collect(), stacks)
    }
}

/// 10^6 hands of random agents at random tables (2 to 10 seats, stacks of
/// 1 to 400 chips, random blinds, antes and switches: `random_config`): after every action
/// the chips are conserved, the agent's action was among the legal ones,
/// and a random illegal probe is refused without any change.
#[test]
fn a_million_random_hands_conserve_chips_and_accept_nothing_illegal() {
    const HANDS: u64 = 1_000_000;
    let failures: u64 = (0..HANDS / 1000)
        .into_par_iter()
        .map(|chunk| {
            let mut deck: Vec<Card> = Vec::with_capacity(52);
            for g in chunk * 1000..(chunk + 1) * 1000 {
                let mut rng = game_rng(4242, g);
                let config = random_config(&mut rng, 400);
                let bb = config.big_blind;
                let start: u64 = config.stacks.iter().sum();
                deck.clear();
                deck.extend((0..52).map(Card::from_index));
                deck.shuffle(&mut rng);
                let mut h = HandState::new(config, &deck).unwrap();
                let mut agent = AgentKind::Random;
                let mut steps = 0;
                while let Some(view) = h.view() {
                    let legal = view.legal();
                    let action = agent.act(&view, &mut rng);
                    // An illegal probe: refused, nothing changes.
                    let probe = match rng.random_range(0..4) {
                        0 if !legal.can_fold => Some(Action::Fold),
                        1 if !legal.can_check => Some(Action::Check),
                        2 if legal.call.is_none() => Some(Action::Call),
                        3 => Some(Action::RaiseTo(match legal.raise {
                            Some((lo, _)) if lo > 0 => lo - 1,
                            Some((_, hi)) => hi + 1,
                            None => legal.call.unwrap_or(0) + 2 * bb + 1,
                        })),
                        _ => None,
                    };
                    if let Some(p) = probe {
                        let before = h.clone();
                        assert!(
                            h.apply(p).is_err(),
                            "hand {g}: accepted {p:?} outside {legal:?}"
                        );
                        assert!(h == before, "hand {g}: a refused {p:?} changed the hand");
                    }
                    h.apply(action)
                        .unwrap_or_else(|e| panic!("hand {g}: agent's {action:?} refused: {e}"));
                    assert_eq!(common::chips_on_table(&h), start, "hand {g}: chips");
                    steps += 1;
                    assert!(steps < 1000, "hand {g}: never ends");
                }
                assert_eq!(
                    common::chips_on_table(&h),
                    start,
                    "hand {g}: chips after payout"
                );
                let pay = h.payout().unwrap();
                assert!(pay
                    .shares
                    .iter()
                    .flatten()
                    .all(|&(s, _)| !h.seats()[s].folded));
            }
            1000
        })
        .sum();
    assert_eq!(failures, HANDS);
}

#[test]
fn every_agent_plays_legally_and_results_add_up() {
    let kinds = [
        AgentKind::Tag,
        AgentKind::Station,
        AgentKind::PushFold,
        AgentKind::Random,
        AgentKind::Tag,
        AgentKind::PushFold,
    ];
    let g = game(&kinds, StackSpec::Uniform(4, 300));
    let mut all_ins = 0;
    for i in 0..20_000 {
        let r = play_hand(&g, i, 77);
        let h = &r.hand;
        let start: u64 = h.config().stacks.iter().sum();
        assert_eq!(common::chips_on_table(h), start, "hand {i}");
        if let Some(a) = &r.allin {
            all_ins += 1;
            // Expected winnings share out exactly the pot.
            let pot: u64 = h.seats().iter().map(|s| s.contributed).sum();
            let expected: f64 = a.expected_won.iter().sum();
            assert!(
                (expected - pot as f64).abs() < 1e-6,
                "hand {i}: {expected} vs {pot}"
            );
            let eq: f64 = a.equity.iter().sum();
            assert!((eq - 1.0).abs() < 1e-9, "hand {i}: equities sum to {eq}");
            for (s, seat) in h.seats().iter().enumerate() {
                if seat.folded {
                    assert_eq!(a.equity[s], 0.0);
                }
            }
        }
    }
    assert!(all_ins > 1000, "{all_ins} all-ins");
}

#[test]
fn station_and_pushfold_behave_as_documented() {
    // Four calling stations never fold or raise.
    let g = game(&[AgentKind::Station; 4], StackSpec::Fixed(200));
    for i in 0..2000 {
        let r = play_hand(&g, i, 5);
        assert!(r
            .hand
            .history()
            .iter()
            .all(|&(_, a)| matches!(a, Action::Check | Action::Call)));
        // Nobody folds, so the hand always reaches a showdown.
        assert!(r.hand.payout().unwrap().showdown);
    }
    // Push-or-fold players preflop only ever fold, call or go all-in.
    let g = game(&[AgentKind::PushFold; 6], StackSpec::Uniform(4, 40));
    for i in 0..2000 {
        let r = play_hand(&g, i, 6);
        let h = &r.hand;
        let preflop = h.dealt_after()[0].unwrap_or(h.history().len());
        for &(seat, a) in &h.history()[..preflop] {
            if let Action::RaiseTo(to) = a {
                let start = h.config().stacks[seat];
                // All-in: the raise-to is everything it had (less the ante).
                assert_eq!(to, start - h.config().ante.min(start), "hand {i}");
            }
        }
    }
}

#[test]
fn hands_are_a_function_of_seed_and_index_only() {
    let g = game(&[AgentKind::Random; 6], StackSpec::Uniform(10, 400));
    for i in [0u64, 1, 999, 123_456] {
        let a = play_hand(&g, i, 9);
        let b = play_hand(&g, i, 9);
        assert!(a.hand == b.hand);
        assert_eq!(a.allin, b.allin);
    }
    assert!(play_hand(&g, 1, 9).hand != play_hand(&g, 1, 10).hand);
}

/// Every hand exported as PHH and replayed through the engine ends with the
/// same stacks and the same actions, under both switch settings.
#[test]
fn phh_round_trips_through_the_engine() {
    for pokerkit in [false, true] {
        for g in 0..3000 {
            let (h, _) = play_random_hand(&mut game_rng(31, g), pokerkit);
            let text = phh::export(&h, Some(g));
            let tables = phh::parse_all(&text).unwrap();
            assert_eq!(tables.len(), 1);
            let r = phh::replay(&tables[0], ReplayOptions::default())
                .unwrap_or_else(|e| panic!("hand {g}: {e}\n{text}"));
            let stacks: Vec<u64> = h.seats().iter().map(|s| s.stack).collect();
            let n = stacks.len();
            let b = h.config().button;
            let by_player: Vec<u64> = (0..n).map(|i| stacks[(b + 1 + i) % n]).collect();
            assert_eq!(r.finishing_stacks, by_player, "hand {g}\n{text}");
            assert_eq!(r.expected.as_deref(), Some(by_player.as_slice()));
            assert_eq!(r.hand, Some(g as i64));
            assert_eq!(r.state.history().len(), h.history().len(), "hand {g}");
        }
    }
    // Many hands in one .phhs text.
    let hands: Vec<HandState> = (0..50)
        .map(|g| play_random_hand(&mut game_rng(32, g), false).0)
        .collect();
    let text = phh::export_many(hands.iter().map(|h| (h, None)));
    assert_eq!(phh::parse_all(&text).unwrap().len(), 50);
}

fn replay_error(text: &str) -> String {
    let tables = match phh::parse_all(text) {
        Ok(t) => t,
        Err(e) => return e.to_string(),
    };
    phh::replay(&tables[0], ReplayOptions::default())
        .map(|_| String::new())
        .unwrap_or_else(|e| e.to_string())
}

const HEADS_UP: &str = "variant = 'NT'\nantes = 0\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n\
                        starting_stacks = [100, 100]\n";

#[test]
fn bad_histories_name_the_first_illegal_action() {
    // p2 is the button heads-up: it acts first preflop.
    let ok = format!(
        "{HEADS_UP}actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 6', 'p1 f']\n\
         finishing_stacks = [98, 102]\n"
    );
    assert_eq!(replay_error(&ok), "");
    let out_of_turn = format!("{HEADS_UP}actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p1 cc']\n");
    assert_eq!(
        replay_error(&out_of_turn),
        "action 2 ('p1 cc'): out of turn: p2 is to act"
    );
    let small_raise =
        format!("{HEADS_UP}actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 6', 'p1 cbr 7']\n");
    assert!(replay_error(&small_raise).starts_with("action 3 ('p1 cbr 7'): raise to 7 is outside"));
    let unfinished = format!("{HEADS_UP}actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cc']\n");
    assert!(replay_error(&unfinished).contains("ends before the hand does (p1 is to act)"));
    let twice = format!("{HEADS_UP}actions = ['d dh p1 AsAh', 'd dh p2 AsKh', 'p2 f']\n");
    assert!(replay_error(&twice).contains("card As is dealt twice"));
    let wrong_show = format!(
        "{HEADS_UP}actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cc', 'p1 cc', 'p1 sm 2c2d']\n"
    );
    assert!(replay_error(&wrong_show).contains("shows cards it was not dealt"));
    assert!(
        replay_error("variant = 'FT'\n").contains("is missing")
            || replay_error("variant = 'FT'\n").contains("not supported")
    );
    assert!(replay_error("this is not toml = = ").starts_with("not a PHH file"));
    // Issue 24: straddles and decimal amounts are valid PHH and replay.
    let straddle = "variant = 'NT'\nantes = 0\nblinds_or_straddles = [1, 2, 4]\nmin_bet = 2\n\
                    starting_stacks = [100, 100, 100]\nactions = ['d dh p1 AsAh', \
                    'd dh p2 KsKh', 'd dh p3 QsQh', 'p1 f', 'p2 f']\n";
    assert_eq!(replay_error(straddle), "");
    let fraction = "variant = 'NT'\nantes = 0\nblinds_or_straddles = [0.5, 1]\nmin_bet = 1\n\
                    starting_stacks = [100, 100]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 f']\n";
    assert_eq!(replay_error(fraction), "");
}
