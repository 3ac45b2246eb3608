//! The `holdem` simulation as a runner game: hand `i` draws its button and
//! stacks from its own generator, shuffles, and lets the agents play it
//! through the table engine. One CSV row per hand (pots, side pots, splits,
//! all-in equity, each seat's result), optional long-format pot rows and
//! hand histories.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::RngExt;

use super::agents::{AgentSpec, AgentView, Answer, External, Session};
use super::equity::allin::{all_in_equity, AllInEquity};
use super::eval::category;
use super::phh;
use super::table::pots::{build_pots, OddChips};
use super::table::{Betting, Buffers, Config, HandState, Seat, ShortBigBlind};
use crate::cards::Card;
use crate::rng::GameRng;
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
}

/// One played hand.
pub struct HoldemRecord {
    pub hand: HandState,
    pub allin: Option<AllInEquity>,
    /// Pot figures, computed once for the row and the metrics.
    figures: Figures,
}

impl HoldemGame {
    pub fn players(&self) -> usize {
        self.agents.len()
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
            betting: Betting::NoLimit,
            game: super::variant::Game::Holdem,
        }
    }

    /// Checks the table once, before a run: the engine's own rules.
    pub fn validate(&self) -> Result<(), super::table::TableError> {
        let deck: Vec<Card> = (0..52).map(Card::from_index).collect();
        let stacks = vec![self.stacks.max(); self.players()];
        HandState::new(self.config(stacks, 0), &deck).map(|_| ())
    }

    fn seat_names(&self, what: &str) -> Vec<String> {
        (1..=self.players())
            .map(|s| format!("{what}_s{s}"))
            .collect()
    }
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

fn street_name(board_cards: usize) -> &'static str {
    match board_cards {
        0 => "preflop",
        3 => "flop",
        4 => "turn",
        _ => "river",
    }
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
fn ev_net(r: &HoldemRecord, s: usize) -> f64 {
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

/// Each seat's [`PLAYER_STATS`] from `first` on: the definitions of
/// `cardsim stats` (holdem::stats::seat_play), on the simulated hand.
fn observe_player_stats(h: &HandState, first: usize, obs: &mut Observations) {
    let play = crate::holdem::stats::seat_play(h);
    let settled = h.settled().expect("a finished hand");
    for (s, p) in play.iter().enumerate() {
        let at = first + PLAYER_STATS.len() * s;
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
                obs.set(at + k, f64::from(u8::from(hit)));
            }
        }
        obs.set(at + 8, f64::from(p.postflop_bets_raises));
        obs.set(at + 9, f64::from(p.postflop_calls));
    }
}

/// What a worker reuses from hand to hand: the deck, the last hand's
/// heap buffers ([`Game::recycle`] hands them back), and its sessions with
/// the agents the user brought (given back to them when it is dropped).
pub struct Scratch {
    deck: Vec<Card>,
    buffers: Buffers,
    /// Per seat, its external agent's entry in `sessions`.
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
    /// The answer of seat `seat`'s external agent to `view`.
    fn ask(&mut self, seat: usize, view: &AgentView) -> Result<String, String> {
        let Some(k) = self.session_of.get(seat).copied().flatten() else {
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

/// Salt of the seed an external agent gets per hand (see [`agent_seed`]).
const AGENT_SEED_SALT: u64 = 0x6167_656e_745f_7365; // "agent_se"

/// The seed the view gives external agents in a hand: drawn from a copy
/// of the hand's generator (so the hand's own draws are unchanged) and
/// mixed, a function of the run's seed and the hand only.
fn agent_seed(rng: &GameRng) -> u64 {
    use rand::Rng;
    crate::rng::mix64(rng.clone().next_u64() ^ AGENT_SEED_SALT)
}

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
        // Only runs with an `exec:` agent running a file have this key.
        if !programs.is_empty() {
            options.insert("agent_programs".into(), programs.join(","));
        }
        options
    }

    fn columns(&self) -> Vec<String> {
        let mut c: Vec<String> = [
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
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for what in ["stack", "net", "equity", "ev_net"] {
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
        // Seats played by the same agent value share its session.
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
        Scratch {
            deck: (0..52).map(Card::from_index).collect(),
            buffers: Buffers::default(),
            session_of,
            sessions,
        }
    }

    fn recycle(&self, record: HoldemRecord, scratch: &mut Scratch) {
        scratch.buffers = record.hand.into_buffers();
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
        let external = !scratch.sessions.is_empty();
        let seed = if external { agent_seed(rng) } else { 0 };
        let mut buffers = std::mem::take(&mut scratch.buffers);
        let n = self.players();
        let button = rng.random_range(0..n);
        let mut stacks = std::mem::take(&mut buffers.stacks);
        stacks.clear();
        stacks.extend((0..n).map(|_| self.stacks.draw(rng)));
        // The deck starts in index order every hand (the scratch buffer must
        // not carry one hand's order into the next: a hand depends on its
        // index and seed only). Only the 2n + 5 cards a hand can deal are
        // drawn: a partial Fisher-Yates shuffle puts them at the end.
        let deck = &mut scratch.deck;
        for (i, c) in deck.iter_mut().enumerate() {
            *c = Card::from_index(i as u8);
        }
        let (dealt, _) = deck.partial_shuffle(rng, 2 * n + 5);
        let mut hand = HandState::new_reusing(self.config(stacks, button), dealt, buffers)
            .expect("the table was validated before the run");
        while let Some(view) = hand.view() {
            let seat = view.seat();
            let spec = &self.agents[seat];
            let action = match spec.act_builtin(&view, rng) {
                Some(action) => action,
                None => {
                    let Some(agent) = spec.external() else {
                        unreachable!("an agent is built in or external")
                    };
                    let legal = view.legal();
                    let view = AgentView::of(&hand, index, seed).expect("a seat to act");
                    let fail = |why: String| {
                        GameFailure(format!(
                            "hand {index}, seat {} ({}): {why}",
                            seat + 1,
                            agent.spec()
                        ))
                    };
                    let text = scratch.ask(seat, &view).map_err(fail)?;
                    let answer = Answer::parse(&text).map_err(|e| fail(e.to_string()))?;
                    answer.resolve(&legal).ok_or_else(|| {
                        fail(format!(
                            "answer '{answer}' is not legal (legal: {})",
                            view.legal
                        ))
                    })?
                }
            };
            if let Err(e) = hand.apply(action) {
                // Built-in agents choose from the legal actions they are
                // shown, and answers are checked above: a bug, caught by
                // the tests.
                panic!("seat {seat} chose an illegal action {action:?}: {e}");
            }
        }
        let allin = hand
            .all_in_board()
            .filter(|_| self.allin_trials > 0)
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
                    rng,
                )
            });
        let figures = figures(&hand);
        Ok(HoldemRecord {
            hand,
            allin,
            figures,
        })
    }

    fn write_row(&self, r: &HoldemRecord, row: &mut Row<'_>) {
        let h = &r.hand;
        let pay = h.settled().expect("a finished hand");
        let f = r.figures;
        row.int(self.players());
        row.int(h.config().button + 1);
        row.word(street_name(h.board().len()));
        row.flag(pay.showdown);
        row.int(f.pot_total);
        row.int(f.pots);
        row.int(f.side_pot_total);
        row.int(f.all_in_players);
        row.flag(f.split);
        row.int(f.odd_chips);
        // The best hand only matters at a showdown: look for it only then.
        match pay.showdown.then(|| pay.strengths().iter().flatten().max()) {
            Some(Some(&best)) => row.word(category(best).key()),
            _ => row.empty(),
        }
        match h.all_in_board() {
            Some(b) => row.word(street_name(b)),
            None => row.empty(),
        }
        let n = self.players();
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

    fn observe(&self, r: &HoldemRecord, obs: &mut Observations) {
        let h = &r.hand;
        let pay = h.settled().expect("a finished hand");
        let f = r.figures;
        obs.set(0, f.pot_total as f64);
        obs.set(1, f.pots as f64);
        obs.set(2, f64::from(u8::from(f.pots > 1)));
        if f.pots > 1 {
            obs.set(3, f.side_pot_total as f64);
        }
        obs.set(4, f.all_in_players as f64);
        obs.set(5, f64::from(u8::from(pay.showdown)));
        obs.set(6, f64::from(u8::from(f.split)));
        obs.set(7, f64::from(u8::from(h.all_in_board().is_some())));
        for s in 0..self.players() {
            obs.set(FIXED_METRICS + 2 * s, net(h, s) as f64);
            obs.set(FIXED_METRICS + 2 * s + 1, ev_net(r, s));
        }
        if self.player_stats {
            observe_player_stats(h, FIXED_METRICS + 2 * self.players(), obs);
        }
    }

    fn side_columns(&self) -> Option<Vec<String>> {
        Some(
            ["pot", "amount", "eligible", "winners", "share"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        )
    }

    fn write_extras(&self, index: u64, r: &HoldemRecord, extras: &mut Extras<'_>) {
        if extras.side_wanted() {
            let pay = r.hand.payout().expect("a finished hand");
            let seats = |it: &mut dyn Iterator<Item = String>| it.collect::<Vec<_>>().join(" ");
            for (k, (pot, shares)) in pay.pots.iter().zip(&pay.shares).enumerate() {
                let eligible = seats(&mut pot.eligible.iter().map(|s| (s + 1).to_string()));
                let winners = seats(&mut shares.iter().map(|(s, _)| (s + 1).to_string()));
                let share = seats(&mut shares.iter().map(|(_, c)| c.to_string()));
                let mut row = extras.row();
                row.int(k + 1);
                row.int(pot.amount);
                row.text(&eligible);
                row.text(&winners);
                row.text(&share);
                row.end();
            }
        }
        if extras.files_wanted() {
            if let Some(k) = self.phh_every {
                if index.is_multiple_of(k) {
                    let text = if extras.files_bundled() {
                        // A `.phhs` section, named by hand number (unique).
                        phh::export_section(&r.hand, index + 1, Some(index))
                    } else {
                        phh::export(&r.hand, Some(index))
                    };
                    extras.file(format!("hand-{index:012}.phh"), text.into_bytes());
                }
            }
        }
    }
}

/// Plays one hand of `game` outside the runner (tests, examples).
pub fn play_hand(game: &HoldemGame, index: u64, seed: u64) -> HoldemRecord {
    let mut deck = game.new_scratch();
    game.play(index, &mut crate::rng::game_rng(seed, index), &mut deck)
}
