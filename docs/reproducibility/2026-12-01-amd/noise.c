// What does the host's noise slow? Each cycle times fixed pieces of work by the thread's own CPU
// clock, so that time the thread did not run is not counted: a call and return, indirect calls,
// an ALU chain, pointer chases through buffers from L1's size to DRAM's (4 KiB pages, and 2 MiB
// pages for the last), a bare syscall (getppid, the call ladder's syscall rung), and a pipe write
// and read of 256 B. One line a cycle, about 0.7 s, for the seconds given (default 60).
//   gcc -O2 -o noise noise.c && taskset -c 1 ./noise 300 > probe.txt
// The runs of 2026-12-01 before 03:56 UTC were of this program without `call` and `icall`.
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static double wall_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

// A random cycle through the buffer's cache lines, so that every load waits for the one before
// and no prefetcher can guess the next.
static void **make_chase(size_t bytes, int huge) {
  char *base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) { perror("mmap"); exit(1); }
  madvise(base, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  memset(base, 1, bytes);
  size_t lines = bytes / 64, *order = malloc(lines * sizeof *order);
  for (size_t i = 0; i < lines; i++) order[i] = i;
  for (size_t i = lines - 1; i > 0; i--) {
    size_t j = random() % (i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (size_t i = 0; i < lines; i++)
    *(void **)(base + order[i] * 64) = base + order[(i + 1) % lines] * 64;
  void **start = (void **)(base + order[0] * 64);
  free(order);
  return start;
}

static void *volatile sink;

static double chase(void **start, long loads) {
  double t0 = cpu_ns();
  void **p = start;
  for (long i = 0; i < loads; i++) p = *p;
  sink = p;
  return (cpu_ns() - t0) / loads;
}

static double alu(long n) {
  double t0 = cpu_ns();
  uint64_t x = 1;
  for (long i = 0; i < n; i++) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  sink = (void *)x;
  return (cpu_ns() - t0) / n;
}

__attribute__((noinline)) static long f0(long x) { __asm__ volatile(""); return x + 1; }
__attribute__((noinline)) static long f1(long x) { __asm__ volatile(""); return x + 2; }
__attribute__((noinline)) static long f2(long x) { __asm__ volatile(""); return x + 3; }
__attribute__((noinline)) static long f3(long x) { __asm__ volatile(""); return x + 4; }
static long (*volatile table[4])(long) = { f0, f1, f2, f3 };

// A call and return the compiler cannot remove, as the ladder's no-op rung makes.
static double call(long n) {
  double t0 = cpu_ns();
  long x = 0;
  for (long i = 0; i < n; i++) x = f0(x);
  sink = (void *)x;
  return (cpu_ns() - t0) / n;
}

// Indirect calls through a table, four targets in turn, as an interpreter's dispatch makes.
static double icall(long n) {
  double t0 = cpu_ns();
  long x = 0;
  for (long i = 0; i < n; i++) x = table[i & 3](x);
  sink = (void *)x;
  return (cpu_ns() - t0) / n;
}

static double bare_syscall(long n) {
  double t0 = cpu_ns();
  for (long i = 0; i < n; i++) syscall(SYS_getppid);
  return (cpu_ns() - t0) / n;
}

static double pipe_write_read(int fd[2], long n) {
  char buf[256] = {0};
  double t0 = cpu_ns();
  for (long i = 0; i < n; i++) {
    if (write(fd[1], buf, 256) != 256 || read(fd[0], buf, 256) != 256) exit(2);
  }
  return (cpu_ns() - t0) / n;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 60;
  size_t sizes[] = { 16 << 10, 256 << 10, 4 << 20, 64 << 20 };
  long loads[] = { 4000000, 4000000, 2000000, 500000, 500000 };
  void **chains[5];
  for (int i = 0; i < 4; i++) chains[i] = make_chase(sizes[i], 0);
  chains[4] = make_chase(64 << 20, 1);
  int fd[2];
  if (pipe(fd)) return 1;
  printf("t call icall alu l1_16k l2_256k l3_4m dram_64m dram_64m_huge getppid pipe_rw\n");
  double start = wall_s();
  while (wall_s() - start < seconds) {
    double k = call(20000000), ic = icall(20000000), a = alu(20000000), c[5];
    for (int i = 0; i < 5; i++) c[i] = chase(chains[i], loads[i]);
    double s = bare_syscall(200000), p = pipe_write_read(fd, 100000);
    printf("%.2f %.3f %.3f %.3f %.3f %.3f %.3f %.2f %.2f %.1f %.1f\n", wall_s() - start, k, ic, a,
           c[0], c[1], c[2], c[3], c[4], s, p);
    fflush(stdout);
  }
  return 0;
}
