#!/bin/bash
# Two default stdio runs back to back on the Intel Xeon VM of model 207 (issue 47's pair on a
# day when C's read has two speeds), from a clean worktree /tmp/w/wt, nothing else of ours
# running. Each run's start is in /tmp/w/timed.log.
# usage: docs/reproducibility/2026-12-08-intel/stdio-pair.sh
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
set -u
cd /tmp/w/wt
O=/tmp/w/runs
for id in s1 s2; do
  echo "$id $(date -u +%T)" >> /tmp/w/timed.log
  node bench.js --out $O --id $id > $O/$id.txt 2>&1
done
echo "end $(date -u +%T)" >> /tmp/w/timed.log
