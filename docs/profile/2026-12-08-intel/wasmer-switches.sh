#!/bin/bash
# Who switches wasmer's reader out at SCHED_BATCH: six pairs of runs of `dd | wasmer run
# wc.wasm 256` on CPU 1 as the profile pass places them (unprofiled, then under perf record),
# each under the scheduler's sched_switch events on that CPU, from a clean worktree /tmp/w/wt.
# Prints each run's time and switches, and the eight commonest switches whose task was still
# runnable (preempted, or yielding) with the task that took the CPU (wasmer-switches.txt).
# usage: docs/profile/2026-12-08-intel/wasmer-switches.sh
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
set -u
W=/tmp/w/wt/build
out=/tmp/w/wcs; mkdir -p $out
for i in 1 2 3 4 5 6; do
  for prof in no yes; do
    pre=""
    [ $prof = yes ] && pre="perf record -q -e cpu-clock -F 3989 -g -o $out/p$i.data --"
    perf record -q -e sched:sched_switch -C 1 -o $out/s$i-$prof.data -- bash -c "
      taskset -c 1 chrt -b 0 dd if=/dev/zero bs=65536 count=3037 status=none |
      taskset -c 1 chrt -b 0 /usr/bin/time -f '%e s %U u %S s %c inv %w vol' $pre \
        $W/wasmer/bin/wasmer run $W/wc.wasm -- 256" > $out/t$i-$prof.txt 2>&1
  done
done
for i in 1 2 3 4 5 6; do
  for prof in no yes; do
    top=$(perf script -i $out/s$i-$prof.data -F trace 2>/dev/null | awk '/prev_state=R/ {
        match($0, /prev_comm=[^ ]+/); p = substr($0, RSTART + 10, RLENGTH - 10)
        match($0, /next_comm=[^ ]+/); n = substr($0, RSTART + 10, RLENGTH - 10)
        c[p " -> " n]++ } END { for (k in c) print c[k] "\t" k }' | sort -rn | head -8 | tr '\n' ';')
    echo "run $i profiled=$prof: $(tail -1 $out/t$i-$prof.txt) | preempted or yielded: $top"
  done
done
