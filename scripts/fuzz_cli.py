#!/usr/bin/env python3
"""Fuzzes the cardsim binary through every parser a user can reach.

Generates inputs (random and mutated card strings, ranges, fishing deals,
Tien len hands, solver hands, numeric flags, PHH files, shard summaries and
resume checkpoints, with Unicode and extreme numbers), runs each through the
release binary with a time limit and a memory cap, and counts:

  panic      exit status 101, or "panicked" on stderr
  hang       still running at the time limit (killed)
  abort      ended by a signal (an allocation abort is SIGABRT)
  bad-error  exit 1 or 2 without exactly one line "error: ..." on stderr, or
             with a line over 510 characters or a quoted piece of input
             ('...') over 60 characters not cut as "… (N characters)"
  other      any other exit status

Usage:
  cargo build --release
  python3 scripts/fuzz_cli.py --inputs 20000 [--seed 1] [--jobs 2]
      [--timeout 10] [--mem-mb 2048] [--bin target/release/cardsim]

Exit status 1 when anything but a value or a one-line error was seen; the
reproducers of every failure are written to fuzz-failures.txt.
"""

import argparse
import concurrent.futures as cf
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile

UNICODE = ["é", "♦", "♠", "♥", "♣", "♤", "中", "ß", "İ", "\u200b", "\u0301", "😀", "Ａ", "１", "\t", " ", ",", "-", "+", ":", "?", "/", "'", '"', "\\", "[", "]", "#", "=", "."]
ASCII = "23456789TJQKAshdcSHDCWXx10 ,:+-o"
NUMBERS = ["0", "-1", "-5", "1", "2", "7", "13", "52", "1e3", "1e9", "1e-320", "4.9e-324",
           "1e308", "nan", "inf", "-inf", "0x10", "٣", "", " 7", "18446744073709551615",
           "18446744073709551616", "9" * 40, "0.5", "1/2", "abc"]
SMALL = ["1", "2", "3", "10", "100", "1000"]

CARD_BASES = ["As Kd Qd Jd Td", "AsKd7c", "10h 9h 8h 7h 6h", "A♠ K♦ Q♦ J♦ T♦", "2c3c4c5c6c7c8c",
              "Ah7d2c", "joker", "W X"]
RANGE_BASES = ["QQ+,AKs", "AKo:0.5", "22-55", "KTo-K7o", "random", "AhAs", "T9s:0.25,A2s+",
               "AK", "QJ", "72o"]
TIEN_BASES = ["3h 4h 5h 5s 9c 2s", "3s 3c", "4d 5d 6d 7d", "2h 2s 2d 2c", "9c"]
SOLVE_BASES = ["9H 6H 6D 4H 3S", "8S 8H", "3s 4s", "AS KD"]


def mutate(rng, text, alphabet):
    s = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        i = rng.randrange(len(s) + 1)
        if op == 0:
            s.insert(i, rng.choice(UNICODE))
        elif op == 1:
            s.insert(i, rng.choice(alphabet))
        elif op == 2 and s:
            del s[min(i, len(s) - 1)]
        elif op == 3 and s:
            s[min(i, len(s) - 1)] = rng.choice(UNICODE + list(alphabet))
        elif op == 4:
            s = s[:i]
        elif op == 5 and s:
            j = rng.randrange(len(s))
            s[i:i] = s[j:j + rng.randint(1, 6)] * rng.randint(1, 50)
        else:
            s.insert(i, rng.choice(alphabet) * rng.randint(1, 3000))
    out = "".join(s)
    return out[:100_000] if out else rng.choice(UNICODE)


def cards(rng, bases=CARD_BASES):
    base = rng.choice(bases)
    return base if rng.random() < 0.1 else mutate(rng, base, ASCII)


def a_range(rng):
    parts = [rng.choice(RANGE_BASES) for _ in range(rng.randint(1, 3))]
    text = ",".join(parts)
    if rng.random() < 0.3:
        text += ":" + rng.choice(NUMBERS)
    return text if rng.random() < 0.2 else mutate(rng, text, ASCII)


def deal(rng):
    faces = list("23456789TJQKA") * 4 + ["W", "W"]
    rng.shuffle(faces)
    text = " ".join("10" if f == "T" and rng.random() < 0.3 else f for f in faces)
    return text if rng.random() < 0.1 else mutate(rng, text, ASCII)


def number(rng):
    """A count: small when valid (a valid 2^64-1 or 1e9 games would only be
    slow: counts read 1e9 and 1,000,000 as numbers), or one that must be
    refused."""
    valid_and_huge = {"18446744073709551615", "1e9", "1e3"}
    return rng.choice(SMALL + [x for x in NUMBERS if x not in valid_and_huge and not x.isdigit()] + ["0", "-1"])


class Corpus:
    """Valid files to mutate: PHH hands, shard summaries, a checkpoint."""

    def __init__(self, binary, work):
        self.binary, self.work = binary, work
        phh_dir = os.path.join(work, "phh")
        subprocess.run([binary, "holdem", "-n", "200", "-q", "--ante", "1", "--phh", phh_dir,
                        "--phh-every", "1"], check=True)
        self.phh = [open(os.path.join(phh_dir, f), encoding="utf-8").read()
                    for f in sorted(os.listdir(phh_dir))]
        self.summaries = []
        for k in range(2):
            path = os.path.join(work, f"s{k}.json")
            subprocess.run([binary, "fishing", "-n", "2000", "-q", "--shard", f"{k}/2", "-o",
                            os.path.join(work, f"s{k}.csv"), "--summary", path], check=True)
            self.summaries.append(open(path, encoding="utf-8").read())
        # A checkpoint: a run cut by a file-size limit (as a full disk would).
        ck = os.path.join(work, "ck")
        os.mkdir(ck)
        self.ckpt_args = ["fishing", "-n", "60000", "-j", "1", "-q", "--checkpoint-every",
                          "0.000001", "-o", os.path.join(ck, "x.csv")]
        subprocess.run(["bash", "-c", "trap '' XFSZ; ulimit -f 1000; exec \"$0\" \"$@\"", binary]
                       + self.ckpt_args, stderr=subprocess.DEVNULL)
        self.ckpt = open(os.path.join(ck, "x.csv.partial.ckpt"), "rb").read()
        self.partial = open(os.path.join(ck, "x.csv.partial"), "rb").read()


def mutate_bytes(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(4)
        i = rng.randrange(len(b)) if b else 0
        if op == 0 and b:
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            b[i:i] = rng.choice([b"9" * 25, b"-1", "é".encode(), b"\xff", b"[10]\n", b"true", b"null"])
        elif op == 2 and b:
            del b[i:i + rng.randint(1, 40)]
        else:
            b = b[:i]
    return bytes(b)


def mutate_json_value(rng, text):
    """Sets one number or string of a JSON document to an extreme value."""
    doc = json.loads(text)
    paths = []

    def walk(v, path):
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, path + [k])
        elif isinstance(v, list):
            for k, x in enumerate(v):
                walk(x, path + [k])
        else:
            paths.append(path)

    walk(doc, [])
    path = rng.choice(paths)
    target = doc
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = rng.choice([-1, 0, 2**63, 2**64, -2**63, 1e308, "x", None, [], "9" * 30,
                                   "é", True])
    return json.dumps(doc)


def make_input(rng, corpus, work, n):
    """One command line (and stdin bytes) to try."""
    kind = rng.randrange(13)
    stdin = b""
    if kind == 0:
        args = ["eval", cards(rng)] + (["--json"] if rng.random() < 0.3 else [])
    elif kind == 1:
        args = ["eval", "-"]
        stdin = mutate_bytes(rng, ("\n".join(cards(rng) for _ in range(3))).encode())
    elif kind == 2:
        args = ["equity"] + [a_range(rng) for _ in range(rng.randint(1, 11))]
        if rng.random() < 0.4:
            args += ["--board", cards(rng)]
        if rng.random() < 0.3:
            args += ["--dead", cards(rng)]
        stop = rng.randrange(5)
        if stop == 0:
            args += ["--trials", rng.choice(["1", "1000", "100000"] + NUMBERS[:3])]
        elif stop == 1:
            args += ["--time", rng.choice(["0.5", "1", "0", "-1", "nan", "1e9"])]
        elif stop == 2:
            args += ["--stderr", rng.choice(["0.01", "0.001", "0", "nan", "-1", "1e-300"])]
        elif stop == 3:
            args += ["--exact"]
    elif kind == 3:
        args = ["fishing", "--deal", deal(rng)] + (["--trace"] if rng.random() < 0.3 else [])
        if rng.random() < 0.3:
            args += ["--players", number(rng)]
    elif kind == 4:
        args = ["fishing", "-q", "-n", number(rng), "--seed", number(rng), "-j",
                rng.choice(["1", "2", "0", "-1", "999999"])]
        if rng.random() < 0.5:
            args += ["--shard", rng.choice(["0/2", "1/1", "2/2", "-1/3", "1/0", "a/b", "0/18446744073709551616"])]
    elif kind == 5:
        args = ["tienlen", "hint", "--hand", cards(rng, TIEN_BASES)]
        if rng.random() < 0.4:
            args += ["--beat", cards(rng, TIEN_BASES)]
        if rng.random() < 0.3:
            args += ["--rules", rng.choice(["cambodian", "seed", "vietnamese", "x", ""])]
    elif kind == 6:
        args = ["tienlen", "classify", cards(rng, TIEN_BASES)]
    elif kind == 7:
        args = ["tienlen", "-q", "-n", number(rng), "--agents",
                mutate(rng, "greedy,random,planner", "greedyrandomplanner,")]
    elif kind == 8:
        args = ["solve", cards(rng, SOLVE_BASES), cards(rng, SOLVE_BASES), "--table-bits",
                rng.choice(["4", "12", "20", "26", "27", "30", "-1", "x"])]
        if rng.random() < 0.3:
            args += ["--rules", rng.choice(["pairs", "tienlen", "x"])]
    elif kind == 9:
        # Deals of 10 or more cards take up to 0.1 s each: a few of them, so
        # a valid request stays short (1,000 13-card deals are a minute's
        # honest work, not a hang).
        cards_per_hand = rng.choice(["1", "5", "7", "13", "14", "0", "-1"])
        deals = rng.choice(["1", "3", "x", "-1", "0"]) if cards_per_hand == "13" else number(rng)
        args = ["solve", "-q", "--random", deals, "--cards", cards_per_hand]
    elif kind == 10:
        text = rng.choice(corpus.phh)
        data = mutate_bytes(rng, text.encode()) if rng.random() < 0.6 else mutate_json_free(rng, text)
        if rng.random() < 0.3:
            args = ["replay", "-"] + (["--check"] if rng.random() < 0.5 else [])
            stdin = data
        else:
            path = os.path.join(work, f"in{n}.phh")
            open(path, "wb").write(data)
            args = ["replay", path] + (["--check"] if rng.random() < 0.5 else [])
    elif kind == 11:
        paths = []
        for k, text in enumerate(corpus.summaries):
            path = os.path.join(work, f"in{n}-s{k}.json")
            if rng.random() < 0.5:
                data = mutate_bytes(rng, text.encode())
            else:
                data = mutate_json_value(rng, text).encode()
            open(path, "wb").write(data)
            shutil.copy(os.path.join(corpus.work, f"s{k}.csv"), os.path.join(work, f"s{k}.csv"))
            paths.append(path)
        args = ["merge", "-q"] + paths + ["-o", os.path.join(work, f"in{n}-merged.csv")]
    else:
        folder = os.path.join(work, f"ck{n}")
        os.mkdir(folder)
        open(os.path.join(folder, "x.csv.partial"), "wb").write(
            corpus.partial if rng.random() < 0.7 else mutate_bytes(rng, corpus.partial))
        open(os.path.join(folder, "x.csv.partial.ckpt"), "wb").write(mutate_bytes(rng, corpus.ckpt))
        args = corpus.ckpt_args[:-1] + [os.path.join(folder, "x.csv"), "--resume"]
    return args, stdin


def mutate_json_free(rng, text):
    """Rewrites a number in a PHH text to an extreme value."""
    import re
    nums = list(re.finditer(r"\d+", text))
    if not nums:
        return text.encode()
    m = rng.choice(nums)
    new = rng.choice(["9223372036854775807", "18446744073709551616", "0", "1099511627777", "-3"])
    return (text[:m.start()] + new + text[m.end():]).encode()


QUOTED = re.compile(r"'([^']*)'")
CUT = re.compile(r"… \(\d+ characters\)$")


def one_short_line(line):
    """The error contract: at most 'error: ' and 500 characters (then '…'),
    every quoted piece at most 60 characters or cut as '… (N characters)'."""
    if len(line) > len("error: ") + 501:
        return False
    for piece in QUOTED.findall(line):
        if len(piece) > 60 and not CUT.search(piece):
            return False
    return True


def run_one(binary, args, stdin, timeout, mem_mb):
    def limits():
        cap = mem_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    env = {k: v for k, v in os.environ.items() if k != "RUST_BACKTRACE"}
    try:
        p = subprocess.run([binary] + args, input=stdin, capture_output=True, timeout=timeout,
                           preexec_fn=limits, env=env)
    except subprocess.TimeoutExpired:
        return "hang", ""
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode == 101 or "panicked" in err:
        return "panic", err
    if p.returncode < 0:
        return "abort", f"signal {-p.returncode}: {err}"
    if p.returncode in (1, 2):
        lines = err.rstrip("\n").split("\n")
        if len(lines) != 1 or not lines[0].startswith("error: "):
            return "bad-error", err
        if not one_short_line(lines[0]):
            return "bad-error", err
        # Exit 1 (a failure while running) is kept for a look: bad input
        # should be exit 2.
        return f"exit-{p.returncode}", err if p.returncode == 1 else ""
    if p.returncode == 0:
        return "ok", ""
    return "other", f"exit {p.returncode}: {err}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--mem-mb", type=int, default=2048)
    ap.add_argument("--bin", default="target/release/cardsim")
    ap.add_argument("--failures", default="fuzz-failures.txt")
    a = ap.parse_args()
    binary = os.path.abspath(a.bin)
    rng = random.Random(a.seed)
    counts = {}
    failures = []
    with tempfile.TemporaryDirectory() as work:
        corpus_dir = os.path.join(work, "corpus")
        os.mkdir(corpus_dir)
        corpus = Corpus(binary, corpus_dir)
        inputs = [make_input(rng, corpus, work, n) for n in range(a.inputs)]
        with cf.ThreadPoolExecutor(a.jobs) as pool:
            futures = {pool.submit(run_one, binary, args, stdin, a.timeout, a.mem_mb): (args, stdin)
                       for args, stdin in inputs}
            for done, f in enumerate(cf.as_completed(futures), 1):
                verdict, detail = f.result()
                counts[verdict] = counts.get(verdict, 0) + 1
                if verdict in ("panic", "hang", "abort", "bad-error", "other", "exit-1"):
                    args, stdin = futures[f]
                    failures.append((verdict, args, stdin[:200], detail[:2000]))
                if done % 1000 == 0:
                    print(f"{done}/{a.inputs} {counts}", file=sys.stderr, flush=True)
    bad = sum(counts.get(k, 0) for k in ("panic", "hang", "abort", "bad-error", "other"))
    print(f"inputs: {a.inputs}  seed: {a.seed}  " + "  ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    print(f"panics: {counts.get('panic', 0)}  hangs: {counts.get('hang', 0)}  aborts: {counts.get('abort', 0)}  "
          f"bad errors: {counts.get('bad-error', 0)}  other: {counts.get('other', 0)}")
    with open(a.failures, "w", encoding="utf-8") as f:
        for verdict, args, stdin, detail in failures:
            f.write(f"{verdict}: {json.dumps(args, ensure_ascii=False)[:3000]}\n  stdin: {stdin!r}\n  {detail}\n")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
