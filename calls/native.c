// The native side of the call ladder (build/libladder.so): what every runtime's ladder
// calls through its own way into C. Each function is as small as its rung: the no-op
// is a call and a return, the syscall one that no libc or runtime caches.
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "native.h"

int32_t ladder_noop(int32_t x) { return x; }

// getppid(2) through syscall(2): glibc does not cache it (it stopped caching getpid in
// 2.25 and never cached getppid), and the kernel does almost nothing for it.
int32_t ladder_getppid(void) { return (int32_t)syscall(SYS_getppid); }

// The process's CPU time in ns (every thread's, as the stdin bench's rusage counts it),
// the one clock every ladder reads, so that runtimes are timed alike.
double ladder_cpu_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}
