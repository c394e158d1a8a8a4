#!/bin/bash
# After timed.sh: C alone at 256 B, 30 cost rounds a run, quiet, beside the memory streamer
# (started 3 s before, so that its 1 GiB is touched) and beside a busy loop at idle priority
# on CPU 0, in 6 turns; from the clean worktree /tmp/w/wt, into /tmp/w/turns.
# usage: docs/reproducibility/2026-12-07-intel/turns.sh
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
set -u
cd /tmp/w/wt
O=/tmp/w/turns
mkdir -p $O
mark () { echo "$1 $(date -u +%T)" >> /tmp/w/turns.log; }
alone () {
  node bench.js --only c --sizes 256 --no-strace --no-gc --no-kernel --no-profile \
    --runs 1 --warmup 0 --rounds 30 --out $O --id "$1" > $O/"$1".txt 2>&1
}
for i in 1 2 3 4 5 6; do
  mark quiet$i; alone quiet$i
  mark mem$i
  node studies/disturb.js --mode memory --for 60 > $O/memory-disturb$i.txt 2>&1 &
  dist=$!
  sleep 3
  alone mem$i
  kill -INT $dist 2>/dev/null; wait $dist 2>/dev/null
  mark spin$i
  taskset -c 0 chrt --idle 0 sh -c 'while :; do :; done' &
  spin=$!
  sleep 1
  alone spin$i
  kill $spin; wait $spin 2>/dev/null
done
mark end
