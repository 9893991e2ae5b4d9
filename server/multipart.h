#pragma once
// The parts of a multipart body (RFC 2046 5.1.1; multipart/form-data, RFC
// 7578): a Graph Store POST may send one graph as several RDF documents,
// each a part with its own Content-Type.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gsparql::server {

struct BodyPart {
  std::string mediaType;  // the part's Content-Type without parameters; text/plain when it has none
  std::string_view content;
};

// The boundary parameter of a Content-Type header value, unquoted.
std::optional<std::string> multipartBoundary(std::string_view contentType);

// The parts of `body` between its delimiter lines. Throws HttpError 400 for
// a body without the boundary's delimiters, or a part whose headers do not end.
std::vector<BodyPart> multipartParts(std::string_view body, const std::string& boundary);

}  // namespace gsparql::server
