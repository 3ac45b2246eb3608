//! The `holdem` simulation as a runner game: hand `i` draws its button,
//! stacks and cards from a stream of its own, and lets the agents play it
//! through the table engine with their randomness from other streams. One
//! CSV row per hand (pots, side pots, splits, all-in equity, the cards,
//! each seat's result), optional long-format pot rows and hand histories.
//! With `--duplicate`, game `i` is a deal group: deal `i` played once per
//! seating of the agents ([`Duplicate`]), one CSV row per group.
//!
//! # Streams (output contract)
//! Game `i`'s generator ([`crate::rng::game_rng`]) gives one number, the
//! hand's key `k`; every draw of the game comes from a stream derived from
//! it, `crate::rng::substream(k, salt) =
//! Xoshiro256PlusPlus::seed_from_u64(mix64(k ^ salt))`:
//!
//! | stream | salt | draws |
//! | --- | --- | --- |
//! | cards | [`DEAL_SALT`] | the button, each seat's stack (seat order), then a partial Fisher-Yates shuffle of the 2P + 5 cards dealt |
//! | seat `s`'s choices (from 0) | [`CHOICE_SALT`] + s | every random choice of the built-in agent playing seat `s` |
//! | all-in equity | [`EQUITY_SALT`] | the boards sampled for a multiway all-in (fresh for each hand of a deal group) |
//! | `tag`'s chances | [`THRESHOLD_SALT`] | with `--corrections`: the deals played at each heads-up `tag` decision after the flop to estimate its chances ([`super::correction::threshold`]) |
//! | strength features | [`STRENGTH_SALT`] | with a learned baseline: the boards sampled for the flop's and turn's means (fresh for each hand of a deal group) |
//! | external agents' seed | [`AGENT_SEED_SALT`] + s | not a stream: `mix64(k ^ (AGENT_SEED_SALT + s))` is the view's `seed` for seat `s` |
//!
//! So the cards of hand `i` depend on `(seed, i)` and the table's options
//! (players, stacks) only, whatever the agents do (common random numbers),
//! and a seat's random choices depend on the deal and the seat, not on who
//! acted before it: in a duplicate group the agent at seat `s` draws the
//! same numbers in every seating, as the cards stay with the seat.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::RngExt;

pub use super::duplicate::Duplicate;

use super::agents::{AgentKind, AgentSpec, AgentView, Drawn, External, Mix, Reply, Session};
use super::correction::baseline::{Baseline, Features, Fit};
use super::correction::chance::{chance_of_deals, deals, river_strengths};
use super::correction::strength::{
    observations, strength_features, StrengthFeatures, Tendencies, TendencyCounts,
};
use super::correction::threshold::{fresh_deals, tag_chances, FRESH_DEALS};
use super::correction::{action_correction, ChanceCorrection, Policy};
use super::equity::allin::{all_in_equity, AllInEquity, MAX_SEATS};
use super::eval::{category, Category};
use super::phh;
use super::table::pots::{build_pots, OddChips};
use super::table::{Betting, Buffers, Config, HandState, Seat, ShortBigBlind, View};
use super::variant::Game as Variant;
use crate::cards::Card;
use crate::rng::{substream, GameRng};
use crate::sim::parquet::Book;
use crate::sim::{Extras, Game, GameFailure, Metric, MetricKind, Observations, Row};

/// How each seat's starting stack is chosen, in chips.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackSpec {
    Fixed(u64),
    /// Uniform over `lo..=hi`, drawn per seat per hand.
    Uniform(u64, u64),
}

/// A stack description that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad --stacks '{text}': {why} (expected e.g. 100bb, 250, or uniform:10bb-200bb)")]
pub struct StackSpecError {
    text: String,
    why: &'static str,
}

impl StackSpec {
    /// Parses `100bb`, `250` (chips) or `uniform:10bb-200bb`.
    pub fn parse(text: &str, big_blind: u64) -> Result<StackSpec, StackSpecError> {
        let err = |why| StackSpecError {
            text: crate::text::quote(text),
            why,
        };
        let amount = |t: &str| -> Result<u64, StackSpecError> {
            let t = t.trim().to_ascii_lowercase();
            let (num, mult) = match t.strip_suffix("bb") {
                Some(n) => (n.trim().to_string(), big_blind),
                None => (t.clone(), 1),
            };
            let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            let v: u64 = num.parse().map_err(|_| {
                if digits(&num) {
                    err("too large (at most 2^40 chips)")
                } else if num.strip_prefix('-').is_some_and(digits) {
                    err("a stack must be positive")
                } else {
                    err("not a whole number of chips or big blinds")
                }
            })?;
            let chips = v.checked_mul(mult).ok_or_else(|| err("too large"))?;
            if chips == 0 {
                return Err(err("a stack must be positive"));
            }
            if chips > 1 << 40 {
                return Err(err("too large (at most 2^40 chips)"));
            }
            Ok(chips)
        };
        let t = text.trim();
        match t.strip_prefix("uniform:") {
            Some(range) => {
                let (lo, hi) = range
                    .split_once('-')
                    .ok_or_else(|| err("a range needs LO-HI"))?;
                let (lo, hi) = (amount(lo)?, amount(hi)?);
                if lo > hi {
                    return Err(err("the range's low end is above its high end"));
                }
                Ok(StackSpec::Uniform(lo, hi))
            }
            None => Ok(StackSpec::Fixed(amount(t)?)),
        }
    }

    pub fn max(self) -> u64 {
        match self {
            StackSpec::Fixed(v) | StackSpec::Uniform(_, v) => v,
        }
    }

    fn draw(self, rng: &mut GameRng) -> u64 {
        match self {
            StackSpec::Fixed(v) => v,
            StackSpec::Uniform(lo, hi) => rng.random_range(lo..=hi),
        }
    }
}

impl fmt::Display for StackSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StackSpec::Fixed(v) => write!(f, "{v}"),
            StackSpec::Uniform(lo, hi) => write!(f, "uniform:{lo}-{hi}"),
        }
    }
}

/// `cardsim holdem`: the table and its players.
#[derive(Clone, Debug)]
pub struct HoldemGame {
    /// One agent per seat (2 to 10 seats).
    pub agents: Vec<AgentSpec>,
    pub stacks: StackSpec,
    pub small_blind: u64,
    pub big_blind: u64,
    pub ante: u64,
    pub odd_chips: OddChips,
    pub short_big_blind: ShortBigBlind,
    /// All-in equity precision: enumerate the board completions when there
    /// are at most this many, else sample this many; 0 skips all-in equity.
    pub allin_trials: u32,
    /// Write hand `i` as PHH when `i % k == 0`.
    pub phh_every: Option<u64>,
    /// Add each seat's player statistics (VPIP ... W$SD, docs/stats.md)
    /// to the metrics.
    pub player_stats: bool,
    /// Play each deal once per seating of the agents (duplicate play).
    pub duplicate: Duplicate,
    /// The game dealt: hold'em (no limit), Omaha (pot limit) or short deck
    /// (no limit).
    pub variant: Variant,
    /// The variance-reduced estimators beyond `net` and `ev_net`.
    pub estimates: Estimates,
}

/// Which variance-reduced estimators a run computes beyond `net` and
/// `ev_net` (docs/duplicate.md).
#[derive(Clone, Debug, Default)]
pub struct Estimates {
    /// The chance and action corrections: estimators `chance` and
    /// `chance_action`.
    pub corrections: bool,
    /// The learned baseline (estimator `learned`), fitted before the run.
    pub learned: Option<Arc<Learned>>,
    /// Whether the hands' strength features are computed (for the learned
    /// baseline: set by [`HoldemGame::calibrate`]).
    pub strength: bool,
    /// Per agent label, what it tends to do with its made hands (for the
    /// strength features; learned by [`HoldemGame::calibrate`]).
    pub tendencies: Option<Arc<Vec<Tendencies>>>,
}

/// The learned baseline's weights, one [`Baseline`] per role: an agent
/// (by label) in a position (seats after the button).
#[derive(Clone, Debug)]
pub struct Learned {
    /// Deal groups played to fit it (from the calibration stream).
    pub groups: u64,
    roles: Vec<Baseline>,
}

/// The corrections of one played hand, per seat, in chips.
#[derive(Clone, Debug)]
pub struct Corrections {
    pub chance: ChanceCorrection,
    pub action: [f64; MAX_SEATS],
    /// Per seat, the strength features of the learned baseline (empty
    /// unless it is fitted or used).
    pub strength: Vec<StrengthFeatures>,
    /// The learned baseline's correction (its weights on the chance and
    /// action corrections' parts, and the starting hands), or zeros
    /// without one.
    pub learned: [f64; MAX_SEATS],
}

/// One played hand.
pub struct PlayedHand {
    pub hand: HandState,
    pub allin: Option<AllInEquity>,
    /// With [`Estimates::corrections`].
    pub corrections: Option<Corrections>,
    /// Pot figures, computed once for the row and the metrics.
    figures: Figures,
    /// Per seat, the position in `agents` of who sat there (the seat
    /// itself in plain play).
    seating: [usize; MAX_SEATS],
}

/// One game: a hand, or with `--duplicate` a deal group (the deal played
/// once per seating, in the order of [`Duplicate::seatings`]).
pub struct HoldemRecord {
    pub hands: Vec<PlayedHand>,
    /// The five board cards of the deal (dealt or not).
    pub board: [Card; 5],
    /// Per agent (in [`HoldemGame::agent_labels`] order), per estimator
    /// ([`ESTIMATORS`]): its mean result per seat and hand over the game.
    per_agent: Vec<f64>,
    /// With `--duplicate`: per hand, per agent, its mean plain result per
    /// seat in that hand.
    per_hand: Vec<f64>,
}

impl HoldemRecord {
    /// The (first) hand played.
    pub fn hand(&self) -> &HandState {
        &self.hands[0].hand
    }

    /// The (first) hand's all-in equity.
    pub fn allin(&self) -> Option<&AllInEquity> {
        self.hands[0].allin.as_ref()
    }
}

/// A way of valuing a seat's result in one hand, in chips: the plain
/// result and the variance-reduced ones. Every estimator is reported per
/// agent (metrics `agent_LABEL_NAME`, the summary's `agents` table).
pub struct Estimator {
    /// Its name in metrics and the summary (snake_case).
    pub name: &'static str,
    /// The value of seat `s` in a played hand.
    pub value: fn(&PlayedHand, usize) -> f64,
}

/// The estimators, the plain one first (the others' variance reduction is
/// measured against it). A run computes the first [`BASE_ESTIMATORS`],
/// the next two with the corrections, and all with a learned baseline
/// ([`HoldemGame::estimators`]).
pub const ESTIMATORS: [Estimator; 5] = [
    Estimator {
        name: "net",
        value: |p, s| net(&p.hand, s) as f64,
    },
    Estimator {
        name: "ev_net",
        value: ev_net,
    },
    Estimator {
        name: "chance",
        value: |p, s| {
            net(&p.hand, s) as f64 - p.corrections.as_ref().map_or(0.0, |c| c.chance.chips[s])
        },
    },
    Estimator {
        name: "chance_action",
        value: |p, s| {
            net(&p.hand, s) as f64
                - p.corrections
                    .as_ref()
                    .map_or(0.0, |c| c.chance.chips[s] + c.action[s])
        },
    },
    Estimator {
        name: "learned",
        value: |p, s| net(&p.hand, s) as f64 - p.corrections.as_ref().map_or(0.0, |c| c.learned[s]),
    },
];

/// Estimators every run computes: `net` and `ev_net`.
pub const BASE_ESTIMATORS: usize = 2;

/// Completions counted exactly by the corrections' values at a table of
/// three or more, else sampled: a flop's 990 turn-and-river boards are
/// sampled (drawn disjointly, [`crate::holdem::equity::allin::Disjoint`]),
/// turns and rivers counted. A sampled value keeps the estimate unbiased;
/// three-way, 50 boards instead of 100 lose 2 to 5% of the estimates'
/// gain (docs/duplicate.md).
pub const CORRECTION_TRIALS: u32 = 100;

/// [`CORRECTION_TRIALS`] heads-up: there 50 flop boards give `tag`
/// against `station` the gain 100 give, for about 8% less of the run's
/// time (docs/duplicate.md); a turn's 44 rivers are still counted.
pub const HEADS_UP_CORRECTION_TRIALS: u32 = 50;

/// Boards the strength features sample their flop means from, and card
/// pairs their turn's `chips` means (docs/duplicate.md).
pub const STRENGTH_TRIALS: u32 = 16;

/// All-in equity's default precision (`--allin-trials`): every flop and
/// turn all-in enumerated, a multiway preflop one sampled.
pub const DEFAULT_ALLIN_TRIALS: u32 = 1000;

impl HoldemGame {
    /// A table of `agents` with `stacks` under the CLI's defaults: blinds
    /// 1 and 2, no ante, odd chips left of the button, a short big blind
    /// matched in full, all-in equity over at most 1,000 boards, no-limit
    /// hold'em, no hand histories, statistics, duplicate play or
    /// corrections. Code that changes a few of them writes
    /// `HoldemGame { ante: 1, ..HoldemGame::new(agents, stacks) }`.
    pub fn new(agents: Vec<AgentSpec>, stacks: StackSpec) -> HoldemGame {
        HoldemGame {
            agents,
            stacks,
            small_blind: 1,
            big_blind: 2,
            ante: 0,
            odd_chips: OddChips::LeftOfButton,
            short_big_blind: ShortBigBlind::FullBlind,
            allin_trials: DEFAULT_ALLIN_TRIALS,
            phh_every: None,
            player_stats: false,
            duplicate: Duplicate::default(),
            variant: Variant::Holdem,
            estimates: Estimates::default(),
        }
    }

    pub fn players(&self) -> usize {
        self.agents.len()
    }

    /// The estimators this run computes (a prefix of [`ESTIMATORS`]).
    pub fn estimators(&self) -> &'static [Estimator] {
        let k = match (&self.estimates.learned, self.estimates.corrections) {
            (Some(_), _) => 5,
            (None, true) => 4,
            (None, false) => BASE_ESTIMATORS,
        };
        &ESTIMATORS[..k]
    }

    /// What the corrections know of each seat's strategy (by the agent
    /// at each position of `--agents`).
    fn policy(&self, at: usize) -> Policy {
        match &self.agents[at] {
            AgentSpec::Builtin(AgentKind::Random) => Policy::UniformKinds,
            _ => Policy::Unknown,
        }
    }

    /// What each agent (by label) tends to do with its made hands, counted
    /// over the first `groups` deal groups of the calibration stream of
    /// `seed`, the hands played without corrections.
    pub fn count_tendencies(&mut self, seed: u64, groups: u64) -> Vec<Tendencies> {
        let estimates = std::mem::take(&mut self.estimates);
        let mut counts = vec![TendencyCounts::default(); self.agent_labels().len()];
        self.play_calibration(seed, groups, |_, record, scratch| {
            for (played, seating) in record.hands.iter().zip(&scratch.seatings) {
                let seen = observations(&played.hand)
                    .expect("the simulator plays hold'em hands that replay");
                for o in &seen {
                    counts[scratch.label_of[seating[o.seat]]].add(o);
                }
            }
        });
        self.estimates = estimates;
        counts.iter().map(TendencyCounts::tendencies).collect()
    }

    /// Plays the first `groups` deal groups of the calibration stream of
    /// `seed` (`mix64(seed ^ CALIBRATION_SALT)`, never the run's own deals)
    /// with the current estimates, handing each played group to `each`
    /// with its number. A program the user brought may fail: its groups
    /// are left out.
    fn play_calibration(
        &self,
        seed: u64,
        groups: u64,
        mut each: impl FnMut(u64, &HoldemRecord, &Scratch),
    ) {
        let calibration = crate::rng::mix64(seed ^ CALIBRATION_SALT);
        let mut scratch = self.new_scratch();
        for g in 0..groups {
            let mut rng = crate::rng::game_rng(calibration, g);
            let Ok(record) = self.try_play(g, &mut rng, &mut scratch) else {
                continue;
            };
            each(g, &record, &scratch);
            self.recycle(record, &mut scratch);
        }
    }

    /// Deal groups of the calibration stream over which the tendency
    /// tables are counted for a fit on `groups`: with built-in agents only,
    /// ten times as many (counting costs a fraction of fitting, and the
    /// tables' 15 x 91 keys a street are noisy), at most a million unless
    /// the fit itself uses more; with an `exec:` or Python agent, `groups`
    /// (a program is slow to ask).
    pub fn tendency_groups(&self, groups: u64) -> u64 {
        if self
            .agents
            .iter()
            .any(|a| matches!(a, AgentSpec::External(_)))
        {
            return groups;
        }
        groups.saturating_mul(10).min(groups.max(1_000_000))
    }

    /// Fits the learned baseline on `groups` deal groups of the
    /// calibration stream (seed `mix64(seed ^ CALIBRATION_SALT)`, never the
    /// run's own deals): per role, the least squares of each seat's result
    /// on its features. What each agent tends to do with its made hands is
    /// counted first, over [`HoldemGame::tendency_groups`] groups of the
    /// same stream (the hands alone, cheap), then the weights are fitted over
    /// the first `groups` with the features that use it. Turns the
    /// corrections on.
    pub fn calibrate(&mut self, seed: u64, groups: u64) {
        let n = self.players();
        let labels = self.agent_labels().len();
        let tendencies = self.count_tendencies(seed, self.tendency_groups(groups));
        self.estimates = Estimates {
            corrections: true,
            learned: None,
            strength: true,
            tendencies: Some(Arc::new(tendencies)),
        };
        let mut fits = vec![Fit::new(n == 2); labels * n];
        // Per agent, every position together: the strength features'
        // weights, shared by its positions' fits.
        let mut pooled = vec![Fit::new(n == 2); labels];
        self.play_calibration(seed, groups, |g, record, scratch| {
            for (played, seating) in record.hands.iter().zip(&scratch.seatings) {
                let Some(c) = &played.corrections else {
                    continue;
                };
                let button = played.hand.config().button;
                for (s, &at) in seating.iter().enumerate() {
                    let role = scratch.label_of[at] * n + (s + n - button) % n;
                    let f = Features::of(&played.hand, s, &c.chance, c.action[s], &c.strength);
                    let result = net(&played.hand, s) as f64;
                    fits[role].add((g % 2) as usize, &f, result);
                    pooled[scratch.label_of[at]].add((g % 2) as usize, &f, result);
                }
            }
        });
        let pooled: Vec<Baseline> = pooled.iter().map(Fit::solve).collect();
        for (role, fit) in fits.iter_mut().enumerate() {
            fit.share(&pooled[role / n]);
        }
        self.estimates.learned = Some(Arc::new(Learned {
            groups,
            roles: fits.iter().map(Fit::solve).collect(),
        }));
    }

    /// The table for one hand (stacks and button drawn by the caller).
    fn config(&self, stacks: Vec<u64>, button: usize) -> Config {
        Config {
            stacks,
            button,
            small_blind: self.small_blind,
            big_blind: self.big_blind,
            ante: self.ante,
            ante_trimming: true,
            odd_chips: self.odd_chips,
            short_big_blind: self.short_big_blind,
            betting: if self.variant.is_omaha() {
                Betting::PotLimit
            } else {
                Betting::NoLimit
            },
            game: self.variant,
        }
    }

    /// Checks that every agent plays the variant. `random`, `station`,
    /// `tag` and the agents the user brings (`exec:`, Python: their view
    /// names the game) play every game; `pushfold` and `chart` play the
    /// no-limit two-card games (hold'em, short deck): a chart's ranges
    /// name two-card hands, and pushing all-in preflop is not a pot-limit
    /// action.
    pub fn check_agents(&self) -> Result<(), String> {
        if !self.variant.is_omaha() {
            return Ok(());
        }
        for spec in &self.agents {
            let why = match spec.name() {
                "pushfold" => "moves all-in preflop, which pot limit does not allow",
                "chart" => "reads two-card hold'em ranges",
                _ => continue,
            };
            return Err(format!(
                "agent '{}' {why}; {} tables take random, station, tag, exec: and Python agents",
                spec.name(),
                self.variant
            ));
        }
        Ok(())
    }

    /// Checks the table once, before a run: the engine's own rules.
    pub fn validate(&self) -> Result<(), super::table::TableError> {
        let deck: Vec<Card> = self.variant.deck().to_vec();
        let stacks = vec![self.stacks.max(); self.players()];
        HandState::new(self.config(stacks, 0), &deck).map(|_| ())
    }

    fn seat_names(&self, what: &str) -> Vec<String> {
        (1..=self.players())
            .map(|s| format!("{what}_s{s}"))
            .collect()
    }

    /// The distinct agents (equal specs are one agent, whatever seats
    /// they hold), by label: the agent's name, with `_2`, `_3`, ... after
    /// the first when different specs share a name (`tag` and `tag_2` for
    /// `tag` and `tag(open=0.18)`). With, per label, the positions in
    /// `agents` it plays.
    pub fn agent_labels(&self) -> Vec<(String, Vec<usize>)> {
        let mut specs: Vec<(String, &'static str, Vec<usize>)> = Vec::new();
        for (k, a) in self.agents.iter().enumerate() {
            let spec = a.to_string();
            match specs.iter_mut().find(|(s, _, _)| *s == spec) {
                Some((_, _, at)) => at.push(k),
                None => specs.push((spec, a.name(), vec![k])),
            }
        }
        let mut labels: Vec<(String, Vec<usize>)> = Vec::new();
        for (j, (_, name, at)) in specs.iter().enumerate() {
            let before = specs[..j].iter().filter(|(_, n, _)| n == name).count();
            let label = if before == 0 {
                name.to_string()
            } else {
                format!("{name}_{}", before + 1)
            };
            labels.push((label, at.clone()));
        }
        labels
    }

    /// Hands played per game: 1, or the seatings of a deal group.
    pub fn hands_per_game(&self) -> usize {
        self.duplicate.seatings(self.players()).len()
    }

    /// Plays the deal `dealt` (button, stacks) with `seating[s]` the
    /// position in `agents` of the agent at seat `s`; `number` is the hand's
    /// number in the run, as external agents see it. An error is the rest
    /// of a line after `hand N`.
    #[allow(clippy::too_many_arguments)]
    fn play_seating(
        &self,
        number: u64,
        key: u64,
        seating: &[usize],
        dealt: &[Card],
        button: usize,
        stacks: &[u64],
        scratch: &mut Scratch,
    ) -> Result<PlayedHand, String> {
        let n = self.players();
        let mut buffers = scratch.buffers.pop().unwrap_or_default();
        let mut seat_stacks = std::mem::take(&mut buffers.stacks);
        seat_stacks.clear();
        seat_stacks.extend_from_slice(stacks);
        let mut hand = HandState::new_reusing(self.config(seat_stacks, button), dealt, buffers)
            .expect("the table was validated before the run");
        let mut choices = std::mem::take(&mut scratch.choices);
        choices.clear();
        choices.extend((0..n as u64).map(|s| substream(key, CHOICE_SALT + s)));
        let seatings = scratch.seatings.len();
        scratch.mixes.clear();
        let mut failure = None;
        let mut threshold_rng = None;
        while let Some(view) = hand.view() {
            let seat = view.seat();
            let at = seating[seat];
            let spec = &self.agents[at];
            let mut drawn = Drawn::default();
            let action = match spec.act_builtin_drawn(&view, &mut choices[seat], &mut drawn) {
                Some(action) => {
                    // A built-in agent that drew among actions says from
                    // which chances, for the action correction; `tag`'s
                    // heads-up equity decisions get estimated chances.
                    if self.estimates.corrections {
                        let label = scratch.label_of[at];
                        let estimated = || substream(key, THRESHOLD_SALT);
                        let mix = self.drawn_mix(&view, spec, label, drawn, || {
                            threshold_rng.get_or_insert_with(estimated)
                        });
                        if let Some(mix) = mix {
                            scratch.mixes.push((hand.history().len(), mix));
                        }
                    }
                    action
                }
                None => {
                    let Some(agent) = spec.external() else {
                        unreachable!("an agent is built in or external")
                    };
                    let legal = view.legal();
                    let seed = crate::rng::mix64(key ^ (AGENT_SEED_SALT + seat as u64));
                    let view = AgentView::of(&hand, number, seed).expect("a seat to act");
                    let fail = |why: String| {
                        let seating = if seatings > 1 {
                            format!(", seating {}", number % seatings as u64 + 1)
                        } else {
                            String::new()
                        };
                        format!("{seating}, seat {} ({}): {why}", seat + 1, agent.spec())
                    };
                    let reply = scratch
                        .ask(at, &view)
                        .map_err(fail)
                        .and_then(|text| Reply::parse(&text).map_err(|e| fail(e.to_string())));
                    let action = match reply {
                        Ok(Reply::Pure(answer)) => answer.resolve(&legal).ok_or_else(|| {
                            fail(format!(
                                "answer '{answer}' is not legal (legal: {})",
                                view.legal
                            ))
                        }),
                        // The seat's choice stream draws a mixed answer's
                        // action, as it draws a built-in agent's choices.
                        Ok(Reply::Mixed(mixed)) => Mix::new(&mixed, &legal)
                            .map(|mix| {
                                let action = mix.draw(&mut choices[seat]);
                                if self.estimates.corrections {
                                    scratch.mixes.push((hand.history().len(), mix));
                                }
                                action
                            })
                            .map_err(|why| fail(format!("{why} (legal: {})", view.legal))),
                        Err(why) => Err(why),
                    };
                    match action {
                        Ok(action) => action,
                        Err(why) => {
                            failure = Some(why);
                            break;
                        }
                    }
                }
            };
            if let Err(e) = hand.apply(action) {
                // Built-in agents choose from the legal actions they are
                // shown, and answers are checked above: a bug, caught by
                // the tests.
                panic!("seat {seat} chose an illegal action {action:?}: {e}");
            }
        }
        scratch.choices = choices;
        if let Some(why) = failure {
            scratch.buffers.push(hand.into_buffers());
            return Err(why);
        }
        let allin = hand
            .all_in_board()
            .filter(|_| self.allin_trials > 0 && self.variant == Variant::Holdem)
            .map(|b| {
                let seats = hand.seats();
                let holes: Vec<[Card; 2]> = seats.iter().map(|s| [s.hole[0], s.hole[1]]).collect();
                let live: Vec<bool> = seats.iter().map(|s| !s.folded).collect();
                let contributed: Vec<u64> = seats.iter().map(|s| s.contributed).collect();
                let pots = build_pots(&contributed, &live);
                all_in_equity(
                    &holes,
                    &live,
                    &hand.board()[..b],
                    &pots,
                    self.allin_trials,
                    &mut substream(key, EQUITY_SALT),
                )
            });
        let corrections = self
            .estimates
            .corrections
            .then(|| self.corrections(&hand, seating, key, &scratch.label_of, &scratch.mixes));
        let figures = figures(&hand);
        let mut positions = [0; MAX_SEATS];
        positions[..seating.len()].copy_from_slice(seating);
        Ok(PlayedHand {
            hand,
            allin,
            corrections,
            figures,
            seating: positions,
        })
    }

    /// The corrections of a hand played by the agents `seating` (per seat,
    /// its agent's position in `--agents`), from the hand's own stream.
    fn corrections(
        &self,
        hand: &HandState,
        seating: &[usize],
        key: u64,
        label_of: &[usize],
        mixes: &[(usize, Mix)],
    ) -> Corrections {
        let mut rng = substream(key, CORRECTION_SALT);
        let deals = deals(hand).expect("the simulator plays hold'em hands that replay");
        let trials = if seating.len() == 2 {
            HEADS_UP_CORRECTION_TRIALS
        } else {
            CORRECTION_TRIALS
        };
        // The turn's river cards, looked up once for every count of them.
        let rivers = river_strengths(hand, &deals);
        let chance = chance_of_deals(hand, &deals, trials, &rivers, &mut rng);
        let mut policies = [Policy::Unknown; MAX_SEATS];
        for (p, &at) in policies.iter_mut().zip(seating) {
            *p = self.policy(at);
        }
        let n = seating.len();
        let action = action_correction(hand, &policies[..n], mixes, trials, &rivers, &mut rng)
            .expect("the simulator plays hold'em hands that replay")
            .chips;
        let strength = if self.estimates.strength {
            let mut tendencies = [None; MAX_SEATS];
            if let Some(t) = &self.estimates.tendencies {
                for (x, &at) in tendencies.iter_mut().zip(seating) {
                    *x = t.get(label_of[at]);
                }
            }
            strength_features(
                hand,
                &deals,
                &chance,
                &tendencies[..n],
                STRENGTH_TRIALS,
                &rivers,
                &mut substream(key, STRENGTH_SALT),
            )
        } else {
            Vec::new()
        };
        let mut learned = [0.0; MAX_SEATS];
        if let Some(model) = &self.estimates.learned {
            let button = hand.config().button;
            for (s, &at) in seating.iter().enumerate() {
                let role = label_of[at] * n + (s + n - button) % n;
                let f = Features::of(hand, s, &chance, action[s], &strength);
                learned[s] = model.roles[role].correction(&f);
            }
        }
        Corrections {
            chance,
            action,
            strength,
            learned,
        }
    }

    /// The chances a built-in agent drew its action at `view` from, for
    /// the action correction: those it reported, or for `tag`'s heads-up
    /// equity decisions (unless [`Self::bets_uncertain`] says they are all
    /// but sure) the estimate of [`tag_chances`] from fresh deals of
    /// `rng`'s stream.
    fn drawn_mix<'r>(
        &self,
        view: &View<'_>,
        spec: &AgentSpec,
        label: usize,
        drawn: Drawn,
        rng: impl FnOnce() -> &'r mut GameRng,
    ) -> Option<Mix> {
        match (drawn.equity, spec.tag_params()) {
            (Some(own), Some(params)) if view.live() == 2 && self.bets_uncertain(view, label) => {
                let fresh = fresh_deals(view.hole(), view.board(), FRESH_DEALS, rng());
                tag_chances(view, &view.legal(), params, own, fresh)
            }
            _ => drawn.mix,
        }
    }

    /// Whether the action correction estimates `tag`'s chances at `view`
    /// (agent `label`): unless the tendency tables say that a hand of its
    /// key bets on this street in fewer than [`SURE_BETS`] of the
    /// calibration's hands, or checks in fewer, its bets then being all but
    /// sure. The choice depends only on the state before `tag` draws, so
    /// the correction keeps its mean of zero either way; it saves the
    /// deals where they would take out nothing. Always without tables
    /// (`--corrections` alone).
    fn bets_uncertain(&self, view: &View<'_>, label: usize) -> bool {
        let Some(t) = self
            .estimates
            .tendencies
            .as_ref()
            .and_then(|t| t.get(label))
        else {
            return true;
        };
        let Some([bet, _]) = t.of_hand(view.hole(), view.board()) else {
            return true;
        };
        (SURE_BETS..=1.0 - SURE_BETS).contains(&bet)
    }

    /// Gives the buffers of hands played back to the scratch.
    fn recycle_hands(&self, mut hands: Vec<PlayedHand>, scratch: &mut Scratch) {
        for played in hands.drain(..) {
            scratch.buffers.push(played.hand.into_buffers());
        }
        scratch.hands = hands;
    }
}

/// The suffix of the per-hand plain result of each agent in a duplicate
/// run (`agent_LABEL_net_per_hand`): what plain play would observe.
pub const HAND_NET: &str = "net_per_hand";

/// Writes cards as one word (`AhKd`, `Ah7c2dTs5s`), or an empty field
/// for none; two cards (hold'em's hole cards) as their code in
/// [`CARD_PAIRS`].
fn cards_field(row: &mut Row<'_>, cards: &[Card]) {
    if let [a, b] = cards {
        if let Some(code) = pair_code(*a, *b) {
            return row.code(code, &CARD_PAIRS);
        }
    }
    if cards.is_empty() {
        return row.empty();
    }
    let mut text = [0u8; 2 * MOST_DEALT];
    for (k, c) in cards.iter().enumerate() {
        text[2 * k] = c.rank().char() as u8;
        text[2 * k + 1] = c.suit().char() as u8;
    }
    let text = std::str::from_utf8(&text[..2 * cards.len()]).unwrap_or_default();
    row.word(text);
}

/// Per-hand figures derived from the finished hand (shared by the CSV row
/// and the metrics).
#[derive(Clone, Copy, Debug)]
struct Figures {
    pot_total: u64,
    pots: usize,
    side_pot_total: u64,
    all_in_players: usize,
    split: bool,
    odd_chips: u64,
}

fn figures(h: &HandState) -> Figures {
    let settled = h.settled().expect("a finished hand");
    let pots = settled.pots();
    let mut split = false;
    let mut odd = 0;
    for pot in pots {
        let k = u64::from(pot.winners.count_ones());
        if k > 1 {
            split = true;
            odd += pot.amount % k;
        }
    }
    let stacks = &h.config().stacks;
    Figures {
        pot_total: pots.iter().map(|p| p.amount).sum(),
        pots: pots.len(),
        side_pot_total: pots.iter().skip(1).map(|p| p.amount).sum(),
        all_in_players: h
            .seats()
            .iter()
            .zip(stacks)
            .filter(|(s, &start)| !s.folded && s.contributed == start)
            .count(),
        split,
        odd_chips: odd,
    }
}

/// Two cards, the first first: the code of their text in [`CARD_PAIRS`]
/// (`None` for a joker).
#[inline(always)]
fn pair_code(a: Card, b: Card) -> Option<u16> {
    let (a, b) = (usize::from(a.index()), usize::from(b.index()));
    (a < Card::STANDARD && b < Card::STANDARD).then(|| (a * Card::STANDARD + b) as u16)
}

/// The texts of every two standard cards in order (`AhKd`), at
/// `first * 52 + second` (a card with itself too, which no hand holds).
static PAIR_TEXTS: [[u8; 4]; Card::STANDARD * Card::STANDARD] = {
    let mut t = [[0u8; 4]; Card::STANDARD * Card::STANDARD];
    let mut i = 0;
    while i < Card::STANDARD * Card::STANDARD {
        let (a, b) = (
            Card::from_index((i / Card::STANDARD) as u8),
            Card::from_index((i % Card::STANDARD) as u8),
        );
        t[i] = [
            a.rank().char() as u8,
            a.suit().char() as u8,
            b.rank().char() as u8,
            b.suit().char() as u8,
        ];
        i += 1;
    }
    t
};

/// Two cards' texts, by [`pair_code`]: hold'em's `hole_sK` columns.
static CARD_PAIRS: Book = Book {
    len: Card::STANDARD * Card::STANDARD,
    text: |code| {
        PAIR_TEXTS
            .get(usize::from(code))
            .and_then(|t| std::str::from_utf8(t).ok())
            .unwrap_or_default()
    },
};

/// The streets' names, by [`street_code`]: `street`, `allin_street`.
static STREETS: Book = Book {
    len: 4,
    text: |code| ["preflop", "flop", "turn", "river"][usize::from(code.min(3))],
};

/// The street of a board of `board_cards` cards: its code in [`STREETS`].
fn street_code(board_cards: usize) -> u16 {
    match board_cards {
        0 => 0,
        3 => 1,
        4 => 2,
        _ => 3,
    }
}

/// The hand categories' keys, by their place in [`Category::ALL`]:
/// `winning_category`.
static CATEGORIES: Book = Book {
    len: Category::ALL.len(),
    text: |code| Category::ALL[usize::from(code).min(Category::ALL.len() - 1)].key(),
};

/// A category's code in [`CATEGORIES`].
fn category_code(c: Category) -> u16 {
    c as u16
}

/// Seat `s`'s result in chips: final stack less starting stack.
fn net(h: &HandState, s: usize) -> i64 {
    won(&h.seats()[s], h.config().stacks[s])
}

/// The chips a seat that started with `start` ends the hand up (or down).
fn won(seat: &Seat, start: u64) -> i64 {
    seat.stack as i64 - start as i64
}

/// The equity-adjusted result of seat `s`: what it could expect from the
/// pots at the all-in, less what it put in; the plain result otherwise.
fn ev_net(r: &PlayedHand, s: usize) -> f64 {
    let seat = &r.hand.seats()[s];
    match &r.allin {
        Some(a) if !seat.folded => a.expected_won[s] - seat.contributed as f64,
        _ => net(&r.hand, s) as f64,
    }
}

const FIXED_METRICS: usize = 8;

/// The player statistics of one seat, as metrics (with `--player-stats`):
/// a proportion observed where the seat had the opportunity (its mean is
/// hits / opportunities, as `cardsim stats` counts them), then the
/// postflop bets and raises and the calls of every hand (the aggression
/// factor is the ratio of their means).
const PLAYER_STATS: [&str; 10] = [
    "vpip",
    "pfr",
    "three_bet",
    "fold_to_three_bet",
    "cbet",
    "fold_to_cbet",
    "wtsd",
    "wsd",
    "postflop_bets_raises",
    "postflop_calls",
];

/// Each seat's [`PLAYER_STATS`] from `first` on, under the position in
/// `--agents` of the agent that sat there (`positions[seat]`; the seat
/// itself in plain play): the definitions of `cardsim stats`
/// (holdem::stats::seat_play), on the simulated hand. Observed once per
/// hand, so a deal group counts each of its hands.
fn observe_player_stats(h: &HandState, positions: &[usize], first: usize, obs: &mut Observations) {
    let play = crate::holdem::stats::seat_play(h);
    let settled = h.settled().expect("a finished hand");
    for ((s, p), &position) in play.iter().enumerate().zip(positions) {
        let at = first + PLAYER_STATS.len() * position;
        let won_at_showdown =
            p.showdown && settled.pots().iter().any(|pot| pot.winners & (1 << s) != 0);
        let rates = [
            (p.vpip_opp, p.vpip),
            (p.vpip_opp, p.pfr),
            (p.three_bet_opp, p.three_bet),
            (p.fold_to_three_bet_opp, p.fold_to_three_bet),
            (p.cbet_opp, p.cbet),
            (p.fold_to_cbet_opp, p.fold_to_cbet),
            (p.saw_flop, p.showdown),
            (p.showdown, won_at_showdown),
        ];
        for (k, (opportunity, hit)) in rates.into_iter().enumerate() {
            if opportunity {
                obs.add(at + k, f64::from(u8::from(hit)));
            }
        }
        obs.add(at + 8, f64::from(p.postflop_bets_raises));
        obs.add(at + 9, f64::from(p.postflop_calls));
    }
}

/// What a worker reuses from hand to hand: the deck, the last hands'
/// heap buffers ([`Game::recycle`] hands them back), the seatings, and its
/// sessions with the agents the user brought (given back to them when it
/// is dropped).
pub struct Scratch {
    deck: Vec<Card>,
    buffers: Vec<Buffers>,
    hands: Vec<PlayedHand>,
    per_agent: Vec<f64>,
    per_hand: Vec<f64>,
    /// Per seating, per seat, the position in `agents` of who sits there.
    seatings: Vec<Vec<usize>>,
    /// Per position in `agents`, its agent's label (an index into
    /// [`HoldemGame::agent_labels`]).
    label_of: Vec<usize>,
    /// Per label, the seats its agent holds in every hand.
    seats_of: Vec<usize>,
    /// Per seat, its choice stream (reset for every hand).
    choices: Vec<GameRng>,
    /// The mixed answers of the hand being played, by their index in its
    /// history (kept for the action correction).
    mixes: Vec<(usize, Mix)>,
    /// Per position in `agents`, its external agent's entry in `sessions`.
    session_of: Vec<Option<usize>>,
    sessions: Vec<Seated>,
}

/// One external agent as a worker sees it: opened at its first decision.
struct Seated {
    agent: Arc<dyn External>,
    session: Option<Result<Box<dyn Session>, String>>,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        for seated in &mut self.sessions {
            if let Some(Ok(session)) = seated.session.take() {
                seated.agent.give_back(session);
            }
        }
    }
}

impl Scratch {
    /// The answer of the external agent at position `at` of `agents` to
    /// `view`.
    fn ask(&mut self, at: usize, view: &AgentView) -> Result<String, String> {
        let Some(k) = self.session_of.get(at).copied().flatten() else {
            return Err("internal error: no session for this seat".into());
        };
        let seated = &mut self.sessions[k];
        let agent = &seated.agent;
        match seated.session.get_or_insert_with(|| agent.session()) {
            Ok(session) => session.act(view),
            Err(why) => Err(why.clone()),
        }
    }
}

/// Salt of the cards' stream: button, stacks and shuffle ("cards___").
pub const DEAL_SALT: u64 = 0x6361_7264_735f_5f5f;
/// Salt of seat 0's choice stream; seat `s` adds `s` ("choices" and a
/// zero byte).
pub const CHOICE_SALT: u64 = 0x6368_6f69_6365_7300;
/// Salt of the all-in equity stream ("equity__").
pub const EQUITY_SALT: u64 = 0x6571_7569_7479_5f5f;
/// Salt of the stream the corrections sample their values from.
pub const CORRECTION_SALT: u64 = 0x636f_7272_6563_7421;
/// Salt of the stream the strength features sample the flop from
/// ("strength").
pub const STRENGTH_SALT: u64 = 0x7374_7265_6e67_7468;
/// Salt of the stream that plays the deals estimating `tag`'s chances
/// ("thresho").
pub const THRESHOLD_SALT: u64 = 0x7468_7265_7368_6f00;
/// How sure the tendency tables must make a bet (or a check) for the
/// action correction to skip estimating `tag`'s chances: 10% of the
/// calibration's hands or fewer the other way. Measured (tag against
/// station, the reference command of docs/duplicate.md): `learned` needs
/// 11.6, 11.3, 10.7 and 10.1 times fewer hands than plain play at 5%, 10%,
/// 20% and 30%; at 20% the estimates cost about half what they cost at 5%.
pub const SURE_BETS: f64 = 0.1;
/// Salt of the calibration stream's seed (the learned baseline's hands).
pub const CALIBRATION_SALT: u64 = 0x6361_6c69_6272_6174;
/// Salt of the seed external agents get at seat 0; seat `s` adds `s`
/// ("agent_se").
pub const AGENT_SEED_SALT: u64 = 0x6167_656e_745f_7365;

/// The most cards a hand deals: at most the deck (PLO5 deals 5 to each of
/// nine seats and the board, 50).
const MOST_DEALT: usize = 52;

impl Game for HoldemGame {
    type Record = HoldemRecord;
    type Scratch = Scratch;

    fn name(&self) -> &'static str {
        "holdem"
    }

    fn options(&self) -> BTreeMap<String, String> {
        let agents: Vec<String> = self.agents.iter().map(|a| a.to_string()).collect();
        let mut programs: Vec<String> = Vec::new();
        for p in self.agents.iter().filter_map(|a| a.external()?.program()) {
            if !programs.contains(&p) {
                programs.push(p);
            }
        }
        let mut options = BTreeMap::from([
            ("players".into(), self.players().to_string()),
            ("agents".into(), agents.join(",")),
            ("stacks".into(), self.stacks.to_string()),
            (
                "blinds".into(),
                format!("{}/{}", self.small_blind, self.big_blind),
            ),
            ("ante".into(), self.ante.to_string()),
            ("odd_chips".into(), self.odd_chips.key().into()),
            ("short_big_blind".into(), self.short_big_blind.key().into()),
            ("allin_trials".into(), self.allin_trials.to_string()),
        ]);
        // Only runs with player statistics have this key (older summaries
        // stay valid).
        if self.player_stats {
            options.insert("player_stats".into(), "true".into());
        }
        // Only runs of another game than hold'em have this key (a
        // hold'em summary is as before), so runs of two games never merge.
        if self.variant != Variant::Holdem {
            options.insert("variant".into(), self.variant.name().into());
        }
        // Only duplicate runs have this key.
        if let Some(key) = self.duplicate.key() {
            options.insert("duplicate".into(), key.into());
        }
        // Only runs with the corrections, or a learned baseline, have these.
        if self.estimates.corrections {
            options.insert("corrections".into(), "true".into());
        }
        if let Some(learned) = &self.estimates.learned {
            options.insert("calibration".into(), learned.groups.to_string());
        }
        // Only runs with an `exec:` agent running a file have this key.
        if !programs.is_empty() {
            options.insert("agent_programs".into(), programs.join(","));
        }
        options
    }

    fn columns(&self) -> Vec<String> {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        if self.duplicate != Duplicate::Off {
            let mut c = words(&["players", "seatings", "button", "board"]);
            c.extend(self.seat_names("hole"));
            c.extend(self.seat_names("stack"));
            for (label, _) in self.agent_labels() {
                for e in self.estimators() {
                    c.push(format!("agent_{label}_{}", e.name));
                }
            }
            return c;
        }
        let mut c = words(&[
            "players",
            "button",
            "street",
            "showdown",
            "pot_total",
            "pots",
            "side_pot_total",
            "all_in_players",
            "split",
            "odd_chips",
            "winning_category",
            "allin_street",
            "board",
        ]);
        for what in ["hole", "stack", "net", "equity", "ev_net"] {
            c.extend(self.seat_names(what));
        }
        c
    }

    fn metrics(&self) -> Vec<Metric> {
        let mut m = vec![
            Metric::integer("pot_total"),
            Metric::integer("pots"),
            Metric::proportion("side_pot"),
            Metric::integer("side_pot_total"),
            Metric::integer("all_in_players"),
            Metric::proportion("showdown"),
            Metric::proportion("split"),
            Metric::proportion("all_in_before_river"),
        ];
        debug_assert_eq!(m.len(), FIXED_METRICS);
        let low = -(self.stacks.max() as i64);
        let duplicate = self.duplicate != Duplicate::Off;
        if !duplicate {
            for (s, a) in self.agents.iter().enumerate() {
                m.push(Metric::new(
                    format!("net_s{}_{}", s + 1, a.name()),
                    MetricKind::Integer { min: low },
                ));
                m.push(Metric::new(
                    format!("ev_net_s{}_{}", s + 1, a.name()),
                    MetricKind::Fixed {
                        scale: 100,
                        min: low,
                    },
                ));
            }
        }
        // The agents' estimates are kept to 1/10,000 of a chip, as the CSV
        // writes them: a value that takes few distinct values (a corrected
        // result in hands that end preflop) rounded to hundredths biased its
        // mean by up to half a hundredth of a chip.
        let fixed = MetricKind::Fixed {
            scale: 10_000,
            min: low,
        };
        let labels = self.agent_labels();
        for (label, _) in &labels {
            for e in self.estimators() {
                m.push(Metric::new(format!("agent_{label}_{}", e.name), fixed));
            }
        }
        if duplicate {
            for (label, _) in &labels {
                m.push(Metric::new(format!("agent_{label}_{HAND_NET}"), fixed));
            }
        }
        if self.player_stats {
            for (s, a) in self.agents.iter().enumerate() {
                for (k, stat) in PLAYER_STATS.iter().enumerate() {
                    let name = format!("{stat}_s{}_{}", s + 1, a.name());
                    m.push(if k < 8 {
                        Metric::proportion(name)
                    } else {
                        Metric::integer(name)
                    });
                }
            }
        }
        m
    }

    fn new_scratch(&self) -> Scratch {
        // Positions played by the same agent value share its session.
        let mut sessions: Vec<Seated> = Vec::new();
        let session_of = self
            .agents
            .iter()
            .map(|a| {
                let agent = a.external()?;
                let k = match sessions.iter().position(|s| Arc::ptr_eq(&s.agent, agent)) {
                    Some(k) => k,
                    None => {
                        sessions.push(Seated {
                            agent: Arc::clone(agent),
                            session: None,
                        });
                        sessions.len() - 1
                    }
                };
                Some(k)
            })
            .collect();
        let labels = self.agent_labels();
        let mut label_of = vec![0; self.players()];
        for (l, (_, at)) in labels.iter().enumerate() {
            for &k in at {
                label_of[k] = l;
            }
        }
        Scratch {
            deck: self.variant.deck().to_vec(),
            buffers: Vec::new(),
            hands: Vec::new(),
            per_agent: Vec::new(),
            per_hand: Vec::new(),
            seatings: self.duplicate.seatings(self.players()),
            label_of,
            seats_of: labels.iter().map(|(_, at)| at.len()).collect(),
            choices: Vec::new(),
            mixes: Vec::new(),
            session_of,
            sessions,
        }
    }

    fn recycle(&self, mut record: HoldemRecord, scratch: &mut Scratch) {
        for played in record.hands.drain(..) {
            scratch.buffers.push(played.hand.into_buffers());
        }
        scratch.hands = record.hands;
        scratch.per_agent = record.per_agent;
        scratch.per_hand = record.per_hand;
    }

    fn play(&self, index: u64, rng: &mut GameRng, scratch: &mut Scratch) -> HoldemRecord {
        self.try_play(index, rng, scratch)
            .unwrap_or_else(|e| panic!("a hand played outside the runner failed: {e}"))
    }

    fn try_play(
        &self,
        index: u64,
        rng: &mut GameRng,
        scratch: &mut Scratch,
    ) -> Result<HoldemRecord, GameFailure> {
        use rand::Rng;
        let key = rng.next_u64();
        let n = self.players();
        let mut cards = substream(key, DEAL_SALT);
        let button = cards.random_range(0..n);
        let mut stacks = [0u64; 10];
        for stack in &mut stacks[..n] {
            *stack = self.stacks.draw(&mut cards);
        }
        // The deck starts in index order every hand (the scratch buffer must
        // not carry one hand's order into the next: a hand depends on its
        // index and seed only). Only the 2n + 5 cards a hand can deal are
        // drawn: a partial Fisher-Yates shuffle puts them at the end.
        let deck = &mut scratch.deck;
        if self.variant == Variant::Holdem {
            for (i, c) in deck.iter_mut().enumerate() {
                *c = Card::from_index(i as u8);
            }
        } else {
            for (c, d) in deck.iter_mut().zip(self.variant.deck().iter()) {
                *c = d;
            }
        }
        let holes = self.variant.hole_cards() * n;
        let (shuffled, _) = deck.partial_shuffle(&mut cards, holes + 5);
        let mut dealt = [Card::from_index(0); MOST_DEALT];
        dealt[..holes + 5].copy_from_slice(shuffled);
        let dealt = &dealt[..holes + 5];
        let mut board = [Card::from_index(0); 5];
        board.copy_from_slice(&dealt[holes..]);
        let mut hands = std::mem::take(&mut scratch.hands);
        hands.clear();
        let seatings = scratch.seatings.len() as u64;
        for r in 0..scratch.seatings.len() {
            let mut seating = [0usize; 10];
            seating[..n].copy_from_slice(&scratch.seatings[r]);
            let played = self.play_seating(
                index * seatings + r as u64,
                key,
                &seating[..n],
                dealt,
                button,
                &stacks[..n],
                scratch,
            );
            match played {
                Ok(p) => hands.push(p),
                Err(e) => {
                    self.recycle_hands(hands, scratch);
                    return Err(GameFailure(format!("hand {index}{e}")));
                }
            }
        }
        // Each agent's mean per seat and hand, per estimator.
        let labels = scratch.seats_of.len();
        let estimators = self.estimators();
        let mut per_agent = std::mem::take(&mut scratch.per_agent);
        per_agent.clear();
        per_agent.resize(labels * estimators.len(), 0.0);
        let mut per_hand = std::mem::take(&mut scratch.per_hand);
        per_hand.clear();
        let duplicate = self.duplicate != Duplicate::Off;
        for (played, seating) in hands.iter().zip(&scratch.seatings) {
            let first = per_hand.len();
            if duplicate {
                per_hand.resize(first + labels, 0.0);
            }
            for (s, &at) in seating.iter().enumerate() {
                let l = scratch.label_of[at];
                for (e, estimator) in estimators.iter().enumerate() {
                    let v = (estimator.value)(played, s);
                    per_agent[l * estimators.len() + e] += v;
                    if duplicate && e == 0 {
                        per_hand[first + l] += v / scratch.seats_of[l] as f64;
                    }
                }
            }
        }
        for (l, &seats) in scratch.seats_of.iter().enumerate() {
            let times = (seats * hands.len()) as f64;
            for v in &mut per_agent[l * estimators.len()..(l + 1) * estimators.len()] {
                *v /= times;
            }
        }
        Ok(HoldemRecord {
            hands,
            board,
            per_agent,
            per_hand,
        })
    }

    fn write_row(&self, record: &HoldemRecord, row: &mut Row<'_>) {
        let n = self.players();
        if self.duplicate != Duplicate::Off {
            let h = record.hand();
            row.int(n);
            row.int(record.hands.len());
            row.int(h.config().button + 1);
            cards_field(row, &record.board);
            for seat in h.seats() {
                cards_field(row, &seat.hole);
            }
            row.ints(h.config().stacks.iter().copied());
            for &v in &record.per_agent {
                row.fixed(v, 4);
            }
            return;
        }
        let r = &record.hands[0];
        let h = &r.hand;
        let pay = h.settled().expect("a finished hand");
        let f = r.figures;
        row.int(n);
        row.int(h.config().button + 1);
        row.code(street_code(h.board().len()), &STREETS);
        row.flag(pay.showdown);
        row.int(f.pot_total);
        row.int(f.pots);
        row.int(f.side_pot_total);
        row.int(f.all_in_players);
        row.flag(f.split);
        row.int(f.odd_chips);
        // The best hand only matters at a showdown: look for it only then.
        match pay.showdown.then(|| pay.strengths().iter().flatten().max()) {
            Some(Some(&best)) if self.variant == Variant::ShortDeck => {
                row.code(category_code(super::shortdeck::category(best)), &CATEGORIES)
            }
            Some(Some(&best)) => row.code(category_code(category(best)), &CATEGORIES),
            _ => row.empty(),
        }
        match h.all_in_board() {
            Some(b) => row.code(street_code(b), &STREETS),
            None => row.empty(),
        }
        cards_field(row, h.board());
        for seat in h.seats() {
            cards_field(row, &seat.hole);
        }
        let (stacks, seats) = (&h.config().stacks[..n], &h.seats()[..n]);
        row.ints(stacks.iter().copied());
        // `net` of each seat, from the slices (one bounds check each).
        let nets = || {
            seats
                .iter()
                .zip(stacks)
                .map(|(seat, &start)| won(seat, start))
        };
        row.ints(nets());
        match &r.allin {
            // Without an all-in equity the adjusted result is the whole
            // number of chips `net` (at most 2^44 in magnitude, so
            // `fixed_int` writes what `fixed(net as f64, 2)` would).
            None => {
                row.empties(n);
                row.fixed_ints(nets(), 2);
            }
            Some(a) => {
                for (s, seat) in seats.iter().enumerate() {
                    if seat.folded {
                        row.empty();
                    } else {
                        row.fixed(a.equity[s], 4);
                    }
                }
                for (s, seat) in seats.iter().enumerate() {
                    if seat.folded {
                        row.fixed_int(net(h, s), 2);
                    } else {
                        row.fixed(ev_net(r, s), 2);
                    }
                }
            }
        }
    }

    fn observe(&self, record: &HoldemRecord, obs: &mut Observations) {
        for r in &record.hands {
            let h = &r.hand;
            let pay = h.settled().expect("a finished hand");
            let f = r.figures;
            obs.add(0, f.pot_total as f64);
            obs.add(1, f.pots as f64);
            obs.add(2, f64::from(u8::from(f.pots > 1)));
            if f.pots > 1 {
                obs.add(3, f.side_pot_total as f64);
            }
            obs.add(4, f.all_in_players as f64);
            obs.add(5, f64::from(u8::from(pay.showdown)));
            obs.add(6, f64::from(u8::from(f.split)));
            obs.add(7, f64::from(u8::from(h.all_in_board().is_some())));
        }
        let mut at = FIXED_METRICS;
        if self.duplicate == Duplicate::Off {
            let r = &record.hands[0];
            for s in 0..self.players() {
                obs.set(at + 2 * s, net(&r.hand, s) as f64);
                obs.set(at + 2 * s + 1, ev_net(r, s));
            }
            at += 2 * self.players();
        }
        for (k, &v) in record.per_agent.iter().enumerate() {
            obs.set(at + k, v);
        }
        at += record.per_agent.len();
        if self.duplicate != Duplicate::Off {
            let labels = record.per_agent.len() / self.estimators().len();
            for (k, &v) in record.per_hand.iter().enumerate() {
                obs.add(at + k % labels, v);
            }
            at += labels;
        }
        if self.player_stats {
            for played in &record.hands {
                let positions = &played.seating[..self.players()];
                observe_player_stats(&played.hand, positions, at, obs);
            }
        }
    }

    fn side_columns(&self) -> Option<Vec<String>> {
        // A duplicate run's pots are per hand of the deal group: the
        // seating says which.
        let seating = (self.duplicate != Duplicate::Off).then_some("seating");
        Some(
            seating
                .into_iter()
                .chain(["pot", "amount", "eligible", "winners", "share"])
                .map(|s| s.to_string())
                .collect(),
        )
    }

    fn write_extras(&self, index: u64, record: &HoldemRecord, extras: &mut Extras<'_>) {
        let duplicate = self.duplicate != Duplicate::Off;
        let seatings = record.hands.len() as u64;
        for (r, played) in (0..).zip(&record.hands) {
            // The hand's number in the run, as its agents saw it.
            let number = index * seatings + r;
            if extras.side_wanted() {
                write_pots(&played.hand, duplicate.then_some(r + 1), extras);
            }
            if let (true, Some(k)) = (extras.files_wanted(), self.phh_every) {
                if index.is_multiple_of(k) {
                    let text = if extras.files_bundled() {
                        // A `.phhs` section, named by hand number (unique).
                        phh::export_section(&played.hand, number + 1, Some(number))
                    } else {
                        phh::export(&played.hand, Some(number))
                    };
                    extras.file(format!("hand-{number:012}.phh"), text.into_bytes());
                }
            }
        }
    }
}

/// The pots CSV's rows of a finished hand: one per pot, after the
/// `seating` (from 1) in a duplicate run.
fn write_pots(hand: &HandState, seating: Option<u64>, extras: &mut Extras<'_>) {
    let pay = hand.payout().expect("a finished hand");
    let seats = |it: &mut dyn Iterator<Item = String>| it.collect::<Vec<_>>().join(" ");
    for (k, (pot, shares)) in pay.pots.iter().zip(&pay.shares).enumerate() {
        let eligible = seats(&mut pot.eligible.iter().map(|s| (s + 1).to_string()));
        let winners = seats(&mut shares.iter().map(|(s, _)| (s + 1).to_string()));
        let share = seats(&mut shares.iter().map(|(_, c)| c.to_string()));
        let mut row = extras.row();
        if let Some(seating) = seating {
            row.int(seating);
        }
        row.int(k + 1);
        row.int(pot.amount);
        row.text(&eligible);
        row.text(&winners);
        row.text(&share);
        row.end();
    }
}

/// Plays hand `index` of `game` outside the runner (tests, examples):
/// with `--duplicate`, its deal in the first seating.
pub fn play_hand(game: &HoldemGame, index: u64, seed: u64) -> PlayedHand {
    let mut scratch = game.new_scratch();
    let mut record = game.play(index, &mut crate::rng::game_rng(seed, index), &mut scratch);
    record.hands.swap_remove(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every two cards' code reads back as their text, as the row writer
    /// wrote it before codes (rank then suit of each card), all codes
    /// distinct; the streets' and categories' codes as their names.
    #[test]
    fn codes_are_the_texts_they_stand_for() {
        let mut seen = std::collections::HashSet::new();
        for a in 0..52u8 {
            for b in (0..52u8).filter(|&b| b != a) {
                let (a, b) = (Card::from_index(a), Card::from_index(b));
                let code = pair_code(a, b).expect("standard cards");
                assert!(seen.insert(code));
                let text: String = [
                    a.rank().char(),
                    a.suit().char(),
                    b.rank().char(),
                    b.suit().char(),
                ]
                .into_iter()
                .collect();
                assert_eq!(CARD_PAIRS.text(code), text);
            }
        }
        assert_eq!(pair_code(Card::JOKER, Card::from_index(0)), None);
        for (cards, name) in [(0, "preflop"), (3, "flop"), (4, "turn"), (5, "river")] {
            assert_eq!(STREETS.text(street_code(cards)), name);
        }
        for c in Category::ALL {
            assert_eq!(CATEGORIES.text(category_code(c)), c.key());
        }
    }
}
