#include "server/write_origins.h"

#include <algorithm>
#include <cctype>

namespace gsparql::server {
namespace {

bool equalIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

bool isOrigin(std::string_view text) {
  for (std::string_view scheme : {"http://", "https://"}) {
    if (text.size() <= scheme.size() || !equalIgnoringCase(text.substr(0, scheme.size()), scheme)) continue;
    const std::string_view authority = text.substr(scheme.size());
    return std::none_of(authority.begin(), authority.end(), [](char c) {
      return c == '/' || c == '?' || c == '#' || c == '@' || std::isspace(static_cast<unsigned char>(c));
    });
  }
  return false;
}

bool WriteOrigins::mayWrite(std::string_view origin, std::string_view host) const {
  if (origin.empty()) return true;
  return (!host.empty() && equalIgnoringCase(origin, "http://" + std::string(host))) || listed(origin);
}

bool WriteOrigins::listed(std::string_view origin) const {
  return std::any_of(listed_.begin(), listed_.end(), [origin](const std::string& o) { return equalIgnoringCase(o, origin); });
}

}  // namespace gsparql::server
