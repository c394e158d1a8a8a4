/* c: the baseline. read(2) into one buffer of the block size until EOF. */
#include <errno.h>
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
  char *buf = malloc(blocksize);
  if (buf == NULL) {
    fprintf(stderr, "malloc: %s (%i)\n", strerror(errno), errno);
    return 1;
  }
  unsigned long long size = 0;
  unsigned long long reads = 0;
  ssize_t n = read(STDIN_FILENO, buf, blocksize);
  while (n > 0) {
    reads++;
    size += n;
    n = read(STDIN_FILENO, buf, blocksize);
  }
  if (n < 0) {
    fprintf(stderr, "read: %s (%i)\n", strerror(errno), errno);
    return 1;
  }
  printf("size %llu reads %llu blocksize %zu\n", size, reads, blocksize);
  return 0;
}
