#!/usr/bin/env bash
# Regenerates results/fishing/: the 10^7-game reference run of the seed's
# rules (summary, histograms, picture) and 10^6-game runs of two rule switches,
# listing the first never-ending deal of each run if there is one.
# The CSVs go to a temporary folder through stdout (`-o -`), so each summary
# records their rows, bytes and hash without a path: `cardsim verify --rerun`
# checks them. Usage: bash scripts/reference_fishing.sh   (about 3 minutes on
# 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/cardsim
out=results/fishing
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

run() { # name, games, extra flags...
  local name=$1 games=$2; shift 2
  "$bin" fishing -n "$games" --seed 20261122 "$@" -q -o - \
    --summary "$out/$name.summary.json" --hist "$out/$name.hist" > "$tmp/$name.csv"
  local cycle
  cycle=$(awk -F, 'NR > 1 && $NF == "cycle" { print $1; exit }' "$tmp/$name.csv")
  if [ -n "$cycle" ]; then
    { echo "first never-ending deal of '$name': game $cycle"
      "$bin" fishing --seed 20261122 "$@" --game "$cycle"; } > "$out/$name.cycle.txt"
  else
    echo "no never-ending deal in $games games of '$name'" > "$out/$name.cycle.txt"
  fi
}

run seed_rules 10000000
python3 scripts/plot_fishing.py "$tmp/seed_rules.csv" "$out/game_length.png" \
  --title "fishing, seed rules, 10^7 games, seed 20261122"
run reverse_captures 1000000 --reverse-captures
run three_players 1000000 --players 3
run jack_empty_row_1e3 1000 --jack-captures-empty-row --card-limit 1000000
cat "$out"/*.cycle.txt
