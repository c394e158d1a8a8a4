#!/bin/bash
# A/B: Bun's db server with fetch + new URL (a) against routes (b), two each in turns, C's beside
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
