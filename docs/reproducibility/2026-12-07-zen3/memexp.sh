#!/bin/bash
# the memory-streaming neighbour on this Zen 3 VM: C alone at 256 B, quiet then beside it, 3 turns
# (docs/reproducibility.md, 2026-12-07, night); /tmp/w/wtA a clean worktree. The second table's
# runs: the same with --cpus 0,1 given to studies/disturb.js, into /tmp/w/mem2
# usage: docs/reproducibility/2026-12-07-zen3/memexp.sh
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
set -u
cd /tmp/w/wtA
for i in 1 2 3; do
  echo "quiet$i $(date -u +%T)" >> /tmp/w/memexp.log
  node bench.js --only c --sizes 256 --no-strace --no-gc --no-kernel --no-profile \
    --runs 1 --warmup 0 --rounds 10 --out /tmp/w/mem --id quiet$i > /tmp/w/mem-quiet$i.txt 2>&1
  echo "mem$i $(date -u +%T)" >> /tmp/w/memexp.log
  node studies/disturb.js --mode memory --for 90 > /tmp/w/mem-streamer$i.txt 2>&1 &
  dist=$!
  sleep 2
  node bench.js --only c --sizes 256 --no-strace --no-gc --no-kernel --no-profile \
    --runs 1 --warmup 0 --rounds 10 --out /tmp/w/mem --id mem$i > /tmp/w/mem-mem$i.txt 2>&1
  kill -INT $dist 2>/dev/null; wait $dist 2>/dev/null
done
echo "end $(date -u +%T)" >> /tmp/w/memexp.log
