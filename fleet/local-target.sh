#!/usr/bin/env bash
# A second fleet target on this machine, reached over ssh: the lab's image with an ssh
# server, in a container of its own CPU set. It proves the fleet's ssh path where no
# second machine is at hand (docs/fleet.md); a real fleet needs none of it.
#
#   fleet/local-target.sh start [CPUS]   build syscall-lab-ssh from the syscall-lab image,
#                                        run it on CPUS (default: the last CPU) with sshd
#                                        on port 2222, and print its inventory line
#   fleet/local-target.sh stop           stop and remove the container
#
# Environment: ENGINE (podman or docker; default: whichever is installed), PORT (2222).
set -euo pipefail
cd "$(dirname "$0")/.."
usage='usage: fleet/local-target.sh start [CPUS] | stop'
if [[ ${1:-} == --help ]]; then
  echo "$usage"; sed -n '/^#   fleet\/local-target.sh start/,/^#   fleet\/local-target.sh stop/s/^#//p' "$0"; exit 0
fi
refuse () { echo "local-target.sh: $1 ($usage)" >&2; exit 2; }
# the command line first: a wrong one is said before anything is asked of the engine
case ${1:-} in
  start)
    (($# <= 2)) || refuse "start takes at most CPUS, not '${*:3}'; drop it"
    last=$(($(nproc) - 1))
    cpus=${2:-$last}
    # a cpuset list (1, 0-1, 0,1) of this machine's CPUs, which the engine would refuse later
    # or in words of its own
    [[ $cpus =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] \
      || refuse "CPUS '$cpus' is not a list of CPUs; give numbers from 0 to $last, as $last or 0-$last"
    for cpu in $(tr ',-' '  ' <<< "$cpus"); do
      # more than 9 digits would wrap round in bash's 64 bits (18446744073709551617 is 1)
      ((${#cpu} <= 9 && 10#$cpu <= last)) \
        || refuse "CPU $cpu is not one of this machine's (0-$last); give numbers from 0 to $last"
    done
    ;;
  stop) (($# == 1)) || refuse "stop takes no arguments, not '${*:2}'; drop them" ;;
  *) refuse "${1:+unknown command '$1'; }give start or stop" ;;
esac
engine=${ENGINE:-$(command -v podman || command -v docker || true)}
if [[ -z $engine ]]; then
  echo "local-target.sh: neither podman nor docker is installed; apt-get install podman" >&2
  exit 2
fi
# an engine whose daemon is not running answers every command with an error: said so, rather
# than as a missing image, or a stop that stopped nothing
engine_answers () {
  "$engine" info >/dev/null 2>&1 && return
  echo "local-target.sh: $engine does not answer ($engine info fails): start its service" \
    "(systemctl start ${engine##*/}), or set ENGINE to one that runs" >&2
  exit 2
}
port=${PORT:-2222}
name=syscall-lab-target
key=build/fleet/id_ed25519

case ${1:-} in
  start)
    engine_answers
    "$engine" image exists syscall-lab 2>/dev/null || "$engine" image inspect syscall-lab >/dev/null 2>&1 \
      || { echo "local-target.sh: no syscall-lab image; build it first (docker build --build-arg LAB_COMMIT=\$(git rev-parse --short HEAD) -t syscall-lab .)" >&2; exit 2; }
    mkdir -p build/fleet
    [[ -f $key ]] || ssh-keygen -q -t ed25519 -N '' -C syscall-lab-fleet -f "$key"
    # the key is the only way in; the image's entrypoint is replaced by sshd
    "$engine" build -q -t syscall-lab-ssh -f - build/fleet >/dev/null <<CONTAINERFILE
FROM syscall-lab
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openssh-server \
 && rm -rf /var/lib/apt/lists/* && mkdir -p /run/sshd /root/.ssh
COPY id_ed25519.pub /root/.ssh/authorized_keys
ENTRYPOINT ["/usr/sbin/sshd", "-D", "-e", "-p", "$port", "-o", "PasswordAuthentication=no"]
CONTAINERFILE
    "$engine" rm -f "$name" >/dev/null 2>&1 || true
    # ptrace for strace, BPF and PERFMON for the kernel pass, as README's docker run
    "$engine" run -d --name "$name" --network host --cpuset-cpus "$cpus" \
      --cap-add SYS_PTRACE --cap-add BPF --cap-add PERFMON syscall-lab-ssh >/dev/null
    echo "box ansible_host=127.0.0.1 ansible_port=$port ansible_user=root" \
      "ansible_ssh_private_key_file=$PWD/$key fleet_lab_dir=/lab" \
      "ansible_ssh_common_args='-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null'"
    ;;
  stop)
    engine_answers
    "$engine" rm -f "$name" >/dev/null 2>&1 || true
    ;;
esac
