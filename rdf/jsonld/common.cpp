#include "rdf/jsonld/common.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace gsparql::jsonld {
namespace {

constexpr std::array<std::string_view, 29> kKeywords = {
    "@base", "@container", "@context", "@default", "@direction", "@embed", "@explicit", "@graph",
    "@id", "@import", "@included", "@index", "@json", "@language", "@list", "@nest",
    "@none", "@omitDefault", "@prefix", "@preserve", "@propagate", "@protected", "@requireAll", "@reverse",
    "@set", "@type", "@value", "@version", "@vocab"};

bool isAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool isAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

}  // namespace

bool isKeyword(std::string_view s) {
  return std::find(kKeywords.begin(), kKeywords.end(), s) != kKeywords.end();
}

bool looksLikeKeyword(std::string_view s) {
  return s.size() > 1 && s[0] == '@' && std::all_of(s.begin() + 1, s.end(), isAlpha);
}

bool isBlankNodeId(std::string_view s) { return s.starts_with("_:"); }

bool hasScheme(std::string_view s) {
  const size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0 || !isAlpha(s[0])) return false;
  return std::all_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(colon),
                     [](char c) { return isAlnum(c) || c == '+' || c == '-' || c == '.'; });
}

bool isWellFormedIri(std::string_view s) {
  if (!hasScheme(s) || std::count(s.begin(), s.end(), '#') > 1) return false;
  return std::none_of(s.begin(), s.end(), [](char c) {
    return static_cast<unsigned char>(c) <= 0x20 || std::string_view("<>\"{}|^`\\").find(c) != std::string_view::npos;
  });
}

bool isWellFormedLanguage(std::string_view s) {
  size_t run = 0;
  bool first = true;
  for (char c : s) {
    if (c == '-') {
      if (run == 0) return false;
      run = 0;
      first = false;
      continue;
    }
    if (!(first ? isAlpha(c) : isAlnum(c)) || ++run > 8) return false;
  }
  return run > 0;
}

Json asArray(const Json& value) {
  if (value.is_array()) return value;
  if (value.is_null()) return Json::array();
  return Json::array({value});
}

void addValue(Json& object, const std::string& key, const Json& value, bool allowDuplicate) {
  Json& target = object[key];
  if (!target.is_array()) target = target.is_null() ? Json::array() : Json::array({target});
  for (const Json& item : asArray(value)) {
    if (allowDuplicate || std::find(target.begin(), target.end(), item) == target.end()) target.push_back(item);
  }
}

bool isValueObject(const Json& v) { return v.is_object() && v.contains("@value"); }
bool isListObject(const Json& v) { return v.is_object() && v.contains("@list"); }
bool isGraphObject(const Json& v) {
  if (!v.is_object() || !v.contains("@graph")) return false;
  return std::all_of(v.items().begin(), v.items().end(), [](const auto& entry) {
    return entry.key() == "@graph" || entry.key() == "@id" || entry.key() == "@index" || entry.key() == "@context";
  });
}

}  // namespace gsparql::jsonld
