//! Tiến lên: legal-play generation against the brute-force reference on
//! random hands and positions, hand-made tricks, and properties over random
//! games (every play legal, cards conserved, no one acts after passing in a
//! trick, every game ends).

use cardsim::cards::{parse_card_set, Card, CardSet};
use cardsim::rng::game_rng;
use cardsim::tienlen::agents::{AgentKind, GreedyAgent, Legal, PlannerAgent, RandomAgent};
use cardsim::tienlen::game::{deal, first_leader, play, Event};
use cardsim::tienlen::moves::MoveGen;
use cardsim::tienlen::{classify, legal_plays, reference_plays, Agent, Combo, RuleSet};
use rand::seq::SliceRandom;
use rand::RngExt;
use rayon::prelude::*;

fn sorted(mut v: Vec<Combo>) -> Vec<Combo> {
    v.sort_by_key(|c| c.cards.0);
    v
}

/// 10^5 random hands (1 to 13 cards) and positions (a lead, or a random
/// combination to beat drawn from the other cards), under both rule sets.
#[test]
fn legal_plays_match_the_brute_force_reference() {
    let mut out = Vec::new();
    for (k, rules) in [RuleSet::Cambodian, RuleSet::Vietnamese]
        .into_iter()
        .enumerate()
    {
        let mut rng = game_rng(77, k as u64);
        let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
        for _ in 0..50_000 {
            deck.shuffle(&mut rng);
            let n = rng.random_range(1..=13);
            let hand: CardSet = deck[..n].iter().copied().collect();
            // A position: a lead, or a combination found among the next
            // cards (a random subset that classifies).
            let last = if rng.random_bool(0.2) {
                None
            } else {
                let pool = &deck[n..n + 8];
                (0..20).find_map(|_| {
                    let m: u32 = rng.random_range(1..256);
                    let set: CardSet = (0..8)
                        .filter(|i| m >> i & 1 == 1)
                        .map(|i| pool[i])
                        .collect();
                    classify(rules, set)
                })
            };
            let must = (rng.random_bool(0.1) && last.is_none()).then(|| deck[0]);
            legal_plays(rules, hand, last.as_ref(), must, &mut out);
            let fast = sorted(out.clone());
            let slow = sorted(reference_plays(rules, hand, last.as_ref(), must));
            assert_eq!(fast, slow, "{rules:?} hand {hand:?} last {last:?}");
        }
    }
}

/// A scripted agent: plays the given cards in order ("pass" passes).
struct Script(Vec<&'static str>);

impl Agent for Script {
    fn choose(
        &mut self,
        _view: &cardsim::tienlen::View,
        legal: &mut Legal<'_>,
        _rng: &mut cardsim::rng::GameRng,
    ) -> Option<Combo> {
        let next = self.0.remove(0);
        if next == "pass" {
            return None;
        }
        let cards = parse_card_set(next).unwrap();
        let legal = legal.all();
        Some(
            *legal
                .iter()
                .find(|c| c.cards == cards)
                .unwrap_or_else(|| panic!("{next} is not legal here: {legal:?}")),
        )
    }
}

fn hands(h: [&str; 4]) -> [CardSet; 4] {
    h.map(|s| parse_card_set(s).unwrap())
}

#[test]
fn a_trick_ends_when_all_others_pass_and_the_last_player_leads() {
    // Seat 0 holds 3h and leads; 1 beats; 2 and 3 and 0 pass; 1 leads again.
    let h = hands(["3h 9s", "5d Kc", "4c 7d", "6s 8h"]);
    let mut a = Script(vec!["3h", "pass", "pass", "9s"]);
    let mut b = Script(vec!["5d", "Kc"]);
    let mut c = Script(vec!["pass", "pass", "4c", "pass", "7d"]);
    let mut d = Script(vec!["pass", "pass", "6s", "pass"]);
    let mut agents: Vec<&mut dyn Agent> = vec![&mut a, &mut b, &mut c, &mut d];
    let mut trace = Vec::new();
    let out = play(
        RuleSet::Cambodian,
        h,
        &mut agents,
        &mut game_rng(0, 0),
        Some(&mut trace),
    );
    let expected_start = [
        Event::Lead(0),
        Event::Play(
            0,
            classify(RuleSet::Cambodian, parse_card_set("3h").unwrap()).unwrap(),
        ),
        Event::Play(
            1,
            classify(RuleSet::Cambodian, parse_card_set("5d").unwrap()).unwrap(),
        ),
        Event::Pass(2),
        Event::Pass(3),
        Event::Pass(0),
        Event::Lead(1),
    ];
    assert_eq!(&trace[..7], &expected_start);
    // Seat 1 leads Kc and goes out; everyone passes, so seat 2 (next after
    // seat 1) leads 4c; 3 and 0 beat it, 0 goes out on 9s, nobody beats it,
    // seat 2 leads its last card and the game is over.
    assert_eq!(out.order, vec![1, 0, 2, 3]);
    assert_eq!(out.position[..4], [2, 1, 3, 4]);
    assert_eq!((out.tricks, out.passes), (4, 8));
}

#[test]
fn when_the_last_player_went_out_the_next_in_turn_leads() {
    // Seat 0 leads 3h, seat 1 plays its last card 2s and goes out; the others
    // pass; seat 2 (next after seat 1) leads the next trick.
    let h = hands(["3h 4h 5c", "2s", "6d 7d", "8c 9c"]);
    let mut a = Script(vec!["3h", "pass", "pass", "pass", "4h"]);
    let mut b = Script(vec!["2s"]);
    let mut c = Script(vec!["pass", "6d", "pass", "pass", "7d"]);
    let mut d = Script(vec!["pass", "8c", "9c"]);
    let mut agents: Vec<&mut dyn Agent> = vec![&mut a, &mut b, &mut c, &mut d];
    let mut trace = Vec::new();
    let out = play(
        RuleSet::Cambodian,
        h,
        &mut agents,
        &mut game_rng(0, 0),
        Some(&mut trace),
    );
    let lead_pos = trace.iter().position(|e| *e == Event::Out(1)).unwrap();
    let next_lead = trace[lead_pos..]
        .iter()
        .find_map(|e| match e {
            Event::Lead(s) => Some(*s),
            _ => None,
        })
        .unwrap();
    assert_eq!(next_lead, 2);
    assert_eq!(out.order[0], 1);
    assert_eq!(out.order.len(), 4);
}

#[test]
fn a_bomb_chops_a_two_and_is_counted() {
    let h = hands(["3h 2s", "7h 7s 7d 7c", "4c", "5c"]);
    let mut a = Script(vec!["3h", "2s"]);
    let mut b = Script(vec!["pass", "7h 7s 7d 7c"]);
    let mut c = Script(vec!["pass", "pass", "4c"]);
    let mut d = Script(vec!["pass", "pass"]);
    let mut agents: Vec<&mut dyn Agent> = vec![&mut a, &mut b, &mut c, &mut d];
    let out = play(
        RuleSet::Cambodian,
        h,
        &mut agents,
        &mut game_rng(0, 0),
        None,
    );
    assert_eq!(out.chops, 1);
    assert_eq!(&out.order[..2], &[0, 1]);
}

#[test]
fn first_lead_holds_the_three_and_set_aside_cards_pass_to_the_lowest() {
    let h = hands(["9s", "3h", "4c", "5c"]);
    assert_eq!(first_leader(RuleSet::Cambodian, &h).0, 1);
    let h2 = hands(["9s", "5h", "4c", "Kc"]);
    assert_eq!(first_leader(RuleSet::Cambodian, &h2[..3]).0, 2);
    let h3 = hands(["3s", "3h", "4c", "Kc"]);
    assert_eq!(first_leader(RuleSet::Vietnamese, &h3).0, 0);
}

/// Properties over 10^5 random games of random, greedy and planner agents, 2 to
/// 4 players, both rule sets: every play is a legal combination that beats
/// the last one (checked with the slow classifier), nobody acts in a trick
/// after passing in it, cards are conserved, and every game ends with a
/// full finishing order.
#[test]
fn random_games_keep_every_rule() {
    let kinds = [AgentKind::Random, AgentKind::Greedy, AgentKind::Planner];
    // Games are independent (each has its own seeded RNG): check them on
    // every core.
    (0..100_000u64).into_par_iter().for_each(|g| {
        let mut rng = game_rng(5, g);
        let rules = if g % 2 == 0 {
            RuleSet::Cambodian
        } else {
            RuleSet::Vietnamese
        };
        let n = 2 + (g % 3) as usize;
        let mut boxes: Vec<Box<dyn Agent + Send>> = (0..n)
            .map(|s| kinds[(g as usize + s) % 3].build())
            .collect();
        let mut agents: Vec<&mut dyn Agent> = boxes
            .iter_mut()
            .map(|b| b.as_mut() as &mut dyn Agent)
            .collect();
        let start = deal(n, &mut rng);
        let mut trace = Vec::new();
        let out = play(rules, start, &mut agents, &mut rng, Some(&mut trace));
        let mut held = start;
        let mut last: Option<Combo> = None;
        let mut passed = [false; 4];
        let mut first = true;
        for e in &trace {
            match *e {
                Event::Lead(_) => {
                    last = None;
                    passed = [false; 4];
                }
                Event::Play(s, c) => {
                    let s = s as usize;
                    assert!(!passed[s], "game {g}: seat {s} acted after passing");
                    assert_eq!(c.cards.intersection(held[s]), c.cards, "game {g}");
                    assert_eq!(classify(rules, c.cards), Some(c), "game {g}");
                    if let Some(l) = &last {
                        assert!(cardsim::tienlen::beats(rules, &c, l), "game {g}");
                    }
                    if first && rules == RuleSet::Vietnamese {
                        assert!(c.cards.contains(first_leader(rules, &start[..n]).1));
                    }
                    first = false;
                    held[s] = held[s].difference(c.cards);
                    last = Some(c);
                }
                Event::Pass(s) => {
                    assert!(last.is_some(), "game {g}: pass on a lead");
                    passed[s as usize] = true;
                }
                Event::Out(s) => assert!(held[s as usize].is_empty(), "game {g}"),
            }
        }
        let dealt: u32 = start[..n].iter().map(|h| h.len()).sum();
        let left: u32 = held[..n].iter().map(|h| h.len()).sum();
        let played: u32 = trace
            .iter()
            .map(|e| match e {
                Event::Play(_, c) => c.cards.len(),
                _ => 0,
            })
            .sum();
        assert_eq!(dealt, left + played, "game {g}: cards conserved");
        let mut order = out.order.clone();
        order.sort_unstable();
        assert_eq!(order, (0..n as u8).collect::<Vec<_>>(), "game {g}");
        assert_eq!(
            held.iter().take(n).filter(|h| !h.is_empty()).count(),
            1,
            "game {g}: one player left holding cards"
        );
    });
}

#[test]
fn agents_only_choose_legal_options() {
    // A lead never passes; the greedy lead and the planner's plan.
    let rules = RuleSet::Cambodian;
    let hand = parse_card_set("3h 4h 5h 9s 9c").unwrap();
    let mut all_plays = Vec::new();
    legal_plays(rules, hand, None, None, &mut all_plays);
    let view = cardsim::tienlen::View {
        rules,
        seat: 0,
        hand,
        last: None,
        played: CardSet::EMPTY,
        cards_left: [5, 13, 13, 13],
        players: 4,
    };
    let mut rng = game_rng(1, 1);
    let (mut gen, mut all, mut some) = (MoveGen::default(), Vec::new(), Vec::new());
    for agent in [
        &mut RandomAgent as &mut dyn Agent,
        &mut GreedyAgent,
        &mut PlannerAgent::default(),
    ] {
        for _ in 0..50 {
            let mut legal = Legal::new(&view, None, &mut gen, &mut all, &mut some);
            let c = agent.choose(&view, &mut legal, &mut rng);
            assert!(c.is_some_and(|p| all_plays.contains(&p)));
        }
    }
    // The planner splits 3h 4h 5h 9s 9c into two combinations.
    assert_eq!(PlannerAgent::default().decomposition(rules, hand), 2);
    // Greedy leads the straight that holds its lowest card.
    let mut legal = Legal::new(&view, None, &mut gen, &mut all, &mut some);
    let p = GreedyAgent.choose(&view, &mut legal, &mut rng).unwrap();
    assert_eq!(p.cards, parse_card_set("3h 4h 5h").unwrap());
}
