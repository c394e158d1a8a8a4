#!/bin/sh
# Usage: sh docs/http/2026-12-01/bun-compiles.sh  (from the lab folder; ./setup.sh and wrk first)
# Bun's http server under wrk, JavaScriptCore's compiles reported (BUN_JSC_reportCompileTimes=1):
# five 1 s runs at 128 connections, the server on CPU 0 and wrk on CPU 1, the count of
# "Optimized" lines after each run and, at the end, the compiles themselves.
# usage: sh docs/http/2026-12-01/bun-compiles.sh   (from the lab's root)
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
cd "$(dirname "$0")/../../.."
out=$(mktemp)
BUN_JSC_reportCompileTimes=1 taskset -c 0 node_modules/.bin/bun http/bun.js 18081 > "$out" 2>&1 &
pid=$!
sleep 1
for run in 1 2 3 4 5; do
  rate=$(taskset -c 1 wrk -t1 -c128 -d1s http://127.0.0.1:18081/ | awk '/Requests\/sec/ {print $2}')
  echo "run $run: $rate req/s, $(grep -c '^Optimized' "$out") compiles so far"
done
kill $pid; wait $pid 2>/dev/null
grep '^Optimized' "$out" | sed 's/\[0x[0-9a-fx>-]*, /[/; s/ into .*//'
rm -f "$out"
