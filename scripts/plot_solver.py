#!/usr/bin/env python3
"""Leader's perfect-play win rate by hand size, from results/solver/win_rate.csv.

Usage: python3 scripts/plot_solver.py win_rate.csv OUT.png
"""

import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


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
        ax.errorbar(k, p, yerr=[lo, hi], marker="o", capsize=3, color=colour, label=rules)
    ax.axhline(0.5, color="#7f8c8d", lw=1, ls="--")
    ax.set_xlabel("cards in each hand (K)")
    ax.set_ylabel("leader (A) wins with perfect play")
    ax.set_ylim(0, 1)
    ax.set_title("Two-player shedding endgame: leader's win rate (95% Wilson intervals)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
