//! `cardsim tienlen`: four-player games among agents through the runner,
//! and the rules engine at the command line (`hint`, `classify`).

use std::io::Write as _;

use clap::{Args, Subcommand};

use super::sim_args::{run_simulation, SimArgs};
use crate::cards::{parse_cards, CardSet};
use crate::tienlen::sim::TienlenGame;
use crate::tienlen::{classify, hints, AgentKind, Combo, RuleSet};

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim tienlen -n 100000 --agents planner,greedy,greedy,greedy --rotate
  cardsim tienlen hint --hand \"3h 4h 5h 5s 9c 2s\" --beat \"4c\"
  cardsim tienlen classify \"4d 5d 6d 7d\"")]
#[command(args_conflicts_with_subcommands = true)]
pub struct TienlenArgs {
    #[command(subcommand)]
    pub command: Option<TienlenCommand>,
    #[command(flatten)]
    pub play: PlayArgs,
}

#[derive(Debug, Subcommand)]
pub enum TienlenCommand {
    /// The legal plays of a hand, weakest first (the game's "hint" button).
    Hint(HintArgs),
    /// What combination a set of cards is.
    Classify(ClassifyArgs),
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Games to play.
    #[arg(long, short = 'n', default_value_t = 100_000, value_name = "N",
          allow_hyphen_values = true, value_parser = super::sim_args::parse_count)]
    pub games: u64,
    /// One agent per seat, 2 to 4 of random, greedy, planner.
    #[arg(
        long,
        default_value = "greedy,greedy,greedy,greedy",
        value_name = "LIST"
    )]
    pub agents: String,
    /// Rule set: cambodian or vietnamese (docs/rules.md).
    #[arg(long, default_value = "cambodian", value_name = "RULES")]
    pub rules: String,
    /// Rotate the agents around the table (game i moves every agent i
    /// seats on), so each plays every seat equally often; adds per-agent
    /// statistics.
    #[arg(long)]
    pub rotate: bool,
    #[command(flatten)]
    pub sim: SimArgs,
}

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim tienlen hint --hand \"3h 4h 5h 5s 9c 2s\"
  cardsim tienlen hint --hand \"3h 4h 5h 5s 9c 2s\" --beat \"4c\" --json")]
pub struct HintArgs {
    /// The hand, e.g. "3h 4h 5h 5s 9c 2s".
    #[arg(long, value_name = "CARDS")]
    pub hand: String,
    /// The combination to beat (omit to list leads).
    #[arg(long, value_name = "CARDS")]
    pub beat: Option<String>,
    /// Rule set: cambodian or vietnamese (docs/rules.md).
    #[arg(long, default_value = "cambodian", value_name = "RULES")]
    pub rules: String,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim tienlen classify \"4d 5d 6d 7d\"
  cardsim tienlen classify \"3s 3c 4s 4c 5s 5c\" --json")]
pub struct ClassifyArgs {
    /// The cards, e.g. "3h 4h 5h".
    #[arg(value_name = "CARDS")]
    pub cards: String,
    /// Rule set: cambodian or vietnamese (docs/rules.md).
    #[arg(long, default_value = "cambodian", value_name = "RULES")]
    pub rules: String,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: TienlenArgs) -> anyhow::Result<()> {
    match args.command {
        Some(TienlenCommand::Hint(h)) => hint(h),
        Some(TienlenCommand::Classify(c)) => classify_cmd(c),
        None => simulate(args.play),
    }
}

fn rules(text: &str) -> anyhow::Result<RuleSet> {
    RuleSet::parse(text).map_err(super::bad_input)
}

/// The most cards a Tiến lên hand holds (52 cards dealt to 4 players).
/// Larger sets are refused: the plays of a hand grow exponentially with its
/// size (52 cards once took 4.4 GB).
pub const MAX_HAND: usize = 13;

fn cards(what: &str, text: &str) -> anyhow::Result<CardSet> {
    let cs = parse_cards(text).map_err(|e| super::bad_input(format!("{what}: {e}")))?;
    if cs.is_empty() {
        return Err(super::bad_input(format!("{what}: no cards given")));
    }
    if cs.len() > MAX_HAND {
        return Err(super::bad_input(format!(
            "{what}: {} cards, but a Tien len hand has at most {MAX_HAND}",
            cs.len()
        )));
    }
    Ok(cs.into_iter().collect())
}

fn simulate(args: PlayArgs) -> anyhow::Result<()> {
    let rules = rules(&args.rules)?;
    let agents = args
        .agents
        .split(',')
        .map(AgentKind::parse)
        .collect::<Result<Vec<_>, _>>()
        .map_err(super::bad_input)?;
    if !(2..=4).contains(&agents.len()) {
        return Err(super::bad_input(format!(
            "--agents lists one agent per seat, 2 to 4, got {}",
            agents.len()
        )));
    }
    let game = TienlenGame {
        rules,
        agents,
        rotate: args.rotate,
    };
    run_simulation(&game, &args.sim, args.games)
}

fn combo_json(c: &Combo) -> serde_json::Value {
    serde_json::json!({
        "kind": c.kind.key(),
        "cards": c.cards.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
        "length": c.len,
    })
}

fn hint(args: HintArgs) -> anyhow::Result<()> {
    let rules = rules(&args.rules)?;
    let hand = cards("--hand", &args.hand)?;
    let last = match &args.beat {
        None => None,
        Some(text) => {
            let set = cards("--beat", text)?;
            let combo = classify(rules, set).ok_or_else(|| {
                super::bad_input(format!(
                    "--beat: '{}' is not a combination",
                    crate::text::quote(text.trim())
                ))
            })?;
            if combo.cards.intersection(hand) != CardSet::EMPTY {
                return Err(super::bad_input("--beat shares a card with --hand"));
            }
            Some(combo)
        }
    };
    let plays = hints(rules, hand, last.as_ref());
    let mut out = std::io::stdout().lock();
    if args.json {
        let v = serde_json::json!({
            "rules": rules.name(),
            "plays": plays.iter().map(combo_json).collect::<Vec<_>>(),
        });
        writeln!(out, "{v}")?;
    } else if plays.is_empty() {
        writeln!(out, "no legal play: pass")?;
    } else {
        for p in &plays {
            writeln!(out, "{p}")?;
        }
    }
    Ok(())
}

fn classify_cmd(args: ClassifyArgs) -> anyhow::Result<()> {
    let rules = rules(&args.rules)?;
    let set = cards("cards", &args.cards)?;
    let combo = classify(rules, set);
    let mut out = std::io::stdout().lock();
    match (&combo, args.json) {
        (Some(c), true) => writeln!(out, "{}", combo_json(c))?,
        (None, true) => writeln!(out, "{}", serde_json::json!({"kind": null}))?,
        (Some(c), false) => writeln!(out, "{c}")?,
        (None, false) => writeln!(out, "not a combination")?,
    }
    Ok(())
}
