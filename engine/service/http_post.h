#pragma once
// The HTTP exchange of one SERVICE request (libcurl): a SPARQL 1.1 Protocol
// query by POST, answered in the SPARQL JSON or XML results format.
#include <cstdint>
#include <string>

#include "engine/bgp/query_limits.h"
#include "gsparql/query.h"

namespace gsparql::engine::service {

struct HttpReply {
  std::string contentType;  // as sent, parameters included; may be empty
  std::string body;
};

// Sends `query` to `endpoint` and returns a 2xx answer. Redirects (at most
// a few) are followed to endpoints `access` allows. Throws RemoteFailure
// (connection, timeout of the request, non-2xx status, a body over
// access.maxResponseBytes), QueryError for a refused endpoint, and
// QueryCancelled or QueryTimedOut when the query stops meanwhile (noticed
// within about a second).
HttpReply postQuery(const std::string& endpoint, const std::string& query, const ServiceAccess& access,
                    const QueryLimits& limits);

}  // namespace gsparql::engine::service
