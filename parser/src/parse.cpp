#include "parser/parse.h"

#include <set>

#include "SparqlLexer.h"
#include "SparqlParser.h"
#include "antlr4-runtime.h"
#include "parser/src/bgp_select_reader.h"
#include "parser/src/lexical.h"
#include "parser/src/parse_paths.h"
#include "parser/src/token_text.h"
#include "parser/src/tokenizer.h"
#include "parser/src/walker.h"

namespace gsparql::sparql {
namespace {

using gsparql_antlr::SparqlLexer;
using gsparql_antlr::SparqlParser;

std::string describeToken(antlr4::Token* t) {
  if (t->getType() == antlr4::Token::EOF) return "end of query";
  return "'" + t->getText() + "'";
}

std::string expectedTokens(antlr4::Parser* parser) {
  constexpr std::size_t kMaxListed = 12;
  try {
    auto expected = parser->getExpectedTokens().toList();
    if (expected.empty()) return {};
    std::string out;
    for (std::size_t i = 0; i < expected.size() && i < kMaxListed; ++i) {
      if (i) out += ", ";
      out += parser->getVocabulary().getDisplayName(expected[i]);
    }
    if (expected.size() > kMaxListed) out += ", ...";
    return out;
  } catch (const std::exception&) {
    return {};  // no expectation known in this parser state
  }
}

// Turns the first parser error into a SyntaxError.
class ThrowingListener : public antlr4::BaseErrorListener {
 public:
  explicit ThrowingListener(std::string_view text) : text_(text) {}

  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending, size_t line, size_t column,
                   const std::string& message, std::exception_ptr) override {
    Position pos{static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(column + 1)};
    auto* parser = dynamic_cast<antlr4::Parser*>(recognizer);
    if (!parser || !offending) throw SyntaxError(text_, pos, message);
    std::string expected = expectedTokens(parser);
    std::string text = "syntax error at " + describeToken(offending);
    if (!expected.empty()) text += ", expected " + expected;
    throw SyntaxError(text_, pos, text, offending->getText(), expected);
  }

 private:
  std::string_view text_;
};

bool isUpdateKeyword(std::size_t type) {
  switch (type) {
    case SparqlLexer::INSERT: case SparqlLexer::DELETE: case SparqlLexer::LOAD: case SparqlLexer::CLEAR:
    case SparqlLexer::DROP: case SparqlLexer::CREATE: case SparqlLexer::ADD: case SparqlLexer::MOVE:
    case SparqlLexer::COPY: case SparqlLexer::WITH:
      return true;
    default:
      return false;
  }
}

// The index of the first token after BASE and PREFIX declarations (the EOF
// token when nothing follows them).
std::size_t firstAfterPrologue(const std::vector<antlr4::Token*>& all) {
  std::size_t i = 0;
  while (i + 1 < all.size() && (all[i]->getType() == SparqlLexer::BASE || all[i]->getType() == SparqlLexer::PREFIX)) {
    i += all[i]->getType() == SparqlLexer::BASE ? 2 : 3;
  }
  return std::min(i, all.size() - 1);
}

Position positionOf(const antlr4::Token* t) {
  return {static_cast<std::uint32_t>(t->getLine()), static_cast<std::uint32_t>(t->getCharPositionInLine() + 1)};
}

// A query parser given an update says so, rather than report the first
// token (or the first character, DATA or INTO) the query grammar lacks.
void rejectUpdate(antlr4::CommonTokenStream& tokens, std::string_view text) {
  const auto& all = tokens.getTokens();
  antlr4::Token* first = all[firstAfterPrologue(all)];
  if (!isUpdateKeyword(first->getType())) return;
  throw SyntaxError(text, positionOf(first), kUpdateNotSupported, first->getText());
}

Position positionOfByte(std::string_view text, std::size_t offset) {
  Position pos{1, 1};
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++pos.column;
    }
  }
  return pos;
}


bool isChainingKeyword(std::size_t type) {
  switch (type) {
    case SparqlLexer::UNION: case SparqlLexer::OPTIONAL: case SparqlLexer::MINUS: case SparqlLexer::BIND:
    case SparqlLexer::VALUES: case SparqlLexer::GRAPH: case SparqlLexer::SERVICE: case SparqlLexer::AS:
    case SparqlLexer::INTEGER_POSITIVE: case SparqlLexer::DECIMAL_POSITIVE: case SparqlLexer::DOUBLE_POSITIVE:
    case SparqlLexer::INTEGER_NEGATIVE: case SparqlLexer::DECIMAL_NEGATIVE: case SparqlLexer::DOUBLE_NEGATIVE:
      return true;
    default:
      return false;
  }
}

// A token that can repeat to deepen the tree built around it: an operator
// that chains (expressions and paths; `?a -1` lexes the sign into the number)
// or a group element. Comparisons, IN and a single `!` take operands that are
// not themselves comparisons or negations, so they add at most one level per
// counted one and are left out; SPARQL 1.2's `!!x` nests, so a `!` after a
// `!` counts. Counting a few that add none (`SELECT *`)
// only makes the bound safer.
bool chains(const antlr4::Token* t, const std::string& s, const std::string& previous) {
  static const std::set<std::string, std::less<>> kOperators = {"||", "&&", "+", "-", "*", "/", "|", "^", "?", "{"};
  return isChainingKeyword(t->getType()) || kOperators.count(s) > 0 || (s == "!" && previous == "!");
}

// Every stage after the lexer recurses over trees as deep as the brackets
// plus the chains along one path, so hostile input (100k '(', a 1 MiB chain
// of '+') could overflow the stack. Both are bounded here, before any tree exists.
void checkDepth(antlr4::CommonTokenStream& tokens, std::string_view text) {
  std::vector<int> chained{0};  // per open bracket: the tokens that chain in it
  int chainDepth = 0;           // their sum: the chains along the path to here
  const TokenText textOf(text);
  std::string previous;
  for (auto* t : tokens.getTokens()) {
    std::string s = textOf(t);
    if (chains(t, s, previous)) {
      ++chained.back();
      if (++chainDepth > kMaxChainDepth) {
        throw SyntaxError(text, positionOf(t),
                          "more than " + std::to_string(kMaxChainDepth) +
                              " operators or group elements (||, +, UNION, OPTIONAL, ...) chained or nested here",
                          s);
      }
    }
    if (s == "(" || s == "[" || s == "{" || s == "<<(" || s == "<<" || s == "{|") {
      if (static_cast<int>(chained.size()) > kMaxNestingDepth) {
        throw SyntaxError(text, positionOf(t), "nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels", s);
      }
      chained.push_back(0);
    } else if ((s == ")" || s == "]" || s == "}" || s == ")>>" || s == ">>" || s == "|}") && chained.size() > 1) {
      chainDepth -= chained.back();
      chained.pop_back();
    }
    previous = std::move(s);
  }
}

// Names written in the query, so invented names avoid them.
std::set<std::string> namesInQuery(antlr4::CommonTokenStream& tokens, std::string_view text) {
  std::set<std::string> names;
  const TokenText textOf(text);
  for (auto* t : tokens.getTokens()) {
    auto type = t->getType();
    if (type == SparqlLexer::VAR1 || type == SparqlLexer::VAR2) names.insert(textOf(t).substr(1));
    if (type == SparqlLexer::BLANK_NODE_LABEL) names.insert(textOf(t).substr(2));
  }
  return names;
}

// Checked before anything else, so a huge text costs nothing.
void checkSize(std::string_view text, const ParseOptions& options) {
  if (text.size() <= options.maxQueryBytes) return;
  throw SyntaxError(text, positionOfByte(text, options.maxQueryBytes),
                    "query text of " + std::to_string(text.size()) + " bytes is longer than the limit of " +
                        std::to_string(options.maxQueryBytes) + " bytes (ParseOptions::maxQueryBytes)");
}

// Checked before anything else, so that a huge or invalid text costs nothing.
std::string_view checkedText(std::string_view text, const ParseOptions& options) {
  checkSize(text, options);
  if (auto bad = lexical::invalidUtf8Offset(text); bad != std::string_view::npos) {
    throw SyntaxError(text, positionOfByte(text, bad), "invalid UTF-8 sequence or NUL character");
  }
  return text;
}

// The tokens of a text that passed the checks every stage relies on (size,
// UTF-8, lexing, nesting), with the names fresh ones must avoid.
struct CheckedTokens {
  enum class Expected { Query, Update };
  CheckedTokens(std::string_view text, const ParseOptions& options, Expected expected)
      : listener(text), input(checkedText(text, options).data(), text.size()), tokenizer(input), tokens(&tokenizer) {
    tokens.fill();
    if (expected == Expected::Query) rejectUpdate(tokens, text);
    if (const auto& error = tokenizer.firstError()) {
      const Position pos{static_cast<std::uint32_t>(error->line), static_cast<std::uint32_t>(error->column + 1)};
      throw SyntaxError(text, pos, "unexpected character: " + error->message);
    }
    checkDepth(tokens, text);
  }

  ThrowingListener listener;
  CodePointStream input;
  Tokenizer tokenizer;
  antlr4::CommonTokenStream tokens;
};

// Two stages, as ANTLR recommends: the fast SLL prediction parses almost
// every text; only when it fails is it parsed again with full LL, which also
// produces the error message.
template <typename Context>
Context* parseTree(SparqlParser& parser, CheckedTokens& checked, Context* (SparqlParser::*rule)()) {
  parser.removeErrorListeners();
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  try {
    return (parser.*rule)();
  } catch (const antlr4::ParseCancellationException&) {
    checked.tokens.seek(0);
    parser.reset();
    parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
    parser.addErrorListener(&checked.listener);
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::LL);
    return (parser.*rule)();
  }
}

// Parses checked text with the grammar's `rule`, then hands the tree to `walk`.
template <typename Context, typename Walk>
auto parseWith(std::string_view text, const ParseOptions& options, CheckedTokens& checked,
               Context* (SparqlParser::*rule)(), Walk walk) {
  FreshNames fresh(namesInQuery(checked.tokens, text));
  SparqlParser parser(&checked.tokens);
  auto* tree = parseTree(parser, checked, rule);
  Walker walker(text, fresh, options.base);
  return walk(walker, tree);
}

Query queryFromTree(std::string_view text, const ParseOptions& options, CheckedTokens& checked) {
  return parseWith(text, options, checked, &SparqlParser::queryUnit,
                   [](Walker& walker, SparqlParser::QueryUnitContext* tree) {
                     Query query = walker.query(tree);
                     query.prefixes = walker.prefixes();
                     query.base = walker.base();
                     return query;
                   });
}

std::optional<Query> readDirectly(std::string_view text, const ParseOptions& options, CheckedTokens& checked) {
  FreshNames fresh(namesInQuery(checked.tokens, text));
  return readBgpSelect(text, checked.tokens.getTokens(), fresh, options.base);
}

}  // namespace

Query parseQuery(std::string_view text, const ParseOptions& options) {
  CheckedTokens checked(text, options, CheckedTokens::Expected::Query);
  if (auto query = readDirectly(text, options, checked)) return *std::move(query);
  return queryFromTree(text, options, checked);
}

Query parseQueryWithGrammar(std::string_view text, const ParseOptions& options) {
  CheckedTokens checked(text, options, CheckedTokens::Expected::Query);
  return queryFromTree(text, options, checked);
}

std::optional<Query> readQueryDirectly(std::string_view text, const ParseOptions& options) {
  CheckedTokens checked(text, options, CheckedTokens::Expected::Query);
  return readDirectly(text, options, checked);
}

UpdateRequest parseUpdate(std::string_view text, const ParseOptions& options) {
  CheckedTokens checked(text, options, CheckedTokens::Expected::Update);
  return parseWith(text, options, checked, &SparqlParser::updateUnit,
                   [](Walker& walker, SparqlParser::UpdateUnitContext* tree) {
                     UpdateRequest request = walker.update(tree);
                     request.prefixes = walker.prefixes();
                     return request;
                   });
}

bool isUpdateRequest(std::string_view text) {
  if (lexical::invalidUtf8Offset(text) != std::string_view::npos) return false;
  CodePointStream input(text.data(), text.size());
  Tokenizer tokenizer(input);
  antlr4::CommonTokenStream tokens(&tokenizer);
  tokens.fill();
  const auto& all = tokens.getTokens();
  return isUpdateKeyword(all[firstAfterPrologue(all)]->getType());
}

}  // namespace gsparql::sparql
