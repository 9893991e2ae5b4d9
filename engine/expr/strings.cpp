// String functions (section 17.4.3). Lexical forms are UTF-8; lengths and
// positions count code points.
#include <algorithm>
#include <clocale>
#include <cmath>
#include <cwctype>
#include <locale.h>

#include "engine/expr/builtins.h"
#include "engine/expr/numeric.h"

namespace gsparql::engine::expr {
namespace {

std::string encodeUtf8(std::u32string_view s) {
  std::string out;
  for (char32_t c : s) rdf::appendUtf8(out, c);
  return out;
}

// towupper/towlower follow LC_CTYPE; a UTF-8 locale of our own leaves the
// process locale alone.
locale_t utf8Locale() {
  static locale_t locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nullptr);
  return locale;
}

// ASCII text, where code points are bytes: the functions below take a short
// way through it (most literals are ASCII), and decode the rest.
bool isAscii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// Simple case mapping per code point, plus the one full mapping of Latin-1
// that XPath (and Jena) apply: upper-case "ß" is "SS".
std::string mapCase(std::string_view s, bool upper) {
  if (isAscii(s)) {
    std::string out(s);
    const char from = upper ? 'a' : 'A', to = upper ? 'A' : 'a';
    for (char& c : out) {
      if (c >= from && c <= from + 25) c = static_cast<char>(c - from + to);
    }
    return out;
  }
  locale_t locale = utf8Locale();
  std::u32string out;
  for (char32_t c : rdf::decodeUtf8(s)) {
    if (upper && c == U'\u00DF') {
      out += U"SS";
    } else if (locale) {
      out += upper ? towupper_l(c, locale) : towlower_l(c, locale);
    } else {
      out += c < 0x80 ? (upper ? std::toupper(static_cast<int>(c)) : std::tolower(static_cast<int>(c))) : c;
    }
  }
  return encodeUtf8(out);
}

// Section 17.4.3.1.1: two simple literals, two with the same language tag,
// or a tagged first argument with a simple second one.
bool compatible(const TermValue& a, const TermValue& b) {
  if (!a.isStringLiteral() || !b.isStringLiteral()) return false;
  return b.language.empty() || a.language == b.language;
}

Result stringLength(const std::vector<Arg>& a, CallContext&) {
  if (!a[0].term.isStringLiteral()) return std::nullopt;
  const std::string& text = a[0].term.value;
  return integerTerm(static_cast<long long>(isAscii(text) ? text.size() : rdf::decodeUtf8(text).size()));
}

// XPath fn:substring: the code points at positions p (from 1) with
// round(start) <= p < round(start) + round(length).
Result substring(const std::vector<Arg>& a, CallContext&) {
  if (!a[0].term.isStringLiteral()) return std::nullopt;
  auto start = parseNumber(a[1].term);
  std::optional<Number> length;
  if (a.size() == 3 && !(length = parseNumber(a[2].term))) return std::nullopt;
  if (!start) return std::nullopt;
  auto roundHalfUp = [](double v) { return std::floor(v + 0.5); };
  double first = roundHalfUp(start->toDouble());
  double last = length ? first + roundHalfUp(length->toDouble()) : HUGE_VAL;
  // The positions p (from 1) with first <= p < last, clamped to the text:
  // NaN bounds select nothing, as no comparison with NaN holds.
  auto range = [&](size_t size) -> std::pair<size_t, size_t> {
    if (!(first < last) || !(last > 1) || !(first <= static_cast<double>(size))) return {0, 0};
    const size_t from = first <= 1 ? 0 : static_cast<size_t>(first) - 1;
    const size_t to = last > static_cast<double>(size) ? size : static_cast<size_t>(last) - 1;
    return {from, to > from ? to - from : 0};
  };
  const std::string& value = a[0].term.value;
  if (isAscii(value)) {
    const auto [from, count] = range(value.size());
    return stringTerm(std::string_view(value).substr(from, count), a[0].term.language);
  }
  const std::u32string text = rdf::decodeUtf8(value);
  const auto [from, count] = range(text.size());
  return stringTerm(encodeUtf8(std::u32string_view(text).substr(from, count)), a[0].term.language);
}

Result ucase(const std::vector<Arg>& a, CallContext&) {
  if (!a[0].term.isStringLiteral()) return std::nullopt;
  return stringTerm(mapCase(a[0].term.value, true), a[0].term.language);
}

Result lcase(const std::vector<Arg>& a, CallContext&) {
  if (!a[0].term.isStringLiteral()) return std::nullopt;
  return stringTerm(mapCase(a[0].term.value, false), a[0].term.language);
}

std::optional<bool> strstarts(const std::vector<Arg>& a, CallContext&) {
  if (!compatible(a[0].term, a[1].term)) return std::nullopt;
  return std::string_view(a[0].term.value).starts_with(a[1].term.value);
}

std::optional<bool> strends(const std::vector<Arg>& a, CallContext&) {
  if (!compatible(a[0].term, a[1].term)) return std::nullopt;
  return std::string_view(a[0].term.value).ends_with(a[1].term.value);
}

std::optional<bool> contains(const std::vector<Arg>& a, CallContext&) {
  if (!compatible(a[0].term, a[1].term)) return std::nullopt;
  return a[0].term.value.find(a[1].term.value) != std::string::npos;
}

// No match gives a simple empty literal; a match keeps the first argument's tag.
Result strbefore(const std::vector<Arg>& a, CallContext&) {
  if (!compatible(a[0].term, a[1].term)) return std::nullopt;
  size_t at = a[0].term.value.find(a[1].term.value);
  if (at == std::string::npos) return stringTerm("");
  return stringTerm(a[0].term.value.substr(0, at), a[0].term.language);
}

Result strafter(const std::vector<Arg>& a, CallContext&) {
  if (!compatible(a[0].term, a[1].term)) return std::nullopt;
  size_t at = a[0].term.value.find(a[1].term.value);
  if (at == std::string::npos) return stringTerm("");
  return stringTerm(a[0].term.value.substr(at + a[1].term.value.size()), a[0].term.language);
}

// Percent-encodes all but the RFC 3986 unreserved characters (fn:encode-for-uri).
Result encodeForUri(const std::vector<Arg>& a, CallContext&) {
  if (!a[0].term.isStringLiteral()) return std::nullopt;
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : a[0].term.value) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return stringTerm(out);
}

// The result keeps a language tag that all arguments share.
Result concat(const std::vector<Arg>& a, CallContext&) {
  std::string out;
  for (const Arg& arg : a) {
    if (!arg.term.isStringLiteral()) return std::nullopt;
    out += arg.term.value;
  }
  bool sameLanguage = !a.empty();
  for (const Arg& arg : a) sameLanguage = sameLanguage && arg.term.language == a[0].term.language;
  return stringTerm(out, sameLanguage ? std::string_view(a[0].term.language) : std::string_view{});
}

bool equalsIgnoreCase(std::string_view x, std::string_view y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(x[i])) != std::tolower(static_cast<unsigned char>(y[i]))) return false;
  }
  return true;
}

// RFC 4647 basic filtering: "*" matches any tag, otherwise the range equals
// the tag or a prefix of it ending at a '-', ignoring case.
std::optional<bool> langMatches(const std::vector<Arg>& a, CallContext&) {
  if (!a[0].term.isSimple() || !a[1].term.isSimple()) return std::nullopt;
  std::string_view tag = a[0].term.value, range = a[1].term.value;
  if (range == "*") return !tag.empty();
  bool prefix = tag.size() > range.size() && tag[range.size()] == '-' && !range.empty();
  return equalsIgnoreCase(prefix ? tag.substr(0, range.size()) : tag, range);
}

}  // namespace

std::vector<Builtin> stringBuiltins() {
  return {
      {"STRLEN", stringLength, 1, 1},         {"SUBSTR", substring, 2, 3},
      {"UCASE", ucase, 1, 1},           {"LCASE", lcase, 1, 1},
      predicate<strstarts>("STRSTARTS", 2, 2), predicate<strends>("STRENDS", 2, 2),
      predicate<contains>("CONTAINS", 2, 2), {"STRBEFORE", strbefore, 2, 2},
      {"STRAFTER", strafter, 2, 2},     {"ENCODE_FOR_URI", encodeForUri, 1, 1},
      {"CONCAT", concat, 0, SIZE_MAX},  predicate<langMatches>("LANGMATCHES", 2, 2),
  };
}

}  // namespace gsparql::engine::expr
