#include "server/request_head.h"

#include <limits>
#include <string_view>

namespace gsparql::server {
namespace {

// A Content-Length's value: digits only (no sign, no space), saturating at
// the largest uint64_t; nullopt for anything else.
std::optional<uint64_t> contentLength(std::string_view text) {
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    value = value > (kMax - digit) / 10 ? kMax : value * 10 + digit;
  }
  return value;
}

std::string sizeText(size_t bytes) {
  if (bytes % (1 << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes % (1 << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

HttpError bodyTooLarge(size_t maxBodyBytes) {
  return HttpError(413, "the request body is larger than this server's limit of " + sizeText(maxBodyBytes) +
                            " (the most a query or an update, with its parameters, may be)", true);
}

HttpError uriTooLong(size_t maxBodyBytes) {
  return HttpError(414, "the request's URL is longer than this server's limit of " +
                            sizeText(CPPHTTPLIB_REQUEST_URI_MAX_LENGTH) + ": send a long query by POST (up to " +
                            sizeText(maxBodyBytes) + ")", true);
}

std::optional<HttpError> refusalOf(const httplib::Request& req, bool malformedHead, size_t maxBodyBytes) {
  if (malformedHead) return HttpError(400, "a line of the request's head is no 'name: value' header line", true);
  const size_t lengths = req.get_header_value_count("Content-Length");
  std::optional<uint64_t> length;
  for (size_t i = 0; i < lengths; ++i) {
    const auto value = contentLength(req.get_header_value("Content-Length", i));
    if (!value || (length && *length != *value)) {
      return HttpError(400, "the Content-Length '" + req.get_header_value("Content-Length", i) +
                                "' is no length of a body (digits only, one value)", true);
    }
    length = value;
  }
  if (length && *length > maxBodyBytes) return bodyTooLarge(maxBodyBytes);
  return std::nullopt;
}

}  // namespace gsparql::server
