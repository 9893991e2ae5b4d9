// libFuzzer target for what the server reads of a request: any bytes are
// parsed as an HTTP request by Beast's parser, with the server's limits, as
// http_session.cpp does; a request it takes has its target and form body
// decoded (form_urlencoded.h) and read as a SPARQL Protocol request
// (protocol_request.h), which may refuse it only with HttpError. Build: see
// server/CMakeLists.txt (GSPARQL_FUZZ).
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "server/form_urlencoded.h"
#include "server/http_error.h"
#include "server/protocol_input.h"
#include "server/protocol_request.h"

namespace http = boost::beast::http;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  http::request_parser<http::string_body> parser;
  parser.eager(true);
  parser.header_limit(64 << 10);
  parser.body_limit(1 << 20);
  boost::beast::error_code ec;
  parser.put(boost::asio::buffer(data, size), ec);
  if (ec || !parser.is_done()) return 0;
  auto& message = parser.get();
  gsparql::server::HttpRequest request;
  request.method = std::string(message.method_string());
  request.target = std::string(message.target());
  const gsparql::server::RequestTarget target = gsparql::server::targetOf(request.target);
  request.path = target.path;
  request.params = target.params;
  for (const auto& field : message) request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  request.body = message.body();
  try {
    const auto protocol = gsparql::server::parseProtocolRequest(gsparql::server::protocolInputOf(request));
    if (protocol.text.empty() && protocol.kind == gsparql::server::ProtocolRequest::Kind::Query) {
      // An empty query is read as one: the engine refuses it with its position.
      return 0;
    }
  } catch (const gsparql::server::HttpError& e) {
    if (e.status() < 400 || e.status() > 499) std::abort();  // a request's fault is a 4xx
  }
  return 0;
}
