#include "server/protocol_request.h"

#include "options/option_values.h"
#include "server/http_error.h"

namespace gsparql::server {
namespace {

using Params = std::multimap<std::string, std::string>;

// The one value of `name`, if given; twice is ambiguous.
std::optional<std::string> single(const Params& params, const std::string& name) {
  const auto [first, last] = params.equal_range(name);
  if (first == last) return std::nullopt;
  if (std::next(first) != last) throw HttpError(400, "the parameter '" + name + "' is given more than once");
  return first->second;
}

// The non-empty values of a repeatable parameter (some forms send empty ones).
std::vector<std::string> values(const Params& params, const std::string& name) {
  std::vector<std::string> out;
  const auto [first, last] = params.equal_range(name);
  for (auto it = first; it != last; ++it) {
    if (!it->second.empty()) out.push_back(it->second);
  }
  return out;
}

// The RDF dataset of the request: default-graph-uri and named-graph-uri for
// a query, using-graph-uri and using-named-graph-uri for an update; the
// other kind's parameters are an error, not silently ignored.
void readDataset(const Params& params, ProtocolRequest& request) {
  const bool update = request.kind == ProtocolRequest::Kind::Update;
  const char* defaults = update ? "using-graph-uri" : "default-graph-uri";
  const char* named = update ? "using-named-graph-uri" : "named-graph-uri";
  for (const char* other : {update ? "default-graph-uri" : "using-graph-uri",
                            update ? "named-graph-uri" : "using-named-graph-uri"}) {
    if (!values(params, other).empty()) {
      throw HttpError(400, std::string(other) + " is for " + (update ? "queries" : "updates") + "; this request is " +
                               (update ? "an update" : "a query"));
    }
  }
  request.defaultGraphs = values(params, defaults);
  request.namedGraphs = values(params, named);
}

// The text and kind of a GET or form POST: exactly one query or update.
void readFromParameters(const HttpInput& input, ProtocolRequest& request) {
  const auto query = single(input.params, "query");
  const auto update = single(input.params, "update");
  if (query && update) throw HttpError(400, "a request carries either a query or an update, not both");
  if (update && input.method == "GET") throw HttpError(400, "an update is sent by POST, not GET");
  if (!query && !update) throw HttpError(400, "no query: send it as the 'query' parameter or as the POST body");
  request.kind = update ? ProtocolRequest::Kind::Update : ProtocolRequest::Kind::Query;
  request.text = update ? *update : *query;
}

// The text of a POST whose body is the query or update itself.
void readFromBody(const HttpInput& input, ProtocolRequest& request, ProtocolRequest::Kind kind) {
  if (input.params.count("query") > 0 || input.params.count("update") > 0) {
    throw HttpError(400, "a query or update in the body and another in the URL: send one");
  }
  request.kind = kind;
  request.text = input.body;
}

std::chrono::milliseconds timeoutFrom(const std::string& seconds) {
  try {
    return options::parseTimeout(seconds);
  } catch (const options::UsageError& e) {
    throw HttpError(400, e.what());
  }
}

bool explainFrom(const std::string& value) {
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0" || value.empty()) return false;
  throw HttpError(400, "explain '" + value + "': expected true or false");
}

}  // namespace

ProtocolRequest parseProtocolRequest(const HttpInput& input) {
  ProtocolRequest request;
  if (input.method == "GET" || (input.method == "POST" && input.contentType == "application/x-www-form-urlencoded")) {
    readFromParameters(input, request);
  } else if (input.method != "POST") {
    throw HttpError(405, "the SPARQL endpoint answers GET and POST, not " + input.method);
  } else if (input.contentType == "application/sparql-query") {
    readFromBody(input, request, ProtocolRequest::Kind::Query);
  } else if (input.contentType == "application/sparql-update") {
    readFromBody(input, request, ProtocolRequest::Kind::Update);
  } else {
    throw HttpError(415,
                    "a POST body is application/x-www-form-urlencoded, "
                    "application/sparql-query or "
                    "application/sparql-update, not '" +
                        input.contentType + "'");
  }
  readDataset(input.params, request);
  request.format = single(input.params, "format");
  if (auto timeout = single(input.params, "timeout")) request.timeout = timeoutFrom(*timeout);
  if (auto explain = single(input.params, "explain")) request.explain = explainFrom(*explain);
  return request;
}

}  // namespace gsparql::server
