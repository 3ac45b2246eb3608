#!/usr/bin/env python3
"""Every row of the speed-against-peers table (docs/performance.md) in one sitting.

Each row runs cardsim and its peer on the same work, in alternated rounds
(cardsim first in even rounds, the peer first in odd ones), and prints each
round's figures, the per-round ratios and the medians. Rows with a target
instead of a peer print the target. Run it on an otherwise idle machine.

    python3 scripts/peers/sitting.py --omp-eval DRIVER --omp-equity EQ \\
        --java-fishing DIR --rs-poker RSP [--rounds 5] [--work /tmp/cardsim-peers]

The peers are built outside the repository (nothing of them is committed;
see README.md beside this file for what each one is and how it was built):
- DRIVER: OMPEval's evaluator behind the driver protocol of
  benches/eval_peers.rs (`DRIVER FILE MIN_TIME ENUMERATE`);
- EQ: OMPEval's EquityCalculator on one thread, `EQ exact|SECONDS BOARD
  RANGE...` (dead cards in the environment variable EQ_DEAD), printing
  each equity in percent, then `hands N`;
- DIR: the compiled scripts/peers/fishing/Fishing.java;
- RSP: our driver of rs_poker's Omaha evaluator (scripts/peers/rs_poker),
  behind the protocol of benches/omaha_peers.rs.

A row whose peer is not given is left out (`--rs-poker RSP` alone measures
the Omaha rows only); the hold'em simulation rows, which have no peer, run
when the other three peers are all given.

cardsim is built here with `cargo build --release` and the benches with
`cargo bench --no-run`; the inputs (hands files, fishing deals) are written
into --work. Times are CPU time of the measured process (user + system, from
wait4) unless a row says wall time.
"""

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CARDSIM = os.path.join(ROOT, "target", "release", "cardsim")


def log(*args):
    print(*args, flush=True)


class ChildCpu:
    """CPU time (user + system) of the children reaped inside the block."""

    @staticmethod
    def total():
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    def __enter__(self):
        self.t0 = ChildCpu.total()
        return self

    def __exit__(self, *exc):
        self.seconds = ChildCpu.total() - self.t0


def timed(cmd, env=None):
    """Runs cmd; returns (stdout, CPU seconds of the process, wall seconds)."""
    t0 = time.perf_counter()
    with ChildCpu() as c:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
    return proc.stdout, c.seconds, wall


def alternate(rounds, ours, theirs):
    """Calls ours() and theirs() in alternated order; returns two lists."""
    a, b = [], []
    for r in range(rounds):
        if r % 2 == 0:
            a.append(ours())
            b.append(theirs())
        else:
            b.append(theirs())
            a.append(ours())
    return a, b


def report(name, unit, ours, theirs, higher_is_better):
    """Prints rounds, per-round ratios (cardsim over peer, as speed) and medians."""
    ratios = [(x / y if higher_is_better else y / x) for x, y in zip(ours, theirs)]
    log(f"## {name}")
    for i, (x, y, q) in enumerate(zip(ours, theirs, ratios)):
        log(f"round {i}: cardsim {x:.4g} {unit}, peer {y:.4g} {unit}, ratio {q:.3f}")
    log(
        f"median: cardsim {statistics.median(ours):.4g} {unit}, peer {statistics.median(theirs):.4g} {unit}; "
        f"ratio per round {min(ratios):.2f} to {max(ratios):.2f}, median {statistics.median(ratios):.3f}x\n"
    )


def build():
    log("building cardsim and the benches (release)")
    subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=ROOT, check=True)
    subprocess.run(
        ["cargo", "bench", "--locked", "--quiet", "--no-run"]
        + ["--bench", "eval_peers", "--bench", "omaha_peers", "--bench", "fishing"],
        cwd=ROOT,
        check=True,
        stderr=subprocess.DEVNULL,
    )


def bench(name, args, env=None):
    cmd = ["cargo", "bench", "--locked", "--quiet", "--bench", name, "--"] + args
    e = dict(os.environ, **(env or {}))
    return subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True, env=e).stdout


def evaluator_rows(a):
    for name, n, extra in [("h64k.bin", 65536, ["--enumerate"]), ("h1e7.bin", 10_000_000, [])]:
        path = os.path.join(a.work, name)
        if not os.path.exists(path):
            bench("eval_peers", ["write", path, str(n)])
        log(f"## evaluator on {name} ({n} hands), {a.rounds} alternated rounds")
        log(bench("eval_peers", ["run", path, "--rounds", str(a.rounds), "--peer", a.omp_eval] + extra))


def same_equities(ours_cmd, theirs_cmd, env=None, tolerance=1e-4):
    """Checks that both sides give the same exact equities (in percent)."""
    ours = json.loads(timed(ours_cmd + ["--json"])[0])
    ours = [100 * p["equity"] for p in ours["players"]]
    out = timed(theirs_cmd, env)[0]
    theirs = [float(x) for x in out.split("hands")[0].split()]
    if len(ours) != len(theirs) or any(abs(x - y) > tolerance for x, y in zip(ours, theirs)):
        sys.exit(f"equities differ: cardsim {ours}, peer {theirs}")
    log(f"same equities: {', '.join(f'{x:.4f}%' for x in ours)}")


def multiway_row(a):
    ours_cmd = [CARDSIM, "equity", "QQ+,AKs", "random", "T9s,22-55", "--board", "Ah 7d 2c", "--exact", "-j", "1"]
    # OMPEval reads `22-55` as something else: the same range spelled out.
    theirs_cmd = [a.omp_equity, "exact", "Ah7d2c", "QQ+,AKs", "random", "T9s,22,33,44,55"]
    same_equities(ours_cmd, theirs_cmd)
    ours, theirs = alternate(a.rounds, lambda: timed(ours_cmd)[1], lambda: timed(theirs_cmd)[1])
    report("exact 3-way equity QQ+,AKs / random / T9s,22-55 on Ah 7d 2c, 1 thread (CPU s)", "s", ours, theirs, False)


def one_shot_row(a, runs=40):
    ours_cmd = [CARDSIM, "equity", "AsAh", "KsKd", "--exact", "-j", "1"]
    theirs_cmd = [a.omp_equity, "exact", "", "AsAh", "KsKd"]
    same_equities(ours_cmd, theirs_cmd)
    for _ in range(5):  # warm the page cache
        timed(ours_cmd)
        timed(theirs_cmd)
    ours, theirs = alternate(runs, lambda: timed(ours_cmd)[2] * 1e3, lambda: timed(theirs_cmd)[2] * 1e3)
    log("## one-shot `cardsim equity AsAh KsKd --exact -j 1`, whole process, wall ms")
    log(
        f"median of {runs} alternated runs: cardsim {statistics.median(ours):.2f} ms, "
        f"OMPEval process {statistics.median(theirs):.2f} ms; ratio {statistics.median(theirs) / statistics.median(ours):.2f}x "
        f"(target under 10 ms)\n"
    )
    eval_cmd = [CARDSIM, "eval", "As Ks Qs Js Ts"]
    walls = [timed(eval_cmd)[2] * 1e3 for _ in range(runs)]
    log(f"## one-shot `cardsim eval 'As Ks Qs Js Ts'`: median {statistics.median(walls):.2f} ms wall (target under 5 ms)\n")


def heads_up_rows(a):
    spots = [
        ("heads-up ranges before the flop (cardsim reads its preflop table)", "", []),
        ("the same with a dead card (both enumerate every board)", "", ["2c"]),
    ]
    hands = ["QQ+,AKs", "JJ-99,AQs"]
    for name, board, dead in spots:
        ours_cmd = [CARDSIM, "equity", *hands, "--board", board, "--exact", "-j", "1"]
        env = dict(os.environ)
        if dead:
            ours_cmd += ["--dead", " ".join(dead)]
            env["EQ_DEAD"] = "".join(dead)
        # OMPEval misreads `JJ-99` as it does `22-55`: spelled out.
        theirs_cmd = [a.omp_equity, "exact", board.replace(" ", ""), "QQ+,AKs", "JJ,TT,99,AQs"]
        same_equities(ours_cmd, theirs_cmd, env)
        ours, theirs = alternate(
            a.rounds, lambda: timed(ours_cmd)[1] * 1e3, lambda: timed(theirs_cmd, env)[1] * 1e3
        )
        report(f"exact equity QQ+,AKs vs JJ-99,AQs, {name} (CPU ms, whole process)", "ms", ours, theirs, False)
    trials = 20_000_000
    ours_cmd = [CARDSIM, "equity", "AsAh", "KsKd", "--trials", str(trials), "-j", "1"]
    theirs_cmd = [a.omp_equity, "1", "", "AsAh", "KsKd"]

    def ours_rate():
        _, cpu, _ = timed(ours_cmd)
        return trials / cpu / 1e6

    def theirs_rate():
        out, cpu, _ = timed(theirs_cmd)
        return int(re.search(r"hands (\d+)", out).group(1)) / cpu / 1e6

    ours, theirs = alternate(a.rounds, ours_rate, theirs_rate)
    report("Monte Carlo AsAh vs KsKd, 1 thread (M trials per CPU s)", "M/s", ours, theirs, True)


def fishing_row(a):
    deals = os.path.join(a.work, "deals.bin")
    if not os.path.exists(deals):
        subprocess.run(
            [sys.executable, os.path.join(ROOT, "scripts/peers/fishing/make_deals.py"), "20000", "1", deals], check=True
        )

    def median_pass(out):
        return statistics.median(float(x) for x in re.findall(r"^pass .*ns_per_card=([\d.]+)", out, re.M))

    def ours():
        return median_pass(bench("fishing", [], {"FISHING_DEALS": deals, "FISHING_CPU_PASSES": "3"}))

    def theirs():
        out, _, _ = timed(["java", "-cp", a.java_fishing, "Fishing", deals, "3"])
        return median_pass(out)

    o, t = alternate(a.rounds, ours, theirs)
    report("fishing, the same 20,000 deals, one core (ns per card, CPU time)", "ns/card", o, t, False)


def holdem_rows(a):
    out = os.path.join(a.work, "holdem.csv")
    cmd = [CARDSIM, "holdem", "--agents", "random", "--allin-trials", "0", "-n", "1000000", "-o", out, "-q", "-j", "2"]
    walls = [timed(cmd)[2] for _ in range(max(3, a.rounds))]
    log(
        f"## `cardsim holdem --agents random --allin-trials 0 -n 1000000 -o FILE -q -j 2`: "
        f"median {1e6 / statistics.median(walls) / 1e6:.3f} M hands/s wall (runs {', '.join(f'{w:.2f}' for w in walls)} s; target 1 M/s)\n"
    )
    # The table of scripts/reference_holdem.sh, all-in equity on, no files.
    cmd = [CARDSIM, "holdem", "-n", "200000", "--players", "6", "--agents", "tag,station,random,pushfold,tag,station"]
    cmd += ["--stacks", "uniform:10bb-200bb", "--blinds", "1/2", "-q", "-j", "2"]
    walls = [timed(cmd)[2] for _ in range(max(3, a.rounds))]
    log(
        f"## the reference table (`scripts/reference_holdem.sh`, all-in equity on, no files), 2 x 10^5 hands, -j 2: "
        f"median {2e5 / statistics.median(walls) / 1e3:.0f} k hands/s wall (runs {', '.join(f'{w:.2f}' for w in walls)} s)\n"
    )


def omaha_rows(a):
    """PLO4 river evaluation and exact heads-up PLO4 flop equity against rs_poker."""
    for mode, name, n in [("rivers", "plo4_rivers.bin", 65536), ("flops", "plo4_flops.bin", 200)]:
        path = os.path.join(a.work, name)
        if not os.path.exists(path):
            bench("omaha_peers", [f"write-{mode}", path, str(n)])
        run = "eval" if mode == "rivers" else "equity"
        log(f"## Omaha {run} on {name} ({n} records), {a.rounds} alternated rounds")
        log(bench("omaha_peers", [run, path, "--rounds", str(a.rounds), "--peer", a.rs_poker]))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--omp-eval")
    p.add_argument("--omp-equity")
    p.add_argument("--java-fishing")
    p.add_argument("--rs-poker")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--work", default="/tmp/cardsim-peers")
    p.add_argument("--skip-build", action="store_true")
    a = p.parse_args()
    for peer in ("omp_eval", "omp_equity", "java_fishing", "rs_poker"):
        if getattr(a, peer):
            setattr(a, peer, os.path.abspath(getattr(a, peer)))
    os.makedirs(a.work, exist_ok=True)
    if not a.skip_build:
        build()
    log(f"# one sitting, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}\n")
    if a.omp_eval:
        evaluator_rows(a)
    if a.omp_equity:
        multiway_row(a)
        one_shot_row(a)
        heads_up_rows(a)
    if a.java_fishing:
        fishing_row(a)
    if a.omp_eval and a.omp_equity and a.java_fishing:
        holdem_rows(a)
    if a.rs_poker:
        omaha_rows(a)
    log(f"# done, load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
