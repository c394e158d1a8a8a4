#!/usr/bin/env bash
# Proves README's two commands on a fresh Debian bookworm machine: each runs in a root of
# its own made by debootstrap (minbase: Debian's essential packages and nothing else, so
# no Node, no git, no compiler), on a clone of this checkout's HEAD under /root, as root,
# with no standard input, as CI runs. The commands are read from README's "Two commands"
# block, so what passes here is what README tells a user to type.
#
#   test/fresh-machine.sh [--only main|test] [--logs DIR]
#
#   --only main   only the set-up-and-bench command (the first line of the block)
#   --only test   only the test command (the second)
#   --logs DIR    where each command's full output goes (default: a new folder in /tmp)
#
# Needs root, Linux, and Debian's and npm's registries (debootstrap is installed if
# missing). Takes about an hour for both on 2 cores (the first 34 minutes on 2026-11-29).
# Exits 0 only when every command passed.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

only=""
logs=""
given=""
while [[ $# -gt 0 ]]; do
  # --only=main as bench.js takes its options, the same as --only main
  if [[ $1 == --only=* || $1 == --logs=* ]]; then set -- "${1%%=*}" "${1#*=}" "${@:2}"; fi
  case $1 in
    --only|--logs)
      [[ $# -ge 2 && -n $2 ]] || { echo "fresh-machine.sh: $1 needs a value (usage: test/fresh-machine.sh [--only main|test] [--logs DIR])" >&2; exit 2; }
      # a second value would silently win over the first: which was meant?
      [[ " $given " != *" $1 "* ]] || { echo "fresh-machine.sh: $1 given twice; give it once (usage: test/fresh-machine.sh [--only main|test] [--logs DIR])" >&2; exit 2; }
      given="$given $1"
      if [[ $1 == --only ]]; then only=$2; else logs=$2; fi
      shift 2 ;;
    --help) echo 'usage: test/fresh-machine.sh [--only main|test] [--logs DIR]'; sed -n '/^#   --only main/,/^#   --logs/s/^#//p' test/fresh-machine.sh; exit 0 ;;
    *) echo "fresh-machine.sh: unknown option '$1' (usage: test/fresh-machine.sh [--only main|test] [--logs DIR])" >&2; exit 2 ;;
  esac
done
case $only in ''|main|test) ;; *) echo "fresh-machine.sh: --only takes main or test, not '$only'" >&2; exit 2 ;; esac
[[ $(id -u) == 0 ]] || { echo "fresh-machine.sh: debootstrap and chroot need root; run it as root" >&2; exit 2; }
git rev-parse --verify -q HEAD >/dev/null || { echo "fresh-machine.sh: $repo is not a git checkout with a commit; it clones HEAD" >&2; exit 2; }
# the logs' folder once nothing else is refused: a refused command leaves no folder behind
logs=${logs:-$(mktemp -d /tmp/fresh-machine-XXXXXX)}
mkdir -p "$logs" 2>/dev/null && [[ -w $logs ]] || {
  echo "fresh-machine.sh: cannot make or write the folder '$logs' for --logs; give a folder that" \
    "may be written (usage: test/fresh-machine.sh [--only main|test] [--logs DIR])" >&2
  exit 2
}

# README's block: the lines between "## Two commands" and the end of its first ```sh block,
# each without its trailing comment.
mapfile -t commands < <(awk '/^## Two commands/ {section = 1} section && /^```sh/ {inside = 1; next}
  inside && /^```/ {exit} inside {sub(/[ \t]+#.*$/, ""); if ($0 != "") print}' README.md)
[[ ${#commands[@]} == 2 ]] || { echo "fresh-machine.sh: README.md's \"Two commands\" block should hold 2 commands, found ${#commands[@]}" >&2; exit 1; }

if ! command -v debootstrap >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
# The Debian mirror this machine's apt already uses, else Debian's own.
mirror=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[[ -n $mirror ]] || mirror=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[[ -n $mirror ]] || mirror=http://deb.debian.org/debian

root=""
cleanup() {
  [[ -n $root && -d $root ]] || return 0
  # Anything still running inside the root (a bench's leftovers) would keep its mounts busy.
  for proc in /proc/[0-9]*; do
    [[ $(readlink "$proc/root" 2>/dev/null) == "$root" ]] && kill -9 "${proc#/proc/}" 2>/dev/null || true
  done
  umount -R "$root/proc" "$root/sys" "$root/dev" 2>/dev/null || true
  if ! grep -q " $root/" /proc/mounts; then rm -rf "$root"; fi
  root=""
}
trap cleanup EXIT
trap 'exit 130' INT TERM

run_fresh() {
  local name=$1 command=$2 started status
  root=$(mktemp -d /tmp/fresh-root-XXXXXX)
  chmod 755 "$root"  # apt fetches as _apt, which must reach the root
  echo "== $name: debootstrap --variant=minbase bookworm ($mirror)"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$logs/$name-debootstrap.log" 2>&1 \
    || { echo "fresh-machine.sh: debootstrap failed, see $logs/$name-debootstrap.log" >&2; exit 1; }
  git clone -q "$repo" "$root/root/syscall-lab"
  # A proxy that re-signs TLS on the way to the registries needs its CA inside too, as it
  # would on a real machine behind it; ca-certificates (setup.sh installs it) takes it up.
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mount -t proc proc "$root/proc"
  mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
  mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"

  echo "== $name: $command"
  started=$(date +%s)
  set +e
  chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb CI=true LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    ${NODE_EXTRA_CA_CERTS:+NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt} \
    bash -c "cd /root/syscall-lab && $command" </dev/null >"$logs/$name.log" 2>&1
  status=$?
  set -e
  echo "== $name: exit $status after $(( $(date +%s) - started )) s; its last lines:"
  tail -n 12 "$logs/$name.log" | sed 's/^/   /'
  if [[ $name == main && -d $root/root/syscall-lab/results ]]; then
    cp -r "$root/root/syscall-lab/results" "$logs/main-results"
  fi
  cleanup
  return "$status"
}

failed=0
[[ $only == test ]] || run_fresh main "${commands[0]}" || failed=1
[[ $only == main ]] || run_fresh test "${commands[1]}" || failed=1
echo "== logs: $logs"
if [[ $failed == 0 ]]; then echo "fresh-machine.sh: passed"; else echo "fresh-machine.sh: FAILED"; fi
exit "$failed"
