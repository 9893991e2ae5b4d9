#include "server/request_body.h"

#include "server/request_head.h"

namespace gsparql::server {
namespace {

// The media type without parameters such as charset.
std::string mediaTypeOf(const httplib::Request& req) {
  std::string type = req.get_header_value("Content-Type");
  type = type.substr(0, type.find(';'));
  type.erase(type.find_last_not_of(" \t") + 1);
  return type;
}

// RFC 9112 6.3: a request without either header has no body. (cpp-httplib
// would read one until the client closes.)
bool hasBody(const httplib::Request& req) {
  return req.has_header("Content-Length") || req.has_header("Transfer-Encoding");
}

std::string readBody(const httplib::ContentReader& reader, size_t maxBodyBytes) {
  std::string body;
  bool tooLarge = false;
  const bool complete = reader([&](const char* data, size_t length) {
    tooLarge = length > maxBodyBytes - body.size();
    if (!tooLarge) body.append(data, length);
    return !tooLarge;
  });
  if (tooLarge) throw bodyTooLarge(maxBodyBytes);
  if (!complete) throw HttpError(400, "the request body ended before its length, or was malformed", true);
  return body;
}

}  // namespace

HttpInput readInput(const httplib::Request& req, const httplib::ContentReader* body, size_t maxBodyBytes) {
  HttpInput input{req.method, mediaTypeOf(req), {}, {req.params.begin(), req.params.end()}};
  if (body != nullptr && hasBody(req)) input.body = readBody(*body, maxBodyBytes);
  if (input.method == "POST" && input.contentType == "application/x-www-form-urlencoded") {
    httplib::Params fields;
    httplib::detail::parse_query_text(input.body, fields);
    input.params.insert(fields.begin(), fields.end());
  }
  return input;
}

}  // namespace gsparql::server
