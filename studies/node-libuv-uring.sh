#!/usr/bin/env bash
# Does Node's libuv read stdin through io_uring? Each Node the lab measures (build/node/*)
# reads 1 MB of stdin with fs.read (studies/node-fs-read.js), from a pipe and from a file,
# with UV_USE_IO_URING=0 and =1, under strace -f -c; per case, the calls that could carry
# the reads, the io_uring calls, and the flags each ring was set up with (SQPOLL is 0x2).
#   studies/node-libuv-uring.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c 1000000 /dev/urandom > "$work/input"
for node in build/node/*/bin/node; do
  for flag in 0 1; do
    for stdin in pipe file; do
      if [[ $stdin == pipe ]]; then
        cat "$work/input" | UV_USE_IO_URING=$flag strace -f -qq -c -o "$work/count" "$node" studies/node-fs-read.js 4096 > "$work/out"
      else
        UV_USE_IO_URING=$flag strace -f -qq -c -o "$work/count" "$node" studies/node-fs-read.js 4096 < "$work/input" > "$work/out"
      fi
      UV_USE_IO_URING=$flag strace -f -qq -e trace=io_uring_setup -o "$work/setup" "$node" studies/node-fs-read.js 4096 < "$work/input" > /dev/null
      calls=$(awk '$NF ~ /^(read|pread64|preadv|preadv2|io_uring_setup|io_uring_enter)$/ { printf "%s %s  ", $NF, $4 }' "$work/count")
      flags=$(sed -n 's/.*io_uring_setup([0-9]*, {flags=\([^,]*\),.*/\1/p' "$work/setup" | sort | uniq -c | awk '{ printf "%s with flags %s  ", $1, $2 }')
      echo "$($node --version) UV_USE_IO_URING=$flag $stdin: $(cat "$work/out"); $calls; rings: $flags"
    done
  done
done
