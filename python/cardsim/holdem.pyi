from typing import Any, Dict, List, Optional, Tuple

class IllegalAction(ValueError): ...

class Hand:
    def __init__(
        self,
        stacks: List[int],
        blinds: Tuple[int, int] = (1, 2),
        antes: int = 0,
        button: int = 0,
        deck: Optional[str] = None,
        seed: int = ...,
        odd_chips: str = "left_of_button",
        short_big_blind: str = "full_blind",
        ante_trimming: bool = True,
        variant: str = "nlhe",
        betting: Optional[str] = None,
    ) -> None: ...
    @staticmethod
    def from_phh(text: str) -> "Hand": ...
    def legal(self) -> Optional[Dict[str, Any]]: ...
    def apply(self, action: str, to: Optional[int] = None) -> None: ...
    variant: str
    betting: str
    to_act: Optional[int]
    street: str
    is_over: bool
    board: str
    button: int
    stacks: List[int]
    bets: List[int]
    contributed: List[int]
    folded: List[bool]
    starting_stacks: List[int]
    history: List[Tuple[int, str, Optional[int]]]
    def hole(self, seat: int) -> str: ...
    def view(self, seat: int) -> Dict[str, Any]: ...
    def pots(self) -> List[Tuple[int, List[int]]]: ...
    def payouts(self) -> Optional[List[int]]: ...
    def to_phh(self) -> str: ...
