// The call ladder's ring (calls/uring.c, build/libladder-uring.so), for the ring
// variants of C, Bun and Deno.
#ifndef LADDER_URING_H
#define LADDER_URING_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
int32_t ladder_uring_setup(void);
int32_t ladder_uring_nop(void);
int32_t ladder_uring_read(int32_t fd, void *into, uint32_t length);
#ifdef __cplusplus
}
#endif
#endif
