#!/bin/bash
#SBATCH --job-name=cardsim-shard
#SBATCH --cpus-per-task=2
#SBATCH --output=slurm-%A_%a.out
# One shard of a cardsim run: array task K runs `--shard K/N`. Submit it with
# submit.sh, which writes the run's settings to OUT/run.env (this script reads
# them) and sets --array. Every task runs with --resume: harmless without a
# checkpoint, and a requeued or rerun task continues where it was cut.
set -euo pipefail
: "${CARDSIM_RUN_ENV:?is set by submit.sh: the settings file of the run}"
# shellcheck source=/dev/null
source "$CARDSIM_RUN_ENV"
k=${SLURM_ARRAY_TASK_ID:?run me as an array task}
args=("${CARDSIM_GAME_ARGS[@]}")
if [ "$CARDSIM_POTS" = 1 ]; then args+=(--pots "$CARDSIM_OUT/part$k-pots.csv"); fi
if [ "$CARDSIM_PHH" = 1 ]; then args+=(--phh "$CARDSIM_OUT/part$k.phhs"); fi
# One thread per CPU Slurm gave the task (cardsim would otherwise start one
# per visible core).
exec "$CARDSIM_BIN" "${args[@]}" -q -j "${SLURM_CPUS_PER_TASK:-1}" \
  --shard "$k/$CARDSIM_SHARDS" --resume \
  -o "$CARDSIM_OUT/part$k.csv" --summary "$CARDSIM_OUT/part$k.json"
