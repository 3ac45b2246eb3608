#!/usr/bin/env python3
"""Leader's perfect-play win rate by hand size, from results/solver/win_rate.csv.

Usage: python3 scripts/plot_solver.py win_rate.csv OUT.png
"""

import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import PercentFormatter  # noqa: E402

LABELS = {
    "pairs": "rules: singles and pairs",
    "tienlen": "rules: Tiến lên combinations",
}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_solver.py win_rate.csv OUT.png")
    rows = list(csv.DictReader(open(sys.argv[1], newline="")))
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for rules, colour in (("pairs", "#3b6ea5"), ("tienlen", "#c0392b")):
        rs = [r for r in rows if r["rules"] == rules]
        if not rs:
            continue
        k = [int(r["cards"]) for r in rs]
        p = [float(r["a_win_rate"]) for r in rs]
        lo = [p_ - float(r["ci_low"]) for p_, r in zip(p, rs)]
        hi = [float(r["ci_high"]) - p_ for p_, r in zip(p, rs)]
        n = int(rs[0]["deals"])
        ax.errorbar(k, [100 * v for v in p], yerr=[[100 * v for v in lo], [100 * v for v in hi]],
                    marker="o", capsize=3, color=colour,
                    label=f"{LABELS[rules]} ({n:,} random deals per K)")
    ax.axhline(50, color="#7f8c8d", lw=1, ls="--", label="50%: leading would give no edge")
    ax.set_xlabel("cards in each hand (K)")
    ax.set_ylabel("deals the leader (A) wins (%)")
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.set_xticks(sorted({int(r["cards"]) for r in rows}))
    ax.set_ylim(0, 100)
    ax.set_title("Two-player shedding endgame: how often the leader wins with perfect play\n"
                 "(95% Wilson intervals, seed 20261122)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
