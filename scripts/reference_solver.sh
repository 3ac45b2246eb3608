#!/usr/bin/env bash
# Regenerates results/solver/: the leader's perfect-play win rate for K cards
# each (1000 random deals per K, seed 20261122) under both rule sets, as
# per-K summaries, one table (win_rate.csv) and a picture.
# Usage: bash scripts/reference_solver.sh [DEALS]   (about 3 minutes on 2 cores;
# needs python3 with matplotlib: pip install -r scripts/requirements.txt).
# Nothing in results/ changes unless the whole run succeeds (scripts/lib_reference.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib_reference.sh
need python:matplotlib
deals=${1:-1000}
case $deals in
  '' | *[!0-9]*) echo "error: DEALS must be a whole number, got '$deals'" >&2; exit 2 ;;
esac
begin
out=results/solver
mkdir -p "$stage/$out"
cd "$stage"
echo "rules,cards,deals,a_win_rate,ci_low,ci_high,mean_nodes,max_nodes,wall_time_s" > "$out/win_rate.csv"
for rules in pairs tienlen; do
  # tienlen stops at 10 cards: 13-card deals take tens of seconds each here.
  max=13; [ "$rules" = tienlen ] && max=10
  for k in $(seq 1 "$max"); do
    "$bin" solve --random "$deals" --cards "$k" --rules "$rules" --seed 20261122 -q \
      --summary "$out/$rules-$k.summary.json"
    python3 - "$out/$rules-$k.summary.json" "$rules" "$k" >> "$out/win_rate.csv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["metrics"]}
w, n = m["a_wins"], m["nodes"]
print(f'{sys.argv[2]},{sys.argv[3]},{d["games"]},{w["mean"]:.4f},{w["ci95"][0]:.4f},{w["ci95"][1]:.4f},{n["mean"]:.1f},{n["max"]:.0f},{d["wall_time_s"]:.2f}')
PY
  done
done
python3 "$root/scripts/plot_solver.py" "$out/win_rate.csv" "$out/win_rate.png"
publish "$out"
cat "$root/$out/win_rate.csv"
