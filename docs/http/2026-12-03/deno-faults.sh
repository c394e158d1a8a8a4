#!/usr/bin/env bash
# Deno.serve with Connection: close, N processes one after another, each checked, six
# connections reset, then 8 runs of wrk (1 s, 128 connections), server and wrk on CPU 1 as the
# lab's shared placement has them. Per run: the server's CPU per request (every thread's
# schedstat, and the threads that took more than 50 ns a request by name), its minor page
# faults over the run (/proc/PID/stat minflt), its voluntary and involuntary context switches
# (every thread's /proc/PID/task/*/status), and its utime and stime in ticks of 10 ms.
#   sh docs/http/2026-12-03/deno-faults.sh OUT N [ENV=VALUE...]   from the lab's folder
# ENV=VALUE pairs go to Deno's environment (GLIBC_TUNABLES=glibc.malloc.trim_threshold=...).
# usage: sh docs/http/2026-12-03/deno-faults.sh OUT N [ENV=VALUE...]
GUARD_ARGS='2 -'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
guard_count N "$2"
(shift 2; guard_env "$@") || exit 2
set -eu
out=$1 n=$2; shift 2
mkdir -p "$out"
deno=node_modules/.bin/deno
# one line per thread (name, ns on a CPU), then the process's counters
snap() {
  for t in /proc/$1/task/*; do
    printf '%s\t%s\n' "$(tr ' ' _ < "$t/comm")" "$(cut -d' ' -f1 "$t/schedstat")"
    awk '/^voluntary_ctxt/ {print "vcs\t" $2} /^nonvoluntary_ctxt/ {print "ncs\t" $2}' "$t/status"
  done 2>/dev/null
  awk '{print "minflt\t" $10; print "utick\t" $14; print "stick\t" $15}' "/proc/$1/stat"
}
for i in $(seq 1 "$n"); do
  port=$((22100 + i))   # below the client ports (32768-60999), which wrk's sockets may hold
  taskset -c 1 env "$@" $deno run --v8-flags=--no-memory-reducer --allow-net http/deno.js $port \
    > "$out/p$i.log" 2>&1 &
  for w in $(seq 1 80); do curl -s -o /dev/null http://127.0.0.1:$port/ && break; sleep 0.1; done
  pid=$(pgrep -f "http/deno.js $port" | head -1)
  curl -s -o /dev/null -H 'Connection: close' http://127.0.0.1:$port/
  node docs/http/2026-12-03/reset.js $port
  for r in 1 2 3 4 5 6 7 8; do
    snap $pid > "$out/before"
    requests=$(taskset -c 1 wrk -t1 -c128 -d1s --timeout 2s -H 'Connection: close' \
      http://127.0.0.1:$port/ | awk '/requests in/ {print $1}')
    snap $pid > "$out/after"
    awk -v run="p$i r$r" -v n=$requests 'NR == FNR {a[$1] += $2; next} {b[$1] += $2}
      END {
        for (k in b) if (k !~ /^(vcs|ncs|minflt|utick|stick)$/) {
          d = (b[k] - a[k]) / n; total += d; if (d > 50) threads = threads sprintf(" %s=%.0f", k, d)
        }
        printf "%s requests=%d cpu_ns_per_request=%.0f faults_per_request=%.2f", run, n, total,
          (b["minflt"] - a["minflt"]) / n
        printf " voluntary_switches=%d involuntary=%d utime_ticks=%d stime_ticks=%d threads:%s\n",
          b["vcs"] - a["vcs"], b["ncs"] - a["ncs"], b["utick"] - a["utick"], b["stick"] - a["stick"], threads
      }' "$out/before" "$out/after"
  done
  kill $pid; sleep 0.5
done
rm -f "$out/before" "$out/after"
