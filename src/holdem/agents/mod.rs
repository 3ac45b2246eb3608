//! Table agents: who decides what at a simulated hold'em table. An agent
//! sees only a [`View`] (public information and its own hole cards) and
//! answers with one of the legal actions.
//!
//! The built-in agents are deliberately simple, documented players, good
//! for stress-testing the engine and for baseline statistics, not for
//! strategy research:
//! - `random`: uniform over the legal kinds of action (fold, check, call,
//!   raise), and a raise size uniform over the legal range;
//! - `station`: checks or calls, always;
//! - `tag` (tight-aggressive): a preflop chart by Chen score, then
//!   postflop an equity threshold against random hands (a 64-deal Monte
//!   Carlo estimate);
//! - `pushfold`: preflop all-in or fold by a Chen-score chart that widens as
//!   the effective stack shortens (calls an all-in with a tighter chart);
//!   postflop it checks or calls.
//!
//! At Omaha and short-deck tables `tag` and `pushfold` admit the same
//! share of that game's starting hands by its own preflop score, and
//! `tag`'s equity is the game's ([`variants`]); `pushfold` and `chart` do
//! not play pot-limit Omaha (the simulation refuses them there).
//!
//! Agents the user brings (a program, a Python function) see an
//! [`AgentView`] and answer in PHH notation ([`Answer`]), or with the
//! probabilities of actions that cardsim draws from ([`mixed`]): see
//! docs/agents.md.

use std::fmt;
use std::sync::Arc;

use rand::RngExt;

use super::eval::Hand;
use super::table::{Action, Legal, Street, View};
use super::variant::Game;
use crate::cards::{Card, CardSet};
use crate::rng::GameRng;

pub mod chart;
pub mod exec;
pub mod external;
pub mod mixed;
pub mod params;
pub mod spec;
pub mod variants;
pub mod view;

pub use chart::Chart;
pub use exec::ExecAgent;
pub use external::{External, Session};
pub use mixed::{BadReply, Mix, Reply};
pub use params::{PushFoldParams, TagParams};
pub use view::{AgentView, Answer, LegalView, NotAnAction};

/// What a built-in agent tells the action correction of how it chose.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawn {
    /// The chances of the actions it drew among, when it drew (`tag`'s
    /// c-bets and bluffs, a chart's weighted ranges).
    pub mix: Option<Mix>,
    /// `tag`'s deals when it estimated its hold'em equity: the action it
    /// took follows from them by [`tag_postflop`].
    pub equity: Option<DealOutcomes>,
}

/// A player at the table.
pub trait Agent {
    /// The agent's name, as on the command line.
    fn name(&self) -> &'static str;
    /// One legal action for the seat `view` belongs to.
    fn act(&mut self, view: &View<'_>, rng: &mut GameRng) -> Action;
}

/// The built-in agents (stateless, so one value serves every seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentKind {
    Random,
    Station,
    Tag,
    PushFold,
}

/// An agent name that is not one of the built-in agents.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown agent '{0}' (expected random, station, tag, pushfold, chart(file=PATH) or exec:COMMAND)"
)]
pub struct UnknownAgent(pub String);

impl AgentKind {
    pub const ALL: [AgentKind; 4] = [
        AgentKind::Random,
        AgentKind::Station,
        AgentKind::Tag,
        AgentKind::PushFold,
    ];

    pub fn parse(text: &str) -> Result<AgentKind, UnknownAgent> {
        let t = text.trim().to_ascii_lowercase();
        AgentKind::ALL
            .into_iter()
            .find(|a| a.name() == t)
            .ok_or_else(|| UnknownAgent(crate::text::quote(text.trim())))
    }

    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::Station => "station",
            AgentKind::Tag => "tag",
            AgentKind::PushFold => "pushfold",
        }
    }
}

impl fmt::Display for AgentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Agent for AgentKind {
    fn name(&self) -> &'static str {
        AgentKind::name(*self)
    }

    fn act(&mut self, view: &View<'_>, rng: &mut GameRng) -> Action {
        let legal = view.legal();
        match self {
            AgentKind::Random => random_action(&legal, rng),
            AgentKind::Station => passive(&legal),
            AgentKind::Tag => tag(
                view,
                &legal,
                rng,
                &TagParams::DEFAULT,
                &mut Drawn::default(),
            ),
            AgentKind::PushFold => pushfold(view, &legal, &PushFoldParams::DEFAULT),
        }
    }
}

/// Who plays a seat: a built-in agent (with its default parameters, or
/// others), or one the user brings.
#[derive(Clone, Debug)]
pub enum AgentSpec {
    Builtin(AgentKind),
    /// `tag(...)`: the parameters, and the spec as written.
    Tag(TagParams, Arc<str>),
    /// `pushfold(...)`.
    PushFold(PushFoldParams, Arc<str>),
    /// `chart(file=...)`.
    Chart(Arc<Chart>),
    External(Arc<dyn External>),
}

impl AgentSpec {
    /// The short name in metric names (`tag`, `exec`).
    pub fn name(&self) -> &'static str {
        match self {
            AgentSpec::Builtin(k) => k.name(),
            AgentSpec::Tag(..) => "tag",
            AgentSpec::PushFold(..) => "pushfold",
            AgentSpec::Chart(_) => "chart",
            AgentSpec::External(e) => e.name(),
        }
    }

    pub fn external(&self) -> Option<&Arc<dyn External>> {
        match self {
            AgentSpec::External(e) => Some(e),
            _ => None,
        }
    }

    /// A built-in agent's action (`None` for an external agent).
    #[inline]
    pub fn act_builtin(&self, view: &View<'_>, rng: &mut GameRng) -> Option<Action> {
        self.act_builtin_drawn(view, rng, &mut Drawn::default())
    }

    /// `tag`'s parameters, for a `tag` agent.
    pub fn tag_params(&self) -> Option<&TagParams> {
        match self {
            AgentSpec::Builtin(AgentKind::Tag) => Some(&TagParams::DEFAULT),
            AgentSpec::Tag(p, _) => Some(p),
            _ => None,
        }
    }

    /// A built-in agent's action, and in `drawn` the probabilities it drew
    /// it from when it drew among actions (`tag`'s c-bets and bluffs, a
    /// chart's weighted ranges; the `random` agent's draw is known by its
    /// name instead) and `tag`'s equity deals: what the action correction
    /// needs.
    #[inline]
    pub fn act_builtin_drawn(
        &self,
        view: &View<'_>,
        rng: &mut GameRng,
        drawn: &mut Drawn,
    ) -> Option<Action> {
        let legal = view.legal();
        Some(match self {
            AgentSpec::Builtin(AgentKind::Random) => random_action(&legal, rng),
            AgentSpec::Builtin(AgentKind::Station) => passive(&legal),
            AgentSpec::Builtin(AgentKind::Tag) => {
                tag(view, &legal, rng, &TagParams::DEFAULT, drawn)
            }
            AgentSpec::Builtin(AgentKind::PushFold) => {
                pushfold(view, &legal, &PushFoldParams::DEFAULT)
            }
            AgentSpec::Tag(p, _) => tag(view, &legal, rng, p, drawn),
            AgentSpec::PushFold(p, _) => pushfold(view, &legal, p),
            AgentSpec::Chart(c) => c.act(view, &legal, rng, &mut drawn.mix),
            AgentSpec::External(_) => return None,
        })
    }
}

impl From<AgentKind> for AgentSpec {
    fn from(kind: AgentKind) -> AgentSpec {
        AgentSpec::Builtin(kind)
    }
}

impl fmt::Display for AgentSpec {
    /// The agent as a spec that parses back to it (recorded in summaries).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Builtin(k) => f.write_str(k.name()),
            AgentSpec::Tag(_, spec) | AgentSpec::PushFold(_, spec) => f.write_str(spec),
            AgentSpec::Chart(c) => f.write_str(&c.spec),
            AgentSpec::External(e) => f.write_str(e.spec()),
        }
    }
}

/// Check when free, else call.
fn passive(legal: &Legal) -> Action {
    if legal.can_check {
        Action::Check
    } else {
        Action::Call
    }
}

/// Check when free, else fold.
fn give_up(legal: &Legal) -> Action {
    if legal.can_check {
        Action::Check
    } else {
        Action::Fold
    }
}

/// A raise to `to`, clamped into the legal range; a passive action when no
/// raise is allowed.
fn raise_to(legal: &Legal, to: u64) -> Action {
    match legal.raise {
        Some((lo, hi)) => Action::RaiseTo(to.clamp(lo, hi)),
        None => passive(legal),
    }
}

/// Uniform over the legal kinds of action, then over raise sizes.
fn random_action(legal: &Legal, rng: &mut GameRng) -> Action {
    let mut kinds = [Action::Fold; 3];
    let mut n = 0;
    if legal.can_fold {
        kinds[n] = Action::Fold;
        n += 1;
    }
    kinds[n] = passive(legal);
    n += 1;
    if let Some((lo, hi)) = legal.raise {
        kinds[n] = Action::RaiseTo(lo);
        n += 1;
        if let Action::RaiseTo(_) = kinds[rng.random_range(0..n)] {
            return Action::RaiseTo(rng.random_range(lo..=hi));
        }
        return kinds[rng.random_range(0..n - 1)];
    }
    kinds[rng.random_range(0..n)]
}

/// Chen's preflop score of two hole cards, doubled so it stays an integer
/// (AA = 40, 72o = -1 before rounding): high card (A 10, K 8, Q 7, J 6,
/// else half the pip value), doubled for a pair (at least 5), +2 suited,
/// minus a gap penalty (1, 2, 4, 5 for gaps of 1, 2, 3, 4+), +1 for a gap of
/// at most one below a queen. The published score rounds halves up; this
/// keeps the halves.
pub fn chen_score_x2(hole: [Card; 2]) -> i32 {
    let (a, b) = (hole[0].rank().index(), hole[1].rank().index());
    let (hi, lo) = (a.max(b), a.min(b));
    let value = |r: u8| -> i32 {
        match r {
            12 => 20,
            11 => 16,
            10 => 14,
            9 => 12,
            _ => i32::from(r) + 2, // pips (r + 2) halved, doubled
        }
    };
    if hi == lo {
        return (2 * value(hi)).max(10);
    }
    let mut score = value(hi);
    if hole[0].suit() == hole[1].suit() {
        score += 4;
    }
    let gap = hi - lo - 1;
    score -= match gap {
        0 => 0,
        1 => 2,
        2 => 4,
        3 => 8,
        _ => 10,
    };
    if gap <= 1 && hi < 10 {
        score += 2;
    }
    score
}

/// The agents' equity estimate at `view`'s table against the live
/// opponents' random hands: [`equity_vs_random`] in hold'em, the game's
/// own ([`variants::equity_vs_random`]) at other tables.
pub(crate) fn table_equity(view: &View<'_>, rng: &mut GameRng) -> f64 {
    let opponents = view.live() - 1;
    match view.game() {
        Game::Holdem => equity_vs_random(view.hole(), view.board(), opponents, rng),
        game => variants::equity_vs_random(game, view.hole_cards(), view.board(), opponents, rng),
    }
}

/// How many random deals `tag` and `chart` estimate an equity from.
pub const EQUITY_DEALS: u32 = 64;

/// Equity of `hole` on `board` against `opponents` random hands, from
/// [`EQUITY_DEALS`] random deals (ties counted as a share). Good to about
/// ±0.06: enough for a threshold player.
pub fn equity_vs_random(
    hole: [Card; 2],
    board: &[Card],
    opponents: usize,
    rng: &mut GameRng,
) -> f64 {
    deal_outcomes(hole, board, opponents, EQUITY_DEALS, rng).equity()
}

/// What `deals` random deals gave `hole` on `board` against `opponents`
/// random hands.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DealOutcomes {
    pub deals: u32,
    /// Deals shared with one or more opponents.
    pub splits: u32,
    /// The shares won, a split among `k` counted `1 / k` (added in the
    /// order of the deals).
    pub won: f64,
}

impl DealOutcomes {
    /// The estimate: the share won per deal.
    pub fn equity(&self) -> f64 {
        self.won / f64::from(self.deals)
    }

    /// Deals won alone, against one opponent: there a split is worth
    /// exactly a half, so they are the shares less half the splits.
    pub fn heads_up_wins(&self) -> u32 {
        (self.won - f64::from(self.splits) / 2.0) as u32
    }
}

/// Plays `deals` random deals: each completes the board and gives each
/// opponent two cards, uniformly from the cards not in `hole` or `board`,
/// and counts how `hole` fared. Each deal is independent of the others and
/// drawn alike, which the action correction's estimate of `tag`'s chances
/// relies on ([`crate::holdem::correction::threshold`]).
pub fn deal_outcomes(
    hole: [Card; 2],
    board: &[Card],
    opponents: usize,
    deals: u32,
    rng: &mut GameRng,
) -> DealOutcomes {
    let known: CardSet = hole.iter().chain(board).copied().collect();
    let mine = Hand::from_cards(board).combine(Hand::from_cards(&hole));
    let mut out = DealOutcomes {
        deals,
        ..DealOutcomes::default()
    };
    for _ in 0..deals {
        let mut used = known;
        let mut draw = || loop {
            let c = Card::from_index(rng.random_range(0..52u8));
            if !used.contains(c) {
                used.insert(c);
                return c;
            }
        };
        let mut runout = Hand::EMPTY;
        for _ in board.len()..5 {
            runout = runout.with(draw());
        }
        let me = mine.combine(runout).strength();
        let base = Hand::from_cards(board).combine(runout);
        let (mut best, mut ties) = (true, 1u32);
        for _ in 0..opponents {
            let opp = base.with(draw()).with(draw()).strength();
            if opp > me {
                best = false;
                break;
            }
            ties += u32::from(opp == me);
        }
        if best {
            out.won += 1.0 / f64::from(ties);
            out.splits += u32::from(ties > 1);
        }
    }
    out
}

/// Tight-aggressive, with today's defaults ([`TagParams::DEFAULT`]): opens 3
/// big blinds (plus one a limper) with a Chen score of 9+ (8+ from the
/// button or the seat before it), re-raises to 3x with 12+, calls a raise
/// with 10+ when it costs at most a fifth of the stack. After the flop:
/// bets two thirds of the pot with 70%+ equity against the live opponents'
/// random hands, calls when its equity beats the pot odds by 5 points, else
/// checks or folds. `cbet` and `bluff` (0 by default, and then no random
/// draw is made) bet some of the checks; `drawn` then gets the chances of
/// that draw.
fn tag(
    view: &View<'_>,
    legal: &Legal,
    rng: &mut GameRng,
    p: &TagParams,
    drawn: &mut Drawn,
) -> Action {
    let bb = view.big_blind();
    let game = view.game();
    if view.street() == Street::Preflop {
        // Hold'em compares Chen scores; another game admits the same
        // share of its own starting hands (variants.rs).
        let score = if game == Game::Holdem {
            chen_score_x2(view.hole())
        } else {
            0
        };
        let admits = |t: params::Threshold| {
            if game == Game::Holdem {
                score >= t.x2
            } else {
                variants::in_top_share(game, view.hole_cards(), params::share_of(t))
            }
        };
        let n = view.seats();
        let late = view.seat() == view.button() || (view.seat() + 1) % n == view.button();
        if !view.raised() {
            let open = if late { p.open_late } else { p.open };
            if admits(open) {
                let limpers = (0..n)
                    .filter(|&s| s != view.seat() && view.street_bet(s) == bb && !view.folded(s))
                    .count()
                    .saturating_sub(1) as u64;
                return raise_to(legal, (p.open_size + limpers) * bb);
            }
            return give_up(legal);
        }
        if admits(p.threebet) {
            return raise_to(legal, p.threebet_size * view.current_bet());
        }
        let cost = u128::from(legal.call.unwrap_or(0));
        let chips = u128::from(view.stack(view.seat())) + cost;
        let (num, den) = (u128::from(p.call_cost.num), u128::from(p.call_cost.den));
        if admits(p.call) && cost * den <= num * chips {
            return passive(legal);
        }
        return give_up(legal);
    }
    let (equity, outcomes) = match game {
        Game::Holdem => {
            let o = deal_outcomes(
                view.hole(),
                view.board(),
                view.live() - 1,
                EQUITY_DEALS,
                rng,
            );
            (o.equity(), Some(o))
        }
        _ => (table_equity(view, rng), None),
    };
    drawn.equity = outcomes;
    match tag_postflop(view, legal, p, equity) {
        TagPlan::Act(action) => action,
        TagPlan::BetOrCheck { bet, cbet, chance } => {
            drawn.mix = Mix::of_actions(&[(bet, chance), (Action::Check, 1.0 - chance)]);
            if (cbet && rng.random::<f64>() < p.cbet)
                || (p.bluff > 0.0 && rng.random::<f64>() < p.bluff)
            {
                return bet;
            }
            Action::Check
        }
    }
}

/// What `tag` does after the flop once it has its equity estimate: one
/// action, or (checked to, with less than `value`) a draw between a bet and
/// a check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TagPlan {
    Act(Action),
    /// Bets with `chance` (its c-bet draw when `cbet`, then its bluff draw).
    BetOrCheck {
        bet: Action,
        cbet: bool,
        chance: f64,
    },
}

impl TagPlan {
    /// The actions and their chances (adding up to 1).
    pub fn choices(&self) -> [(Action, f64); 2] {
        match *self {
            TagPlan::Act(a) => [(a, 1.0), (a, 0.0)],
            TagPlan::BetOrCheck { bet, chance, .. } => {
                [(bet, chance), (Action::Check, 1.0 - chance)]
            }
        }
    }
}

/// `tag`'s plan after the flop for an equity estimate of `equity`: bets
/// (or raises) two thirds of the pot with `value` or more, else calls a bet
/// when the equity beats the pot odds by `margin` and folds otherwise, or,
/// checked to, draws its c-bet and bluff. A pure function of the estimate,
/// so the action correction can ask it what each estimate would have done.
pub fn tag_postflop(view: &View<'_>, legal: &Legal, p: &TagParams, equity: f64) -> TagPlan {
    let pot = view.pot();
    let bet = raise_to(
        legal,
        view.current_bet() + p.bet.of_ceil(pot + legal.call.unwrap_or(0)),
    );
    if equity >= p.value {
        return TagPlan::Act(bet);
    }
    match legal.call {
        None => {
            let cbet = p.cbet > 0.0
                && view.street() == Street::Flop
                && view.preflop_aggressor() == Some(view.seat());
            // Bets when the c-bet draw passes, else when the bluff draw
            // does: a chance of c + (1 - c) b.
            let c = if cbet {
                mixed::chance_below_f64(p.cbet)
            } else {
                0.0
            };
            let b = if p.bluff > 0.0 {
                mixed::chance_below_f64(p.bluff)
            } else {
                0.0
            };
            let chance = c + (1.0 - c) * b;
            if chance > 0.0 {
                TagPlan::BetOrCheck { bet, cbet, chance }
            } else {
                TagPlan::Act(Action::Check)
            }
        }
        Some(call) => {
            let odds = call as f64 / (pot + call) as f64;
            TagPlan::Act(if equity >= odds + p.margin {
                Action::Call
            } else {
                Action::Fold
            })
        }
    }
}

/// Push-or-fold, with today's defaults ([`PushFoldParams::DEFAULT`]):
/// preflop, unraised, all-in when the doubled Chen score reaches `12 + 2 *
/// effective_bb / 3` (10 big blinds: 18.7, about the top fifth of hands; 3
/// big blinds: 14); facing a raise, calls all-in with `20 + 2 *
/// effective_bb / 5`. Postflop it checks or calls. (The products keep
/// today's order of floating-point operations, so the defaults decide
/// exactly as before.)
fn pushfold(view: &View<'_>, legal: &Legal, p: &PushFoldParams) -> Action {
    if view.street() != Street::Preflop {
        return passive(legal);
    }
    let game = view.game();
    let ebb = view.effective_stack() as f64 / view.big_blind() as f64;
    let (base, per_bb) = if view.raised() {
        (p.call, p.call_per_bb)
    } else {
        (p.push, p.push_per_bb)
    };
    let threshold = 2.0 * base + 2.0 * per_bb.num as f64 * ebb / per_bb.den as f64;
    let plays = if game == Game::Holdem {
        f64::from(chen_score_x2(view.hole())) >= threshold
    } else {
        // The share of hold'em hands the threshold admits, of this game's.
        let x2 = threshold.ceil().clamp(-4.0, 41.0) as i32;
        let share = params::share_of(params::Threshold { x2 });
        variants::in_top_share(game, view.hole_cards(), share)
    };
    if !plays {
        return give_up(legal);
    }
    match legal.raise {
        Some((_, max)) => Action::RaiseTo(max),
        None => passive(legal),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::holdem::test_hole as hole;

    #[test]
    fn chen_scores_match_the_published_examples() {
        // Published scores, doubled: AA 20, AKs 12, T9s 8, 72o -1.5
        // (published rounded to -1), 55 5, 22 5 (a pair scores at least
        // 5), KQo 8.
        assert_eq!(chen_score_x2(hole("As Ah")), 40);
        assert_eq!(chen_score_x2(hole("As Ks")), 24);
        assert_eq!(chen_score_x2(hole("Ts 9s")), 16);
        assert_eq!(chen_score_x2(hole("7s 2h")), -3);
        assert_eq!(chen_score_x2(hole("5s 5h")), 10);
        assert_eq!(chen_score_x2(hole("2s 2h")), 10);
        assert_eq!(chen_score_x2(hole("Ks Qh")), 16);
    }

    #[test]
    fn parse_names() {
        assert_eq!(AgentKind::parse(" TAG "), Ok(AgentKind::Tag));
        assert!(AgentKind::parse("shark").is_err());
    }

    #[test]
    fn equity_vs_random_is_sane() {
        let mut rng = crate::rng::game_rng(1, 1);
        let aa = equity_vs_random(hole("As Ah"), &[], 1, &mut rng);
        assert!(aa > 0.75, "{aa}");
        let board = parse_cards("Ks Qs Js").unwrap();
        let nuts = equity_vs_random(hole("As Ts"), &board, 3, &mut rng);
        assert_eq!(nuts, 1.0);
    }
}
