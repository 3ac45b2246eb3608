//! `cardsim._native`: the Rust half of the Python package.
//!
//! Thin on purpose: every function here checks its input, calls the cardsim
//! library (or its command line's own functions, so that answers and error
//! messages are the CLI's) with the GIL released, and hands back plain
//! values. The Python half (`cardsim/__init__.py`) shapes them into result
//! objects, Arrow tables and pandas frames.

mod agent;
mod hand;
mod interrupt;

use cardsim::cards::{format_cards, parse_cards, Card};
use cardsim::cli::{self, Cli, Command};
use cardsim::holdem::eval::batch::strengths_of_sevens;
use cardsim::holdem::eval::{best_five, category, tables, Hand, Strength};
use cardsim::sim::interrupt::Cancel;
use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;

/// Rows checked and evaluated per block by `evaluate_many` (the unit the
/// threads share): small enough for a block to stay in the first-level
/// cache between its check and its evaluation.
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

/// Card codes of cards in notation (`"As Kd"` -> `b"\x30\x2d"`, bytes 48
/// and 45), with the parser's messages; repeats are refused.
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

/// Whether every row of `rows` (rows of `width` codes) holds distinct codes
/// below 52. Branch-free per row, a few instructions a card, and one loop
/// per width so that each row's loop unrolls; [`check_row`] then names the
/// first bad row.
fn rows_valid(rows: &[u8], width: usize) -> bool {
    match width {
        5 => rows_valid_n::<5>(rows),
        6 => rows_valid_n::<6>(rows),
        _ => rows_valid_n::<7>(rows),
    }
}

fn rows_valid_n<const N: usize>(rows: &[u8]) -> bool {
    // The largest code first: one vectorised pass.
    if rows.iter().fold(0u8, |m, &c| m.max(c)) >= 52 {
        return false;
    }
    let (whole, rest) = rows.as_chunks::<N>();
    let mut bad = 0u64;
    for row in whole {
        // Distinct bits add without a carry: the sum equals the union
        // exactly when no card repeats (7 cards of at most 2^51 cannot
        // overflow).
        let (mut sum, mut union) = (0u64, 0u64);
        for &c in row {
            let bit = 1u64 << c;
            sum += bit;
            union |= bit;
        }
        bad |= sum ^ union;
    }
    bad == 0 && rest.is_empty()
}

/// The first bad row's message (`first` is the index of `rows`' first row).
fn first_bad_row(rows: &[u8], width: usize, first: usize) -> String {
    rows.chunks_exact(width)
        .enumerate()
        .find_map(|(i, row)| check_row(first + i, row).err())
        .unwrap_or_else(|| "a row is not a hand".to_string())
}

/// Card codes as cards, without a copy. Only for codes that [`rows_valid`]
/// accepted.
fn as_cards(codes: &[u8]) -> &[Card] {
    debug_assert!(codes.iter().all(|&c| usize::from(c) < Card::STANDARD));
    // SAFETY: `Card` is `#[repr(transparent)]` over `u8` (src/cards.rs), so
    // `[u8]` and `[Card]` of one length have the same size, alignment and
    // layout, and the result borrows `codes` for its own lifetime. Every
    // byte was checked below 52 by `rows_valid` (the callers' only path
    // here), so each is a card the library itself makes with
    // `Card::from_index`: no `Card` outside its invariant can exist. The
    // pytest `test_evaluate_many_equals_evaluate` and the test below hold
    // the result equal to the safe `Card::from_index` conversion.
    unsafe { std::slice::from_raw_parts(codes.as_ptr().cast::<Card>(), codes.len()) }
}

/// Strengths of the hands in `codes` (rows of `width` card codes, 5 to 7),
/// checked first, a block at a time: the evaluator's tables assume distinct
/// standard cards. The checked rows are read in place as cards; seven-card
/// rows go through the batch evaluator. Blocks are shared among the current
/// rayon pool's threads; the answer never depends on how many.
fn strengths(codes: &[u8], width: usize) -> Result<Vec<Strength>, String> {
    let n = codes.len() / width;
    let mut out = vec![0; n];
    let t = tables();
    let block = |(rows, outs): (&[u8], &mut [Strength])| {
        if !rows_valid(rows, width) {
            return false;
        }
        let cards = as_cards(rows);
        if width == 7 {
            strengths_of_sevens(t, cards.as_chunks::<7>().0, outs);
        } else {
            for (row, o) in cards.chunks_exact(width).zip(outs) {
                *o = t.strength(row.iter().fold(Hand::EMPTY, |h, &c| h.with(c)));
            }
        }
        true
    };
    // One block needs no threads (waking them costs more than a few hands).
    let all_valid = if n <= BLOCK {
        block((codes, &mut out[..]))
    } else {
        codes
            .par_chunks(width * BLOCK)
            .zip(out.par_chunks_mut(BLOCK))
            .all(block)
    };
    if !all_valid {
        // Name the first bad row, whichever block a thread found first.
        return Err(first_bad_row(codes, width, 0));
    }
    Ok(out)
}

/// Seconds the library's batch evaluator alone takes on these 7-card rows
/// (no checks, no Python): the reference `python/bench/bench.py` holds
/// `evaluate_many` against, measured in the same process and moment.
#[pyfunction]
fn batch_seconds(py: Python<'_>, codes: PyReadonlyArray2<'_, u8>) -> PyResult<f64> {
    let slice = codes
        .as_slice()
        .map_err(|_| PyValueError::new_err("the card array must be C-contiguous"))?;
    if codes.shape()[1] != 7 || !rows_valid(slice, 7) {
        return Err(PyValueError::new_err("expected valid 7-card rows"));
    }
    let hands: Vec<[Card; 7]> = as_cards(slice).as_chunks::<7>().0.to_vec();
    let mut out = vec![0; hands.len()];
    let t = tables();
    Ok(py.detach(|| {
        let start = std::time::Instant::now();
        strengths_of_sevens(t, &hands, &mut out);
        start.elapsed().as_secs_f64()
    }))
}

/// `evaluate_many(codes)`: a C-contiguous `uint8` array of shape (n, 5|6|7)
/// to a `uint16` array of n strengths. The input is read in place and the
/// output vector becomes the NumPy array without a copy; the GIL is
/// released while the hands are evaluated.
#[pyfunction]
#[pyo3(signature = (codes, threads=None))]
fn evaluate_many<'py>(
    py: Python<'py>,
    codes: PyReadonlyArray2<'py, u8>,
    threads: Option<usize>,
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
    let pool = match threads {
        None => None,
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
        Some(k) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(k)
                .build()
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?,
        ),
    };
    let out = py
        .detach(|| match &pool {
            Some(pool) => pool.install(|| strengths(slice, width)),
            None => strengths(slice, width),
        })
        .map_err(PyValueError::new_err)?;
    Ok(PyArray1::from_vec(py, out))
}

/// Parses a command line (the words after `cardsim`) as the binary does
/// (`cli::parse_from`: negative numbers reach their options' checks); a
/// usage error becomes a `ValueError` with the binary's one line, less its
/// `; usage: ...` tail: that would show the command line this package
/// built (`--json`, `--embedded`, output paths), not the Python call.
fn parse_command(args: Vec<String>) -> PyResult<Cli> {
    cli::parse_from(std::iter::once("cardsim".to_string()).chain(args)).map_err(|e| {
        let line = cli::usage_line(&e.render().to_string());
        let what = line.split("; usage: ").next().unwrap_or(&line);
        PyValueError::new_err(what.to_string())
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
    let mut line = format!("{e:#}").replace(['\n', '\r'], " ");
    // A game that failed (an agent's bad answer) in a run of `simulate`:
    // its private directory goes with the error, so the line's tail about
    // the checkpoint kept there and `--resume` does not apply.
    let failed = e.chain().any(|c| {
        matches!(
            c.downcast_ref::<cardsim::sim::runner::RunError>(),
            Some(cardsim::sim::runner::RunError::GameFailed(_))
        )
    });
    if let Some(cut) = line.find("; kept ").filter(|_| failed) {
        line.truncate(cut);
    }
    if bad {
        PyValueError::new_err(line)
    } else {
        PyRuntimeError::new_err(line)
    }
}

/// `cardsim equity ARGS --json` without a process: the JSON text. A
/// Ctrl-C stops the enumeration or the sampling within milliseconds and
/// raises `KeyboardInterrupt` (see [`interrupt::run`]).
#[pyfunction]
fn equity_json(py: Python<'_>, args: Vec<String>) -> PyResult<String> {
    let cli = parse_command(args)?;
    let Command::Equity(args) = cli.command else {
        return Err(PyValueError::new_err("not an equity command"));
    };
    let cancel = Cancel::new();
    let value = interrupt::run(py, &cancel, || {
        cli::equity::json_cancellable(&args, cancel.flag())
    })?
    .map_err(to_py_error)?;
    Ok(value.to_string())
}

/// Runs a simulating command line (`fishing ...`, `holdem ...`,
/// `tienlen ...`, `solve --games ...`) in this process with the GIL
/// released. The caller adds `--embedded` (no signal handlers) and the
/// output paths. A Ctrl-C stops the run within a chunk of games and raises
/// `KeyboardInterrupt` (see [`interrupt::run`]); the outputs written so far
/// are left for the caller to remove.
///
/// `agents`: `(name, callable)` pairs, Python agents of a `holdem` run that
/// `--agents` names (docs/agents.md); an exception one of them raises ends
/// the run and is raised again as the cause of an `AgentError`.
#[pyfunction]
#[pyo3(signature = (args, agents=None))]
fn run_command(
    py: Python<'_>,
    args: Vec<String>,
    agents: Option<Vec<(String, Py<PyAny>)>>,
) -> PyResult<()> {
    let mut cli = parse_command(args)?;
    let agents = agents.filter(|a| !a.is_empty()).map(agent::Agents::new);
    if let Some(agents) = &agents {
        match &mut cli.command {
            Command::Holdem(a) => a.external = agents.specs(),
            _ => return Err(PyValueError::new_err("Python agents play holdem only")),
        }
    }
    let sim = match &mut cli.command {
        Command::Fishing(a) => &mut a.sim,
        Command::Holdem(a) => &mut a.sim,
        Command::Tienlen(a) => &mut a.play.sim,
        Command::Solve(a) => &mut a.sim,
        _ => return Err(PyValueError::new_err("not a simulating command")),
    };
    let cancel = Cancel::new();
    sim.cancel = Some(cancel.clone());
    let result = interrupt::run(py, &cancel, || cli::run(cli))?;
    if let (Err(e), Some(agents)) = (&result, &agents) {
        let failed = e.chain().find_map(|c| match c.downcast_ref() {
            Some(cardsim::sim::runner::RunError::GameFailed(line)) => Some(line.as_str()),
            _ => None,
        });
        if let Some(raised) = failed.and_then(|line| agents.raise(py, line)) {
            return Err(raised);
        }
    }
    result.map_err(to_py_error)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_many, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(format, m)?)?;
    m.add_function(wrap_pyfunction!(equity_json, m)?)?;
    m.add_function(wrap_pyfunction!(run_command, m)?)?;
    m.add_function(wrap_pyfunction!(batch_seconds, m)?)?;
    m.add("DEFAULT_SEED", cli::sim_args::DEFAULT_SEED)?;
    m.add_class::<hand::PyHand>()?;
    m.add_class::<agent::View>()?;
    m.add_class::<agent::Legal>()?;
    m.add("AgentError", m.py().get_type::<agent::AgentError>())?;
    m.add("IllegalAction", m.py().get_type::<hand::IllegalAction>())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `as_cards` is the safe conversion, card for card, on every code; and
    /// the checked batch equals the library's evaluator on every width,
    /// refusing a repeat or a code past 51 by row.
    #[test]
    fn cards_in_place_equal_the_safe_conversion() {
        let codes: Vec<u8> = (0..52).collect();
        let safe: Vec<Card> = codes.iter().map(|&c| Card::from_index(c)).collect();
        assert_eq!(as_cards(&codes), &safe[..]);
        let mut rows = Vec::new();
        let mut x = 7u64;
        while rows.len() < 7 * 5000 {
            let mut row: Vec<u8> = Vec::new();
            while row.len() < 7 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let c = ((x >> 33) % 52) as u8;
                if !row.contains(&c) {
                    row.push(c);
                }
            }
            rows.extend(row);
        }
        for width in 5..=7 {
            let r: Vec<u8> = rows
                .chunks_exact(7)
                .flat_map(|h| h[..width].to_vec())
                .collect();
            let got = strengths(&r, width).unwrap();
            for (h, s) in r.chunks_exact(width).zip(got) {
                let cards: Vec<Card> = h.iter().map(|&c| Card::from_index(c)).collect();
                assert_eq!(s, cardsim::holdem::eval::evaluate(&cards));
            }
        }
        let mut bad = rows[..7 * 10].to_vec();
        bad[7 * 3 + 4] = 52;
        assert_eq!(
            strengths(&bad, 7).unwrap_err(),
            "row 3: card code 52 is out of range (0..51)"
        );
        bad[7 * 3 + 4] = bad[7 * 3];
        assert!(strengths(&bad, 7).unwrap_err().starts_with("row 3: card '"));
    }
}
