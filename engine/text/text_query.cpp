#include "engine/text/text_query.h"

#include <algorithm>

#include "storage/text_words.h"

namespace gsparql::engine::text {

namespace {

enum class Conjunction : uint8_t { None, And, Or };
enum class Modifier : uint8_t { None, Required, Excluded };

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
bool endsTerm(char c) { return isSpace(c) || c == '(' || c == ')' || c == '"'; }

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  TextNode parse() {
    if (text_.size() > kMaxSearchTextBytes) {
      fail("the search text has " + std::to_string(text_.size()) + " bytes, more than the " +
               std::to_string(kMaxSearchTextBytes) + " allowed",
           kMaxSearchTextBytes);
    }
    TextNode query = group(0);
    if (at_ < text_.size()) fail("')' without '('", at_);
    if (!hasWords(query)) fail("the search text has no word to look for", 0);
    if (onlyExcludes(query)) fail("a search that only excludes words matches nothing", 0);
    return query;
  }

 private:
  [[noreturn]] static void fail(const std::string& message, size_t offset) { throw TextQueryError(message, offset); }

  static bool hasWords(const TextNode& node) {
    if (node.kind != TextNode::Kind::Group) return true;
    return std::any_of(node.clauses.begin(), node.clauses.end(), [](const auto& c) { return hasWords(c.node); });
  }

  static bool onlyExcludes(const TextNode& group) {
    return std::all_of(group.clauses.begin(), group.clauses.end(), [](const auto& c) { return c.occur == Occur::MustNot; });
  }

  void skipSpaces() {
    while (at_ < text_.size() && isSpace(text_[at_])) ++at_;
  }

  // An operator word (AND, OR, NOT, &&, ||, !) standing alone at `at_`.
  bool takeOperator(std::string_view name) {
    if (text_.substr(at_, name.size()) != name) return false;
    const size_t end = at_ + name.size();
    const bool symbol = !std::isalpha(static_cast<unsigned char>(name[0]));
    if (!symbol && end < text_.size() && !endsTerm(text_[end])) return false;
    at_ = end;
    return true;
  }

  TextNode group(size_t depth) {
    if (depth > kMaxTextNesting) fail("parentheses nested more than " + std::to_string(kMaxTextNesting) + " deep", at_);
    TextNode node;
    node.kind = TextNode::Kind::Group;
    for (skipSpaces(); at_ < text_.size() && text_[at_] != ')'; skipSpaces()) {
      const size_t start = at_;
      Conjunction conjunction = Conjunction::None;
      if (takeOperator("AND") || takeOperator("&&")) {
        conjunction = Conjunction::And;
      } else if (takeOperator("OR") || takeOperator("||")) {
        conjunction = Conjunction::Or;
      }
      skipSpaces();
      const Modifier modifier = takeModifier();
      skipSpaces();
      if (at_ >= text_.size() || text_[at_] == ')') fail("an operator without a word after it", start);
      TextNode operand = clause(depth);
      if (conjunction != Conjunction::None && node.clauses.empty()) fail("an operator without a word before it", start);
      add(node, conjunction, modifier, std::move(operand), start);
    }
    if (depth > 0 && at_ >= text_.size()) fail("'(' without ')'", text_.size());
    return node;
  }

  Modifier takeModifier() {
    if (at_ < text_.size() && text_[at_] == '+') return ++at_, Modifier::Required;
    if (at_ < text_.size() && text_[at_] == '-') return ++at_, Modifier::Excluded;
    if (takeOperator("NOT") || takeOperator("!")) return Modifier::Excluded;
    return Modifier::None;
  }

  // Lucene's classic rule, with OR the default operator: AND makes the
  // clauses on both sides required; a modifier decides its own clause.
  void add(TextNode& node, Conjunction conjunction, Modifier modifier, TextNode operand, size_t start) {
    if (operand.kind == TextNode::Kind::Words && operand.words.empty()) return;  // no word in it ("!!!")
    if (node.clauses.size() >= kMaxTextClauses) {
      fail("more than " + std::to_string(kMaxTextClauses) + " clauses in one group", start);
    }
    if (conjunction == Conjunction::And && !node.clauses.empty() && node.clauses.back().occur != Occur::MustNot) {
      node.clauses.back().occur = Occur::Must;
    }
    Occur occur = conjunction == Conjunction::And ? Occur::Must : Occur::Should;
    if (modifier == Modifier::Required) occur = Occur::Must;
    if (modifier == Modifier::Excluded) occur = Occur::MustNot;
    node.clauses.push_back({occur, std::move(operand)});
  }

  TextNode clause(size_t depth) {
    const size_t start = at_;
    if (text_[at_] == '(') {
      ++at_;
      TextNode inner = group(depth + 1);
      ++at_;  // ')': group() stops only there or at the end, which it reports
      if (!hasWords(inner)) return {};
      if (onlyExcludes(inner)) fail("a group that only excludes words matches nothing", start);
      return inner;
    }
    if (text_[at_] == '"') return phrase();
    return term();
  }

  TextNode phrase() {
    const size_t start = at_++;
    std::string raw;
    for (; at_ < text_.size() && text_[at_] != '"'; ++at_) {
      if (text_[at_] == '\\' && at_ + 1 < text_.size()) ++at_;
      raw += text_[at_];
    }
    if (at_ >= text_.size()) fail("a '\"' without its closing '\"'", start);
    ++at_;
    return wordsOf(raw);
  }

  TextNode term() {
    const size_t start = at_;
    std::string raw;
    bool escapedLast = false;
    for (; at_ < text_.size() && !endsTerm(text_[at_]); ++at_) {
      const char c = text_[at_];
      escapedLast = c == '\\' && at_ + 1 < text_.size();
      if (escapedLast) {
        raw += text_[++at_];
        continue;
      }
      if (c == '?' || (c == '*' && (at_ + 1 < text_.size() && !endsTerm(text_[at_ + 1])))) {
        fail("wildcards other than a '*' that ends a word are not supported", at_);
      }
      if (c == '~' || c == '^') fail(std::string("fuzzy and boosted terms ('") + c + "') are not supported", at_);
      raw += c;
    }
    if (!raw.empty() && raw.back() == '*' && !escapedLast) return prefix(raw.substr(0, raw.size() - 1), start);
    return wordsOf(raw);
  }

  TextNode prefix(const std::string& raw, size_t start) {
    const std::vector<std::string>& words = splitter_.split(raw);
    if (words.size() != 1) fail("a '*' must end a word (a prefix of one word)", start);
    TextNode node;
    node.kind = TextNode::Kind::Prefix;
    node.words = words;
    return node;
  }

  TextNode wordsOf(const std::string& raw) {
    TextNode node;
    node.words = splitter_.split(raw);
    return node;
  }

  std::string_view text_;
  size_t at_ = 0;
  WordSplitter splitter_;
};

}  // namespace

TextNode parseTextQuery(std::string_view text) { return Parser(text).parse(); }

}  // namespace gsparql::engine::text
