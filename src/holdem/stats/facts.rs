//! What one finished hand says about each seat: the play (read from the
//! hand's action list, street by street) and the result. The definitions
//! are written out in docs/stats.md; each rule below names its line there.

use crate::holdem::equity::allin::{all_in_equity, AllInEquity};
use crate::holdem::table::pots::build_pots;
use crate::holdem::table::{Action, HandState};

/// One seat's play in one hand: for each statistic, whether the seat had
/// the opportunity and whether it took it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatPlay {
    /// Asked to act preflop at least once (posting a blind is no act).
    pub vpip_opp: bool,
    /// A preflop call, bet or raise.
    pub vpip: bool,
    /// A preflop raise (the first raise over the blinds included).
    pub pfr: bool,
    /// Acted preflop facing exactly one raise made by another player.
    pub three_bet_opp: bool,
    /// ... and raised there.
    pub three_bet: bool,
    /// Made the first preflop raise and acted again facing exactly two.
    pub fold_to_three_bet_opp: bool,
    /// ... and folded there.
    pub fold_to_three_bet: bool,
    /// The last preflop raiser, acting on the flop before anyone bet.
    pub cbet_opp: bool,
    /// ... and bet there.
    pub cbet: bool,
    /// Acted on the flop facing a continuation bet that nobody raised.
    pub fold_to_cbet_opp: bool,
    /// ... and folded there.
    pub fold_to_cbet: bool,
    /// Bets and raises on the flop, turn and river.
    pub postflop_bets_raises: u32,
    /// Calls on the flop, turn and river.
    pub postflop_calls: u32,
    /// Still in the hand when the flop was dealt.
    pub saw_flop: bool,
    /// Still in the hand at a showdown (two or more players left).
    pub showdown: bool,
}

/// The play of every seat of a finished (or stopped) hand, from its
/// action list and when each street was dealt.
pub fn seat_play(h: &HandState) -> Vec<SeatPlay> {
    let n = h.seats().len();
    let mut f = vec![SeatPlay::default(); n];
    let history = h.history();
    let dealt = h.dealt_after();
    let flop_at = dealt[0].unwrap_or(history.len()).min(history.len());
    let turn_at = dealt[1]
        .unwrap_or(history.len())
        .clamp(flop_at, history.len());
    let is_raise = |a: Action| matches!(a, Action::RaiseTo(_));

    // Preflop: raises counted as they come (the blinds and straddles are
    // forced bets, never in the list, so never raises).
    let mut raises = 0u32;
    let mut opener = None;
    let mut last_raiser = None;
    let mut folded_preflop = vec![false; n];
    for &(s, a) in &history[..flop_at] {
        let raise = is_raise(a);
        let p = &mut f[s];
        p.vpip_opp = true;
        p.vpip |= raise || a == Action::Call;
        p.pfr |= raise;
        if raises == 1 && opener != Some(s) && !p.three_bet_opp {
            p.three_bet_opp = true;
            p.three_bet = raise;
        }
        if raises == 2 && opener == Some(s) && !p.fold_to_three_bet_opp {
            p.fold_to_three_bet_opp = true;
            p.fold_to_three_bet = a == Action::Fold;
        }
        folded_preflop[s] |= a == Action::Fold;
        if raise {
            raises += 1;
            opener.get_or_insert(s);
            last_raiser = Some(s);
        }
    }
    if dealt[0].is_none() {
        for (s, p) in f.iter_mut().enumerate() {
            p.showdown = showdown(h, s);
        }
        return f;
    }
    // The flop: the continuation bet, and who faced it.
    let mut bet_seen = false;
    let mut cbet_live = false;
    for &(s, a) in &history[flop_at..turn_at] {
        let raise = is_raise(a);
        if Some(s) == last_raiser && !bet_seen && !f[s].cbet_opp {
            f[s].cbet_opp = true;
            f[s].cbet = raise;
            cbet_live = raise;
        } else if cbet_live && Some(s) != last_raiser && !f[s].fold_to_cbet_opp {
            f[s].fold_to_cbet_opp = true;
            f[s].fold_to_cbet = a == Action::Fold;
        }
        if raise {
            // A raise of the continuation bet: who acts after it faces a
            // raise, not the continuation bet.
            cbet_live &= !bet_seen;
            bet_seen = true;
        }
    }
    for &(s, a) in &history[flop_at..] {
        match a {
            Action::RaiseTo(_) => f[s].postflop_bets_raises += 1,
            Action::Call => f[s].postflop_calls += 1,
            _ => {}
        }
    }
    for (s, p) in f.iter_mut().enumerate() {
        p.saw_flop = !folded_preflop[s];
        p.showdown = showdown(h, s);
    }
    f
}

fn showdown(h: &HandState, s: usize) -> bool {
    h.settled().is_some_and(|p| p.showdown) && !h.seats()[s].folded
}

/// One seat's result in a hand whose result is known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatResult {
    /// Chips won less chips put in, in the hand's units.
    pub net: i64,
    /// Went to showdown and took chips from a pot there.
    pub won_at_showdown: bool,
    pub allin: AllIn,
}

/// A seat's all-in: none, its expected net at the moment every remaining
/// player was all-in (cards known), or an all-in whose cards are unknown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AllIn {
    /// Not in an all-in before the river: the all-in-adjusted net is the net.
    No,
    /// Expected chips from the pots at the all-in less chips put in.
    Adjusted(f64),
    /// In an all-in with a live player's cards unknown: the net stands.
    Unknown,
}

/// The results of every seat: `won` is what each took from the pots
/// (the uncalled bet given back is no share), `equity` the all-in equity
/// when every live player's cards are known (see [`allin_equity`]).
pub fn seat_results(h: &HandState, won: &[u64], equity: Option<&AllInEquity>) -> Vec<SeatResult> {
    let showdown = h.settled().is_some_and(|p| p.showdown);
    let all_in = h.all_in_board().is_some();
    h.seats()
        .iter()
        .enumerate()
        .map(|(s, seat)| {
            let net = won[s] as i64 - seat.contributed as i64;
            let allin = match (all_in && !seat.folded, equity) {
                (false, _) => AllIn::No,
                (true, Some(e)) => AllIn::Adjusted(e.expected_won[s] - seat.contributed as f64),
                (true, None) => AllIn::Unknown,
            };
            SeatResult {
                net,
                won_at_showdown: showdown && !seat.folded && won[s] > 0,
                allin,
            }
        })
        .collect()
}

/// Boards sampled for an all-in of three or more players before the flop
/// (every other all-in is counted exactly: the heads-up preflop table, or
/// every completion of a flop or turn).
pub const ALLIN_TRIALS: u32 = 100_000;

/// The all-in equity of a finished hand, when betting closed for good
/// before the river with two or more players left and every live
/// player's cards are known. The sampled case draws from a generator
/// seeded by the hand's cards and chips, so the answer is the hand's own,
/// whatever order or thread it is read in. Hold'em only (`None` for the
/// other games).
pub fn allin_equity(h: &HandState) -> Option<AllInEquity> {
    if h.config().game != crate::holdem::variant::Game::Holdem {
        return None;
    }
    let b = h.all_in_board()?;
    let seats = h.seats();
    let live: Vec<bool> = seats.iter().map(|s| !s.folded).collect();
    let hidden = h.hidden();
    if (0..seats.len()).any(|s| live[s] && hidden & (1 << s) != 0) {
        return None;
    }
    let holes: Vec<[crate::cards::Card; 2]> =
        seats.iter().map(|s| [s.hole[0], s.hole[1]]).collect();
    let contributed: Vec<u64> = seats.iter().map(|s| s.contributed).collect();
    let pots = build_pots(&contributed, &live);
    let board = &h.board()[..b];
    // FNV-1a over the cards and chips.
    let mut key: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: u64| {
        key ^= x;
        key = key.wrapping_mul(0x0100_0000_01b3);
    };
    for (s, seat) in seats.iter().enumerate() {
        if live[s] {
            mix(u64::from(seat.hole[0].index()));
            mix(u64::from(seat.hole[1].index()));
        }
        mix(seat.contributed);
    }
    for c in board {
        mix(u64::from(c.index()));
    }
    let mut rng = crate::rng::game_rng(key, 0);
    Some(all_in_equity(
        &holes,
        &live,
        board,
        &pots,
        ALLIN_TRIALS,
        &mut rng,
    ))
}
