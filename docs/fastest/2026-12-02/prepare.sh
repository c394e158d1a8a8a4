#!/bin/bash
# The two pairs of readers paired.sh compares (docs/programs.md, "Two declarations a review
# proposed"): in DIR/node-ffi and DIR/deno-ffi, a.js the lab's reader and b.js the other form.
set -euo pipefail
lab=$(cd "$(dirname "$0")/../../.." && pwd)
if [[ $# -ne 1 || $1 == --help ]]; then
  echo "usage: prepare.sh DIR: writes DIR/node-ffi and DIR/deno-ffi, each with a.js and b.js" >&2
  exit 2
fi
dir=$1
# each edit must change its copy, or a.js and b.js would be one form and the pair could not differ
edited () { if cmp -s "$1" "$2"; then echo "prepare.sh: the edit of $1 into $2 changed nothing; the listing moved" >&2; exit 1; fi; }
mkdir -p "$dir/node-ffi" "$dir/deno-ffi"
cd "$dir/node-ffi"
sed "s#./node-ffi-read.js#./a-read.js#" "$lab/wc/node-ffi.js" > a.js
sed "s#./node-ffi-read.js#./b-read.js#" "$lab/wc/node-ffi.js" > b.js
cp "$lab/wc/node-ffi-read.js" a-read.js
sed "s/arguments: \['int32', 'pointer', 'uint64'\]/arguments: ['int32', 'uint64', 'uint64']/" a-read.js > b-read.js
edited a-read.js b-read.js
cd "$dir/deno-ffi"
sed "s#./deno-ffi-read.js#./a-read.js#" "$lab/wc/deno-ffi.js" > a.js
sed "s#./deno-ffi-read.js#./b-read.js#; s/while (n > 0n)/while (n > 0)/; s/if (n < 0n)/if (n < 0)/" "$lab/wc/deno-ffi.js" > b.js
cp "$lab/wc/deno-ffi-read.js" a-read.js
sed "s/result: 'isize'/result: 'i32'/" a-read.js > b-read.js
edited a-read.js b-read.js
