#pragma once
// What a SPARQL 1.1 Protocol request asks for, read from its method,
// Content-Type, body and parameters (https://www.w3.org/TR/sparql11-protocol/).
#include <chrono>
#include <map>
#include <optional>
#include <string>

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
};

// Throws HttpError: 400 for a malformed request (no query, two queries, a
// bad timeout, a non-empty default-graph-uri or named-graph-uri: named
// graphs do not exist yet), 405 for another method, 415 for a POST body
// of another media type.
ProtocolRequest parseProtocolRequest(const HttpInput& input);

}  // namespace gsparql::server
