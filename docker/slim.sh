#!/usr/bin/env bash
# The Dockerfile's build stage, after ./setup.sh: takes out of /lab what no run in the image
# needs, before the last stage copies /lab (docs/image.md has the sizes). What goes:
# - build/node/'s other Nodes: the default run measures only measuredNodeVersions[0];
#   --node fetches the others (the entry point runs ./setup.sh --runtime-only --node V)
# - of the default Node, all but bin/node, its LICENSE and package.json: headers (include/),
#   man pages and changelog, which `node` runs without
# - build/host-obj/: the host's object files, linked into build/just-host already
# - of Highcharts, all but the four files the report inlines (analyse.js's
#   HIGHCHARTS_FILES), its package.json (the version) and licence: 73 MB of modules
# - Bun's musl build: Debian's npm 9 does not read package-lock.json's "libc" field and
#   installs it beside the glibc one that Bun's postinstall picks, and nothing runs it
# - npm's and pip's caches
# - the symbol tables and DWARF of the default Node (33 MB) and of wasmtime's library (6 MB),
#   sections no process maps (Bun's and Deno's releases ship without them already).
#   docker/loaded-bytes.js proves what is mapped is unchanged, byte for byte, and
#   build/stripped.txt keeps its digests
# Nothing that runs is changed: the code the lab measures is the code npm and PyPI served.
set -euo pipefail
cd "$(dirname "$0")/.."
# it takes no arguments: anything given is refused before a file goes (a review: --help ran it)
usage="usage: docker/slim.sh   (the image's build stage, after ./setup.sh: what no run needs goes)"
case ${1-} in
  '') [[ $# -eq 0 ]] || { echo "docker/slim.sh: takes no arguments ($usage)" >&2; exit 2; } ;;
  --help) echo "$usage"; exit 0 ;;
  *) echo "docker/slim.sh: takes no arguments, not '$1' ($usage)" >&2; exit 2 ;;
esac

default_node=$(node -p "require('./package.json').measuredNodeVersions[0]")
[[ -x build/node/$default_node/bin/node ]] \
  || { echo "docker/slim.sh: no build/node/$default_node/bin/node, the Node the default run measures; run ./setup.sh first" >&2; exit 1; }
for dir in build/node/*/; do
  [[ $dir == "build/node/$default_node/" ]] || rm -rf "$dir"
done
find "build/node/$default_node" -mindepth 1 -maxdepth 1 ! -name bin ! -name LICENSE ! -name package.json -exec rm -rf {} +

rm -rf build/host-obj

highcharts=node_modules/highcharts
kept=$(mktemp -d)
mapfile -t files < <(node -p "require('./analyse.js').HIGHCHARTS_FILES.join('\n')")
for file in package.json LICENSE.txt "${files[@]}"; do
  [[ -f $highcharts/$file ]] || { echo "docker/slim.sh: $highcharts/$file is missing; run ./setup.sh first" >&2; exit 1; }
  mkdir -p "$kept/$(dirname "$file")"
  cp "$highcharts/$file" "$kept/$file"
done
rm -rf "$highcharts"
mv "$kept" "$highcharts"
chmod 755 "$highcharts"

rm -rf node_modules/@oven/bun-linux-*-musl* /root/.npm /root/.cache/pip

# `strip --strip-unneeded` keeps .dynsym, which addons, FFI and ctypes resolve against.
: > build/stripped.txt
for binary in "build/node/$default_node/bin/node" build/wasmtime-py/wasmtime/linux-x86_64/_libwasmtime.so; do
  [[ -f $binary ]] || { echo "docker/slim.sh: $binary is missing; run ./setup.sh first" >&2; exit 1; }
  before=$(node docker/loaded-bytes.js "$binary")
  strip --strip-unneeded "$binary"
  [[ $(node docker/loaded-bytes.js "$binary") == "$before" ]] \
    || { echo "docker/slim.sh: strip changed what $binary loads; build without this step" >&2; exit 1; }
  printf '%s\n%s\n' "$binary: symbols and DWARF stripped, loaded segments unchanged:" "$before" \
    >> build/stripped.txt
done

