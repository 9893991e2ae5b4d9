#!/bin/sh
GLIBC_TUNABLES=glibc.malloc.hugetlb=1 exec /work/main/build/default/cli/gsparql "$@"
