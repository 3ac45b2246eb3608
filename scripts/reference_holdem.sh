#!/usr/bin/env bash
# Regenerates results/holdem/: the reference run of `cardsim holdem`, 10^6
# 6-max hands (seed 20261122, blinds 1/2, stacks uniform 10 to 200 big
# blinds, agents tag, station, random, pushfold, tag, station), with the
# pots CSV, all-in equity (heads-up preflop: exact from the preflop table,
# though this table has none; multiway preflop: 1,000 Monte Carlo boards), histograms,
# a side-pot summary and the picture; a sample of hand histories (every
# 100,000th hand) goes to results/holdem/phh/.
# Usage: bash scripts/reference_holdem.sh   (a minute or two on 2 cores; needs
# python3 with matplotlib and numpy: pip install -r scripts/requirements.txt).
# Nothing in results/ changes unless the whole run succeeds, and the scratch
# folder goes on any exit (scripts/lib_reference.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib_reference.sh
need mkfifo python:matplotlib python:numpy
begin
out=results/holdem
mkdir -p "$stage/$out"
cd "$stage"
# Both CSVs reach the scratch folder through FIFOs, so the summary records
# their rows, bytes and hash without a path (`cardsim verify --rerun` checks
# them) and nothing large is committed.
mkfifo "$scratch/hands.fifo" "$scratch/pots.fifo"
cat "$scratch/hands.fifo" > "$scratch/hands.csv" &
cat "$scratch/pots.fifo" > "$scratch/pots.csv" &
"$bin" holdem --hands 1000000 --players 6 --agents tag,station,random,pushfold,tag,station \
  --stacks uniform:10bb-200bb --blinds 1/2 -q \
  -o "$scratch/hands.fifo" --pots "$scratch/pots.fifo" --summary "$out/summary.json" --hist "$out/hist" \
  --phh "$out/phh" --phh-every 100000
wait
python3 "$root/scripts/plot_holdem.py" "$scratch/hands.csv" "$scratch/pots.csv" "$out/holdem.png" \
  "$out/summary.json" > "$out/side_pots.txt"
publish "$out"
cat "$root/$out/side_pots.txt"
echo "results in $out"
