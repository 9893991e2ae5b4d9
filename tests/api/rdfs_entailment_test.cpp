// RDFS entailment (QueryOptions::entailment, engine/logical/rdfs_entailment.h)
// against Apache Jena's RDFS rule reasoner on random schemas and data: the
// rows of patterns over the data's own classes, properties and resources
// (Jena's reasoner also derives the vocabulary's triples, which gsparql
// leaves out: docs/engine.md#rdfs-entailment).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "support/test_support.h"

namespace {

using namespace gsparql;
using test::TempDir;

std::string e(const std::string& local, int i) { return "<http://e/" + local + std::to_string(i) + ">"; }

const std::string kType = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
std::string rdfs(const std::string& local) { return "<http://www.w3.org/2000/01/rdf-schema#" + local + ">"; }

// Classes C0-C7 and properties p0-p5 in random hierarchies (cycles too),
// with domains and ranges, over resources r0-r29 typed and linked at random:
// IRIs, plain literals and blank nodes as objects.
std::string randomGraph(std::mt19937& random) {
  std::uniform_int_distribution<int> cls(0, 7), prop(0, 5), res(0, 29), coin(0, 3);
  std::string nt;
  const auto triple = [&](const std::string& s, const std::string& p, const std::string& o) {
    nt += s + " " + p + " " + o + " .\n";
  };
  for (int i = 0; i < 9; ++i) triple(e("C", cls(random)), rdfs("subClassOf"), e("C", cls(random)));
  for (int i = 0; i < 5; ++i) triple(e("p", prop(random)), rdfs("subPropertyOf"), e("p", prop(random)));
  for (int i = 0; i < 4; ++i) triple(e("p", prop(random)), rdfs("domain"), e("C", cls(random)));
  for (int i = 0; i < 4; ++i) triple(e("p", prop(random)), rdfs("range"), e("C", cls(random)));
  for (int i = 0; i < 30; ++i) {
    if (coin(random) != 0) triple(e("r", i), kType, e("C", cls(random)));
  }
  for (int i = 0; i < 60; ++i) {
    const std::string s = e("r", res(random)), p = e("p", prop(random));
    switch (coin(random)) {
      case 0: triple(s, p, "\"v" + std::to_string(i) + "\""); break;
      case 1:
        triple(s, p, "_:b" + std::to_string(i));
        triple("_:b" + std::to_string(i), kType, e("C", cls(random)));
        break;
      default: triple(s, p, e("r", res(random)));
    }
  }
  return nt;
}

// One query of several tagged parts: types, triples of the data's
// properties, joins through a blank node and a variable predicate, EXISTS.
const std::string kQuery = R"(PREFIX e: <http://e/>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
SELECT ?q ?a ?b ?c WHERE {
  { ?a rdf:type ?b FILTER(STRSTARTS(STR(?b), "http://e/") && !isBlank(?a)) BIND("types" AS ?q) }
  UNION { ?a ?b ?c FILTER(?b != rdf:type && STRSTARTS(STR(?b), "http://e/") && !isBlank(?c)) BIND("triples" AS ?q) }
  UNION { ?a e:p0 ?b . ?b a e:C1 BIND("join" AS ?q) }
  UNION { ?a e:p1 [ a e:C2 ] BIND("blank" AS ?q) }
  UNION { e:r3 ?b ?c FILTER((STRSTARTS(STR(?b), "http://e/") || (?b = rdf:type && STRSTARTS(STR(?c), "http://e/")))
                            && !isBlank(?c)) BIND("any" AS ?q) }
  UNION { ?a a e:C0 . ?a e:p2 ?c FILTER(!isBlank(?c)) BIND("constant" AS ?q) }
  UNION { ?a a e:C3 FILTER EXISTS { ?a a e:C4 } BIND("exists" AS ?q) }
})";

// Rows sorted, each blank node's label left out (the engines label them apart).
std::vector<std::string> unlabelled(std::vector<std::string> rows) {
  for (std::string& row : rows) {
    for (size_t at = row.find("_:"); at != std::string::npos; at = row.find("_:", at + 2)) {
      row.erase(at + 2, row.find('\t', at) == std::string::npos ? std::string::npos : row.find('\t', at) - at - 2);
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::vector<std::string> ours(Database& db, Entailment entailment) {
  QueryOptions options;
  options.backend = Backend::Cpu;
  options.entailment = entailment;
  return unlabelled(test::sortedLines(db.query(kQuery, options)));
}

std::vector<std::string> jenas(const std::filesystem::path& data, const TempDir& work) {
  test::writeFile(work / "query.rq", kQuery);
  const std::string command = std::string(GSPARQL_JENA_RDFS) + " " + data.string() + " " +
                              (work / "query.rq").string() + " " + (work / "jena.tsv").string();
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  std::vector<std::string> lines = test::readLines(work / "jena.tsv");
  lines.erase(lines.begin());  // the header
  return unlabelled(lines);
}

std::string lines(const std::vector<std::string>& rows) {
  std::string out;
  for (const std::string& row : rows) out += "\n  " + row;
  return out;
}

}  // namespace

TEST_CASE("RDFS entailment gives the rows of Jena's RDFS reasoner on the data's classes and properties") {
  size_t entailedOnly = 0;
  for (const unsigned seed : {3u, 8u, 21u}) {
    CAPTURE(seed);
    std::mt19937 random(seed);
    TempDir dir;
    test::writeFile(dir / "data.nt", randomGraph(random));
    Database::load(dir / "db", {(dir / "data.nt").string()});
    Database db(dir / "db");
    const std::vector<std::string> entailed = ours(db, Entailment::Rdfs), simple = ours(db, Entailment::Simple);
    const std::vector<std::string> expected = jenas(dir / "data.nt", dir);
    std::vector<std::string> missing, unexpected;
    std::set_difference(expected.begin(), expected.end(), entailed.begin(), entailed.end(), std::back_inserter(missing));
    std::set_difference(entailed.begin(), entailed.end(), expected.begin(), expected.end(),
                        std::back_inserter(unexpected));
    CAPTURE(lines(missing));
    CAPTURE(lines(unexpected));
    CHECK(missing.empty());
    CHECK(unexpected.empty());
    CHECK(std::includes(entailed.begin(), entailed.end(), simple.begin(), simple.end()));
    entailedOnly += entailed.size() - simple.size();
  }
  CHECK(entailedOnly > 100);  // the schemas entail many rows the stored triples do not hold
}

TEST_CASE("without a schema, RDFS entailment leaves the query as it is") {
  TempDir dir;
  test::writeFile(dir / "data.nt", "<http://e/r0> <http://e/p0> <http://e/r1> .\n<http://e/r1> " + kType + " <http://e/C0> .\n");
  Database::load(dir / "db", {(dir / "data.nt").string()});
  Database db(dir / "db");
  CHECK(ours(db, Entailment::Rdfs) == ours(db, Entailment::Simple));
  QueryOptions options;
  options.entailment = Entailment::Rdfs;
  options.explain = true;
  CHECK(db.query("SELECT * { ?a a ?b }", options).explain().find("Distinct") == std::string::npos);
}

TEST_CASE("RDFS entailment refuses, with an error, a hierarchy too large to write out, and answers what it can") {
  // A chain of 500 classes: 124,750 (sub, super) pairs, more than the 100,000 written out.
  std::string data = "<http://e/r0> " + kType + " <http://e/C0> .\n";
  for (int i = 0; i + 1 < 500; ++i) data += e("C", i) + " " + rdfs("subClassOf") + " " + e("C", i + 1) + " .\n";
  TempDir dir;
  test::writeFile(dir / "data.nt", data);
  Database::load(dir / "db", {(dir / "data.nt").string()});
  Database db(dir / "db");
  QueryOptions options;
  options.backend = Backend::Cpu;
  options.entailment = Entailment::Rdfs;
  CHECK_THROWS_WITH_AS(db.query("SELECT ?x ?c { ?x a ?c }", options),
                       doctest::Contains("too many to answer patterns of any type or property"), QueryError);
  // A constant class needs only the classes below it.
  CHECK(test::sortedLines(db.query("SELECT ?x { ?x a <http://e/C499> }", options)) ==
        std::vector<std::string>{"<http://e/r0>"});
}
