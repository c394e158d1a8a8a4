# The lab in a container, for numbers that can be reproduced: Debian bookworm with
# Debian's own Node 18 to run the lab and libnode (V8 10.2) for the just(js)-style host;
# the Node the default run measures (package.json's first measuredNodeVersions), Bun and
# Deno from npm, each at the version pinned below or in package.json.
#
#   docker build --build-arg LAB_COMMIT=$(git rev-parse --short HEAD) -t syscall-lab .
#   docker run --rm --cap-add SYS_PTRACE --cap-add BPF --cap-add PERFMON \
#     -v "$PWD/results:/lab/results" syscall-lab [BENCH OPTIONS] [-- ANALYSE OPTIONS]
#
# SYS_PTRACE for the strace pass, BPF and PERFMON for the kernel pass, whose probes know
# processes by the container's own pids (docs/kernel.md): no --pid=host.
#
# One recipe: both stages run ./setup.sh, the script a bare machine runs, so the image
# cannot drift from it. The build stage runs it whole (compiler, libnode-dev, npm packages,
# make), then docker/slim.sh takes out of it what no run in the image needs; the last stage
# takes the built lab from there and runs `./setup.sh --runtime-only`, which installs only
# what running it needs (Node, libnode108, strace, wrk, python3 for wasmtime, liburing,
# libbpf, coreutils) and builds nothing, so no compiler, npm or headers stay in the image.
#
# 508 MB above the base when last built (2026-12-06), 490 MB before libpq 18, oha, nginx and
# mini_httpd came, from 1.44 GB (docs/image.md has the sizes, layer by layer).
# Node's and wasmtime's symbol tables are stripped (docker/slim.sh checks that what they
# map is unchanged). What only some runs need is left out, and the entry point installs it
# when a run asks for it (./setup.sh --runtime-only --db or --node): PostgreSQL 15 for
# --experiment db, from Debian (some 270 MB with its LLVM, Perl and locales), and the Nodes
# of --node but the default, from npm's registry (125 MB or more each). Elsewhere their rows say how to get them.

# Versions: Node (the one running the lab) and libnode are Debian's packages, gcc built
# the C readers and the host, Bun and Deno come from npm. Debian keeps only the current version of a package, so its
# three are checked rather than chosen: the build fails when Debian has moved on (pass
# the new version with --build-arg to accept it). Bun and Deno default to the versions in
# package-lock.json; another version given here is installed in the image instead. All of
# them go into LAB_PINNED_VERSIONS, which bench records in each run's context.json.
ARG NODE_VERSION=18.20.4
ARG GCC_VERSION=12.2.0
ARG BUN_VERSION=1.4.5
ARG DENO_VERSION=2.9.6

FROM debian:bookworm-slim AS build
ARG NODE_VERSION
ARG GCC_VERSION
ARG BUN_VERSION
ARG DENO_VERSION
WORKDIR /lab
# Behind a TLS-intercepting proxy, put its CA certificate (PEM, *.crt) in
# docker/ca-certificates/ before building: this stage trusts it for apt and npm
# (the ca-certificates package that setup.sh installs picks it up); the image does not carry it.
COPY docker/ca-certificates/ /usr/local/share/ca-certificates/
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
COPY . .
RUN ./setup.sh \
 && docker/versions.sh build \
 && docker/slim.sh \
 && rm -rf docker/ca-certificates/*.crt

FROM debian:bookworm-slim
ARG NODE_VERSION
ARG GCC_VERSION
ARG BUN_VERSION
ARG DENO_VERSION
WORKDIR /lab
COPY --from=build /lab /lab
# No docs, man pages, translations or TypeScript declarations (Debian's Node ships its
# own) from Debian's packages: nothing here reads them (bookworm-slim leaves out the first
# two already).
RUN printf '%s\n' 'path-exclude=/usr/share/doc/*' 'path-include=/usr/share/doc/*/copyright' \
  'path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/info/*' 'path-exclude=/usr/share/locale/*' \
  'path-exclude=/usr/share/nodejs/@types/*' > /etc/dpkg/dpkg.cfg.d/syscall-lab-slim
# The check's one-run bench leaves Deno's cache in /root/.cache.
RUN ./setup.sh --runtime-only \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* \
 && docker/versions.sh final \
 && rm -rf /root/.cache
ENV LAB_PINNED_VERSIONS="node=${NODE_VERSION} libnode108=${NODE_VERSION} gcc=${GCC_VERSION} bun=${BUN_VERSION} deno=${DENO_VERSION}"
# .git stays out of the build context; pass the commit the image is built from
# (--build-arg LAB_COMMIT=$(git rev-parse --short HEAD)) so each run's context names it.
# A RUN that uses the argument, not an ENV: podman reuses a cached ENV layer built with
# another value, and the image then names the wrong commit.
ARG LAB_COMMIT=unknown
RUN echo "${LAB_COMMIT}" > build/lab-commit

# /lab/results is where bench.js puts runs by default (results/ beside it) and where
# analyse.js looks for them: mount a host folder there to keep them.
VOLUME /lab/results
ENTRYPOINT ["docker/entrypoint.sh"]
