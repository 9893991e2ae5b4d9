#include "rdf/iri.h"

#include <cctype>

namespace gsparql::rdf {
namespace {

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

std::optional<std::string> absoluteIriTerm(std::string_view iri) {
  if (iri.size() >= 2 && iri.front() == '<' && iri.back() == '>') iri = iri.substr(1, iri.size() - 2);
  const size_t colon = iri.find(':');
  if (colon == std::string_view::npos || colon == 0 || !std::isalpha(static_cast<unsigned char>(iri[0]))) {
    return std::nullopt;
  }
  for (char c : iri.substr(0, colon)) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') return std::nullopt;
  }
  for (unsigned char c : iri) {
    if (c <= 0x20 || std::string_view("<>\"{}|^`\\").find(static_cast<char>(c)) != std::string_view::npos) {
      return std::nullopt;
    }
  }
  return "<" + std::string(iri) + ">";
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

}  // namespace gsparql::rdf
