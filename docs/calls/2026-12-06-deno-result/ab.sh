#!/bin/bash
# deno-ffi's ladder with its read's result isize (a, the lab's) or i32 (b), in turns, on CPU 1
# usage: docs/calls/2026-12-06-deno-result/ab.sh   (its two readers in /tmp/w/dab, as its section says)
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
DENO=/work/main/node_modules/.bin/deno
cd /tmp/w/dab
for i in $(seq 1 10); do
  for v in $([ $((i % 2)) = 0 ] && echo "a b" || echo "b a"); do
    out=$(taskset -c 1 dd if=/dev/zero bs=65536 count=1024 status=none |
      taskset -c 1 $DENO run --allow-ffi --allow-read --v8-flags=--allow-natives-syntax \
        $v/calls/deno.mjs ffi 2 120000 65536)
    echo "$v $i $(echo "$out" | grep '^round 2')"
  done
done
