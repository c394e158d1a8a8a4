#!/bin/bash
# A/B: Bun's db server with fetch + new URL (a) against routes (b), two each in turns, C's beside
# usage: docs/db/2026-12-06-bun-routes/ab.sh   (/tmp/w/bun-fetch.js and /tmp/w/bun-routes.js made first)
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
# it copies each form over db/bun.js, a tracked file: both must be there, and routes goes back
for form in fetch routes; do
  [ -f /tmp/w/bun-$form.js ] || guard_refuse "/tmp/w/bun-$form.js is missing: save each form of db/bun.js there first"
done
trap 'git -C /work/main checkout -- db/bun.js' EXIT
cd /work/main
for i in 1 2; do
  for v in fetch routes; do
    cp /tmp/w/bun-$v.js db/bun.js
    node bench.js --experiment db --only c-libpq-prepared-pipelined --only 'bun-*' --no-strace --no-kernel --no-latency \
      --out /tmp/w/bunab --id $v$i > /tmp/w/bunab-$v$i.txt 2>&1
  done
done
cp /tmp/w/bun-routes.js db/bun.js
date -u > /tmp/w/bunab.done
