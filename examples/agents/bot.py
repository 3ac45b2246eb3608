#!/usr/bin/env python3
"""An exec: agent for cardsim holdem, standard library only.

    cardsim holdem --players 3 --agents "exec:'python3 examples/agents/bot.py',tag,station"

cardsim writes one JSON object a line on standard input: first a hello
({"protocol": 1, ...}), answered with {"protocol": 1, "name": ...}; then one
view per decision (the fields are documented in docs/agents.md), answered
with one action a line: "f", "cc" or "cbr AMOUNT" (raise TO amount).
Anything written to standard error goes to cardsim's standard error.

The strategy, as an example: preflop, raise pairs and two broadway cards to
three big blinds (call a raise with them), check or fold the rest; after
the flop, bet half the pot with a pair or better using a hole card, call a
bet of at most a third of the pot with one, else check or fold.
With the argument "cc" it checks or calls, always (the station).
With the argument "mix" it plays the same strategy unsure of itself: it
answers with probabilities (a mixed answer, a JSON object of actions), its
action three times in four and another one time in four, and cardsim draws
the action; with --corrections, cardsim then takes the luck of each draw
out of the estimate.
"""
import json
import random
import sys

RANKS = "23456789TJQKA"


def rank(card):
    return RANKS.index(card[0])


def cards(text):
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def decide(view, rng):
    legal = view["legal"]
    hole = cards(view["hole"])
    board = cards(view["board"])

    def check_or_fold():
        return "f" if legal["fold"] else "cc"

    def raise_to(amount):
        if legal["min_raise_to"] is None:
            return "cc"
        amount = max(legal["min_raise_to"], min(amount, legal["max_raise_to"]))
        return f"cbr {amount}"

    if view["street"] == "preflop":
        strong = hole[0][0] == hole[1][0] or min(rank(c) for c in hole) >= RANKS.index("T")
        if not strong:
            return check_or_fold()
        if legal["to_call"] <= view["big_blind"] - view["bets"][view["seat"] - 1]:
            return raise_to(3 * view["big_blind"])
        return "cc"
    paired = any(h[0] == b[0] for h in hole for b in board) or hole[0][0] == hole[1][0]
    if paired:
        if legal["to_call"] == 0:
            # Bet half the pot, now and then a little more (seeded: the
            # view's seed makes every run of the same --seed alike).
            extra = 1.0 + 0.25 * rng.random()
            return raise_to(max(view["bets"]) + int(view["pot"] * 0.5 * extra))
        if legal["to_call"] * 3 <= view["pot"]:
            return "cc"
    return check_or_fold()


def unsure(view, rng):
    """The strategy's action with probability 3/4, else the other choice:
    check or call instead of folding or raising, the smallest raise (when
    one is allowed) instead of a check or call. A JSON object of actions to
    probabilities, which cardsim draws from."""
    action = decide(view, rng)
    low = view["legal"]["min_raise_to"]
    if action != "cc":
        other = "cc"
    elif low is not None:
        other = f"cbr {low}"
    else:
        return json.dumps({"cc": 1})
    if other == action:
        return json.dumps({action: 1})
    return json.dumps({action: 0.75, other: 0.25})


def main():
    always_cc = sys.argv[1:] == ["cc"]
    mixed = sys.argv[1:] == ["mix"]
    out = sys.stdout
    hello = json.loads(sys.stdin.readline())
    if hello.get("protocol") != 1:
        sys.exit(f"bot.py speaks protocol 1, not {hello.get('protocol')}")
    out.write(json.dumps({"protocol": 1, "name": "example bot"}) + "\n")
    out.flush()
    for line in sys.stdin:
        if always_cc:
            out.write("cc\n")  # no need to read the view
        else:
            view = json.loads(line)
            # A generator of this decision's own: the same draws in every run.
            rng = random.Random(view["seed"] * 1000 + len(view["actions"]))
            out.write((unsure if mixed else decide)(view, rng) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
