"""One no-limit hold'em hand as an object, on cardsim's table engine: the
same rules and switches as ``cardsim holdem`` (docs/rules.md). ``variant=``
deals another game by the CLI's ``--variant`` names (``"plo4"``, ``"plo5"``,
``"plo6"``: pot-limit Omaha; ``"shortdeck"``), ``betting=`` (``"no_limit"``
or ``"pot_limit"``) overrides its betting.

Seats are numbered from 0; the small blind sits left of the button (heads-up
the button posts it). ``legal()`` gives the options of the seat to act with
the smallest and largest raise-to; ``apply`` takes ``"fold"``, ``"check"``,
``"call"`` or ``"raise"`` with ``to=`` (the total bet on this street) and
raises :class:`IllegalAction` (a ``ValueError``), leaving the hand unchanged,
for anything the rules do not allow. The switches ``odd_chips`` and
``short_big_blind`` are the CLI's (``"first_winner"`` and ``"posted"`` are
PokerKit's behaviour).

>>> from cardsim.holdem import Hand, IllegalAction
>>> h = Hand(stacks=[200, 200, 200], blinds=(1, 2), button=0, seed=7)
>>> h.to_act, h.legal()["raise_min"], h.legal()["raise_max"]
(0, 4, 200)
>>> h.apply("check")
Traceback (most recent call last):
...
cardsim.holdem.IllegalAction: seat 0 cannot check: 2 to call
>>> h.apply("raise", to=6); h.apply("fold"); h.apply("fold")
>>> h.is_over, h.payouts(), h.stacks
(True, [5, 0, 0], [203, 199, 198])
>>> Hand.from_phh(h.to_phh()).payouts()
[0, 0, 5]
>>> o = Hand(stacks=[200, 200], variant="plo4", seed=3)
>>> o.variant, o.betting, len(o.hole(0).split()), o.legal()["raise_max"]
('plo4', 'pot_limit', 4, 6)
"""

from ._native import Hand, IllegalAction

__all__ = ["Hand", "IllegalAction"]
