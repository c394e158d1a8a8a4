#!/bin/bash
# CPU per read by slope (200 MiB against 50 MiB) for C, node-sync and just-fast at 256 B, on CPU 1
# with dd: default policy (dd-one) or both SCHED_BATCH (bothbatch); in turns. Node 24.21.0 as
# ./setup.sh installs it. Run from the lab's root, 2026-12-05 17:28:25-17:29:14 UTC, Zen 2 VM:
#   docs/profile/2026-12-05-batch/readers.sh readers.txt 8
#   python3 docs/profile/2026-12-05-batch/slopes.py readers.txt     # its output: slopes.txt
# Output lines: trial, reader, variant, 64 KiB blocks, task-clock ms, context switches.
# usage: docs/profile/2026-12-05-batch/readers.sh OUT TRIALS
GUARD_ARGS='2 2'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
guard_count TRIALS "$2"
out=$1; : > $out
NODE=build/node/24.21.0/bin/node
for trial in $(seq 1 $2); do
  for r in c node-sync just-fast; do
    case $r in c) cmd="build/wc-c 256";; node-sync) cmd="$NODE wc/node-sync.js 256";; just-fast) cmd="build/just-host wc/wc-fast.js 256";; esac
    for v in dd-one bothbatch; do
      for n in 800 3200; do
        pol=""; [ $v = bothbatch ] && pol="chrt --batch 0"
        r2=$(taskset -c 1 $pol dd if=/dev/zero bs=65536 count=$n status=none | taskset -c 1 $pol perf stat -x, -e task-clock,context-switches $cmd 2>&1 >/dev/null | cut -d, -f1 | paste -sd' ')
        echo "$trial $r $v $n $r2" >> $out
      done
    done
  done
done
