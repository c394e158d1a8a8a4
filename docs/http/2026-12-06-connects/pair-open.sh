# the latency pass's pair once every connection is open (256da9ca), from a clean worktree at
# 301229eb, nothing else of ours running (stop 110's chain of measurements began with it)
# usage: docs/http/2026-12-06-connects/pair-open.sh   (from a worktree at /tmp/w/wt110)
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
cd /tmp/w/wt110
for id in q3 q4; do
  node bench.js --experiment http --only c-epoll --only node-http --only bun --no-strace --no-kernel \
    --out /tmp/w/latq2 --id $id > /tmp/w/latq2-$id.txt 2>&1
done
