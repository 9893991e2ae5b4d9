#include "loaders/term_table.h"

#include <cstring>
#include <functional>
#include <limits>

#include "gsparql/error.h"

namespace gsparql {
namespace {
constexpr uint64_t kEmpty = std::numeric_limits<uint64_t>::max();
constexpr size_t kInitialSlots = 1 << 16;
// Slot indexes come from the tag, the low 32 bits of the hash.
constexpr size_t kMaxSlots = size_t{1} << 32;

uint32_t tagOf(uint64_t hash) { return static_cast<uint32_t>(hash); }
uint32_t idOf(uint64_t slot) { return static_cast<uint32_t>(slot); }
}  // namespace

TermTable::TermTable() : starts_{0}, slots_(kInitialSlots, kEmpty), mask_(kInitialSlots - 1) {}

uint64_t TermTable::hash(std::string_view term) { return std::hash<std::string_view>{}(term); }

uint32_t TermTable::intern(std::string_view term, uint64_t h) {
  const uint32_t tag = tagOf(h);
  for (uint64_t i = h & mask_;; i = (i + 1) & mask_) {
    const uint64_t slot = slots_[i];
    if (slot == kEmpty) {
      if (size() == std::numeric_limits<uint32_t>::max() - 1) throw LoadError("more than 2^32-1 distinct terms");
      const uint32_t id = size();
      slots_[i] = uint64_t{tag} << 32 | id;
      arena_.insert(arena_.end(), term.begin(), term.end());
      starts_.push_back(arena_.size());
      if (uint64_t{size()} * 2 > slots_.size()) grow();
      return id;
    }
    if (slot >> 32 == tag && this->term(idOf(slot)) == term) return idOf(slot);
  }
}

void TermTable::grow() {
  if (slots_.size() == kMaxSlots) return;  // fuller, never wrong
  std::vector<uint64_t> old(slots_.size() * 2, kEmpty);
  old.swap(slots_);
  mask_ = slots_.size() - 1;
  for (uint64_t slot : old) {
    if (slot == kEmpty) continue;
    uint64_t i = (slot >> 32) & mask_;
    while (slots_[i] != kEmpty) i = (i + 1) & mask_;
    slots_[i] = slot;
  }
}

}  // namespace gsparql
