//! `cardsim solve`: the perfect-play answer of a two-player shedding
//! endgame, or (`--random N --cards K`) statistics over random deals.

use std::io::Write as _;
use std::time::Instant;

use anyhow::Context as _;
use clap::Args;

use super::sim_args::{run_simulation, SimArgs};
use crate::cards::CardSet;
use crate::solver::game::SolveGame;
use crate::solver::tree::{draw, solution_tree, Node};
use crate::solver::{describe, parse_hand, RuleSet, Side, Solver};

/// `solve --help`'s description: the game and the rule sets in full, so the
/// help needs nothing else to be understood (the `Solve` command's
/// `long_about`).
pub const LONG_ABOUT: &str = "Solve a two-player shedding endgame with perfect play.

Both hands are known to both players. A leads any play; then the players \
take turns, each either beating the last play or passing. A pass ends the \
trick: the player who made the last play leads again, with any play. \
Whoever empties their hand first wins. The answer says who wins when both \
play perfectly and a winning first move for A (every one with --all; when \
B wins, that every first move of A loses); --tree adds the solution tree.

Rule sets (--rules):
  pairs    plays are one card or a pair; a play beats the last one when it \
is the same kind with a higher rank (2 lowest, A highest); suits never \
matter.
  tienlen  the plays and beats of `cardsim tienlen --rules cambodian`: \
singles, pairs, triples, four of a kind, straights of 3+ ranks and 3+ \
consecutive pairs (no 2 in either); the same kind and length beats by its \
top card (ranks 3 lowest to 2 highest, then suits: hearts < diamonds < \
clubs < spades); four of a kind beats a single 2, and 4+ consecutive pairs \
beat a pair of 2s.

Hands are cards separated by spaces or commas, rank then suit, in any case \
(\"9h 6h 6d 4h 3s\", \"TS 10d\"), 1 to 13 cards each, no card in both.

With -n N (or --random N), N random deals of --cards K cards each are \
solved as a simulation: a CSV row per deal and a summary, like the other \
simulations.";

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim solve \"9h 6h 6d 4h 3s\" \"8s 8h\" --tree
  cardsim solve \"3s 4s 5s 9c\" \"Kh Kd 2s\" --rules tienlen --all
  cardsim solve -n 1000 --cards 7 --summary s.json")]
pub struct SolveArgs {
    /// Player A's hand (A leads), e.g. "9h 6h 6d 4h 3s".
    #[arg(value_name = "HAND_A", required_unless_present = "random",
          conflicts_with_all = ["cards", "seed", "threads", "shard", "out", "summary", "hist", "resume", "progress"])]
    pub hand_a: Option<String>,
    /// Player B's hand, e.g. "8s 8h".
    #[arg(value_name = "HAND_B", required_unless_present = "random")]
    pub hand_b: Option<String>,
    /// Rule set: pairs (singles and pairs, higher rank beats, suits never
    /// matter) or tienlen (Tiến lên's plays and beats); see above.
    #[arg(long, default_value = "pairs", value_parser = RuleSet::parse)]
    pub rules: RuleSet,
    /// Print every winning first move, not just one.
    #[arg(long)]
    pub all: bool,
    /// Print the solution tree: the winner's one winning play at each turn
    /// with every answer of the loser, indented by depth. The first line
    /// says who wins (`Start: A leads, A wins`); each other line is a play,
    /// `A Single [4h] Win:True`: who played (A or B), what (`Pass` for a
    /// pass), and whether that player can still force a win.
    #[arg(long)]
    pub tree: bool,
    /// Most nodes a printed tree may have.
    #[arg(long, default_value_t = 100_000, value_name = "NODES")]
    pub tree_limit: usize,
    /// Print the nodes searched and the time taken.
    #[arg(long)]
    pub stats: bool,
    /// Output as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Transposition table: 2^BITS slots of 24 bytes (20: 24 MB; at most
    /// 26: 1.5 GB, per thread with --random). A full table costs time, never
    /// a wrong answer.
    #[arg(long, default_value_t = 20, value_name = "BITS",
          value_parser = clap::value_parser!(u32).range(4..=26))]
    pub table_bits: u32,
    /// Solve N random deals instead (a simulation: --seed, --out, ...;
    /// `--random N` is the same flag).
    #[arg(long = "games", short = 'n', visible_alias = "random", value_name = "N",
          conflicts_with_all = ["hand_a", "hand_b", "tree", "all", "tree_limit", "stats", "json"],
          allow_hyphen_values = true, value_parser = super::sim_args::parse_count)]
    pub random: Option<u64>,
    /// With --random: cards per hand.
    #[arg(long, default_value_t = 7, value_name = "K",
          value_parser = clap::value_parser!(u64).range(1..=13))]
    pub cards: u64,
    #[command(flatten)]
    pub sim: SimArgs,
}

pub fn run(args: SolveArgs) -> anyhow::Result<()> {
    if let Some(n) = args.random {
        // Each worker thread has its own table: check that they all fit
        // before starting (the runner's workers cannot fail to allocate).
        let threads = args
            .sim
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u64));
        let bytes = (24u64 << args.table_bits).saturating_mul(threads);
        if bytes > 16 << 30 {
            return Err(super::bad_input(format!(
                "{threads} threads with a table of 2^{} slots each need {} GB: give a smaller \
                 --table-bits or fewer --threads",
                args.table_bits,
                bytes >> 30
            )));
        }
        let game = SolveGame {
            rules: args.rules,
            cards: args.cards as usize,
            table_bits: args.table_bits,
        };
        return run_simulation(&game, &args.sim, n);
    }
    let (Some(ta), Some(tb)) = (&args.hand_a, &args.hand_b) else {
        return Err(super::bad_input("give two hands, or --random N"));
    };
    let a = parse_hand(ta).map_err(|e| super::bad_input(format!("hand A: {e}")))?;
    let b = parse_hand(tb).map_err(|e| super::bad_input(format!("hand B: {e}")))?;
    if let Some(c) = a.intersection(b).iter().next() {
        return Err(super::bad_input(format!("card {c} is in both hands")));
    }
    let started = Instant::now();
    let mut solver = Solver::try_new(args.rules, args.table_bits).map_err(super::bad_input)?;
    let winner = solver.winner(a, b);
    let firsts = solver.winning_first_moves(a, b);
    let tree = if args.tree {
        Some(solution_tree(&mut solver, a, b, args.tree_limit).map_err(super::bad_input)?)
    } else {
        None
    };
    let nodes = solver.nodes;
    let elapsed = started.elapsed().as_secs_f64();
    let shown: Vec<String> = if args.all {
        firsts.iter().map(describe).collect()
    } else {
        firsts.iter().take(1).map(describe).collect()
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut v = serde_json::json!({
            "rules": args.rules.name(),
            "hand_a": hand_text(a),
            "hand_b": hand_text(b),
            "winner": winner.name(),
            "winning_first_moves": shown,
        });
        if args.stats {
            v["nodes"] = nodes.into();
            v["time_ms"] = (elapsed * 1e3).into();
        }
        if let Some(t) = &tree {
            v["tree"] = tree_json(t);
        }
        writeln!(out, "{v}").context("cannot write the answer")?;
        return Ok(());
    }
    let mut text = format!(
        "A: {}\nB: {}\nWinner: {}\n",
        hand_text(a),
        hand_text(b),
        winner.name()
    );
    match winner {
        Side::A => {
            let label = if args.all {
                "winning first moves"
            } else {
                "a winning first move"
            };
            text.push_str(&format!("{label}: {}\n", shown.join(", ")));
        }
        Side::B => text.push_str("every first move of A loses\n"),
    }
    if let Some(t) = &tree {
        text.push_str(&draw(t));
    }
    if args.stats {
        text.push_str(&format!(
            "nodes: {nodes}, time: {:.3} ms, table: {} MB\n",
            elapsed * 1e3,
            solver.table_bytes() >> 20
        ));
    }
    out.write_all(text.as_bytes())
        .context("cannot write the answer")?;
    Ok(())
}

/// A hand as the solver prints it: `9h 6h 6d 4h 3s`, highest rank first.
fn hand_text(h: CardSet) -> String {
    crate::solver::rules::ordered_cards(&h.to_vec()).join(" ")
}

/// A tree node as JSON: `player` `"A"` or `"B"`, `play` as printed
/// (`"Pass"` for a pass), `win` whether that player can force a win, and
/// the `children`. The root (the start, before A's lead) has `player` and
/// `play` null and `win` whether A can force a win.
fn tree_json(n: &Node) -> serde_json::Value {
    let play = match (n.player, &n.play) {
        (None, _) => serde_json::Value::Null,
        (Some(_), None) => "Pass".into(),
        (Some(_), Some(p)) => describe(p).into(),
    };
    serde_json::json!({
        "player": n.player.map(Side::name),
        "play": play,
        "win": n.win,
        "children": n.children.iter().map(tree_json).collect::<Vec<_>>(),
    })
}
