//! `cardsim.holdem.Hand`: one hand of no-limit hold'em, pot-limit Omaha
//! or short deck on the library's table engine (`cardsim::holdem::table`),
//! one decision at a time.
//!
//! The engine already refuses an illegal action with a typed error and
//! leaves the hand unchanged; this wrapper maps that error to the Python
//! exception `IllegalAction` (a `ValueError`) and the state to plain values.

use cardsim::cards::{format_cards, parse_cards, Card};
use cardsim::holdem::phh;
use cardsim::holdem::table::pots::{build_pots, OddChips};
use cardsim::holdem::table::{Action, Betting, Config, HandState, ShortBigBlind, Street};
use cardsim::holdem::variant::Game;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rand::seq::SliceRandom;

create_exception!(
    cardsim.holdem,
    IllegalAction,
    PyValueError,
    "An action the rules do not allow now; the hand is unchanged."
);

fn street_name(s: Street) -> &'static str {
    match s {
        Street::Preflop => "preflop",
        Street::Flop => "flop",
        Street::Turn => "turn",
        Street::River => "river",
        Street::Done => "done",
    }
}

fn action_words(a: Action) -> (&'static str, Option<u64>) {
    match a {
        Action::Fold => ("fold", None),
        Action::Check => ("check", None),
        Action::Call => ("call", None),
        Action::RaiseTo(to) => ("raise", Some(to)),
    }
}

/// One hand on the table engine: hold'em, Omaha or short deck (see
/// `cardsim.holdem`).
#[pyclass(module = "cardsim.holdem", name = "Hand")]
pub struct PyHand {
    state: HandState,
}

#[pymethods]
impl PyHand {
    #[new]
    #[pyo3(signature = (stacks, blinds=(1, 2), antes=0, button=0, deck=None, seed=cardsim::cli::sim_args::DEFAULT_SEED, odd_chips="left_of_button", short_big_blind="full_blind", ante_trimming=true, variant="nlhe", betting=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        stacks: Vec<u64>,
        blinds: (u64, u64),
        antes: u64,
        button: usize,
        deck: Option<&str>,
        seed: u64,
        odd_chips: &str,
        short_big_blind: &str,
        ante_trimming: bool,
        variant: &str,
        betting: Option<&str>,
    ) -> PyResult<Self> {
        let game = Game::parse(variant).ok_or_else(|| {
            PyValueError::new_err(format!(
                "variant must be 'nlhe', 'plo4', 'plo5', 'plo6' or 'shortdeck', got '{}'",
                cardsim::text::quote(variant)
            ))
        })?;
        // The game's own betting unless named: pot limit for Omaha.
        let betting = match betting {
            None if game.is_omaha() => Betting::PotLimit,
            None => Betting::NoLimit,
            Some(b) => Betting::from_key(&b.replace('-', "_")).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "betting must be 'no_limit' or 'pot_limit', got '{}'",
                    cardsim::text::quote(b)
                ))
            })?,
        };
        let odd_chips = OddChips::from_key(odd_chips).ok_or_else(|| {
            PyValueError::new_err(format!(
                "odd_chips must be 'left_of_button' or 'first_winner', got '{odd_chips}'"
            ))
        })?;
        let short_big_blind = ShortBigBlind::from_key(short_big_blind).ok_or_else(|| {
            PyValueError::new_err(format!(
                "short_big_blind must be 'full_blind' or 'posted', got '{short_big_blind}'"
            ))
        })?;
        let cards: Vec<Card> = match deck {
            Some(text) => parse_cards(text).map_err(|e| PyValueError::new_err(e.to_string()))?,
            None => {
                let mut d: Vec<Card> = match game {
                    Game::Holdem => (0..52).map(Card::from_index).collect(),
                    _ => game.deck().to_vec(),
                };
                d.shuffle(&mut cardsim::rng::game_rng(seed, 0));
                d
            }
        };
        let config = Config {
            stacks,
            button,
            small_blind: blinds.0,
            big_blind: blinds.1,
            ante: antes,
            ante_trimming,
            odd_chips,
            short_big_blind,
            betting,
            game,
        };
        let state =
            HandState::new(config, &cards).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyHand { state })
    }

    /// Reads a one-hand PHH text and replays it through the engine.
    #[staticmethod]
    fn from_phh(text: &str) -> PyResult<Self> {
        let hands = phh::parse_all(text).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let [one] = hands.as_slice() else {
            return Err(PyValueError::new_err(format!(
                "expected one hand, the text holds {}",
                hands.len()
            )));
        };
        let r = phh::replay(one, phh::ReplayOptions::default())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyHand { state: r.state })
    }

    /// The legal actions of the seat to act, or None when the hand is over.
    fn legal<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(l) = self.state.legal() else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("seat", l.seat)?;
        d.set_item("fold", l.can_fold)?;
        d.set_item("check", l.can_check)?;
        d.set_item("call", l.call)?;
        d.set_item("raise_min", l.raise.map(|r| r.0))?;
        d.set_item("raise_max", l.raise.map(|r| r.1))?;
        Ok(Some(d))
    }

    /// Applies an action of the seat to act: "fold", "check", "call" or
    /// "raise" with `to`, the total bet on this street.
    #[pyo3(signature = (action, to=None))]
    fn apply(&mut self, action: &str, to: Option<u64>) -> PyResult<()> {
        let a = match (action, to) {
            ("fold", None) => Action::Fold,
            ("check", None) => Action::Check,
            ("call", None) => Action::Call,
            ("raise" | "bet", Some(to)) => Action::RaiseTo(to),
            ("raise" | "bet", None) => {
                return Err(IllegalAction::new_err("a raise needs its amount: to=..."))
            }
            (a, Some(_)) if ["fold", "check", "call"].contains(&a) => {
                return Err(IllegalAction::new_err(format!("'{a}' takes no amount")))
            }
            (a, _) => {
                return Err(IllegalAction::new_err(format!(
                    "unknown action '{}': expected fold, check, call or raise",
                    cardsim::text::quote(a)
                )))
            }
        };
        self.state
            .apply(a)
            .map_err(|e| IllegalAction::new_err(e.to_string()))
    }

    /// The seat to act, None when the hand is over.
    #[getter]
    fn to_act(&self) -> Option<usize> {
        self.state.to_act()
    }

    #[getter]
    fn street(&self) -> &'static str {
        street_name(self.state.street())
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.state.payout().is_some()
    }

    #[getter]
    fn board(&self) -> String {
        format_cards(self.state.board())
    }

    #[getter]
    fn button(&self) -> usize {
        self.state.config().button
    }

    /// Chips behind, seat 0 first.
    #[getter]
    fn stacks(&self) -> Vec<u64> {
        self.state.seats().iter().map(|s| s.stack).collect()
    }

    /// Chips in front of each seat on this street.
    #[getter]
    fn bets(&self) -> Vec<u64> {
        self.state.seats().iter().map(|s| s.street_bet).collect()
    }

    /// Chips each seat has put in this hand (antes and blinds included).
    #[getter]
    fn contributed(&self) -> Vec<u64> {
        self.state.seats().iter().map(|s| s.contributed).collect()
    }

    #[getter]
    fn folded(&self) -> Vec<bool> {
        self.state.seats().iter().map(|s| s.folded).collect()
    }

    #[getter]
    fn starting_stacks(&self) -> Vec<u64> {
        self.state.config().stacks.clone()
    }

    /// Every accepted action: (seat, "fold"|"check"|"call"|"raise", to).
    #[getter]
    fn history(&self) -> Vec<(usize, &'static str, Option<u64>)> {
        self.state
            .history()
            .iter()
            .map(|&(s, a)| {
                let (w, to) = action_words(a);
                (s, w, to)
            })
            .collect()
    }

    /// The game, as the CLI's `--variant` names it (`nlhe`, `plo4`, ...).
    #[getter]
    fn variant(&self) -> &'static str {
        cardsim::holdem::agents::view::variant_name(self.state.config().game)
    }

    /// `no_limit` or `pot_limit`.
    #[getter]
    fn betting(&self) -> &'static str {
        self.state.config().betting.key()
    }

    /// A seat's hole cards (every seat's: this is the dealer's object; use
    /// `view(seat)` for what one player may see).
    fn hole(&self, seat: usize) -> PyResult<String> {
        let s = self.state.seats().get(seat).ok_or_else(|| {
            PyValueError::new_err(format!(
                "no seat {seat}: the table has {}",
                self.state.seats().len()
            ))
        })?;
        Ok(format_cards(&s.hole))
    }

    /// What `seat` may see: its own cards, the board, every stack and bet,
    /// the pot, the history, and its legal actions when it is to act.
    fn view<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyDict>> {
        let hole = self.hole(seat)?;
        let d = PyDict::new(py);
        d.set_item("seat", seat)?;
        d.set_item("variant", self.variant())?;
        d.set_item("hole", hole)?;
        d.set_item("board", self.board())?;
        d.set_item("street", self.street())?;
        d.set_item("button", self.button())?;
        d.set_item("stacks", self.stacks())?;
        d.set_item("bets", self.bets())?;
        d.set_item("folded", self.folded())?;
        d.set_item("pot", self.contributed().iter().sum::<u64>())?;
        d.set_item("to_act", self.to_act())?;
        d.set_item("history", self.history())?;
        let legal = match self.state.legal() {
            Some(l) if l.seat == seat => self.legal(py)?.map(|d| d.into_any()),
            _ => None,
        };
        d.set_item("legal", legal)?;
        Ok(d)
    }

    /// The pots as (amount, eligible seats): as paid when the hand is over,
    /// else as the contributions so far would build them.
    fn pots<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let pots = match self.state.payout() {
            Some(p) => p.pots.clone(),
            None => {
                let seats = self.state.seats();
                let contributed: Vec<u64> = seats.iter().map(|s| s.contributed).collect();
                let live: Vec<bool> = seats.iter().map(|s| !s.folded).collect();
                build_pots(&contributed, &live)
            }
        };
        PyList::new(
            py,
            pots.into_iter().map(|p| (p.amount, p.eligible.to_vec())),
        )
    }

    /// Chips each seat won (seat 0 first), or None before the end.
    fn payouts(&self) -> Option<Vec<u64>> {
        let p = self.state.payout()?;
        let mut won = vec![0; self.state.seats().len()];
        for shares in &p.shares {
            for &(seat, chips) in shares {
                won[seat] += chips;
            }
        }
        Some(won)
    }

    /// The hand as a PHH text (what `cardsim holdem --phh` writes).
    fn to_phh(&self) -> String {
        phh::export(&self.state, None)
    }

    fn __repr__(&self) -> String {
        format!(
            "<cardsim.holdem.Hand {} seats, {}, board '{}', stacks {:?}>",
            self.state.seats().len(),
            self.street(),
            self.board(),
            self.stacks()
        )
    }
}
