#include "engine/service/endpoint_policy.h"

#include <algorithm>
#include <cctype>

#include "gsparql/error.h"

namespace gsparql::engine::service {
namespace {

bool startsWithNoCase(const std::string& text, std::string_view prefix) {
  return text.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
         });
}

// A prefix ends where a path segment or the query begins, so that
// "http://a/sparql" does not allow "http://a/sparqlx" nor "http://a.evil/".
bool allowedBy(const std::string& url, const std::string& entry) {
  if (entry.empty() || !url.starts_with(entry)) return false;
  if (url.size() == entry.size() || entry.back() == '/') return true;
  const char next = url[entry.size()];
  return next == '/' || next == '?';
}

}  // namespace

void checkEndpoint(const std::string& url, const ServiceAccess& access) {
  if (!startsWithNoCase(url, "http://") && !startsWithNoCase(url, "https://")) {
    throw QueryError("SERVICE <" + url + "> is refused: only http and https endpoints can be queried");
  }
  if (access.any) return;
  if (std::any_of(access.allowed.begin(), access.allowed.end(), [&](const auto& e) { return allowedBy(url, e); })) {
    return;
  }
  throw QueryError("SERVICE <" + url +
                   "> is refused: it is not an allowed endpoint (gsparql serve --service-allow, QueryOptions::service)");
}

}  // namespace gsparql::engine::service
