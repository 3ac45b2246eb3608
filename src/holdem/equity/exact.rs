//! Exact equity: every deal of hole cards and every board completion,
//! counted in integers. How the work is planned (class by class, by the
//! preflop table, or board by board) and the answer built from the counts.

use rayon::prelude::*;

use super::board_enum::{enumerate_boards, Counts};
use super::board_major::{self, Totals};
use super::preflop;
use super::query::Prepared;
use super::range::Combo;
use super::types::{
    deck_left, EquityError, EquityResult, Method, PlayerEquity, MAX_EXACT_WORK, UNITS,
};
use crate::holdem::eval::tables;

impl Prepared {
    /// Whether exact enumeration is cheap: at most about 2*10^8 showdown
    /// evaluations (a second or so on one core), counting each suit class
    /// once.
    pub fn exact_is_cheap(&self) -> bool {
        if self.board_major_fits() {
            return self.board_major_work() <= 200_000_000;
        }
        let bound = self.combination_bound();
        if bound > 2_000_000 {
            return false;
        }
        let classes = self.classes().len() as u64;
        classes
            .saturating_mul(self.boards())
            .saturating_mul(self.players() as u64)
            <= 200_000_000
    }

    /// An upper bound on the work of exact enumeration: deals of hole
    /// cards (suit classes when they can be counted cheaply) times board
    /// completions times players, saturating.
    pub fn exact_work(&self) -> u64 {
        if self.board_major_fits() {
            return self.board_major_work();
        }
        let bound = self.combination_bound();
        let deals = if bound <= 2_000_000 {
            self.classes().len() as u64
        } else {
            bound
        };
        deals
            .saturating_mul(self.boards())
            .saturating_mul(self.players() as u64)
    }

    /// Exact equity, refused beyond [`MAX_EXACT_WORK`].
    pub fn exact_checked(&self) -> Result<EquityResult, EquityError> {
        let work = self.exact_work();
        if work > MAX_EXACT_WORK {
            return Err(EquityError::ExactTooLarge { work });
        }
        Ok(exact(self))
    }

    /// Whether [`exact`] enumerates board by board ([`board_major`]): a
    /// flop, turn or river is out, and each range's weights are all equal
    /// (then a deal's weight is the same for every deal and cancels out, so
    /// integer counts are the answer).
    fn board_major_fits(&self) -> bool {
        self.board.len() >= 3
            && self
                .ranges
                .iter()
                .all(|r| r.combos.iter().all(|w| w.weight == r.combos[0].weight))
    }

    fn combo_lists(&self) -> Vec<Vec<Combo>> {
        self.ranges
            .iter()
            .map(|r| r.combos.iter().map(|w| w.cards).collect())
            .collect()
    }

    fn board_major_work(&self) -> u64 {
        board_major::work(&self.combo_lists(), self.board.len(), self.used)
    }

    /// The integer totals of board-major enumeration, when it applies.
    pub fn board_major_totals(&self) -> Option<Totals> {
        self.board_major_fits()
            .then(|| board_major::totals(&self.combo_lists(), &self.board, self.used))
    }

    /// The same integer totals by the class-by-class enumeration (each
    /// class's counts times its number of combinations), when every
    /// range's weights are equal: the reference for board-major.
    pub fn enumerated_totals(&self) -> Option<Totals> {
        if !self
            .ranges
            .iter()
            .all(|r| r.combos.iter().all(|w| w.weight == r.combos[0].weight))
        {
            return None;
        }
        let t = tables();
        let mut out = Totals::default();
        for (deal, _, members) in self.classes() {
            let c = enumerate_boards(t, &deal, &self.board, &deck_left(self.used, &deal));
            for i in 0..self.players() {
                out.wins[i] += members * c.wins[i] as u64;
                out.ties[i] += members * c.ties[i] as u64;
                out.shares[i] += members * c.shares[i] as u64;
            }
            out.deal_boards += members * c.boards as u64;
        }
        Some(out)
    }
}

/// Exact equity by enumerating every deal (use
/// [`Prepared::exact_is_cheap`] to decide whether to). Each suit class of
/// hole cards is enumerated once, by rank pattern ([`enumerate_boards`]),
/// or looked up in the preflop table (heads-up, no board, nothing dead);
/// classes run in parallel and are summed as integers. With a board out
/// and equal weights within each range, the enumeration is board-major
/// instead ([`board_major`]), with the same integer counts.
pub fn exact(p: &Prepared) -> EquityResult {
    exact_with(p, true)
}

/// [`exact`] without the preflop table or board-major enumeration: every
/// class enumerated (the reference both are tested against).
pub fn exact_enumerated(p: &Prepared) -> EquityResult {
    exact_with(p, false)
}

fn exact_with(p: &Prepared, fast: bool) -> EquityResult {
    if let Some(t) = p.board_major_totals().filter(|_| fast) {
        return from_totals(p, &t);
    }
    let classes = p.classes();
    let n = p.players();
    // Heads-up before the flop with nothing dead, every class's counts are
    // in the preflop table (the same integers the enumeration gives: a test
    // recomputes a sample of them).
    let per_class: Vec<Counts> = if fast && n == 2 && p.board.is_empty() && p.dead.is_empty() {
        let table = preflop::table();
        classes
            .iter()
            .map(|(deal, _, _)| match table.lookup(deal[0], deal[1]) {
                Some(o) => o.counts(),
                None => enumerate_boards(tables(), deal, &p.board, &deck_left(p.used, deal)),
            })
            .collect()
    } else {
        let t = tables();
        classes
            .par_iter()
            .map(|(deal, _, _)| enumerate_boards(t, deal, &p.board, &deck_left(p.used, deal)))
            .collect()
    };
    let total_weight: f64 = classes.iter().map(|c| c.1).sum();
    let boards = p.boards() as f64;
    let players = (0..n)
        .map(|i| {
            let mut e = PlayerEquity {
                equity: 0.0,
                win: 0.0,
                tie: 0.0,
                stderr: None,
            };
            for (c, counts) in classes.iter().zip(&per_class) {
                debug_assert_eq!(counts.boards as f64, boards);
                let w = c.1 / total_weight / boards;
                e.equity += w * counts.shares[i] as f64 / UNITS as f64;
                e.win += w * counts.wins[i] as f64;
                e.tie += w * counts.ties[i] as f64;
            }
            e
        })
        .collect();
    EquityResult {
        players,
        method: Method::Exact {
            combinations: classes.iter().map(|c| c.2).sum(),
            classes: classes.len() as u64,
            boards: p.boards(),
        },
    }
}

/// The answer from board-major totals: every deal counted once, so the
/// combinations are their own classes.
fn from_totals(p: &Prepared, t: &Totals) -> EquityResult {
    let n = t.deal_boards as f64;
    let players = (0..p.players())
        .map(|i| PlayerEquity {
            equity: t.shares[i] as f64 / UNITS as f64 / n,
            win: t.wins[i] as f64 / n,
            tie: t.ties[i] as f64 / n,
            stderr: None,
        })
        .collect();
    let combinations = t.deal_boards / p.boards();
    EquityResult {
        players,
        method: Method::Exact {
            combinations,
            classes: combinations,
            boards: p.boards(),
        },
    }
}
