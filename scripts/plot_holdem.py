#!/usr/bin/env python3
"""Side-pot statistics and pictures of a `cardsim holdem` run.

Usage: python3 scripts/plot_holdem.py HANDS.csv POTS.csv OUT.png [SUMMARY.json]

HANDS.csv is the per-hand CSV (`--out`), POTS.csv the long-format pots CSV
(`--pots`). Prints how often side pots occur, how many pots a hand has, how
big the side pots are and how often pots are split; draws four panels: pots
per hand, side-pot size, split frequency by pot number, and all-in adjusted
against actual results per seat (labelled with the agents when the run's
summary is given). Sizes are in big blinds: set BB (the big
blind in chips) in the environment when it is not 2.
"""

import csv
import json
import os
import sys
from collections import Counter

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter, PercentFormatter  # noqa: E402
import numpy as np  # noqa: E402


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    hands_path, pots_path, out = sys.argv[1:4]
    agents = None
    run = "hold'em"
    if len(sys.argv) == 5:
        with open(sys.argv[4]) as f:
            summary = json.load(f)
        o = summary["options"]
        agents = o["agents"].split(",")
        run = (f"No-limit hold'em, {o['players']} seats, blinds {o['blinds']}, "
               f"stacks {o['stacks']} chips, seed {summary['seed']}")
    bb = float(os.environ.get("BB", "2"))
    pots_per_hand = Counter()
    side_totals = []
    seats = None
    net = ev = None
    hands = 0
    with open(hands_path) as f:
        r = csv.DictReader(f)
        seats = [c[len("net_") :] for c in r.fieldnames if c.startswith("net_")]
        net = np.zeros(len(seats))
        ev = np.zeros(len(seats))
        for row in r:
            hands += 1
            k = int(row["pots"])
            pots_per_hand[k] += 1
            if k > 1:
                side_totals.append(int(row["side_pot_total"]) / bb)
            for i, s in enumerate(seats):
                net[i] += int(row["net_" + s])
                ev[i] += float(row["ev_net_" + s])
    split_by_pot = Counter()
    pots_by_number = Counter()
    with open(pots_path) as f:
        for row in csv.DictReader(f):
            n = int(row["pot"])
            pots_by_number[n] += 1
            if len(row["winners"].split()) > 1:
                split_by_pot[n] += 1
    side = sum(v for k, v in pots_per_hand.items() if k > 1)
    print(f"hands: {hands}")
    print(f"hands with side pots: {side} ({100 * side / hands:.3f}%)")
    for k in sorted(pots_per_hand):
        print(f"  {k} pot(s): {pots_per_hand[k]} hands ({100 * pots_per_hand[k] / hands:.3f}%)")
    if side_totals:
        st = np.array(side_totals)
        print(
            f"side pots' total size (bb): mean {st.mean():.1f}, median {np.median(st):.1f}, "
            f"p90 {np.percentile(st, 90):.1f}, max {st.max():.1f}"
        )
    for n in sorted(pots_by_number):
        s = split_by_pot[n]
        print(f"pot {n}: {pots_by_number[n]} pots, split {s} ({100 * s / pots_by_number[n]:.3f}%)")
    for i, s in enumerate(seats):
        print(f"seat {s}: net {net[i] / hands * 100 / bb:+.2f} bb/100, "
              f"all-in adjusted {ev[i] / hands * 100 / bb:+.2f} bb/100")

    fig, ax = plt.subplots(2, 2, figsize=(12, 8.5))
    ks = sorted(pots_per_hand)
    ax[0, 0].bar([str(k) for k in ks], [pots_per_hand[k] / hands for k in ks], color="tab:blue")
    ax[0, 0].set_yscale("log")
    ax[0, 0].set_xlabel("pots in the hand (main + side)")
    ax[0, 0].set_ylabel("share of hands (log scale)")
    ax[0, 0].yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{100 * v:g}%"))
    ax[0, 0].set_title(f"Pots per hand ({hands:,} hands)")
    if side_totals:
        ax[0, 1].hist(side_totals, bins=80, color="tab:orange")
        ax[0, 1].set_yscale("log")
    ax[0, 1].set_xlabel("side pots' total (big blinds)")
    ax[0, 1].set_ylabel("hands per bin (log scale)")
    ax[0, 1].yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax[0, 1].set_title("Side-pot size, hands with side pots")
    ns = sorted(pots_by_number)
    ax[1, 0].bar([f"pot {n}" for n in ns], [split_by_pot[n] / pots_by_number[n] for n in ns],
                 color="tab:green")
    ax[1, 0].set_ylabel("pots split between tied winners")
    ax[1, 0].yaxis.set_major_formatter(PercentFormatter(xmax=1, decimals=1))
    ax[1, 0].set_title("Split pots by pot (1 = main)")
    x = np.arange(len(seats))
    ax[1, 1].bar(x - 0.2, net / hands * 100 / bb, 0.4, color="C0")
    ax[1, 1].bar(x + 0.2, ev / hands * 100 / bb, 0.4, color="C1")
    labels = [f"{s}\n{agents[i]}" for i, s in enumerate(seats)] if agents else seats
    ax[1, 1].set_xticks(x, labels)
    ax[1, 1].axhline(0, color="black", linewidth=0.6)
    ax[1, 1].set_ylabel("big blinds won per 100 hands")
    ax[1, 1].set_title("Result per seat and agent")
    ax[1, 1].legend(handles=[
        Patch(color="C0", label="net: chips won"),
        Patch(color="C1", label="all-in adjusted: all-in pots paid by equity"),
    ])
    lo, hi = ax[1, 1].get_ylim()
    ax[1, 1].set_ylim(lo, hi + 0.45 * (hi - lo))  # room for the legend
    fig.suptitle(run)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
