#!/usr/bin/env python3
"""Replays hands of the public PHH dataset with `cardsim replay --json` and
reports them by site, stake, outcome and refusal cause, with the rake.

Usage:
    python3 scripts/phh_dataset_report.py DIR [--max-hands N] [--cardsim PATH]

DIR holds .phhs/.phh files in any folders, for instance a clone of
https://github.com/uoftcprg/phh-dataset (git clone, ~1.8 GB) or some of its
data/handhq/<SITE>-2009-07-01_2009-07-23_<STAKE>_OBFU/ folders. The site and
stake are read from those folder names (ABS, FTP, IPN, ONG, PS, PTY; 25NLH
... 1000NLH), else "other". Standard library only.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
from decimal import Decimal

# The dataset's folders (`ABS-2009-07-01_2009-07-23_100NLH_OBFU`) or a
# sample's (`ABS-100NLH`, as scripts/phh_dataset_sample.py writes them).
SITE = re.compile(r"(ABS|FTP|IPN|ONG|PS|PTY)-(?:[^/]*?_)?(\d+NLH)")


def label(path):
    m = SITE.search(path.replace(os.sep, "/"))
    if m:
        return m.group(1), m.group(2)
    base = os.path.basename(path).lower()
    for site in ("abs", "ftp", "ipn", "ipoker", "ong", "ps", "pty"):
        if base.startswith(site):
            m = re.search(r"(\d+)nl", base)
            return ("IPN" if site == "ipoker" else site.upper()), (m.group(1) + "NLH" if m else "other")
    if "wsop" in path.lower():
        return "WSOP", "tournament"
    if "pluribus" in path.lower():
        return "Pluribus", "bot"
    return "other", "other"


def files_under(root):
    out = []
    for d, _, names in os.walk(root):
        out.extend(os.path.join(d, n) for n in names if n.endswith((".phh", ".phhs")))
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--max-hands", type=int, default=0, help="stop after N hands (0: all)")
    ap.add_argument("--cardsim", default=os.environ.get("CARDSIM") or shutil.which("cardsim")
                    or "target/release/cardsim")
    a = ap.parse_args()
    files = files_under(a.dir)
    if not files:
        sys.exit(f"error: no .phh or .phhs file under {a.dir}")
    outcome = collections.Counter()
    by_site = collections.defaultdict(collections.Counter)
    causes = collections.Counter()
    rake = collections.defaultdict(Decimal)
    raked = collections.Counter()
    inferred = 0
    hands = 0
    for f in files:
        site, stake = label(f)
        p = subprocess.run([a.cardsim, "replay", "--json", f], capture_output=True, text=True)
        if p.returncode not in (0, 2):
            sys.exit(f"error: cardsim failed on {f}: {p.stderr.strip()}")
        for line in p.stdout.splitlines():
            v = json.loads(line, parse_float=Decimal)
            hands += 1
            o = v["outcome"]
            outcome[o] += 1
            by_site[(site, stake)][o] += 1
            if o == "refused":
                causes[v["cause"]] += 1
            else:
                inferred += v.get("inferred", 0) > 0
                if v.get("rake") not in (None, 0):
                    rake[site] += Decimal(str(v["rake"]))
                    raked[site] += 1
            if a.max_hands and hands >= a.max_hands:
                break
        if a.max_hands and hands >= a.max_hands:
            break
    ok = outcome["replayed"] + outcome["settled"]
    print(f"{hands} hands from {len(by_site)} site/stake groups")
    for k in ("replayed", "settled", "undetermined", "incomplete", "refused"):
        share = 100 * outcome[k] / hands if hands else 0
        print(f"  {k:13} {outcome[k]:8}  {share:6.2f}%")
    print(f"  replayed or settled: {100 * ok / hands:.3f}%" if hands else "")
    print(f"  hands with omitted actions supplied: {inferred}")
    print("by site and stake (replayed/settled/undetermined/incomplete/refused):")
    for (site, stake), c in sorted(by_site.items()):
        print(f"  {site:8} {stake:10} {c['replayed']}/{c['settled']}/{c['undetermined']}/"
              f"{c['incomplete']}/{c['refused']}")
    if causes:
        print("refused, by cause:")
        for cause, k in causes.most_common():
            print(f"  {k:6}  {cause}")
    if rake:
        print("rake implied by winnings/finishing_stacks (site's currency units):")
        for site in sorted(rake):
            print(f"  {site:8} {rake[site]} over {raked[site]} raked hands")


if __name__ == "__main__":
    main()
