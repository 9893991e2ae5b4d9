#pragma once
// What a SPARQL 1.1 Protocol request asks for, read from its method,
// Content-Type, body and parameters (https://www.w3.org/TR/sparql11-protocol/).
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gsparql::server {

// The parts of an HTTP request the protocol looks at. `params` holds the
// URL's query string and, for a form POST, the form's fields (as
// cpp-httplib merges them); repeated names appear repeatedly.
struct HttpInput {
  std::string method;       // GET or POST
  std::string contentType;  // without parameters such as charset
  std::string body;
  std::multimap<std::string, std::string> params;
};

struct ProtocolRequest {
  enum class Kind { Query, Update };
  Kind kind = Kind::Query;
  std::string text;                                 // the query or update
  std::optional<std::string> format;                // format=: overrides Accept
  std::optional<std::chrono::milliseconds> timeout;  // timeout=SECONDS
  bool explain = false;                             // explain=true: the plan instead of the result
  // default-graph-uri and named-graph-uri (a query), using-graph-uri and
  // using-named-graph-uri (an update): QueryOptions::defaultGraphs, namedGraphs.
  std::vector<std::string> defaultGraphs, namedGraphs;
};

// Throws HttpError: 400 for a malformed request (no query, two queries, a
// bad timeout, a query's dataset parameters on an update or the other way
// round), 405 for another method, 415 for a POST body of another media type.
ProtocolRequest parseProtocolRequest(const HttpInput& input);

}  // namespace gsparql::server
