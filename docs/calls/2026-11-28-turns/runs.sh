#!/bin/sh
# usage: docs/calls/2026-11-28-turns/runs.sh   (from the lab's root; two calls runs back to back)
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
cd /work/main
ONLY="--only c --only just-fast --only node --only node-ffi --only bun-ffi --only deno-ffi --only deno-sync"
for i in 1 2; do
  node bench.js --experiment calls $ONLY --ladder-pairing slices --out /tmp/runs --id calls-s$i > /tmp/w/calls-s$i.txt 2>&1
  node bench.js --experiment calls $ONLY --ladder-pairing processes --out /tmp/runs --id calls-p$i > /tmp/w/calls-p$i.txt 2>&1
done
echo done > /tmp/w/calls-ab.done
