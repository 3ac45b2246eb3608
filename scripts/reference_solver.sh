#!/usr/bin/env bash
# Regenerates results/solver/: the leader's perfect-play win rate for K cards
# each (1000 random deals per K, seed 20261122) under both rule sets, as
# per-K summaries, one table (win_rate.csv) and a picture.
# Usage: bash scripts/reference_solver.sh [DEALS]   (about 3 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
deals=${1:-1000}
cargo build --release --quiet
bin=target/release/cardsim
out=results/solver
mkdir -p "$out"
echo "rules,cards,deals,a_win_rate,ci_low,ci_high,mean_nodes,max_nodes,wall_time_s" > "$out/win_rate.csv.partial"
for rules in pairs tienlen; do
  # tienlen stops at 10 cards: 13-card deals take tens of seconds each here.
  max=13; [ "$rules" = tienlen ] && max=10
  for k in $(seq 1 "$max"); do
    "$bin" solve --random "$deals" --cards "$k" --rules "$rules" --seed 20261122 -q \
      --summary "$out/$rules-$k.summary.json"
    python3 - "$out/$rules-$k.summary.json" "$rules" "$k" >> "$out/win_rate.csv.partial" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["metrics"]}
w, n = m["a_wins"], m["nodes"]
print(f'{sys.argv[2]},{sys.argv[3]},{d["games"]},{w["mean"]:.4f},{w["ci95"][0]:.4f},{w["ci95"][1]:.4f},{n["mean"]:.1f},{n["max"]:.0f},{d["wall_time_s"]:.2f}')
PY
  done
done
mv "$out/win_rate.csv.partial" "$out/win_rate.csv"
python3 scripts/plot_solver.py "$out/win_rate.csv" "$out/win_rate.png"
cat "$out/win_rate.csv"
