#pragma once
// Intersection of ascending id lists. Lists of very different sizes are
// intersected by galloping through the larger one.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace gsparql::engine {

inline void intersectSorted(std::span<const uint32_t> a, std::span<const uint32_t> b,
                            std::vector<uint32_t>& out) {
  out.clear();
  if (a.size() > b.size()) std::swap(a, b);
  if (a.empty()) return;
  if (a.size() * 16 < b.size()) {
    auto from = b.begin();
    for (uint32_t x : a) {
      from = std::lower_bound(from, b.end(), x);
      if (from == b.end()) return;
      if (*from == x) out.push_back(x);
    }
    return;
  }
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
}

inline bool containsSorted(std::span<const uint32_t> list, uint32_t x) {
  return std::binary_search(list.begin(), list.end(), x);
}

}  // namespace gsparql::engine
