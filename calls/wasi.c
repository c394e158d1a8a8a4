// The ladder's native functions (calls/native.h) for calls/c.c built for wasm32-wasi,
// in libladder's place: every rung's call leaves the sandbox through a WASI import.
// The no-op is args_sizes_get, the WASI call that makes no syscall (the host copies two
// numbers it holds): the sandbox's boundary and the host's WASI dispatch, nothing more.
// The clock is the process's CPU time: WASI's CLOCK_PROCESS_CPUTIME_ID where the host keeps
// it (wasmer; Bun's and Deno's node:wasi answer with wall time and wasmtime refuses it,
// docs/wasm.md), else with LADDER_HOST_CLOCK the host's own import lab.cpu_ns
// (wc/wasi.mjs, wc/wasi.py), read twice a timed loop.
#include <stdio.h>
#include <stdlib.h>
#include <wasi/api.h>

#include "native.h"

int32_t ladder_noop(int32_t x) {
  __wasi_size_t count, bytes;
  return __wasi_args_sizes_get(&count, &bytes) == __WASI_ERRNO_SUCCESS ? x : ~x;
}

#ifdef LADDER_HOST_CLOCK
__attribute__((import_module("lab"), import_name("cpu_ns"))) double lab_cpu_ns(void);

double ladder_cpu_ns(void) { return lab_cpu_ns(); }
#else
double ladder_cpu_ns(void) {
  __wasi_timestamp_t ns;
  __wasi_errno_t error = __wasi_clock_time_get(__WASI_CLOCKID_PROCESS_CPUTIME_ID, 1, &ns);
  if (error != __WASI_ERRNO_SUCCESS) {
    fprintf(stderr, "clock_time_get(CLOCK_PROCESS_CPUTIME_ID): WASI errno %d\n", error);
    exit(1);
  }
  return (double)ns;
}
#endif
