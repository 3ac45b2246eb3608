//! The fishing game as a runner game: its options, CSV columns and
//! metrics, and each game's shuffled deal.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;

use super::deal::{deck, fresh_deck};
use super::play::{play, DEFAULT_CARD_LIMIT};
use super::rules::{Face, Outcome, Record, Rules};
use crate::rng::GameRng;
use crate::sim::{Game, Metric, Observations, Row};

/// The fishing game as a runner game: each game shuffles the deck with its
/// own generator and plays it.
#[derive(Clone, Debug)]
pub struct FishingGame {
    pub rules: Rules,
    /// Card limit per game (see [`play()`]).
    pub limit: u64,
}

impl FishingGame {
    pub fn new(rules: Rules) -> FishingGame {
        FishingGame {
            rules,
            limit: DEFAULT_CARD_LIMIT,
        }
    }

    /// The deal game `index` of a run with `seed` plays (front first).
    pub fn deal_of(&self, seed: u64, index: u64) -> Vec<Face> {
        let mut deck = deck();
        shuffle_fresh(&mut deck, &mut crate::rng::game_rng(seed, index));
        deck
    }
}

/// Puts `deck` in the fixed order, then shuffles it. Starting from the fixed
/// order every time matters: shuffling the previous game's deck would make
/// game i depend on which games the worker played before it (regression
/// test `a_game_does_not_depend_on_the_one_before`).
fn shuffle_fresh(deck: &mut Vec<Face>, rng: &mut GameRng) {
    deck.clear();
    deck.extend(fresh_deck());
    deck.shuffle(rng);
}

/// Metric order of [`FishingGame`].
const METRICS: [&str; 10] = [
    "cards_played",
    "p1_win",
    "draw",
    "unresolved",
    "captures",
    "jack_captures",
    "longest_capture",
    "max_pile",
    "cycle_length",
    "cycle_start",
];

impl Game for FishingGame {
    type Record = Record;
    type Scratch = Vec<Face>;

    fn name(&self) -> &'static str {
        "fishing"
    }

    fn options(&self) -> BTreeMap<String, String> {
        BTreeMap::from([
            ("players".to_string(), self.rules.players.to_string()),
            (
                "jack_captures_empty_row".to_string(),
                self.rules.jack_captures_empty_row.to_string(),
            ),
            (
                "reverse_captures".to_string(),
                self.rules.reverse_captures.to_string(),
            ),
            ("card_limit".to_string(), self.limit.to_string()),
        ])
    }

    fn columns(&self) -> Vec<String> {
        let mut cols = vec!["cards_played".to_string(), "winner".to_string()];
        cols.extend((1..=self.rules.players).map(|p| format!("captures_p{p}")));
        cols.extend(
            [
                "jack_captures",
                "longest_capture",
                "max_pile",
                "cycle_length",
                "cycle_start",
                "outcome",
            ]
            .map(String::from),
        );
        cols
    }

    fn metrics(&self) -> Vec<Metric> {
        METRICS
            .iter()
            .map(|&name| match name {
                "p1_win" | "draw" | "unresolved" => Metric::proportion(name),
                _ => Metric::integer(name),
            })
            .collect()
    }

    fn new_scratch(&self) -> Vec<Face> {
        deck()
    }

    fn play(&self, _index: u64, rng: &mut GameRng, deck: &mut Vec<Face>) -> Record {
        shuffle_fresh(deck, rng);
        play(deck, self.rules, self.limit).expect("a runner deal always fits the rules")
    }

    fn write_row(&self, r: &Record, row: &mut Row<'_>) {
        row.int(r.cards_played);
        match r.outcome {
            Outcome::Win { winner } => row.int(winner + 1),
            Outcome::Cycle { .. } => row.int(0),
            Outcome::Unresolved => row.empty(),
        }
        for p in 0..self.rules.players {
            row.int(r.captures[p]);
        }
        row.int(r.jack_captures);
        row.int(r.longest_capture);
        row.int(r.max_pile);
        match r.outcome {
            Outcome::Cycle { start, length } => {
                row.int(length);
                row.int(start);
            }
            _ => {
                row.empty();
                row.empty();
            }
        }
        row.text(match r.outcome {
            Outcome::Win { .. } => "win",
            Outcome::Cycle { .. } => "cycle",
            Outcome::Unresolved => "unresolved",
        });
    }

    fn observe(&self, r: &Record, obs: &mut Observations) {
        let flag = |b: bool| f64::from(u8::from(b));
        match r.outcome {
            Outcome::Win { .. } => obs.set(0, r.cards_played as f64),
            Outcome::Cycle { start, length } => {
                obs.set(8, length as f64);
                obs.set(9, start as f64);
            }
            Outcome::Unresolved => {}
        }
        obs.set(1, flag(r.outcome == Outcome::Win { winner: 0 }));
        obs.set(2, flag(matches!(r.outcome, Outcome::Cycle { .. })));
        obs.set(3, flag(r.outcome == Outcome::Unresolved));
        obs.set(4, f64::from(r.captures.iter().sum::<u32>()));
        obs.set(5, f64::from(r.jack_captures));
        obs.set(6, f64::from(r.longest_capture));
        obs.set(7, f64::from(r.max_pile));
    }
}
