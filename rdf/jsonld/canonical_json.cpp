#include "rdf/jsonld/canonical_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

#include "rdf/term.h"

namespace gsparql::jsonld {
namespace {

std::u16string utf16(const std::string& text) {
  std::u16string out;
  for (char32_t c : rdf::decodeUtf8(text)) {
    if (c >= 0x10000) {
      out += static_cast<char16_t>(0xD800 + ((c - 0x10000) >> 10));
      out += static_cast<char16_t>(0xDC00 + ((c - 0x10000) & 0x3FF));
    } else {
      out += static_cast<char16_t>(c);
    }
  }
  return out;
}

void appendString(std::string& out, const std::string& text) {
  out += '"';
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof escape, "\\u%04x", c);
          out += escape;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

void append(std::string& out, const Json& value) {
  switch (value.type()) {
    case Json::value_t::object: {
      std::vector<std::pair<std::u16string, const std::string*>> keys;
      for (const auto& [key, v] : value.items()) keys.emplace_back(utf16(key), &key);
      std::sort(keys.begin(), keys.end());
      out += '{';
      for (size_t i = 0; i < keys.size(); ++i) {
        if (i > 0) out += ',';
        appendString(out, *keys[i].second);
        out += ':';
        append(out, value.at(*keys[i].second));
      }
      out += '}';
      return;
    }
    case Json::value_t::array:
      out += '[';
      for (size_t i = 0; i < value.size(); ++i) {
        if (i > 0) out += ',';
        append(out, value[i]);
      }
      out += ']';
      return;
    case Json::value_t::string: return appendString(out, value.get_ref<const std::string&>());
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: out += ecmaScriptNumber(value.get<double>()); return;
    case Json::value_t::boolean: out += value.get<bool>() ? "true" : "false"; return;
    default: out += "null"; return;
  }
}

}  // namespace

std::string ecmaScriptNumber(double value) {
  if (value == 0) return "0";
  if (std::isnan(value) || std::isinf(value)) throw JsonLdError("invalid JSON literal", "not a finite number");
  // The shortest digits that read back as `value`, and where the point goes.
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value), std::chars_format::scientific);
  const std::string scientific(buffer, end);
  const size_t e = scientific.find('e');
  std::string digits = scientific.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int n = std::stoi(scientific.substr(e + 1)) + 1;  // the point is after n digits
  const int k = static_cast<int>(digits.size());
  std::string out = value < 0 ? "-" : "";
  if (k <= n && n <= 21) {
    out += digits + std::string(static_cast<size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<size_t>(n)) + "." + digits.substr(static_cast<size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0." + std::string(static_cast<size_t>(-n), '0') + digits;
  } else {
    out += digits.substr(0, 1);
    if (k > 1) out += "." + digits.substr(1);
    out += "e" + std::string(n - 1 >= 0 ? "+" : "-") + std::to_string(std::abs(n - 1));
  }
  return out;
}

std::string canonicalJson(const Json& value) {
  std::string out;
  append(out, value);
  return out;
}

}  // namespace gsparql::jsonld
