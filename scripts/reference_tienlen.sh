#!/usr/bin/env bash
# Regenerates results/tienlen/: reference runs of `cardsim tienlen` (seed
# 20261122, rules `cambodian`, the default) and their picture.
#   four greedy agents, 10^6 games;
#   planner against three greedy agents, seat-rotated, 10^5 games;
#   greedy against three random agents, 10^5 games.
# Usage: bash scripts/reference_tienlen.sh   (about a minute on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/cardsim
out=results/tienlen
tmp=$(mktemp -d)
mkdir -p "$out"
"$bin" tienlen -n 1000000 --agents greedy,greedy,greedy,greedy -q \
  -o - --summary "$out/greedy4.summary.json" --hist "$out/greedy4-hist" > "$tmp/greedy4.csv"
"$bin" tienlen -n 100000 --agents planner,greedy,greedy,greedy --rotate -q \
  --summary "$out/planner-vs-greedy.summary.json"
"$bin" tienlen -n 100000 --agents greedy,random,random,random -q \
  --summary "$out/greedy-vs-random.summary.json"
python3 scripts/plot_tienlen.py "$tmp/greedy4.csv" "$out/greedy4.summary.json" \
  "$out/planner-vs-greedy.summary.json" "$out/greedy-vs-random.summary.json" "$out/tienlen.png"
rm -rf "$tmp"
echo "results in $out"
