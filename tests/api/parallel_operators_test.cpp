// Filter and Extend split a large batch over the query's threads
// (engine/physical/row_chunks.h): the same rows as one thread, in the same
// order, on random data with repeated and distinct terms, computed values the
// data lacks (numbered after the threads), errors and unbound values; and an
// expression that calls back into the query (BNODE, EXISTS) stays on one
// thread. The threads are a TBB arena's, as the server gives each worker.
#include <doctest/doctest.h>
#include <tbb/task_arena.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "support/loaded_database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

const std::string kPrefixes = "PREFIX e: <http://e/> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";

// 12,000 subjects: a batch of over 4,096 rows, the least that is split.
std::string randomGraph(std::mt19937& random) {
  const std::vector<std::string> words = {"apple", "Banana", "cherry", "día", "straße", "日本", "zeta"};
  std::string graph;
  for (size_t s = 0; s < 12000; ++s) {
    const std::string subject = "<http://e/s" + std::to_string(s) + ">";
    graph += subject + " <http://e/p> \"" + std::to_string(random() % 300) + "\" .\n";
    graph += subject + " <http://e/q> \"" + words[random() % words.size()] + " " + std::to_string(random() % 5000) +
             "\"" + (random() % 3 == 0 ? "@en" : "") + " .\n";
    if (random() % 4 == 0) graph += subject + " <http://e/r> <http://e/o" + std::to_string(random() % 50) + "> .\n";
  }
  return graph;
}

// The rows of `query` on the CPU executor in their order, run on `threads` threads.
std::vector<std::string> resultOn(int threads, const Database& db, const std::string& query) {
  QueryOptions options;
  options.backend = Backend::Cpu;
  tbb::task_arena arena(threads);
  std::vector<std::string> rows;
  arena.execute([&] { rows = resultLines(db.query(kPrefixes + query, options)); });
  return rows;
}

// Each query gives at least `least` rows (something to compare) on one
// thread, and the same rows in the same order on two.
void checkSameOnTwoThreads(const Database& db, const std::vector<std::string>& queries, size_t least) {
  for (const std::string& query : queries) {
    CAPTURE(query);
    const std::vector<std::string> one = resultOn(1, db, query);
    CHECK(one.size() >= least);
    CHECK(resultOn(2, db, query) == one);
  }
}

}  // namespace

TEST_CASE("Filter and BIND on two threads give one thread's rows in its order") {
  std::mt19937 random(47);
  LoadedDatabase data(randomGraph(random));
  const std::vector<std::string> queries = {
      // a computed value per distinct number (numbered after the threads), one a row repeated by key
      "SELECT ?s ?v ?w { ?s e:p ?n BIND(xsd:integer(?n) * 3 + 1 AS ?v) BIND(?v / 7 AS ?w) FILTER(?w > 10) }",
      // mostly distinct strings, some tagged; values the data holds (STR of a plain literal)
      "SELECT ?s ?t ?u { ?s e:q ?t BIND(UCASE(SUBSTR(?t, 2, 4)) AS ?u) FILTER(STRLEN(?t) > 6 && !CONTAINS(?t, \"9\")) }",
      "SELECT ?s ?x { ?s e:q ?t BIND(STR(?t) AS ?x) FILTER(LANG(?t) = \"\") }",
      // expressions of two variables, errors (the cast of a word), unbound values (OPTIONAL)
      "SELECT ?s ?c ?o { ?s e:p ?n ; e:q ?t OPTIONAL { ?s e:r ?o } BIND(CONCAT(?n, \"-\", STR(?o)) AS ?c) "
      "BIND(xsd:integer(?t) AS ?err) FILTER(!BOUND(?err) && (BOUND(?o) || xsd:integer(?n) < 150)) }",
      "SELECT ?s ?h { ?s e:q ?t BIND(MD5(?t) AS ?h) FILTER(STRSTARTS(?h, \"a\") || REGEX(?t, \"^c\", \"i\")) }",
      // ORDER BY and a LIMIT over a Filter (which then tests rows only until it has them)
      "SELECT ?s ?v { ?s e:p ?n BIND(xsd:integer(?n) AS ?v) FILTER(?v > 100) } ORDER BY DESC(?v) ?s LIMIT 50",
      "SELECT ?s { ?s e:q ?t FILTER(CONTAINS(?t, \"7\")) } LIMIT 5",
  };
  checkSameOnTwoThreads(*data.db, queries, 5);
}

TEST_CASE("a BIND of few values over many terms gives each value one id on two threads") {
  std::mt19937 random(49);
  LoadedDatabase data(randomGraph(random));
  // Values the data lacks, numbered after the threads: GROUP BY and VALUES compare them by id.
  const std::string groups =
      "SELECT ?len (COUNT(*) AS ?n) { ?s e:q ?t BIND(IF(STRLEN(?t) > 9, \"long\", \"short\") AS ?len) } "
      "GROUP BY ?len ORDER BY ?len";
  CHECK(resultOn(2, *data.db, groups).size() == 2);
  const std::vector<std::string> queries = {
      groups,
      "SELECT ?s ?w { ?s e:q ?t BIND(IF(STRLEN(?t) > 9, \"long\", \"short\") AS ?w) VALUES ?w { \"long\" } }",
      // a term of the data, new distinct strings, errors
      "SELECT ?s ?k { ?s e:q ?t BIND(IF(CONTAINS(?t, \"a\"), e:o1, STR(?t)) AS ?k) }",
      "SELECT ?s ?k { ?s e:q ?t BIND(IF(STRLEN(?t) > 9, \"long\", 1/0) AS ?k) }",
      // BOUND and COALESCE over an OPTIONAL (WatDiv F12's shape)
      "SELECT ?h ?x (COUNT(*) AS ?n) { ?s e:q ?t OPTIONAL { ?s e:r ?o } BIND(IF(BOUND(?o), \"yes\", \"no\") AS ?h) "
      "BIND(COALESCE(?o, \"none\") AS ?x) FILTER(?x != \"\") } GROUP BY ?h ?x ORDER BY ?h ?x",
      // a FILTER that only tests BOUND, decided by boundness
      "SELECT ?s ?t { ?s e:q ?t OPTIONAL { ?s e:r ?o } FILTER(!BOUND(?o)) }",
  };
  checkSameOnTwoThreads(*data.db, queries, 1);
}

TEST_CASE("OPTIONAL by adjacency on two threads gives one thread's rows in its order") {
  std::mt19937 random(50);
  LoadedDatabase data(randomGraph(random));
  // One edge from the one shared variable (OptionalAdjacency), from either end; then bound by it.
  checkSameOnTwoThreads(*data.db,
                        {"SELECT ?s ?n ?o { ?s e:p ?n OPTIONAL { ?s e:r ?o } }",
                         "SELECT ?o ?s ?t { ?x e:r ?o OPTIONAL { ?s e:r ?o } OPTIONAL { ?s e:q ?t } }",
                         "SELECT ?s (COUNT(?o) AS ?n) { ?s e:q ?t OPTIONAL { ?s e:r ?o } } GROUP BY ?s ORDER BY ?s"},
                        4096);
}

TEST_CASE("BNODE and EXISTS keep a Filter and a BIND on one thread, with their meaning") {
  std::mt19937 random(48);
  LoadedDatabase data(randomGraph(random));
  // One blank node per row across both BINDs, a new one per row.
  const std::vector<std::string> lines =
      resultOn(2, *data.db, "SELECT ?x ?y { ?s e:p ?n BIND(BNODE(\"l\") AS ?x) BIND(BNODE(\"l\") AS ?y) }");
  REQUIRE(lines.size() > 4096);
  std::set<std::string> nodes;
  for (const std::string& line : lines) {
    const size_t tab = line.find('\t');
    CHECK(line.substr(0, tab) == line.substr(tab + 1));
    nodes.insert(line.substr(0, tab));
  }
  CHECK(nodes.size() == lines.size());
  const std::string exists = "SELECT ?s { ?s e:p ?n FILTER(EXISTS { ?s e:r ?o } && xsd:integer(?n) > 100) }";
  const std::vector<std::string> one = resultOn(1, *data.db, exists);
  CHECK(one.size() > 100);
  CHECK(resultOn(2, *data.db, exists) == one);
}

TEST_CASE("GROUP BY on two threads gives one thread's groups, aggregates and order") {
  std::mt19937 random(49);
  LoadedDatabase data(randomGraph(random));
  const std::vector<std::string> queries = {
      // sums of doubles, GROUP_CONCAT and SAMPLE depend on the order of a group's rows
      "SELECT ?n (COUNT(*) AS ?c) (SUM(xsd:double(?n) / 7) AS ?d) (AVG(xsd:decimal(?n)) AS ?a) "
      "(GROUP_CONCAT(?t; separator=\"|\") AS ?g) (SAMPLE(?t) AS ?x) (MIN(?t) AS ?lo) (MAX(?t) AS ?hi) "
      "{ ?s e:p ?n ; e:q ?t } GROUP BY ?n",
      // an unbound key is a group; DISTINCT of a plain variable and of an expression
      "SELECT ?o (COUNT(DISTINCT ?n) AS ?c) (GROUP_CONCAT(DISTINCT ?n) AS ?g) (SUM(DISTINCT xsd:integer(?n)) AS ?u) "
      "{ ?s e:p ?n OPTIONAL { ?s e:r ?o } } GROUP BY ?o",
      // two keys, COUNT of a variable, HAVING
      "SELECT ?n ?o (COUNT(?o) AS ?c) (COUNT(*) AS ?all) { ?s e:p ?n OPTIONAL { ?s e:r ?o } } GROUP BY ?n ?o "
      "HAVING (COUNT(*) > 1)",
      // a computed key stays on one thread
      "SELECT ?k (COUNT(*) AS ?c) (MAX(?n) AS ?m) { ?s e:p ?n } GROUP BY (xsd:integer(?n) / 10 AS ?k)",
  };
  checkSameOnTwoThreads(*data.db, queries, 20);
}

TEST_CASE("ORDER BY on two threads gives one thread's order, ties in input order, with and without LIMIT") {
  std::mt19937 random(50);
  LoadedDatabase data(randomGraph(random));
  const std::vector<std::string> queries = {
      // a whole sort with ties (300 numbers over 12,000 rows)
      "SELECT ?s ?n { ?s e:p ?n } ORDER BY ?n",
      // the first rows of chunks, then the first of those; an expression key with ties
      "SELECT ?s ?t { ?s e:q ?t } ORDER BY DESC(STRLEN(?t)) LIMIT 30 OFFSET 10",
      "SELECT ?s ?t { ?s e:q ?t } ORDER BY ?t DESC(?s) LIMIT 100",
      // a LIMIT whose rows outnumber a chunk's share
      "SELECT ?s ?n { ?s e:p ?n } ORDER BY DESC(?n) LIMIT 3000",
      // IRIs, numbers, strings and tagged strings in one key
      "SELECT ?x { { ?s e:r ?x } UNION { ?s e:q ?x } UNION { ?s e:p ?x } } ORDER BY ?x LIMIT 500",
  };
  checkSameOnTwoThreads(*data.db, queries, 30);
}
