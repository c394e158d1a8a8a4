#!/bin/sh
# Turns quiet and beside the memory streamer on CPU 0, at 256 B: C, just-fast, node-sync,
# bun-ffi and deno-sync
# usage: docs/reproducibility/2026-11-30-amd-neighbours/mem-turns.sh
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
cd "$(dirname "$0")/../../.."
ARGS="--only c --only node-sync --only deno-sync --only bun-ffi --only just-fast --sizes 256"
ARGS="$ARGS --no-strace --no-gc --no-kernel --no-profile --runs 1 --warmup 0 --rounds 6"
mkdir -p /tmp/w/mem
for i in 1 2 3 4; do
  echo "quiet $i $(date +%T)"
  node bench.js $ARGS --out /tmp/w/mem --id q$i > /tmp/w/mem/q$i.txt 2>&1
  node studies/disturb.js --mode memory --for 40 > /tmp/w/mem/d$i.log 2>&1 &
  D=$!
  sleep 3
  echo "memory $i $(date +%T)"
  node bench.js $ARGS --out /tmp/w/mem --id m$i > /tmp/w/mem/m$i.txt 2>&1
  kill $D 2>/dev/null; wait $D
done
echo end $(date +%T)
