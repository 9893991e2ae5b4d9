#pragma once
// A SERVICE request that failed at the remote end or on the way: refused
// connection, timeout of the request, HTTP error, unreadable results. SERVICE
// SILENT turns it into the empty solution; without SILENT it becomes a
// QueryError naming the endpoint. The query's own stop (cancel, its
// timeout) is not one: it stops the query whatever SILENT says.
#include <stdexcept>

namespace gsparql::engine::service {

struct RemoteFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace gsparql::engine::service
