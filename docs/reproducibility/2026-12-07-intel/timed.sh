#!/bin/bash
# The timed runs of 2026-12-07 (late) on a fresh Intel Xeon VM (family 6 model 207), in one
# sitting from a clean worktree /tmp/w/wt, nothing else of ours running: C's ladder as a probe;
# C alone at 256 B quiet, beside the memory streamer and beside a busy loop, 3 turns; a
# profile pair; an http pair; a db pair. Each step's start is in /tmp/w/timed.log.
# usage: docs/reproducibility/2026-12-07-intel/timed.sh
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
set -u
cd /tmp/w/wt
O=/tmp/w/runs
mark () { echo "$1 $(date -u +%T)" >> /tmp/w/timed.log; }
mark probe
node bench.js --experiment calls --only c --quick --out $O --id c0 > $O/c0.txt 2>&1
alone () {
  node bench.js --only c --sizes 256 --no-strace --no-gc --no-kernel --no-profile \
    --runs 1 --warmup 0 --rounds 10 --out $O --id "$1" > $O/"$1".txt 2>&1
}
for i in 1 2 3; do
  mark quiet$i; alone quiet$i
  mark mem$i
  node studies/disturb.js --mode memory --for 90 > $O/memory-disturb$i.txt 2>&1 &
  dist=$!
  sleep 2
  alone mem$i
  kill -INT $dist 2>/dev/null; wait $dist 2>/dev/null
  # a busy loop at idle priority on CPU 0 all the turn: a core's neighbour, were the two
  # vCPUs threads of one core
  mark spin$i
  taskset -c 0 chrt --idle 0 sh -c 'while :; do :; done' &
  spin=$!
  alone spin$i
  kill $spin; wait $spin 2>/dev/null
done
for id in pI pJ; do
  mark $id
  node bench.js --sizes 256 --runs 1 --warmup 0 --rounds 1 --no-strace --no-gc --no-kernel \
    --out $O --id $id > $O/$id.txt 2>&1
done
# The http pair was refused here: /tmp/w/runs already held folders h1 and h2 (copies of older
# runs, for a page). It ran after turns.sh, with these commands, once its `end` was marked.
for id in h1 h2; do mark $id; node bench.js --experiment http --out $O --id $id > $O/$id.txt 2>&1; done
for id in d1 d2; do mark $id; node bench.js --experiment db --out $O --id $id > $O/$id.txt 2>&1; done
mark end
