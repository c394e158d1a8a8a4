#!/usr/bin/env bash
# The image's entry point. The lab is /lab, so bench.js writes runs to /lab/results and
# analyse.js reads them from there: mount a host folder on it.
#
#   IMAGE [BENCH OPTIONS]              the main job: node bench.js --report OPTIONS
#   IMAGE bench [OPTIONS]              only bench.js
#   IMAGE analyse [OPTIONS] [RUNS]     only analyse.js (default: the newest run)
#   IMAGE COMMAND [ARGS]               anything else, e.g. bash, node bench.js --list
#
# exec makes node PID 1: bench.js handles SIGTERM (docker stop) itself, stops the run in
# flight and keeps what it measured, where PID 1 without a handler would ignore it.
set -euo pipefail
cd "$(dirname "$0")/.."

case ${1:-} in
  bench) shift; exec node bench.js "$@" ;;
  analyse | analyze) shift; exec node analyse.js "$@" ;;
  '' | -*) exec node bench.js --report "$@" ;;
  *) exec "$@" ;;
esac
