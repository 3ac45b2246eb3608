#!/usr/bin/env python3
"""How fast PokerKit plays the hands `cardsim holdem` plays: 6-max no-limit
hold'em, blinds 1/2, 100 big blinds, random agents (uniform over fold,
check/call and raise, raise sizes uniform over the legal range), every
dealing and payout step automated. One process, one core.

Usage: python3 scripts/pokerkit_speed.py [HANDS]   (default 5000)
Prints hands per second; compare with `cardsim holdem --hands 1000000
--agents random -j 1 --allin-trials 0`.
"""

import random
import sys
import time

from pokerkit import Automation, NoLimitTexasHoldem

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


def play(rng):
    state = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2, (200,) * 6, 6)
    while state.status:
        if state.actor_index is None:
            raise AssertionError("nothing to do but the hand is not over")
        kinds = ["cc"]
        if state.can_fold():
            kinds.append("f")
        if state.can_complete_bet_or_raise_to():
            kinds.append("cbr")
        kind = rng.choice(kinds)
        if kind == "f":
            state.fold()
        elif kind == "cc":
            state.check_or_call()
        else:
            lo = state.min_completion_betting_or_raising_to_amount
            hi = state.max_completion_betting_or_raising_to_amount
            state.complete_bet_or_raise_to(rng.randint(lo, hi))


def main():
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(hands):
        play(rng)
    wall = time.perf_counter() - start
    print(f"PokerKit: {hands} 6-max hands of random agents in {wall:.2f} s: {hands / wall:.0f} hands/s (one core)")


if __name__ == "__main__":
    main()
