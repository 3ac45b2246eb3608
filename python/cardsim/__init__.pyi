"""Type stubs of cardsim (see the module's docstrings for examples)."""

from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import holdem as holdem

DEFAULT_SEED: int
CATEGORIES: Tuple[str, ...]

class Evaluation(NamedTuple):
    strength: int
    category: str
    name: str
    best: str

def evaluate(hand: str) -> Evaluation: ...
def evaluate_many(cards: npt.ArrayLike, threads: Optional[int] = None) -> npt.NDArray[np.uint16]: ...
def categories(strengths: npt.ArrayLike) -> npt.NDArray[np.uint8]: ...
def encode(cards: str) -> npt.NDArray[np.uint8]: ...
def decode(codes: npt.ArrayLike) -> str: ...

class PlayerEquity:
    hands: str
    equity: float
    win: float
    tie: float
    stderr: Optional[float]

class EquityResult:
    method: str
    trials: Optional[int]
    seed: Optional[int]
    boards: Optional[int]
    seconds: float
    players: List[PlayerEquity]
    game: str
    @property
    def exact(self) -> bool: ...
    def to_dict(self) -> Dict[str, Any]: ...

def equity(
    players: Sequence[str],
    board: Union[str, Sequence[str]] = "",
    dead: Union[str, Sequence[str]] = "",
    exact: Optional[bool] = None,
    trials: Optional[int] = None,
    stderr: Optional[float] = None,
    seed: int = ...,
    threads: Optional[int] = None,
    time: Optional[float] = None,
    game: str = "holdem",
) -> EquityResult: ...

class AgentError(RuntimeError): ...

class Legal:
    fold: bool
    to_call: int
    min_raise_to: Optional[int]
    max_raise_to: Optional[int]

class View:
    hand: int
    seed: int
    seat: int
    players: int
    button: int
    small_blind: int
    big_blind: int
    ante: int
    variant: str
    street: str
    hole: str
    board: str
    pot: int
    stacks: List[int]
    bets: List[int]
    contributed: List[int]
    folded: List[bool]
    legal: Legal
    actions: List[str]
    def random(self) -> float: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Run:
    game: str
    args: List[str]
    summary: Dict[str, Any]
    columns: List[str]
    @property
    def command(self) -> str: ...
    def to_arrow(self) -> Any: ...
    def to_pandas(self) -> Any: ...
    def iter_batches(self, rows: int = 65536) -> Iterator[Any]: ...

def simulate(
    game: str,
    *,
    games: int,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    shard: Optional[Union[str, Tuple[int, int]]] = None,
    **options: Any,
) -> Run: ...
