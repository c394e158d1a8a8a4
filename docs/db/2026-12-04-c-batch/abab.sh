#!/bin/sh
# before: 9a3131d9 (a Sync a query); after: 78658d84 (one Sync a batch); alternating
# each folder a `git worktree add` of its commit, its build/ a copy of this checkout's made
# again there (make), node_modules a link to this checkout's
# usage: docs/db/2026-12-04-c-batch/abab.sh   (the two worktrees its comment names made first)
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
for i in 1 2; do
  for side in before after; do
    if [ $side = before ]; then dir=/tmp/w/before; else dir=/tmp/w/runtree; fi
    (cd $dir && node bench.js --experiment db --only just-pg-prepared-pipelined --runs 8 --no-latency \
      --out /tmp/w/cq --id $side$i > /tmp/w/cq/$side$i.txt 2>&1)
  done
done
date > /tmp/w/cq/abab.done
