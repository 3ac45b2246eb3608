//! Writing a hand the engine played as PHH text.

use std::fmt::Write as _;

use crate::cards::Card;
use crate::holdem::table::{Action, HandState};
use crate::holdem::variant::Game;

/// The PHH player number (0-based) of cardsim seat `seat`.
fn player_of(seat: usize, button: usize, n: usize) -> usize {
    (seat + n - button - 1) % n
}

pub(super) fn cards_text(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect()
}

fn list(values: impl Iterator<Item = u64>) -> String {
    let v: Vec<String> = values.map(|x| x.to_string()).collect();
    format!("[{}]", v.join(", "))
}

/// The PHH text of a finished (or unfinished) hand. `index` becomes the
/// `hand` field. The variant is the game's code (`NT`, `PO`, `NS`); a
/// betting structure the code does not imply (pot-limit hold'em, say) is
/// written as `_cardsim_betting`. The rule switches are kept as
/// user-defined fields (`_cardsim_odd_chips`, `_cardsim_short_big_blind`)
/// so a replay uses them.
pub fn export(h: &HandState, index: Option<u64>) -> String {
    let c = h.config();
    let n = c.stacks.len();
    // Seat of each PHH player.
    let seat_of: Vec<usize> = (0..n).map(|i| (c.button + 1 + i) % n).collect();
    let p = |seat: usize| player_of(seat, c.button, n) + 1;
    let mut actions: Vec<String> = Vec::new();
    for (i, &s) in seat_of.iter().enumerate() {
        actions.push(format!(
            "d dh p{} {}",
            i + 1,
            cards_text(&h.seats()[s].hole)
        ));
    }
    let dealt = h.dealt_after();
    let board = h.board();
    let deal_at = |k: usize, actions: &mut Vec<String>| {
        for (street, at) in dealt.iter().enumerate() {
            if *at == Some(k) {
                let cards = match street {
                    0 => &board[0..3],
                    1 => &board[3..4],
                    _ => &board[4..5],
                };
                actions.push(format!("d db {}", cards_text(cards)));
            }
        }
    };
    let history = h.history();
    // Deals after the last action are an all-in's run-out (or nothing);
    // the shows come before them.
    let showdown = h.payout().is_some_and(|pay| pay.showdown);
    for k in 0..=history.len() {
        if let Some((seat, at)) = h.implicit_check() {
            if at == k {
                actions.push(format!("p{} cc", p(seat)));
            }
        }
        if k == history.len() {
            if showdown {
                for &s in &seat_of {
                    let seat = &h.seats()[s];
                    if !seat.folded {
                        actions.push(format!("p{} sm {}", p(s), cards_text(&seat.hole)));
                    }
                }
            }
            deal_at(k, &mut actions);
            break;
        }
        deal_at(k, &mut actions);
        let (seat, action) = history[k];
        actions.push(match action {
            Action::Fold => format!("p{} f", p(seat)),
            Action::Check | Action::Call => format!("p{} cc", p(seat)),
            Action::RaiseTo(to) => format!("p{} cbr {to}", p(seat)),
        });
    }
    let mut blinds = vec![0u64; n];
    blinds[0] = c.small_blind;
    blinds[1] = c.big_blind;
    let mut out = String::new();
    let code = match c.game {
        Game::Holdem => "NT",
        Game::ShortDeck => "NS",
        Game::Plo4 | Game::Plo5 | Game::Plo6 => "PO",
    };
    let _ = writeln!(out, "variant = '{code}'");
    let _ = writeln!(out, "ante_trimming_status = {}", c.ante_trimming);
    let _ = writeln!(out, "antes = {}", list((0..n).map(|_| c.ante)));
    let _ = writeln!(out, "blinds_or_straddles = {}", list(blinds.into_iter()));
    let _ = writeln!(out, "min_bet = {}", c.big_blind);
    let _ = writeln!(
        out,
        "starting_stacks = {}",
        list(seat_of.iter().map(|&s| c.stacks[s]))
    );
    let _ = writeln!(out, "actions = [");
    for a in &actions {
        let _ = writeln!(out, "  '{a}',");
    }
    let _ = writeln!(out, "]");
    if let Some(i) = index {
        let _ = writeln!(out, "hand = {i}");
    }
    let _ = writeln!(
        out,
        "seats = {}",
        list(seat_of.iter().map(|&s| s as u64 + 1))
    );
    if h.payout().is_some() {
        let _ = writeln!(
            out,
            "finishing_stacks = {}",
            list(seat_of.iter().map(|&s| h.seats()[s].stack))
        );
    }
    if super::variant_rules(code).map(|(_, b)| b) != Some(c.betting) {
        let _ = writeln!(out, "_cardsim_betting = '{}'", c.betting.key());
    }
    let _ = writeln!(out, "_cardsim_odd_chips = '{}'", c.odd_chips.key());
    let _ = writeln!(
        out,
        "_cardsim_short_big_blind = '{}'",
        c.short_big_blind.key()
    );
    out
}

/// One hand as a section of a `.phhs` text: under the table header
/// `[section]`, then a blank line. Sections may be concatenated as long as
/// their numbers differ.
pub fn export_section(h: &HandState, section: u64, index: Option<u64>) -> String {
    format!("[{section}]\n{}\n", export(h, index))
}

/// Several hands as one `.phhs` text, sections numbered from 1.
pub fn export_many<'a>(hands: impl Iterator<Item = (&'a HandState, Option<u64>)>) -> String {
    hands
        .zip(1..)
        .map(|((h, index), k)| export_section(h, k, index))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_numbers_start_left_of_the_button() {
        assert_eq!(player_of(3, 2, 6), 0);
        assert_eq!(player_of(2, 2, 6), 5);
        assert_eq!(player_of(0, 5, 6), 0);
    }
}
