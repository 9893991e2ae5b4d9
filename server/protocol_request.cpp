#include "server/protocol_request.h"

#include <array>

#include "cli/arguments.h"
#include "cli/query_options.h"
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

// The dataset parameters are not read yet (FROM, FROM NAMED, USING and WITH
// in the text are), so a request that names a graph through them cannot be
// answered as asked. Empty values (as some forms send) name nothing.
void refuseDatasetParameters(const Params& params) {
  static constexpr std::array kNames{"default-graph-uri", "named-graph-uri", "using-graph-uri",
                                     "using-named-graph-uri"};
  for (const char* name : kNames) {
    const auto [first, last] = params.equal_range(name);
    for (auto it = first; it != last; ++it) {
      if (!it->second.empty()) {
        throw HttpError(400, std::string(name) +
                                 " is not supported yet: name the graphs with FROM "
                                 "and FROM NAMED (USING, WITH) in the text");
      }
    }
  }
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
    return cli::parseTimeout(seconds);
  } catch (const cli::UsageError& e) {
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
  refuseDatasetParameters(input.params);
  request.format = single(input.params, "format");
  if (auto timeout = single(input.params, "timeout")) request.timeout = timeoutFrom(*timeout);
  if (auto explain = single(input.params, "explain")) request.explain = explainFrom(*explain);
  return request;
}

}  // namespace gsparql::server
