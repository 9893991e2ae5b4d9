#include "server/request_limits.h"

#include <string>

namespace gsparql::server {
namespace {

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

HttpError uriTooLong(size_t maxHeadBytes, size_t maxBodyBytes) {
  return HttpError(414, "the request's URL is longer than this server's limit of " + sizeText(maxHeadBytes) +
                            ": send a long query by POST (up to " + sizeText(maxBodyBytes) + ")", true);
}

HttpError headTooLarge(size_t maxHeadBytes) {
  return HttpError(431, "the request's headers are larger than this server's limit of " + sizeText(maxHeadBytes), true);
}

}  // namespace gsparql::server
