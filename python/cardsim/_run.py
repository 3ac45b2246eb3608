"""``simulate``: a seeded run of a game through the library's runner, exactly
as the CLI runs it, with its per-game rows as Arrow record batches.

How: the options become the CLI's command line, parsed by the CLI's own
parser and run by its own code in this process (with the GIL released and
without the CLI's signal handlers). The runner writes its CSV and JSON
summary into a private temporary directory, deleted with the :class:`Run`;
pyarrow's CSV reader parses the CSV with explicit column types (integers as
``int64``, empty cells as nulls). So the rows are, by construction, the
CLI's rows, and ``iter_batches`` streams them from disk for runs too big for
memory.
"""

from __future__ import annotations

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

# Columns that are not integers, by name or name prefix; every other column
# is int64. The test suite checks every column of every game against the
# CLI's CSV, so a new non-integer column fails there until it is named here.
_STRING_COLUMNS: Dict[str, set] = {
    "fishing": {"outcome"},
    "holdem": {"street", "winning_category", "allin_street"},
    "tienlen": set(),
    "solve": {"hand_a", "hand_b", "winner", "winning_first_moves"},
}
_FLOAT_PREFIXES = {"holdem": ("equity_s", "ev_net_s")}


def _column_kind(game: str, name: str) -> str:
    if name in _STRING_COLUMNS[game]:
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


def _arrow_types(game: str, columns: List[str]) -> Dict[str, Any]:
    import pyarrow as pa

    kinds = {"string": pa.string(), "float64": pa.float64(), "int64": pa.int64()}
    return {c: kinds[_column_kind(game, c)] for c in columns}


class Run:
    """A finished simulation: ``summary`` (the runner's JSON summary as a
    dict, its ``command`` being this run's CLI arguments rather than the
    Python process's), ``command`` (the equivalent ``cardsim`` command line)
    and the per-game rows through :meth:`to_arrow`, :meth:`to_pandas` and
    :meth:`iter_batches`. A run cannot be stopped by Ctrl-C while it plays
    (the interpreter's handler runs when it returns): shard long runs.
    """

    def __init__(self, game: str, cli_args: List[str], directory: str) -> None:
        self.game = game
        self.args = cli_args
        self._dir = directory
        self._csv = os.path.join(directory, "games.csv")
        self._cleanup = weakref.finalize(self, shutil.rmtree, directory, True)
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

    def _read_options(self, block_size: Optional[int] = None):
        import pyarrow.csv as pcsv

        read = pcsv.ReadOptions(block_size=block_size) if block_size else pcsv.ReadOptions()
        convert = pcsv.ConvertOptions(
            column_types=_arrow_types(self.game, self.columns),
            strings_can_be_null=True,
            null_values=[""],
        )
        return read, convert

    def to_arrow(self):
        """The per-game rows as a ``pyarrow.Table``: the CLI's CSV columns and
        values, integers as ``int64``, empty cells as nulls."""
        import pyarrow.csv as pcsv

        read, convert = self._read_options()
        return pcsv.read_csv(self._csv, read_options=read, convert_options=convert)

    def to_pandas(self):
        """The per-game rows as a ``pandas.DataFrame`` (via Arrow; integer
        columns with nulls become pandas' nullable ``Int64``)."""
        import pandas as pd

        return self.to_arrow().to_pandas(types_mapper={
            __import__("pyarrow").int64(): pd.Int64Dtype(),
        }.get)

    def iter_batches(self, rows: int = 65536) -> Iterator[Any]:
        """Streams the rows as ``pyarrow.RecordBatch`` es of at most ``rows``
        rows each, reading the CSV a block at a time: memory stays bounded
        whatever the size of the run."""
        import pyarrow as pa
        import pyarrow.csv as pcsv

        if isinstance(rows, bool) or not isinstance(rows, int) or rows < 1:
            raise ValueError(f"rows must be a positive int, got {rows!r}")
        read, convert = self._read_options(block_size=1 << 20)
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
    for key, value in options.items():
        args += _option_words(key, value)
    directory = tempfile.mkdtemp(prefix="cardsim-run-")
    try:
        _native.run_command(args + [
            "--quiet",
            "--embedded",
            "--out",
            os.path.join(directory, "games.csv"),
            "--summary",
            os.path.join(directory, "summary.json"),
        ])
        return Run(game, args, directory)
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise
