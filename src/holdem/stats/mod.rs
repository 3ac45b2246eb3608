//! Player statistics as hand trackers count them (VPIP, PFR, 3-bet, fold
//! to 3-bet, c-bet, fold to c-bet, aggression factor, WTSD, W$SD, net won
//! in big blinds per 100 hands, all-in-adjusted net), from a finished
//! hand's action list: one module for `cardsim stats` (real hands, read
//! from PHH) and the `holdem` simulation (its agents), so both stand in
//! one table. Every definition: docs/stats.md.
//!
//! [`facts`] reads one hand (what each seat did, what it won);
//! [`player`] adds hands up per player in integers; [`report`] writes the
//! CSV, the JSON and the table.

pub mod facts;
pub mod player;
pub mod report;

use std::collections::HashMap;

pub use facts::{allin_equity, seat_play, seat_results, AllIn, SeatPlay, SeatResult};
pub use player::{BigBlinds, Count, PlayerStats};

use crate::holdem::table::HandState;

/// Statistics by player name.
#[derive(Clone, Debug, Default)]
pub struct Players(pub HashMap<String, PlayerStats>);

impl Players {
    /// Adds a finished hand: `names[s]` is seat `s`'s player, `won` what
    /// each seat took from the pots when the result is known (else only
    /// the play counts), `equity` the all-in equity if known.
    pub fn add_hand<S: AsRef<str>>(
        &mut self,
        h: &HandState,
        names: &[S],
        won: Option<&[u64]>,
        equity: Option<&crate::holdem::equity::allin::AllInEquity>,
    ) {
        let play = seat_play(h);
        let results = won.map(|w| seat_results(h, w, equity));
        let bb = h.config().big_blind;
        for (s, name) in names.iter().enumerate() {
            let name = name.as_ref();
            let stats = match self.0.get_mut(name) {
                Some(p) => p,
                None => self.0.entry(name.to_string()).or_default(),
            };
            stats.add(&play[s], results.as_ref().map(|r| &r[s]), bb);
        }
    }

    pub fn merge(&mut self, other: Players) {
        for (name, p) in other.0 {
            match self.0.get_mut(&name) {
                Some(mine) => mine.merge(&p),
                None => {
                    self.0.insert(name, p);
                }
            }
        }
    }

    /// The rows in the order every output lists them: most hands first,
    /// then by name (byte order), so the order never depends on how the
    /// hands were read.
    pub fn sorted(&self) -> Vec<(&str, &PlayerStats)> {
        let mut rows: Vec<(&str, &PlayerStats)> =
            self.0.iter().map(|(n, p)| (n.as_str(), p)).collect();
        rows.sort_by(|a, b| b.1.hands.cmp(&a.1.hands).then_with(|| a.0.cmp(b.0)));
        rows
    }
}
