# Shared by scripts/reference_*.sh (sourced, not run). A reference run takes
# minutes and rewrites committed files, so it must not fail halfway:
#   - need: every tool the run uses is checked before any work, and a
#     missing one stops the run with one line saying how to install it;
#   - a scratch folder (the large CSVs, FIFOs and the staged results) is
#     removed on any exit: success, error, or a signal (INT, TERM, HUP);
#   - the results are written under "$stage" with the same relative paths
#     as in the repository (summaries record their command, which
#     `cardsim verify --rerun` replays from the repository's root), and
#     `publish` moves them over the committed ones only once the whole run
#     succeeded.
# The binary is target/release/cardsim, built first, or $CARDSIM_BIN when set
# (then nothing is built: the tests use the binary they built).

root=$PWD
script=scripts/$(basename "$0")

# need TOOL...: commands on PATH, an absolute path (/usr/bin/time), or
# python:MODULE for a module python3 must import. Exits 1 before any work,
# with one line naming all that is missing and how to install it.
need() {
  local missing=() hints=() lacking=() t
  for t in "$@"; do
    case $t in
      python:*) ;;
      /usr/bin/time) [ -x "$t" ] || { missing+=("$t"); hints+=("apt-get install time"); } ;;
      *) command -v "$t" >/dev/null 2>&1 || { missing+=("$t"); hints+=("your system's $t"); } ;;
    esac
  done
  if [ -z "${CARDSIM_BIN:-}" ] && ! command -v cargo >/dev/null 2>&1; then
    missing+=(cargo)
    hints+=("Rust from https://rustup.rs")
  fi
  for t in "$@"; do
    case $t in
      python:*)
        if ! command -v python3 >/dev/null 2>&1; then
          missing+=(python3)
          hints+=("python3, then pip install -r scripts/requirements.txt")
          break
        fi
        python3 -c "import ${t#python:}" >/dev/null 2>&1 || lacking+=("${t#python:}")
        ;;
    esac
  done
  if [ ${#lacking[@]} -gt 0 ]; then
    missing+=("python3 modules ${lacking[*]}")
    hints+=("pip install -r scripts/requirements.txt")
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    echo "error: $script needs $(joined "${missing[@]}") (install: $(joined "${hints[@]}")); nothing was run or changed" >&2
    exit 1
  fi
}

# joined A B C: "A, B, C".
joined() {
  local out="" x
  for x in "$@"; do
    out+="${out:+, }$x"
  done
  printf '%s' "$out"
}

# begin: the scratch folder ("$scratch", the staged results in "$stage"),
# removed on any exit, and the binary ("$bin"). Call it after `need`.
begin() {
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/cardsim-reference.XXXXXX")
  stage=$scratch/stage
  mkdir -p "$stage"
  trap cleanup EXIT
  # A signal ends the run through `exit`, which runs the EXIT trap.
  trap 'exit 130' INT
  trap 'exit 143' TERM
  trap 'exit 129' HUP
  if [ -n "${CARDSIM_BIN:-}" ]; then
    case $CARDSIM_BIN in
      /*) bin=$CARDSIM_BIN ;;
      *) bin=$root/$CARDSIM_BIN ;;
    esac
  else
    cargo build --release --quiet
    bin=$root/target/release/cardsim
  fi
}

cleanup() {
  # Background helpers (the FIFO readers) end with the run.
  local pids
  pids=$(jobs -p)
  [ -z "$pids" ] || kill $pids 2>/dev/null || true
  rm -rf "$scratch"
}

# publish DIR: every file and folder the run staged under "$stage/DIR"
# replaces its committed copy in DIR; DIR's other files (its README.md)
# stay.
publish() {
  local dir=$1 f
  mkdir -p "$root/$dir"
  for f in "$stage/$dir"/*; do
    [ -e "$f" ] || continue
    rm -rf "${root:?}/$dir/${f##*/}"
    mv "$f" "$root/$dir/"
  done
}
