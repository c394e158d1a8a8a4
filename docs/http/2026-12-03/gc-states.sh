#!/usr/bin/env bash
# Node's http server with Connection: close, N processes one after another, each checked,
# six connections reset, then 8 runs of wrk (1 s, 128 connections), server and wrk on CPU 1
# as the lab's shared placement has them; each process's --trace-gc/--trace-opt/--trace-deopt
# output read through a pipe, as the lab reads it, into OUT/pI.trace; each run its CPU per
# request (all its threads, schedstat) and the process's mark-compacts so far.
#   sh docs/http/2026-12-03/gc-states.sh OUT N [V8 flag...]   from the lab's folder
# usage: sh docs/http/2026-12-03/gc-states.sh OUT N [V8 flag...]
GUARD_ARGS='2 -'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
guard_count N "$2"
set -eu
out=$1 n=$2; shift 2
mkdir -p "$out"
cpu() { cat /proc/$1/task/*/schedstat 2>/dev/null | awk '{s+=$1} END {printf "%.0f", s}'; }
for i in $(seq 1 "$n"); do
  port=$((22000 + i))   # below the client ports (32768-60999), which wrk's sockets may hold
  taskset -c 1 stdbuf -oL -eL build/node/26.12.1/bin/node --no-memory-reducer --trace-gc \
    --trace-opt --trace-deopt "$@" http/node-http.js $port 2>&1 | cat > "$out/p$i.trace" &
  for w in $(seq 1 50); do curl -s -o /dev/null http://127.0.0.1:$port/ && break; sleep 0.1; done
  pid=$(pgrep -f "bin/node .*node-http.js $port" | head -1)
  curl -s -o /dev/null -H 'Connection: close' http://127.0.0.1:$port/
  node docs/http/2026-12-03/reset.js $port
  for r in 1 2 3 4 5 6 7 8; do
    t0=$(cpu $pid)
    n_req=$(taskset -c 1 wrk -t1 -c128 -d1s --timeout 2s -H 'Connection: close' \
      http://127.0.0.1:$port/ | awk '/requests in/ {print $1}')
    t1=$(cpu $pid)
    echo "p$i r$r requests=$n_req cpu_ns_per_request=$(( (t1 - t0) / n_req ))" \
      "mark_compacts_so_far=$(grep -c 'Mark-Compact' "$out/p$i.trace" || true)"
  done
  kill $pid; sleep 0.3
done
