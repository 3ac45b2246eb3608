//! Agents: each sees only its own hand and the public record ([`View`]) and
//! picks one of the legal plays, or passes.

use std::collections::HashMap;

use rand::RngExt;

use super::moves::MoveGen;
use super::rules::{rank_of, Combo, Kind, RuleSet, TWO};
use crate::cards::{Card, CardSet};
use crate::rng::GameRng;

/// What one seat may see when it decides.
#[derive(Clone, Copy, Debug)]
pub struct View {
    pub rules: RuleSet,
    pub seat: usize,
    pub hand: CardSet,
    /// The combination to beat (`None`: this seat leads and cannot pass).
    pub last: Option<Combo>,
    /// Every card played so far.
    pub played: CardSet,
    /// Cards left in each seat's hand (public).
    pub cards_left: [u8; 4],
    pub players: usize,
}

impl View {
    /// Fewest cards any other player still holds (0 for players already out
    /// is skipped).
    pub fn closest_opponent(&self) -> u8 {
        (0..self.players)
            .filter(|&s| s != self.seat && self.cards_left[s] > 0)
            .map(|s| self.cards_left[s])
            .min()
            .unwrap_or(13)
    }
}

/// A player. `choose` returns one of the legal plays, or `None` to pass
/// (only allowed when `view.last` is set); the game checks the answer.
pub trait Agent {
    fn choose(&mut self, view: &View, legal: &mut Legal<'_>, rng: &mut GameRng) -> Option<Combo>;
}

/// The legal plays of the seat to move, generated on demand: every play
/// ([`Legal::all`]), or only those holding a card ([`Legal::holding`]),
/// which is all a lead from the lowest card needs and much cheaper than
/// every straight of a 13-card hand.
pub struct Legal<'a> {
    rules: RuleSet,
    hand: CardSet,
    last: Option<Combo>,
    must_hold: Option<Card>,
    gen: &'a mut MoveGen,
    all: &'a mut Vec<Combo>,
    some: &'a mut Vec<Combo>,
    have_all: bool,
}

impl<'a> Legal<'a> {
    pub fn new(
        view: &View,
        must_hold: Option<Card>,
        gen: &'a mut MoveGen,
        all: &'a mut Vec<Combo>,
        some: &'a mut Vec<Combo>,
    ) -> Legal<'a> {
        Legal {
            rules: view.rules,
            hand: view.hand,
            last: view.last,
            must_hold,
            gen,
            all,
            some,
            have_all: false,
        }
    }

    /// Every legal play.
    pub fn all(&mut self) -> &[Combo] {
        if !self.have_all {
            let (rules, hand, last, must) = (self.rules, self.hand, self.last, self.must_hold);
            self.gen
                .generate(rules, hand, last.as_ref(), must, self.all);
            self.have_all = true;
        }
        self.all
    }

    /// The legal plays that hold `card`.
    pub fn holding(&mut self, card: Card) -> &[Combo] {
        if self.have_all {
            self.some.clear();
            self.some
                .extend(self.all.iter().filter(|p| p.cards.contains(card)));
        } else {
            let (rules, hand, last) = (self.rules, self.hand, self.last);
            self.gen
                .generate(rules, hand, last.as_ref(), Some(card), self.some);
            if let Some(m) = self.must_hold {
                self.some.retain(|p| p.cards.contains(m));
            }
        }
        self.some
    }
}

/// The agents the command line knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentKind {
    Random,
    Greedy,
    Planner,
}

impl AgentKind {
    pub fn parse(s: &str) -> Result<AgentKind, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "random" => Ok(AgentKind::Random),
            "greedy" => Ok(AgentKind::Greedy),
            "planner" => Ok(AgentKind::Planner),
            other => Err(format!(
                "unknown agent '{}': expected random, greedy or planner",
                crate::text::quote(other)
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::Greedy => "greedy",
            AgentKind::Planner => "planner",
        }
    }

    pub fn build(self) -> Box<dyn Agent + Send> {
        match self {
            AgentKind::Random => Box::new(RandomAgent),
            AgentKind::Greedy => Box::new(GreedyAgent),
            AgentKind::Planner => Box::new(PlannerAgent::default()),
        }
    }
}

/// Uniform over the legal plays, and passing when allowed.
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn choose(&mut self, view: &View, legal: &mut Legal<'_>, rng: &mut GameRng) -> Option<Combo> {
        let all = legal.all();
        let options = all.len() + usize::from(view.last.is_some());
        let k = rng.random_range(0..options);
        all.get(k).copied()
    }
}

/// The weakest play by (top card, cards): the hint order.
fn weakest(legal: &[Combo], keep: impl Fn(&Combo) -> bool) -> Option<Combo> {
    legal
        .iter()
        .filter(|p| keep(p))
        .min_by_key(|p| (p.top, p.cards.len()))
        .copied()
}

/// Beats with the weakest play that does not break a longer combination of
/// its hand, else passes; leads the weakest combination (the biggest
/// unbroken combination holding its lowest card).
pub struct GreedyAgent;

/// The hand's shape, for "does this play break a longer combination".
struct Shape {
    counts: [u8; 13],
    /// Ranks that lie in a run of three or more consecutive ranks (no 2).
    in_run: [bool; 13],
}

impl Shape {
    fn of(hand: CardSet) -> Shape {
        let mut counts = [0u8; 13];
        for c in hand.iter() {
            counts[rank_of(c) as usize] += 1;
        }
        let mut in_run = [false; 13];
        let mut r = 0;
        while r < TWO as usize {
            let mut end = r;
            while end < TWO as usize && counts[end] > 0 {
                end += 1;
            }
            if end - r >= 3 {
                in_run[r..end].iter_mut().for_each(|x| *x = true);
            }
            r = end.max(r + 1);
        }
        Shape { counts, in_run }
    }

    /// A same-rank play that splits a bigger group or takes cards out of a
    /// run breaks a longer combination; runs never count as breaking.
    fn breaks(&self, p: &Combo) -> bool {
        match p.kind {
            Kind::Straight | Kind::PairRun => false,
            _ => {
                let r = (p.top >> 2) as usize;
                self.counts[r] > p.cards.len() as u8 || self.in_run[r]
            }
        }
    }
}

impl Agent for GreedyAgent {
    fn choose(&mut self, view: &View, legal: &mut Legal<'_>, _rng: &mut GameRng) -> Option<Combo> {
        let shape = Shape::of(view.hand);
        if view.last.is_some() {
            return weakest(legal.all(), |p| !shape.breaks(p));
        }
        let lowest = lowest_card(view.rules, view.hand);
        let holding = legal.holding(lowest);
        let pick = |keep: &dyn Fn(&Combo) -> bool| {
            holding
                .iter()
                .filter(|p| keep(p))
                .max_by_key(|p| (p.cards.len(), std::cmp::Reverse(p.top)))
                .copied()
        };
        match pick(&|p| !shape.breaks(p)).or_else(|| pick(&|_| true)) {
            Some(p) => Some(p),
            None => weakest(legal.all(), |_| true),
        }
    }
}

fn lowest_card(rules: RuleSet, hand: CardSet) -> Card {
    hand.iter()
        .min_by_key(|&c| rules.strength(c))
        .expect("a player to move holds cards")
}

/// Plans with hand decomposition: it counts the fewest combinations its
/// hand can be played out in (exactly, by search with a memo), plays only
/// what keeps that count lowest, spends its 2s and bombs late or when an
/// opponent is about to go out, and goes out when it can.
#[derive(Default)]
pub struct PlannerAgent {
    memo: HashMap<u64, u8>,
    buf: Vec<Vec<Combo>>,
    gen: MoveGen,
}

impl PlannerAgent {
    /// The fewest combinations `hand` can be split into.
    pub fn decomposition(&mut self, rules: RuleSet, hand: CardSet) -> u8 {
        self.decompose(rules, hand, 0)
    }

    fn decompose(&mut self, rules: RuleSet, hand: CardSet, depth: usize) -> u8 {
        if hand.is_empty() {
            return 0;
        }
        if let Some(&d) = self.memo.get(&hand.0) {
            return d;
        }
        if self.buf.len() <= depth {
            self.buf.push(Vec::new());
        }
        let mut plays = std::mem::take(&mut self.buf[depth]);
        // The lowest card is in some combination: try each.
        self.gen.generate(
            rules,
            hand,
            None,
            Some(lowest_card(rules, hand)),
            &mut plays,
        );
        let mut best = u8::MAX;
        for p in &plays {
            best = best.min(1 + self.decompose(rules, hand.difference(p.cards), depth + 1));
        }
        self.buf[depth] = plays;
        self.memo.insert(hand.0, best);
        best
    }

    /// Plays that cost control: 2s, bombs, and long pair runs.
    fn is_control(p: &Combo) -> bool {
        p.top >> 2 == TWO || p.kind == Kind::Quads || (p.kind == Kind::PairRun && p.len >= 4)
    }
}

impl Agent for PlannerAgent {
    fn choose(&mut self, view: &View, legal: &mut Legal<'_>, _rng: &mut GameRng) -> Option<Combo> {
        if self.memo.len() > 200_000 {
            self.memo.clear();
        }
        let legal = legal.all();
        if let Some(p) = legal.iter().find(|p| p.cards == view.hand) {
            return Some(*p);
        }
        let rules = view.rules;
        let danger = view.closest_opponent() <= 2;
        let now = self.decomposition(rules, view.hand);
        let after: Vec<u8> = legal
            .iter()
            .map(|p| self.decomposition(rules, view.hand.difference(p.cards)))
            .collect();
        if view.last.is_none() {
            // Lead from the best plan: keep the fewest combinations; lead the
            // weakest unit (the largest on ties), saving control for later.
            // With an opponent about to go out, avoid leading what it can
            // match cheaply: prefer multi-card plays, else the highest single.
            return (0..legal.len())
                .min_by_key(|&i| {
                    let p = &legal[i];
                    let single_risk = danger && p.kind == Kind::Single;
                    (
                        after[i],
                        single_risk,
                        Self::is_control(p),
                        if single_risk { u8::MAX - p.top } else { p.top },
                        std::cmp::Reverse(p.cards.len()),
                    )
                })
                .map(|i| legal[i]);
        }
        let endgame = now <= 2 || danger;
        (0..legal.len())
            .filter(|&i| after[i] < now || (endgame && after[i] <= now))
            .filter(|&i| endgame || !Self::is_control(&legal[i]) || now <= 3)
            .min_by_key(|&i| (after[i], legal[i].top))
            .map(|i| legal[i])
    }
}
