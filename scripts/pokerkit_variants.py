#!/usr/bin/env python3
"""Writes random Omaha and short-deck hands with PokerKit's evaluation of each,
the fixture cardsim's evaluators are tested against (tests/suite/variants_eval.rs).

    python3 scripts/pokerkit_variants.py > tests/fixtures/variants/pokerkit_hands.txt

Each line: GAME HOLE BOARD INDEX, where GAME is plo4, plo5, plo6 or shortdeck,
HOLE and BOARD are cards written together (AsKd...), and INDEX is the index of
PokerKit's lookup entry for the best hand (higher wins, equal ties):
OmahaHoldemHand.from_game for Omaha, ShortDeckHoldemHand.from_game (the PHH
variant NS) for short deck. Seeded, so the same PokerKit writes the same file.
"""

import random
import sys

from pokerkit import OmahaHoldemHand, ShortDeckHoldemHand

RANKS = "23456789TJQKA"
SUITS = "shdc"


def deck(lowest):
    return [r + s for r in RANKS[RANKS.index(lowest):] for s in SUITS]


def main():
    rng = random.Random(28)
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
    from importlib.metadata import version
    print(f"# written by scripts/pokerkit_variants.py with PokerKit {version('pokerkit')}")
    for game, holes, lowest, kind in [
        ("plo4", 4, "2", OmahaHoldemHand),
        ("plo5", 5, "2", OmahaHoldemHand),
        ("plo6", 6, "2", OmahaHoldemHand),
        ("shortdeck", 2, "6", ShortDeckHoldemHand),
    ]:
        cards = deck(lowest)
        for i in range(count):
            if game != "shortdeck" and i % 3 == 0:
                # Flush-heavy deals: two suits only.
                pool = [c for c in cards if c[1] in "sh"]
            else:
                pool = cards
            dealt = rng.sample(pool, holes + 5)
            hole, board = "".join(dealt[:holes]), "".join(dealt[holes:])
            hand = kind.from_game(hole, board)
            print(game, hole, board, hand.entry.index)


if __name__ == "__main__":
    main()
