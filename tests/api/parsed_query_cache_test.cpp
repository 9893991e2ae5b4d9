// The process's cache of parsed query texts: a text is parsed once while it
// stays among the recent ones, per base IRI; errors, long texts and the
// least recently used entries are not kept.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "api/parsed_query_cache.h"
#include "parser/parse.h"

using namespace gsparql;

namespace {

// Parses as the API does, counting the parses.
struct CountingParser {
  int parses = 0;
  ParsedQueryCache::Parse of(const std::string& text) {
    return [this, text] {
      ++parses;
      return sparql::parseQuery(text, {});
    };
  }
};

const std::string kA = "SELECT ?s WHERE { ?s ?p ?o }";
const std::string kB = "ASK { ?s <http://e/p> ?o }";
const std::string kC = "SELECT * WHERE { ?s <http://e/q> ?o } LIMIT 1";

}  // namespace

TEST_CASE("a parsed query is reused for the same text and base, and made again for another base") {
  ParsedQueryCache cache;
  CountingParser parser;
  const auto first = cache.get("", kA, parser.of(kA));
  const auto second = cache.get("", kA, parser.of(kA));
  CHECK(parser.parses == 1);
  CHECK(first == second);  // the same parse, shared
  CHECK(first->form == sparql::Query::Form::Select);
  const auto otherBase = cache.get("http://e/", kA, parser.of(kA));
  CHECK(parser.parses == 2);
  CHECK(otherBase != first);
  CHECK(cache.get("", kB, parser.of(kB))->form == sparql::Query::Form::Ask);
  CHECK(cache.size() == 3);
}

TEST_CASE("the least recently used text goes when the cache is full") {
  ParsedQueryCache cache(2);
  CountingParser parser;
  cache.get("", kA, parser.of(kA));
  cache.get("", kB, parser.of(kB));
  cache.get("", kA, parser.of(kA));  // A is now the more recent
  cache.get("", kC, parser.of(kC));  // B goes
  CHECK(parser.parses == 3);
  CHECK(cache.size() == 2);
  cache.get("", kA, parser.of(kA));
  CHECK(parser.parses == 3);
  cache.get("", kB, parser.of(kB));
  CHECK(parser.parses == 4);
}

TEST_CASE("syntax errors and texts over the size limit are not kept") {
  ParsedQueryCache cache(8, kC.size() - 1);
  CountingParser parser;
  cache.get("", kC, parser.of(kC));
  cache.get("", kC, parser.of(kC));
  CHECK(parser.parses == 2);
  CHECK(cache.size() == 0);
  const std::string broken = "SELECT WHERE {";
  for (int i = 0; i < 2; ++i) CHECK_THROWS_AS(cache.get("", broken, parser.of(broken)), sparql::SyntaxError);
  CHECK(parser.parses == 4);
  CHECK(cache.size() == 0);
}
