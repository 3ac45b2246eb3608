#!/usr/bin/env bash
# Regenerates results/tienlen/: reference runs of `cardsim tienlen` (seed
# 20261122, rules `cambodian`, the default) and their picture.
#   four greedy agents, 10^6 games;
#   planner against three greedy agents, seat-rotated, 10^5 games;
#   greedy against three random agents, 10^5 games.
# Usage: bash scripts/reference_tienlen.sh   (about a minute on 2 cores; needs
# python3 with matplotlib and numpy: pip install -r scripts/requirements.txt).
# The 10^6-game CSV (38 MB) lives in a scratch folder removed on any exit, and
# nothing in results/ changes unless the whole run succeeds (scripts/lib_reference.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib_reference.sh
need python:matplotlib python:numpy
begin
out=results/tienlen
mkdir -p "$stage/$out"
cd "$stage"
"$bin" tienlen -n 1000000 --agents greedy,greedy,greedy,greedy -q \
  -o - --summary "$out/greedy4.summary.json" --hist "$out/greedy4-hist" > "$scratch/greedy4.csv"
"$bin" tienlen -n 100000 --agents planner,greedy,greedy,greedy --rotate -q \
  --summary "$out/planner-vs-greedy.summary.json"
"$bin" tienlen -n 100000 --agents greedy,random,random,random -q \
  --summary "$out/greedy-vs-random.summary.json"
python3 "$root/scripts/plot_tienlen.py" "$scratch/greedy4.csv" "$out/greedy4.summary.json" \
  "$out/planner-vs-greedy.summary.json" "$out/greedy-vs-random.summary.json" "$out/tienlen.png"
publish "$out"
echo "results in $out"
