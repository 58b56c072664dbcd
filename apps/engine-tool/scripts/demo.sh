#!/usr/bin/env bash
# Compiles the sample project, starts the engine in slave mode and the tool, and prints the URL
# to open. The tool edits apps/engine/sample in place (git diff shows what it wrote).
# The token reaches both programs in their environment (CUTTLE_ENGINE_TOKEN), never on a
# command line, where every user of the machine could read it in the process list.
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=apps/engine/.out/sample
TOOL_PORT=${CUTTLE_TOOL_PORT:-5175}
ENGINE_PORT=${CUTTLE_ENGINE_PORT:-5176}
CUTTLE_ENGINE_TOKEN=$(node -e "process.stdout.write(require('node:crypto').randomBytes(16).toString('hex'))")
export CUTTLE_ENGINE_TOKEN
node apps/engine/bin/cuttle-engine.mjs compile apps/engine/sample "$OUT" --quiet
node apps/engine/bin/cuttle-engine.mjs run --slave "$OUT" --port "$ENGINE_PORT" \
  --allow-origin "http://127.0.0.1:$TOOL_PORT" --script apps/engine/sample/scripts/level-viewer-slave.ts &
ENGINE_PID=$!
trap 'kill $ENGINE_PID 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  if node -e "require('node:net').connect($ENGINE_PORT, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))" 2>/dev/null; then break; fi
  sleep 0.2
done
node apps/engine-tool/bin/cuttle-engine-tool.mjs --source apps/engine/sample --compiled "$OUT" \
  --engine "ws://127.0.0.1:$ENGINE_PORT" --port "$TOOL_PORT"
