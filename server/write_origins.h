#pragma once
// Which web pages may write (docs/server.md, "CORS"). A browser sends a
// form POST to any origin without asking first (no CORS preflight), so a
// page of another site, opened in the user's browser, could change the
// database: a write is checked on the request itself, by its Origin header.
#include <string>
#include <string_view>
#include <vector>

namespace gsparql::server {

// Whether `text` is an origin as browsers send it: http:// or https://, a
// host and an optional port, nothing after (no path, not even "/").
bool isOrigin(std::string_view text);

class WriteOrigins {
 public:
  // `listed`: origins other than the server's own that may write (each isOrigin).
  explicit WriteOrigins(std::vector<std::string> listed) : listed_(std::move(listed)) {}

  // A request without Origin (curl, Jena: no browser) may write, and one from
  // the server's own origin ("http://" + its Host header) or a listed one.
  // Origins compare without regard to case (scheme and host are
  // case-insensitive, RFC 6454 4); "null" (a file:// or sandboxed page) is
  // no origin of the server's.
  bool mayWrite(std::string_view origin, std::string_view host) const;
  // Whether `origin` was listed (a preflight for a write from it is approved).
  bool listed(std::string_view origin) const;

 private:
  std::vector<std::string> listed_;
};

}  // namespace gsparql::server
