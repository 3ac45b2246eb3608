//! A deal described card by card, for checking a game by hand (`cardsim
//! fishing --trace`).

use std::fmt::Write as _;

use thiserror::Error;

use super::deal::face_char;
use super::play::play;
use super::rules::{DealError, Face, Outcome, Rules};
use super::table::{Step, Table};

/// Why a trace stopped.
#[derive(Debug, Error)]
pub enum TraceError {
    #[error(transparent)]
    Deal(#[from] DealError),
    #[error("cannot write the trace: {0}")]
    Io(#[from] std::io::Error),
}

/// Plays a deal and describes every card, for checking a game by hand. The
/// trace is written line by line as the game is played (a game can run to
/// the card limit: 10^8 lines), so memory stays constant; a game that
/// never ends stops where its cycle is proven.
pub fn trace(
    deal: &[Face],
    rules: Rules,
    limit: u64,
    out: &mut impl std::io::Write,
) -> Result<(), TraceError> {
    let mut t = Table::new(deal, rules)?;
    let rec = play(deal, rules, limit)?;
    let faces = |fs: &[Face]| fs.iter().map(|&f| face_char(f)).collect::<String>();
    for p in 0..rules.players {
        writeln!(out, "P{} pile: {}", p + 1, faces(&t.pile(p)))?;
    }
    let limit = rec.cards_played;
    let mut piles = String::new();
    for n in 1..=limit {
        let mover = t.mover;
        let card = t.piles[mover].buf[t.piles[mover].head];
        let step = t.step();
        piles.clear();
        for p in 0..rules.players {
            if p > 0 {
                piles.push('/');
            }
            let _ = write!(piles, "{}", t.pile_len(p));
        }
        let what = match step {
            Step::Placed => "".to_string(),
            Step::Captured { cards, jack } => format!(
                "  captures {cards}{}",
                if jack { " with the J" } else { "" }
            ),
            Step::Over { winner } => format!("  P{} is out: P{} wins", mover + 1, winner + 1),
        };
        writeln!(
            out,
            "{n:>6} P{} plays {}  row: {:<15} piles: {piles}{what}",
            mover + 1,
            face_char(card),
            faces(t.row()),
        )?;
    }
    match rec.outcome {
        Outcome::Win { winner } => writeln!(out, "P{} wins after {limit} cards", winner + 1)?,
        Outcome::Cycle { start, length } => writeln!(
            out,
            "draw: the game never ends; from card {start} the states repeat every {length} cards"
        )?,
        Outcome::Unresolved => writeln!(
            out,
            "unresolved: stopped at the limit of {limit} cards without an end or a repeat"
        )?,
    }
    Ok(())
}
