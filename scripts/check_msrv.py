#!/usr/bin/env python3
"""Checks that Cargo.toml's rust-version is the true minimum: no lower than
the highest rust-version any locked dependency (dev-dependencies included)
declares. Run by .ci/run; exit status 1 when it is too low.

Usage: python3 scripts/check_msrv.py
"""

import json
import subprocess
import sys


def version(text):
    return tuple(int(x) for x in text.split("."))


meta = json.loads(subprocess.run(
    ["cargo", "metadata", "--format-version", "1", "--locked"],
    check=True, capture_output=True, text=True).stdout)
root = meta["resolve"]["root"]
ours = next(p for p in meta["packages"] if p["id"] == root)
needed = max((p for p in meta["packages"] if p["id"] != root and p.get("rust_version")),
             key=lambda p: version(p["rust_version"]))
declared = ours.get("rust_version") or "0"
if version(declared) < version(needed["rust_version"]):
    print(f"error: Cargo.toml says rust-version = {declared}, but {needed['name']} "
          f"{needed['version']} needs {needed['rust_version']}", file=sys.stderr)
    sys.exit(1)
print(f"rust-version {declared}: the locked dependencies need at most "
      f"{needed['rust_version']} ({needed['name']})")
