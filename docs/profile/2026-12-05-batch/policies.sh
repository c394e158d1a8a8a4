#!/bin/bash
# C's reader (build/wc-c 256) on CPU 1 fed 200 MiB of 64 KiB blocks by dd, its CPU time and its
# context switches by perf stat: dd on CPU 0 (dd-apart, the profile pass's placement before
# 2026-12-05), dd on CPU 1 at the default policy (dd-one, the cost pass's), the reader alone at
# SCHED_BATCH (batch-one), both (bothbatch), each with the pipe at 1 MiB (-1m, setpipe.c).
# Run from the lab's root, twice, 2026-12-05 17:27:12-17:28:23 UTC on the Zen 2 VM, nothing else running:
#   docs/profile/2026-12-05-batch/policies.sh policies-1.txt 12 dd-apart dd-one batch-one batch-one-1m one-1m
#   docs/profile/2026-12-05-batch/policies.sh policies-2.txt 12 dd-apart dd-one bothbatch bothbatch-1m
# (setpipe and spinfeed built into /tmp/w/sf by gcc -O2 from the .c files beside this one.)
# usage: docs/profile/2026-12-05-batch/policies.sh OUT TRIALS VARIANT...
GUARD_ARGS='3 -'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
guard_count TRIALS "$2"
for v in "${@:3}"; do
  case $v in
    dd-apart|dd-one|batch-one|batch-one-1m|one-1m|bothbatch|bothbatch-1m) ;;
    *) known="dd-apart, dd-one, batch-one, batch-one-1m, one-1m, bothbatch or bothbatch-1m"
       guard_refuse "no variant '$v': give $known" ;;
  esac
done
out=$1; trials=$2; shift 2; : > $out
DD="dd if=/dev/zero bs=65536 count=3200 status=none"
SETPIPE=/tmp/w/sf/setpipe
for trial in $(seq 1 $trials); do
  for v in "$@"; do
    rd="taskset -c 1"; feed="taskset -c 1 $DD"
    case $v in
      dd-apart) feed="taskset -c 0 $DD";;
      dd-one) ;;
      batch-one) rd="taskset -c 1 chrt --batch 0";;
      batch-one-1m) rd="taskset -c 1 chrt --batch 0"; feed="taskset -c 1 $SETPIPE 1048576 $DD";;
      one-1m) feed="taskset -c 1 $SETPIPE 1048576 $DD";;
      bothbatch) rd="taskset -c 1 chrt --batch 0"; feed="taskset -c 1 chrt --batch 0 $DD";;
      bothbatch-1m) rd="taskset -c 1 chrt --batch 0"; feed="taskset -c 1 chrt --batch 0 $SETPIPE 1048576 $DD";;
    esac
    # trial, variant, task-clock ms, context switches
    r=$($feed | $rd perf stat -x, -e task-clock,context-switches build/wc-c 256 2>&1 >/dev/null | cut -d, -f1 | paste -sd' ')
    echo "$trial $v $r" >> $out
  done
done
