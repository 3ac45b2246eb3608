#!/usr/bin/env python3
"""What the corrections cost: a corrected duplicate run's share of plain play's rate.

    cargo build --release
    python3 scripts/corrections_cost.py [--rounds 6] [--groups 400000] [BINARY ...]

The figure of docs/duplicate.md ("Speed now"): tag against station, seed
20261122, one thread (-j 1), CPU (user) time of each child process. Per
binary and round:

- run: `holdem --players 2 --agents tag,station --duplicate -n GROUPS
  --calibrate 20000` less the same command with `-n 1` (the calibration
  alone, a fixed cost of the run);
- plain: `holdem --players 2 --agents tag,station -n 2*GROUPS` (the same
  number of hands, no corrections);
- share: plain / run, the corrected run's hands per second over plain
  play's.

Rounds alternate the binaries (default: target/release/cardsim), so that
a loaded machine slows each about alike; the medians over the rounds are
printed last. The calibration's own noise is about 0.3 s, so runs much
shorter than the default (about 8 s a round) swamp small differences.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = "20261122"
CALIBRATE = "20000"


def user_time(command):
    """The user CPU seconds of one child running `command` to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def one_round(binary, groups, scratch):
    out = os.path.join(scratch, "hands.csv")
    base = [binary, "holdem", "--players", "2", "--agents", "tag,station", "-j", "1",
            "--seed", SEED, "-q", "-o", out]
    corrected = base + ["--duplicate", "--calibrate", CALIBRATE]
    run = user_time(corrected + ["-n", str(groups)])
    calibration = user_time(corrected + ["-n", "1"])
    plain = user_time(base + ["-n", str(2 * groups)])
    return run - calibration, plain


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binaries", nargs="*",
                    default=[os.path.join(ROOT, "target", "release", "cardsim")])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--groups", type=int, default=400_000,
                    help="deal groups of the corrected run (plain play: twice as many hands)")
    args = ap.parse_args()
    for b in args.binaries:
        if not os.access(b, os.X_OK):
            sys.exit(f"error: {b} is not an executable cardsim (cargo build --release)")
    if args.rounds < 1 or args.groups < 1:
        sys.exit("error: --rounds and --groups must be at least 1")
    shares = {b: [] for b in args.binaries}
    runs = {b: [] for b in args.binaries}
    with tempfile.TemporaryDirectory() as scratch:
        for r in range(args.rounds):
            for b in args.binaries:
                run, plain = one_round(b, args.groups, scratch)
                share = plain / run if run > 0 else float("nan")
                shares[b].append(share)
                runs[b].append(run)
                print(f"round {r + 1} {b}: run {run:.2f} s, plain {plain:.2f} s, "
                      f"share {100 * share:.1f}%", flush=True)
    if any(run <= 0 for r in runs.values() for run in r):
        print("warning: a run took no longer than its calibration: raise --groups")
    for b in args.binaries:
        print(f"{b}: run median {statistics.median(runs[b]):.2f} s, share "
              f"{100 * min(shares[b]):.1f}% to {100 * max(shares[b]):.1f}% "
              f"(median {100 * statistics.median(shares[b]):.1f}%)")


if __name__ == "__main__":
    main()
