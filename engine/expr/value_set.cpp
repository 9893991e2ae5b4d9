#include "engine/expr/value_set.h"

#include "engine/expr/values.h"

namespace gsparql::engine::expr {

ValueSet::ValueSet(const std::vector<std::optional<std::string>>& constants) {
  for (const auto& constant : constants) {
    if (!constant) {
      ++errors_;
      continue;
    }
    const size_t index = constants_.size();
    constants_.push_back(*constant);
    const EqualityKeys keys = equalityKeys(*constant);
    if (keys.comparedOneByOne) {
      oneByOne_.push_back(index);
      continue;
    }
    byKey_.emplace(keys.termKey, index);
    for (const std::string& key : keys.valueKeys) byKey_.emplace(key, index);
    valueLiterals_ += keys.valueLiteral;
    unknownDatatypes_ += keys.unknownDatatype;
  }
}

bool ValueSet::matchesCandidate(const std::string& key, std::string_view term) const {
  auto [begin, end] = byKey_.equal_range(key);
  for (auto it = begin; it != end; ++it) {
    if (valuesEqual(term, constants_[it->second]) == true) return true;
  }
  return false;
}

// Among the hashed constants, a term that equals none of its candidates is
// unequal to all of them but for one case, an error: a literal of an unknown
// datatype against another literal that is not language-tagged (mayEqualByValue
// in values.cpp).
std::optional<bool> ValueSet::contains(std::string_view term) const {
  const EqualityKeys keys = equalityKeys(term);
  if (matchesCandidate(keys.termKey, term)) return true;
  for (const std::string& key : keys.valueKeys) {
    if (matchesCandidate(key, term)) return true;
  }
  bool error = errors_ > 0;
  for (size_t index : oneByOne_) {
    const std::optional<bool> equal = valuesEqual(term, constants_[index]);
    if (equal == true) return true;
    error = error || !equal;
  }
  error = error || (keys.unknownDatatype && valueLiterals_ > 0) || (keys.valueLiteral && unknownDatatypes_ > 0);
  if (error) return std::nullopt;
  return false;
}

}  // namespace gsparql::engine::expr
