#!/bin/bash
#SBATCH --job-name=cardsim-merge
#SBATCH --cpus-per-task=1
#SBATCH --output=slurm-%j.out
# Joins the shards of a run into OUT/all.csv and OUT/all.json (and, for
# hold'em, OUT/all-pots.csv and OUT/all.phhs). merge verifies every shard's
# summary and files first, and names a missing shard.
set -euo pipefail
: "${CARDSIM_RUN_ENV:?is set by submit.sh: the settings file of the run}"
# shellcheck source=/dev/null
source "$CARDSIM_RUN_ENV"
extra=()
if [ "$CARDSIM_POTS" = 1 ]; then extra+=(--pots "$CARDSIM_OUT/all-pots.csv"); fi
if [ "$CARDSIM_PHH" = 1 ]; then extra+=(--phh "$CARDSIM_OUT/all.phhs"); fi
parts=()
for ((k = 0; k < CARDSIM_SHARDS; k++)); do parts+=("$CARDSIM_OUT/part$k.json"); done
exec "$CARDSIM_BIN" merge -q "${parts[@]}" -o "$CARDSIM_OUT/all.csv" \
  --summary "$CARDSIM_OUT/all.json" --hist "$CARDSIM_OUT/all-hist" "${extra[@]}"
