/* c-uring: read(2)'s loop through io_uring (liburing). Each block is one IORING_OP_READ,
 * handed to the kernel and waited for by one io_uring_enter, until a read meets the end.
 * "fixed" registers stdin and the buffer with the ring first (IOSQE_FIXED_FILE,
 * IORING_OP_READ_FIXED), so that a read neither looks the file up nor maps the buffer.
 * "sqpoll" is fixed with a kernel thread that polls the submission queue (SQPOLL), so
 * that no call hands a read over: only waits for completions enter the kernel. The
 * thread is the process's, and its CPU time is the reader's (docs/io_uring.md). */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *call, int error) {
  fprintf(stderr, "%s: %s (%i)\n", call, strerror(error), error);
  return 1;
}

int main(int argc, char *argv[]) {
  size_t blocksize = argc > 1 ? strtoul(argv[1], NULL, 10) : 65536;
  int sqpoll = argc > 2 && strcmp(argv[2], "sqpoll") == 0;
  int fixed = sqpoll || (argc > 2 && strcmp(argv[2], "fixed") == 0);
  if (blocksize == 0 || blocksize > 1u << 30 || (argc > 2 && !fixed)) {
    fprintf(stderr, "usage: %s [blocksize > 0] [fixed | sqpoll]\n", argv[0]);
    return 2;
  }
  /* a closed stdin would become the ring's own descriptor, and be read as one */
  if (fcntl(STDIN_FILENO, F_GETFD) < 0) return fail("read", errno);
  char *buf = malloc(blocksize);
  if (buf == NULL) return fail("malloc", errno);
  struct io_uring ring;
  /* the polling thread sleeps after 10 ms without a submission */
  struct io_uring_params params = {.flags = sqpoll ? IORING_SETUP_SQPOLL : 0, .sq_thread_idle = 10};
  int ret = io_uring_queue_init_params(1, &ring, &params);
  if (ret < 0) return fail("io_uring_setup", -ret);
  if (fixed) {
    int fd = STDIN_FILENO;
    struct iovec block = {buf, blocksize};
    if ((ret = io_uring_register_files(&ring, &fd, 1)) < 0) return fail("io_uring_register files", -ret);
    if ((ret = io_uring_register_buffers(&ring, &block, 1)) < 0) return fail("io_uring_register buffers", -ret);
  }
  unsigned long long size = 0;
  unsigned long long reads = 0;
  for (;;) {
    struct io_uring_sqe *sqe;
    /* SQPOLL's thread can post a read's completion before it moves the submission queue's
     * head past it: the entry is then not free yet, so wait until it is */
    while ((sqe = io_uring_get_sqe(&ring)) == NULL) io_uring_sqring_wait(&ring);
    /* offset -1: from the file's position, as read(2) does (a pipe has none) */
    if (fixed) {
      io_uring_prep_read_fixed(sqe, 0, buf, blocksize, -1, 0);
      sqe->flags |= IOSQE_FIXED_FILE;
    } else {
      io_uring_prep_read(sqe, STDIN_FILENO, buf, blocksize, -1);
    }
    /* a wait cut short by a signal leaves the read in flight: wait for it again */
    if ((ret = io_uring_submit_and_wait(&ring, 1)) < 0 && ret != -EINTR) return fail("io_uring_enter", -ret);
    struct io_uring_cqe *cqe;
    do ret = io_uring_wait_cqe(&ring, &cqe);
    while (ret == -EINTR);
    if (ret < 0) return fail("io_uring_enter", -ret);
    int n = cqe->res;
    io_uring_cqe_seen(&ring, cqe);
    if (n < 0) return fail("read", -n);
    if (n == 0) break;
    reads++;
    size += n;
  }
  printf("size %llu reads %llu blocksize %zu\n", size, reads, blocksize);
  return 0;
}
