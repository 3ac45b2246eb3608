//! The play loop: a deal played to its end, its cycle or the card limit,
//! counting the [`Record`]. Almost every game ends within
//! [`CHECK_FROM_CARD`] cards and is played without the cycle check; the
//! rest are replayed with it (see [`play_table`] for why that is exact).

use super::cycle::{cycle_entry, Brent};
use super::duel;
use super::rules::{DealError, Face, Outcome, Record, Rules, MAX_PLAYERS};
use super::table::{Step, Table};

/// Default card limit: about 4,500 times the longest default-rules game seen
/// in the 10^7 reference deals (22,022 cards), and about a second of play.
pub const DEFAULT_CARD_LIMIT: u64 = 100_000_000;

/// Plays a deal to its end or to its cycle, or stops it as
/// [`Outcome::Unresolved`] after `limit` cards.
///
/// Why a limit at all: cycle detection is exact but costs time in
/// proportion to the cycle's entry point plus its period, and under some
/// switches (a J capturing on an empty row) deals run past 10^9 cards
/// without repeating. A runner must never hang, and must never call such a
/// game a draw without proof, so it reports it as unresolved.
pub fn play(deal: &[Face], rules: Rules, limit: u64) -> Result<Record, DealError> {
    let table = Table::new(deal, rules)?;
    Ok(play_table(table, limit))
}

impl Record {
    /// The record of a game about to start at `t`: nothing played yet, the
    /// largest pile as dealt.
    pub(super) fn at_start(t: &Table) -> Record {
        Record {
            outcome: Outcome::Win { winner: 0 },
            cards_played: 0,
            captures: [0; MAX_PLAYERS],
            jack_captures: 0,
            longest_capture: 0,
            max_pile: (0..t.rules.players)
                .map(|p| t.pile_len(p))
                .max()
                .unwrap_or(0) as u32,
        }
    }

    /// Counts a capture of `cards` cards by `mover` (with a J or not), who
    /// now holds the pile of `t`.
    #[inline]
    pub(super) fn add_capture(&mut self, mover: usize, cards: u32, jack: bool, t: &Table) {
        self.captures[mover] += 1;
        self.jack_captures += u32::from(jack);
        self.longest_capture = self.longest_capture.max(cards);
        self.max_pile = self.max_pile.max(t.piles[mover].len as u32);
    }
}

/// Cards a game is played without the cycle check before [`play_table`]
/// hands it to the checked [`play_checked`] (see there why this is exact).
/// Above the longest default-rules game in the 10^7 reference deals (22,022 cards;
/// the mean is about 1,300), so such a game is practically never replayed.
pub const CHECK_FROM_CARD: u64 = 1 << 15;

/// Plays a deal as [`play_checked`] does, with the same [`Record`] to the
/// byte, but without the cycle check for the first [`CHECK_FROM_CARD`]
/// cards, where almost every game ends.
///
/// Why this is exact: a state that repeats makes the game repeat forever
/// (play is deterministic), so a game that ends never repeats a state, and
/// the checked engine, which stops only at an end, a repeat or the limit,
/// plays such a game card for card as the unchecked loop does and returns
/// the same record. Any game still running at `min(CHECK_FROM_CARD,
/// limit)` cards (0 is read as 1: a game plays at least one card) is replayed from its first card by the checked engine:
/// whether it cycles, where the cycle starts and its length, and the
/// counts of a cycling game (which run to the card where Brent's check
/// proves the cycle) are then exactly today's. The replay costs
/// `CHECK_FROM_CARD` cards for the few games that long (under 0.1% of
/// default-rules deals, each at least that long anyway).
pub(super) fn play_table(start: Table, limit: u64) -> Record {
    play_checking_from(start, limit, CHECK_FROM_CARD)
}

/// [`play_table`] with the threshold as a parameter (tests move it).
pub(super) fn play_checking_from(start: Table, limit: u64, check_from: u64) -> Record {
    let stop = limit.min(check_from);
    if duel::covers(start.rules) {
        return match duel::play(&start, stop) {
            Some(rec) => rec,
            None => play_checked(start, limit),
        };
    }
    let mut t = start.clone();
    let mut rec = Record::at_start(&t);
    loop {
        let mover = t.mover;
        let step = t.step();
        rec.cards_played += 1;
        match step {
            Step::Placed => {
                if rec.cards_played >= stop {
                    return play_checked(start, limit);
                }
            }
            Step::Over { winner } => {
                rec.outcome = Outcome::Win { winner };
                return rec;
            }
            Step::Captured { cards, jack } => {
                rec.add_capture(mover, cards, jack, &t);
                if rec.cards_played >= stop {
                    return play_checked(start, limit);
                }
            }
        }
    }
}

/// Plays a deal with Brent's check after every capture from the first
/// card: the engine [`play_table`] reproduces, and falls back to.
pub(super) fn play_checked(start: Table, limit: u64) -> Record {
    let mut t = start.clone();
    let mut rec = Record::at_start(&t);
    let mut brent = Brent::new(&t);
    loop {
        let mover = t.mover;
        let step = t.step();
        rec.cards_played += 1;
        match step {
            Step::Placed if rec.cards_played >= limit => {
                rec.outcome = Outcome::Unresolved;
                return rec;
            }
            Step::Placed => {}
            Step::Over { winner } => {
                rec.outcome = Outcome::Win { winner };
                return rec;
            }
            Step::Captured { cards, jack } => {
                rec.add_capture(mover, cards, jack, &t);
                if let Some(length) = brent.see(&t, rec.cards_played) {
                    let start_at = cycle_entry(&start, length);
                    rec.outcome = Outcome::Cycle {
                        start: start_at,
                        length,
                    };
                    rec.cards_played = start_at + length;
                    return rec;
                }
                if rec.cards_played >= limit {
                    rec.outcome = Outcome::Unresolved;
                    return rec;
                }
            }
        }
    }
}
