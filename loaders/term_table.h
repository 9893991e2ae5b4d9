#pragma once
// Interns terms into dense ids 0, 1, 2, ... in order of first appearance.
// Open addressing over one byte arena: no allocation per term, which is what
// keeps dictionary encoding fast. A slot holds a term's id and 32 bits of its
// hash, so a lookup reads the arena only where the hash matches, and growing
// never hashes a term again. Memory: the term bytes plus ~24-40 bytes a term.
#include <cstdint>
#include <string_view>
#include <vector>

namespace gsparql {

class TermTable {
 public:
  TermTable();

  uint32_t intern(std::string_view term) { return intern(term, hash(term)); }
  // With the term's hash(), computed beforehand (by another thread).
  uint32_t intern(std::string_view term, uint64_t termHash);
  static uint64_t hash(std::string_view term);
  // Starts loading the slot where a term of this hash is looked up first.
  void prefetch(uint64_t termHash) const { __builtin_prefetch(&slots_[termHash & mask_]); }

  uint32_t size() const { return static_cast<uint32_t>(starts_.size() - 1); }
  std::string_view term(uint32_t id) const {
    return {arena_.data() + starts_[id], static_cast<size_t>(starts_[id + 1] - starts_[id])};
  }

 private:
  void grow();

  std::vector<char> arena_;
  std::vector<uint64_t> starts_;  // starts_[id] .. starts_[id + 1] in the arena
  std::vector<uint64_t> slots_;   // hash tag << 32 | id, kEmpty where free; size is a power of two
  uint64_t mask_ = 0;
};

}  // namespace gsparql
