#!/bin/bash
# oha against c-epoll, server on CPU 1, oha on CPU 0: per rate and connections, what share of
# the asked requests came back, oha's own CPU per request, c-epoll's latency and its steal
# usage: docs/http/2026-11-28/oha-tool.sh   (from the lab's root, oha installed)
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
cd /work/main
OHA=${OHA:-build/oha/bin/oha}
port=18123
taskset -c 1 build/http-c-epoll $port > /dev/null & server=$!
sleep 0.5
# warm the loopback and the server
taskset -c 0 wrk -t1 -c128 -d2s http://127.0.0.1:$port/ > /dev/null
echo "rate conn answered/asked oha_cpu_us_per_req server_cpu_us_per_req p50_ms p99_ms p999_ms max_ms steal_ticks"
for rate in 4000 8000 16000 32000 64000; do
  for conn in 20 100 1000; do
    s0=$(awk '$1=="cpu0"||$1=="cpu1"{s+=$9} END{print s}' /proc/stat)
    c0=$(awk '{print $14+$15}' /proc/$server/stat)
    /usr/bin/time -f "%U %S" -o /tmp/w/tool/t taskset -c 0 env TOKIO_WORKER_THREADS=1 $OHA --no-tui --output-format json \
      -q $rate --latency-correction -w -c $conn -z 2s http://127.0.0.1:$port/ > /tmp/w/tool/o.json
    c1=$(awk '{print $14+$15}' /proc/$server/stat)
    s1=$(awk '$1=="cpu0"||$1=="cpu1"{s+=$9} END{print s}' /proc/stat)
    python3 - "$rate" "$conn" "$((c1 - c0))" "$((s1 - s0))" <<'PY'
import json, sys
rate, conn, ticks, steal = map(int, sys.argv[1:])
d = json.load(open('/tmp/w/tool/o.json'))
n = sum(d['statusCodeDistribution'].values())
u, s = map(float, open('/tmp/w/tool/t').read().split())
p = d['latencyPercentiles']
print(rate, conn, f"{n}/{2 * rate}", f"{(u + s) / n * 1e6:.1f}", f"{ticks * 1e4 / n:.1f}",
      *(f"{p[k] * 1e3:.2f}" for k in ('p50', 'p99', 'p99.9')), f"{d['summary']['slowest'] * 1e3:.2f}", steal)
PY
  done
done
kill $server
