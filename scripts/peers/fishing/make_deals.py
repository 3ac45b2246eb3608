"""Writes N random fishing deals (54 bytes each: faces 0..12 for 2..A, 13 for
a joker, front of the deck first) for the side-by-side speed comparison.
Usage: python3 make_deals.py N SEED OUT"""
import random
import sys

n, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
deck = [i // 4 for i in range(52)] + [13, 13]
with open(out, "wb") as f:
    for _ in range(n):
        rng.shuffle(deck)
        f.write(bytes(deck))
