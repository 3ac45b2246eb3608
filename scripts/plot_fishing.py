#!/usr/bin/env python3
"""Game-length histogram of a `cardsim fishing` run, from its per-game CSV.

Usage: python3 scripts/plot_fishing.py GAMES.csv OUT.png [--title TEXT]
                                       [--published-mean X]

Left: the bulk of the distribution of cards played in finished games, on
linear axes up to the 99.5th percentile (the panel says where it is cut).
Right: every finished game on a log count axis, to show the long tail.
Cycles and unresolved games (column `outcome`) are counted in the title, not
plotted. `--published-mean` draws a dashed line at a mean published elsewhere
(the original write-up of the game reported 1,303 cards over 10,000 games).
"""

import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

BIN_WIDTH = 20


def grouped(x, _pos=None):
    """A number with thousands separators: 10,000,000, not 10000000 or 1e7."""
    return "{:,.0f}".format(x)


def read_lengths(path):
    lengths = []
    other = {"cycle": 0, "unresolved": 0}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
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
    ap.add_argument("--published-mean", type=float, default=None)
    args = ap.parse_args()
    lengths, other = read_lengths(args.csv)
    if lengths.size == 0:
        sys.exit("error: no finished games in " + args.csv)
    mean = lengths.mean()
    cut = float(np.percentile(lengths, 99.5))
    fig, (lin, log) = plt.subplots(1, 2, figsize=(12, 4.8))
    bins = np.arange(0, lengths.max() + BIN_WIDTH, BIN_WIDTH)
    for ax, scale in ((lin, "linear"), (log, "log")):
        ax.hist(lengths, bins=bins, color="#3b6ea5", label="finished games")
        ax.set_yscale(scale)
        ax.set_xlabel("game length (cards played)")
        ax.set_ylabel("games per %d-card bin" % BIN_WIDTH)
        ax.axvline(mean, color="#c0392b", lw=1.2, label="mean of this run: %s cards" % "{:,.1f}".format(mean))
        if args.published_mean is not None:
            ax.axvline(
                args.published_mean,
                color="#555555",
                lw=1.2,
                ls="--",
                label="published mean: %s cards" % grouped(args.published_mean),
            )
        ax.xaxis.set_major_formatter(FuncFormatter(grouped))
        if scale == "linear":
            ax.yaxis.set_major_formatter(FuncFormatter(grouped))
        ax.legend(loc="upper right")
    lin.set_xlim(0, cut)
    lin.set_title(
        "the bulk: up to the 99.5th percentile (%s cards);\n%s longer games are on the right"
        % (grouped(cut), grouped(int((lengths > cut).sum())))
    )
    log.set_xlim(0, lengths.max() * 1.02)
    log.set_title("every finished game, log count axis (longest: %s cards)" % grouped(lengths.max()))
    fig.suptitle(
        "%s: %s finished games, %s never-ending (cycles), %s unresolved"
        % (args.title, grouped(lengths.size), grouped(other.get("cycle", 0)), grouped(other.get("unresolved", 0)))
    )
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)


if __name__ == "__main__":
    main()
