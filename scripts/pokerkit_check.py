#!/usr/bin/env python3
"""Replays PHH hand histories written by cardsim in PokerKit, strictly, and
compares the finishing stacks.

Usage:
  cargo run --release --example holdem_random_hands -- 10000 1 pokerkit > hands.phhs
  python3 scripts/pokerkit_check.py hands.phhs [more.phh DIR ...]

Arguments are .phh files (one hand), .phhs files (many) or directories of
them. Variants: NT (NoLimitTexasHoldem), NS (NoLimitShortDeckHoldem) and PO
(PotLimitOmahaHoldem; a PO hand of five or six hole cards is played by that
class with five or six hole dealings, its only change). Every hand is created in PokerKit from its PHH fields and every action
string goes through pokerkit.notation.parse_action, one at a time, with
warnings turned into errors (never the lenient `for state in hand_history`
loop, which repairs what it can; the one step added is the burn card before
each board deal, which PHH does not record, as PokerKit's reader does). After the last action PokerKit's hand must
be over and its stacks must equal the file's finishing_stacks (cardsim's).

The hands must be played with PokerKit's switches (odd chips to the first
winner, a short big blind matched only as posted: `cardsim holdem
--pokerkit`, or the example's `pokerkit` argument). One rule differs on
purpose and is counted apart: RULES.md's cumulative rule (short all-ins that
add up to a full raise reopen the betting), which PokerKit does not apply.
Exit status 1 when any hand disagrees.
"""

import os
import sys
import warnings

from pokerkit import (
    Automation,
    HandHistory,
    NoLimitShortDeckHoldem,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
)
from pokerkit.notation import parse_action

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class PotLimitOmaha5(PotLimitOmahaHoldem):
    """Pot-limit Omaha dealing five hole cards (PLO5)."""

    hole_dealing_count = 5


class PotLimitOmaha6(PotLimitOmahaHoldem):
    """Pot-limit Omaha dealing six hole cards (PLO6)."""

    hole_dealing_count = 6


def game_class(hh):
    """PokerKit's class for the hand's variant (and Omaha hand size)."""
    if hh.variant == "NT":
        return NoLimitTexasHoldem
    if hh.variant == "NS":
        return NoLimitShortDeckHoldem
    if hh.variant == "PO":
        deal = next(a for a in hh.actions if a.startswith("d dh p1 "))
        cards = len(deal.split()[3]) // 2
        return {4: PotLimitOmahaHoldem, 5: PotLimitOmaha5, 6: PotLimitOmaha6}[cards]
    raise AssertionError(f"variant {hh.variant!r} is not checked here")


class CumulativeRule(Exception):
    """cardsim reopened the betting by the cumulative rule; PokerKit refuses."""


def replay(hh):
    n = len(hh.starting_stacks)
    state = game_class(hh).create_state(
        AUTOMATIONS,
        hh.ante_trimming_status,
        hh.antes,
        hh.blinds_or_straddles,
        hh.min_bet,
        hh.starting_stacks,
        n,
    )
    for index, action in enumerate(hh.actions):
        try:
            # PHH records no burn cards; PokerKit's own reader burns an
            # unknown card before each board deal, and so does this.
            if action.startswith("d db") and state.can_burn_card():
                state.burn_card("??")
            parse_action(state, action)
        except ValueError as e:
            if "cannot raise in face of a non-full all-in wager" in str(e):
                raise CumulativeRule() from e
            raise AssertionError(f"action {index} {action!r}: {type(e).__name__}: {e}") from e
        except Exception as e:
            raise AssertionError(f"action {index} {action!r}: {type(e).__name__}: {e}") from e
    if state.status:
        raise AssertionError("PokerKit's hand is not over after the last action")
    if list(state.stacks) != list(hh.finishing_stacks):
        raise AssertionError(
            f"finishing stacks: cardsim {list(hh.finishing_stacks)}, PokerKit {list(state.stacks)}"
        )


def files(args):
    for a in args:
        if os.path.isdir(a):
            for name in sorted(os.listdir(a)):
                if name.endswith((".phh", ".phhs")):
                    yield os.path.join(a, name)
        else:
            yield a


def hands(path):
    with open(path, "rb") as f:
        if path.endswith(".phhs"):
            for k, hh in enumerate(HandHistory.load_all(f)):
                yield f"{path}[{k + 1}]", hh
        else:
            yield path, HandHistory.load(f)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    warnings.simplefilter("error")
    total = failures = cumulative = 0
    for path in files(sys.argv[1:]):
        for name, hh in hands(path):
            total += 1
            try:
                replay(hh)
            except CumulativeRule:
                cumulative += 1
            except Exception as e:  # report every kind of disagreement
                failures += 1
                if failures <= 10:
                    print(f"{name} (hand {hh.hand}): {e}", file=sys.stderr)
    print(f"{total} hands replayed in PokerKit, {failures} disagreements")
    print(f"{cumulative} hands stopped where cardsim reopened betting by the cumulative rule")
    sys.exit(1 if failures or total == 0 else 0)


if __name__ == "__main__":
    main()
