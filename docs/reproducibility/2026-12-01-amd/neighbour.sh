#!/bin/sh
# A probe (noise.c, built as ./noise) on CPU 1 for 240 s; in every other window a neighbour on
# CPU 0. Writes NAME-probe.txt, NAME-start.txt and NAME-windows.txt in the current folder.
#   sh neighbour.sh sibling    the same probe on CPU 0, in windows of 15 s: does CPU 0 share
#                              anything of CPU 1's core?
#   sh neighbour.sh memory     the lab's memory mode on CPU 0, in windows of 30 s
# Then: node probes.js windows NAME-probe.txt NAME-start.txt NAME-windows.txt
# usage: sh neighbour.sh sibling|memory
GUARD_ARGS='1 1'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
set -e
lab=$(cd "$(dirname "$0")/../../.." && pwd)
name=$1
case $name in
  sibling) window=15 ;;
  memory) window=30 ;;
  *) guard_refuse "'$name' is neither sibling nor memory" ;;
esac
rm -f "$name-windows.txt"
date +%s.%N > "$name-start.txt"
taskset -c 1 ./noise 240 > "$name-probe.txt" &
probe=$!
i=0
while [ $i -lt 8 ]; do
  if [ $((i % 2)) -eq 1 ]; then
    echo "on $(date +%s.%N)" >> "$name-windows.txt"
    if [ "$name" = sibling ]; then
      taskset -c 0 ./noise $window > /dev/null
    else
      node "$lab/studies/disturb.js" --mode memory --cpus 0 --for $window >> "$name-disturb.log" 2>&1
    fi
    echo "off $(date +%s.%N)" >> "$name-windows.txt"
  else
    sleep $window
  fi
  i=$((i + 1))
done
wait $probe
