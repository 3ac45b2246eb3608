"""``simulate``: a seeded run of a game through the library's runner, exactly
as the CLI runs it, with its per-game rows as Arrow record batches.

How: the options become the CLI's command line, parsed by the CLI's own
parser and run by its own code in this process (with the GIL released and
without the CLI's signal handlers: Ctrl-C raises ``KeyboardInterrupt`` in
the caller, see ``python/src/interrupt.rs``). The runner writes its CSV and
JSON summary into a private temporary directory, deleted with the
:class:`Run`; pyarrow's CSV reader parses the CSV with explicit column types
(integers as ``int64``, empty cells as nulls). So the rows are, by
construction, the CLI's rows, and ``iter_batches`` streams them from disk
for runs too big for memory.

Temporary directories: ``cardsim-run-<pid>-<random>`` in
:func:`tempfile.gettempdir`, holding a file ``owner`` with the process's pid
and start time. Such a directory is removed when its run fails or is
interrupted, when its :class:`Run` is collected and when the interpreter
exits; a process killed outright (SIGKILL, a crash) cannot remove its own,
so every :func:`simulate` first removes those whose process is gone.
"""

from __future__ import annotations

import importlib
import json
import os
import shlex
import shutil
import tempfile
import weakref
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from . import _native

# The command of each game (words after ``cardsim``).
_COMMANDS: Dict[str, List[str]] = {
    "fishing": ["fishing"],
    "holdem": ["holdem"],
    "tienlen": ["tienlen"],
    "solve": ["solve"],
}

# Options simulate() sets itself: the outputs it reads back.
_RESERVED = {"out", "summary", "resume", "quiet", "progress", "embedded", "checkpoint_every"}

# Seconds between the runner's resume checkpoints: never, in effect. A run
# from Python is never resumed (its directory goes on failure), so the syncs
# a checkpoint costs would buy nothing.
_NO_CHECKPOINTS = "100000000"

# The start of every run directory's name; the owning process's pid follows.
_DIR_PREFIX = "cardsim-run-"
# The file in a run directory naming its owner: "<pid> <start time>".
_OWNER_FILE = "owner"

# The modules each extra of pyproject.toml brings, for the ImportError that
# names them (tests/test_extras.py holds the two equal).
_EXTRA_MODULES = {"arrow": "pyarrow", "pandas": "pandas pyarrow"}


def _optional(module: str, needed_by: str, extra: str = "arrow") -> Any:
    """Imports ``module`` (pyarrow, pandas) or says how to install it: they come
    with extras of the package (pyproject.toml: ``arrow`` brings pyarrow,
    ``pandas`` brings pandas and pyarrow), not as dependencies. ``needed_by``
    names the method that needs it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        top = module.split(".")[0]
        raise ModuleNotFoundError(
            f"{needed_by} needs {top}, which is not installed. Install cardsim's "
            f"'{extra}' extra: pip install 'cardsim[{extra}]' (from a checkout of the "
            f"cardsim repository: pip install './python[{extra}]'), or what it "
            f"brings: pip install {_EXTRA_MODULES[extra]}",
            name=top,
        ) from e


def _process_start(pid: int) -> Optional[str]:
    """The start time of process ``pid`` in clock ticks since boot (Linux's
    /proc), telling a reused pid from the process that made a directory;
    ``None`` where that cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            stat = f.read()
    except OSError:
        return None
    # Fields after the command name, which is in parentheses and may hold
    # spaces; the start time is field 22, the 20th after the name.
    fields = stat[stat.rfind(")") + 2:].split()
    return fields[19] if len(fields) > 19 else None


def _is_alive(pid: int, start: Optional[str]) -> bool:
    """Whether the process that wrote ``pid`` and ``start`` (``None`` when
    unknown) still runs. In doubt, yes: a live run's directory must never be
    taken away."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, owned by someone else
    return start is None or _process_start(pid) in (None, start)


def _owner_of(entry: os.DirEntry) -> Optional[Tuple[int, Optional[str]]]:
    """The pid (from the name) and start time (from the owner file) of a run
    directory, or ``None`` when ``entry`` is not one."""
    digits = entry.name[len(_DIR_PREFIX):].split("-", 1)[0]
    if not entry.name.startswith(_DIR_PREFIX) or not digits.isdigit():
        return None
    try:
        with open(os.path.join(entry.path, _OWNER_FILE), encoding="ascii") as f:
            words = f.read().split()
    except (OSError, UnicodeDecodeError):
        # Not written yet (its process is making it) or lost: the pid alone.
        words = []
    start = words[1] if len(words) > 1 and words[0] == digits else None
    return int(digits), start


def remove_stale_runs(directory: Optional[str] = None) -> List[str]:
    """Removes the run directories (in ``directory``, by default the system's
    temporary directory) whose process is gone: those of processes killed
    while they held a :class:`Run`. Another user's, and any whose process
    still runs, are kept. Returns the paths removed."""
    directory = directory or tempfile.gettempdir()
    removed = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    uid = os.getuid() if hasattr(os, "getuid") else None
    for entry in entries:
        owner = _owner_of(entry)
        if owner is None or owner[0] == os.getpid():
            continue
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
            if uid is not None and entry.stat(follow_symlinks=False).st_uid != uid:
                continue
        except OSError:
            continue
        if not _is_alive(*owner):
            shutil.rmtree(entry.path, ignore_errors=True)
            if not os.path.lexists(entry.path):
                removed.append(entry.path)
    return removed


def _make_run_directory() -> str:
    """A new run directory owned by this process (see the module doc)."""
    pid = os.getpid()
    directory = tempfile.mkdtemp(prefix=f"{_DIR_PREFIX}{pid}-")
    try:
        with open(os.path.join(directory, _OWNER_FILE), "w", encoding="ascii") as f:
            f.write(f"{pid} {_process_start(pid) or ''}\n")
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise
    return directory


def _remove_own(directory: str, pid: int) -> None:
    """Removes a run's directory, but only in the process that made it: a
    forked child exiting must not take its parent's runs away."""
    if os.getpid() == pid:
        shutil.rmtree(directory, ignore_errors=True)


# Columns that are not integers, by name or name prefix; every other column
# is int64. The test suite checks every column of every game against the
# CLI's CSV, so a new non-integer column fails there until it is named here.
_STRING_COLUMNS: Dict[str, set] = {
    "fishing": {"outcome"},
    "holdem": {"street", "winning_category", "allin_street", "board"},
    "tienlen": set(),
    "solve": {"hand_a", "hand_b", "winner", "winning_first_moves"},
}
_STRING_PREFIXES = {"holdem": ("hole_s",)}
_FLOAT_PREFIXES = {"holdem": ("equity_s", "ev_net_s", "agent_")}


def _column_kind(game: str, name: str) -> str:
    if name in _STRING_COLUMNS[game] or name.startswith(_STRING_PREFIXES.get(game, ())):
        return "string"
    if name.startswith(_FLOAT_PREFIXES.get(game, ())):
        return "float64"
    return "int64"


def _option_words(key: str, value: Any) -> List[str]:
    flag = "--" + key.replace("_", "-")
    if value is None or value is False:
        return []
    if value is True:
        return [flag]
    if isinstance(value, (list, tuple)):
        value = ",".join(str(v) for v in value)
    return [flag, str(value)]


def _shard_word(shard: Union[str, Tuple[int, int]]) -> str:
    if isinstance(shard, str):
        return shard
    if isinstance(shard, tuple) and len(shard) == 2:
        return f"{shard[0]}/{shard[1]}"
    raise TypeError("shard must be 'K/N' or a (K, N) tuple")


def _arrow_types(game: str, columns: List[str], needed_by: str, extra: str) -> Dict[str, Any]:
    pa = _optional("pyarrow", needed_by, extra)

    kinds = {"string": pa.string(), "float64": pa.float64(), "int64": pa.int64()}
    return {c: kinds[_column_kind(game, c)] for c in columns}


class Run:
    """A finished simulation: ``summary`` (the runner's JSON summary as a
    dict, its ``command`` being this run's CLI arguments rather than the
    Python process's), ``command`` (the equivalent ``cardsim`` command line)
    and the per-game rows through :meth:`to_arrow`, :meth:`to_pandas` and
    :meth:`iter_batches` (which need the ``arrow`` extra, pyarrow, and
    ``to_pandas`` the ``pandas`` extra: ``pip install 'cardsim[pandas]'``).
    The rows live in a temporary directory until the run is collected or the
    interpreter exits.
    """

    def __init__(self, game: str, cli_args: List[str], directory: str) -> None:
        self.game = game
        self.args = cli_args
        self._dir = directory
        self._csv = os.path.join(directory, "games.csv")
        self._cleanup = weakref.finalize(self, _remove_own, directory, os.getpid())
        with open(os.path.join(directory, "summary.json"), encoding="utf-8") as f:
            self.summary: Dict[str, Any] = json.load(f)
        # The run's own command line, as the CLI records it.
        self.summary["command"] = list(cli_args)
        with open(self._csv, encoding="utf-8") as f:
            self.columns: List[str] = f.readline().rstrip("\r\n").split(",")

    @property
    def command(self) -> str:
        """The ``cardsim`` command line that gives the same rows and summary."""
        return "cardsim " + shlex.join(self.args)

    def __repr__(self) -> str:
        return f"<cardsim.Run {self.command!r}>"

    def _read_options(self, needed_by: str, extra: str = "arrow",
                      block_size: Optional[int] = None):
        pcsv = _optional("pyarrow.csv", needed_by, extra)
        read = pcsv.ReadOptions(block_size=block_size) if block_size else pcsv.ReadOptions()
        convert = pcsv.ConvertOptions(
            column_types=_arrow_types(self.game, self.columns, needed_by, extra),
            strings_can_be_null=True,
            null_values=[""],
        )
        return read, convert

    def to_arrow(self):
        """The per-game rows as a ``pyarrow.Table``: the CLI's CSV columns and
        values, integers as ``int64``, empty cells as nulls. Needs pyarrow
        (the ``arrow`` extra)."""
        return self._read_table("Run.to_arrow()")

    def _read_table(self, needed_by: str, extra: str = "arrow"):
        pcsv = _optional("pyarrow.csv", needed_by, extra)
        read, convert = self._read_options(needed_by, extra)
        return pcsv.read_csv(self._csv, read_options=read, convert_options=convert)

    def to_pandas(self):
        """The per-game rows as a ``pandas.DataFrame`` (via Arrow; integer
        columns with nulls become pandas' nullable ``Int64``). Needs pandas
        and pyarrow (the ``pandas`` extra: ``pip install 'cardsim[pandas]'``)."""
        pd = _optional("pandas", "Run.to_pandas()", extra="pandas")
        pa = _optional("pyarrow", "Run.to_pandas()", extra="pandas")
        table = self._read_table("Run.to_pandas()", extra="pandas")
        return table.to_pandas(types_mapper={pa.int64(): pd.Int64Dtype()}.get)

    def iter_batches(self, rows: int = 65536) -> Iterator[Any]:
        """Streams the rows as ``pyarrow.RecordBatch`` es of at most ``rows``
        rows each, reading the CSV a block at a time: memory stays bounded
        whatever the size of the run. Needs pyarrow (the ``arrow`` extra)."""
        if isinstance(rows, bool) or not isinstance(rows, int) or rows < 1:
            raise ValueError(f"rows must be a positive int, got {rows!r}")
        pa = _optional("pyarrow", "Run.iter_batches()")
        pcsv = _optional("pyarrow.csv", "Run.iter_batches()")
        read, convert = self._read_options("Run.iter_batches()", block_size=1 << 20)
        reader = pcsv.open_csv(self._csv, read_options=read, convert_options=convert)
        pending: List[pa.RecordBatch] = []
        held = 0
        for batch in reader:
            pending.append(batch)
            held += batch.num_rows
            while held >= rows:
                table = pa.Table.from_batches(pending)
                yield from table.slice(0, rows).combine_chunks().to_batches()
                rest = table.slice(rows)
                pending = rest.to_batches()
                held = rest.num_rows
        if held:
            yield from pa.Table.from_batches(pending).combine_chunks().to_batches()


def _agent_name(agent: Any) -> str:
    """The name of a Python agent in ``--agents``: ``python:`` and its
    function's (or class's) name, letters, digits, ``_``, ``.``, ``<`` and
    ``>`` kept."""
    name = getattr(agent, "__name__", None) or type(agent).__name__
    kept = "".join(c if c.isalnum() or c in "_.<>" else "_" for c in name)
    return "python:" + (kept or "agent")


def _python_agents(game: str, options: Dict[str, Any]) -> Tuple[Dict[str, Any], List[Tuple[str, Any]]]:
    """Replaces the Python agents in ``options["agents"]`` (callables taking
    a view, or objects with an ``act(view)`` method) by their names, and
    returns the options with the ``(name, callable)`` pairs. The same object
    twice is one agent (one name); two objects of one name are told apart
    by ``#2``, ``#3``, ..."""
    agents = options.get("agents")
    if agents is None or isinstance(agents, str):
        return options, []
    if not isinstance(agents, (list, tuple)):
        agents = [agents]
    words: List[str] = []
    pairs: List[Tuple[str, Any]] = []
    names: Dict[int, str] = {}
    for agent in agents:
        if isinstance(agent, str):
            words.append(agent)
            continue
        act = getattr(agent, "act", None)
        func = act if callable(act) and not isinstance(agent, type) else agent
        if not callable(func):
            raise TypeError(
                f"an agent is a name (str), a function taking a view, or an object with "
                f"an act(view) method, not {type(agent).__name__}")
        if game != "holdem":
            raise ValueError("Python agents play holdem only")
        if id(agent) not in names:
            base = _agent_name(agent)
            name, k = base, 1
            taken = {n for n, _ in pairs}
            while name in taken:
                k += 1
                name = f"{base}#{k}"
            names[id(agent)] = name
            pairs.append((name, func))
        words.append(names[id(agent)])
    return {**options, "agents": words}, pairs


def simulate(
    game: str,
    *,
    games: int,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[Union[str, Tuple[int, int]]] = None,
    **options: Any,
) -> Run:
    """Runs ``games`` seeded games of ``game`` (``"fishing"``, ``"holdem"``,
    ``"tienlen"`` or ``"solve"``) exactly as the CLI does, and returns a
    :class:`Run`.

    ``options`` are the CLI's flags of that game with ``_`` for ``-``:
    ``True`` gives a switch, lists are joined with commas
    (``agents=["tag", "random"]``), ``None`` and ``False`` are left out. Row i
    is a pure function of (seed, i, options): ``threads`` never changes the
    result, and ``shard=(k, n)`` runs games [k*games/n, (k+1)*games/n). Bad
    options raise ``ValueError`` with the CLI's message.

    In ``holdem``, ``agents`` may hold agents of your own: a function taking
    a :class:`cardsim.View` and returning an action (``"f"``, ``"cc"``,
    ``"cbr 300"``) or a ``dict`` of actions to probabilities, which cardsim
    draws from (``{"cc": 0.7, "cbr 300": 0.3}``), or an object with an
    ``act(view)`` method. They play in the runner like the built-ins
    (docs/agents.md, "Python agents"); one that raises ends the run with
    :class:`cardsim.AgentError`.

    >>> import cardsim
    >>> calls = cardsim.simulate("holdem", games=200, seed=1, players=3,
    ...                          agents=[lambda view: "cc", "tag", "random"])
    >>> calls.summary["options"]["agents"]
    'python:<lambda>,tag,random'

    Ctrl-C stops the run within a fraction of a second and raises
    ``KeyboardInterrupt``, its temporary directory removed (as on any
    error). Before it starts, the directories of runs whose process was
    killed are removed (``cardsim._run.remove_stale_runs``).

    >>> import cardsim
    >>> run = cardsim.simulate("fishing", games=1000, seed=7, players=3)
    >>> run.summary["games"]
    1000
    >>> run.to_arrow().num_rows
    1000
    """
    if game not in _COMMANDS:
        raise ValueError(f"unknown game '{game}': expected one of {', '.join(_COMMANDS)}")
    for key in options:
        if key in _RESERVED:
            raise TypeError(f"simulate() sets --{key.replace('_', '-')} itself")
    if isinstance(games, bool) or not isinstance(games, int):
        raise TypeError(f"games must be an int, not {type(games).__name__}")
    args = list(_COMMANDS[game]) + ["--games", str(games)]
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        args += ["--seed", str(seed)]
    if threads is not None:
        if isinstance(threads, bool) or not isinstance(threads, int):
            raise TypeError(f"threads must be an int, not {type(threads).__name__}")
        args += ["--threads", str(threads)]
    if shard is not None:
        args += ["--shard", _shard_word(shard)]
    options, agents = _python_agents(game, options)
    for key, value in options.items():
        args += _option_words(key, value)
    remove_stale_runs()
    directory = _make_run_directory()
    try:
        _native.run_command(args + [
            "--quiet",
            "--embedded",
            "--checkpoint-every",
            _NO_CHECKPOINTS,
            "--out",
            os.path.join(directory, "games.csv"),
            "--summary",
            os.path.join(directory, "summary.json"),
        ], agents)
        return Run(game, args, directory)
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise
