//! The chart agent: `chart(file=my.toml)` plays preflop from ranges per
//! position (open, call, 3-bet, call a 3-bet, 4-bet, and push-or-fold
//! charts by stack depth) in the range notation of `equity`, and postflop
//! by rules on its made hand's class or its equity. The file's format is in
//! docs/agents.md; its BLAKE3 is part of the agent's recorded spec, so a
//! changed chart never passes for the same run.

use std::collections::BTreeMap;
use std::path::Path;

use rand::RngExt;
use serde::Deserialize;

use arrayvec::ArrayVec;

use super::mixed::{self, Mix};
use super::params::Ratio;
use super::spec::SpecError;
use super::{give_up, passive, raise_to, table_equity};
use crate::cards::Card;
use crate::holdem::equity::range::Range;
use crate::holdem::eval::{category, evaluate, Category};
use crate::holdem::shortdeck::{self, SHORT_ORDER};
use crate::holdem::table::{Action, Legal, Street, View};
use crate::holdem::variant::Game;
use crate::rng::GameRng;

/// A range as a table over the 52 x 52 ordered card pairs (higher index
/// first): each combination's weight, 0 when out.
#[derive(Clone, Debug)]
struct Table(Box<[f32]>);

impl Table {
    fn parse(text: &str) -> Result<Table, String> {
        let range = Range::parse(text).map_err(|e| e.to_string())?;
        let mut t = vec![0f32; 52 * 52].into_boxed_slice();
        for w in &range.combos {
            t[slot(w.cards)] = w.weight as f32;
        }
        Ok(Table(t))
    }

    /// `hole`'s weight: 0 out of the range, 1 in it, a chance between.
    fn weight(&self, hole: [Card; 2]) -> f32 {
        self.0[slot(hole)]
    }
}

/// Whether a hand of weight `w` plays: always at 1, never at 0, and with
/// chance `w` between (a draw only then).
fn admitted(w: f32, rng: &mut GameRng) -> bool {
    w >= 1.0 || (w > 0.0 && rng.random::<f32>() < w)
}

/// The chance that [`admitted`] says yes, exactly as its draw makes it.
fn admit_chance(w: f32) -> f64 {
    if w >= 1.0 {
        1.0
    } else if w > 0.0 {
        mixed::chance_below_f32(w)
    } else {
        0.0
    }
}

/// A preflop decision: the first rung whose range admits the hand is the
/// action, else `otherwise`. One description serves both the play (a draw
/// per rung of fractional weight, in order) and the chances of each action
/// (for the action correction), so the two cannot disagree.
struct Ladder {
    rungs: ArrayVec<(f32, Action), 2>,
    otherwise: Action,
}

impl Ladder {
    fn climb(&self, rng: &mut GameRng) -> Action {
        for &(w, action) in &self.rungs {
            if admitted(w, rng) {
                return action;
            }
        }
        self.otherwise
    }

    /// Each action's chance; `None` when no rung draws.
    fn chances(&self) -> Option<Mix> {
        if !self.rungs.iter().any(|&(w, _)| w > 0.0 && w < 1.0) {
            return None;
        }
        let mut left = 1.0;
        let mut pairs: ArrayVec<(Action, f64), 3> = ArrayVec::new();
        for &(w, action) in &self.rungs {
            let p = admit_chance(w);
            pairs.push((action, left * p));
            left *= 1.0 - p;
        }
        pairs.push((self.otherwise, left));
        Mix::of_actions(&pairs)
    }
}

fn slot(c: [Card; 2]) -> usize {
    let (a, b) = (c[0].index() as usize, c[1].index() as usize);
    a.max(b) * 52 + a.min(b)
}

/// The positions a chart names.
const POSITIONS: [&str; 5] = ["early", "late", "sb", "bb", "default"];

/// One preflop situation's ranges by position.
#[derive(Clone, Debug, Default)]
struct ByPosition(BTreeMap<String, Table>);

impl ByPosition {
    /// `hole`'s weight at position `pos` (or the default's; 0 when
    /// neither is given).
    fn weight(&self, pos: &str, hole: [Card; 2]) -> f32 {
        match self.0.get(pos).or_else(|| self.0.get("default")) {
            Some(t) => t.weight(hole),
            None => 0.0,
        }
    }
}

/// A push-or-fold chart for stacks up to `max_bb` big blinds.
#[derive(Clone, Debug)]
struct Push {
    max_bb: f64,
    push: Table,
    call: Option<Table>,
}

/// A chart, read and checked.
#[derive(Clone, Debug)]
pub struct Chart {
    /// `chart(file=PATH,blake3=...)`: the spec recorded in summaries.
    pub spec: String,
    open_size: Ratio,
    threebet_size: Ratio,
    fourbet_size: Ratio,
    open: ByPosition,
    call: ByPosition,
    threebet: ByPosition,
    call_threebet: ByPosition,
    fourbet: ByPosition,
    /// By `max_bb`, smallest first.
    push: Vec<Push>,
    bet_class: Option<Category>,
    call_class: Option<Category>,
    bet_equity: Option<f64>,
    call_margin: Option<f64>,
    bet_size: Ratio,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    preflop: PreflopFile,
    #[serde(default)]
    postflop: PostflopFile,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PreflopFile {
    open_size: Option<toml::Value>,
    threebet_size: Option<toml::Value>,
    fourbet_size: Option<toml::Value>,
    #[serde(default)]
    open: BTreeMap<String, String>,
    #[serde(default)]
    call: BTreeMap<String, String>,
    #[serde(default)]
    threebet: BTreeMap<String, String>,
    #[serde(default)]
    call_threebet: BTreeMap<String, String>,
    #[serde(default)]
    fourbet: BTreeMap<String, String>,
    #[serde(default)]
    push: Vec<PushFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PushFile {
    max_bb: f64,
    range: String,
    call: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PostflopFile {
    bet: Option<String>,
    call: Option<String>,
    bet_equity: Option<f64>,
    call_margin: Option<f64>,
    bet_size: Option<toml::Value>,
}

impl Chart {
    /// Reads the chart of `chart(file=PATH[,blake3=HEX])`; with `blake3`,
    /// the file must still be the one it names.
    pub fn load(path: &str, blake3_given: Option<&str>) -> Result<Chart, SpecError> {
        let shown = crate::text::quote(path);
        let err = |why: String| SpecError(format!("chart {shown}: {why}"));
        let bytes = crate::sim::sink::read_bounded(Path::new(path), 1 << 20).map_err(err)?;
        let hash = blake3::hash(&bytes).to_hex()[..16].to_string();
        if let Some(given) = blake3_given {
            if given != hash {
                return Err(err(format!(
                    "its BLAKE3 is {hash}, not {} (the file changed)",
                    crate::text::quote(given)
                )));
            }
        }
        let text = std::str::from_utf8(&bytes).map_err(|_| err("not UTF-8 text".into()))?;
        let file: File = toml::from_str(text).map_err(|e| {
            let msg = e.to_string();
            let first = msg.lines().last().unwrap_or("bad TOML").trim().to_string();
            let at = e
                .span()
                .map(|s| format!(" (line {})", text[..s.start].lines().count().max(1)))
                .unwrap_or_default();
            err(format!("{first}{at}"))
        })?;
        let p = file.preflop;
        let by_position = |name: &str, m: BTreeMap<String, String>| {
            let mut out = ByPosition::default();
            for (pos, range) in m {
                if !POSITIONS.contains(&pos.as_str()) {
                    return Err(err(format!(
                        "preflop.{name}.{} is not a position (expected {})",
                        crate::text::quote(&pos),
                        POSITIONS.join(", ")
                    )));
                }
                let t =
                    Table::parse(&range).map_err(|e| err(format!("preflop.{name}.{pos}: {e}")))?;
                out.0.insert(pos, t);
            }
            Ok(out)
        };
        let size = |name: &str, v: Option<toml::Value>, default: Ratio| match v {
            None => Ok(default),
            Some(v) => {
                let t = match v {
                    toml::Value::String(t) => t,
                    toml::Value::Integer(i) => i.to_string(),
                    // Rust prints the shortest text that reads back as the
                    // same float: 2.5 is "2.5".
                    toml::Value::Float(f) => f.to_string(),
                    _ => String::from("(not a number)"),
                };
                Ratio::parse(&t).ok_or_else(|| {
                    err(format!(
                        "{name} = {} is not a positive number or fraction",
                        crate::text::quote(&t)
                    ))
                })
            }
        };
        let class = |name: &str, v: Option<String>| match v {
            None => Ok(None),
            Some(t) => Category::ALL
                .into_iter()
                .find(|c| c.key() == t)
                .map(Some)
                .ok_or_else(|| {
                    let keys: Vec<&str> = Category::ALL.iter().map(|c| c.key()).collect();
                    err(format!(
                        "postflop.{name} = {} is not a hand class (expected {})",
                        crate::text::quote(&t),
                        keys.join(", ")
                    ))
                }),
        };
        let mut push = Vec::new();
        for (k, entry) in p.push.into_iter().enumerate() {
            if !(entry.max_bb > 0.0 && entry.max_bb.is_finite()) {
                return Err(err(format!("preflop.push[{k}].max_bb must be positive")));
            }
            push.push(Push {
                max_bb: entry.max_bb,
                push: Table::parse(&entry.range)
                    .map_err(|e| err(format!("preflop.push[{k}].range: {e}")))?,
                call: entry
                    .call
                    .map(|c| Table::parse(&c))
                    .transpose()
                    .map_err(|e| err(format!("preflop.push[{k}].call: {e}")))?,
            });
        }
        push.sort_by(|a, b| a.max_bb.total_cmp(&b.max_bb));
        let post = file.postflop;
        for (name, v) in [
            ("bet_equity", post.bet_equity),
            ("call_margin", post.call_margin),
        ] {
            if v.is_some_and(|x| !(-1.0..=1.0).contains(&x)) {
                return Err(err(format!("postflop.{name} must be from -1 to 1")));
            }
        }
        Ok(Chart {
            spec: format!("chart(file={path},blake3={hash})"),
            open_size: size("preflop.open_size", p.open_size, Ratio::new(3, 1))?,
            threebet_size: size("preflop.threebet_size", p.threebet_size, Ratio::new(3, 1))?,
            fourbet_size: size("preflop.fourbet_size", p.fourbet_size, Ratio::new(5, 2))?,
            open: by_position("open", p.open)?,
            call: by_position("call", p.call)?,
            threebet: by_position("threebet", p.threebet)?,
            call_threebet: by_position("call_threebet", p.call_threebet)?,
            fourbet: by_position("fourbet", p.fourbet)?,
            push,
            bet_class: class("bet", post.bet)?,
            call_class: class("call", post.call)?,
            bet_equity: post.bet_equity,
            call_margin: post.call_margin,
            bet_size: size("postflop.bet_size", post.bet_size, Ratio::new(2, 3))?,
        })
    }

    /// The chart's action; preflop, `drawn` gets the chances of each
    /// action when a weight below 1 made it a draw.
    pub fn act(
        &self,
        view: &View<'_>,
        legal: &Legal,
        rng: &mut GameRng,
        drawn: &mut Option<Mix>,
    ) -> Action {
        if view.street() == Street::Preflop {
            let ladder = self.preflop(view, legal);
            *drawn = ladder.chances();
            ladder.climb(rng)
        } else {
            self.postflop(view, legal, rng)
        }
    }

    fn preflop(&self, view: &View<'_>, legal: &Legal) -> Ladder {
        let hole = view.hole();
        let bb = view.big_blind();
        let all_in = |legal: &Legal| match legal.raise {
            Some((_, max)) => Action::RaiseTo(max),
            None => passive(legal),
        };
        let raises = view
            .history()
            .iter()
            .filter(|(_, a)| matches!(a, Action::RaiseTo(_)))
            .count();
        let ebb = view.effective_stack() as f64 / bb as f64;
        let mut rungs = ArrayVec::new();
        let otherwise = give_up(legal);
        if let Some(p) = self.push.iter().find(|p| ebb <= p.max_bb) {
            let range = if raises == 0 {
                Some(&p.push)
            } else {
                p.call.as_ref()
            };
            if let Some(r) = range {
                rungs.push((r.weight(hole), all_in(legal)));
            }
            return Ladder { rungs, otherwise };
        }
        let pos = position(view);
        let raise_over = |size: Ratio| raise_to(legal, size.of_ceil(view.current_bet()));
        match raises {
            0 => {
                let n = view.seats();
                let limpers = (0..n)
                    .filter(|&s| s != view.seat() && view.street_bet(s) == bb && !view.folded(s))
                    .count()
                    .saturating_sub(1) as u64;
                let open = raise_to(legal, self.open_size.of_ceil(bb) + limpers * bb);
                rungs.push((self.open.weight(pos, hole), open));
            }
            1 => {
                rungs.push((
                    self.threebet.weight(pos, hole),
                    raise_over(self.threebet_size),
                ));
                rungs.push((self.call.weight(pos, hole), passive(legal)));
            }
            2 => {
                rungs.push((
                    self.fourbet.weight(pos, hole),
                    raise_over(self.fourbet_size),
                ));
                rungs.push((self.call_threebet.weight(pos, hole), passive(legal)));
            }
            _ => rungs.push((self.fourbet.weight(pos, hole), all_in(legal))),
        }
        Ladder { rungs, otherwise }
    }

    fn postflop(&self, view: &View<'_>, legal: &Legal, rng: &mut GameRng) -> Action {
        let mut cards = [view.hole()[0]; 7];
        cards[1] = view.hole()[1];
        let board = view.board();
        cards[2..2 + board.len()].copy_from_slice(board);
        let game = view.game();
        let cards = &cards[..2 + board.len()];
        // A class's place in the game's order (short deck: a flush above
        // a full house).
        let (class, order): (Category, fn(Category) -> usize) = if game == Game::ShortDeck {
            let order = |c: Category| SHORT_ORDER.iter().position(|&o| o == c).unwrap_or(0);
            (shortdeck::category(shortdeck::evaluate(cards)), order)
        } else {
            (category(evaluate(cards)), |c: Category| c as usize)
        };
        let at_least = |c: Category| order(class) >= order(c);
        let wants_equity = self.bet_equity.is_some() || self.call_margin.is_some();
        let equity = wants_equity.then(|| table_equity(view, rng));
        let pot = view.pot();
        let call = legal.call.unwrap_or(0);
        let strong = self.bet_class.is_some_and(at_least)
            || matches!((self.bet_equity, equity), (Some(t), Some(e)) if e >= t);
        if strong {
            return raise_to(
                legal,
                view.current_bet() + self.bet_size.of_ceil(pot + call),
            );
        }
        if call == 0 {
            return passive(legal);
        }
        let odds = call as f64 / (pot + call) as f64;
        let calls = self.call_class.is_some_and(at_least)
            || matches!((self.call_margin, equity), (Some(m), Some(e)) if e >= odds + m);
        if calls {
            Action::Call
        } else {
            Action::Fold
        }
    }
}

/// The seat's position for a chart: `sb`, `bb`, `late` (the button and
/// the seat before it) or `early`. Heads-up the button is the small blind.
fn position(view: &View<'_>) -> &'static str {
    let (n, s, b) = (view.seats(), view.seat(), view.button());
    let (sb, bb) = if n == 2 {
        (b, (b + 1) % n)
    } else {
        ((b + 1) % n, (b + 2) % n)
    };
    if s == sb {
        "sb"
    } else if s == bb {
        "bb"
    } else if s == b || (s + 1) % n == b {
        "late"
    } else {
        "early"
    }
}
