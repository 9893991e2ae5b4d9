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

std::string removeDotSegments(std::string_view path) {
  std::string out;
  while (!path.empty()) {
    if (path.starts_with("../")) {
      path.remove_prefix(3);
    } else if (path.starts_with("./")) {
      path.remove_prefix(2);
    } else if (path.starts_with("/./")) {
      path.remove_prefix(2);
    } else if (path == "/.") {
      path = "/";
    } else if (path.starts_with("/../") || path == "/..") {
      path = path.size() == 3 ? std::string_view("/") : path.substr(3);
      auto slash = out.rfind('/');
      out.erase(slash == std::string::npos ? 0 : slash);
    } else if (path == "." || path == "..") {
      path = {};
    } else {
      auto next = path.find('/', path.front() == '/' ? 1 : 0);
      if (next == std::string_view::npos) next = path.size();
      out += path.substr(0, next);
      path.remove_prefix(next);
    }
  }
  return out;
}

struct IriParts {
  std::string_view scheme, authority, path, query, fragment;
  bool hasScheme = false, hasAuthority = false, hasQuery = false, hasFragment = false;
};

IriParts split(std::string_view iri) {
  IriParts p;
  auto colon = iri.find(':');
  auto delim = iri.find_first_of("/?#");
  if (colon != std::string_view::npos && colon > 0 && (delim == std::string_view::npos || colon < delim)) {
    p.hasScheme = true;
    p.scheme = iri.substr(0, colon);
    iri.remove_prefix(colon + 1);
  }
  if (auto hash = iri.find('#'); hash != std::string_view::npos) {
    p.hasFragment = true;
    p.fragment = iri.substr(hash + 1);
    iri = iri.substr(0, hash);
  }
  if (auto q = iri.find('?'); q != std::string_view::npos) {
    p.hasQuery = true;
    p.query = iri.substr(q + 1);
    iri = iri.substr(0, q);
  }
  if (iri.starts_with("//")) {
    p.hasAuthority = true;
    iri.remove_prefix(2);
    auto slash = iri.find('/');
    p.authority = iri.substr(0, slash);
    iri = slash == std::string_view::npos ? std::string_view{} : iri.substr(slash);
  }
  p.path = iri;
  return p;
}

std::string mergePaths(const IriParts& base, std::string_view ref) {
  if (base.hasAuthority && base.path.empty()) return "/" + std::string(ref);
  auto slash = base.path.rfind('/');
  if (slash == std::string_view::npos) return std::string(ref);
  return std::string(base.path.substr(0, slash + 1)) + std::string(ref);
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

std::string resolveIri(std::string_view base, std::string_view ref) {
  if (base.empty()) return std::string(ref);
  IriParts r = split(ref), b = split(base);
  std::string authority, path, query;
  bool hasAuthority = false, hasQuery = false;
  // SPARQL 1.1 (4.1.1.1) resolves relative IRIs only: an absolute one is kept
  // exactly as written, dot segments included, so it matches the data.
  if (r.hasScheme) return std::string(ref);
  if (r.hasAuthority) {
    hasAuthority = true;
    authority = r.authority;
    path = removeDotSegments(r.path);
    hasQuery = r.hasQuery;
    query = r.query;
  } else {
    hasAuthority = b.hasAuthority;
    authority = b.authority;
    if (r.path.empty()) {
      path = b.path;
      hasQuery = r.hasQuery || b.hasQuery;
      query = r.hasQuery ? r.query : b.query;
    } else {
      path = removeDotSegments(r.path.front() == '/' ? std::string(r.path) : mergePaths(b, r.path));
      hasQuery = r.hasQuery;
      query = r.query;
    }
  }
  std::string out = std::string(b.scheme) + ":";
  if (hasAuthority) out += "//" + authority;
  out += path;
  if (hasQuery) out += "?" + query;
  if (r.hasFragment) out += "#" + std::string(r.fragment);
  return out;
}

}  // namespace gsparql::sparql::lexical
