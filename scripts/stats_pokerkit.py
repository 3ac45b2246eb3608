#!/usr/bin/env python3
"""The player statistics of docs/stats.md computed a second way, from
PokerKit's play of the same hands, compared with `cardsim stats --json`, and
both timed on one core.

Usage:
    python3 scripts/stats_pokerkit.py HISTORIES... [--cardsim PATH] [--repeat K]

HISTORIES are .phh/.phhs files or directories of them. For every hand,
PokerKit loads the section (HandHistory.loads) and plays it (every state);
the statistics are counted from PokerKit's operations (folds, checks and
calls, bets and raises, board dealing, chip pushes) and its payoffs, with the
definitions of docs/stats.md written again here in Python. Results (W$SD,
net) are compared on the hands cardsim replays with finite stacks (PokerKit
pays pots, it has no rake; `inf` stacks have no payoff); play statistics on
every hand both read.

Prints the players whose counts differ (none expected), and the speed of
each: hands per second of CPU time on one core (cardsim with -j 1), the
medians of K alternated runs.
Needs: pip install pokerkit.
"""

import argparse
import collections
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from decimal import ROUND_HALF_UP, Decimal

HEADER = re.compile(r"^\[(\d+)\]\s*$", re.M)
COUNTS = ("vpip", "pfr", "three_bet", "fold_to_three_bet", "cbet", "fold_to_cbet", "wtsd", "wsd")


def files_under(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in os.walk(p):
                out.extend(os.path.join(d, n) for n in names if n.endswith((".phh", ".phhs")))
        else:
            out.append(p)
    return sorted(out)


def sections(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    heads = list(HEADER.finditer(text))
    if not heads:
        return [("1", text)]
    return [(m.group(1), text[m.end():(heads[i + 1].start() if i + 1 < len(heads) else len(text))])
            for i, m in enumerate(heads)]


class Player:
    def __init__(self):
        self.hands = 0
        self.c = {k: [0, 0] for k in COUNTS}  # hits, opportunities
        self.bets_raises = 0
        self.calls = 0
        self.result_hands = 0
        self.net_micro = 0

    def count(self, key, opp, hit):
        if opp:
            self.c[key][1] += 1
            self.c[key][0] += int(hit)


def micro_bb(net, bb):
    """Net in millionths of a big blind, rounded half away from zero."""
    q = (abs(Decimal(net)) * 1_000_000 / Decimal(bb)).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return int(-q if net < 0 else q)


def play_hand(text, players, with_result):
    """Plays one hand in PokerKit and adds its statistics; returns PokerKit's
    payoffs, the starting stacks, and whether a pot was split."""
    from pokerkit import HandHistory

    hh = HandHistory.loads(text)
    state = None
    for state in hh:
        pass
    n = len(hh.starting_stacks)
    names = list(hh.players) if hh.players else [f"p{k + 1}" for k in range(n)]
    acted = [False] * n
    vpip = [False] * n
    pfr = [False] * n
    three = [None] * n  # None: no opportunity, else hit
    f3 = [None] * n
    cbet = [None] * n
    fcbet = [None] * n
    folded = [False] * n
    folded_pre = [False] * n
    br = [0] * n
    calls = [0] * n
    pushed = [0] * n
    street = 0
    split = False
    raises = 0
    opener = None
    last_raiser = None
    bet_seen = False
    cbet_live = False
    for op in state.operations:
        kind = type(op).__name__
        if kind == "BoardDealing":
            street += 1
            continue
        if kind == "ChipsPushing":
            for k, a in enumerate(op.amounts):
                pushed[k] += a
            split |= op.pot_index is not None and sum(1 for a in op.amounts if a > 0) > 1
            continue
        if kind not in ("Folding", "CheckingOrCalling", "CompletionBettingOrRaisingTo"):
            continue
        s = op.player_index
        raise_ = kind == "CompletionBettingOrRaisingTo"
        fold = kind == "Folding"
        call = kind == "CheckingOrCalling" and op.amount > 0
        folded[s] |= fold
        if street == 0:
            acted[s] = True
            vpip[s] |= raise_ or call
            pfr[s] |= raise_
            if raises == 1 and opener != s and three[s] is None:
                three[s] = raise_
            if raises == 2 and opener == s and f3[s] is None:
                f3[s] = fold
            folded_pre[s] |= fold
            if raise_:
                raises += 1
                opener = s if opener is None else opener
                last_raiser = s
            continue
        if street == 1:
            if s == last_raiser and not bet_seen and cbet[s] is None:
                cbet[s] = raise_
                cbet_live = raise_
            elif cbet_live and s != last_raiser and fcbet[s] is None:
                fcbet[s] = fold
            if raise_:
                cbet_live = cbet_live and not bet_seen
                bet_seen = True
        br[s] += raise_
        calls[s] += call
    # A showdown: the hand ended (a history that stops with a player to
    # act has none) with two or more players in.
    showdown_hand = not state.status and sum(not f for f in folded) >= 2
    bb = hh.blinds_or_straddles[1] if len(hh.blinds_or_straddles) > 1 and hh.blinds_or_straddles[1] > 0 \
        else hh.min_bet
    saw_flop = street >= 1
    for s in range(n):
        p = players[names[s]]
        p.hands += 1
        p.count("vpip", acted[s], vpip[s])
        p.count("pfr", acted[s], pfr[s])
        p.count("three_bet", three[s] is not None, three[s])
        p.count("fold_to_three_bet", f3[s] is not None, f3[s])
        p.count("cbet", cbet[s] is not None, cbet[s])
        p.count("fold_to_cbet", fcbet[s] is not None, fcbet[s])
        p.bets_raises += br[s]
        p.calls += calls[s]
        at_showdown = showdown_hand and not folded[s]
        p.count("wtsd", saw_flop and not folded_pre[s], at_showdown)
        if with_result:
            p.count("wsd", at_showdown, pushed[s] > 0)
            p.result_hands += 1
            p.net_micro += micro_bb(state.payoffs[s], bb)
    return state.payoffs, hh.starting_stacks, split


def cardsim_outcomes(cardsim, files):
    """(file, section) -> outcome, from `cardsim replay --json`."""
    out = {}
    for f in files:
        p = subprocess.run([cardsim, "replay", "--json", f], capture_output=True, text=True)
        for line in p.stdout.splitlines():
            v = json.loads(line, parse_float=Decimal)
            if v["outcome"] == "refused":
                out[(f, v["section"])] = ("refused", False, False, None)
                continue
            inf = "inf" in v["finishing_stacks"]
            out[(f, v["section"])] = (v["outcome"], inf, v["all_in_reading"], v["finishing_stacks"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("histories", nargs="+")
    ap.add_argument("--cardsim", default=os.environ.get("CARDSIM") or shutil.which("cardsim")
                    or "target/release/cardsim")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each (median)")
    a = ap.parse_args()
    warnings.simplefilter("ignore")
    files = files_under(a.histories)
    if not files:
        sys.exit("error: no .phh or .phhs file given")
    outcomes = cardsim_outcomes(a.cardsim, files)
    # The hands compared: every hand both read, but those cardsim read as
    # all-ins for what each `inf` player put in (docs/phh.md): PokerKit
    # plays those stacks as infinite, so its players act where cardsim's
    # are all-in. Both sides read the same file of the rest.
    hands, skipped = [], 0
    for f in files:
        for sec, text in sections(f):
            outcome, inf, all_in_reading, finishing = outcomes.get(
                (f, f"[{sec}]"), ("refused", False, False, None))
            if all_in_reading:
                skipped += 1
            elif outcome != "refused":
                hands.append((outcome, inf, text, finishing))
    tmp = tempfile.mkdtemp()
    compared = os.path.join(tmp, "compared.phhs")
    with open(compared, "w", encoding="utf-8") as out:
        for k, (_, _, text, _) in enumerate(hands):
            out.write(f"[{k + 1}]\n{text.strip(chr(10))}\n")

    def pokerkit_run():
        players = collections.defaultdict(Player)
        failed = 0
        for outcome, inf, text, _ in hands:
            try:
                play_hand(text, players, outcome == "replayed" and not inf)
            except Exception:  # noqa: BLE001 - counted, reported
                failed += 1
        return players, failed

    # Hand by hand: PokerKit's payoffs against cardsim's finishing stacks,
    # where both are finite; a difference in a split pot is a convention.
    differ_hands, differ_split = 0, 0
    for outcome, inf, text, finishing in hands:
        if outcome != "replayed" or inf:
            continue
        payoffs, starting, split = play_hand(text, collections.defaultdict(Player), False)
        mine = [Decimal(str(f)) - Decimal(str(st)) for f, st in zip(finishing, starting)]
        if [Decimal(str(x)) for x in payoffs] != mine:
            differ_hands += 1
            differ_split += split
    print(f"hands whose payoffs differ (PokerKit against cardsim): {differ_hands}, "
          f"of them split pots: {differ_split}")

    # CPU seconds of each (this process's for PokerKit, the child's for
    # cardsim), in alternated runs: on a shared machine wall time counts
    # the other programs too.
    pk_times, cs_times = [], []
    for _ in range(a.repeat):
        t0 = time.process_time()
        players, failed = pokerkit_run()
        pk_times.append(time.process_time() - t0)
        # cardsim ten times a round (its run is near the clock tick), the
        # statistics counted and not written, as PokerKit's side does.
        before = os.times()
        for _ in range(10):
            p = subprocess.run([a.cardsim, "stats", "-j", "1", "-q", compared],
                               capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"error: cardsim stats failed: {p.stderr.strip()}")
        after = os.times()
        cs_times.append((after.children_user - before.children_user
                         + after.children_system - before.children_system) / 10)
    p = subprocess.run([a.cardsim, "stats", "-j", "1", "-q", "--json", "-", compared],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"error: cardsim stats failed: {p.stderr.strip()}")
    cs = json.loads(p.stdout)
    read = cs["hands"]["read"] - cs["hands"]["refused"]
    differ = 0
    for row in cs["players"]:
        mine = players.get(row["player"])
        if mine is None:
            print(f"only in cardsim: {row['player']}")
            differ += 1
            continue
        theirs = {k: [row[k]["count"], row[k]["opportunities"]] for k in COUNTS}
        fields = {k: mine.c[k] for k in COUNTS if k not in ("wsd", "wtsd")}
        fields["hands"] = mine.hands
        fields["postflop_bets_raises"] = mine.bets_raises
        fields["postflop_calls"] = mine.calls
        want = {k: theirs[k] for k in COUNTS if k not in ("wsd", "wtsd")}
        fields["wtsd"], want["wtsd"] = mine.c["wtsd"], theirs["wtsd"]
        want["hands"] = row["hands"]
        want["postflop_bets_raises"] = row["af"]["bets_raises"]
        want["postflop_calls"] = row["af"]["calls"]
        bad = {k: (fields[k], want[k]) for k in fields if fields[k] != want[k]}
        if bad:
            differ += 1
            if differ <= 10:
                print(f"{row['player']}: (PokerKit, cardsim) {bad}")
    finite = sum(p.result_hands for p in players.values())
    print(f"{read} hands, {len(cs['players'])} players: {differ} players differ in the play counts"
          f"; PokerKit could not play {failed}; {skipped} hands read as all-ins of inf stacks "
          f"left out")
    net_differ = 0
    for row in cs["players"]:
        mine = players.get(row["player"])
        if mine and mine.result_hands and mine.result_hands == row["net"]["hands"]:
            theirs = int((Decimal(row["net"]["bb"]) * 1_000_000).to_integral_value())
            if theirs != mine.net_micro:
                net_differ += 1
                if net_differ <= 5:
                    print(f"{row['player']}: net in millionths of a big blind (PokerKit, cardsim)"
                          f" ({mine.net_micro}, {theirs}) over {mine.result_hands} hands")
    print(f"net results compared where every hand of the player was replayed with finite stacks "
          f"({finite} player-hands): {net_differ} players differ")
    pk = statistics.median(pk_times)
    c = statistics.median(cs_times)
    print(f"CPU seconds, medians of {a.repeat} alternated runs:")
    print(f"  PokerKit (load, play, count): {pk:.3f} s, {read / pk:,.0f} hands/s")
    print(f"  cardsim stats -j 1:           {c:.3f} s, {read / c:,.0f} hands/s  ({pk / c:.0f}x)")
    ratios = sorted(p / q for p, q in zip(pk_times, cs_times))
    print(f"  per-round ratios: {', '.join(f'{r:.0f}x' for r in ratios)} "
          f"(median {statistics.median(ratios):.0f}x)")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
