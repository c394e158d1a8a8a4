# usage: docs/http/2026-12-06-connects/pair.sh   (from the lab's root)
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
cd /work/main
for id in q1 q2; do
  node bench.js --experiment http --only c-epoll --only node-http --only bun --no-strace --no-kernel \
    --out /tmp/w/latq --id $id > /tmp/w/latq-$id.txt 2>&1
done
date -u > /tmp/w/latq.done
