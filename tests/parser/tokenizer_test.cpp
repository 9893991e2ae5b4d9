// The hand-written tokenizer against ANTLR's generated lexer: the same
// tokens (type, code point range, line, column, text) and the same first
// error, on the repository's query corpora, on edge cases of every token
// and on random soups of token pieces.
#include <random>

#include "helpers.h"
#include "parser/fuzz/token_streams.h"

using namespace gsparql::sparql;

namespace {

void checkSame(const std::string& text) {
  CAPTURE(text);
  const fuzz::TokenStream expected = fuzz::antlrTokens(text);
  const fuzz::TokenStream actual = fuzz::tokenizerTokens(text);
  CHECK(actual.tokens == expected.tokens);
  CHECK(actual.firstError == expected.firstError);
}

std::vector<std::filesystem::path> corpusFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto* dir : {GSPARQL_PARSER_TEST_DATA, GSPARQL_PARSER_FUZZ_CORPUS}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
  }
  return files;
}

}  // namespace

TEST_CASE("the tokenizer gives ANTLR's tokens on every corpus file") {
  const auto files = corpusFiles();
  REQUIRE(files.size() > 50);
  for (const auto& file : files) {
    CAPTURE(file);
    checkSame(test::readFile(file));
  }
}

TEST_CASE("the tokenizer gives ANTLR's tokens and first error on edge cases") {
  const std::vector<std::string> cases = {
      "", " ", "\n\n  ", "# only a comment", "SELECT * WHERE { ?s ?p ?o }", "select Select sElEcT",
      "selectx", "STRSTARTS(", "strstartsx", "isIRI isURI IRI", "SHA256 sha1 md5 MD55", "encode_for_uri GROUP_CONCAT",
      "a A ab a:b a.b:c a. a.:", "true false TRUE", "ex: ex:a ex:a. ex:a.b ex:a:b :a : ::", "ex:%41 ex:%4 ex:\\~x ex:\\q",
      "ex:-a ex:a- ex:.a ex:0 ex:a·", "_:b _:b. _:b.c _:0 _: _:-", "_x", "?x ?1 ?x·y ? ?? $x $ $1", "?x-y",
      "@en @en-US @en- @en-US-1 @ @1", "1 1. 1.5 .5 . 1e5 1E+5 1e 1.e5 .5e-3 .e5 1.5e", "+1 -1 +.5 -1.5e3 + - +. -e",
      "<a> <> <a b> <a\\u0041> <a\\t> < <= << <=> <\"> >= > >>", "!= ! || | && & ^^ ^ = ( ) [ ] { } , ; * /",
      "() ( ) (\n) ( x ) [] [ ] [ # c\n ]", "'a' 'a\\'b' '' ''' '''' '''a''' '''a''''", "\"a\" \"\" \"\"\"x\"\"\"y\"\"\"",
      "'''a\nb''' \"\"\"a\"\"b\"\"\"", "'unterminated", "\"broken\nline\"", "'bad \\q escape'", "'\\u12G4'",
      "\"\\U0001F600\" '\\u00e9'", "\"\"\"never closed", "`", "~", "\\", "%", "SELECT ?x WHERE { ?x ?y \"z }",
      "é ö:x Ωmega:b 中文:x · 😀:x '😀' <😀> ?😀", "x\ty\rz\r\nw", "PREFIX : <http://e/>\nSELECT * { :a :b 'c'@fr }",
      "ex:a\\.b ex:a%", "#c\r\n?x", "SELECT\t?x\n  # comment ?y\n{}", "'\t\\t'", "$", "@", "&", "_",
      "\xEF\xBB\xBF" "ASK {}", "\xEF\xBB\xBF\xEF\xBB\xBF" "ASK {}", "ASK {}\xEF\xBB\xBF"};
  for (const auto& text : cases) checkSame(text);
}

TEST_CASE("the tokenizer gives ANTLR's tokens and first error on random token soups") {
  // Pieces of every token, and pieces that break them.
  const std::vector<std::string> pieces = {
      "<", ">", "<http://e/x>", "a", "A", "\"", "'", "'''", "\"\"\"", "\\", "\\u00E9", "\\U0001F600", "\\u12", "_:",
      "_", "ex", ":", "%4", "%41", "\\.", ".", "1", "2.5", "e", "E", "+", "-", "?", "$", "@", "en", "-US", "(", ")",
      "[", "]", "{", "}", " ", "\n", "\r", "\t", "#", "select", "SELECT", "sha256", "Str", "x", "é", "·", "中", "😀",
      "^", "|", "&", "!", "=", ",", ";", "*", "/", "true", "`", "~", "\u0300", "\u203F", "0", "9"};
  std::mt19937 random(20261125);
  std::uniform_int_distribution<size_t> piece(0, pieces.size() - 1), length(1, 12);
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    for (size_t n = length(random); n > 0; --n) text += pieces[piece(random)];
    checkSame(text);
  }
}

TEST_CASE("a long run of name characters without ':' is tokenized in one pass") {
  // Each SELECT starts the run again; scanning the rest of the run from each
  // one (as a lexer looking for a prefixed name's ':' does) would take minutes.
  std::string text;
  for (int i = 0; i < 50000; ++i) text += "select";
  CodePointStream input(text.data(), text.size());
  Tokenizer tokenizer(input);
  size_t selects = 0;
  for (auto token = tokenizer.nextToken(); token->getType() != antlr4::Token::EOF; token = tokenizer.nextToken()) {
    CHECK(token->getType() == gsparql_antlr::SparqlLexer::SELECT);
    ++selects;
  }
  CHECK(selects == 50000);
  CHECK_FALSE(tokenizer.firstError());
}
