#!/bin/sh
# Turns of C, node-sync and deno-sync at 256 B (cost pass, 6 rounds): CPU 0 idle, CPU 0 busy with a
# spinner at SCHED_IDLE, CPU 0 busy with the memory streamer at SCHED_IDLE.
# usage: docs/reproducibility/2026-11-30-amd-neighbours/turns.sh
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
cd "$(dirname "$0")/../../.."
ARGS="--only c --only node-sync --only deno-sync --sizes 256"
ARGS="$ARGS --no-strace --no-gc --no-kernel --no-profile --runs 1 --warmup 0 --rounds 6"
OUT=/tmp/w/spin
mkdir -p $OUT
for i in 1 2 3 4; do
  echo "idle $i $(date +%T)"; node bench.js $ARGS --out $OUT --id idle$i > $OUT/idle$i.txt 2>&1
  taskset -c 0 chrt --idle 0 sh -c 'while :; do :; done' & S=$!
  sleep 1; echo "spin $i $(date +%T)"; node bench.js $ARGS --out $OUT --id spin$i > $OUT/spin$i.txt 2>&1
  kill $S; wait $S 2>/dev/null
  node studies/disturb.js --mode memory --for 40 > $OUT/stream$i.log 2>&1 & D=$!
  sleep 3; echo "stream $i $(date +%T)"; node bench.js $ARGS --out $OUT --id stream$i > $OUT/stream$i.txt 2>&1
  kill $D 2>/dev/null; wait $D 2>/dev/null
done
echo end $(date +%T)
