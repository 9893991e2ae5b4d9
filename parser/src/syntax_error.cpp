#include "parser/syntax_error.h"

#include <algorithm>

namespace gsparql::sparql {
namespace {

std::string_view lineOf(std::string_view text, std::uint32_t line) {
  for (std::uint32_t i = 1; i < line; ++i) {
    auto nl = text.find('\n');
    if (nl == std::string_view::npos) return {};
    text.remove_prefix(nl + 1);
  }
  auto end = text.find_first_of("\r\n");
  return end == std::string_view::npos ? text : text.substr(0, end);
}

// Columns count code points; the caret line copies tabs so it lines up.
std::string caretUnder(std::string_view line, std::uint32_t column) {
  std::string caret;
  std::uint32_t cp = 1;
  for (char c : line) {
    if (cp >= column) break;
    if ((static_cast<unsigned char>(c) & 0xC0) == 0x80) continue;  // UTF-8 continuation byte
    caret += c == '\t' ? '\t' : ' ';
    ++cp;
  }
  for (; cp < column; ++cp) caret += ' ';
  caret += '^';
  return caret;
}

std::string render(std::string_view query, Position pos, const std::string& message) {
  std::string out = std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " + message;
  if (pos.line == 0) return out;
  std::string_view line = lineOf(query, pos.line);
  constexpr std::size_t kMaxShown = 200;  // a minified query can be one huge line
  if (line.size() > kMaxShown) return out;
  out.append("\n  ").append(line).append("\n  ").append(caretUnder(line, pos.column));
  return out;
}

}  // namespace

SyntaxError::SyntaxError(std::string_view query, Position pos, std::string message,
                         std::string offendingToken, std::string expected)
    : std::runtime_error(render(query, pos, message)),
      pos_(pos),
      message_(std::move(message)),
      token_(std::move(offendingToken)),
      expected_(std::move(expected)) {}

}  // namespace gsparql::sparql
