#!/bin/sh
# Bun's ladder (bun-ffi), 20 processes of 3 rounds each, from the checkout given (default: this
# one), dd and Bun on one CPU as the calls experiment puts them: each line a process, its rounds'
# no-op ns. Run at the commit before the 20 ms settle and at it: sh settle-by-hand.sh CHECKOUT
# usage: sh docs/calls/2026-11-29-amd/settle-by-hand.sh [CHECKOUT]
GUARD_ARGS='0 1'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
checkout=${1:-$(git rev-parse --show-toplevel)}
[ -d "$checkout" ] || guard_refuse "$checkout is no folder; give a checkout of the lab"
cd "$checkout" || exit 1
echo "# $(git log -1 --format='%h %s') ($(date -u +%FT%TZ))"
for process in $(seq 20); do
  # the warm-up's 131,072 reads and three rounds of 65,536: 80 MiB; dd sends 96, drain reads the rest
  taskset -c 0 dd if=/dev/zero bs=65536 count=1536 status=none |
    taskset -c 0 node_modules/.bin/bun calls/bun.mjs ffi 3 120000 65536 |
    awk '/^round/ { printf "%s ", $4 } END { print "" }'
done
