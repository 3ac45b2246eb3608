//! `cardsim holdem`: N hands at a table of agents through the runner.

use crate::holdem::variant::Game as Variant;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::sim_args::SimArgs;
use crate::holdem::agents::{spec, AgentSpec};
use crate::holdem::duplicate::{Duplicate, MOST_PLAYERS_FOR_ALL};
use crate::holdem::sim::{Estimates, HoldemGame, StackSpec};
use crate::holdem::table::pots::OddChips;
use crate::holdem::table::ShortBigBlind;
use crate::sim;

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim holdem -n 100000 -o hands.csv --summary summary.json
  cardsim holdem --agents tag,station,random,pushfold,tag,station --stacks uniform:10bb-200bb
  cardsim holdem --players 3 --agents 'tag(open=0.18,cbet=0.65,bluff=0.1),station,pushfold'
  cardsim holdem --players 3 --agents \"exec:'python3 examples/agents/bot.py',tag,station\"
  cardsim holdem -n 20000 --pots pots.csv --phh hands.phhs --phh-every 100
  cardsim holdem --players 2 --agents tag,station --duplicate -n 50000")]
pub struct HoldemArgs {
    /// Hands to play (`--hands` is the same flag); with --duplicate, deal
    /// groups (each played once per seating).
    #[arg(
        long = "games",
        short = 'n',
        visible_alias = "hands",
        default_value_t = 100_000,
        value_name = "N",
        allow_hyphen_values = true,
        value_parser = super::sim_args::parse_count
    )]
    pub hands: u64,
    /// Seats at the table (2 to 10).
    #[arg(long, default_value_t = 6, value_name = "P")]
    pub players: u64,
    /// Agents: one for every seat, or one per seat, of random, station,
    /// tag, pushfold, tag(KEY=VALUE,...), pushfold(KEY=VALUE,...),
    /// chart(file=PATH), exec:COMMAND (what each does: --help). Parameters
    /// and programs: docs/agents.md.
    ///
    /// random: picks uniformly among the kinds of action open to it (fold
    /// when facing a bet, check or call, raise when allowed), then a raise
    /// size uniformly over the legal range.
    ///
    /// station (calling station): always checks or calls, whatever its
    /// cards; never folds, never raises.
    ///
    /// tag (tight-aggressive): preflop it rates its hole cards by the Chen
    /// formula (AA 20, AKs 12, KQo 8, T9s 8, 72o -1.5). Unraised, it raises
    /// to 3 big blinds (plus 1 per limper) with 9 or more (8 or more on the
    /// button or the seat before it), else checks or folds; facing a raise
    /// it re-raises to 3 times the bet with 12 or more, calls with 10 or
    /// more when the call costs at most a fifth of its chips, else folds.
    /// After the flop it estimates its equity against random hands of the
    /// opponents still in (64 random run-outs): with 70% or more it bets or
    /// raises by two thirds of the pot; otherwise it calls when its equity
    /// beats the pot odds by 5 points, checks when it can, else folds.
    ///
    /// pushfold: preflop it goes all-in or gives up, by the Chen score
    /// against its effective stack E in big blinds (the smaller of its
    /// chips and the biggest opponent's still in): unraised, all-in with a
    /// score of 6 + E/3 or more (10 big blinds: 9.3; 3 big blinds: 7);
    /// facing a raise, all-in (or a call of an all-in) with 10 + E/5 or
    /// more; otherwise it checks or folds. After the flop it checks or
    /// calls.
    ///
    /// Parameters (defaults in brackets are the plain agents' behaviour):
    /// tag(open=9, open_late=8, threebet=12, call=10 [Chen scores, or a
    /// share of hands below 1: open=0.18 opens the best 18%], call_cost=1/5,
    /// open_size=3 [bb], threebet_size=3 [x the bet], value=0.7 [equity to
    /// bet], margin=0.05, bet=2/3 [of the pot], cbet=0 [chance to bet the
    /// flop as the preflop raiser], bluff=0 [chance to bet a check]);
    /// pushfold(push=6, push_per_bb=1/3, call=10, call_per_bb=1/5).
    ///
    /// chart(file=PATH): preflop ranges per position and postflop rules
    /// from a TOML file (examples/agents/chart.toml, docs/agents.md).
    ///
    /// exec:COMMAND: a program in any language, one process per worker
    /// thread, reading the table as one JSON line per decision on its
    /// standard input and answering f, cc or cbr AMOUNT, one a line
    /// (quote the command: exec:'python3 bot.py'; the protocol:
    /// docs/agents.md).
    #[arg(long, default_value = "random", value_name = "LIST")]
    pub agents: String,
    /// Seconds an exec: agent may take to answer (its hello or a
    /// decision) before the run ends with an error.
    #[arg(long, default_value = "10", value_name = "SECONDS",
          value_parser = parse_timeout)]
    pub agent_timeout: Duration,
    /// Agents the caller built itself (the Python package's functions),
    /// by the name `--agents` gives them. Not a flag.
    #[arg(skip)]
    pub external: Vec<(String, AgentSpec)>,
    /// Starting stacks: `100bb`, `250` (chips) or `uniform:10bb-200bb`
    /// (drawn per seat per hand).
    #[arg(
        long,
        default_value = "100bb",
        value_name = "SPEC",
        allow_hyphen_values = true
    )]
    pub stacks: String,
    /// Small and big blind in chips.
    #[arg(
        long,
        default_value = "1/2",
        value_name = "SB/BB",
        allow_hyphen_values = true
    )]
    pub blinds: String,
    /// Ante every seat posts, in chips.
    #[arg(long, default_value_t = 0, value_name = "CHIPS",
          value_parser = super::numbers::non_negative)]
    pub ante: u64,
    /// Odd chips of a split pot: `left` (one at a time from left of the
    /// button, the rules' default) or `first` (all to the first winner,
    /// PokerKit).
    #[arg(long, default_value = "left", value_name = "RULE")]
    pub odd_chips: String,
    /// What the others match when the big blind is all-in short: `full`
    /// (the full blind, default) or `posted` (PokerKit).
    #[arg(long, default_value = "full", value_name = "RULE")]
    pub short_bb: String,
    /// PokerKit's switches: `--odd-chips first --short-bb posted`.
    #[arg(long, conflicts_with_all = ["odd_chips", "short_bb"])]
    pub pokerkit: bool,
    /// The game: nlhe (no-limit hold'em, default), plo4, plo5, plo6
    /// (pot-limit Omaha of 4, 5, 6 hole cards) or shortdeck (no-limit,
    /// 36 cards). Every agent plays them but pushfold and chart, which
    /// Omaha refuses.
    #[arg(long, default_value = "nlhe", value_name = "GAME")]
    pub variant: String,
    /// All-in equity: heads-up preflop all-ins are exact (a table of every
    /// matchup); otherwise every board completion is enumerated when there
    /// are at most N (with 1000: every flop and turn all-in), else N boards
    /// are sampled (multiway preflop); 0 turns all-in equity off.
    #[arg(long, default_value_t = crate::holdem::sim::DEFAULT_ALLIN_TRIALS, value_name = "N")]
    pub allin_trials: u32,
    /// Add each seat's player statistics to the summary (VPIP, PFR, 3-bet,
    /// fold to 3-bet, c-bet, fold to c-bet, WTSD, W$SD as proportions over
    /// their opportunities; postflop bets/raises and calls per hand), as
    /// `cardsim stats` counts them (docs/stats.md).
    #[arg(long)]
    pub player_stats: bool,
    /// Long-format CSV of every pot: game, pot, amount, eligible, winners,
    /// share.
    #[arg(long, value_name = "FILE")]
    pub pots: Option<PathBuf>,
    /// Hand histories (PHH): a directory of `.phh` files, one per hand, or
    /// one `.phhs` file holding them all when the path ends in `.phhs`.
    #[arg(long, value_name = "DIR|FILE.phhs")]
    pub phh: Option<PathBuf>,
    /// With --phh: write every K-th hand (hands 0, K, 2K, ...).
    #[arg(long, default_value_t = 1000, value_name = "K", requires = "phh",
          value_parser = super::numbers::positive)]
    pub phh_every: u64,
    /// Duplicate play: each deal (button, stacks, cards) is played once
    /// per seating of the agents, the cards staying with the seats:
    /// `--duplicate` plays the P rotations, `--duplicate all` every
    /// permutation (at most 6 players). A game is then a deal group:
    /// -n counts deal groups, one CSV row each, and every agent's
    /// interval comes from the variance across groups (docs/duplicate.md).
    /// --pots, --phh and --player-stats cover every hand of a group.
    #[arg(long, value_name = "all", num_args = 0..=1, default_missing_value = "rotations")]
    pub duplicate: Option<String>,
    /// Also estimate each agent's result with the luck of the cards taken
    /// out (`chance`), and of the draws whose probabilities are known, the
    /// random agent's and mixed answers' (`chance_action`): unbiased, with
    /// a smaller interval (docs/duplicate.md).
    #[arg(long)]
    pub corrections: bool,
    /// Also the `learned` estimator: before the run, play N deal groups
    /// from a calibration stream of the seed and fit, per agent and
    /// position, how much each deal's luck and each starting hand weigh
    /// in the result, after counting what each agent does with its made
    /// hands over 10 N groups (docs/duplicate.md). Implies --corrections.
    #[arg(long, value_name = "N", value_parser = parse_calibration)]
    pub calibrate: Option<u64>,
    #[command(flatten)]
    pub sim: SimArgs,
}

fn parse_timeout(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number of seconds", crate::text::quote(text)))?;
    if !(secs > 0.0 && secs <= 1e6) {
        return Err(format!(
            "'{}' is not a positive number of seconds (at most 1000000)",
            crate::text::quote(text)
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

fn parse_blinds(text: &str) -> Result<(u64, u64), String> {
    let err = |why: &str| {
        format!(
            "bad --blinds '{}': {why} (expected SB/BB, e.g. 1/2)",
            crate::text::quote(text)
        )
    };
    let (sb, bb) = text.split_once('/').ok_or_else(|| err("no '/'"))?;
    let sb: u64 = sb
        .trim()
        .parse()
        .map_err(|_| err("not whole numbers of chips"))?;
    let bb: u64 = bb
        .trim()
        .parse()
        .map_err(|_| err("not whole numbers of chips"))?;
    if sb == 0 || bb == 0 {
        return Err(err("blinds must be positive"));
    }
    if sb > bb {
        return Err(err("the small blind is above the big blind"));
    }
    Ok((sb, bb))
}

/// Checks the arguments and builds the game (every error is bad input).
pub fn game(args: &HoldemArgs) -> Result<HoldemGame, String> {
    let players = args.players as usize;
    if !(2..=10).contains(&players) {
        return Err(format!(
            "--players must be 2 to 10 (a 52-card deck deals hold'em to at most 10 seats with the \
             board within 23 cards), got {}",
            args.players
        ));
    }
    let variant = Variant::parse(&args.variant).ok_or_else(|| {
        format!(
            "bad --variant '{}' (expected nlhe, plo4, plo5, plo6 or shortdeck)",
            crate::text::quote(&args.variant)
        )
    })?;
    let build = |text: &str| match args.external.iter().find(|(name, _)| name == text) {
        Some((_, agent)) => Ok(agent.clone()),
        None => spec::agent(text, args.agent_timeout),
    };
    let agents = spec::parse_agents(&args.agents, players, &build).map_err(|e| e.to_string())?;
    let (small_blind, big_blind) = parse_blinds(&args.blinds)?;
    let stacks = StackSpec::parse(&args.stacks, big_blind).map_err(|e| e.to_string())?;
    let (odd_chips, short_big_blind) = if args.pokerkit {
        (OddChips::FirstWinner, ShortBigBlind::Posted)
    } else {
        let odd = match args.odd_chips.as_str() {
            "left" => OddChips::LeftOfButton,
            "first" => OddChips::FirstWinner,
            o => {
                return Err(format!(
                    "bad --odd-chips '{}' (expected left or first)",
                    crate::text::quote(o)
                ))
            }
        };
        let short = match args.short_bb.as_str() {
            "full" => ShortBigBlind::FullBlind,
            "posted" => ShortBigBlind::Posted,
            o => {
                return Err(format!(
                    "bad --short-bb '{}' (expected full or posted)",
                    crate::text::quote(o)
                ))
            }
        };
        (odd, short)
    };
    let duplicate = match &args.duplicate {
        None => Duplicate::Off,
        Some(text) => Duplicate::parse(text)?,
    };
    if duplicate == Duplicate::All && players > MOST_PLAYERS_FOR_ALL {
        return Err(format!(
            "--duplicate all plays every seating ({players}! hands a deal): at most \
             {MOST_PLAYERS_FOR_ALL} players, got {players}; --duplicate plays the \
             {players} rotations"
        ));
    }
    if variant != Variant::Holdem && (args.corrections || args.calibrate.is_some()) {
        let flag = if args.calibrate.is_some() {
            "--calibrate"
        } else {
            "--corrections"
        };
        return Err(format!(
            "{flag} values hold'em deals only; drop it for --variant {variant}"
        ));
    }
    let mut game = HoldemGame {
        agents,
        stacks,
        small_blind,
        big_blind,
        ante: args.ante,
        odd_chips,
        short_big_blind,
        allin_trials: args.allin_trials,
        phh_every: args.phh.as_ref().map(|_| args.phh_every),
        player_stats: args.player_stats,
        duplicate,
        estimates: Estimates {
            corrections: args.corrections,
            learned: None,
            strength: false,
            tendencies: None,
        },
        variant,
    };
    game.check_agents()?;
    game.validate().map_err(|e| e.to_string())?;
    if let Some(groups) = args.calibrate {
        game.calibrate(args.sim.seed, groups);
    }
    Ok(game)
}

pub fn run(args: HoldemArgs) -> anyhow::Result<()> {
    let game = game(&args).map_err(super::bad_input)?;
    let mut config = args.sim.config(args.hands);
    config.side_out = args.pots.clone();
    match &args.phh {
        Some(p) if p.extension().is_some_and(|e| e == "phhs") => {
            config.files_bundle = Some(p.clone())
        }
        p => config.files_dir = p.clone(),
    }
    sim::run(&game, &config)?;
    Ok(())
}

/// `--calibrate N`: 1 to 10,000,000 deal groups.
fn parse_calibration(text: &str) -> Result<u64, String> {
    let n = super::sim_args::parse_count(text)?;
    if !(1..=10_000_000).contains(&n) {
        return Err(format!("{n} deal groups: calibrate on 1 to 10000000"));
    }
    Ok(n)
}
