#pragma once
// The search text of a text query in the syntax of Lucene's classic query
// parser, which Jena's `text:query` passes its text to: words (OR between
// them by default), `AND`, `OR`, `NOT`, `+word` (required), `-word`
// (excluded), `"a phrase"`, `prefix*` and parentheses. Words are split and
// lower-cased as the index's are (storage/text_words.h); a bare term that
// splits into several words ("e-mail") is a phrase of them.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gsparql::engine::text {

enum class Occur : uint8_t { Should, Must, MustNot };

struct TextNode {
  enum class Kind : uint8_t { Words, Prefix, Group };
  Kind kind = Kind::Words;
  // Words: one word, or a phrase (consecutive in the literal); Prefix: one, lower case.
  std::vector<std::string> words;
  struct Clause;
  std::vector<Clause> clauses;  // Group
};

struct TextNode::Clause {
  Occur occur = Occur::Should;
  TextNode node;
};

// A search text that is not a query: what is wrong and at which byte of it.
class TextQueryError : public std::runtime_error {
 public:
  TextQueryError(const std::string& message, size_t offset) : std::runtime_error(message), offset(offset) {}
  size_t offset;
};

// Limits that keep a query's work bounded whatever it is sent.
inline constexpr size_t kMaxSearchTextBytes = 16 * 1024;
inline constexpr size_t kMaxTextClauses = 1024;
inline constexpr size_t kMaxTextNesting = 32;

// The query of `text` as a group; throws TextQueryError for an empty text,
// one with no word, unbalanced quotes or parentheses, a leading wildcard,
// one over the limits above, or one that only excludes.
TextNode parseTextQuery(std::string_view text);

}  // namespace gsparql::engine::text
