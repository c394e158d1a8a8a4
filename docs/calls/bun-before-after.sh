#!/bin/bash
# Bun's call ladder before issue 48 (read declared returning i64_fast, into a small typed
# array: calls/bun.mjs at commit d18a690) and after (wc/bun-ffi-read.js's declaration: an
# i32, into a view of its own ArrayBuffer), process by process alternating, dd and the
# ladder on CPU 1 as the lab's ladder runs them, 2 rounds of 120,000 calls and 65,536 reads.
#   docs/calls/bun-before-after.sh [PAIRS]     prints a line per process
# usage: docs/calls/bun-before-after.sh [PAIRS]
GUARD_ARGS='0 1'; . "$(dirname "$0")/../script-guard.sh" || exit 2
guard_count PAIRS "${1:-40}"
set -euo pipefail
cd "$(dirname "$0")/../.."
bun=node_modules/.bin/bun
old=$(mktemp -d)
trap 'rm -rf "$old"' EXIT
mkdir "$old/calls"
git show d18a690:calls/bun.mjs > "$old/calls/bun.mjs"
cp calls/ladder.mjs "$old/calls/"
ln -s "$PWD/build" "$old/build"
for i in $(seq 1 "${1:-40}"); do
  for form in old new; do
    file=calls/bun.mjs
    [[ $form == old ]] && file=$old/calls/bun.mjs
    out=$(taskset -c 1 sh -c "dd if=/dev/zero bs=64K count=1024 status=none | $bun $file ffi 2 120000 65536")
    echo "$i $form $(grep '^round' <<<"$out" | tr '\n' ' ')"
  done
done
