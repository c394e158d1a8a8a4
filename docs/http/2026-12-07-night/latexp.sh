#!/bin/bash
# latency tails: 1.2 s cells against 10 s cells, two runs each, back to back (docs/http.md,
# 2026-12-07, night); /tmp/w/wtA and wtB are clean worktrees, wtB's preset edited
# usage: docs/http/2026-12-07-night/latexp.sh
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
set -u
cd /tmp/w/wtA
node bench.js --experiment calls --only c --quick --out /tmp/w/lat --id cprobe > /tmp/w/lat-cprobe.txt 2>&1
echo "a1 start $(date -u +%T)" >> /tmp/w/latexp.log
node bench.js --experiment http --only node-net --only bun --no-strace --no-kernel \
  --out /tmp/w/lat --id a1 > /tmp/w/lat-a1.txt 2>&1
echo "a2 start $(date -u +%T) rc=$?" >> /tmp/w/latexp.log
node bench.js --experiment http --only node-net --only bun --no-strace --no-kernel \
  --out /tmp/w/lat --id a2 > /tmp/w/lat-a2.txt 2>&1
cd /tmp/w/wtB   # its experiments/http/measure.js: the default preset's latency seconds 10, not 1.2
echo "b1 start $(date -u +%T) rc=$?" >> /tmp/w/latexp.log
node bench.js --experiment http --only node-net --only bun --no-strace --no-kernel \
  --out /tmp/w/lat --id b1 > /tmp/w/lat-b1.txt 2>&1
echo "b2 start $(date -u +%T) rc=$?" >> /tmp/w/latexp.log
node bench.js --experiment http --only node-net --only bun --no-strace --no-kernel \
  --out /tmp/w/lat --id b2 > /tmp/w/lat-b2.txt 2>&1
echo "end $(date -u +%T) rc=$?" >> /tmp/w/latexp.log
