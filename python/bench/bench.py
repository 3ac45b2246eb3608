#!/usr/bin/env python3
"""cardsim from Python against eval7, treys, phevaluator and PokerKit, in one
run on one machine: single-hand evaluate call overhead, evaluate_many
throughput, AKs vs QQ equity (exact and Monte Carlo), and random-agent
hold'em hands.

Usage (in a venv with cardsim installed and `pip install eval7 treys
phevaluator pokerkit`):
    python python/bench/bench.py            # the full run (a few minutes)
    python python/bench/bench.py --quick    # smaller sizes, a smoke test

Each timing is the median of several rounds (--rounds). The slow libraries
run on fewer items and are reported per item, as rates. Figures depend on
the machine and on what else runs on it: say so with them.
"""

import argparse
import random
import statistics
import time

import numpy as np

import cardsim


def timed(f, rounds):
    """Median wall time of `rounds` calls of f()."""
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def random_hands(n, seed=1):
    rng = np.random.default_rng(seed)
    out = np.empty((n, 7), dtype=np.uint8)
    step = 1_000_000
    for i in range(0, n, step):
        m = min(step, n - i)
        out[i:i + m] = np.argsort(rng.random((m, 52)), axis=1)[:, :7]
    return out


def row(name, value, unit, note=""):
    print(f"| {name} | {value} {unit} | {note} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    q = args.quick
    rounds = 2 if q else args.rounds

    print("| what | figure | notes |")
    print("| --- | --- | --- |")

    # --- single-hand evaluate: per-call cost, 7 cards
    hands = random_hands(20_000, seed=2)
    names = [cardsim.decode(h) for h in hands]
    k = 2_000 if q else 20_000

    def per_call(f, items):
        return timed(lambda: [f(x) for x in items[:k]], rounds) / k * 1e9

    row("cardsim.evaluate(str), one 7-card hand per call",
        f"{per_call(cardsim.evaluate, names):.0f}", "ns/call", "parses the text too")
    one_rows = [h.reshape(1, 7) for h in hands]
    row("cardsim.evaluate_many on a (1, 7) array per call",
        f"{per_call(cardsim.evaluate_many, one_rows):.0f}", "ns/call", "")
    try:
        import eval7
        deck = [eval7.Card(c) for c in cardsim.decode(range(52)).split()]
        e7 = [[deck[c] for c in h] for h in hands.tolist()]
        row("eval7.evaluate(list of 7 Cards)", f"{per_call(eval7.evaluate, e7):.0f}", "ns/call",
            "cards built beforehand")
    except ImportError:
        pass
    try:
        from treys import Card as TCard, Evaluator
        ev = Evaluator()
        tdeck = [TCard.new(c) for c in cardsim.decode(range(52)).split()]
        tr = [([tdeck[c] for c in h[:5]], [tdeck[c] for c in h[5:]]) for h in hands.tolist()]
        row("treys Evaluator.evaluate(board, hand)",
            f"{per_call(lambda x: ev.evaluate(*x), tr):.0f}", "ns/call", "cards built beforehand")
    except ImportError:
        pass
    try:
        from phevaluator import evaluate_cards
        # phevaluator: id = rank*4 + suit (c d h s); any suit bijection keeps the ranks.
        ph = hands.tolist()
        row("phevaluator.evaluate_cards(7 ints)",
            f"{per_call(lambda x: evaluate_cards(*x), ph):.0f}", "ns/call", "")
    except ImportError:
        pass
    try:
        from pokerkit import StandardHighHand
        pk = [(n[:5].replace(" ", ""), n[6:].replace(" ", "")) for n in names]
        kk = max(200, k // 20)
        t = timed(lambda: [StandardHighHand.from_game(h, b) for h, b in pk[:kk]], rounds) / kk * 1e9
        row("PokerKit StandardHighHand.from_game(hole, board)", f"{t:.0f}", "ns/call", "")
    except ImportError:
        pass

    # --- evaluate_many throughput, against the library's batch evaluator
    # alone (same process, same moment, alternated rounds)
    n = 1_000_000 if q else 10_000_000
    big = random_hands(n, seed=3)
    from cardsim import _native
    ours = {1: [], None: []}
    rust = []
    for _ in range(rounds):
        for threads in (1, None):
            t = time.perf_counter()
            cardsim.evaluate_many(big, threads=threads)
            ours[threads].append(time.perf_counter() - t)
        rust.append(_native.batch_seconds(big))
    r = statistics.median(rust)
    for threads, label in ((1, "1 thread"), (None, "all cores")):
        t = statistics.median(ours[threads])
        row(f"cardsim.evaluate_many, {n:,} random 7-card hands, {label}", f"{n / t / 1e6:.0f}",
            "M hands/s", f"{t * 1e3:.0f} ms per call, rows checked; {r / t:.0%} of the batch evaluator")
    row("the library's batch evaluator alone (strengths_of_sevens, no checks, no Python)",
        f"{n / r / 1e6:.0f}", "M hands/s", "1 thread, same rounds")

    # --- equity AKs vs QQ
    t = timed(lambda: cardsim.equity(["AsKs", "QdQc"], exact=True, threads=1), rounds)
    row("cardsim.equity AsKs vs QdQc exact (1,712,304 boards), 1 thread", f"{t * 1e3:.1f}", "ms", "")
    trials = 1_000_000 if q else 10_000_000
    for threads in (1, 2):
        t = timed(lambda: cardsim.equity(["AsKs", "QdQc"], trials=trials, seed=1, threads=threads),
                  max(1, rounds // 2))
        row(f"cardsim.equity AsKs vs QdQc, {trials:,} Monte Carlo trials, {threads} thread(s)",
            f"{t:.2f}", "s", f"{trials / t / 1e6:.0f} M trials/s")
    try:
        import eval7
        m = trials // 10
        hand = [eval7.Card("As"), eval7.Card("Ks")]
        qq = eval7.HandRange("QdQc")
        t = timed(lambda: eval7.py_hand_vs_range_monte_carlo(hand, qq, [], m), 1)
        row(f"eval7 hand_vs_range_monte_carlo, {m:,} trials", f"{t:.2f}", "s",
            f"{m / t / 1e6:.1f} M trials/s")
    except ImportError:
        pass
    try:
        from pokerkit import Card, Deck, StandardHighHand, calculate_equities, parse_range
        m = 1_000 if q else 5_000
        t = timed(lambda: calculate_equities(
            (parse_range("AsKs"), parse_range("QdQc")), (), 2, 5, Deck.STANDARD,
            (StandardHighHand,), sample_count=m), 1)
        row(f"PokerKit calculate_equities, {m:,} samples", f"{t:.2f}", "s",
            f"{m / t / 1e3:.1f} k trials/s")
    except ImportError:
        pass

    # --- random-agent hold'em hands
    games = 10_000 if q else 100_000
    t = timed(lambda: cardsim.simulate("holdem", games=games, seed=1, agents="random",
                                       allin_trials=0), 1)
    row(f"cardsim.simulate('holdem', games={games:,}, agents='random', allin_trials=0), 6-max",
        f"{games / t / 1e3:.0f}", "k hands/s", f"{t:.2f} s, rows written and read back: "
        f"{timed(lambda: cardsim.simulate('holdem', games=games, seed=1, agents='random', allin_trials=0).to_arrow(), 1):.2f} s with to_arrow()")
    try:
        from pokerkit import Automation, NoLimitTexasHoldem
        auto = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
                Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
                Automation.RUNOUT_COUNT_SELECTION, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
                Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
        rng = random.Random(1)

        def pokerkit_hand():
            s = NoLimitTexasHoldem.create_state(auto, True, 0, (1, 2), 2, (200,) * 6, 6)
            while s.status:
                options = []
                if s.can_fold():
                    options.append(lambda: s.fold())
                if s.can_check_or_call():
                    options.append(lambda: s.check_or_call())
                if s.can_complete_bet_or_raise_to():
                    lo = s.min_completion_betting_or_raising_to_amount
                    hi = s.max_completion_betting_or_raising_to_amount
                    options.append(lambda: s.complete_bet_or_raise_to(rng.randint(lo, hi)))
                rng.choice(options)()

        m = 200 if q else 1_000
        t = timed(lambda: [pokerkit_hand() for _ in range(m)], 1)
        row(f"PokerKit, random agents, 6-max, {m:,} hands (Python loop)", f"{m / t / 1e3:.2f}",
            "k hands/s", "")
    except ImportError:
        pass


if __name__ == "__main__":
    main()
