#pragma once
// The errors of a request over one of the server's size limits, each
// naming the limit and what to do instead.
#include <cstddef>

#include "server/http_error.h"

namespace gsparql::server {

// 413: a body over `maxBodyBytes`.
HttpError bodyTooLarge(size_t maxBodyBytes);
// 414: a request line over `maxHeadBytes` (a query by GET): POST takes up
// to `maxBodyBytes`.
HttpError uriTooLong(size_t maxHeadBytes, size_t maxBodyBytes);
// 431: the headers together over `maxHeadBytes`.
HttpError headTooLarge(size_t maxHeadBytes);

}  // namespace gsparql::server
