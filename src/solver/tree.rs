//! The solution tree in the seed's layout: for the winner one winning reply
//! at each node, for the loser every reply. The players are named A (who
//! leads) and B, as in the rest of `solve`'s answer (the seed numbered them
//! 1 and 2 under a dummy root 0).

use super::rules::{describe, plays, Play};
use super::{Side, Solver};
use crate::cards::CardSet;

/// A node: `player` made `play` (`None` is a pass), and `win` says whether
/// that player can force a win from here (the seed's `Win:`). The root is
/// the start, before A's lead: no player, no play, and `win` says whether A
/// can force a win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub player: Option<Side>,
    pub play: Option<Play>,
    pub win: bool,
    pub children: Vec<Node>,
}

/// The tree would have more than the node budget.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the solution tree has more than {0} nodes; print it for a smaller endgame or raise --tree-limit")]
pub struct TooLarge(pub usize);

/// The solution tree of A (leading) against B.
pub fn solution_tree(
    s: &mut Solver,
    a: CardSet,
    b: CardSet,
    limit: usize,
) -> Result<Node, TooLarge> {
    let a_wins = s.wins(a, b, None, 0);
    let mut budget = limit;
    let children =
        expand(s, a, b, None, Side::A, !a_wins, &mut budget).map_err(|_| TooLarge(limit))?;
    Ok(Node {
        player: None,
        play: None,
        win: a_wins,
        children,
    })
}

/// The replies of `player` (holding `me`) to `last`: all of them when
/// `keep_all`, else the first winning one.
fn expand(
    s: &mut Solver,
    me: CardSet,
    you: CardSet,
    last: Option<Play>,
    player: Side,
    keep_all: bool,
    budget: &mut usize,
) -> Result<Vec<Node>, TooLarge> {
    let mut options: Vec<Option<Play>> = Vec::new();
    let mut buf = Vec::new();
    plays(s.rules(), me, last.as_ref(), &mut buf);
    options.extend(buf.into_iter().map(Some));
    if last.is_some() {
        options.push(None);
    }
    let mut out = Vec::new();
    for option in options {
        let rest = option.map_or(me, |p| me.difference(p.cards));
        let win = rest.is_empty() || !s.wins(you, rest, option, 1);
        if !keep_all && !win {
            continue;
        }
        if *budget == 0 {
            return Err(TooLarge(0));
        }
        *budget -= 1;
        let children = if rest.is_empty() {
            Vec::new()
        } else {
            expand(s, you, rest, option, player.other(), !keep_all, budget)?
        };
        out.push(Node {
            player: Some(player),
            play: option,
            win,
            children,
        });
        if !keep_all {
            break;
        }
    }
    Ok(out)
}

/// The tree drawn in the seed's layout, with `|`, `+-` and `` `- ``
/// branches: a first line `Start: A leads, A wins` (or `B wins`), then a
/// line per play, `A Single [4h] Win:True`: who played, what, and whether
/// that player can still force a win.
pub fn draw(root: &Node) -> String {
    let mut lines = Vec::new();
    draw_into(root, &mut lines);
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

fn draw_into(node: &Node, lines: &mut Vec<String>) {
    match node.player {
        None => {
            let winner = if node.win { Side::A } else { Side::B };
            lines.push(format!("Start: A leads, {} wins", winner.name()));
        }
        Some(player) => {
            let what = node.play.as_ref().map_or("Pass".to_string(), describe);
            let win = if node.win { "True" } else { "False" };
            lines.push(format!("{} {what} Win:{win}", player.name()));
        }
    }
    let n = node.children.len();
    for (i, child) in node.children.iter().enumerate() {
        lines.push("|".to_string());
        let (first, other) = if i + 1 == n {
            ("`- ", "   ")
        } else {
            ("+- ", "|  ")
        };
        let mut sub = Vec::new();
        draw_into(child, &mut sub);
        for (j, line) in sub.into_iter().enumerate() {
            lines.push(format!("{}{line}", if j == 0 { first } else { other }));
        }
    }
}
