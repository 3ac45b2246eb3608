#!/usr/bin/env bash
# Regenerates results/fishing/: the 10^7-game reference run of the default
# rules (summary, histograms, picture), 10^6-game runs of two rule switches and
# 10^3 games of the J-on-an-empty-row switch, listing the first never-ending
# deal of each run if there is one, and the peak memory of 10^6- and 10^7-game
# runs (with FISHING_1E8=1 also of a 10^8-game run: about 15 more minutes).
# The CSVs go to a scratch folder through stdout (`-o -`), so each summary
# records their rows, bytes and hash without a path: `cardsim verify --rerun`
# checks them. Usage: bash scripts/reference_fishing.sh   (about 3 minutes on
# 2 cores; needs GNU time at /usr/bin/time, Debian's package `time`, and
# python3 with matplotlib and numpy: pip install -r scripts/requirements.txt).
# The scratch folder (the 10^7-game CSV is 363 MB) goes on any exit, and
# nothing in results/ changes unless the whole run succeeds (scripts/lib_reference.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib_reference.sh
need awk grep /usr/bin/time python:matplotlib python:numpy
begin
out=results/fishing
mkdir -p "$stage/$out"
cd "$stage"

run() { # name, games, extra flags...
  local name=$1 games=$2; shift 2
  "$bin" fishing -n "$games" --seed 20261122 "$@" -q -o - \
    --summary "$out/$name.summary.json" --hist "$out/$name.hist" > "$scratch/$name.csv"
  local cycle
  cycle=$(awk -F, 'NR > 1 && $NF == "cycle" { print $1; exit }' "$scratch/$name.csv")
  if [ -n "$cycle" ]; then
    { echo "first never-ending deal of '$name': game $cycle"
      "$bin" fishing --seed 20261122 "$@" --game "$cycle"; } > "$out/$name.cycle.txt"
  else
    echo "no never-ending deal in $games games of '$name'" > "$out/$name.cycle.txt"
  fi
  # Only the 10^7-game CSV is drawn; the others need no room once read.
  [ "$name" = default_rules ] || rm -f "$scratch/$name.csv"
}

run default_rules 10000000
python3 "$root/scripts/plot_fishing.py" "$scratch/default_rules.csv" "$out/game_length.png" \
  --title "fishing, default rules, 10^7 games, seed 20261122" --published-mean 1303
rm -f "$scratch/default_rules.csv"
run reverse_captures 1000000 --reverse-captures
run three_players 1000000 --players 3
run jack_empty_row_1e3 1000 --jack-captures-empty-row --card-limit 1000000
cat "$out"/*.cycle.txt

# Peak memory with the CSV streamed: the runner keeps threads x chunk games in
# flight, so 10^7 (or 10^8) games need no more memory than 10^6.
# Timed from the repository's root, so the report names the binary as
# target/release/cardsim.
memory() { # name, games
  (cd "$root" && /usr/bin/time -v -o "$stage/$out/memory_$1.time-v.txt" \
    "${bin#"$root"/}" fishing -n "$2" --seed 20261122 -q -o - > /dev/null)
  grep -E 'Command being timed|Maximum resident|Elapsed' "$out/memory_$1.time-v.txt"
}
memory 1e6 1000000
memory 1e7 10000000
if [ "${FISHING_1E8:-0}" = 1 ]; then
  memory 1e8 100000000
fi
publish "$out"
echo "results in $out"
