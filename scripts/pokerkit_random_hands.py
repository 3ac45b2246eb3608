#!/usr/bin/env python3
"""Random hands played by PokerKit, written as PHH for cardsim to replay.

Usage:
  python3 scripts/pokerkit_random_hands.py VARIANT COUNT SEED > hands.phhs
  cardsim replay --check --pokerkit hands.phhs

VARIANT is NT (no-limit hold'em), PO (pot-limit Omaha, four hole cards),
PO5 and PO6 (pot-limit Omaha of five and six hole cards: PokerKit's
PotLimitOmahaHoldem with more hole dealings, written as 'PO') or NS
(no-limit short deck). Each hand is a random table (2 to 6 players, stacks
of 1 to 40 big blinds with many short ones, antes or not, for NS sometimes a
button blind in place of the two blinds, either ante_trimming_status)
where PokerKit deals and every decision is a uniformly random legal one
(fold, check or call, or a raise to a random amount between PokerKit's
minimum and maximum, the maximum, the pot at pot limit, one time in three).
The finishing stacks are PokerKit's. Seeded: the same PokerKit writes the
same file.
"""

import io
import random
import sys

from pokerkit import (
    Automation,
    HandHistory,
    NoLimitShortDeckHoldem,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
)

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
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


GAMES = {
    "NT": NoLimitTexasHoldem,
    "PO": PotLimitOmahaHoldem,
    "PO5": PotLimitOmaha5,
    "PO6": PotLimitOmaha6,
    "NS": NoLimitShortDeckHoldem,
}

# PHH writes the PLO5 and PLO6 classes under the variant code 'PO'.
HandHistory.variants = {**HandHistory.variants, PotLimitOmaha5: "PO", PotLimitOmaha6: "PO"}


def table(rng, variant):
    """Random forced bets and stacks: (trimming, antes, blinds, min_bet, stacks)."""
    most = {"PO5": 6, "PO6": 5}.get(variant, 6)
    n = rng.randint(2, most)
    bb = rng.randint(2, 20)
    ante = rng.randint(1, bb) if rng.random() < 0.3 else 0
    if variant == "NS" and rng.random() < 0.4:
        # Short deck's usual forced bets: an ante from each and a button blind.
        ante = max(ante, 1)
        blinds = [0] * (n - 1) + [bb]
    else:
        blinds = [bb // 2, bb] + [0] * (n - 2)
    stacks = [
        rng.randint(1, ante + bb) if rng.random() < 0.2 else rng.randint(1, 40 * bb)
        for _ in range(n)
    ]
    return rng.random() < 0.5, ante, blinds, bb, stacks


def play(rng, variant):
    trimming, ante, blinds, min_bet, stacks = table(rng, variant)
    game = GAMES[variant](AUTOMATIONS, trimming, ante, blinds, min_bet)
    state = game(stacks, len(stacks))
    while state.status:
        options = []
        if state.can_fold():
            options.append("f")
        if state.can_check_or_call():
            options += ["c", "c"]
        if state.can_complete_bet_or_raise_to():
            options.append("r")
        choice = rng.choice(options)
        if choice == "f":
            state.fold()
        elif choice == "c":
            state.check_or_call()
        else:
            lo = state.min_completion_betting_or_raising_to_amount
            hi = state.max_completion_betting_or_raising_to_amount
            state.complete_bet_or_raise_to(hi if rng.random() < 1 / 3 else rng.randint(lo, hi))
    hh = HandHistory.from_game_state(game, state)
    # from_game_state writes the game's default, not the state's trimming.
    hh.ante_trimming_status = trimming
    hh.finishing_stacks = list(state.stacks)
    return hh


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in GAMES:
        sys.exit(__doc__)
    variant, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    # PokerKit shuffles its deck with the module's generator.
    random.seed(seed)
    out = sys.stdout
    for k in range(count):
        hh = play(rng, variant)
        hh.hand = k
        buf = io.BytesIO()
        hh.dump(buf)
        out.write(f"[{k + 1}]\n{buf.getvalue().decode()}\n")


if __name__ == "__main__":
    main()
