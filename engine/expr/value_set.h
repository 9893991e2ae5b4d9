#pragma once
// The constants of `x IN (c1, ..., cn)` as a hash set: a membership test
// costs one lookup however long the list, with section 17.4.1.9's answer
// exactly: true when x = ci for some i, else an error when some x = ci is
// an error, else false. Which pairs are equal or an error is decided by
// valuesEqual() (values.h); this set only finds the candidates fast.
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gsparql::engine::expr {

class ValueSet {
 public:
  // `constants`: the list's terms; nullopt for one that is an error.
  explicit ValueSet(const std::vector<std::optional<std::string>>& constants);

  // x IN (the constants): nullopt for an error.
  std::optional<bool> contains(std::string_view term) const;

 private:
  bool matchesCandidate(const std::string& key, std::string_view term) const;

  std::vector<std::string> constants_;
  // Equality key -> index into constants_. Term keys begin with '<', '"' or
  // '_', value keys with a letter (values.h): the two kinds share one map.
  std::unordered_multimap<std::string, size_t> byKey_;
  std::vector<size_t> oneByOne_;                         // dates and times, compared to every term
  size_t errors_ = 0;            // constants that are errors
  size_t valueLiterals_ = 0;     // hashed literals that are not language-tagged
  size_t unknownDatatypes_ = 0;  // hashed literals of datatypes without a value comparison
};

}  // namespace gsparql::engine::expr
