//! One game of Tiến lên among 2 to 4 agents: the deal, the first lead,
//! tricks with lock-out on passing, going out, and the finishing order.

use rand::seq::SliceRandom;

use super::agents::{Agent, Legal, View};
use super::moves::MoveGen;
use super::rules::{beats, is_chop, Combo, RuleSet};
use crate::cards::{Card, CardSet};
use crate::rng::GameRng;

/// Most players at a table.
pub const MAX_PLAYERS: usize = 4;
/// Cards dealt to each player.
pub const HAND: usize = 13;

/// What happened in a game, for the CSV and the summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub players: usize,
    /// Finishing position of each seat (1 = first out).
    pub position: [u8; MAX_PLAYERS],
    /// Seats in finishing order.
    pub order: Vec<u8>,
    pub plays: u32,
    pub tricks: u32,
    pub passes: u32,
    pub chops: u32,
    /// Cards left in each seat's hand when the winner went out.
    pub left_at_win: [u8; MAX_PLAYERS],
    /// Seat that led the first trick.
    pub first_leader: u8,
}

/// One step of a game, for traces and property tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A new trick, led by this seat.
    Lead(u8),
    Play(u8, Combo),
    Pass(u8),
    /// A seat played its last card.
    Out(u8),
}

/// The deal: 13 cards each, one at a time round-robin from a Fisher–Yates
/// shuffle; with fewer than 4 players the rest are set aside.
pub fn deal(players: usize, rng: &mut GameRng) -> [CardSet; MAX_PLAYERS] {
    let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
    deck.shuffle(rng);
    let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
    for (i, &c) in deck.iter().take(HAND * players).enumerate() {
        hands[i % players].insert(c);
    }
    hands
}

/// The seat that leads first and the card its first play must hold (under
/// `vietnamese`): the holder of the leading card, or if it was set aside
/// the holder of the lowest card.
pub fn first_leader(rules: RuleSet, hands: &[CardSet]) -> (usize, Card) {
    let lead = rules.leading_card();
    if let Some(seat) = hands.iter().position(|h| h.contains(lead)) {
        return (seat, lead);
    }
    let mut best: Option<(u8, usize, Card)> = None;
    for (seat, h) in hands.iter().enumerate() {
        for c in h.iter() {
            let s = rules.strength(c);
            if best.is_none_or(|b| s < b.0) {
                best = Some((s, seat, c));
            }
        }
    }
    let (_, seat, card) = best.expect("hands are dealt");
    (seat, card)
}

/// Plays one game from `hands` (seats 0..players) with one agent per seat.
/// `trace`, when given, receives every event.
pub fn play(
    rules: RuleSet,
    mut hands: [CardSet; MAX_PLAYERS],
    agents: &mut [&mut dyn Agent],
    rng: &mut GameRng,
    mut trace: Option<&mut Vec<Event>>,
) -> Outcome {
    let n = agents.len();
    assert!((2..=MAX_PLAYERS).contains(&n), "2 to 4 players");
    let mut out = Outcome {
        players: n,
        ..Outcome::default()
    };
    let mut log = |e: Event| {
        if let Some(t) = trace.as_deref_mut() {
            t.push(e);
        }
    };
    let (leader, lead_card) = first_leader(rules, &hands[..n]);
    out.first_leader = leader as u8;
    let mut must_hold = (rules == RuleSet::Vietnamese).then_some(lead_card);
    let mut played = CardSet::EMPTY;
    let mut finished = [false; MAX_PLAYERS];
    let (mut all, mut some) = (Vec::with_capacity(64), Vec::with_capacity(16));
    let mut gen = MoveGen::default();
    // Trick state.
    let mut turn = leader;
    let mut last: Option<(Combo, usize)> = None;
    let mut passed = [false; MAX_PLAYERS];
    out.tricks = 1;
    log(Event::Lead(leader as u8));
    loop {
        let last_combo = last.map(|(c, _)| c);
        let view = View {
            rules,
            seat: turn,
            hand: hands[turn],
            last: last_combo,
            played,
            cards_left: std::array::from_fn(|s| if s < n { hands[s].len() as u8 } else { 0 }),
            players: n,
        };
        let mut legal = Legal::new(&view, must_hold, &mut gen, &mut all, &mut some);
        let choice = agents[turn].choose(&view, &mut legal, rng);
        match choice {
            Some(combo) => {
                // Agents are trusted code, but a wrong answer must never
                // pass silently.
                assert!(
                    combo.cards.intersection(hands[turn]) == combo.cards
                        && must_hold.is_none_or(|m| combo.cards.contains(m))
                        && last_combo.is_none_or(|l| beats(rules, &combo, &l)),
                    "seat {turn} chose an illegal play {combo}"
                );
                debug_assert_eq!(super::rules::classify(rules, combo.cards), Some(combo));
                must_hold = None;
                if let Some(l) = &last_combo {
                    out.chops += u32::from(is_chop(rules, &combo, l));
                }
                hands[turn] = hands[turn].difference(combo.cards);
                played = played.union(combo.cards);
                out.plays += 1;
                log(Event::Play(turn as u8, combo));
                last = Some((combo, turn));
                if hands[turn].is_empty() {
                    finished[turn] = true;
                    out.order.push(turn as u8);
                    log(Event::Out(turn as u8));
                    if out.order.len() == 1 {
                        for (left, h) in out.left_at_win.iter_mut().zip(&hands[..n]) {
                            *left = h.len() as u8;
                        }
                    }
                    if out.order.len() == n - 1 {
                        let last_seat = (0..n).find(|&s| !finished[s]).unwrap_or(0);
                        out.order.push(last_seat as u8);
                        break;
                    }
                }
            }
            None => {
                assert!(last.is_some(), "an agent passed on a lead");
                passed[turn] = true;
                out.passes += 1;
                log(Event::Pass(turn as u8));
            }
        }
        // The next seat in turn still in the trick, if any besides the
        // player who played last.
        let (_, last_seat) = last.expect("a play was made this trick");
        let next = (1..=n)
            .map(|k| (turn + k) % n)
            .find(|&s| !finished[s] && !passed[s] && s != last_seat);
        match next {
            Some(s) => turn = s,
            None => {
                // The trick is over: its last player leads, or if that
                // player has gone out, the next player in turn.
                let lead = if finished[last_seat] {
                    (1..n)
                        .map(|k| (last_seat + k) % n)
                        .find(|&s| !finished[s])
                        .expect("two players are left")
                } else {
                    last_seat
                };
                passed = [false; MAX_PLAYERS];
                last = None;
                turn = lead;
                out.tricks += 1;
                log(Event::Lead(lead as u8));
            }
        }
    }
    for (pos, &seat) in out.order.iter().enumerate() {
        out.position[seat as usize] = pos as u8 + 1;
    }
    out
}
