/* limit-splice: the ceiling. splice(2) moves pipe pages to /dev/null inside the
 * kernel, so no byte is copied to user space: no reader can drain a pipe faster.
 * "reads" counts splice calls, each moving at most the block size. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char *argv[]) {
  size_t blocksize = argc > 1 ? strtoul(argv[1], NULL, 10) : 65536;
  if (blocksize == 0) {
    fprintf(stderr, "usage: %s [blocksize > 0]\n", argv[0]);
    return 2;
  }
  int devnull = open("/dev/null", O_WRONLY);
  if (devnull < 0) {
    fprintf(stderr, "open: %s (%i)\n", strerror(errno), errno);
    return 1;
  }
  unsigned long long size = 0;
  unsigned long long reads = 0;
  ssize_t n = splice(STDIN_FILENO, NULL, devnull, NULL, blocksize, SPLICE_F_MOVE);
  while (n > 0) {
    reads++;
    size += n;
    n = splice(STDIN_FILENO, NULL, devnull, NULL, blocksize, SPLICE_F_MOVE);
  }
  if (n < 0) {
    fprintf(stderr, "read: %s (%i)\n", strerror(errno), errno);
    return 1;
  }
  printf("size %llu reads %llu blocksize %zu\n", size, reads, blocksize);
  return 0;
}
