// The ring of the call ladder's ring variants (build/libladder-uring.so, with
// liburing): C calls it directly, Bun and Deno through their FFI, so that all three
// pay the same ring and differ only in their boundary. The ring is held here, one
// entry deep; each call prepares one operation, hands it over and waits for it with
// one io_uring_enter, and reaps it, as wc/uring.c reads: one crossing of the boundary
// a read, as libc's read(2) is for the FFI read rungs.
#include <errno.h>
#include <liburing.h>

#include "uring.h"

static struct io_uring ring;

// 0, or -errno when the kernel (or a seccomp profile) refuses a ring.
int32_t ladder_uring_setup(void) { return io_uring_queue_init(1, &ring, 0); }

// The operation just prepared on the ring's one entry, submitted, waited for and reaped:
// its result (-errno on failure, errno set).
static int32_t complete(void) {
  struct io_uring_cqe *cqe;
  // a wait cut short by a signal leaves the operation in flight: wait for it again
  int result = io_uring_submit_and_wait(&ring, 1);
  if (result >= 0 || result == -EINTR) {
    do result = io_uring_wait_cqe(&ring, &cqe);
    while (result == -EINTR);
  }
  if (result < 0) {
    errno = -result;
    return result;
  }
  result = cqe->res;
  io_uring_cqe_seen(&ring, cqe);
  if (result < 0) errno = -result;
  return result;
}

// IORING_OP_NOP: the ring's round trip with no work, the syscall rung's place.
int32_t ladder_uring_nop(void) {
  struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
  // the one entry is still taken only after an operation that failed to complete
  if (sqe == NULL) return -EBUSY;
  io_uring_prep_nop(sqe);
  return complete();
}

// IORING_OP_READ of fd from its file position: bytes read, 0 at its end, or -errno.
int32_t ladder_uring_read(int32_t fd, void *into, uint32_t length) {
  struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
  if (sqe == NULL) return -EBUSY;
  io_uring_prep_read(sqe, fd, into, length, -1);
  return complete();
}
