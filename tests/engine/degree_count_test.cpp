// GROUP BY ?x with COUNT over one pattern `?x <p> ?y` is counted from the
// adjacency's degrees (engine/physical/degree_count.h): the groups and counts
// of the same query evaluated by grouping its rows (a FILTER(true) in the
// group keeps the planner from the degrees), on random graphs, both sides of
// the pattern, COUNT(*) and COUNT(?y), HAVING, named graphs, and a delta.
#include <doctest/doctest.h>

#include <random>
#include <set>

#include "gsparql/database.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// The query with the group's pattern as given, and the same grouped by rows.
struct Forms {
  std::string degrees, rows;
};

Forms forms(const std::string& select, const std::string& pattern, const std::string& after = "") {
  return {select + " WHERE { " + pattern + " } GROUP BY ?x" + after,
          select + " WHERE { " + pattern + " FILTER(true) } GROUP BY ?x" + after};
}

std::vector<Forms> queriesOf(const std::string& predicate) {
  return {
      forms("SELECT ?x (COUNT(*) AS ?n)", "?x " + predicate + " ?y"),
      forms("SELECT ?x (COUNT(*) AS ?n)", "?y " + predicate + " ?x"),
      forms("SELECT ?x (COUNT(?y) AS ?n) (COUNT(*) AS ?m)", "?x " + predicate + " ?y"),
      forms("SELECT ?x (COUNT(?x) AS ?n)", "?y " + predicate + " ?x", " HAVING (COUNT(?x) > 1)"),
      forms("SELECT ?x (COUNT(*) AS ?n)", "?x " + predicate + " _:b"),
  };
}

void checkAlike(const Database& db, const std::string& predicate, QueryOptions options, int& degreeCounted) {
  for (const Forms& f : queriesOf(predicate)) {
    CAPTURE(f.degrees);
    const QueryResult degrees = db.query(f.degrees, options);
    CHECK(sortedLines(degrees) == sortedLines(db.query(f.rows, options)));
    degreeCounted += degrees.explain().find("DegreeCount") != std::string::npos;
  }
}

}  // namespace

TEST_CASE("GROUP BY ?x with COUNT over one pattern, counted from degrees, gives the groups of its rows") {
  std::mt19937 random(44);
  int degreeCounted = 0, cases = 0;
  for (int i = 0; i < scaledCases(40); ++i) {
    const RandomCase c = randomCase(random);
    TempDir dir;
    Database db(loadGraph(dir.path(), c.graph));
    std::set<std::string> predicates;
    for (const StringTriple& t : c.graph) predicates.insert(t.p);
    predicates.insert("<http://example.org/absent>");
    for (const std::string& p : predicates) {
      checkAlike(db, p, {Backend::Cpu, Semantics::Homomorphism}, degreeCounted);
      // Injective matching leaves out `a p a`: grouped by rows, never by degrees.
      for (const Forms& f : queriesOf(p)) {
        const QueryResult iso = db.query(f.degrees, {Backend::Cpu, Semantics::Isomorphism});
        CHECK(sortedLines(iso) == sortedLines(db.query(f.rows, {Backend::Cpu, Semantics::Isomorphism})));
        CHECK(iso.explain().find("DegreeCount") == std::string::npos);
      }
      cases += 5;
    }
  }
  CHECK(degreeCounted == cases);
}

TEST_CASE("degree counts read the named graph FROM names, and a database's delta") {
  TempDir dir;
  writeFile(dir / "data.nq",
            "<http://e/a> <http://e/p> <http://e/b> .\n<http://e/a> <http://e/p> <http://e/c> .\n"
            "<http://e/a> <http://e/p> <http://e/a> <http://e/g> .\n<http://e/b> <http://e/p> <http://e/a> <http://e/g> .\n");
  Database::load(dir / "db", {(dir / "data.nq").string()});
  int degreeCounted = 0;
  {
    const Database db(dir / "db");
    checkAlike(db, "<http://e/p>", {Backend::Cpu, Semantics::Homomorphism}, degreeCounted);
    const std::string inG = "SELECT ?x (COUNT(*) AS ?n) FROM <http://e/g> WHERE { ?x <http://e/p> ?y } GROUP BY ?x";
    CHECK(sortedLines(db.query(inG)) == std::vector<std::string>{
                                            "<http://e/a>\t\"1\"^^<http://www.w3.org/2001/XMLSchema#integer>",
                                            "<http://e/b>\t\"1\"^^<http://www.w3.org/2001/XMLSchema#integer>"});
  }
  Database::update(dir / "db", "INSERT DATA { <http://e/c> <http://e/p> <http://e/a> . <http://e/a> <http://e/p> <http://e/d> }");
  const Database db(dir / "db");
  checkAlike(db, "<http://e/p>", {Backend::Cpu, Semantics::Homomorphism}, degreeCounted);
  CHECK(degreeCounted == 10);
  const QueryResult a = db.query("SELECT (COUNT(*) AS ?n) WHERE { <http://e/a> <http://e/p> ?y }");
  CHECK(sortedLines(db.query("SELECT ?n WHERE { { SELECT ?x (COUNT(*) AS ?n) WHERE { ?x <http://e/p> ?y } GROUP BY ?x } "
                             "FILTER(?x = <http://e/a>) }")) == sortedLines(a));
}
