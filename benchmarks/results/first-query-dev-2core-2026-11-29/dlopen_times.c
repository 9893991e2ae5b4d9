#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
static double now(){struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec*1e3+t.tv_nsec/1e6;}
int main(int argc,char**argv){ for(int i=1;i<argc;i++){double s=now(); void*h=dlopen(argv[i],RTLD_NOW|RTLD_GLOBAL); printf("%-28s %6.2f ms %s\n",argv[i],now()-s,h?"":dlerror());} }
