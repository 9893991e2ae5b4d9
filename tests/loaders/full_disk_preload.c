// LD_PRELOAD library that makes the disk look full: once the process has
// written GSPARQL_TEST_DISK_BYTES bytes to regular files, further writes and
// preallocations fail with ENOSPC, as on a nearly full volume (mounting a
// small tmpfs needs root; RLIMIT_FSIZE limits each file and gives EFBIG).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static atomic_llong written;

// True (with errno set) when `bytes` more would not fit.
static int diskFull(int fd, long long bytes) {
  const char* budget = getenv("GSPARQL_TEST_DISK_BYTES");
  struct stat st;
  if (budget == NULL || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  if (atomic_fetch_add(&written, bytes) + bytes <= atoll(budget)) return 0;
  atomic_fetch_sub(&written, bytes);
  errno = ENOSPC;
  return 1;
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

ssize_t write(int fd, const void* data, size_t bytes) {
  return diskFull(fd, (long long)bytes) ? -1 : REAL(write)(fd, data, bytes);
}

ssize_t pwrite(int fd, const void* data, size_t bytes, off_t offset) {
  return diskFull(fd, (long long)bytes) ? -1 : REAL(pwrite)(fd, data, bytes, offset);
}

ssize_t pwrite64(int fd, const void* data, size_t bytes, off64_t offset) {
  return diskFull(fd, (long long)bytes) ? -1 : REAL(pwrite64)(fd, data, bytes, offset);
}

static long long total(const struct iovec* iov, int count) {
  long long bytes = 0;
  for (int i = 0; i < count; ++i) bytes += (long long)iov[i].iov_len;
  return bytes;
}

ssize_t writev(int fd, const struct iovec* iov, int count) {
  return diskFull(fd, total(iov, count)) ? -1 : REAL(writev)(fd, iov, count);
}

ssize_t pwritev(int fd, const struct iovec* iov, int count, off_t offset) {
  return diskFull(fd, total(iov, count)) ? -1 : REAL(pwritev)(fd, iov, count, offset);
}

int fallocate(int fd, int mode, off_t offset, off_t bytes) {
  return diskFull(fd, (long long)bytes) ? -1 : REAL(fallocate)(fd, mode, offset, bytes);
}

int fallocate64(int fd, int mode, off64_t offset, off64_t bytes) {
  return diskFull(fd, (long long)bytes) ? -1 : REAL(fallocate64)(fd, mode, offset, bytes);
}

int posix_fallocate(int fd, off_t offset, off_t bytes) {
  return diskFull(fd, (long long)bytes) ? ENOSPC : REAL(posix_fallocate)(fd, offset, bytes);
}
