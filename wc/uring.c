/* c-uring: read(2)'s loop through io_uring (liburing). Each block is one IORING_OP_READ,
 * handed to the kernel and waited for by one io_uring_enter, until a read meets the end.
 * "fixed" registers stdin and the buffer with the ring first (IOSQE_FIXED_FILE,
 * IORING_OP_READ_FIXED), so that a read neither looks the file up nor maps the buffer.
 * "sqpoll" is fixed with a kernel thread that polls the submission queue (SQPOLL), so
 * that no call hands a read over: only waits for completions enter the kernel. The
 * thread is the process's, and its CPU time is the reader's (docs/io_uring.md).
 * "window BYTES" is fixed with BYTES of reads in flight (BYTES / blocksize reads, at
 * least one), each into its own block of the registered buffer, and reaps every
 * completion that is ready after each wait, so that one io_uring_enter can hand over and
 * wait for many reads. Blocks then come back in no set order: a count of bytes does not
 * care, a reader of the stream's contents would. */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(const char *call, int error) {
  fprintf(stderr, "%s: %s (%i)\n", call, strerror(error), error);
  return 1;
}

/* A whole number of at most 2^30 written in digits alone, or 0. */
static size_t whole(const char *text) {
  char *end;
  errno = 0;
  unsigned long long value = strtoull(text, &end, 10);
  return *text >= '0' && *text <= '9' && *end == '\0' && errno == 0 && value <= 1u << 30 ? (size_t)value : 0;
}

/* One read of a block into `into`, from the file's position as read(2) reads (offset -1;
 * a pipe has none): of the registered file into the registered buffer when fixed. */
static void prep_read(struct io_uring *ring, int fixed, char *into, size_t blocksize, unsigned long long block) {
  struct io_uring_sqe *sqe;
  /* SQPOLL's thread can post a read's completion before it moves the submission queue's
   * head past it: the entry is then not free yet, so wait until it is */
  while ((sqe = io_uring_get_sqe(ring)) == NULL) {
    int waited = io_uring_sqring_wait(ring);
    if (waited < 0 && waited != -EINTR) exit(fail("io_uring_enter", -waited));
  }
  if (fixed) {
    io_uring_prep_read_fixed(sqe, 0, into, blocksize, -1, 0);
    sqe->flags |= IOSQE_FIXED_FILE;
  } else {
    io_uring_prep_read(sqe, STDIN_FILENO, into, blocksize, -1);
  }
  io_uring_sqe_set_data64(sqe, block);
}

/* Stdin counted through the ring, `depth` reads in flight, each into its own block: after
 * each io_uring_enter every completion that is ready is counted and its read handed over
 * again, until one meets the end and the rest are reaped. With one in flight (every mode
 * but window) this is read(2)'s loop: one read handed over and waited for by each enter. */
static int count(struct io_uring *ring, int fixed, unsigned depth, char *blocks, size_t blocksize) {
  unsigned long long size = 0, reads = 0;
  unsigned in_flight = 0;
  int ended = 0, ret;
  for (unsigned block = 0; block < depth; block++, in_flight++) prep_read(ring, fixed, blocks + block * blocksize, blocksize, block);
  while (in_flight > 0) {
    /* a wait cut short by a signal leaves the reads in flight: the loop waits again */
    if ((ret = io_uring_submit_and_wait(ring, 1)) < 0 && ret != -EINTR) return fail("io_uring_enter", -ret);
    struct io_uring_cqe *cqe;
    unsigned head, reaped = 0;
    io_uring_for_each_cqe(ring, head, cqe) {
      reaped++;
      in_flight--;
      int n = cqe->res;
      if (n < 0) return fail("read", -n);
      if (n == 0) ended = 1;
      if (n > 0) {
        reads++;
        size += n;
      }
      if (!ended) {
        unsigned long long block = io_uring_cqe_get_data64(cqe);
        prep_read(ring, fixed, blocks + block * blocksize, blocksize, block);
        in_flight++;
      }
    }
    io_uring_cq_advance(ring, reaped);
  }
  printf("size %llu reads %llu blocksize %zu\n", size, reads, blocksize);
  return 0;
}

int main(int argc, char *argv[]) {
  size_t blocksize = argc > 1 ? whole(argv[1]) : 65536;
  const char *mode = argc > 2 ? argv[2] : "";
  int sqpoll = strcmp(mode, "sqpoll") == 0;
  int windowed = strcmp(mode, "window") == 0 && argc == 4;
  int fixed = sqpoll || windowed || strcmp(mode, "fixed") == 0;
  size_t window_bytes = windowed ? whole(argv[3]) : 0;
  size_t depth = blocksize && window_bytes > blocksize ? window_bytes / blocksize : 1;
  if (blocksize == 0 || (argc > 2 && !fixed) || argc > (windowed ? 4 : 3) || (windowed && window_bytes == 0) ||
      depth > 4096 || blocksize * depth > 1u << 30) {
    fprintf(stderr, "usage: %s [blocksize > 0] [fixed | sqpoll | window BYTES]\n", argv[0]);
    return 2;
  }
  /* a closed stdin would become the ring's own descriptor, and be read as one */
  struct stat stdin_stat;
  if (fstat(STDIN_FILENO, &stdin_stat) < 0) return fail("read", errno);
  /* reads in flight of a regular file would each start from its position, which io_uring
   * moves without a lock: two could read the same bytes */
  if (windowed && S_ISREG(stdin_stat.st_mode)) {
    fprintf(stderr, "read: window mode reads a pipe, not a regular file, whose reads in flight would share its position\n");
    return 1;
  }
  char *buf = malloc(depth * blocksize);
  if (buf == NULL) return fail("malloc", errno);
  struct io_uring ring;
  /* the polling thread sleeps after 10 ms without a submission */
  struct io_uring_params params = {.flags = sqpoll ? IORING_SETUP_SQPOLL : 0, .sq_thread_idle = 10};
  int ret = io_uring_queue_init_params((unsigned)depth, &ring, &params);
  if (ret < 0) return fail("io_uring_setup", -ret);
  if (fixed) {
    int fd = STDIN_FILENO;
    struct iovec blocks = {buf, depth * blocksize};
    if ((ret = io_uring_register_files(&ring, &fd, 1)) < 0) return fail("io_uring_register files", -ret);
    if ((ret = io_uring_register_buffers(&ring, &blocks, 1)) < 0) return fail("io_uring_register buffers", -ret);
  }
  return count(&ring, fixed, (unsigned)depth, buf, blocksize);
}
