// A fixed loop timed by its own CPU clock, 5 rounds: on a steady host every round takes the
// same time; docs/db.md's night pair found two speeds about 2x apart, switching in seconds.
// gcc -O1 -o spin spin.c && taskset -c 0 ./spin && taskset -c 1 ./spin
#include <stdio.h>
#include <time.h>

int main(void)
{
  struct timespec start, end;
  volatile unsigned long sum = 0;
  for (int round = 0; round < 5; round++) {
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    for (unsigned long i = 0; i < 200000000UL; i++) sum += i;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end);
    printf("%.3f ", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
  }
  printf("\n");
  return 0;
}
