#!/usr/bin/env bash
# Whether a server process's own level comes from the addresses it was given: N cycles, each
# of three processes one after another, c-epoll (the machine's pace), Node's http server as
# the lab runs it (addresses and hash seeds random), and the same with them fixed (the
# kernel's randomization off by setarch -R; V8's mmap hints and hash seed by --random-seed and
# --hash-seed). Each process checked, then 8 runs of wrk (1 s, keep-alive, 128 connections),
# server and wrk on CPU 1 as the lab's shared placement has them; per run the server's CPU per
# request (every thread's schedstat).
#   sh docs/http/2026-12-04-amd/layout.sh OUT N [MODE]   from the lab's folder
# MODE: keep-alive (the default) or close (each request with Connection: close).
# usage: sh docs/http/2026-12-04-amd/layout.sh OUT N [MODE]
GUARD_ARGS='2 3'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
guard_count N "$2"
set -eu
out=$1 n=$2 mode=${3:-keep-alive}
case $mode in
  keep-alive) header= ;;
  close) header='Connection: close' ;;
  *) echo "layout.sh: MODE must be keep-alive or close, not '$mode'" >&2; exit 2 ;;
esac
mkdir -p "$out"
node=build/node/26.12.1/bin/node
cpu() { cat /proc/$1/task/*/schedstat 2>/dev/null | awk '{s+=$1} END {printf "%.0f", s}'; }
run_server() {  # NAME PORT COMMAND...
  name=$1 port=$2; shift 2
  taskset -c 1 "$@" > "$out/$name.log" 2>&1 &
  for w in $(seq 1 50); do curl -s -o /dev/null http://127.0.0.1:$port/ && break; sleep 0.1; done
  pid=$(pgrep -f -- " $port\$" | head -1)
  for r in 1 2 3 4 5 6 7 8; do
    t0=$(cpu $pid)
    requests=$(taskset -c 1 wrk -t1 -c128 -d1s --timeout 2s ${header:+-H "$header"} \
      http://127.0.0.1:$port/ | awk '/requests in/ {print $1}')
    t1=$(cpu $pid)
    echo "$name r$r requests=$requests cpu_ns_per_request=$(( (t1 - t0) / requests ))"
  done
  kill $pid; sleep 0.3
}
for i in $(seq 1 "$n"); do
  # below the client ports (32768-60999), which wrk's sockets may hold
  run_server "c$i" $((22200 + i)) build/http-c-epoll $((22200 + i))
  run_server "random$i" $((22300 + i)) $node --no-memory-reducer http/node-http.js $((22300 + i))
  run_server "fixed$i" $((22400 + i)) setarch -R $node --no-memory-reducer --random-seed=42 \
    --hash-seed=42 http/node-http.js $((22400 + i))
done
