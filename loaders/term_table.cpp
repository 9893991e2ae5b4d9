#include "loaders/term_table.h"

#include <cstring>
#include <functional>
#include <limits>

#include "gsparql/error.h"

namespace gsparql {
namespace {
constexpr uint32_t kEmpty = std::numeric_limits<uint32_t>::max();
constexpr size_t kInitialSlots = 1 << 16;
}  // namespace

TermTable::TermTable() : starts_{0}, slots_(kInitialSlots, kEmpty), mask_(kInitialSlots - 1) {}

uint64_t TermTable::hash(std::string_view term) { return std::hash<std::string_view>{}(term); }

uint32_t TermTable::intern(std::string_view term, uint64_t h) {
  const auto tag = static_cast<uint32_t>(h);
  for (uint64_t i = h & mask_;; i = (i + 1) & mask_) {
    uint32_t id = slots_[i];
    if (id == kEmpty) {
      if (size() == kEmpty - 1) throw LoadError("more than 2^32-1 distinct terms");
      id = size();
      slots_[i] = id;
      arena_.insert(arena_.end(), term.begin(), term.end());
      starts_.push_back(arena_.size());
      hashes_.push_back(tag);
      if (uint64_t{size()} * 2 > slots_.size()) grow();
      return id;
    }
    if (hashes_[id] == tag && this->term(id) == term) return id;
  }
}

void TermTable::grow() {
  slots_.assign(slots_.size() * 2, kEmpty);
  mask_ = slots_.size() - 1;
  for (uint32_t id = 0; id < size(); ++id) {
    uint64_t i = hash(term(id)) & mask_;
    while (slots_[i] != kEmpty) i = (i + 1) & mask_;
    slots_[i] = id;
  }
}

}  // namespace gsparql
