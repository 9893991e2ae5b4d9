#pragma once
// A small JSON reader for tests and conformance tools: values as trees,
// object keys sorted, so two documents compare by value.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gsparql::test {

struct Json {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool boolean = false;
  std::string text;  // number (as written) or string (decoded)
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;  // sorted by key
  bool operator==(const Json&) const = default;
};

Json parseJson(std::string_view text);  // throws std::runtime_error on bad input
const Json* member(const Json& object, std::string_view key);  // nullptr when absent

}  // namespace gsparql::test
