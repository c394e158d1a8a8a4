#!/bin/bash
# C's reader (build/wc-c 256) on CPU 1 fed 200 MiB: by dd on CPU 0 (dd-apart), by dd on CPU 1
# (dd-one), or by spinfeed.c on CPU 0, a feeder that never sleeps (nonblocking writes; on a full
# pipe it polls with no timeout, spin-poll, or waits 20 or 50 µs by the clock, spin-20, spin-50),
# so that no read wakes a writer on another CPU. Its CPU time and context switches by perf stat.
# Run from the lab's root, 2026-12-05 17:26:50-17:27:12 UTC on the Zen 2 VM, nothing else running:
#   docs/profile/2026-12-05-batch/feeders.sh feeders.txt 15
# Output lines: trial, variant, task-clock ms, context switches.
# usage: docs/profile/2026-12-05-batch/feeders.sh OUT [TRIALS]
GUARD_ARGS='1 2'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
guard_count TRIALS "${2:-10}"
out=$1; : > $out
B=$((200*1048576))
for trial in $(seq 1 ${2:-10}); do
  for v in dd-apart dd-one spin-poll spin-20 spin-50; do
    case $v in
      dd-apart) feed="taskset -c 0 dd if=/dev/zero bs=65536 count=3200 status=none";;
      dd-one) feed="taskset -c 1 dd if=/dev/zero bs=65536 count=3200 status=none";;
      spin-poll) feed="taskset -c 0 /tmp/w/sf/spinfeed $B 65536 0";;
      spin-20) feed="taskset -c 0 /tmp/w/sf/spinfeed $B 65536 20";;
      spin-50) feed="taskset -c 0 /tmp/w/sf/spinfeed $B 65536 50";;
    esac
    r=$($feed | taskset -c 1 perf stat -x, -e task-clock,context-switches build/wc-c 256 2>&1 >/dev/null | cut -d, -f1 | paste -sd' ')
    echo "$trial $v $r" >> $out
  done
done
