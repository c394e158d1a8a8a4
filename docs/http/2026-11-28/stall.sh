#!/bin/bash
# the 1 s stall (test/fixtures/http-broken.js stalls-once, at its 500th request) under three loads
# usage: docs/http/2026-11-28/stall.sh   (from the lab's root)
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
cd /work/main
run () { taskset -c 1 node test/fixtures/http-broken.js stalls-once 18124 > /dev/null & pid=$!; sleep 0.7; "$@"; kill $pid; wait $pid 2>/dev/null; }
pct () { python3 -c "import json,sys;d=json.load(sys.stdin);p=d['latencyPercentiles'];print('answered',sum(d['statusCodeDistribution'].values()),' '.join(f'{k} {p[k]*1e3:.2f}' for k in ('p50','p75','p90','p99','p99.9')),'max %.2f ms'%(d['summary']['slowest']*1e3))"; }
echo "oha -q 2000 --latency-correction -c 20 -z 3s (intended send times):"
run sh -c "taskset -c 0 env TOKIO_WORKER_THREADS=1 build/oha/bin/oha --no-tui --output-format json -q 2000 --latency-correction -w -c 20 -z 3s http://127.0.0.1:18124/ | $(declare -f pct | tail -n +3 | head -n -1)"
echo "oha -q 2000 -c 20 -z 3s (from actual send times):"
run sh -c "taskset -c 0 env TOKIO_WORKER_THREADS=1 build/oha/bin/oha --no-tui --output-format json -q 2000 -w -c 20 -z 3s http://127.0.0.1:18124/ | $(declare -f pct | tail -n +3 | head -n -1)"
echo "wrk -t1 -c20 -d3s --latency (closed loop, its histogram corrected after the run):"
run sh -c "taskset -c 0 wrk -t1 -c20 -d3s --latency http://127.0.0.1:18124/ | grep -E 'Latency|%|requests in'"
