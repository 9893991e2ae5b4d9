#include "rdf/term_parts.h"

#include "rdf/term.h"

#include <cstring>

namespace gsparql::rdf {
namespace {

bool hasBackslash(std::string_view s) {
  return !s.empty() && std::memchr(s.data(), '\\', s.size()) != nullptr;
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads `digits` hex digits at s[pos]; -1 if they are not all there.
long readHex(std::string_view s, size_t pos, size_t digits) {
  if (pos + digits > s.size()) return -1;
  long value = 0;
  for (size_t i = 0; i < digits; ++i) {
    int h = hexValue(s[pos + i]);
    if (h < 0) return -1;
    value = value * 16 + h;
  }
  return value;
}

}  // namespace

void appendUnescaped(std::string& out, std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const void* hit = std::memchr(s.data() + i, '\\', s.size() - i);
    size_t next = hit ? static_cast<size_t>(static_cast<const char*>(hit) - s.data()) : s.size();
    out.append(s.data() + i, next - i);
    if (next == s.size()) break;
    if (next + 1 == s.size()) {  // trailing lone backslash
      out += '\\';
      break;
    }
    char e = s[next + 1];
    size_t used = 2;
    switch (e) {
      case 't': out += '\t'; break;
      case 'b': out += '\b'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 'f': out += '\f'; break;
      case '"': out += '"'; break;
      case '\'': out += '\''; break;
      case '\\': out += '\\'; break;
      case 'u':
      case 'U': {
        size_t digits = e == 'u' ? 4 : 8;
        long cp = readHex(s, next + 2, digits);
        if (cp >= 0 && cp <= 0x10FFFF) {
          rdf::appendUtf8(out, static_cast<char32_t>(cp));
          used = 2 + digits;
        } else {
          out.append(s.data() + next, 2);
        }
        break;
      }
      default: out.append(s.data() + next, 2);
    }
    i = next + used;
  }
}

const TermParts& TermSplitter::split(std::string_view term) {
  TermParts& p = parts_;
  p = TermParts{};
  if (rdf::termKind(term) == rdf::TermKind::Triple) {
    p.kind = rdf::TermKind::Triple;
    p.value = p.rawValue = term;
    return p;
  }
  if (term.size() >= 2 && term.front() == '<' && term.back() == '>') {
    p.kind = rdf::TermKind::Iri;
    p.rawValue = term.substr(1, term.size() - 2);
  } else if (term.size() >= 2 && term[0] == '_' && term[1] == ':') {
    p.kind = rdf::TermKind::Blank;
    p.value = p.rawValue = term.substr(2);
    return p;
  } else {
    p.kind = rdf::TermKind::Literal;
    // The closing quote is the last '"': neither a language tag nor an IRI
    // (where '"' is written \u0022) can hold one.
    size_t close = term.rfind('"');
    if (term.empty() || term.front() != '"' || close == 0 || close == std::string_view::npos) {
      p.value = p.rawValue = term;  // not a term: show it as it is
      return p;
    }
    p.rawValue = term.substr(1, close - 1);
    std::string_view rest = term.substr(close + 1);
    if (!rest.empty() && rest.front() == '@') {
      p.language = rest.substr(1);
      if (size_t dash = p.language.find("--"); dash != std::string_view::npos) {
        p.direction = p.language.substr(dash + 2);
        p.language = p.language.substr(0, dash);
      }
    } else if (rest.size() >= 4 && rest.starts_with("^^<") && rest.back() == '>') {
      p.rawDatatype = rest.substr(3, rest.size() - 4);
      if (hasBackslash(p.rawDatatype)) {
        datatype_.clear();
        appendUnescaped(datatype_, p.rawDatatype);
        p.datatype = datatype_;
      } else {
        p.datatype = p.rawDatatype;
      }
      if (p.datatype == rdf::kXsdString) p.datatype = {}, p.rawDatatype = {};
    }
  }
  if (hasBackslash(p.rawValue)) {
    value_.clear();
    appendUnescaped(value_, p.rawValue);
    p.value = value_;
    p.valueUnescaped = true;
  } else {
    p.value = p.rawValue;
  }
  return p;
}

}  // namespace gsparql::rdf
