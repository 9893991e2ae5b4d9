#pragma once
// Interns terms by key (rdf::termKey) and remembers the spelling first seen
// where it differs from the key (language tags with capitals): "a"@EN and
// "a"@en get one id, and the dictionary writes "a"@EN if it came first.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "loaders/term_table.h"
#include "storage/dictionary.h"

namespace gsparql {

class TermEncoder {
 public:
  uint32_t intern(std::string_view term);
  // key: rdf::termKey(spelling), hash: TermTable::hash(key), both found beforehand.
  uint32_t intern(std::string_view key, std::string_view spelling, uint64_t hash);

  void prefetch(uint64_t hash) const { table_.prefetch(hash); }
  uint32_t size() const { return table_.size(); }
  std::string_view key(uint32_t id) const { return table_.term(id); }
  std::string_view term(uint32_t id) const {
    if (spellings_.empty()) return table_.term(id);
    auto it = spellings_.find(id);
    return it == spellings_.end() ? table_.term(id) : std::string_view(it->second);
  }
  NumberedTerms numbered() const;

 private:
  TermTable table_;
  std::unordered_map<uint32_t, std::string> spellings_;
};

}  // namespace gsparql
