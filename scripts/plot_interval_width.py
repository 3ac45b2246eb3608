#!/usr/bin/env python3
"""The 95% interval width of an agent's bb/100, per estimator, against hands played: plain vs duplicate play.

Usage: python3 scripts/plot_interval_width.py [--cardsim PATH] [--agents tag,station]
           [--players 2] [--stacks 100bb] [--seed 1] [--hands 2000,8000,32000,128000]
           [--agent tag] [--threads 2] [--calibrate 20000] [--out width.png]

Runs `cardsim holdem` twice at each number of hands: plain (`-n HANDS`) and
duplicate (`--duplicate -n HANDS/seatings`, the same hands played), reads each
summary's `agents` table and draws, for the chosen agent (the first by
default), the full width of each estimator's 95% interval against hands, on
log-log axes (a width falls as 1/sqrt(hands): parallel lines, and the
vertical gap between two is the square root of the hands ratio for equal
width). Prints the widths and, at the largest size, the hands ratio of each
line against plain `net`. With `--calibrate N` (the default, 20000; 0 turns it
off) every run also has the chance, chance_action and learned estimators
(docs/duplicate.md).
"""

import argparse
import json
import os
import subprocess
import sys

from cardsim_bin import find_cardsim

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def summary(cardsim, args, hands, duplicate):
    words = [cardsim, "holdem", "--players", str(args.players), "--agents", args.agents,
             "--stacks", args.stacks, "--seed", str(args.seed), "-j", str(args.threads),
             "-q", "--summary", "-"]
    if args.calibrate > 0:
        words += ["--calibrate", str(args.calibrate)]
    games = hands
    if duplicate:
        seatings = args.players
        games = max(1, hands // seatings)
        words.append("--duplicate")
    words += ["-n", str(games)]
    done = subprocess.run(words, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(done.stderr.strip() or f"error: cardsim failed ({done.returncode})")
    return json.loads(done.stdout)


def widths(s, agent):
    rows = s.get("agents") or []
    if not rows:
        sys.exit("error: the summary has no agents table (a cardsim before 0.2.0?)")
    row = next((r for r in rows if r["agent"] == agent), None) if agent else rows[0]
    if row is None:
        sys.exit(f"error: no agent '{agent}' (agents: {', '.join(r['agent'] for r in rows)})")
    out = {}
    for e in row["estimators"]:
        lo, hi = e["ci95_bb_per_100"]
        out[e["estimator"]] = hi - lo
    return row["agent"], row["hands"], out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cardsim", default=None)
    ap.add_argument("--agents", default="tag,station")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--stacks", default="100bb")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hands", default="2000,8000,32000,128000")
    ap.add_argument("--agent", default=None)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--calibrate", type=int, default=20000)
    ap.add_argument("--out", default="interval_width.png")
    args = ap.parse_args()
    try:
        sizes = [int(h) for h in args.hands.split(",")]
    except ValueError:
        sys.exit(f"error: --hands '{args.hands}' is not a list of whole numbers")
    if not sizes or min(sizes) < args.players:
        sys.exit("error: --hands needs sizes of at least one deal group")
    cardsim = find_cardsim(args.cardsim)
    lines = {}  # (mode, estimator) -> [(hands, width)]
    name = None
    for hands in sizes:
        for mode, dup in (("plain", False), ("duplicate", True)):
            name, played, w = widths(summary(cardsim, args, hands, dup), args.agent)
            for est, width in w.items():
                lines.setdefault((mode, est), []).append((played, width))
                print(f"{mode:9} {est:13} {played:>9} hands  width {width:8.3f} bb/100")
    base = dict(lines[("plain", "net")])
    top = max(base)
    print(f"hands ratio for equal width at {top} hands (plain net = 1):")
    for (mode, est), points in lines.items():
        w = dict(points).get(top)
        if w:
            print(f"  {mode:9} {est:13} {(base[top] / w) ** 2:6.2f}")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    styles = {"plain": "-", "duplicate": "--"}
    for (mode, est), points in sorted(lines.items()):
        # A width of 0 (every group alike: the agents never played the
        # deal differently) has no place on a log axis.
        points = [(x, y) for x, y in points if y > 0]
        if not points:
            continue
        xs, ys = zip(*points)
        ax.plot(xs, ys, styles[mode], marker="o", label=f"{mode}, {est}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("hands played")
    ax.set_ylabel("95% interval width, bb/100")
    ax.set_title(f"{name} in {args.agents} ({args.players} seats, {args.stacks})")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
