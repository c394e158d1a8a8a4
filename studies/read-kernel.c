/* read-kernel: C's stdin reader (wc/wc.c) with one thing changed at a time, to find out
 * what makes read(2) cost one reader more than another in the kernel
 * (studies/read-kernel.js, docs/kernel.md):
 *
 *   build/read-kernel BLOCKSIZE [threads N] [spin N] [offset B] [touch KIB]
 *
 * threads N: N idle threads beside the reader, sharing its file table, as a runtime's
 *            helper threads do;
 * spin N:    N steps of a loop after each read, user time between reads, as a slower
 *            reader spends;
 * offset B:  the buffer B bytes past a page's start;
 * touch KIB: a line of every 64 bytes of KIB KiB of memory written after each read, as a
 *            runtime's own work between reads evicts what the read used from the caches. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *idle(void *unused) {
  (void)unused;
  for (;;) pause();
  return NULL;
}

static const char usage[] =
    "usage: build/read-kernel BLOCKSIZE [threads N] [spin N] [offset B < 4096] [touch KIB]\n";

/* One line that names what was wrong (arg, where one was), then the usage: exit 2. */
static int refuse(const char *what, const char *arg) {
  const char *quote = arg ? "'" : "";
  fprintf(stderr, "read-kernel: %s%s%s%s%s (%.*s)\n", what, arg ? " " : "", quote, arg ? arg : "", quote,
          (int)strlen(usage) - 1, usage);
  return 2;
}

/* A whole number, all of text, into *value: 1 if so. */
static int whole(const char *text, unsigned long *value) {
  char *end;
  if (*text < '0' || *text > '9') return 0;
  errno = 0;
  *value = strtoul(text, &end, 10);
  return *end == '\0' && errno == 0;
}

int main(int argc, char *argv[]) {
  if (argc == 2 && !strcmp(argv[1], "--help")) {
    fputs(usage, stdout);
    fputs("  C's stdin reader with one thing changed at a time (studies/read-kernel.js).\n", stdout);
    return 0;
  }
  unsigned long blocksize = 0, threads = 0, spin = 0, offset = 0, touch = 0;
  if (argc < 2) return refuse("no BLOCKSIZE given", NULL);
  if (!whole(argv[1], &blocksize) || blocksize == 0) {
    return refuse("BLOCKSIZE must be a whole number above 0, not", argv[1]);
  }
  for (int i = 2; i < argc; i += 2) {
    unsigned long *target = !strcmp(argv[i], "threads") ? &threads
                          : !strcmp(argv[i], "spin")    ? &spin
                          : !strcmp(argv[i], "offset")  ? &offset
                          : !strcmp(argv[i], "touch")   ? &touch
                                                        : NULL;
    if (!target) return refuse("unknown argument", argv[i]);
    if (i + 1 >= argc) return refuse("no value after", argv[i]);
    if (!whole(argv[i + 1], target)) return refuse("not a whole number", argv[i + 1]);
    if (target == &offset && offset >= 4096) {
      return refuse("offset must be under 4096, not", argv[i + 1]);
    }
  }
  touch *= 1024;
  for (unsigned long i = 0; i < threads; i++) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, idle, NULL)) return 1;
  }
  char *page = aligned_alloc(4096, blocksize + 8192);
  if (!page) return 1;
  char *buf = page + offset;
  volatile char *touched = touch ? calloc(1, touch) : NULL;
  unsigned long long size = 0, reads = 0;
  volatile unsigned long sink = 0;
  ssize_t n;
  while ((n = read(STDIN_FILENO, buf, blocksize)) > 0) {
    reads++;
    size += n;
    for (unsigned long i = 0; i < spin; i++) sink += i;
    for (unsigned long i = 0; i < touch; i += 64) touched[i] += 1;
  }
  if (n < 0) {
    perror("read");
    return 1;
  }
  printf("size %llu reads %llu blocksize %lu\n", size, reads, blocksize);
  fflush(stdout);
  /* the idle threads end with the process */
  _exit(0);
}
