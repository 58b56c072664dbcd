#!/usr/bin/env bash
# Prepares the engine's figures (apps/engine/bench/figures.ts: compiles, streamed frames per
# second, edit to frame over the protocol) for the GPU machine and prints the command to run.
#
#   bash tooling/scripts/device-engine.sh
#
# The script is bundled with the engine into .device/engine/figures.mjs (it starts itself again
# as the engine); sharp, a native addon, travels beside it as a tar.xz of its store folder (sharp,
# @img/sharp-linux-x64, @img/sharp-libvips-linux-x64 and their two small dependencies) and
# with ktx2-encoder (Basis Universal in WebAssembly) and ktx-parse. The
# sample project comes with the working tree, its font (a system file) beside the bundle. Costs about 8 MiB of carry on top of pack.sh's.
set -euo pipefail
cd "$(dirname "$0")/../.."
pack=../shared/device/pack.sh
[ -f "$pack" ] || { echo "device-engine: $pack not found (it ships beside the repository in shared/device/)" >&2; exit 2; }

bash "$pack" >/dev/null
mkdir -p .device/engine
pnpm -s bundle:node apps/engine/bench/figures.ts .device/engine/figures.mjs --external sharp --external ktx2-encoder
store=$(dirname "$(readlink -f apps/engine/node_modules/sharp)")
modules=()
for name in sharp @img detect-libc semver; do
  [ -e "$store/$name" ] || { echo "device-engine: $store/$name is missing (pnpm install first)" >&2; exit 1; }
  modules+=("$name")
done
# ktx2-encoder finds its WebAssembly file beside its own JavaScript, so it is not bundled either.
basis=$(dirname "$(readlink -f apps/engine/node_modules/ktx2-encoder)")
tar -cf - -C "$store" --dereference "${modules[@]}" -C "$basis" --dereference ktx2-encoder ktx-parse | xz -T2 -6 > .device/engine/sharp-modules.tar.xz
# The sample's font is Debian's DejaVu Sans, which the GPU machine does not have.
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
[ -f "$font" ] || { echo "device-engine: $font is missing (apt-get install fonts-dejavu-core)" >&2; exit 1; }
cp "$font" .device/engine/

cat <<MSG
Packed the engine figures into .device/ ($(du -sh .device | cut -f1) to carry).
On the GPU machine (device tool, carry [".device"], timeout_s about 200):
  source .device/env.sh && mkdir -p .device/engine/node_modules && tar -xJf .device/engine/sharp-modules.tar.xz -C .device/engine/node_modules && \$NODE .device/engine/figures.mjs --sample apps/engine/sample --font \$PWD/.device/engine/DejaVuSans.ttf --out \$OUT/engine.json
The figures come back as JSON; the README's Figures section takes them by hand.
MSG
