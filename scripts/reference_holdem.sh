#!/usr/bin/env bash
# Regenerates results/holdem/: the reference run of `cardsim holdem`, 10^6
# 6-max hands (seed 20261122, blinds 1/2, stacks uniform 10 to 200 big
# blinds, agents tag, station, random, pushfold, tag, station), with the
# pots CSV, all-in equity (heads-up preflop: exact from the preflop table,
# though this table has none; multiway preflop: 1,000 Monte Carlo boards), histograms,
# a side-pot summary and the picture; a sample of hand histories (every
# 100,000th hand) goes to results/holdem/phh/.
# Usage: bash scripts/reference_holdem.sh   (a minute or two on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/cardsim
out=results/holdem
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
rm -rf "$out/hist" "$out/phh"
# Both CSVs reach the temporary folder through FIFOs, so the summary records
# their rows, bytes and hash without a path (`cardsim verify --rerun` checks
# them) and nothing large is committed.
mkfifo "$tmp/hands.fifo" "$tmp/pots.fifo"
cat "$tmp/hands.fifo" > "$tmp/hands.csv" &
cat "$tmp/pots.fifo" > "$tmp/pots.csv" &
"$bin" holdem --hands 1000000 --players 6 --agents tag,station,random,pushfold,tag,station \
  --stacks uniform:10bb-200bb --blinds 1/2 -q \
  -o "$tmp/hands.fifo" --pots "$tmp/pots.fifo" --summary "$out/summary.json" --hist "$out/hist" \
  --phh "$out/phh" --phh-every 100000
wait
python3 scripts/plot_holdem.py "$tmp/hands.csv" "$tmp/pots.csv" "$out/holdem.png" \
  "$out/summary.json" > "$out/side_pots.txt"
cat "$out/side_pots.txt"
echo "results in $out"
