#include "server/protocol_input.h"

#include "server/form_urlencoded.h"

namespace gsparql::server {
namespace {

// The media type without parameters such as charset.
std::string mediaTypeOf(const HttpRequest& request) {
  std::string type = request.header("Content-Type");
  type = type.substr(0, type.find(';'));
  type.erase(type.find_last_not_of(" \t") + 1);
  return type;
}

}  // namespace

HttpInput protocolInputOf(const HttpRequest& request) {
  HttpInput input{request.method, mediaTypeOf(request), request.body, request.params};
  if (input.method == "POST" && input.contentType == "application/x-www-form-urlencoded") {
    input.params.merge(formFields(input.body));
  }
  return input;
}

}  // namespace gsparql::server
