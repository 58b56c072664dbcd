#!/usr/bin/env bash
# Prepares several packages' GPU benchmarks for ONE call of the GPU machine (each machine start
# costs minutes of a session's device time) and prints the command that runs them one after
# another, each under its own time limit, its report and log under $OUT.
#
#   bash tooling/scripts/device-batch.sh <package>[:<only text>][@<seconds>] ...
#   e.g. bash tooling/scripts/device-batch.sh "gpu-primitives:onesweep@150" render@120
#
# `:text` passes `--only text` (only the cases whose name contains it); `@seconds` caps the run
# (default 120). The calls' limit is 600 s: keep the sum under about 540.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -gt 0 ] || { echo "usage: bash tooling/scripts/device-batch.sh <package>[:<only>][@<seconds>] ..." >&2; exit 2; }
pack=../shared/device/pack.sh
[ -f "$pack" ] || { echo "device-batch: $pack not found (it ships beside the repository in shared/device/)" >&2; exit 2; }

bundles=()
steps=()
total=0
for spec in "$@"; do
  seconds=120
  if [[ "$spec" == *@* ]]; then seconds=${spec##*@}; spec=${spec%@*}; fi
  only=""
  if [[ "$spec" == *:* ]]; then only=${spec#*:}; spec=${spec%%:*}; fi
  pkg=$spec
  [ -d "packages/$pkg/bench" ] || { echo "device-batch: packages/$pkg has no bench/ folder" >&2; exit 2; }
  [[ "$seconds" =~ ^[0-9]+$ ]] || { echo "device-batch: '@$seconds' is not a number of seconds" >&2; exit 2; }
  pnpm bench:gpu "$pkg" >/dev/null 2>&1 || { echo "device-batch: pnpm bench:gpu $pkg failed; run it alone to see why" >&2; exit 1; }
  bundles+=(".bench-out/$pkg-gpu-bench.mjs")
  peer=""
  for script in packages/"$pkg"/bench/*.py; do
    [ -f "$script" ] || continue
    bundles+=("$script")
    peer="CUTTLE_CUB_PEER=\$PWD/.device/$(basename "$script") "
  done
  filter=""
  [ -n "$only" ] && filter=" --only '$only'"
  steps+=("(timeout $seconds env ${peer}\$NODE .device/$pkg-gpu-bench.mjs --json$filter --out \$OUT/$pkg.json > \$OUT/$pkg.log 2>&1; echo \"$pkg rc=\$?\")")
  total=$((total + seconds))
done
bash "$pack" "${bundles[@]}" >/dev/null

command="source .device/env.sh"
for step in "${steps[@]}"; do command+="; $step"; done
cat <<MSG
Packed $((${#steps[@]})) benchmark(s) into .device/ (at most ${total} s in all).
On the GPU machine (device tool, carry [".device"], timeout_s $((total + 30))):
  $command
Then here, for each package with the report that came back:
  pnpm bench <package> --from <files_at>/<package>.json --write
(A report made with --only, or cut short by a time limit, is saved after every case and marked
"partial"; --write refuses it, since it would replace the whole GPU table: copy its rows into
BENCHMARKS.md by hand, or run the whole suite.)
MSG
[ "$total" -le 540 ] || echo "device-batch: ${total} s is more than one call should hold (600 s with start-up); split the batch." >&2
