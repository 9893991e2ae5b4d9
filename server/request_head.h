#pragma once
// What the server refuses in a request's head, before cpp-httplib reads its
// body.
#include <httplib.h>

#include <cstddef>
#include <optional>

#include "server/http_error.h"

namespace gsparql::server {

// 400 for a line that is no "name: value" line (`malformedHead`,
// http_connection.h: cpp-httplib would skip it) and for a Content-Length
// that is no number, or two that differ (the body's end is unknowable, RFC
// 9112 6.3); 413 for one over `maxBodyBytes`, at once, where cpp-httplib
// would first read and drop the body, or wait for it until its read
// timeout. Each closes the connection.
std::optional<HttpError> refusalOf(const httplib::Request& req, bool malformedHead, size_t maxBodyBytes);

// The 413 of a body over `maxBodyBytes`, which it names.
HttpError bodyTooLarge(size_t maxBodyBytes);
// The 414 of a request target over cpp-httplib's limit (8 KiB, compiled
// into Debian's library): it names that limit, and the body's for a POST.
HttpError uriTooLong(size_t maxBodyBytes);

}  // namespace gsparql::server
