#!/bin/bash
# Runs a cardsim simulation as a Slurm job array of N shards, then merges them
# in a second job that starts only when every shard succeeded
# (--dependency=afterok).
#
# Usage: scripts/slurm/submit.sh [--pots] [--phh] [--cpus C] [--rerun K[,K...]] \
#          N OUTDIR GAME [GAME OPTIONS...]
#   scripts/slurm/submit.sh 16 runs/fishing fishing -n 100000000 --seed 7
#   scripts/slurm/submit.sh --pots --phh 8 runs/holdem holdem -n 1000000
#   scripts/slurm/submit.sh --rerun 3 16 runs/fishing fishing -n 100000000 --seed 7
# --pots / --phh: hold'em's pots CSV and .phhs hand histories, per shard and
# merged. --rerun: resubmit only these array tasks (same run, same command)
# and a new merge. OUTDIR must be on a filesystem every node sees; cardsim
# must be installed on every node (or set CARDSIM_BIN to its path there).
# Prints the two job ids.
set -euo pipefail
pots=0 phh=0 cpus=2 rerun=""
while [ $# -gt 0 ]; do
  case $1 in
    --pots) pots=1; shift ;;
    --phh) phh=1; shift ;;
    --cpus) cpus=$2; shift 2 ;;
    --rerun) rerun=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 3 ]; then
  sed -n '2,17p' "$0" >&2
  exit 2
fi
shards=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin=${CARDSIM_BIN:-$(command -v cardsim || true)}
if [ -z "$bin" ]; then
  echo "error: cardsim is not on PATH (cargo install --path . --locked, or set CARDSIM_BIN)" >&2
  exit 2
fi
env_file=$out/run.env
{
  printf 'CARDSIM_BIN=%q\n' "$bin"
  printf 'CARDSIM_OUT=%q\n' "$out"
  printf 'CARDSIM_SHARDS=%q\n' "$shards"
  printf 'CARDSIM_POTS=%q\nCARDSIM_PHH=%q\n' "$pots" "$phh"
  printf 'CARDSIM_GAME_ARGS=('
  printf '%q ' "$@"
  printf ')\n'
} > "$env_file"
array=${rerun:-0-$((shards - 1))}
jid=$(cd "$out" && sbatch --parsable --array="$array" --cpus-per-task="$cpus" \
  --export=ALL,CARDSIM_RUN_ENV="$env_file" "$here/job.sh")
jid=${jid%%;*}
mid=$(cd "$out" && sbatch --parsable --dependency=afterok:"$jid" \
  --export=ALL,CARDSIM_RUN_ENV="$env_file" "$here/merge.sh")
echo "$jid ${mid%%;*}"
