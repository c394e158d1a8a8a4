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

# What the image leaves out to stay small (docs/image.md), installed when a bench asks for
# it: PostgreSQL for --experiment db (from Debian), the Nodes of --node but the default (from
# npm's registry). A container starts from the image each time, so such a run fetches them
# again. Not for --list or --help, which say what is missing and how to get it.
fetch_missing() {
  # bench's own checks first: a bad value is refused before anything is installed for it
  node -e "try { require('./bench').parseOptions(process.argv.slice(1)) } catch (err) {
    console.error('bench.js: ' + err.message); process.exit(2) }" -- "$@" || exit 2
  local experiment=stdio nodes='' args=("$@") i
  for ((i = 0; i < ${#args[@]}; i++)); do
    case ${args[i]} in
      --list | --help) return 0 ;;
      --experiment) experiment=${args[i + 1]:-} ;;
      --experiment=*) experiment=${args[i]#--experiment=} ;;
      --node) nodes=${args[i + 1]:-} ;;
      --node=*) nodes=${args[i]#--node=} ;;
    esac
  done
  local wants=()
  if [[ $experiment == db && ! -x /usr/lib/postgresql/15/bin/initdb ]]; then
    echo "entrypoint: the image has no PostgreSQL 15, which --experiment db needs: installing it from Debian"
    wants+=(--db)
  fi
  # --node is the stdio experiment's; the others refuse it themselves
  [[ $experiment == stdio && -n $nodes ]] && wants+=(--node "$nodes")
  [[ ${#wants[@]} -eq 0 ]] && return 0
  # its closing list of every program is for a set-up machine, not for a run about to start
  ./setup.sh --runtime-only "${wants[@]}" | sed -u '/^setup: programs and their runtimes:$/,$d'
}

case ${1:-} in
  bench) shift; fetch_missing "$@"; exec node bench.js "$@" ;;
  analyse | analyze) shift; exec node analyse.js "$@" ;;
  # the report by default; given again, bench.js would refuse --report as given twice
  '' | -*) fetch_missing "$@"; if [[ " $* " == *' --report '* ]]; then exec node bench.js "$@"; fi
    exec node bench.js --report "$@" ;;
  *) exec "$@" ;;
esac
