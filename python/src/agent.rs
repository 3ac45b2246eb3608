//! Python agents in the runner: `simulate("holdem", agents=[my_agent, "tag"])`.
//!
//! A Python agent is an external agent ([`External`]) whose sessions call
//! the function with the GIL held, one decision at a time, from whichever
//! worker thread plays the hand. The function gets a [`View`]: the
//! library's [`AgentView`], turned into Python values only for the fields
//! it reads (so an agent that reads little costs little), and answers a PHH
//! action as a string, or a `dict` of actions to probabilities (a mixed
//! answer, which the game draws from), parsed and checked as any agent's.
//!
//! An exception in the function ends the run: the session keeps it (with
//! the hand and seat) and [`Agents::raise`] raises it again in the caller,
//! as the cause of an `AgentError` naming the hand and seat.

use std::sync::{Arc, Mutex};

use cardsim::holdem::agents::mixed::mix_json;
use cardsim::holdem::agents::{AgentSpec, AgentView, External, LegalView, Session};
use cardsim::rng::{game_rng, GameRng};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use rand::RngExt;

pyo3::create_exception!(
    cardsim,
    AgentError,
    PyRuntimeError,
    "A Python agent raised: its exception is this one's __cause__."
);

/// Salt of the generator behind `View.random()`.
const RANDOM_SALT: u64 = 0x7079_5f72_616e_646f; // "py_rando"

/// The exceptions the agents of one run raised: (where, exception).
type Raised = Arc<Mutex<Vec<(String, PyErr)>>>;

/// One Python function (or object's `act` method) playing seats.
struct PyAgent {
    spec: String,
    func: Arc<Py<PyAny>>,
    raised: Raised,
}

struct PySession {
    spec_text: String,
    func: Arc<Py<PyAny>>,
    raised: Raised,
    /// This worker thread's Python thread state, kept between decisions.
    kept: Option<KeptThreadState>,
}

/// A Python thread state kept for a worker thread while its session lives.
/// Without it, each decision's `Python::attach` on a thread Python does not
/// know would make a thread state and delete it again (most of the cost of
/// a decision); with it, a decision only takes and releases the GIL.
struct KeptThreadState {
    thread: std::thread::ThreadId,
    gstate: pyo3::ffi::PyGILState_STATE,
    tstate: *mut pyo3::ffi::PyThreadState,
}

// SAFETY: the pointer is only used on the thread that made it (checked
// against `thread` before use); elsewhere the state is left to Python.
unsafe impl Send for KeptThreadState {}

impl KeptThreadState {
    /// Keeps a thread state for the calling thread, which must not hold
    /// the GIL.
    fn new() -> KeptThreadState {
        // SAFETY: the calling thread does not hold the GIL (sessions are
        // asked from the runner's workers, which never do); `Ensure` makes
        // a thread state and takes the GIL, `SaveThread` releases it and
        // leaves the state to this thread until `drop`.
        unsafe {
            let gstate = pyo3::ffi::PyGILState_Ensure();
            let tstate = pyo3::ffi::PyEval_SaveThread();
            KeptThreadState {
                thread: std::thread::current().id(),
                gstate,
                tstate,
            }
        }
    }
}

impl Drop for KeptThreadState {
    fn drop(&mut self) {
        if std::thread::current().id() != self.thread {
            return; // not this thread's: left for Python to clean up
        }
        // SAFETY: the state `new` kept on this thread, which does not hold
        // the GIL now (no `attach` is running): take the GIL back with it,
        // then let `Release` delete the state and release the GIL.
        unsafe {
            pyo3::ffi::PyEval_RestoreThread(self.tstate);
            pyo3::ffi::PyGILState_Release(self.gstate);
        }
    }
}

impl External for PyAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn name(&self) -> &'static str {
        "python"
    }

    fn session(&self) -> Result<Box<dyn Session>, String> {
        Ok(Box::new(PySession {
            spec_text: self.spec.clone(),
            func: Arc::clone(&self.func),
            raised: Arc::clone(&self.raised),
            kept: None,
        }))
    }

    fn give_back(&self, _session: Box<dyn Session>) {}
}

/// A `dict` of actions to probabilities as the mixed answer's text, which
/// the game reads and checks as an `exec:` program's; one line if a key is
/// not a string or a value not a number.
fn mixed_answer(mixed: &Bound<'_, PyDict>) -> Result<String, String> {
    let mut pairs: Vec<(String, f64)> = Vec::with_capacity(mixed.len());
    for (key, value) in mixed.iter() {
        let action: String = key.extract().map_err(|_| {
            format!(
                "returned a dict with the key {}, not an action string",
                short_repr(&key)
            )
        })?;
        let p: f64 = value.extract().map_err(|_| {
            format!(
                "returned a dict whose probability of '{action}' is {}, not a number",
                short_repr(&value)
            )
        })?;
        pairs.push((action, p));
    }
    Ok(mix_json(pairs.iter().map(|(a, p)| (a.as_str(), *p))))
}

/// At most 60 characters of a value's `repr`, for an error line.
fn short_repr(value: &Bound<'_, PyAny>) -> String {
    let shown = value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into());
    shown.chars().take(60).collect()
}

impl Session for PySession {
    fn act(&mut self, view: &AgentView) -> Result<String, String> {
        let here = std::thread::current().id();
        if self.kept.as_ref().is_none_or(|k| k.thread != here) {
            self.kept = Some(KeptThreadState::new());
        }
        Python::attach(|py| {
            let (hand, seat) = (view.hand, view.seat);
            let result = Bound::new(py, View::new(view.clone()))
                .and_then(|v| self.func.bind(py).call1((v,)));
            let answer = match result {
                Ok(answer) => answer,
                Err(e) => {
                    let line = e.to_string().replace(['\n', '\r'], " ");
                    let why = format!("raised {line}");
                    let place = format!("hand {hand}, seat {seat} ({})", self.spec_text);
                    if let Ok(mut raised) = self.raised.lock() {
                        raised.push((place, e));
                    }
                    return Err(why);
                }
            };
            if let Ok(mixed) = answer.cast::<PyDict>() {
                return mixed_answer(mixed);
            }
            match answer.cast::<PyString>() {
                Ok(s) => s
                    .to_cow()
                    .map(|c| c.into_owned())
                    .map_err(|e| e.to_string()),
                Err(_) => Err(format!(
                    "returned {}, not a string (expected 'f', 'cc' or 'cbr AMOUNT') nor a dict of them to probabilities",
                    short_repr(&answer)
                )),
            }
        })
    }
}

/// The agents of one `simulate` call, by the names `--agents` gives them.
pub struct Agents {
    specs: Vec<(String, AgentSpec)>,
    raised: Raised,
}

impl Agents {
    /// `(name, callable)` pairs: each callable is called with a [`View`]
    /// and answers an action string.
    pub fn new(pairs: Vec<(String, Py<PyAny>)>) -> Agents {
        let raised: Raised = Arc::default();
        let specs = pairs
            .into_iter()
            .map(|(name, func)| {
                let agent = PyAgent {
                    spec: name.clone(),
                    func: Arc::new(func),
                    raised: Arc::clone(&raised),
                };
                (name, AgentSpec::External(Arc::new(agent)))
            })
            .collect();
        Agents { specs, raised }
    }

    pub fn specs(&self) -> Vec<(String, AgentSpec)> {
        self.specs.clone()
    }

    /// The exception behind the run's error line `failed` (which starts
    /// with the hand, seat and agent of the decision that failed), as the
    /// cause of an `AgentError` naming them; `None` when no Python agent
    /// raised there (another agent's bad answer ended the run first).
    pub fn raise(&self, py: Python<'_>, failed: &str) -> Option<PyErr> {
        let mut raised = self.raised.lock().ok()?;
        let k = (0..raised.len()).find(|&k| failed.starts_with(&format!("{}: ", raised[k].0)))?;
        let (place, cause) = raised.swap_remove(k);
        let line = cause.to_string().replace(['\n', '\r'], " ");
        let err = AgentError::new_err(format!("{place}: raised {line}"));
        err.set_cause(py, Some(cause));
        Some(err)
    }
}

/// What the seat to act sees (docs/agents.md, "The view"): the fields of
/// the JSON object an `exec:` program reads, as attributes. `to_dict()`
/// gives that object; `random()` draws from a generator seeded by the hand.
#[pyclass(module = "cardsim", name = "View")]
pub struct View {
    view: AgentView,
    rng: Option<GameRng>,
}

impl View {
    fn new(view: AgentView) -> View {
        View { view, rng: None }
    }
}

/// What the seat to act may answer (`View.legal`).
#[pyclass(module = "cardsim", name = "Legal", frozen, get_all)]
pub struct Legal {
    /// `"f"` is legal.
    fold: bool,
    /// The chips `"cc"` adds (0: it checks).
    to_call: u64,
    /// The smallest total `"cbr AMOUNT"` may raise to (`None`: no raise).
    min_raise_to: Option<u64>,
    /// The largest (all-in).
    max_raise_to: Option<u64>,
}

impl From<LegalView> for Legal {
    fn from(l: LegalView) -> Legal {
        Legal {
            fold: l.fold,
            to_call: l.to_call,
            min_raise_to: l.min_raise_to,
            max_raise_to: l.max_raise_to,
        }
    }
}

#[pymethods]
impl Legal {
    fn __repr__(&self) -> String {
        let opt = |v: Option<u64>| v.map_or("None".to_string(), |v| v.to_string());
        format!(
            "Legal(fold={}, to_call={}, min_raise_to={}, max_raise_to={})",
            if self.fold { "True" } else { "False" },
            self.to_call,
            opt(self.min_raise_to),
            opt(self.max_raise_to)
        )
    }
}

#[pymethods]
impl View {
    #[getter]
    fn hand(&self) -> u64 {
        self.view.hand
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.view.seed
    }
    #[getter]
    fn seat(&self) -> usize {
        self.view.seat
    }
    #[getter]
    fn players(&self) -> usize {
        self.view.players
    }
    #[getter]
    fn button(&self) -> usize {
        self.view.button
    }
    #[getter]
    fn small_blind(&self) -> u64 {
        self.view.small_blind
    }
    #[getter]
    fn big_blind(&self) -> u64 {
        self.view.big_blind
    }
    #[getter]
    fn ante(&self) -> u64 {
        self.view.ante
    }
    #[getter]
    fn variant(&self) -> &str {
        &self.view.variant
    }
    #[getter]
    fn street(&self) -> &str {
        &self.view.street
    }
    #[getter]
    fn hole(&self) -> &str {
        &self.view.hole
    }
    #[getter]
    fn board(&self) -> &str {
        &self.view.board
    }
    #[getter]
    fn pot(&self) -> u64 {
        self.view.pot
    }
    #[getter]
    fn stacks(&self) -> Vec<u64> {
        self.view.stacks.clone()
    }
    #[getter]
    fn bets(&self) -> Vec<u64> {
        self.view.bets.clone()
    }
    #[getter]
    fn contributed(&self) -> Vec<u64> {
        self.view.contributed.clone()
    }
    #[getter]
    fn folded(&self) -> Vec<bool> {
        self.view.folded.clone()
    }
    #[getter]
    fn legal(&self) -> Legal {
        self.view.legal.into()
    }
    #[getter]
    fn actions(&self) -> Vec<String> {
        self.view.actions.clone()
    }

    /// A float in [0, 1) from a generator of this decision's own, seeded by
    /// the hand's `seed` and the decision: the same draws in every run of
    /// the same seed, whatever the threads.
    fn random(&mut self) -> f64 {
        let (seed, k) = (self.view.seed, self.view.actions.len() as u64);
        self.rng
            .get_or_insert_with(|| game_rng(seed ^ RANDOM_SALT, k))
            .random::<f64>()
    }

    /// The view as the dictionary of the JSON object an `exec:` program
    /// reads (`legal` a dictionary too).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let v = &self.view;
        let d = PyDict::new(py);
        d.set_item("hand", v.hand)?;
        d.set_item("seed", v.seed)?;
        d.set_item("seat", v.seat)?;
        d.set_item("players", v.players)?;
        d.set_item("button", v.button)?;
        d.set_item("small_blind", v.small_blind)?;
        d.set_item("big_blind", v.big_blind)?;
        d.set_item("ante", v.ante)?;
        d.set_item("variant", &v.variant)?;
        d.set_item("street", &v.street)?;
        d.set_item("hole", &v.hole)?;
        d.set_item("board", &v.board)?;
        d.set_item("pot", v.pot)?;
        d.set_item("stacks", PyList::new(py, &v.stacks)?)?;
        d.set_item("bets", PyList::new(py, &v.bets)?)?;
        d.set_item("contributed", PyList::new(py, &v.contributed)?)?;
        d.set_item("folded", PyList::new(py, &v.folded)?)?;
        let legal = PyDict::new(py);
        legal.set_item("fold", v.legal.fold)?;
        legal.set_item("to_call", v.legal.to_call)?;
        legal.set_item("min_raise_to", v.legal.min_raise_to)?;
        legal.set_item("max_raise_to", v.legal.max_raise_to)?;
        d.set_item("legal", legal)?;
        d.set_item("actions", PyList::new(py, &v.actions)?)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "View(hand={}, seat={}, street={:?}, hole={:?}, board={:?}, pot={}, legal={})",
            self.view.hand,
            self.view.seat,
            self.view.street,
            self.view.hole,
            self.view.board,
            self.view.pot,
            self.view.legal
        )
    }
}
