#!/usr/bin/env python3
"""Speed of the agents you bring (docs/performance.md, "Agents you bring").

    cargo build --release && gcc -O2 -o /tmp/station examples/agents/station.c
    pip install ./python            # the cardsim package, for the Python agent
    python3 scripts/agents_speed.py [ROUNDS]

Rounds alternate the configurations (the order rotates each round); each
figure is the median over the rounds, of wall time and of CPU time (of
every thread and process of the configuration: cardsim and its exec:
program, or the Python process), the latter steadier on a loaded machine. 6-max hold'em, every
seat played by the agent, all-in equity off (--allin-trials 0), no CSV: the
agent's cost, not the outputs'. A decision is one answer of one seat; the
count is the same for every configuration answering cc (the station's
hands), counted once by a Python agent.

- python cc: cardsim.simulate with a Python function answering "cc", one
  thread (one core);
- exec C / exec Python: --agents exec:... -j 1, so one process answers
  every decision;
- station: the built-in that plays the same hands, for scale;
- tag vs tag(call_cost=2/10): the plain and the parameterised built-in
  playing the same hands (2/10 is 1/5, so the CSVs are equal), -j 1.
"""

import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CARDSIM = os.environ.get("CARDSIM_BIN", os.path.join(ROOT, "target", "release", "cardsim"))
STATION_C = os.environ.get("STATION_BIN", "/tmp/station")
BOT = os.path.join(ROOT, "examples", "agents", "bot.py")
HANDS = 20000
TAG_HANDS = 400000
SEED = 1


def cli(agents, hands):
    args = [CARDSIM, "holdem", "-n", str(hands), "--players", "6", "--seed", str(SEED),
            "--allin-trials", "0", "-j", "1", "-q", "--agents", agents]
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - cpu.ru_utime) + (after.ru_stime - cpu.ru_stime)


def python_cc():
    import cardsim

    cpu = time.process_time()
    t = time.perf_counter()
    cardsim.simulate("holdem", games=HANDS, seed=SEED, threads=1, players=6, allin_trials=0,
                     agents=lambda view: "cc")
    return time.perf_counter() - t, time.process_time() - cpu


def decisions():
    import cardsim

    n = [0]

    def count(view):
        n[0] += 1
        return "cc"

    cardsim.simulate("holdem", games=HANDS, seed=SEED, threads=1, players=6, allin_trials=0,
                     agents=count)
    return n[0]


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    configs = {
        "python cc": python_cc,
        "exec C station": lambda: cli(f"exec:{STATION_C}", HANDS),
        "exec Python cc": lambda: cli(f"exec:'{sys.executable} {BOT} cc'", HANDS),
        "station": lambda: cli("station", HANDS),
        "tag": lambda: cli("tag", TAG_HANDS),
        "tag(call_cost=2/10)": lambda: cli("tag(call_cost=2/10)", TAG_HANDS),
    }
    n = decisions()
    times = {k: [] for k in configs}
    names = list(configs)
    for r in range(rounds):
        for k in names[r % len(names):] + names[:r % len(names)]:
            times[k].append(configs[k]())
    print(f"{HANDS} hands, {n} decisions ({n / HANDS:.1f} a hand); medians of {rounds} rounds")
    print(f"{'':22} {'wall s':>7} {'cpu s':>7} {'k hands/s':>10} {'k decisions/s':>14} "
          f"{'per cpu s':>10}")
    for k in names:
        wall = statistics.median(w for w, _ in times[k])
        cpu = statistics.median(c for _, c in times[k])
        hands = TAG_HANDS if k.startswith("tag") else HANDS
        rate = "" if k.startswith("tag") else f"{n / wall / 1e3:14.0f} {n / cpu / 1e3:10.0f}"
        print(f"{k:22} {wall:7.3f} {cpu:7.3f} {hands / wall / 1e3:10.1f} {rate}"
              f"   (wall {min(w for w, _ in times[k]):.3f} to {max(w for w, _ in times[k]):.3f})")

if __name__ == "__main__":
    main()
