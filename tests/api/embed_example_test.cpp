#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/test_support.h"

using namespace gsparql::test;

TEST_CASE("the embedding example loads, queries and prints rows") {
  TempDir dir;
  writeFile(dir / "data.nt",
            "<http://e/alice> <http://e/knows> <http://e/bob> .\n"
            "<http://e/bob> <http://e/knows> <http://e/carol> .\n"
            "<http://e/alice> <http://e/name> \"Alice\"@en .\n");
  std::string command = std::string(GSPARQL_EMBED_EXAMPLE) + " " + (dir / "db").string() + " " +
                        (dir / "data.nt").string() +
                        " 'SELECT ?a ?c WHERE { ?a <http://e/knows> ?b . ?b <http://e/knows> ?c }' > " +
                        (dir / "out.txt").string() + " 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  auto lines = readLines(dir / "out.txt");
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "loaded 3 triples");
  CHECK(lines[1] == "?a\t?c\t");
  CHECK(lines[2] == "<http://e/alice>\t<http://e/carol>\t");
  CHECK(lines[3] == "1 rows");
}

TEST_CASE("the embedding example reports a bad query with its position") {
  TempDir dir;
  writeFile(dir / "data.nt", "<http://e/a> <http://e/b> <http://e/c> .\n");
  std::string command = std::string(GSPARQL_EMBED_EXAMPLE) + " " + (dir / "db").string() + " " +
                        (dir / "data.nt").string() + " 'SELECT ?x WHERE { ?x }' > " + (dir / "out.txt").string() +
                        " 2>&1";
  CHECK(std::system(command.c_str()) != 0);
  auto lines = readLines(dir / "out.txt");
  REQUIRE(lines.size() >= 2);
  CHECK(lines[1].starts_with("query error at 1:"));
}
