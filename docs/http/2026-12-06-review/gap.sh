#!/bin/bash
# usage: docs/http/2026-12-06-review/gap.sh LABEL [ENV=VALUE...]
GUARD_ARGS='1 -'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
(shift 1; guard_env "$@") || exit 2
label=$1; shift
port=18$((RANDOM % 900 + 100))
env "$@" BUN_JSC_logGC=1 taskset -c 1 /work/main/node_modules/.bin/bun /work/main/http/bun.js $port 2>/tmp/w/bunidle/$label.gc > /dev/null &
pid=$!
sleep 1.5
taskset -c 0 wrk -t1 -c64 -d2s http://127.0.0.1:$port/ >/dev/null 2>&1
n0=$(grep -c 'FullCollection' /tmp/w/bunidle/$label.gc); c0=$(awk '{print $14+$15}' /proc/$pid/stat)
sleep 30
n1=$(grep -c 'FullCollection' /tmp/w/bunidle/$label.gc); c1=$(awk '{print $14+$15}' /proc/$pid/stat)
echo "$label: full collections in a 30 s idle gap after load: $((n1-n0)); CPU ticks in the gap $((c1-c0))"
kill $pid
