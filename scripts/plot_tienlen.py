#!/usr/bin/env python3
"""Pictures of `cardsim tienlen` runs.

Usage: python3 scripts/plot_tienlen.py GAMES.csv RUN1.summary.json [RUN2.summary.json ...] OUT.png

Left: win rate by seat (and by agent for rotated runs) with 95% Wilson
intervals, one group of bars per summary. Right: the distribution of plays
per game from GAMES.csv, the per-game CSV of RUN1.
"""

import csv
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter, PercentFormatter  # noqa: E402
import numpy as np  # noqa: E402


def run_name(options):
    """`4 greedy`, `planner vs 3 greedy (seats rotated)`: a run in words."""
    agents = options["agents"].split(",")
    if len(set(agents)) == 1:
        name = f"{len(agents)} {agents[0]}"
    else:
        first, rest = agents[0], agents[1:]
        kinds = sorted(set(rest))
        name = f"{first} vs " + " + ".join(f"{rest.count(k)} {k}" for k in kinds)
    if options.get("rotate") == "true":
        name += "\n(seats rotated)"
    return name


def win_rates(path):
    d = json.load(open(path))
    rows = []
    for m in d["metrics"]:
        name = m["name"]
        if name.endswith("_win"):
            rows.append((name[: -len("_win")], m["mean"], m["ci95"][0], m["ci95"][1]))
    return run_name(d["options"]), d["games"], rows


def bar_label(name):
    """`seat1` -> `seat 1`; `agent1_planner` -> `planner`."""
    if name.startswith("seat"):
        return "seat " + name[len("seat"):]
    return name.split("_", 1)[-1]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    games, summaries, out = sys.argv[1], sys.argv[2:-1], sys.argv[-1]
    plays = []
    with open(games, newline="") as f:
        for row in csv.DictReader(f):
            plays.append(int(row["plays"]))
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(14, 5.5), gridspec_kw={"width_ratios": [1.6, 1]}
    )
    x = 0
    ticks, labels = [], []
    for path in summaries:
        name, n, rows = win_rates(path)
        first = x
        for bar, mean, lo, hi in rows:
            colour = "C0" if bar.startswith("seat") else "C1"
            left.bar(x, 100 * mean, yerr=[[100 * (mean - lo)], [100 * (hi - mean)]],
                     capsize=3, color=colour)
            ticks.append(x)
            labels.append(bar_label(bar))
            x += 1
        # The run's name under its group of bars.
        left.annotate(f"{name}\n{n:,} games", xy=((first + x - 1) / 2, 0),
                      xycoords=("data", "axes fraction"), xytext=(0, -48),
                      textcoords="offset points", ha="center", va="top", fontsize=9)
        x += 1
    left.axhline(25, color="grey", linestyle="--", linewidth=1)
    left.set_xticks(ticks)
    left.set_xticklabels(labels, rotation=45, ha="right", fontsize=8)
    left.set_ylabel("games won (%), with 95% Wilson interval")
    left.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    left.set_title("Who wins: by seat, and by agent when seats rotate")
    left.legend(handles=[
        Patch(color="C0", label="by seat"),
        Patch(color="C1", label="by agent (seats rotated)"),
        Line2D([], [], color="grey", linestyle="--", label="fair share: 25% (4 players)"),
    ], loc="upper left", fontsize=8)
    left.set_ylim(0, max(50, left.get_ylim()[1] * 1.2))
    bins = np.arange(min(plays), max(plays) + 2) - 0.5
    right.hist(plays, bins=bins, color="C2")
    right.set_xlabel("plays per game (passes not counted)")
    right.set_ylabel("games")
    right.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
    csv_run = win_rates(summaries[0])[0].replace("\n", " ")
    right.set_title(f"Game length: {len(plays):,} games, {csv_run}")
    fig.suptitle("Tiến lên (Cambodian rules), seed 20261122")
    fig.tight_layout()
    fig.subplots_adjust(bottom=0.25)
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main()
