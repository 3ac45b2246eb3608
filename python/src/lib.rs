//! `cardsim._native`: the Rust half of the Python package.
//!
//! Thin on purpose: every function here checks its input, calls the cardsim
//! library (or its command line's own functions, so that answers and error
//! messages are the CLI's) with the GIL released, and hands back plain
//! values. The Python half (`cardsim/__init__.py`) shapes them into result
//! objects, Arrow tables and pandas frames.

mod hand;

use cardsim::cards::{format_cards, parse_cards, Card};
use cardsim::cli::{self, Cli, Command};
use cardsim::holdem::batch_eval::strengths_of_sevens;
use cardsim::holdem::eval::{best_five, category, tables, Hand, Strength};
use clap::Parser;
use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// Hands converted and evaluated per block by `evaluate_many`: small enough
/// for the block to stay in the first-level cache.
const BLOCK: usize = 4096;

/// Parses a 5- to 7-card hand as `cardsim eval` does, with its messages.
fn parse_hand(text: &str) -> PyResult<Vec<Card>> {
    let cards = parse_cards(text).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if !(5..=7).contains(&cards.len()) {
        return Err(PyValueError::new_err(format!(
            "a hand has 5 to 7 cards, got {} in '{}'",
            cards.len(),
            cardsim::text::quote(text.trim())
        )));
    }
    Ok(cards)
}

/// `evaluate(hand)` -> (strength, category key, category name, best five).
#[pyfunction]
fn evaluate(hand: &str) -> PyResult<(Strength, &'static str, &'static str, String)> {
    let cards = parse_hand(hand)?;
    let strength = Hand::from_cards(&cards).strength();
    let cat = category(strength);
    Ok((
        strength,
        cat.key(),
        cat.name(),
        format_cards(&best_five(&cards)),
    ))
}

/// Card codes of a hand in notation (`"As Kd"` -> `[51, 45]`), with the
/// parser's messages; repeats are refused.
#[pyfunction]
fn parse(cards: &str) -> PyResult<Vec<u8>> {
    let cards = parse_cards(cards).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(cards.iter().map(|c| c.index()).collect())
}

/// The notation of card codes (`[51, 45]` -> `"As Kd"`).
#[pyfunction]
fn format(codes: Vec<u8>) -> PyResult<String> {
    let cards = codes
        .iter()
        .map(|&c| {
            if usize::from(c) < Card::STANDARD {
                Ok(Card::from_index(c))
            } else {
                Err(PyValueError::new_err(format!(
                    "card code {c} is out of range (0..51)"
                )))
            }
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(format_cards(&cards))
}

/// Why row `row` of a batch is not a hand: a code past 51 or a repeat.
fn check_row(row: usize, codes: &[u8]) -> Result<(), String> {
    let mut seen = 0u64;
    for &c in codes {
        if usize::from(c) >= Card::STANDARD {
            return Err(format!("row {row}: card code {c} is out of range (0..51)"));
        }
        if seen & (1 << c) != 0 {
            return Err(format!(
                "row {row}: card '{}' appears twice",
                Card::from_index(c)
            ));
        }
        seen |= 1 << c;
    }
    Ok(())
}

/// Strengths of the hands in `codes` (rows of `width` card codes, 5 to 7),
/// checked first: the evaluator's tables assume distinct standard cards.
/// Seven-card rows go through the batch evaluator a block at a time.
fn strengths(codes: &[u8], width: usize) -> Result<Vec<Strength>, String> {
    let n = codes.len() / width;
    let mut out = vec![0; n];
    let t = tables();
    if width == 7 {
        let mut block: Vec<[Card; 7]> = Vec::with_capacity(BLOCK);
        for (b, (rows, outs)) in codes
            .chunks(7 * BLOCK)
            .zip(out.chunks_mut(BLOCK))
            .enumerate()
        {
            block.clear();
            for (i, row) in rows.chunks_exact(7).enumerate() {
                check_row(b * BLOCK + i, row)?;
                block.push(std::array::from_fn(|k| Card::from_index(row[k])));
            }
            strengths_of_sevens(t, &block, outs);
        }
    } else {
        for (i, (row, o)) in codes.chunks_exact(width).zip(&mut out).enumerate() {
            check_row(i, row)?;
            *o = t.strength(
                row.iter()
                    .fold(Hand::EMPTY, |h, &c| h.with(Card::from_index(c))),
            );
        }
    }
    Ok(out)
}

/// `evaluate_many(codes)`: a C-contiguous `uint8` array of shape (n, 5|6|7)
/// to a `uint16` array of n strengths. The input is read in place and the
/// output vector becomes the NumPy array without a copy; the GIL is
/// released while the hands are evaluated.
#[pyfunction]
fn evaluate_many<'py>(
    py: Python<'py>,
    codes: PyReadonlyArray2<'py, u8>,
) -> PyResult<Bound<'py, PyArray1<Strength>>> {
    let width = codes.shape()[1];
    if !(5..=7).contains(&width) {
        return Err(PyValueError::new_err(format!(
            "a hand has 5 to 7 cards, got an array of shape ({}, {width})",
            codes.shape()[0]
        )));
    }
    let slice = codes
        .as_slice()
        .map_err(|_| PyValueError::new_err("the card array must be C-contiguous"))?;
    let out = py
        .detach(|| strengths(slice, width))
        .map_err(PyValueError::new_err)?;
    Ok(PyArray1::from_vec(py, out))
}

/// Parses a command line (the words after `cardsim`) with the CLI's own
/// parser; a usage error becomes a `ValueError` with clap's first line.
fn parse_command(args: Vec<String>) -> PyResult<Cli> {
    Cli::try_parse_from(std::iter::once("cardsim".to_string()).chain(args)).map_err(|e| {
        let text = e.to_string();
        let line = text.lines().next().unwrap_or("bad arguments");
        PyValueError::new_err(line.trim_start_matches("error: ").to_string())
    })
}

/// Whether an error is the user's (the CLI's exit status 2): `ValueError`;
/// anything else (a failed write, say) is a `RuntimeError`.
fn to_py_error(e: anyhow::Error) -> PyErr {
    let bad = e.chain().any(|c| {
        c.is::<cli::BadInput>()
            || c.is::<cardsim::cards::CardError>()
            || c.downcast_ref::<cardsim::sim::runner::RunError>()
                .is_some_and(|r| r.is_bad_input())
    });
    let line = format!("{e:#}").replace(['\n', '\r'], " ");
    if bad {
        PyValueError::new_err(line)
    } else {
        PyRuntimeError::new_err(line)
    }
}

/// `cardsim equity ARGS --json` without a process: the JSON text.
#[pyfunction]
fn equity_json(py: Python<'_>, args: Vec<String>) -> PyResult<String> {
    let cli = parse_command(args)?;
    let Command::Equity(args) = cli.command else {
        return Err(PyValueError::new_err("not an equity command"));
    };
    let value = py
        .detach(|| cli::equity::json(&args))
        .map_err(to_py_error)?;
    Ok(value.to_string())
}

/// Runs a simulating command line (`fishing ...`, `holdem ...`,
/// `tienlen ...`, `solve --games ...`) in this process with the GIL
/// released. The caller adds `--embedded` (no signal handlers) and the
/// output paths.
#[pyfunction]
fn run_command(py: Python<'_>, args: Vec<String>) -> PyResult<()> {
    let cli = parse_command(args)?;
    match cli.command {
        Command::Fishing(_) | Command::Holdem(_) | Command::Tienlen(_) | Command::Solve(_) => {}
        _ => return Err(PyValueError::new_err("not a simulating command")),
    }
    py.detach(|| cli::run(cli)).map_err(to_py_error)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_many, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(format, m)?)?;
    m.add_function(wrap_pyfunction!(equity_json, m)?)?;
    m.add_function(wrap_pyfunction!(run_command, m)?)?;
    m.add("DEFAULT_SEED", cli::sim_args::DEFAULT_SEED)?;
    m.add_class::<hand::PyHand>()?;
    m.add("IllegalAction", m.py().get_type::<hand::IllegalAction>())?;
    Ok(())
}
