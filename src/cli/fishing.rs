//! `cardsim fishing`: simulate seeded matches of the fishing game, or play
//! one given deal (`--deal`, with `--trace` to see every card).

use std::io::Write as _;

use anyhow::Context as _;
use clap::Args;

use super::sim_args::{run_simulation, SimArgs};
use crate::fishing::{self, FishingGame, Outcome, Rules, DEFAULT_CARD_LIMIT};

/// The flags of a simulation, which one given game (`--deal`, `--game`)
/// would silently ignore: refused with it instead.
const SIMULATION_ONLY: [&str; 10] = [
    "games",
    "threads",
    "shard",
    "out",
    "summary",
    "hist",
    "resume",
    "progress",
    "checkpoint_every",
    "format",
];

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim fishing -n 1000000 -o games.csv --summary summary.json
  cardsim fishing --game 42 --trace
  cardsim fishing -n 100000 --players 3 --reverse-captures")]
pub struct FishingArgs {
    /// Number of matches to simulate.
    #[arg(short = 'n', long, default_value_t = 1_000_000, value_name = "N",
          allow_hyphen_values = true, value_parser = super::sim_args::parse_count)]
    pub games: u64,
    /// Players sharing the deck (2 to 8). The shuffled deck is cut into P
    /// piles in order; when 54 is not a multiple of P the first players get
    /// one card more (3 players: 18 each; 4 players: 14, 14, 13, 13). Rules:
    /// docs/rules.md.
    #[arg(long, default_value_t = 2, value_name = "P",
          value_parser = clap::value_parser!(u64).range(2..=8))]
    pub players: u64,
    /// Rule switch: a J played on an empty row captures itself.
    #[arg(long)]
    pub jack_captures_empty_row: bool,
    /// Rule switch: captured cards go to the pile in reverse row order.
    #[arg(long)]
    pub reverse_captures: bool,
    /// Stop a game that has neither ended nor repeated a state after this
    /// many cards, and report it as `unresolved` (never as a draw).
    #[arg(long, default_value_t = DEFAULT_CARD_LIMIT, value_name = "CARDS",
          value_parser = super::numbers::positive)]
    pub card_limit: u64,
    /// Play this one deal (54 ranks, front of the deck first, e.g.
    /// "A 7 W 10 ...") and print its result instead of simulating.
    #[arg(long, value_name = "RANKS", conflicts_with_all = SIMULATION_ONLY)]
    pub deal: Option<String>,
    /// Play game I of the run (`--seed` and the rule switches pick the run)
    /// and print its deal and result: reproduce any CSV row by hand.
    #[arg(long, value_name = "I", conflicts_with = "deal", conflicts_with_all = SIMULATION_ONLY)]
    pub game: Option<u64>,
    /// With --deal or --game: print the game card by card.
    #[arg(long)]
    pub trace: bool,
    #[command(flatten)]
    pub sim: SimArgs,
}

pub fn run(args: FishingArgs) -> anyhow::Result<()> {
    let rules = Rules {
        players: args.players as usize,
        jack_captures_empty_row: args.jack_captures_empty_row,
        reverse_captures: args.reverse_captures,
    };
    if let Some(i) = args.game {
        let deal = FishingGame::new(rules).deal_of(args.sim.seed, i);
        let text: String = deal.iter().map(|&f| fishing::face_char(f)).collect();
        println!("deal of game {i} (seed {}): {text}", args.sim.seed);
        return play_one(&text, rules, args.card_limit, args.trace);
    }
    if args.trace && args.deal.is_none() {
        return Err(super::bad_input(
            "--trace needs a game to trace: --deal RANKS or --game I",
        ));
    }
    match &args.deal {
        Some(text) => play_one(text, rules, args.card_limit, args.trace),
        None => {
            let game = FishingGame {
                rules,
                limit: args.card_limit,
            };
            run_simulation(&game, &args.sim, args.games)
        }
    }
}

/// Plays one given deal and prints its outcome (and, with `trace`, every card).
fn play_one(text: &str, rules: Rules, limit: u64, trace: bool) -> anyhow::Result<()> {
    let deal = fishing::parse_deal(text).map_err(super::bad_input)?;
    let mut out = std::io::stdout().lock();
    if trace {
        let mut out = std::io::BufWriter::new(out);
        return match fishing::trace(&deal, rules, limit, &mut out).and_then(|()| Ok(out.flush()?)) {
            Ok(()) => Ok(()),
            Err(fishing::TraceError::Deal(e)) => Err(super::bad_input(e)),
            Err(fishing::TraceError::Io(e)) => {
                Err(anyhow::Error::new(e).context("cannot write the trace"))
            }
        };
    }
    let rec = fishing::play(&deal, rules, limit).map_err(super::bad_input)?;
    let captures: Vec<String> = rec.captures[..rules.players]
        .iter()
        .map(u32::to_string)
        .collect();
    let result = match rec.outcome {
        Outcome::Win { winner } => format!("player {} wins", winner + 1),
        Outcome::Cycle { start, length } => {
            format!("draw: never ends (from card {start} the states repeat every {length} cards)")
        }
        Outcome::Unresolved => format!("unresolved: no end and no repeat within {limit} cards"),
    };
    writeln!(
        out,
        "{result}\ncards played: {}\ncaptures: {}\njack captures: {}\nlongest capture: {}\nlargest pile: {}",
        rec.cards_played,
        captures.join(" / "),
        rec.jack_captures,
        rec.longest_capture,
        rec.max_pile
    )
    .context("cannot write the result")?;
    Ok(())
}
