#!/usr/bin/env bash
# Installs what Cuttle needs on a machine that has only Node.js 20+ and npm.
#
#   bash tooling/scripts/setup.sh        # pnpm + workspace dependencies (enough for the demo)
#   bash tooling/scripts/setup.sh test   # also a WebGPU adapter for Dawn and Chromium for browser tests
#
# As root on Debian/Ubuntu it installs the system parts itself (Mesa lavapipe 25.x, Chromium);
# elsewhere it prints what to install. Running it again does nothing that is already done.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-dev}
say() { printf '[setup] %s\n' "$*"; }

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")

# --- pnpm: corepack when it works (it needs COREPACK_INTEGRITY_KEYS=0 on some registries), else npm.
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$pnpm_version" ]; then
  say "getting pnpm $pnpm_version"
  export COREPACK_INTEGRITY_KEYS=0
  if command -v corepack >/dev/null 2>&1 && corepack enable pnpm >/dev/null 2>&1 \
     && corepack prepare "pnpm@$pnpm_version" --activate >/dev/null 2>&1 \
     && [ "$(pnpm --version 2>/dev/null)" = "$pnpm_version" ]; then
    say "pnpm $pnpm_version from corepack"
  else
    npm install --global --no-fund --no-audit "pnpm@$pnpm_version" >/dev/null
    say "pnpm $(pnpm --version) from npm"
  fi
fi

# --- workspace dependencies
if [ "${CI:-}" = "true" ]; then
  pnpm install --frozen-lockfile
else
  pnpm install
fi

[ "$mode" = "test" ] || exit 0

is_root() { [ "$(id -u)" = "0" ]; }
has_apt() { command -v apt-get >/dev/null 2>&1; }
apt_updated=""
apt_install() {
  [ -n "$apt_updated" ] || { apt-get update -qq; apt_updated=1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# --- WebGPU in Node: Dawn needs a Vulkan driver; Mesa's lavapipe (CPU) 25.x works.
has_adapter() {
  node --input-type=module -e "
    const { create, globals } = await import('webgpu');
    Object.assign(globalThis, globals);
    const gpu = create([]);
    const adapter = await gpu.requestAdapter();
    process.exit(adapter ? 0 : 1);" >/dev/null 2>&1
}
if [ "${CUTTLE_GPU_TESTS:-}" = "skip" ]; then
  say "CUTTLE_GPU_TESTS=skip: not looking for a WebGPU adapter"
elif has_adapter; then
  say "WebGPU adapter found"
elif is_root && has_apt; then
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  if [ "$codename" = "bookworm" ]; then
    # bookworm's own mesa-vulkan-drivers (22.x) is too old for Dawn; backports has 25.x.
    say "installing Mesa lavapipe 25.x from bookworm-backports"
    echo 'deb http://deb.debian.org/debian bookworm-backports main' > /etc/apt/sources.list.d/cuttle-backports.list
    apt_updated=""
    apt_install -t bookworm-backports mesa-vulkan-drivers libvulkan1
  else
    say "installing mesa-vulkan-drivers (lavapipe)"
    apt_install mesa-vulkan-drivers libvulkan1
  fi
  has_adapter && say "WebGPU adapter found (lavapipe)" || say "still no WebGPU adapter: GPU tests will fail with instructions (or set CUTTLE_GPU_TESTS=skip)"
else
  say "No WebGPU adapter. Install a Vulkan driver: Mesa >= 25 lavapipe (Debian bookworm: apt-get install -t bookworm-backports mesa-vulkan-drivers) or your GPU's driver; or set CUTTLE_GPU_TESTS=skip."
fi

# --- A real TrueType font for @cuttle/gui's TTF tests (they fail naming this package without it).
dejavu=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
if [ -f "$dejavu" ]; then
  say "DejaVu Sans found at $dejavu"
elif is_root && has_apt; then
  say "installing fonts-dejavu-core (DejaVu Sans for the @cuttle/gui TTF tests)"
  apt_install fonts-dejavu-core
else
  say "No $dejavu: install Debian's fonts-dejavu-core (apt-get install fonts-dejavu-core) for the @cuttle/gui TTF tests."
fi

# --- Chromium for the browser smoke test (never a browser downloaded by a test tool).
chromium=${CUTTLE_CHROMIUM:-/usr/bin/chromium}
if [ -x "$chromium" ]; then
  say "Chromium found at $chromium"
elif is_root && has_apt; then
  say "installing Chromium"
  apt_install chromium fonts-liberation
else
  say "No Chromium at $chromium: install it (Debian: apt-get install chromium) or set CUTTLE_CHROMIUM."
fi
