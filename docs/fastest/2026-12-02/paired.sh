#!/bin/bash
# paired.sh DIR CMD...: DIR/a.js against DIR/b.js (prepare.sh makes them), pairs in random
# order, CPU per read (user+sys, 10 ms ticks, start-up included), dd and the reader on CPU 1
# usage: paired.sh DIR RUNTIME [FLAGS...]   (PAIRS=16 COUNT=2000000 in its environment)
GUARD_ARGS='2 -'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
if [[ ! -f $1/a.js || ! -f $1/b.js ]]; then
  guard_refuse "$1 must hold a.js and b.js: make them with prepare.sh"
fi
guard_count PAIRS "${PAIRS:-16}"
dir=$1; shift
COUNT=${COUNT:-2000000}
cd $dir
pairs=$(for i in $(seq 1 ${PAIRS:-16}); do
  order="a b"; (( RANDOM % 2 )) && order="b a"
  line="$i"
  for f in $order; do
    # the reader's count line to a file, its time on stderr: a pair counts only if both read it all
    out=$( { taskset -c 1 dd if=/dev/zero bs=256 count=$COUNT status=none |
      taskset -c 1 /usr/bin/time -f '%U %S' "$@" $f.js 256 > counted.txt; } 2>&1 )
    if ! grep -qx "size $((COUNT * 256)) reads $COUNT blocksize 256" counted.txt; then
      echo "paired.sh: $f.js did not read the $COUNT blocks: $(cat counted.txt) $out" >&2
      exit 1
    fi
    line="$line $f $(echo $out | awk -v c=$COUNT '{printf "%.1f", ($1+$2)*1e9/c}')"
  done
  echo $line
done) || exit 1
echo "$pairs" | python3 -c "
import sys,statistics as s
d=[]
for l in sys.stdin:
  t=l.split(); v={t[1]:float(t[2]),t[3]:float(t[4])}; d.append((v['a'],v['b']))
diffs=sorted(b-a for a,b in d)
print('a median',s.median(a for a,b in d),'b median',s.median(b for a,b in d))
print('b-a per pair sorted',[round(x) for x in diffs],'median',s.median(diffs),
      'b<a in',sum(x<0 for x in diffs),'of',len(diffs))
"
