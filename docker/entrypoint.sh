#!/usr/bin/env bash
# The image's entry point. The lab is /lab, so bench.js writes runs to /lab/results and
# analyse.js reads them from there: mount a host folder on it.
#
#   IMAGE [BENCH OPTIONS] [-- ANALYSE OPTIONS]   the main job: node bench.js OPTIONS, then
#                                                node analyse.js on the run it wrote
#   IMAGE bench [OPTIONS]                        only bench.js
#   IMAGE analyse [OPTIONS] [RUN FOLDERS]        only analyse.js (default: the newest run)
#   IMAGE COMMAND [ARGS]                         anything else, e.g. bash, node wc/programs.js
set -euo pipefail
cd "$(dirname "$0")/.."

case ${1:-} in
  bench) shift; exec node bench.js "$@" ;;
  analyse | analyze) shift; exec node analyse.js "$@" ;;
  '' | -*) ;;
  *) exec "$@" ;;
esac

bench_args=()
analyse_args=()
while [[ $# -gt 0 && $1 != -- ]]; do bench_args+=("$1"); shift; done
if [[ $# -gt 0 ]]; then shift; analyse_args=("$@"); fi

# Which folder the run goes to, so that analyse.js gets exactly that one.
out=results id='' resume='' help=0 report=0
for ((i = 0; i < ${#bench_args[@]}; i++)); do
  next=${bench_args[i + 1]:-}
  case ${bench_args[i]} in
    --out) out=$next ;;
    --out=*) out=${bench_args[i]#--out=} ;;
    --id) id=$next ;;
    --id=*) id=${bench_args[i]#--id=} ;;
    --resume) resume=$next ;;
    --resume=*) resume=${bench_args[i]#--resume=} ;;
    --help) help=1 ;;
    --report) report=1 ;;
  esac
done
if [[ -z $id && -z $resume && $help == 0 ]]; then
  id=$(date -u +%Y-%m-%d-%H-%M-%S)
  bench_args+=(--id "$id")
fi
if [[ -n $resume ]]; then
  if [[ -d $resume ]]; then run=$resume; else run=results/$resume; fi
else
  run=$out/$id
fi

# bench.js stops cleanly on SIGTERM/SIGINT (docker stop, Ctrl-C) and keeps what it
# measured; as PID 1 this script passes the signal on rather than ignoring it.
node bench.js "${bench_args[@]}" &
bench=$!
trap 'kill -TERM "$bench" 2>/dev/null || true' TERM INT
status=0
wait "$bench" || status=$?
while kill -0 "$bench" 2>/dev/null; do wait "$bench" || status=$?; done
trap - TERM INT

# 0: all measured; 1: some runs failed and are left out, the rest is worth a report.
# With --report, bench.js has written the report itself.
if [[ $help == 1 || $report == 1 || ($status != 0 && $status != 1) ]]; then exit "$status"; fi
if [[ ! -f analyse.js ]]; then
  echo "entrypoint: no analyse.js in this image, so no report; the run is in $run" >&2
  exit "$status"
fi
node analyse.js "${analyse_args[@]}" "$run" || exit $?
exit "$status"
