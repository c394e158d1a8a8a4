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

int main(int argc, char *argv[]) {
  if (argc == 2 && !strcmp(argv[1], "--help")) {
    fputs(usage, stdout);
    fputs("  C's stdin reader with one thing changed at a time (studies/read-kernel.js).\n", stdout);
    return 0;
  }
  size_t blocksize = argc > 1 ? strtoul(argv[1], NULL, 10) : 0;
  unsigned long threads = 0, spin = 0, offset = 0, touch = 0;
  for (int i = 2; i + 1 < argc; i += 2) {
    unsigned long value = strtoul(argv[i + 1], NULL, 10);
    if (!strcmp(argv[i], "threads")) threads = value;
    else if (!strcmp(argv[i], "spin")) spin = value;
    else if (!strcmp(argv[i], "offset")) offset = value;
    else if (!strcmp(argv[i], "touch")) touch = value * 1024;
    else blocksize = 0;
  }
  if (blocksize == 0 || argc % 2 != 0 || offset >= 4096) {
    fputs(usage, stderr);
    return 2;
  }
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
  printf("size %llu reads %llu blocksize %zu\n", size, reads, blocksize);
  fflush(stdout);
  /* the idle threads end with the process */
  _exit(0);
}
