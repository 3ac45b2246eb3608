#!/bin/bash
# Tests the Slurm recipe on a real, single-node Slurm: installs slurm-wlm and
# munge from Debian's packages when missing, starts munged, slurmctld and
# slurmd with a generated slurm.conf in a temporary directory, submits a
# fishing run and a hold'em run (--pots, --phh FILE.phhs) through submit.sh,
# cancels one array task midway and reruns it, and checks that every merged
# output is byte-identical to the unsharded run (the summary's statistics
# equal). Every daemon is stopped by its PID at the end, whatever happens. If
# the daemons cannot start, it fails with their logs.
# Usage: bash scripts/slurm/check.sh   (needs root; about 2 minutes)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
started=$(date +%s)
say() { echo "[slurm-check $(($(date +%s) - started))s] $*"; }

if [ "$(id -u)" != 0 ]; then
  echo "error: scripts/slurm/check.sh starts Slurm's daemons and needs root" >&2
  exit 2
fi
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  say "installing slurm-wlm and munge"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

T=$(mktemp -d /tmp/cardsim-slurm.XXXXXX)
pids=()
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ "$status" != 0 ]; then
    for log in "$T"/*.log; do
      [ -f "$log" ] && { echo "---- $log"; tail -n 40 "$log"; }
    done
  fi
  rm -rf "$T"
  exit "$status"
}
trap cleanup EXIT

# munge: its own key and socket under $T, so a munged already running is
# left alone.
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/runs"
chmod 700 "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge/munge.key"
munged --force --foreground --key-file="$T/munge/munge.key" \
  --socket="$T/munge/munge.socket" --pid-file="$T/munge/munged.pid" \
  --log-file="$T/munged.log" --seed-file="$T/munge/seed" 2>>"$T/munged.log" &
pids+=($!)

node=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ { printf "%d", $2 / 1024 / 2 }' /proc/meminfo)
cat > "$T/slurm.conf" <<CONF
ClusterName=cardsim
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.socket
CredType=cred/munge
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=check Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/slurm.conf
slurmctld -D -f "$SLURM_CONF" 2>>"$T/slurmctld.log" &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" 2>>"$T/slurmd.log" &
pids+=($!)
for _ in $(seq 60); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then break; fi
  sleep 0.5
done
if ! sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
  echo "error: the Slurm node did not come up" >&2
  sinfo >&2 || true
  exit 1
fi
say "slurm is up: $(sinfo -h -o '%P %D %T %c')"

cd "$repo"
# The test profile (optimised) reuses what `cargo test` built: seconds, where
# a release build with LTO takes two minutes on 2 cores.
cargo build --locked --quiet --profile test --bin cardsim
export CARDSIM_BIN=$repo/target/debug/cardsim

# Waits until none of the given jobs is pending or running.
wait_jobs() {
  for _ in $(seq 600); do
    if [ -z "$(squeue -h -j "$1" -t PD,R,CG -o %i 2>/dev/null)" ]; then return 0; fi
    sleep 0.3
  done
  echo "error: jobs $1 did not finish" >&2
  squeue >&2
  exit 1
}

# Statistics of a summary: what must equal between a merge and the whole run.
stats() {
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ["wall_time_s", "games_per_s", "threads", "shard", "command", "checksum",
          "started_unix_s", "finished_unix_s", "merged"]:
    d.pop(k, None)
for k in ["csv", "side_csv", "bundle"]:
    if isinstance(d.get(k), dict):
        d[k].pop("path", None)
print(json.dumps(d, sort_keys=True))
PY
}

check_run() { # name, shards, cancel_task, submit flags..., -- game args...
  local name=$1 shards=$2 cancel=$3
  shift 3
  local flags=()
  while [ "$1" != -- ]; do flags+=("$1"); shift; done
  shift
  local out=$T/runs/$name
  say "$name: submitting $shards shards: ${flags[*]} $*"
  read -r jid mid < <("$here/submit.sh" --cpus 1 "${flags[@]}" "$shards" "$out" "$@")
  # Cancel one task once it has saved a checkpoint: a task cut midway.
  for _ in $(seq 3000); do
    [ -f "$out/part$cancel.csv.partial.ckpt" ] && break
    sleep 0.02
  done
  scancel "${jid}_$cancel"
  say "$name: cancelled task $cancel of job $jid midway"
  wait_jobs "$jid"
  # The merge can never start (its dependency failed): cancel it, rerun the
  # cut task with the same command, and merge again.
  scancel "$mid" 2>/dev/null || true
  [ -f "$out/part$cancel.csv.partial" ] || { echo "error: task $cancel finished before it was cancelled" >&2; exit 1; }
  read -r jid mid < <("$here/submit.sh" --cpus 1 --rerun "$cancel" "${flags[@]}" "$shards" "$out" "$@")
  say "$name: reran task $cancel as job $jid (resumed from its checkpoint), merge $mid"
  wait_jobs "$jid,$mid"
  [ -f "$out/all.json" ] || { echo "error: $name: the merge wrote nothing" >&2; cat "$out"/slurm-*.out >&2; exit 1; }
  # The unsharded run, here.
  local whole=(-o "$T/$name-whole.csv" --summary "$T/$name-whole.json")
  for f in "${flags[@]}"; do
    case $f in
      --pots) whole+=(--pots "$T/$name-whole-pots.csv") ;;
      --phh) whole+=(--phh "$T/$name-whole.phhs") ;;
    esac
  done
  "$CARDSIM_BIN" "$@" -q "${whole[@]}"
  cmp "$out/all.csv" "$T/$name-whole.csv"
  for f in "${flags[@]}"; do
    case $f in
      --pots) cmp "$out/all-pots.csv" "$T/$name-whole-pots.csv" ;;
      --phh) cmp "$out/all.phhs" "$T/$name-whole.phhs" ;;
    esac
  done
  [ "$(stats "$out/all.json")" = "$(stats "$T/$name-whole.json")" ] || {
    echo "error: $name: the merged statistics differ from the unsharded run's" >&2
    exit 1
  }
  "$CARDSIM_BIN" verify "$out/all.json" >/dev/null
  say "$name: merged outputs byte-identical to the unsharded run ($(wc -l < "$out/all.csv") CSV lines)"
}

# --checkpoint-every (hidden; seconds between checkpoints) makes the cut
# task's checkpoint come early.
check_run fishing 4 2 -- fishing -n 400000 --seed 11 --checkpoint-every 0.05
check_run holdem 4 1 --pots --phh -- holdem -n 200000 --seed 12 --phh-every 7 \
  --checkpoint-every 0.05
say "passed"
