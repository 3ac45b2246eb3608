#!/usr/bin/env python3
"""Takes a sample of whole hands from the public PHH dataset, by site and
stake, for scripts/phh_dataset_report.py and `cardsim stats`.

Usage:
    python3 scripts/phh_dataset_sample.py clone DATASET OUT [--hands N]
    python3 scripts/phh_dataset_sample.py parts PARTS OUT
    (either with --pokerkit: keep only the hands PokerKit reads and plays)

clone: DATASET is a clone of https://github.com/uoftcprg/phh-dataset (or any
of its data/handhq/<SITE>-2009-07-01_2009-07-23_<STAKE>_OBFU/ folders). For
each site and stake, the files are taken in order of their number
(handhq_1, handhq_2, ...; --first-file K starts at handhq_K) until N hands
(default 2,000) are taken.

parts: PARTS holds files read in pieces of the same length, in order, from
offset 0 (PARTS/<SITE>-<STAKE>/<file>/<offset, 9 digits>.part), as they come
from a service that gives a file's text a window at a time. Each file is
rebuilt from its first part while the offsets follow on exactly; a piece
shorter than the others ends the file; a missing or wrong-length piece cuts
it there. Only whole sections are kept: a section ends at the next `[k]`
header, or at the file's end when the last piece was read.

Either way OUT gets OUT/<SITE>-<STAKE>/<file>.phhs, whole `[k]` sections
copied byte for byte, and a line per group on stdout. With --pokerkit, every
section is read by PokerKit (HandHistory.loads, then every state); one it
cannot play is left out and counted (in `parts` mode such a section was
damaged on its way here: PokerKit plays every hand of the dataset).
"""

import argparse
import hashlib
import os
import re
import sys

HEADER = re.compile(r"^\[(\d+)\]\s*$", re.M)
GROUP = re.compile(r"(ABS|FTP|IPN|ONG|PS|PTY)-(?:[^/]*?_)?(\d+NLH)")
FILE_NUMBER = re.compile(r"handhq_(\d+)")


def sections(text, whole_end):
    """The `[k]` sections of `text` as (header line, body); the last only
    when `whole_end` (the text reaches the file's end)."""
    heads = list(HEADER.finditer(text))
    out = []
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        if i + 1 == len(heads) and not whole_end:
            break
        out.append((m.group(0), text[m.end():end]))
    return out


def rebuild(folder):
    """A file's text from its parts, and whether it reaches the end."""
    offsets = sorted(int(n[:-5]) for n in os.listdir(folder) if n.endswith(".part"))
    text, at, size = [], 0, None
    for off in offsets:
        if off != at:
            return "".join(text), False
        with open(os.path.join(folder, f"{off:09d}.part"), encoding="utf-8", newline="") as f:
            piece = f.read()
        size = size or len(piece)
        text.append(piece)
        at += len(piece)
        if len(piece) < size:
            return "".join(text), True
        if len(piece) > size:
            return "".join(text[:-1]), False
    return "".join(text), False


def pokerkit_plays(body):
    from pokerkit import HandHistory

    try:
        for _ in HandHistory.loads(body):
            pass
        return True
    except Exception:  # noqa: BLE001 - any failure means: not playable
        return False


def write_group(out, group, name, kept):
    """Writes the kept sections and prints the file's manifest line: its
    path, first and last section, hands, and SHA-256 of its bytes."""
    os.makedirs(os.path.join(out, group), exist_ok=True)
    path = os.path.join(out, group, f"{name}.phhs")
    text = "".join(head + body for head, body in kept)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    print(f"  {group}/{name}.phhs  {kept[0][0].strip()}..{kept[-1][0].strip()}  "
          f"{len(kept)} hands  sha256 {digest}")
    return path


def from_parts(parts, out, check):
    total = dropped = 0
    for group in sorted(os.listdir(parts)):
        if not GROUP.search(group):
            continue
        taken = 0
        for name in sorted(os.listdir(os.path.join(parts, group))):
            text, whole = rebuild(os.path.join(parts, group, name))
            secs = sections(text, whole)
            kept = [s for s in secs if not check or pokerkit_plays(s[1])]
            dropped += len(secs) - len(kept)
            if kept:
                write_group(out, group, name, kept)
            taken += len(kept)
        print(f"{group}: {taken} hands")
        total += taken
    print(f"{total} hands" + (f"; {dropped} left out (PokerKit cannot play them)" if check else ""))


def from_clone(dataset, out, hands, check, first=1):
    groups = {}
    for d, _, names in os.walk(dataset):
        for n in names:
            m = GROUP.search(os.path.join(d, n).replace(os.sep, "/"))
            if m and n.endswith(".phhs"):
                groups.setdefault(f"{m.group(1)}-{m.group(2)}", []).append(os.path.join(d, n))
    if not groups:
        sys.exit(f"error: no <SITE>-..._<STAKE>NLH_OBFU folder with .phhs files under {dataset}")
    total = dropped = 0
    for group in sorted(groups):
        number = lambda p: int((FILE_NUMBER.search(p) or [0, 0])[1])  # noqa: E731
        files = sorted((p for p in groups[group] if number(p) >= first), key=number)
        taken = 0
        for path in files:
            if taken >= hands:
                break
            with open(path, encoding="utf-8", newline="") as f:
                secs = sections(f.read(), True)
            kept = [s for s in secs if not check or pokerkit_plays(s[1])][: hands - taken]
            dropped += len(secs) - len(kept)
            name = (FILE_NUMBER.search(path) or [None, None])[0] or os.path.basename(path)
            if kept:
                write_group(out, group, name, kept)
            taken += len(kept)
        print(f"{group}: {taken} hands")
        total += taken
    print(f"{total} hands")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("clone")
    c.add_argument("dataset")
    c.add_argument("out")
    c.add_argument("--hands", type=int, default=2000, help="hands per site and stake")
    c.add_argument("--first-file", type=int, default=1,
                   help="start at handhq_K (the sample in results/phh-dataset/ starts at 2)")
    p = sub.add_parser("parts")
    p.add_argument("parts")
    p.add_argument("out")
    for s in (c, p):
        s.add_argument("--pokerkit", action="store_true", help="keep only hands PokerKit plays")
    a = ap.parse_args()
    if a.mode == "clone":
        from_clone(a.dataset, a.out, a.hands, a.pokerkit, a.first_file)
    else:
        from_parts(a.parts, a.out, a.pokerkit)


if __name__ == "__main__":
    main()
