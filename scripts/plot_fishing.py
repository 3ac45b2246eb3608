#!/usr/bin/env python3
"""Game-length histogram of a `cardsim fishing` run, from its per-game CSV.

Usage: python3 scripts/plot_fishing.py GAMES.csv OUT.png [--title TEXT]

Left: the distribution of cards played in finished games (linear axes).
Right: the same counts on a log axis, to show the long tail. Cycles and
unresolved games (columns `outcome`) are counted in the title, not plotted.
"""

import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def read_lengths(path):
    lengths = []
    other = {"cycle": 0, "unresolved": 0}
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        for row in reader:
            outcome = row.get("outcome", "win")
            if outcome == "win":
                lengths.append(int(row["cards_played"]))
            else:
                other[outcome] = other.get(outcome, 0) + 1
    return np.array(lengths, dtype=np.int64), other


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("png")
    ap.add_argument("--title", default="fishing game length")
    args = ap.parse_args()
    lengths, other = read_lengths(args.csv)
    if lengths.size == 0:
        sys.exit("error: no finished games in " + args.csv)
    mean = lengths.mean()
    fig, (lin, log) = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 20
    bins = np.arange(0, lengths.max() + width, width)
    for ax, scale in ((lin, "linear"), (log, "log")):
        ax.hist(lengths, bins=bins, color="#3b6ea5")
        ax.set_yscale(scale)
        ax.set_xlabel("cards played")
        ax.set_ylabel("games per %d-card bin" % width)
        ax.axvline(mean, color="#c0392b", lw=1, label="mean %.1f" % mean)
        ax.axvline(1303, color="#7f8c8d", lw=1, ls="--", label="seed's mean 1,303")
        ax.legend()
    lin.set_xlim(0, np.percentile(lengths, 99.5))
    log.set_title("log scale: the tail (max %d)" % lengths.max())
    fig.suptitle(
        "%s: %d finished games, %d cycles, %d unresolved"
        % (args.title, lengths.size, other.get("cycle", 0), other.get("unresolved", 0))
    )
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)


if __name__ == "__main__":
    main()
