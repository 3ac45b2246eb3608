#!/usr/bin/env python3
"""Checks that every hold'em estimator agrees with the plain result, on large runs of several agent pairs.

Usage: python3 scripts/estimators_bias.py [--cardsim PATH] [--hands 10000000]
           [--calibrate 20000] [--pairs tag,station random,station tag,pushfold random,tag]
           [--stacks 100bb] [--seed 1] [--threads 2] [--out DIR]

For each heads-up pair, runs `cardsim holdem --players 2 --agents PAIR -n HANDS
--calibrate N` (plain play, every estimator) and keeps its summary as
DIR/PAIR.json. Prints, per pair and agent, each estimator's bb/100 with its 95%
interval, its distance from the plain `net` in units of net's half-width (the
check: every estimator lies within net's interval, |distance| <= 1), and its
variance reduction. Exits 1 when an estimator lies outside.
"""

import argparse
import json
import os
import subprocess
import sys

from cardsim_bin import find_cardsim


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cardsim", default=None)
    ap.add_argument("--hands", type=int, default=10_000_000)
    ap.add_argument("--calibrate", type=int, default=20_000)
    ap.add_argument("--pairs", nargs="+", default=["tag,station", "random,station", "tag,pushfold", "random,tag"])
    ap.add_argument("--stacks", default="100bb")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="estimators")
    args = ap.parse_args()
    cardsim = find_cardsim(args.cardsim)
    os.makedirs(args.out, exist_ok=True)
    outside = 0
    print("| pair | agent | estimator | bb/100 | 95% half-width | distance from net (half-widths) | variance reduction |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for pair in args.pairs:
        path = os.path.join(args.out, pair.replace(",", "-") + ".json")
        words = [cardsim, "holdem", "--players", "2", "--agents", pair, "--stacks", args.stacks,
                 "-n", str(args.hands), "--calibrate", str(args.calibrate), "--seed", str(args.seed),
                 "-j", str(args.threads), "-q", "-o", os.devnull, "--summary", path]
        done = subprocess.run(words, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(done.stderr.strip() or f"error: cardsim failed ({done.returncode})")
        with open(path) as f:
            s = json.load(f)
        for row in s["agents"]:
            est = {e["estimator"]: e for e in row["estimators"]}
            net = est["net"]
            lo, hi = net["ci95_bb_per_100"]
            half = (hi - lo) / 2
            for name, e in est.items():
                elo, ehi = e["ci95_bb_per_100"]
                distance = (e["bb_per_100"] - net["bb_per_100"]) / half if half > 0 else 0.0
                if abs(distance) > 1:
                    outside += 1
                reduction = e.get("variance_reduction")
                print(f"| {pair} | {row['agent']} | {name} | {e['bb_per_100']:+.2f} | {(ehi - elo) / 2:.2f} "
                      f"| {distance:+.2f} | {reduction:.2f} |" if reduction is not None else
                      f"| {pair} | {row['agent']} | {name} | {e['bb_per_100']:+.2f} | {(ehi - elo) / 2:.2f} "
                      f"| {distance:+.2f} | |", flush=True)
    if outside:
        print(f"{outside} estimates outside the plain interval", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
