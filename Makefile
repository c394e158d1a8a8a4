# Builds the C readers, the pipeline timer and the V8 host into build/.
CC ?= cc
CFLAGS ?= -O3 -Wall -Wextra -Werror
BUILD := build

all: $(BUILD)/wc-c $(BUILD)/wc-splice uring $(BUILD)/pipe-run $(BUILD)/compiler.txt ladder servers db host \
  wasm sysprof

$(BUILD)/wc-c: wc/wc.c | $(BUILD)
	$(CC) $(CFLAGS) -o $@ $<

$(BUILD)/wc-splice: wc/splice.c | $(BUILD)
	$(CC) $(CFLAGS) -o $@ $<

# The io_uring readers (wc/uring.c) need liburing (Debian's liburing-dev). Without it
# they are not built, and their rows say why (lib/uring.js) instead of failing the build.
LIBURING_H := $(wildcard /usr/include/liburing.h)
uring: $(if $(LIBURING_H),$(BUILD)/wc-uring)

$(BUILD)/wc-uring: wc/uring.c | $(BUILD)
	$(CC) $(CFLAGS) -o $@ $< -luring

$(BUILD)/pipe-run: lib/pipe-run.c | $(BUILD)
	$(CC) $(CFLAGS) -o $@ $<

# The call ladder (calls/, experiments/calls/ladder.js): its C functions as a library for C, Bun and
# Deno, and as a Node-API addon for Node. The addon is one C file against node_api.h,
# from Debian's libnode headers (unpacked by ./setup.sh, or libnode-dev's): Node-API is
# ABI-stable, so what node-gyp would do here is these flags, and nothing is downloaded.
NODE_API_INC := $(firstword $(wildcard $(BUILD)/libnode/usr/include/node/node_api.h /usr/include/node/node_api.h))
ladder: $(BUILD)/libladder.so $(BUILD)/ladder-c $(BUILD)/ladder.node

$(BUILD)/libladder.so: calls/native.c calls/native.h | $(BUILD)
	$(CC) $(CFLAGS) -shared -fPIC -o $@ $<

$(BUILD)/ladder-c: calls/c.c calls/native.h $(BUILD)/libladder.so | $(BUILD)
	$(CC) $(CFLAGS) -o $@ $< -L$(BUILD) -lladder -Wl,-rpath,'$$ORIGIN'

# The ladder's ring variants, where liburing is: the ring as a library for C, Bun and
# Deno, and C's ladder with its syscall and reads through it (c-uring).
ladder: $(if $(LIBURING_H),$(BUILD)/libladder-uring.so $(BUILD)/ladder-c-uring)

$(BUILD)/libladder-uring.so: calls/uring.c calls/uring.h | $(BUILD)
	$(CC) $(CFLAGS) -shared -fPIC -o $@ $< -luring

$(BUILD)/ladder-c-uring: calls/c.c calls/native.h calls/uring.h $(BUILD)/libladder.so $(BUILD)/libladder-uring.so | $(BUILD)
	$(CC) $(CFLAGS) -DLADDER_URING -o $@ $< -L$(BUILD) -lladder -lladder-uring -Wl,-rpath,'$$ORIGIN'

$(BUILD)/ladder.node: calls/addon.c calls/native.c calls/native.h | $(BUILD)
	$(if $(NODE_API_INC),,$(error node_api.h not found: run ./setup.sh, which unpacks Debian's libnode headers))
	$(CC) $(CFLAGS) -shared -fPIC -isystem $(dir $(NODE_API_INC)) -o $@ calls/addon.c calls/native.c

# The network path's C servers (http/, experiments/http/http.js).
servers: $(BUILD)/http-c-blocking $(BUILD)/http-c-epoll

$(BUILD)/http-c-%: http/c-%.c | $(BUILD)
	$(CC) $(CFLAGS) -o $@ $<

# The database path's C server (db/, the floor), linked with libpq 18 built from the pq-src
# crate by cargo (db/libpq/Cargo.toml says why not Debian's libpq 15). Without cargo 1.63 or
# newer, or where its build fails (no crates.io), it is not built and the rest of `all` is,
# and its rows say why (experiments/db/servers.js).
LIBPQ := $(BUILD)/libpq
CARGO_MINOR := $(shell cargo --version 2>/dev/null | sed -n 's/^cargo 1\.\([0-9]*\).*/\1/p')
db:
	@if [ 0$(CARGO_MINOR) -ge 63 ]; then $(MAKE) --no-print-directory $(LIBPQ)/libpq.a \
	  || echo "make: libpq 18 did not build (cargo's messages above): no db-c-libpq" >&2; fi
	@if [ -f $(LIBPQ)/libpq.a ]; then $(MAKE) --no-print-directory $(BUILD)/db-c-libpq; fi

# cargo leaves libpq.a and its headers in pq-src's OUT_DIR; only they are kept. The cc crate
# would add CFLAGS from make's command line or environment to PostgreSQL's sources (-Werror
# would fail them): not passed on.
$(LIBPQ)/libpq.a: db/libpq/Cargo.toml db/libpq/Cargo.lock db/libpq/lib.rs | $(BUILD)
	rm -rf $(LIBPQ) $(LIBPQ)-build
	env -u CFLAGS CARGO_TARGET_DIR=$(LIBPQ)-build cargo build --quiet --release --locked \
	  --manifest-path db/libpq/Cargo.toml
	mkdir -p $(LIBPQ)
	cp -r $(LIBPQ)-build/release/build/pq-src-*/out/include $(LIBPQ)/
	cp $(LIBPQ)-build/release/build/pq-src-*/out/libpq.a $(LIBPQ)/
	rm -rf $(LIBPQ)-build

$(BUILD)/db-c-libpq: db/c-libpq.c $(LIBPQ)/libpq.a | $(BUILD)
	$(CC) $(CFLAGS) -I$(LIBPQ)/include -o $@ $< $(LIBPQ)/libpq.a -lm

host:
	$(MAKE) -C host BUILD=$(abspath $(BUILD))

# C's ladder with sched_yield(2) in getppid's place: the floor of the WASI variants, whose
# only bare syscall is sched_yield.
ladder: $(BUILD)/ladder-c-yield

$(BUILD)/ladder-c-yield: calls/c.c calls/native.h $(BUILD)/libladder.so | $(BUILD)
	$(CC) $(CFLAGS) -DLADDER_YIELD -o $@ $< -L$(BUILD) -lladder -Wl,-rpath,'$$ORIGIN'

# WebAssembly (docs/wasm.md): the stdin reader wc/wc.c and the ladder (calls/c.c, with
# calls/wasi.c in libladder's place) built for wasm32-wasi by Debian's clang-14 and
# wasi-libc, and the WASIX server assembled from its text by wabt's wat2wasm. Ahead of
# time: wasmtime's precompiled modules (.cwasm, by the wheel ./setup.sh puts in
# build/wasmtime-py) and wasmer's LLVM-compiled ones (.wasmu, where ./setup.sh --wasm built
# build/wasmer). Whatever is missing leaves its rows saying what to install.
WASI_CC := $(firstword $(wildcard /usr/bin/clang-14))
WASI_LIBC := $(wildcard /usr/lib/wasm32-wasi/libc.a)
WAT2WASM := $(firstword $(wildcard /usr/bin/wat2wasm))
WASMTIME_PY := $(wildcard $(BUILD)/wasmtime-py/wasmtime)
WASMER := $(firstword $(wildcard $(BUILD)/wasmer/bin/wasmer))
WASI_CFLAGS := --target=wasm32-wasi --sysroot=/usr -O2 -Wall -Wextra -Werror -Wl,--strip-all
WASI_MODULES := $(if $(and $(WASI_CC),$(WASI_LIBC)),$(BUILD)/wc.wasm $(BUILD)/ladder-wasi.wasm \
  $(BUILD)/ladder-wasi-clock.wasm)
wasm: $(WASI_MODULES) $(if $(WAT2WASM),$(BUILD)/http-wasix.wasm) \
  $(if $(WASMTIME_PY),$(patsubst %.wasm,%.cwasm,$(filter %/wc.wasm %/ladder-wasi.wasm,$(WASI_MODULES)))) \
  $(if $(WASMER),$(patsubst %.wasm,%.wasmu,$(filter %/wc.wasm %/ladder-wasi-clock.wasm,$(WASI_MODULES)) \
    $(if $(WAT2WASM),$(BUILD)/http-wasix.wasm)))

$(BUILD)/wc.wasm: wc/wc.c | $(BUILD)
	$(WASI_CC) $(WASI_CFLAGS) -o $@ $<

# The ladder's clock: the host's lab.cpu_ns import (wc/wasi.mjs, wc/wasi.py), or WASI's
# process CPU clock (-clock, for wasmer, which can be given no import of the lab's).
$(BUILD)/ladder-wasi.wasm: calls/c.c calls/wasi.c calls/native.h | $(BUILD)
	$(WASI_CC) $(WASI_CFLAGS) -DLADDER_YIELD -DLADDER_HOST_CLOCK -o $@ calls/c.c calls/wasi.c

$(BUILD)/ladder-wasi-clock.wasm: calls/c.c calls/wasi.c calls/native.h | $(BUILD)
	$(WASI_CC) $(WASI_CFLAGS) -DLADDER_YIELD -o $@ calls/c.c calls/wasi.c

$(BUILD)/http-wasix.wasm: http/wasix.wat | $(BUILD)
	$(WAT2WASM) -o $@ $<

$(BUILD)/%.cwasm: $(BUILD)/%.wasm wc/wasi.py
	python3 wc/wasi.py --precompile $< $@

$(BUILD)/%.wasmu: $(BUILD)/%.wasm
	$(WASMER) compile --llvm $< -o $@ >/dev/null 2>&1

# The kernel's syscall pass (lib/sysprof.c, docs/kernel.md): the eBPF probes, compiled
# once by clang for any kernel with BTF (CO-RE), their loader against Debian's libbpf-dev,
# and the names of this architecture's syscalls from its libc headers. Without clang or
# libbpf it is not built, and the pass says so (lib/sysprof.js) instead of the build failing.
BPF_CC := $(firstword $(wildcard /usr/bin/clang-14))
LIBBPF_H := $(wildcard /usr/include/bpf/libbpf.h)
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
sysprof: $(if $(and $(BPF_CC),$(LIBBPF_H)),$(BUILD)/sysprof $(BUILD)/sysprof.bpf.o $(BUILD)/syscall-names.tsv) \
  $(BUILD)/read-kernel

$(BUILD)/sysprof.bpf.o: lib/sysprof.bpf.c | $(BUILD)
	$(BPF_CC) -g -O2 -target bpf -I/usr/include/$(MULTIARCH) -Wall -Werror -c -o $@ $<

$(BUILD)/sysprof: lib/sysprof.c | $(BUILD)
	$(CC) $(CFLAGS) -o $@ $< -lbpf

# studies/read-kernel.js's reader: C's with one thing changed at a time
$(BUILD)/read-kernel: studies/read-kernel.c | $(BUILD)
	$(CC) $(CFLAGS) -pthread -o $@ $<

$(BUILD)/syscall-names.tsv: | $(BUILD)
	echo '#include <sys/syscall.h>' | $(CC) -E -dM - \
	  | awk '$$1 == "#define" && $$2 ~ /^__NR_/ && $$3 ~ /^[0-9]+$$/ { print $$3 "\t" substr($$2, 6) }' \
	  | sort -n > $@

$(BUILD):
	mkdir -p $@

# What built the C readers, for each run's context: read from here, since the machine
# that runs them (the Docker image) need not have a compiler.
$(BUILD)/compiler.txt: Makefile | $(BUILD)
	{ $(CC) --version | head -n 1; echo "$(CC) $(CFLAGS)"; } > $@

clean:
	rm -f $(BUILD)/wc-c $(BUILD)/wc-splice $(BUILD)/wc-uring $(BUILD)/pipe-run $(BUILD)/compiler.txt $(BUILD)/libladder.so $(BUILD)/ladder-c $(BUILD)/ladder-c-uring $(BUILD)/libladder-uring.so $(BUILD)/ladder.node $(BUILD)/http-c-blocking $(BUILD)/http-c-epoll $(BUILD)/db-c-libpq
	rm -rf $(LIBPQ) $(LIBPQ)-build
	rm -f $(BUILD)/ladder-c-yield $(BUILD)/*.wasm $(BUILD)/*.cwasm $(BUILD)/*.wasmu
	rm -f $(BUILD)/sysprof $(BUILD)/sysprof.bpf.o $(BUILD)/syscall-names.tsv $(BUILD)/read-kernel
	$(MAKE) -C host clean BUILD=$(abspath $(BUILD))

.PHONY: all uring ladder servers db host wasm sysprof clean
