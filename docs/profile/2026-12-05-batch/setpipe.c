#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* setpipe SIZE COMMAND...: stdout's pipe made SIZE bytes, then COMMAND run on it */
int main(int argc, char **argv) {
  if (fcntl(1, F_SETPIPE_SZ, atoi(argv[1])) < 0) {
    perror("F_SETPIPE_SZ");
    return 1;
  }
  execvp(argv[2], argv + 2);
  perror("exec");
  return 1;
}
