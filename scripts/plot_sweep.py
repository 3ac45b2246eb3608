#!/usr/bin/env python3
"""A metric of a `cardsim sweep` against one swept parameter, with intervals.

Usage: python3 scripts/plot_sweep.py SWEEP_DIR METRIC X OUT.png
                                     [--title TEXT] [--where KEY=VALUE ...]

Reads SWEEP_DIR/results.csv (one row per cell and metric). Draws the mean of
METRIC against the swept parameter X, with the 95% interval of each mean as
an error bar, one line per combination of the other swept parameters (the
legend names them). X is placed by value when every value is a number,
otherwise in spec order. `--where KEY=VALUE` keeps only the cells with that
value (repeatable), to fix a parameter instead of drawing a line per value.
"""

import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def read_rows(sweep, metric):
    path = os.path.join(sweep, "results.csv")
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            header = reader.fieldnames or []
            rows = [r for r in reader if r["metric"] == metric]
    except OSError as e:
        sys.exit(f"error: cannot read {path}: {e.strerror}")
    if "metric" not in header:
        sys.exit(f"error: {path} is not a sweep's results.csv (no metric column)")
    keys = header[: header.index("metric")]
    return keys, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sweep")
    ap.add_argument("metric")
    ap.add_argument("x")
    ap.add_argument("png")
    ap.add_argument("--title", default=None)
    ap.add_argument("--where", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    keys, rows = read_rows(args.sweep, args.metric)
    if args.x not in keys:
        sys.exit(f"error: '{args.x}' is not a swept parameter (swept: {', '.join(keys)})")
    if not rows:
        sys.exit(f"error: no rows of metric '{args.metric}' in {args.sweep}/results.csv")
    for cond in args.where:
        key, sep, value = cond.partition("=")
        if not sep or key not in keys:
            sys.exit(f"error: --where '{cond}': expected KEY=VALUE with KEY one of {', '.join(keys)}")
        rows = [r for r in rows if r[key] == value]
    rows = [r for r in rows if r["mean"] != ""]
    if not rows:
        sys.exit("error: no cell left with a mean to plot")
    others = [k for k in keys if k != args.x]
    x_values = list(dict.fromkeys(r[args.x] for r in rows))
    numeric = all(number(v) is not None for v in x_values)
    position = {v: (number(v) if numeric else i) for i, v in enumerate(x_values)}
    lines = {}
    for r in rows:
        label = ", ".join(f"{k}={r[k]}" for k in others) or args.metric
        lines.setdefault(label, []).append(r)
    fig, ax = plt.subplots(figsize=(8, 5))
    for label, cells in lines.items():
        cells.sort(key=lambda r: position[r[args.x]])
        xs = [position[r[args.x]] for r in cells]
        means = [float(r["mean"]) for r in cells]
        low = [m - float(r["ci95_low"]) if r["ci95_low"] else 0 for m, r in zip(means, cells)]
        high = [float(r["ci95_high"]) - m if r["ci95_high"] else 0 for m, r in zip(means, cells)]
        ax.errorbar(xs, means, yerr=[low, high], marker="o", capsize=4, label=label)
    if not numeric:
        ax.set_xticks(range(len(x_values)), x_values)
    elif all(float(v).is_integer() for v in x_values) and len(x_values) <= 20:
        ax.set_xticks(sorted(position.values()), [v for v in sorted(x_values, key=number)])
    ax.set_xlabel(args.x)
    ax.set_ylabel(f"{args.metric} (mean, 95% interval)")
    ax.set_title(args.title or f"{args.metric} against {args.x}")
    ax.grid(alpha=0.3)
    if len(lines) > 1 or others:
        ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)
    print(f"wrote {args.png}: {len(rows)} cells, {len(lines)} lines")


if __name__ == "__main__":
    main()
