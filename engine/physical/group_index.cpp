#include "engine/physical/group_index.h"

#include <algorithm>
#include <bit>

#include "engine/physical/row_hash.h"

namespace gsparql::engine {

std::pair<size_t, bool> GroupIndex::findOrAdd(std::span<const ValueId> key) {
  if (2 * (size() + 1) > slots_.size()) grow();  // at most half full: short probes
  const uint64_t hash = hashIds(key);
  const size_t mask = slots_.size() - 1;
  for (size_t slot = slotOf(hash);; slot = (slot + 1) & mask) {
    const uint32_t entry = slots_[slot];
    if (entry == 0) {
      slots_[slot] = static_cast<uint32_t>(size() + 1);
      keys_.insert(keys_.end(), key.begin(), key.end());
      hashes_.push_back(hash);
      return {size() - 1, true};
    }
    const size_t group = entry - 1;
    if (hashes_[group] == hash && std::equal(key.begin(), key.end(), keys_.begin() + group * width_)) {
      return {group, false};
    }
  }
}

void GroupIndex::grow() {
  const size_t capacity = std::max<size_t>(16, 2 * slots_.size());
  slots_.assign(capacity, 0);
  shift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));
  const size_t mask = capacity - 1;
  for (size_t group = 0; group < size(); ++group) {
    size_t slot = slotOf(hashes_[group]);
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = static_cast<uint32_t>(group + 1);
  }
}

void GroupIndex::clear() {
  keys_.clear();
  hashes_.clear();
  slots_.clear();
  shift_ = 64;
}

}  // namespace gsparql::engine
