// The call ladder in C, the floor: each rung is a loop of direct calls, timed with the
// process's CPU clock. Usage: ladder-c ROUNDS CALLS READS < pipe
// (experiments/calls/ladder.js says what the rungs, the counts and the lines printed are).
// Built with LADDER_URING (build/ladder-c-uring), the syscall rung is an IORING_OP_NOP
// through the ring of build/libladder-uring.so (calls/uring.c) and the reads are
// IORING_OP_READs through it: the ring Bun's and Deno's ring variants call through FFI.
// Built with LADDER_YIELD, the syscall rung is sched_yield(2), the bare syscall WASI has:
// natively (build/ladder-c-yield), the floor the WASI variants are taken against, and for
// wasm32-wasi with calls/wasi.c in libladder's place (build/ladder-wasi*.wasm), where every
// call is a WASI import: args_sizes_get the no-op, sched_yield, and fd_read for read(2).
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "native.h"

#ifdef LADDER_URING
#include "uring.h"
#endif

#define BLOCK 256
#define WARMUP_CALLS 1024
#define WARMUP_COUNT 128

#ifdef __wasm__
#define COMPILED "unknown"
#else
#define COMPILED "native"
#endif

static char buf[BLOCK];
static long long size, reads;

static void fail(const char *what, long right, long count) {
  fprintf(stderr, "%s: call %ld of %ld returned the wrong answer", what, right + 1, count);
  if (errno) fprintf(stderr, " (%s, %d)", strerror(errno), errno);
  fputc('\n', stderr);
  exit(1);
}

// Each loop counts the calls that answered right, as calls/ladder.mjs's do.
static long noop(long count) {
  for (long i = 0; i < count; i++)
    if (ladder_noop((int32_t)i) != (int32_t)i) return i;
  return count;
}

// The syscall rung's call and the reads' call: getppid(2) and read(2), or through the ring.
#ifdef LADDER_URING
static int syscall_right(int32_t parent) {
  (void)parent;
  return ladder_uring_nop() == 0;
}
static ssize_t read_once(int fd, size_t length) { return ladder_uring_read(fd, buf, (uint32_t)length); }
#elif defined LADDER_YIELD
static int syscall_right(int32_t parent) {
  (void)parent;
  return sched_yield() == 0;
}
static ssize_t read_once(int fd, size_t length) { return read(fd, buf, length); }
#else
static int syscall_right(int32_t parent) { return ladder_getppid() == parent; }
static ssize_t read_once(int fd, size_t length) { return read(fd, buf, length); }
#endif

static long syscall_(int32_t parent, long count) {
  for (long i = 0; i < count; i++)
    if (!syscall_right(parent)) return i;
  return count;
}

static long read_(int fd, size_t length, ssize_t answer, long count) {
  for (long i = 0; i < count; i++)
    if (read_once(fd, length) != answer) return i;
  return count;
}

enum rung { NOOP, SYSCALL, EMPTY_READ, READ_256, RUNGS };
static const char *names[RUNGS] = {"noop", "syscall", "empty-read", "read-256"};
static int devnull;
static int32_t parent;

static double timed(enum rung rung, long count) {
  errno = 0;
  double start = ladder_cpu_ns();
  long right = rung == NOOP      ? noop(count)
             : rung == SYSCALL   ? syscall_(parent, count)
             : rung == EMPTY_READ ? read_(devnull, 1, 0, count)
                                 : read_(STDIN_FILENO, BLOCK, BLOCK, count);
  double ns = (ladder_cpu_ns() - start) / count;
  if (right != count) fail(names[rung], right, count);
  if (rung == READ_256) {
    size += count * BLOCK;
    reads += count;
  }
  return ns;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: ladder-c ROUNDS CALLS READS < pipe\n");
    return 2;
  }
  long rounds = atol(argv[1]), calls = atol(argv[2]), count = atol(argv[3]);
  if (rounds < 1 || calls < 1 || count < 1) {
    fprintf(stderr, "usage: ladder-c ROUNDS CALLS READS (whole numbers above 0)\n");
    return 2;
  }
  const long counts[RUNGS] = {10 * calls, calls, calls, count};
  // LADDER_NULL: where a host keeps a /dev of its own (wasmer's is in memory), the host's
  // /dev/null mapped elsewhere
  const char *null_path = getenv("LADDER_NULL");
  devnull = open(null_path ? null_path : "/dev/null", O_RDONLY);
#ifndef __wasm__
  parent = (int32_t)getppid();
#endif
  if (devnull < 0) fail("open /dev/null", -1, 1);
#ifdef LADDER_URING
  int ready = ladder_uring_setup();
  if (ready < 0) {
    errno = -ready;
    fail("io_uring_setup", -1, 1);
  }
#endif
  // the warm-up calls/ladder.mjs makes, so that dd's bytes come out the same
  for (int r = 0; r < RUNGS; r++)
    for (int call = 0; call < WARMUP_CALLS; call++) timed((enum rung)r, WARMUP_COUNT);
  // a wasm module's machine code is its host's to make, and no host here says which tier ran
  printf("compiled noop %s syscall %s empty-read %s read-256 %s\n", COMPILED, COMPILED, COMPILED, COMPILED);
  // now, not at exit (stdout into a pipe is fully buffered): the bench pairs the ladders'
  // timed parts from the moment each says its warm-up is over (lib/pipeline.js readyWhen)
  fflush(stdout);
  for (long round = 1; round <= rounds; round++) {
    printf("round %ld", round);
    for (int r = 0; r < RUNGS; r++) printf(" %s %.3f", names[r], timed((enum rung)r, counts[r]));
    printf("\n");
  }
  ssize_t n;
  while ((n = read(STDIN_FILENO, buf, BLOCK)) > 0) size += n;
  if (n < 0) fail("read of the pipe", -1, 1);
  printf("size %lld reads %lld blocksize %d\n", size, reads, BLOCK);
  return 0;
}
