#include <zlib.h>
#define XXH_INLINE_ALL
#include <xxhash.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(){struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec+t.tv_nsec/1e9;}
int main(){ size_t n=64<<20; unsigned char*b=malloc(n); for(size_t i=0;i<n;i++) b[i]=i*7+(i>>9);
 double s=now(); unsigned long c=crc32_z(0,b,n); double t1=now()-s;
 s=now(); unsigned long long x=XXH3_64bits(b,n); double t2=now()-s;
 printf("crc32_z %.2f GB/s, XXH3 %.2f GB/s (%lx %llx)\n", n/t1/1e9, n/t2/1e9, c, x); }
