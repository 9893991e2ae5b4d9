// readTokens: the parser's tokens of text that may not be finished yet, with
// byte offsets (what the REPL reads to find where statements end).
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "parser/statement_tokens.h"

namespace {

using gsparql::sparql::readTokens;
using gsparql::sparql::TokenKind;

std::vector<TokenKind> kinds(std::string_view text) {
  std::vector<TokenKind> out;
  for (const auto& token : readTokens(text).tokens) out.push_back(token.kind);
  return out;
}

std::vector<std::string> texts(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& token : readTokens(text).tokens) out.emplace_back(text.substr(token.begin, token.end - token.begin));
  return out;
}

}  // namespace

TEST_CASE("tokens carry their kinds and byte offsets, without white space and comments") {
  const std::string_view text = "prefix ex: <http://e/a;b> # c ; d\nSELECT * { ?s ex:p \"x;y\" ; ex:q 'é' } ;";
  CHECK(texts(text) == std::vector<std::string>{"prefix", "ex:", "<http://e/a;b>", "SELECT", "*", "{", "?s", "ex:p",
                                                "\"x;y\"", ";", "ex:q", "'é'", "}", ";"});
  CHECK(kinds(text) == std::vector<TokenKind>{TokenKind::Prefix, TokenKind::PrefixName, TokenKind::Iri,
                                              TokenKind::Other, TokenKind::Other, TokenKind::Open, TokenKind::Other,
                                              TokenKind::Other, TokenKind::String, TokenKind::Semicolon,
                                              TokenKind::Other, TokenKind::String, TokenKind::Close,
                                              TokenKind::Semicolon});
  CHECK(kinds("BASE <x:> ( [ ) ]") == std::vector<TokenKind>{TokenKind::Base, TokenKind::Iri, TokenKind::Open,
                                                             TokenKind::Open, TokenKind::Close, TokenKind::Close});
  // '<' as less-than is no IRI.
  CHECK(texts("FILTER(?o < 3) ;") == std::vector<std::string>{"FILTER", "(", "?o", "<", "3", ")", ";"});
}

TEST_CASE("characters that start no token are tokens of their own, blanks and comments none") {
  CHECK(readTokens("  \n\t# x ; y\n  ").tokens.empty());
  CHECK(texts("` ;") == std::vector<std::string>{"`", ";"});
  CHECK(kinds("`") == std::vector<TokenKind>{TokenKind::Other});
  // The tokenizer skips the character where a token failed, as ANTLR's lexer
  // does; a ';' or bracket skipped so keeps its kind.
  CHECK(texts("SELECT nonsense;{") == std::vector<std::string>{"SELECT", "n", "o", "n", "s", "e", "n", "s", "e", ";", "{"});
  CHECK(kinds("x;y}") == std::vector<TokenKind>{TokenKind::Other, TokenKind::Semicolon, TokenKind::Other,
                                                 TokenKind::Close});
  // A byte order mark is skipped; offsets still count its bytes.
  const std::string_view withMark = "\xEF\xBB\xBF" "ASK {}";
  REQUIRE(readTokens(withMark).tokens.size() == 3);
  CHECK(readTokens(withMark).tokens[0].begin == 3);
}

TEST_CASE("a long string the text does not close yet hides the rest of the text") {
  for (std::string_view quote : {"'''", "\"\"\""}) {
    const std::string text = "INSERT DATA { <a> <b> " + std::string(quote) + "x } ; y\"\" ;";
    const auto read = readTokens(text);
    REQUIRE(read.unfinishedLongString);
    CHECK(*read.unfinishedLongString == text.find(quote));
    CHECK(read.tokens.size() == 5);  // INSERT DATA { <a> <b>
    CHECK_FALSE(readTokens(text + std::string(quote) + " }").unfinishedLongString);
  }
  // An empty short string is finished.
  CHECK_FALSE(readTokens("ASK { ?s ?p '' }").unfinishedLongString);
  CHECK_FALSE(readTokens("ASK { ?s ?p \"\" }").unfinishedLongString);
}
