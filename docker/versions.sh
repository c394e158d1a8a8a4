#!/usr/bin/env bash
# The Dockerfile's version pins, checked while the image is built: a mismatch fails the
# build rather than making an image whose numbers come from other versions than it says.
#
#   docker/versions.sh build   after ./setup.sh: Node, libnode-dev and gcc are the pinned
#                              ones; Bun and Deno are put on their ARGs with npm when those
#                              differ from package-lock.json
#   docker/versions.sh final   after ./setup.sh --runtime-only: Node, libnode108, Bun and
#                              Deno are the pinned ones, and every program of the lab runs
set -euo pipefail
cd "$(dirname "$0")/.."
usage='usage: docker/versions.sh build|final   (the Dockerfile sets its *_VERSION pins)'
case ${1:-} in
  --help) echo "$usage"; exit 0 ;;
  build|final) ;;
  *) echo "docker/versions.sh: '${1:-}' is not build or final ($usage)" >&2; exit 2 ;;
esac
for pin in NODE_VERSION GCC_VERSION BUN_VERSION DENO_VERSION; do
  [[ -n ${!pin:-} ]] \
    || { echo "docker/versions.sh: $pin is not set; the Dockerfile's ARG sets it (--build-arg $pin=...)" >&2; exit 2; }
done

fail() { echo "docker/versions.sh: $*" >&2; exit 1; }

# Debian's 18.20.4+dfsg-1~deb12u2 is upstream Node 18.20.4.
check_node() {
  local actual package version
  actual=$(node --version)
  [[ $actual == "v$NODE_VERSION" ]] \
    || fail "Debian's Node is now ${actual#v}, NODE_VERSION is $NODE_VERSION; to accept it, build with --build-arg NODE_VERSION=${actual#v}"
  for package in "$@"; do
    version=$(dpkg-query -W -f='${Version}' "$package")
    [[ $version == "$NODE_VERSION"[+-]* ]] || fail "$package is $version, not Node $NODE_VERSION's"
  done
}

check_npm_runtimes() {
  local bun deno
  bun=$(node_modules/.bin/bun --version)
  deno=$(node_modules/.bin/deno --version)
  deno=${deno%%$'\n'*}
  [[ $bun == "$BUN_VERSION" ]] || fail "node_modules/.bin/bun is $bun, BUN_VERSION is $BUN_VERSION"
  [[ $deno == "deno $DENO_VERSION "* ]] || fail "node_modules/.bin/deno is '$deno', DENO_VERSION is $DENO_VERSION"
}

locked() { node -p "require('./package-lock.json').packages['node_modules/$1'].version"; }

case ${1:-} in
  build)
    check_node nodejs libnode-dev
    [[ $(gcc -dumpfullversion) == "$GCC_VERSION" ]] \
      || fail "Debian's gcc is now $(gcc -dumpfullversion), GCC_VERSION is $GCC_VERSION; to accept it, build with --build-arg GCC_VERSION=$(gcc -dumpfullversion)"
    other=()
    [[ $(locked bun) == "$BUN_VERSION" ]] || other+=("bun@$BUN_VERSION")
    [[ $(locked deno) == "$DENO_VERSION" ]] || other+=("deno@$DENO_VERSION")
    if [[ ${#other[@]} -gt 0 ]]; then
      echo "docker/versions.sh: installing ${other[*]} in place of package-lock.json's versions, in this image only"
      npm install --no-save --omit=dev --no-audit --no-fund --loglevel=error "${other[@]}"
    fi
    check_npm_runtimes
    ;;
  final)
    check_node nodejs libnode108
    check_npm_runtimes
    # Every program runs: one short timed run each through the real pipeline, no profiles
    # and no cost pass (its fast-path check needs runs long enough for the JIT: 1 MiB is not).
    # Save the readers through io_uring that the build's own seccomp profile refuses a ring
    # (Docker's and podman's do): the profile of each run decides for them, and the probe
    # that was refused ran their reader, so they are built. Save too the rows of a runtime
    # only an optional set-up installs (wasmer: ./setup.sh --wasm), which the image leaves
    # out and whose rows say how to get it.
    unavailable=$(node -e "const { optionalMissing } = require('./lib/runtimes'); for (const p of JSON.parse(require('fs').readFileSync(0))) if (!p.available && !(p.ring && /^io_uring_setup /.test(p.unavailable)) && !optionalMissing(p.runtime)) console.log(p.name + ': ' + p.unavailable)" < <(node bench.js --list --json))
    [[ -z $unavailable ]] || fail "programs that cannot run in the image: $unavailable"
    smoke=$(mktemp -d)
    node bench.js --sizes 65536 --runs 1 --warmup 0 --mib 1 --no-strace --no-gc --no-cost --out "$smoke" --id smoke >"$smoke/log" \
      || { cat "$smoke/log" >&2; fail "a one-run bench of every program failed (above)"; }
    rm -rf "$smoke"
    ;;
  *) echo "usage: docker/versions.sh build|final" >&2; exit 2 ;;
esac
