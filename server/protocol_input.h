#pragma once
// The parts of a request that the protocol reads (protocol_request.h): its
// method, media type and body, and its parameters, a form's fields joining
// the URL's.
#include "server/http_exchange.h"
#include "server/protocol_request.h"

namespace gsparql::server {

HttpInput protocolInputOf(const HttpRequest& request);

}  // namespace gsparql::server
