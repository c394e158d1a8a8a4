// The call ladder's native functions (calls/native.c), for C, the host and the addon.
#ifndef LADDER_NATIVE_H
#define LADDER_NATIVE_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
int32_t ladder_noop(int32_t x);
int32_t ladder_getppid(void);
double ladder_cpu_ns(void);
#ifdef __cplusplus
}
#endif
#endif
