#include <stdio.h>
#include <time.h>
int main(){struct timespec a,b;volatile unsigned long x=0;for(int r=0;r<5;r++){clock_gettime(CLOCK_THREAD_CPUTIME_ID,&a);for(unsigned long i=0;i<200000000UL;i++)x+=i;clock_gettime(CLOCK_THREAD_CPUTIME_ID,&b);printf("%.3f ",(b.tv_sec-a.tv_sec)+(b.tv_nsec-a.tv_nsec)/1e9);}printf("\n");}
