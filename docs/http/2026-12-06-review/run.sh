#!/bin/bash
# bun http server on CPU 1, wrk on CPU 0: runs of 2 s separated by idle gaps; CPU per request per run
# usage: docs/http/2026-12-06-review/run.sh LABEL [ENV=VALUE...]
GUARD_ARGS='1 -'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
(shift 1; guard_env "$@") || exit 2
label=$1; shift
port=18$((RANDOM % 900 + 100))
env "$@" BUN_JSC_logGC=1 taskset -c 1 /work/main/node_modules/.bin/bun /work/main/http/bun.js $port 2>/tmp/w/bunidle/$label.gc > /tmp/w/bunidle/$label.out &
pid=$!
sleep 1.5
cpu() { awk '{print $14+$15}' /proc/$pid/stat; }
for gap in 1 1 1 1 30 1 30 1 30; do
  sleep $gap
  before=$(cpu); n0=$(grep -c FullCollection /tmp/w/bunidle/$label.gc)
  req=$(taskset -c 0 wrk -t1 -c64 -d2s http://127.0.0.1:$port/ 2>/dev/null | awk '/requests in/{print $1}')
  after=$(cpu); n1=$(grep -c FullCollection /tmp/w/bunidle/$label.gc)
  echo "$label gap=$gap req=$req us/req=$(echo "($after-$before)*10000/$req" | bc -l | cut -c1-6) fullGCsDuringGapAndRun=$((n1-n0))"
done
kill $pid
