#include "server/multipart.h"

#include <algorithm>
#include <cctype>

#include "server/http_error.h"

namespace gsparql::server {
namespace {

std::string lowered(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string_view trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// The media type a part's headers name (RFC 7578 4.4: text/plain without one).
std::string mediaTypeOf(std::string_view headers) {
  const std::string lower = lowered(headers);
  for (size_t line = 0; line < lower.size();) {
    const size_t end = std::min(lower.find("\r\n", line), lower.size());
    const std::string_view header = std::string_view(lower).substr(line, end - line);
    if (header.starts_with("content-type:")) {
      const std::string_view value = trimmed(header.substr(13));
      return std::string(trimmed(value.substr(0, value.find(';'))));
    }
    line = end + 2;
  }
  return "text/plain";
}

HttpError malformed(const std::string& why) { return HttpError(400, "a malformed multipart body: " + why); }

}  // namespace

std::optional<std::string> multipartBoundary(std::string_view contentType) {
  const std::string lower = lowered(contentType);
  const size_t name = lower.find("boundary=");
  if (name == std::string::npos) return std::nullopt;
  std::string_view value = contentType.substr(name + 9);
  if (value.starts_with('"')) {
    const size_t close = value.find('"', 1);
    if (close == std::string_view::npos) return std::nullopt;
    return std::string(value.substr(1, close - 1));
  }
  value = trimmed(value.substr(0, value.find(';')));
  if (value.empty()) return std::nullopt;
  return std::string(value);
}

std::vector<BodyPart> multipartParts(std::string_view body, const std::string& boundary) {
  const std::string delimiter = "--" + boundary;
  size_t at = body.starts_with(delimiter) ? 0 : body.find("\r\n" + delimiter);
  if (at == std::string_view::npos) throw malformed("no line '" + delimiter + "' starts a part");
  at += body.starts_with(delimiter) && at == 0 ? delimiter.size() : delimiter.size() + 2;
  std::vector<BodyPart> parts;
  while (!body.substr(at).starts_with("--")) {  // "--" after a delimiter ends the body
    const size_t headers = body.find("\r\n", at);
    const size_t content = headers == std::string_view::npos ? headers : body.find("\r\n\r\n", headers);
    if (content == std::string_view::npos) throw malformed("the headers of part " + std::to_string(parts.size() + 1) + " do not end");
    const size_t next = body.find("\r\n" + delimiter, content + 4);
    if (next == std::string_view::npos) throw malformed("part " + std::to_string(parts.size() + 1) + " is not closed by '" + delimiter + "'");
    parts.push_back({mediaTypeOf(body.substr(headers + 2, content + 2 - headers - 2)), body.substr(content + 4, next - content - 4)});
    at = next + 2 + delimiter.size();
  }
  return parts;
}

}  // namespace gsparql::server
