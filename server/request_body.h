#pragma once
// The parts of a request that the protocol reads (protocol_request.h), its
// body read here through cpp-httplib's content reader rather than by
// cpp-httplib: that would answer a form of more than 8 KiB (its compiled-in
// limit for form bodies) with a bare 413, and read a chunked body of any
// size. Here every body has the server's limit, and a form's fields join
// the URL's parameters.
#include <httplib.h>

#include <cstddef>

#include "server/protocol_request.h"

namespace gsparql::server {

// `body`: null for a request whose handler gets no content reader (GET).
// Throws HttpError: 413 (request_head.h's bodyTooLarge) for a body over
// `maxBodyBytes`, 400 for one that ends before its length; both close the
// connection.
HttpInput readInput(const httplib::Request& req, const httplib::ContentReader* body, size_t maxBodyBytes);

}  // namespace gsparql::server
