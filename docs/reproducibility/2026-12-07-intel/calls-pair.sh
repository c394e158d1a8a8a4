#!/bin/bash
# A default calls pair back to back on the Intel VM of the evening's sitting, after timed.sh and
# turns.sh, from a clean worktree /tmp/w/wt, into /tmp/w/runs.
# usage: docs/reproducibility/2026-12-07-intel/calls-pair.sh
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
set -u
cd /tmp/w/wt
for id in k1 k2; do
  echo "$id $(date -u +%T)" >> /tmp/w/calls.log
  node bench.js --experiment calls --out /tmp/w/runs --id $id > /tmp/w/runs/$id.txt 2>&1
done
echo "end $(date -u +%T)" >> /tmp/w/calls.log
