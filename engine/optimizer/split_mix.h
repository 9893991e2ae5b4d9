#pragma once
// SplitMix64: small, fast and good enough to pick candidates; the walks and
// trawling draw with it (the GPU's walks with their own copy on the device).
#include <algorithm>
#include <cstdint>

namespace gsparql::engine {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n), n > 0: the top 53 bits as a fraction (a bias far below the walks' noise).
  uint64_t below(uint64_t n) {
    const double fraction = static_cast<double>(next() >> 11) * 0x1.0p-53;
    return std::min(n - 1, static_cast<uint64_t>(fraction * static_cast<double>(n)));
  }

 private:
  uint64_t state_;
};

}  // namespace gsparql::engine
