"""cardsim from Python: the engines of the ``cardsim`` command line, with the
same seeds and the same answers.

- :func:`evaluate` and :func:`evaluate_many`: hold'em hand strength (1 to 7462,
  higher wins, equal ties), one hand from text or millions from a NumPy array.
- :func:`equity`: equity of 2 to 10 hands or ranges, exact or Monte Carlo,
  equal to ``cardsim equity ... --json``.
- :func:`simulate`: a seeded simulation (fishing, holdem, tienlen, solve)
  returning a :class:`Run` whose rows are the CLI's CSV as an Arrow table.
- :class:`cardsim.holdem.Hand`: one no-limit hold'em hand on the table
  engine, one decision at a time.

Card codes
----------
A card is one byte, ``rank * 4 + suit``: ranks 0 (deuce) to 12 (ace), suits
0 to 3 in the order ``s h d c``. So ``2s`` is 0, ``2c`` is 3, ``As`` is 48 and
``Ac`` is 51: the library's own card encoding (``src/cards.rs``).
:func:`encode` and :func:`decode` convert between codes and notation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

__all__ = [
    "AgentError",
    "CATEGORIES",
    "DEFAULT_SEED",
    "Evaluation",
    "EquityResult",
    "PlayerEquity",
    "Run",
    "View",
    "categories",
    "decode",
    "encode",
    "equity",
    "evaluate",
    "evaluate_many",
    "simulate",
]

#: The seed the CLI uses when ``--seed`` is not given.
DEFAULT_SEED: int = _native.DEFAULT_SEED

#: Category keys, weakest first (``categories()`` returns indices into this).
CATEGORIES: Tuple[str, ...] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)

# The highest strength of each category: strengths of a category are
# contiguous (1277 high cards, 2860 pairs, ...; 7462 in all).
_CATEGORY_TOPS = np.cumsum([1277, 2860, 858, 858, 10, 1277, 156, 156, 10]).astype(np.uint16)


class Evaluation(NamedTuple):
    """A hand's value: ``strength`` (1 to 7462, higher wins, equal ties),
    ``category`` (a key of :data:`CATEGORIES`), ``name`` (as players say it)
    and ``best`` (the best five cards, in notation)."""

    strength: int
    category: str
    name: str
    best: str


def evaluate(hand: str) -> Evaluation:
    """Strength, category and best five cards of a 5-, 6- or 7-card hand.

    The same as ``cardsim eval HAND``; bad cards raise ``ValueError`` with the
    CLI's message.

    >>> import cardsim
    >>> e = cardsim.evaluate("As Ks Qs Js Ts 2c 3d")
    >>> (e.strength, e.category, e.best)
    (7462, 'straight_flush', 'As Ks Qs Js Ts')
    """
    if not isinstance(hand, str):
        raise TypeError(f"hand must be a str such as 'As Ks Qs Js Ts', not {type(hand).__name__}")
    return Evaluation._make(_native.evaluate(hand))


def evaluate_many(cards: Any, threads: Optional[int] = None) -> np.ndarray:
    """Strengths of many hands at once: an integer array of shape (n, 5), (n, 6)
    or (n, 7) of card codes (see the module doc) to a ``uint16`` array of n
    strengths, each equal to :func:`evaluate`'s.

    A C-contiguous ``uint8`` array is read in place; other integer arrays are
    checked and converted first. The GIL is released while the hands are
    evaluated (7-card hands by the library's batch evaluator), on every core
    unless ``threads`` says how many; the answer never depends on it. A code
    past 51 or a card twice in a row raises ``ValueError`` naming the first
    such row.

    >>> import numpy as np, cardsim
    >>> hands = np.array([cardsim.encode("As Ks Qs Js Ts 2c 3d"),
    ...                   cardsim.encode("2s 3h 4d 5c 7s 9h Jd")], dtype=np.uint8)
    >>> cardsim.evaluate_many(hands)
    array([7462,  ...], dtype=uint16)
    """
    a = np.asarray(cards)
    if a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"card codes must be an integer array, not {a.dtype}")
    if a.ndim != 2:
        raise ValueError(f"expected an array of shape (n, 5|6|7), got shape {a.shape}")
    if a.dtype != np.uint8:
        if a.size and (a.min() < 0 or a.max() > 51):
            bad = int(a.min()) if a.min() < 0 else int(a.max())
            raise ValueError(f"card code {bad} is out of range (0..51)")
        a = a.astype(np.uint8)
    if threads is not None:
        _int_arg("threads", threads)
    return _native.evaluate_many(np.ascontiguousarray(a), threads)


def categories(strengths: Any) -> np.ndarray:
    """Category index (into :data:`CATEGORIES`) of each strength, vectorised.

    >>> import cardsim
    >>> cardsim.CATEGORIES[int(cardsim.categories([7462])[0])]
    'straight_flush'
    """
    s = np.asarray(strengths)
    return np.searchsorted(_CATEGORY_TOPS, s, side="left").astype(np.uint8)


def encode(cards: str) -> np.ndarray:
    """Card codes (``uint8``) of cards in notation; repeats are refused.

    >>> import cardsim
    >>> cardsim.encode("2s 2c As Ac").tolist()
    [0, 3, 48, 51]
    """
    return np.frombuffer(_native.parse(cards), dtype=np.uint8).copy()


def decode(codes: Any) -> str:
    """Notation of card codes.

    >>> import cardsim
    >>> cardsim.decode([51, 45])
    'Ac Kh'
    """
    return _native.format([int(c) for c in np.asarray(codes).ravel()])


# ---------------------------------------------------------------- equity


@dataclass(frozen=True)
class PlayerEquity:
    """One player's share: ``equity`` (wins plus split shares), ``win`` and
    ``tie`` probabilities, and the Monte Carlo standard error of the equity
    (``None`` when exact)."""

    hands: str
    equity: float
    win: float
    tie: float
    stderr: Optional[float]


@dataclass(frozen=True)
class EquityResult:
    """What :func:`equity` found: ``exact`` or Monte Carlo (``trials`` with
    ``seed``), the ``boards`` enumerated per combination when exact,
    ``seconds`` taken, and one :class:`PlayerEquity` per player."""

    method: str
    trials: Optional[int]
    seed: Optional[int]
    boards: Optional[int]
    seconds: float
    players: List[PlayerEquity]
    #: ``holdem``, ``plo4``, ``plo5``, ``plo6`` or ``shortdeck``.
    game: str = "holdem"

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def to_dict(self) -> Dict[str, Any]:
        """The object ``cardsim equity ... --json`` prints (``game`` only for
        a game other than hold'em, as the CLI writes it)."""
        d = {
            "method": self.method,
            "trials": self.trials,
            "seed": self.seed,
            "boards": self.boards,
            "seconds": self.seconds,
            "players": [p.__dict__.copy() for p in self.players],
        }
        if self.game != "holdem":
            d["game"] = self.game
        return d


def _int_arg(name: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return str(int(value))


def _real_arg(name: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    return repr(float(value))


def _cards_arg(name: str, value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(c, str) for c in value):
        return " ".join(value)
    raise TypeError(f"{name} must be a str of cards such as 'Ah 7d 2c', not {type(value).__name__}")


def equity(
    players: Sequence[str],
    board: Union[str, Sequence[str]] = "",
    dead: Union[str, Sequence[str]] = "",
    exact: Optional[bool] = None,
    trials: Optional[int] = None,
    stderr: Optional[float] = None,
    seed: int = DEFAULT_SEED,
    threads: Optional[int] = None,
    time: Optional[float] = None,
    game: str = "holdem",
) -> EquityResult:
    """Equity of 2 to 10 hold'em hands or ranges: ``cardsim equity`` from Python.

    ``game`` is ``"holdem"`` (default), ``"plo4"``, ``"plo5"``, ``"plo6"``
    (Omaha: hands of 4 to 6 cards, lists with weights or ``"random"``) or
    ``"shortdeck"`` (6+ hold'em), as ``cardsim equity --game``.

    ``players`` are hole cards (``"AhAs"``) or ranges (``"QQ+,AKs"``,
    ``"random"``, weights as ``"T9s:0.5"``). With none of ``exact``,
    ``trials``, ``stderr`` or ``time``, the CLI's default: exact when that is
    cheap, else Monte Carlo to a standard error of 0.0005. ``exact=True`` forces
    enumeration; ``trials=N`` and ``stderr=E`` are Monte Carlo with ``seed``
    (the answer never depends on ``threads``). The numbers equal
    ``cardsim equity ... --json`` for the same arguments; bad input raises
    ``ValueError`` with the CLI's one-line message. Ctrl-C stops a long
    enumeration or sampling within a fraction of a second and raises
    ``KeyboardInterrupt``.

    >>> import cardsim
    >>> r = cardsim.equity(["AsAh", "KsKd"])
    >>> r.exact, round(r.players[0].equity, 4)
    (True, 0.8195)
    """
    if isinstance(players, str) or not all(isinstance(p, str) for p in players):
        raise TypeError("players must be a list of hands or ranges, e.g. ['QQ+,AKs', 'random']")
    if not isinstance(game, str):
        raise TypeError(f"game must be a str, not {type(game).__name__}")
    args = ["equity", "--board", _cards_arg("board", board), "--dead", _cards_arg("dead", dead)]
    if game != "holdem":
        args += ["--game", game]
    if exact:
        args.append("--exact")
    if trials is not None:
        args += ["--trials", _int_arg("trials", trials)]
    if stderr is not None:
        args += ["--stderr", _real_arg("stderr", stderr)]
    if time is not None:
        args += ["--time", _real_arg("time", time)]
    args += ["--seed", _int_arg("seed", seed)]
    if threads is not None:
        args += ["--threads", _int_arg("threads", threads)]
    # "--" so that a range can never be read as a flag.
    args += ["--json", "--", *players]
    d = json.loads(_native.equity_json(args))
    return EquityResult(
        method=d["method"],
        trials=d["trials"],
        seed=d["seed"],
        boards=d["boards"],
        seconds=d["seconds"],
        players=[PlayerEquity(**p) for p in d["players"]],
        game=d.get("game", "holdem"),
    )


# ---------------------------------------------------------------- simulate

from ._run import Run, simulate  # noqa: E402

#: Raised by :func:`simulate` when a Python agent raises: names the hand and
#: seat; the agent's own exception (with its traceback) is its ``__cause__``.
AgentError = _native.AgentError
#: What a Python agent gets at each decision (docs/agents.md, "The view").
View = _native.View
from . import holdem  # noqa: E402
