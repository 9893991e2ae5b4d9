#pragma once
// A fixed-size array of zeros whose pages become memory only when written
// (anonymous mmap): a per-vertex array for a search that reaches a few
// vertices costs what the search touches, not a memset of the vertex count
// (130 MB for the 32M vertices of LUBM(1000), tens of milliseconds a query).
#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace gsparql::engine {

template <class T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T>, "zero bytes must be a valid T");

 public:
  ZeroedArray() = default;
  explicit ZeroedArray(size_t size) : size_(size) {
    if (size == 0) return;
    void* pages = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (pages == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<T*>(pages);
  }
  ~ZeroedArray() {
    if (data_) munmap(data_, bytes());
  }
  ZeroedArray(ZeroedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  ZeroedArray& operator=(ZeroedArray&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }

  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  size_t bytes() const { return size_ * sizeof(T); }

  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace gsparql::engine
