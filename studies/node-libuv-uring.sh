#!/usr/bin/env bash
# Does Node's libuv read stdin through io_uring? Each Node the lab measures (build/node/*)
# reads 1 MB of stdin with fs.read (studies/node-fs-read.js): from a pipe, from a file,
# and from a file at explicit positions, with UV_USE_IO_URING=0 and =1, under strace -f.
# Per case: the reads of fd 0 (read or pread64) by the main thread and by the others (the
# thread pool's), the io_uring calls, and the flags each ring was set up with (SQPOLL is
# 0x2; a read through a ring shows as io_uring_enter calls or, with SQPOLL, none).
#   studies/node-libuv-uring.sh
set -euo pipefail
usage='usage: studies/node-libuv-uring.sh
  Whether each Node in build/node/ reads stdin through io_uring (fs.read, under strace -f).'
if [[ ${1-} == --help ]]; then echo "$usage"; exit 0; fi
if (($#)); then echo "node-libuv-uring.sh: it takes no arguments, not '$1' (see --help)" >&2; exit 2; fi
cd "$(dirname "$0")/.."
command -v strace > /dev/null || { echo "node-libuv-uring.sh: strace is not installed: apt-get install strace" >&2; exit 2; }
compgen -G 'build/node/*/bin/node' > /dev/null || {
  echo "node-libuv-uring.sh: no Node in build/node/: run ./setup.sh" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c 1000000 /dev/urandom > "$work/input"
for node in build/node/*/bin/node; do
  for flag in 0 1; do
    for stdin in pipe file positioned; do
      reader=("$node" studies/node-fs-read.js 4096)
      [[ $stdin == positioned ]] && reader+=(positioned)
      trace=(strace -f -qq -e trace=read,pread64,io_uring_setup,io_uring_enter -o "$work/trace")
      if [[ $stdin == pipe ]]; then
        cat "$work/input" | UV_USE_IO_URING=$flag "${trace[@]}" "${reader[@]}" > "$work/out"
      else
        UV_USE_IO_URING=$flag "${trace[@]}" "${reader[@]}" < "$work/input" > "$work/out"
      fi
      main=$(head -n 1 "$work/trace" | awk '{ print $1 }')
      counts=$(awk -v main="$main" '
        $2 ~ /^(read|pread64)\(0,/ { if ($1 == main) mainReads++; else poolReads++ }
        $2 ~ /^io_uring_enter\(/ { enters++ }
        $2 ~ /^io_uring_setup\(/ { match($0, /flags=[^ ,]*/); rings[substr($0, RSTART + 6, RLENGTH - 6)]++ }
        END {
          printf "reads of fd 0: %d by the main thread, %d by others; io_uring_enter %d; rings:", mainReads, poolReads, enters
          for (flags in rings) printf " %d with flags %s", rings[flags], flags
        }' "$work/trace")
      echo "$($node --version) UV_USE_IO_URING=$flag $stdin: $(cat "$work/out"); $counts"
    done
  done
done
