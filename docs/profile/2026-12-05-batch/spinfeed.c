/* a feeder that never sleeps: nonblocking writes of zeros; when the pipe is full it spins
   (poll with timeout 0 or a clock gap) and writes again. argv: bytes block gap_us */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}
int main(int argc, char **argv) {
  long long left = atoll(argv[1]); size_t block = atol(argv[2]); long gap = atol(argv[3]);
  char *buf = calloc(1, block);
  fcntl(1, F_SETFL, fcntl(1, F_GETFL) | O_NONBLOCK);
  while (left > 0) {
    ssize_t n = write(1, buf, left < (long long)block ? (size_t)left : block);
    if (n > 0) { left -= n; continue; }
    if (n < 0 && errno != EAGAIN) return 1;
    if (gap > 0) {
      long long until = now_ns() + gap * 1000LL;
      while (now_ns() < until) __builtin_ia32_pause();
    } else {
      struct pollfd p = { 1, POLLOUT, 0 };
      while (poll(&p, 1, 0) == 0) __builtin_ia32_pause();
      if (p.revents & (POLLERR | POLLHUP)) return 1;
    }
  }
  return 0;
}
