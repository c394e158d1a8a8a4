#!/bin/bash
# The two pairs of readers paired.sh compares (docs/programs.md, "Two declarations a review
# proposed"): in DIR/node-ffi and DIR/deno-ffi, a.js the lab's reader and b.js the other form.
# usage: prepare.sh DIR   (writes DIR/node-ffi and DIR/deno-ffi, each with a.js and b.js)
GUARD_ARGS='1 1'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
set -euo pipefail
lab=$(cd "$(dirname "$0")/../../.." && pwd)
dir=$1
# pair NAME READER_EDIT DECLARATION_EDIT: in DIR/NAME, a.js the lab's wc/NAME.js and b.js the
# same listing reading its declaration edited; each edit must change its copy, or a.js and b.js
# would be one form and the pair could not differ.
pair () {
  local name=$1 reader_edit=$2 declaration_edit=$3
  mkdir -p "$dir/$name" && cd "$dir/$name"
  sed "s#./$name-read.js#./a-read.js#" "$lab/wc/$name.js" > a.js
  sed "s#./$name-read.js#./b-read.js#; $reader_edit" "$lab/wc/$name.js" > b.js
  cp "$lab/wc/$name-read.js" a-read.js
  sed "$declaration_edit" a-read.js > b-read.js
  if cmp -s a-read.js b-read.js; then
    echo "prepare.sh: the edit of $name's declaration changed nothing; the listing moved" >&2
    exit 1
  fi
}
pair node-ffi '' "s/arguments: \['int32', 'pointer', 'uint64'\]/arguments: ['int32', 'uint64', 'uint64']/"
pair deno-ffi 's/while (n > 0n)/while (n > 0)/; s/if (n < 0n)/if (n < 0)/' "s/result: 'isize'/result: 'i32'/"
