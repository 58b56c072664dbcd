#!/usr/bin/env bash
# Prepares a package's GPU benchmark for the GPU machine and prints the command to run there.
#
#   bash tooling/scripts/device-bench.sh <package>      e.g. gpu-primitives, gpu-fluid
#
# 1. bundles bench/*.gpu.ts into .bench-out/<package>-gpu-bench.mjs (pnpm bench:gpu),
# 2. packs Node, Dawn and the Vulkan loaders with it into .device/ (../shared/device/pack.sh),
#    plus any bench/*.py peer script (gpu-primitives: CUB through PyTorch) and bench/*.cu peer
#    (gpu-primitives: CUB called directly, compiled there by the printed command),
# 3. prints the command for the device tool (carry [".device"]) and the one that turns the
#    returned report into BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
pkg=${1:?usage: bash tooling/scripts/device-bench.sh <package>}
[ -d "packages/$pkg/bench" ] || { echo "device-bench: packages/$pkg has no bench/ folder" >&2; exit 2; }
pack=../shared/device/pack.sh
[ -f "$pack" ] || { echo "device-bench: $pack not found (it ships beside the repository in shared/device/)" >&2; exit 2; }

pnpm bench:gpu "$pkg"
bash "$pack" ".bench-out/$pkg-gpu-bench.mjs"
peer_env=""
prepare=""
for script in packages/"$pkg"/bench/*.py; do
  [ -f "$script" ] || continue
  cp "$script" .device/
  peer_env="${peer_env}CUTTLE_CUB_PEER=\$PWD/.device/$(basename "$script") "
done
# A CUDA peer is compiled there, with the machine's nvcc (gpu-primitives: CUB called directly).
for source in packages/"$pkg"/bench/*.cu; do
  [ -f "$source" ] || continue
  cp "$source" .device/
  binary=.device/$(basename "$source" .cu)
  prepare="${prepare}nvcc -O3 -std=c++17 -arch=native -o $binary .device/$(basename "$source") && "
  peer_env="${peer_env}CUTTLE_CUB_BIN=\$PWD/$binary "
done
cat <<MSG

On the GPU machine (device tool, carry [".device"]):
  source .device/env.sh && ${prepare}${peer_env}\$NODE .device/$pkg-gpu-bench.mjs --json --out \$OUT/report.json
Then here, with the report that came back:
  pnpm bench $pkg --from <report.json> --write
MSG
