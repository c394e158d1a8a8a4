#!/bin/bash
# db-placement --placements alone, quiet against SCHED_IDLE spinners on both CPUs, in turns
# run from a clean worktree of 9ad5808a at /tmp/w/run1; /tmp/w/spin/spin is spin.c, gcc -O2
# usage: docs/db/2026-12-06-spinner/study.sh   (a worktree at /tmp/w/run1 and /tmp/w/spin/spin made first)
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
cd /tmp/w/run1 || exit 1
out=/tmp/w/spin/out; mkdir -p $out
for trial in 1 2 3; do
  for mode in quiet spin; do
    if [ $mode = spin ]; then
      chrt --idle 0 taskset -c 0 /tmp/w/spin/spin & s0=$!
      chrt --idle 0 taskset -c 1 /tmp/w/spin/spin & s1=$!
      sleep 0.2
    fi
    s=$(date -u +%T)
    node studies/db-placement.js --runs 8 --placements alone --raw $out/$mode-$trial.jsonl > $out/$mode-$trial.txt 2>&1
    echo "$mode-$trial rc=$? $s-$(date -u +%T)" >> $out/times.txt
    if [ $mode = spin ]; then kill $s0 $s1; wait $s0 $s1 2>/dev/null; fi
  done
done
echo done >> $out/times.txt
