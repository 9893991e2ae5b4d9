#include "server/http_exchange.h"

#include <algorithm>
#include <cctype>

namespace gsparql::server {
namespace {

// Header names are case-insensitive (RFC 9110 5.1).
bool sameName(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  });
}

}  // namespace

std::string HttpRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (sameName(key, name)) return value;
  }
  return {};
}

void HttpResponse::setHeader(std::string name, std::string value) {
  eraseHeader(name);
  headers.emplace_back(std::move(name), std::move(value));
}

void HttpResponse::eraseHeader(std::string_view name) {
  std::erase_if(headers, [&](const auto& header) { return sameName(header.first, name); });
}

void HttpResponse::setContent(std::string content, std::string mediaType) {
  body = std::move(content);
  setHeader("Content-Type", std::move(mediaType));
}

}  // namespace gsparql::server
