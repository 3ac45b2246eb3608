//! Exact equity: every deal of hole cards and every board completion,
//! counted in integers. How the work is planned (class by class, by the
//! preflop table, or board by board) and the answer built from the counts.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::board_enum::{enumerate_boards, Counts};
use super::board_major::{self, Totals};
use super::preflop;
use super::query::Prepared;
use super::range::Combo;
use super::types::{
    deck_left, EquityError, EquityResult, Hooks, Method, PlayerEquity, Progress, MAX_EXACT_WORK,
    UNITS,
};
use crate::holdem::eval::{tables, Tables};

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
        self.exact_checked_with(Hooks::default())
    }

    /// [`Prepared::exact_checked`] with [`exact_with_hooks`]' hooks.
    pub fn exact_checked_with(&self, hooks: Hooks<'_>) -> Result<EquityResult, EquityError> {
        let work = self.exact_work();
        if work > MAX_EXACT_WORK {
            return Err(EquityError::ExactTooLarge { work });
        }
        exact_with_hooks(self, hooks)
    }

    /// Whether [`exact`] enumerates board by board ([`board_major`]): a
    /// flop, turn or river is out, and each range's weights are all equal
    /// (then a deal's weight is the same for every deal and cancels out, so
    /// integer counts are the answer).
    pub(super) fn board_major_fits(&self) -> bool {
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

    pub(super) fn board_major_work(&self) -> u64 {
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
    match exact_with(p, true, Hooks::default()) {
        Ok(r) => r,
        Err(_) => unreachable!("only a cancel hook interrupts an exact enumeration"),
    }
}

/// [`exact`], reporting its expected time and progress (suit classes, or
/// board completions when board-major) to `hooks`, and stopping with
/// [`EquityError::Interrupted`] when asked to.
pub fn exact_with_hooks(p: &Prepared, hooks: Hooks<'_>) -> Result<EquityResult, EquityError> {
    exact_with(p, true, hooks)
}

/// [`exact`] without the preflop table or board-major enumeration: every
/// class enumerated (the reference both are tested against).
pub fn exact_enumerated(p: &Prepared) -> EquityResult {
    match exact_with(p, false, Hooks::default()) {
        Ok(r) => r,
        Err(_) => unreachable!("only a cancel hook interrupts an exact enumeration"),
    }
}

/// Showdown evaluations a second on one core, for the expected time.
const EVALUATIONS_PER_SECOND: f64 = 1e8;

fn exact_with(p: &Prepared, fast: bool, hooks: Hooks<'_>) -> Result<EquityResult, EquityError> {
    let threads = rayon::current_num_threads().max(1) as f64;
    if fast && p.board_major_fits() {
        let expected = p.board_major_work() as f64 / EVALUATIONS_PER_SECOND / threads;
        let t = board_major::totals_with(&p.combo_lists(), &p.board, p.used, expected, hooks)
            .ok_or(EquityError::Interrupted)?;
        return Ok(from_totals(p, &t));
    }
    let classes = p.classes();
    let n = p.players();
    let count = classes.len() as u64;
    let work = count * p.boards() * n as u64;
    let expected = work as f64 / EVALUATIONS_PER_SECOND / threads;
    hooks.report(Progress {
        done: 0,
        total: Some(count),
        unit: "suit classes",
        expected_seconds: Some(expected),
    });
    let done = AtomicU64::new(0);
    // One class enumerated (or skipped once the caller asked to stop).
    let one = |deal: &[Combo], t: &Tables| -> Counts {
        if hooks.cancelled() {
            return Counts::default();
        }
        let c = enumerate_boards(t, deal, &p.board, &deck_left(p.used, deal));
        let k = done.fetch_add(1, Ordering::Relaxed) + 1;
        hooks.report(Progress {
            done: k,
            total: Some(count),
            unit: "suit classes",
            expected_seconds: None,
        });
        c
    };
    // Heads-up before the flop with nothing dead, every class's counts are
    // in the preflop table (the same integers the enumeration gives: a test
    // recomputes a sample of them).
    let per_class: Vec<Counts> = if fast && n == 2 && p.board.is_empty() && p.dead.is_empty() {
        let table = preflop::table();
        classes
            .iter()
            .map(|(deal, _, _)| match table.lookup(deal[0], deal[1]) {
                Some(o) => o.counts(),
                None => one(deal, tables()),
            })
            .collect()
    } else {
        let t = tables();
        classes
            .par_iter()
            .map(|(deal, _, _)| one(deal, t))
            .collect()
    };
    if hooks.cancelled() {
        return Err(EquityError::Interrupted);
    }
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
    Ok(EquityResult {
        players,
        method: Method::Exact {
            combinations: classes.iter().map(|c| c.2).sum(),
            classes: classes.len() as u64,
            boards: p.boards(),
        },
    })
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
