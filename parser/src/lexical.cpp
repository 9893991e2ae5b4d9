#include "parser/src/lexical.h"
#include "rdf/term.h"

#include <stdexcept>

namespace gsparql::sparql::lexical {
namespace {

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes \uXXXX or \UXXXXXXXX at text[i] (which is the backslash); the
// lexer has already checked the hex digits. Returns the escape's length.
std::size_t decodeUchar(std::string_view text, std::size_t i, std::string& out) {
  std::size_t digits = text[i + 1] == 'u' ? 4 : 8;
  char32_t cp = 0;
  for (std::size_t k = 0; k < digits; ++k) cp = cp * 16 + static_cast<char32_t>(hexValue(text[i + 2 + k]));
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    throw std::invalid_argument("escape " + std::string(text.substr(i, digits + 2)) +
                                " is not a Unicode scalar value");
  }
  rdf::appendUtf8(out, cp);
  return digits + 2;
}

char echar(char c) {
  switch (c) {
    case 't': return '\t';
    case 'b': return '\b';
    case 'n': return '\n';
    case 'r': return '\r';
    case 'f': return '\f';
    default: return c;  // \\ \" \'
  }
}

}  // namespace

std::size_t invalidUtf8Offset(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > text.size()) return i;
    char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < len; ++k) {
      auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0) return i;
    i += len;
  }
  return std::string_view::npos;
}

std::string decodeString(std::string_view token) {
  std::size_t quote = token.starts_with("\"\"\"") || token.starts_with("'''") ? 3 : 1;
  std::string_view body = token.substr(quote, token.size() - 2 * quote);
  std::string out;
  out.reserve(body.size());
  for (std::size_t i = 0; i < body.size();) {
    if (body[i] != '\\') {
      out += body[i++];
    } else if (body[i + 1] == 'u' || body[i + 1] == 'U') {
      i += decodeUchar(body, i, out);
    } else {
      out += echar(body[i + 1]);
      i += 2;
    }
  }
  return out;
}

std::string decodeIriRef(std::string_view token) {
  std::string_view body = token.substr(1, token.size() - 2);
  std::string out;
  for (std::size_t i = 0; i < body.size();) {
    if (body[i] == '\\') {
      i += decodeUchar(body, i, out);
    } else {
      out += body[i++];
    }
  }
  return out;
}

std::string decodeLocalName(std::string_view local) {
  std::string out;
  for (std::size_t i = 0; i < local.size(); ++i) {
    if (local[i] == '\\' && i + 1 < local.size()) ++i;
    out += local[i];
  }
  return out;
}

}  // namespace gsparql::sparql::lexical
