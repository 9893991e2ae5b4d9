#pragma once
// An allocator for buffers reserved whole at the memory budget and filled
// slowly: anonymous pages straight from mmap, which become memory only when
// written. glibc's malloc does the same for large blocks; the point is the
// sanitizers, whose allocator poisons the shadow of every byte of a malloc'd
// block on free (half a gigabyte of shadow for a 4 GiB budget, seconds per
// load under ASan). Pages from mmap have no shadow to poison.
#include <sys/mman.h>

#include <cstddef>
#include <new>

namespace gsparql {

template <class T>
struct PageAllocator {
  using value_type = T;

  PageAllocator() = default;
  template <class U>
  PageAllocator(const PageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
    void* pages = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (pages == MAP_FAILED) throw std::bad_alloc();
    return static_cast<T*>(pages);
  }
  void deallocate(T* p, std::size_t n) noexcept { munmap(p, n * sizeof(T)); }

  template <class U>
  bool operator==(const PageAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace gsparql
