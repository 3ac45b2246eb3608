#!/usr/bin/env python3
"""Pictures of `cardsim tienlen` runs.

Usage: python3 scripts/plot_tienlen.py GAMES.csv RUN1.summary.json [RUN2.summary.json ...] OUT.png

Left: win rate by seat (and by agent for rotated runs) with 95% Wilson
intervals, one group of bars per summary. Right: the distribution of plays
per game from GAMES.csv (the per-game CSV of one run).
"""

import csv
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def win_rates(path):
    d = json.load(open(path))
    label = d["options"]["agents"] + (" (rotated)" if d["options"].get("rotate") == "true" else "")
    rows = []
    for m in d["metrics"]:
        name = m["name"]
        if name.endswith("_win"):
            rows.append((name[: -len("_win")], m["mean"], m["ci95"][0], m["ci95"][1]))
    return label, rows


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    games, summaries, out = sys.argv[1], sys.argv[2:-1], sys.argv[-1]
    plays = []
    with open(games, newline="") as f:
        for row in csv.DictReader(f):
            plays.append(int(row["plays"]))
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    x = 0
    ticks, labels = [], []
    for path in summaries:
        label, rows = win_rates(path)
        for name, mean, lo, hi in rows:
            left.bar(x, mean, yerr=[[mean - lo], [hi - mean]], capsize=3, color="C0" if name.startswith("seat") else "C1")
            ticks.append(x)
            labels.append(f"{label}\n{name}")
            x += 1
        x += 1
    left.axhline(0.25, color="grey", linestyle="--", linewidth=1, label="parity (4 players)")
    left.set_xticks(ticks)
    left.set_xticklabels(labels, rotation=90, fontsize=6)
    left.set_ylabel("win rate (95% Wilson interval)")
    left.set_title("Win rate by seat (blue) and by agent (orange)")
    left.legend()
    bins = np.arange(min(plays), max(plays) + 2) - 0.5
    right.hist(plays, bins=bins, color="C2")
    right.set_xlabel("plays per game")
    right.set_ylabel("games")
    right.set_title(f"Game length, {len(plays):,} games ({games.split('/')[-1]})")
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main()
