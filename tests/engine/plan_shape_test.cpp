// The operator trees the planner chooses (QLever's QueryPlannerTest style):
// each query's plan, as run by engine::runQuery on a small database, is
// matched against a tree of h:: matchers (plan_matchers.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>

#include "engine/bgp/executor.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/logical/logical_plan.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/planner/planner.h"
#include "engine/query/query_runner.h"
#include "gsparql/database.h"
#include "parser/parse.h"
#include "plan_matchers.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// 40 triples of <big>, 2 of <small>, a <knows> chain and a few numbers.
std::string testData() {
  std::string nt;
  for (int i = 0; i < 40; ++i) {
    nt += "<http://e/s" + std::to_string(i) + "> <http://e/big> <http://e/o" + std::to_string(i % 5) + "> .\n";
  }
  nt += "<http://e/o1> <http://e/small> <http://e/t1> .\n";
  nt += "<http://e/o2> <http://e/small> \"x\" .\n";
  nt += "<http://e/s0> <http://e/knows> <http://e/s1> .\n";
  nt += "<http://e/s1> <http://e/knows> <http://e/s2> .\n";
  nt += "<http://e/s0> <http://e/age> \"30\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n";
  return nt;
}

class Fixture {
 public:
  Fixture() {
    writeFile(dir_ / "data.nt", testData());
    Database::load(dir_ / "db", {(dir_ / "data.nt").string()});
    store_ = std::make_unique<GraphStore>(dir_ / "db");
  }

  // The plan runQuery ran (what --explain shows).
  std::shared_ptr<engine::Operator> run(const std::string& text) const {
    const sparql::Query query = sparql::parseQuery(text);
    return engine::runQuery(query, *store_, *cpu_, *orderer_, {}).plan;
  }

  // The planner's tree for a SELECT query, without running it.
  engine::OperatorPtr plan(const std::string& text) const {
    const engine::LogicalPlan logical = engine::buildLogicalPlan(sparql::parseQuery(text));
    return engine::Planner(*store_, *orderer_).plan(*logical.root, std::nullopt);
  }

  // The rows runQuery returns, sorted (as ids).
  std::vector<std::vector<engine::ValueId>> sortedRows(const std::string& text) const {
    const engine::Table table = engine::runQuery(sparql::parseQuery(text), *store_, *cpu_, *orderer_, {}).rows;
    std::vector<std::vector<engine::ValueId>> rows(table.rows);
    for (size_t r = 0; r < table.rows; ++r) {
      for (size_t c = 0; c < table.width(); ++c) rows[r].push_back(table.at(r, c));
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }
  uint32_t vertexId(const std::string& term) const {
    return store_->dictionary().id(TermSpace::Vertex, term).value();
  }

 private:
  TempDir dir_;
  std::unique_ptr<GraphStore> store_;
  std::unique_ptr<engine::Executor> cpu_ = engine::makeCpuExecutor();
  std::unique_ptr<engine::JoinOrderer> orderer_ = engine::makeStatisticsOrderer();
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

std::shared_ptr<engine::Operator> planOf(const std::string& text) { return fixture().run(text); }

}  // namespace

TEST_CASE("plan shape: the matchers report what differs") {
  auto plan = planOf("SELECT * WHERE { ?s <http://e/big> ?o }");
  CHECK(h::Project({"s", "o"}, h::BgpScan()).matches(*plan));
  CHECK(h::Project({"s", "o"}, h::Any()).matches(*plan));
  const std::string why = h::Project({"s", "o"}, h::Filter(h::Any())).explain(*plan);
  CHECK(why.find("root > Project[0]: expected Filter") != std::string::npos);
  CHECK_FALSE(h::Project({"o", "s"}, h::BgpScan()).matches(*plan));
  CHECK_FALSE(h::BgpScan().matches(*plan));
}

TEST_CASE("plan shape: a BGP returns only the columns read above it") {
  // ?o joins the two patterns inside the scan; only ?s leaves it.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o . ?o <http://e/small> ?t }"),
             h::Project({"s"}, h::BgpScan().triplePatterns(2).withVariables({"s"})));
  // Across a join the shared variable is read too, each side only what it
  // must give (a subquery keeps its BGP apart).
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o { SELECT ?o { ?o <http://e/small> ?t } } }"),
             h::Project({"s"}, h::HashJoin(h::BgpScan().withVariableSet({"s", "o"}),
                                           h::Project({"o"}, h::BgpScan().withVariables({"o"})))));
  // Two groups' BGPs are one scan.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o { ?o <http://e/small> ?t } }"),
             h::Project({"s"}, h::BgpScan().triplePatterns(2).withVariables({"s"})));
  // A filter's variables are read, the others not.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o . ?o <http://e/small> ?t FILTER(?t != <http://e/x>) }"),
             h::Project({"s"}, h::Filter(h::BgpScan().withVariableSet({"s", "t"})).withVariableSet({"s", "t"})));
  // ASK reads nothing.
  CHECK_PLAN(planOf("ASK { ?s <http://e/big> ?o }"), h::Slice(0, 1, h::BgpScan().withVariables({})));
}

TEST_CASE("plan shape: FILTER(?x = <iri>) becomes a constant of the BGP") {
  const uint32_t o1 = fixture().vertexId("<http://e/o1>");
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER(?o = <http://e/o1>) }"),
             h::Project({"s"}, h::BgpScan().fixing("o", o1)));
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER(<http://e/o1> = ?o) }"),
             h::Project({"s"}, h::BgpScan().fixing("o", o1)));
  // sameTerm folds literals too.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/small> ?o FILTER(sameTerm(?o, \"x\")) }"),
             h::Project({"s"}, h::BgpScan().fixing("o")));
  // The rest of a conjunction stays a filter, above the restricted scan.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER(?o = <http://e/o1>) FILTER(?s != <http://e/s1>) }"),
             h::Project({"s"}, h::Filter(h::BgpScan().fixing("o", o1)).describing("!=").notDescribing("o1")));
  // The projected value of the fixed variable is still there.
  CHECK_PLAN(planOf("SELECT ?o WHERE { ?s <http://e/big> ?o FILTER(?o = <http://e/o1>) }"),
             h::Project({"o"}, h::BgpScan().fixing("o", o1).withVariables({"o"})));
  // An IRI absent from the data: the scan knows it has no solutions.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER(?o = <http://e/nowhere>) }"),
             h::Project({"s"}, h::BgpScan().describing("absent")));
  // `=` on literals compares values ("30" = "30.0"): not folded.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/small> ?o FILTER(?o = \"x\") }"),
             h::Project({"s"}, h::Filter(h::BgpScan())));
  // Not over a join either: the filter stays where it is.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o OPTIONAL { ?o <http://e/small> ?t } FILTER(?o = <http://e/o1>) }"),
             h::Project({"s"}, h::Filter(h::OptionalAdjacency(h::BgpScan()))));
}

TEST_CASE("plan shape: OPTIONAL, UNION and MINUS") {
  // One triple from the one shared variable: the adjacency answers.
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/big> ?o OPTIONAL { ?o <http://e/small> ?t } }"),
             h::Project({"s", "o", "t"}, h::OptionalAdjacency(h::BgpScan().withVariableSet({"s", "o"}))
                                             .describing("LeftJoin (OPTIONAL) on ?o by adjacency, ?t")));
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/big> ?o OPTIONAL { ?o <http://e/small> ?t . ?t ?p ?u } }"),
             h::Project({"s", "o", "t", "p", "u"}, h::LeftJoin(h::BgpScan().withVariableSet({"s", "o"}),
                                                               h::BgpScan().withVariableSet({"o", "t", "p", "u"}))
                                                       .notDescribing("condition")));
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/big> ?o OPTIONAL { ?o <http://e/small> ?t FILTER(?s != ?t) } }"),
             h::Project({"s", "o", "t"}, h::LeftJoin(h::BgpScan(), h::BgpScan()).describing("with a condition")));
  // A condition on the OPTIONAL BGP's variables alone filters that BGP; the
  // join keeps the conjunct that reads the left side's.
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/big> ?o OPTIONAL { ?o <http://e/small> ?t FILTER(STRLEN(STR(?t)) > 2) } }"),
             h::Project({"s", "o", "t"}, h::LeftJoin(h::BgpScan(), h::Filter(h::BgpScan().withVariableSet({"o", "t"})))
                                             .notDescribing("condition")));
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/big> ?o OPTIONAL { ?o <http://e/small> ?t FILTER(?t > 2 && ?s != ?t) } }"),
             h::Project({"s", "o", "t"}, h::LeftJoin(h::BgpScan(), h::Filter(h::BgpScan()).describing("?t > "))
                                             .describing("with a condition")));
  CHECK_PLAN(planOf("SELECT * WHERE { { ?s <http://e/big> ?o } UNION { ?s <http://e/knows> ?o } }"),
             h::Project({"s", "o"}, h::Union({h::BgpScan(), h::BgpScan()}).withVariableSet({"s", "o"})));
  // A chain of UNIONs is one Union, each input giving only what is read above it.
  std::string chain;
  std::vector<h::Matcher> inputs;
  for (int i = 0; i < 300; ++i) {
    const std::string own = "?x" + std::to_string(i);
    chain += std::string(i ? " UNION " : "") + "{ ?s <http://e/" + (i % 2 ? "big" : "knows") + "> " + own +
             " BIND(" + own + " AS ?o) }";
    inputs.push_back(h::Project({"s", "o"}, h::Extend(h::BgpScan())));
  }
  CHECK_PLAN(planOf("SELECT ?s ?o WHERE { " + chain + " }"),
             h::Project({"s", "o"}, h::Union(std::move(inputs)).withVariableSet({"s", "o"})));
  CHECK(fixture().sortedRows("SELECT ?s ?o WHERE { " + chain + " }").size() ==
        150 * (fixture().sortedRows("SELECT * WHERE { ?s <http://e/big> ?o }").size() +
               fixture().sortedRows("SELECT * WHERE { ?s <http://e/knows> ?o }").size()));
  // The right side of MINUS gives only the variables it shares with the left.
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/big> ?o MINUS { ?o <http://e/small> ?t . ?t ?p ?u } }"),
             h::Project({"s", "o"}, h::Minus(h::BgpScan().withVariableSet({"s", "o"}),
                                            h::BgpScan().withVariables({"o"}))));
  // One triple from the one shared variable: the adjacency answers.
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/big> ?o MINUS { ?o <http://e/small> ?t } }"),
             h::Project({"s", "o"}, h::ExistsAdjacency(h::BgpScan().withVariableSet({"s", "o"}))
                                        .describing("AntiJoin (MINUS) on ?o by adjacency")));
}

TEST_CASE("plan shape: BIND, VALUES, GROUP BY and the solution modifiers") {
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/age> ?a BIND(?a + 1 AS ?b) }"),
             h::Project({"s", "a", "b"}, h::Extend(h::BgpScan()).withVariables({"s", "a", "b"}).describing("?b")));
  // A FILTER's conjuncts that do not read what BIND makes run below it.
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/age> ?a BIND(?a + 1 AS ?b) FILTER(?a > 20 && ?b < 40) }"),
             h::Project({"s", "a", "b"}, h::Filter(h::Extend(h::Filter(h::BgpScan()).describing("?a > "))
                                                       .describing("?b"))
                                             .describing("?b < ")));
  CHECK_PLAN(planOf("SELECT * WHERE { VALUES ?o { <http://e/o1> <http://e/o2> } }"),
             h::Project({"o"}, h::Values().describing("2 row(s)")));
  // GROUP BY reads only the keys for COUNT(*) (and SAMPLE of a key).
  CHECK_PLAN(planOf("SELECT ?o (COUNT(*) AS ?n) (SAMPLE(?o) AS ?x) WHERE { ?s <http://e/big> ?o . ?o <http://e/small> ?t } "
                    "GROUP BY ?o"),
             h::Project({"o", "n", "x"}, h::Extend(h::GroupBy(h::BgpScan().withVariables({"o"})))));
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o } ORDER BY DESC(?o) LIMIT 5"),
             h::Slice(0, 5, h::Project({"s"}, h::OrderBy(h::BgpScan().withVariableSet({"s", "o"}))
                                                  .describing("DESC(?o)"))));
  CHECK_PLAN(planOf("SELECT DISTINCT ?o WHERE { ?s <http://e/big> ?o } OFFSET 2"),
             h::Slice(2, std::nullopt, h::Distinct(h::Project({"o"}, h::BgpScan()))));
  // DISTINCT before an ORDER BY of projected variables: fewer rows to sort,
  // the LIMIT still a partial sort; an order key the projection drops keeps
  // the sort below.
  CHECK_PLAN(planOf("SELECT DISTINCT ?o WHERE { ?s <http://e/big> ?o } ORDER BY DESC(?o) LIMIT 3"),
             h::Slice(0, 3, h::OrderBy(h::Distinct(h::Project({"o"}, h::BgpScan()))).describing("DESC(?o)")));
  CHECK_PLAN(planOf("SELECT DISTINCT ?o WHERE { ?s <http://e/big> ?o } ORDER BY ?s"),
             h::Distinct(h::Project({"o"}, h::OrderBy(h::BgpScan()))));
}

namespace {

// A plan that groups rows (a GroupBy somewhere) and has no `shortcut` operator.
h::Matcher groupsRowsWithout(const std::string& shortcut) {
  return h::Any().where("a GroupBy over rows, no " + shortcut, [shortcut](const engine::Operator& op) {
    const std::string tree = h::treeText(op);
    return tree.find("GroupBy") != std::string::npos && tree.find(shortcut) == std::string::npos;
  });
}

}  // namespace

TEST_CASE("plan shape: counting a BGP's solutions is a BgpCount, other aggregates group rows") {
  CHECK_PLAN(planOf("SELECT (COUNT(*) AS ?n) WHERE { ?s <http://e/big> ?o . ?o <http://e/small> ?t }"),
             h::Project({"n"}, h::Extend(h::BgpCount().withVariables({"_agg0"}).triplePatterns(2))));
  // COUNT(?v) of a variable every solution binds counts the solutions too.
  CHECK_PLAN(planOf("SELECT (COUNT(?s) AS ?n) (COUNT(*) AS ?m) WHERE { ?s <http://e/big> ?o }"),
             h::Project({"n", "m"}, h::Extend(h::BgpCount().withVariables({"_agg0", "_agg1"}))));
  CHECK_PLAN(planOf("SELECT (COUNT(*) AS ?n) WHERE { ?s <http://e/big> <http://e/absent> }"),
             h::Project({"n"}, h::Extend(h::BgpCount().describing("absent"))));
  // COUNT(DISTINCT ?v) of a vertex variable counts its values where the rows are.
  CHECK_PLAN(planOf("SELECT (COUNT(DISTINCT ?o) AS ?n) (COUNT(DISTINCT ?o) AS ?m) WHERE { ?s <http://e/big> ?o }"),
             h::Project({"n", "m"}, h::Extend(h::BgpCount().describing("of distinct ?o"))));
  // Mixed counts, distinct rows or predicates, other aggregates, groups and unbound variables read rows.
  for (const char* query : {"SELECT (COUNT(DISTINCT ?o) AS ?n) (COUNT(*) AS ?m) WHERE { ?s <http://e/big> ?o }",
                            "SELECT (COUNT(*) AS ?m) (COUNT(DISTINCT ?o) AS ?n) WHERE { ?s <http://e/big> ?o }",
                            "SELECT (COUNT(DISTINCT ?o) AS ?n) (COUNT(DISTINCT ?s) AS ?m) WHERE { ?s <http://e/big> ?o }",
                            "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?s ?p ?o }",
                            "SELECT (COUNT(DISTINCT *) AS ?n) WHERE { ?s <http://e/big> ?o }",
                            "SELECT (COUNT(?z) AS ?n) WHERE { ?s <http://e/big> ?o }",
                            "SELECT (SUM(?a) AS ?n) WHERE { ?s <http://e/age> ?a }"}) {
    CAPTURE(query);
    CHECK_PLAN(planOf(query), groupsRowsWithout("BgpCount"));
  }
  CHECK_PLAN(planOf("SELECT (COUNT(*) AS ?n) (SAMPLE(?o) AS ?x) WHERE { ?s <http://e/big> ?o }"),
             h::Project({"n", "x"}, h::Extend(h::GroupBy(h::BgpScan()))));
  // Groups of one pattern's subjects or objects counted: their degrees; of more, or other aggregates: rows.
  CHECK_PLAN(planOf("SELECT ?o (COUNT(*) AS ?n) WHERE { ?s <http://e/big> ?o } GROUP BY ?o"),
             h::Project({"o", "n"}, h::Extend(h::DegreeCount().describing("in-degree through <http://e/big>"))));
  CHECK_PLAN(planOf("SELECT ?s (COUNT(?o) AS ?n) WHERE { ?s <http://e/big> ?o } GROUP BY ?s"),
             h::Project({"s", "n"}, h::Extend(h::DegreeCount().describing("out-degree"))));
  for (const char* query : {"SELECT ?o (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s <http://e/big> ?o } GROUP BY ?o",
                            "SELECT ?o (SUM(?s) AS ?n) WHERE { ?s <http://e/big> ?o } GROUP BY ?o",
                            "SELECT ?o ?s (COUNT(*) AS ?n) WHERE { ?s <http://e/big> ?o } GROUP BY ?o ?s",
                            "SELECT (COUNT(*) AS ?n) WHERE { ?s <http://e/big> ?o } GROUP BY (STR(?o))",
                            "SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p"}) {
    CAPTURE(query);
    CHECK_PLAN(planOf(query), groupsRowsWithout("DegreeCount"));
    CHECK_PLAN(planOf(query), groupsRowsWithout("BgpGroupCount"));
  }
  // Counts per vertex of a BGP of more patterns, a predicate variable or a self-loop: the executor's, per vertex.
  for (const char* query :
       {"SELECT ?o (COUNT(*) AS ?n) WHERE { ?s <http://e/big> ?o . ?o <http://e/small> ?t } GROUP BY ?o",
        "SELECT ?o (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?o",
        "SELECT ?o (COUNT(?o) AS ?n) WHERE { ?o <http://e/big> ?o } GROUP BY ?o"}) {
    CAPTURE(query);
    CHECK_PLAN(planOf(query), h::Project({"o", "n"}, h::Extend(h::BgpGroupCount().describing("by ?o"))));
  }
  CHECK_PLAN(planOf("SELECT (COUNT(*) AS ?n) WHERE { ?s <http://e/big> ?o OPTIONAL { ?o <http://e/small> ?t } }"),
             h::Project({"n"}, h::Extend(h::GroupBy(h::OptionalAdjacency(h::BgpScan())))));
}

TEST_CASE("plan shape: property paths and subqueries") {
  CHECK_PLAN(planOf("SELECT * WHERE { ?a <http://e/knows>+ ?b }"),
             h::Project({"a", "b"}, h::PathScan().describing("+")));
  CHECK_PLAN(planOf("SELECT * WHERE { ?a <http://e/knows>* ?b . ?b <http://e/big> ?c }"),
             h::Project({"a", "b", "c"}, h::HashJoin(h::Any(), h::Any())));
  {
    // Whichever side is built, one is the path and the other the scan.
    auto plan = planOf("SELECT * WHERE { ?a <http://e/knows>* ?b . ?b <http://e/big> ?c }");
    const auto* join = plan->children().at(0);
    const bool pathLeft = h::PathScan().matches(*join->children().at(0));
    CHECK_PLAN(*join, pathLeft ? h::HashJoin(h::PathScan(), h::BgpScan()) : h::HashJoin(h::BgpScan(), h::PathScan()));
  }
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o { SELECT ?o WHERE { ?o <http://e/small> ?t } } }"),
             h::Project({"s"}, h::HashJoin(h::BgpScan().withVariableSet({"s", "o"}),
                                           h::Project({"o"}, h::BgpScan().withVariables({"o"})))));
}

TEST_CASE("plan shape: ASK is a Slice with limit 1 on top") {
  CHECK_PLAN(planOf("ASK { ?s <http://e/big> ?o OPTIONAL { ?o <http://e/small> ?t . ?t ?p ?u } }"),
             h::Slice(0, 1, h::LeftJoin(h::BgpScan(), h::BgpScan())));
  // The planner alone does not add it (runQuery does, for the form).
  CHECK_PLAN(fixture().plan("ASK { ?s <http://e/big> ?o }"), h::BgpScan());
}

TEST_CASE("plan shape: a join builds (right child) its smaller side") {
  auto smallerRight = [](const engine::Operator& op) {
    const auto c = op.children();
    return c.size() == 2 && c[1]->estimatedRows() <= c[0]->estimatedRows();
  };
  const auto big = h::BgpScan().describing("1 triple pattern").where(
      "estimated rows >= 40", [](const engine::Operator& op) { return op.estimatedRows() >= 40; });
  const auto small = h::BgpScan().where("estimated rows <= 2",
                                        [](const engine::Operator& op) { return op.estimatedRows() <= 2; });
  // Written small first or big first, the big scan is the probe side (left);
  // subqueries keep the BGPs apart.
  const auto smallSide = h::Project({"o", "t"}, small);
  CHECK_PLAN(planOf("SELECT * WHERE { { SELECT ?o ?t { ?o <http://e/small> ?t } } { ?s <http://e/big> ?o } }"),
             h::Project({"o", "t", "s"}, h::HashJoin(big, smallSide).where("right is smaller", smallerRight)));
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/big> ?o { SELECT ?o ?t { ?o <http://e/small> ?t } } }"),
             h::Project({"s", "o", "t"}, h::HashJoin(big, smallSide).where("right is smaller", smallerRight)));
  // A one-row VALUES (of two variables: not folded into the BGP) is built, the scan probes it.
  CHECK_PLAN(planOf("SELECT * WHERE { VALUES (?o ?k) { (<http://e/o1> 1) } ?s <http://e/big> ?o }"),
             h::Project({"o", "k", "s"}, h::HashJoin(big, h::Values()).where("right is smaller", smallerRight)));
}

TEST_CASE("plan shape: a path with a constant end is estimated by searching it, so the join builds on it") {
  // <knows>+ into s2 reaches s1 and s0: 2 rows, against the 40 of <big> (the
  // vertex count, as paths with two variable ends are guessed, would have put
  // the path on the probe side). A subquery keeps the path out of the BGP.
  const auto path = h::PathScan().where("estimated rows == 2",
                                        [](const engine::Operator& op) { return op.estimatedRows() == 2; });
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/knows>+ <http://e/s2> { SELECT * { ?s <http://e/big> ?o } } }"),
             h::Project({"s", "o"}, h::HashJoin(h::Project({"s", "o"}, h::BgpScan()), path)));
}

TEST_CASE("plan shape: a path from a constant that reaches few terms limits the BGP's variable to them") {
  const uint32_t s0 = fixture().vertexId("<http://e/s0>"), s1 = fixture().vertexId("<http://e/s1>"),
                 s2 = fixture().vertexId("<http://e/s2>");
  const std::string bgp = "?s <http://e/big> ?o . ";
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/knows>+ <http://e/s2> . " + bgp + "}"),
             h::Project({"s", "o"}, h::BgpScan().limiting("s", {s0, s1})));
  CHECK_PLAN(planOf("SELECT * WHERE { " + bgp + "<http://e/s1> <http://e/knows>* ?s }"),
             h::Project({"s", "o"}, h::BgpScan().limiting("s", {s1, s2})));
  // The same rows as the path kept apart (a subquery keeps it out of the BGP).
  for (const std::string path : {"?s <http://e/knows>+ <http://e/s2>", "<http://e/s1> <http://e/knows>* ?s"}) {
    const auto folded = fixture().sortedRows("SELECT * WHERE { " + bgp + path + " }");
    CHECK(folded.size() == 2);
    CHECK(folded == fixture().sortedRows("SELECT * WHERE { " + bgp + "{ SELECT * WHERE { " + path + " } } }"));
  }
  // Ends that repeat (a bag: the alternative reaches s1 twice) limit the BGP
  // all the same, and the join with the path repeats its rows.
  const std::string twice = "<http://e/s0> <http://e/knows>|<http://e/knows> ?s";
  CHECK_PLAN(planOf("SELECT * WHERE { " + bgp + twice + " }"),
             h::Project({"s", "o"}, h::HashJoin(h::PathScan(), h::BgpScan().fixing("s", s1))));
  const auto repeated = fixture().sortedRows("SELECT * WHERE { " + bgp + twice + " }");
  CHECK(repeated.size() == 2);
  CHECK(repeated == fixture().sortedRows("SELECT * WHERE { " + bgp + "{ SELECT * WHERE { " + twice + " } } }"));
  // Not a path that reaches nothing, nor one between two variables.
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/knows>+ <http://e/s0> . ?s <http://e/big> ?o }"),
             h::Project({"s", "o"}, h::HashJoin(h::BgpScan(), h::PathScan())));
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/knows>+ ?t . ?s <http://e/big> ?o }"),
             h::Project({"s", "t", "o"}, h::HashJoin(h::PathScan(), h::BgpScan())));
}

TEST_CASE("plan shape: the BGPs of a join are planned as one, whatever stands between them") {
  const std::string query = "SELECT * WHERE { ?s <http://e/big> ?o . ?s <http://e/knows>+ ?t . ?t <http://e/big> ?x }";
  CHECK_PLAN(planOf(query), h::Project({"s", "o", "t", "x"}, h::HashJoin(h::BgpScan().triplePatterns(2), h::PathScan())));
  const auto merged = fixture().sortedRows(query);
  CHECK(merged.size() == 3);  // s0 reaches s1 and s2, s1 reaches s2
  CHECK(merged == fixture().sortedRows("SELECT * WHERE { { SELECT * { ?s <http://e/big> ?o } } ?s <http://e/knows>+ ?t . "
                                       "{ SELECT * { ?t <http://e/big> ?x } } }"));
}

TEST_CASE("plan shape: a blank node shared by the BGPs around a path stays two BGPs, joined as one variable") {
  // One triples block, so one blank node scope: _:b joins the two BGPs as
  // ?b would. They are not merged (a merged BGP would treat _:b as its own).
  const std::string blank =
      "SELECT ?m ?z ?x WHERE { _:b <http://e/knows> ?m . ?m <http://e/knows>+ ?z . _:b <http://e/age> ?x }";
  const auto plan = planOf(blank);
  const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*plan);
  REQUIRE(leaf != nullptr);
  CHECK(leaf->bgp().edges.size() == 1);
  const auto rows = fixture().sortedRows(blank);
  CHECK(rows.size() == 1);  // s0 knows s1, s1 knows+ s2, s0's age
  CHECK(rows == fixture().sortedRows(
                    "SELECT ?m ?z ?x WHERE { ?b <http://e/knows> ?m . ?m <http://e/knows>+ ?z . ?b <http://e/age> ?x }"));
}

TEST_CASE("plan shape: an alternative of links beside a BGP that has an end becomes one BGP per link, unioned") {
  const std::string bgp = "?s <http://e/big> ?o . ";
  const std::string links = "?o <http://e/small>|<http://e/knows>|<http://e/small> ?t";
  CHECK_PLAN(planOf("SELECT * WHERE { " + bgp + links + " }"),
             h::Project({"s", "o", "t"}, h::Union({h::BgpScan(), h::BgpScan(), h::BgpScan()})));
  // The rows of the path itself (a subquery keeps it out of the BGP), each
  // as often: <small> twice in the alternative, twice in the bag.
  const auto folded = fixture().sortedRows("SELECT * WHERE { " + bgp + links + " }");
  const auto apart = fixture().sortedRows("SELECT * WHERE { " + bgp + "{ SELECT * WHERE { " + links + " } } }");
  CHECK(folded.size() == 32);  // 8 subjects reach <o1>, 8 <o2>, each object one <small> edge, counted twice
  CHECK(folded == apart);
  // Not an alternative whose ends the BGP lacks, nor one with an inverse or a modifier.
  CHECK_PLAN(planOf("SELECT * WHERE { " + bgp + "?x <http://e/small>|<http://e/knows> ?y }"),
             h::Project({"s", "o", "x", "y"}, h::HashJoin(h::PathScan(), h::BgpScan())));
  CHECK_PLAN(planOf("SELECT * WHERE { " + bgp + "?o <http://e/small>|^<http://e/knows> ?t }"),
             h::Project({"s", "o", "t"}, h::HashJoin(h::PathScan(), h::BgpScan())));
}

TEST_CASE("plan shape: DISTINCT over a BGP that reads every variable is the BGP, its rows being distinct already") {
  const uint32_t o1 = fixture().vertexId("<http://e/o1>");
  const std::string fixed = "SELECT DISTINCT ?s WHERE { ?s <http://e/big> ?o FILTER(?o = <http://e/o1>) }";
  CHECK_PLAN(planOf(fixed), h::Project({"s"}, h::BgpScan().fixing("o", o1)));
  CHECK_PLAN(planOf("SELECT DISTINCT * WHERE { ?s <http://e/big> ?o . ?o <http://e/small> ?t }"),
             h::Project({"s", "o", "t"}, h::BgpScan()));
  // Not where a variable is left out (nor one limited to several constants), nor above a join.
  CHECK_PLAN(planOf("SELECT DISTINCT ?o WHERE { ?s <http://e/big> ?o }"), h::Distinct(h::Project({"o"}, h::BgpScan())));
  CHECK_PLAN(planOf("SELECT DISTINCT ?s WHERE { ?s <http://e/big> ?o VALUES ?o { <http://e/o1> <http://e/o2> } }"),
             h::Distinct(h::Project({"s"}, h::BgpScan().limiting("o", {o1, fixture().vertexId("<http://e/o2>")}))));
  CHECK_PLAN(planOf("SELECT DISTINCT * WHERE { ?s <http://e/big> ?o { SELECT ?o { ?o <http://e/small> ?t } } }"),
             h::Distinct(h::Project({"s", "o"}, h::HashJoin(h::Any(), h::Any()))));
  // The same rows as with the DISTINCT kept (its input made by a subquery's projection).
  const auto rows = fixture().sortedRows(fixed);
  CHECK(rows.size() == 8);
  CHECK(rows == fixture().sortedRows("SELECT DISTINCT ?s WHERE { { SELECT ?s ?o { ?s <http://e/big> ?o } } FILTER(?o = <http://e/o1>) }"));
}

TEST_CASE("plan shape: IN lists restrict the BGP one scan per constant, single-variable VALUES limit its variable") {
  const uint32_t o1 = fixture().vertexId("<http://e/o1>"), o2 = fixture().vertexId("<http://e/o2>");
  CHECK_PLAN(planOf("SELECT * WHERE { VALUES ?o { <http://e/o1> } ?s <http://e/big> ?o }"),
             h::Project({"o", "s"}, h::BgpScan().fixing("o", o1).withVariableSet({"o", "s"})));
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/big> ?o VALUES ?o { <http://e/o1> <http://e/o2> } }"),
             h::Project({"s", "o"}, h::BgpScan().limiting("o", {o1, o2})));
  // A repeated value repeats its rows (the join with the VALUES stays), and one absent from the data has none.
  const std::string values = "SELECT * WHERE { ?s <http://e/big> ?o VALUES ?o { <http://e/o1> <http://e/o1> <http://e/none> } }";
  CHECK_PLAN(planOf(values), h::Project({"s", "o"}, h::HashJoin(h::BgpScan().fixing("o", o1), h::Values())));
  CHECK(fixture().sortedRows(values).size() == 16);
  // A repeated IRI in IN does not repeat rows: one scan for it.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER(?o IN (<http://e/o2>, <http://e/o1>, <http://e/o1>)) }"),
             h::Project({"s"}, h::Union({h::BgpScan().fixing("o", o1), h::BgpScan().fixing("o", o2)})));
  // Not with UNDEF, literals in IN, or two variables.
  CHECK_PLAN(planOf("SELECT * WHERE { ?s <http://e/big> ?o VALUES ?o { <http://e/o1> UNDEF } }"),
             h::Project({"s", "o"}, h::HashJoin(h::BgpScan(), h::Values())));
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/small> ?o FILTER(?o IN (\"x\", <http://e/t1>)) }"),
             h::Project({"s"}, h::Filter(h::BgpScan()).describing("IN")));
}

namespace {

// Joins of the tree with no variable to join on.
int crossProducts(const engine::Operator& op) {
  int count = op.describe().find("no shared variable") != std::string::npos ? 1 : 0;
  for (const auto* child : op.children()) count += crossProducts(*child);
  return count;
}

}  // namespace

TEST_CASE("plan shape: a chain of joins takes connected inputs first, whatever the text's order") {
  // Two paths that share nothing come first in the text; the scan connects them.
  const auto connected = planOf(
      "SELECT * WHERE { ?a <http://e/knows>* ?b . ?c <http://e/knows>+ ?d . ?b <http://e/big> ?c }");
  CHECK_PLAN(*connected, h::Project({"a", "b", "c", "d"}, h::HashJoin(h::Any(), h::Any())));
  CHECK(crossProducts(*connected) == 0);
  // Where nothing connects two parts, one cross product joins them, and only
  // one (subqueries keep the BGPs apart: in one scan, their product is the scan's).
  const auto apart = planOf(
      "SELECT * WHERE { ?a <http://e/knows>* ?b . ?c <http://e/knows>+ ?d { SELECT * { ?b <http://e/big> ?e } } "
      "{ SELECT * { ?d <http://e/big> ?f } } }");
  CHECK(crossProducts(*apart) == 1);
}

TEST_CASE("plan shape: a BGP over several FROM graphs matches a predicate only one graph has in that graph, the others as a distinct union") {
  TempDir dir;
  writeFile(dir / "data.nq",
            "<http://e/a> <http://e/only1> <http://e/b> <http://g/1> .\n"
            "<http://e/b> <http://e/both> <http://e/c> <http://g/1> .\n"
            "<http://e/b> <http://e/both> <http://e/c> <http://g/2> .\n");
  Database::load(dir / "db", {(dir / "data.nq").string()});
  const GraphStore store(dir / "db");
  const auto cpu = engine::makeCpuExecutor();
  const auto orderer = engine::makeStatisticsOrderer();
  const auto planOver = [&](const std::string& text) {
    return engine::runQuery(sparql::parseQuery(text), store, *cpu, *orderer, {}).plan;
  };
  CHECK_PLAN(planOver("SELECT * FROM <http://g/1> FROM <http://g/2> WHERE { ?x <http://e/only1> ?y . ?y <http://e/both> ?z }"),
             h::Project({"x", "y", "z"},
                        h::HashJoin(h::Distinct(h::Union({h::BgpScan(), h::BgpScan()}).withVariableSet({"y", "z"})),
                                    h::BgpScan().withVariableSet({"x", "y"}))));
  // With one FROM graph the BGP is one scan, as without FROM.
  CHECK_PLAN(planOver("SELECT * FROM <http://g/1> WHERE { ?x <http://e/only1> ?y . ?y <http://e/both> ?z }"),
             h::Project({"x", "y", "z"}, h::BgpScan()));
}

TEST_CASE("plan shape: a BGP's join order and a count's leaves are pinned") {
  // From the two <small> triples, then their <big> subjects.
  CHECK_PLAN(planOf("SELECT * { ?s <http://e/big> ?o . ?o <http://e/small> ?t }"),
             h::Project({"s", "o", "t"}, h::BgpScan().joinOrder({{"o", "t", "s"}})));
  // A count of a star: its leaves last, both multiplied, not made.
  CHECK_PLAN(planOf("SELECT (COUNT(*) AS ?n) { ?s <http://e/big> ?o . ?s <http://e/knows> ?x }"),
             h::Project({"n"}, h::Extend(h::BgpCount().joinOrder({{"s", "o", "x"}}).countedLeaves(2))));
  // A path's count from its middle: both ends multiplied.
  CHECK_PLAN(planOf("SELECT (COUNT(*) AS ?n) { ?s <http://e/knows> ?x . ?x <http://e/knows> ?y }"),
             h::Project({"n"}, h::Extend(h::BgpCount().joinOrder({{"x", "s", "y"}}).countedLeaves(2))));
  // Any other order is a mismatch.
  CHECK_FALSE(h::Project({"s", "o", "t"}, h::BgpScan().joinOrder({{"t", "o", "s"}}))
                  .matches(*planOf("SELECT * { ?s <http://e/big> ?o . ?o <http://e/small> ?t }")));
}

TEST_CASE("plan shape: FILTER (NOT) EXISTS over BGPs and filters is a semi- or anti-join on the shared variables") {
  // The pattern gives only the shared variables; the input keeps them for the probe.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER NOT EXISTS { ?s <http://e/knows> ?x . ?x <http://e/knows> ?y } }"),
             h::Project({"s"}, h::ExistsJoin(h::BgpScan().withVariables({"s"}), h::BgpScan().withVariables({"s"}))
                                   .describing("AntiJoin (NOT EXISTS) on ?s")));
  // One triple from the shared variable: its degree answers, the pattern is not run.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER NOT EXISTS { ?s <http://e/knows> ?x } }"),
             h::Project({"s"}, h::ExistsAdjacency(h::BgpScan().withVariables({"s"}))
                                   .describing("AntiJoin (NOT EXISTS) on ?s by adjacency")));
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER EXISTS { [] <http://e/knows> ?s } }"),
             h::Project({"s"}, h::ExistsAdjacency(h::BgpScan()).describing("SemiJoin (EXISTS) on ?s by adjacency")));
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER EXISTS { ?o <http://e/small> ?t FILTER(?t != \"x\") } }"),
             h::Project({"s"}, h::ExistsJoin(h::BgpScan().withVariableSet({"s", "o"}),
                                             h::Filter(h::BgpScan().withVariableSet({"o", "t"})))
                                   .describing("SemiJoin (EXISTS) on ?o")));
  // The other conditions stay a filter (or fold into the BGP) below the join.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER(?o = <http://e/o1> && NOT EXISTS { ?s <http://e/knows> ?x }) }"),
             h::Project({"s"}, h::ExistsAdjacency(h::BgpScan().fixing("o"))));
  // No shared variable: the pattern is evaluated once all the same.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER EXISTS { ?a <http://e/knows> ?b } }"),
             h::Project({"s"}, h::ExistsJoin(h::BgpScan(), h::BgpScan().withVariables({}))
                                   .describing("no shared variable")));
}

TEST_CASE("plan shape: FILTER (NOT) EXISTS keeps substitution where a join would differ from it") {
  // A filter inside reads an outer variable the pattern does not bind.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER NOT EXISTS { ?s <http://e/knows> ?x FILTER(?x != ?o) } }"),
             h::Project({"s"}, h::Filter(h::BgpScan()).describing("NOT EXISTS")));
  // A filter in a group of its own sees the outer variable only by substitution.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER EXISTS { ?s <http://e/knows> ?x { FILTER(?o != ?s) } } }"),
             h::Project({"s"}, h::Filter(h::BgpScan())));
  // OPTIONAL, UNION, property paths, BIND and GRAPH inside the pattern.
  for (const char* pattern : {"{ ?s <http://e/knows> ?x OPTIONAL { ?x <http://e/knows> ?o } }",
                              "{ { ?s <http://e/knows> ?x } UNION { ?x <http://e/knows> ?s } }",
                              "{ ?s <http://e/knows>* ?o }", "{ ?s <http://e/knows> ?x BIND(?x AS ?y) }",
                              "{ GRAPH ?g { ?s <http://e/knows> ?x } }"}) {
    CHECK_PLAN(planOf(std::string("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER NOT EXISTS ") + pattern + " }"),
               h::Project({"s"}, h::Filter(h::Any())));
  }
  // Inside a negation or a disjunction: one value of an expression per row.
  CHECK_PLAN(planOf("SELECT ?s WHERE { ?s <http://e/big> ?o FILTER(!EXISTS { ?s <http://e/knows> ?x }) }"),
             h::Project({"s"}, h::Filter(h::BgpScan())));
}

TEST_CASE("FILTER (NOT) EXISTS as a join gives the rows substitution gives") {
  const Fixture& f = fixture();
  // Each pair: the join form, and a form the planner evaluates by substitution
  // (`!EXISTS` for NOT EXISTS, `EXISTS || false` for EXISTS).
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"FILTER NOT EXISTS { ?s <http://e/knows> ?x }", "FILTER(!EXISTS { ?s <http://e/knows> ?x })"},
      {"FILTER EXISTS { ?s <http://e/knows> ?x }", "FILTER(EXISTS { ?s <http://e/knows> ?x } || false)"},
      {"FILTER EXISTS { ?o <http://e/small> ?t FILTER(isIRI(?t)) }",
       "FILTER(EXISTS { ?o <http://e/small> ?t FILTER(isIRI(?t)) } || false)"},
      {"FILTER NOT EXISTS { ?s <http://e/knows> ?o }", "FILTER(!EXISTS { ?s <http://e/knows> ?o })"},
      // ?t unbound where OPTIONAL found nothing: free in the pattern.
      {"FILTER NOT EXISTS { ?o <http://e/small> ?t }", "FILTER(!EXISTS { ?o <http://e/small> ?t })"},
      {"FILTER EXISTS { ?x <http://e/small> ?t }", "FILTER(EXISTS { ?x <http://e/small> ?t } || false)"},
      {"FILTER NOT EXISTS { ?a <http://e/nothing> ?b }", "FILTER(!EXISTS { ?a <http://e/nothing> ?b })"},
      // By adjacency: from the subject, from the object, an absent predicate.
      {"FILTER EXISTS { ?x <http://e/big> ?o }", "FILTER(EXISTS { ?x <http://e/big> ?o } || false)"},
      {"FILTER NOT EXISTS { ?s <http://e/nothing> ?x }", "FILTER(!EXISTS { ?s <http://e/nothing> ?x })"},
  };
  for (const auto& [join, substitution] : pairs) {
    const std::string head = "SELECT ?s ?o ?t WHERE { ?s <http://e/big> ?o OPTIONAL { ?o <http://e/small> ?t } ";
    INFO(join);
    CHECK_PLAN(planOf(head + join + " }"), h::Project({"s", "o", "t"}, h::Any().describing("Join (")));
    CHECK_PLAN(planOf(head + substitution + " }"), h::Project({"s", "o", "t"}, h::Filter(h::Any())));
    const auto rows = f.sortedRows(head + join + " }");
    CHECK(rows == f.sortedRows(head + substitution + " }"));
    CHECK(!rows.empty());
  }
}

TEST_CASE("GROUP BY: COUNT(?x) counted on ids gives what the aggregator gives") {
  const Fixture& f = fixture();
  // ?t unbound where OPTIONAL found nothing: not counted.
  const std::string pattern = "WHERE { ?s <http://e/big> ?o OPTIONAL { ?o <http://e/small> ?t } } GROUP BY ?o";
  const auto onIds = f.sortedRows("SELECT ?o (COUNT(?t) AS ?n) (COUNT(*) AS ?all) " + pattern);
  CHECK(onIds == f.sortedRows("SELECT ?o (COUNT(COALESCE(?t)) AS ?n) (COUNT(*) AS ?all) " + pattern));
  CHECK(onIds.size() == 5);
}

TEST_CASE("OPTIONAL by adjacency gives the rows of the LeftJoin's hash probe") {
  const Fixture& f = fixture();
  // Each with the last OPTIONAL's pattern; a FILTER that always holds there keeps the LeftJoin.
  const std::vector<std::pair<std::string, std::string>> queries = {
      {"?s <http://e/big> ?o OPTIONAL {", " ?o <http://e/small> ?t"},
      // the key as the object: its in-edges
      {"?s <http://e/big> ?o OPTIONAL {", " ?t <http://e/knows> ?s"},
      // a predicate the data lacks: every row alone
      {"?s <http://e/big> ?o OPTIONAL {", " ?s <http://e/nothing> ?t"},
      // a key an earlier OPTIONAL may leave unbound: it meets every edge
      {"?s <http://e/big> ?o OPTIONAL { ?o <http://e/small> ?k } OPTIONAL {", " ?k <http://e/knows> ?t"},
      // a key bound to computed values and literals, which have no edges
      {"?s <http://e/big> ?o BIND(IF(?o = <http://e/o1>, \"x\", ?o) AS ?k) OPTIONAL {", " ?k <http://e/small> ?t"},
  };
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto& [before, pattern] : queries) {
    pairs.emplace_back(before + pattern + " }", before + pattern + " FILTER(BOUND(?t)) }");
  }
  for (const auto& [adjacency, hash] : pairs) {
    INFO(adjacency);
    const std::string head = "SELECT ?s ?o ?t WHERE { ";
    auto byAdjacency = [](bool expected) {
      return h::Any().where(expected ? "an OPTIONAL by adjacency" : "no OPTIONAL by adjacency",
                            [expected](const engine::Operator& op) {
                              return (h::treeText(op).find("OPTIONAL) on ?") != std::string::npos &&
                                      h::treeText(op).find("by adjacency, ?t") != std::string::npos) == expected;
                            });
    };
    CHECK_PLAN(planOf(head + adjacency + " }"), byAdjacency(true));
    CHECK_PLAN(planOf(head + hash + " }"), byAdjacency(false));
    const auto rows = f.sortedRows(head + adjacency + " }");
    CHECK(rows == f.sortedRows(head + hash + " }"));
    CHECK(!rows.empty());
  }
}

TEST_CASE("MINUS by adjacency gives the rows of the Minus operator's hash probe") {
  const Fixture& f = fixture();
  // The second form has a triple that always holds (?o has <big> in-edges), so it stays a hash Minus.
  const std::string head = "SELECT ?s ?o ?t WHERE { ?s <http://e/big> ?o OPTIONAL { ?o <http://e/small> ?t } ";
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"MINUS { ?o <http://e/small> ?x }", "MINUS { ?o <http://e/small> ?x . ?y <http://e/big> ?o }"},
      // ?t unbound where OPTIONAL found nothing: those rows stay.
      {"MINUS { ?x <http://e/knows> ?t }", "MINUS { ?x <http://e/knows> ?t . ?x <http://e/knows> ?z }"},
      {"MINUS { ?s <http://e/knows> [] }", "MINUS { ?s <http://e/knows> ?x . ?s <http://e/big> ?w }"},
      {"MINUS { ?s <http://e/nothing> ?x }", "MINUS { ?s <http://e/nothing> ?x . ?s <http://e/big> ?w }"},
  };
  for (const auto& [adjacency, hash] : pairs) {
    INFO(adjacency);
    CHECK_PLAN(planOf(head + adjacency + " }"), h::Project({"s", "o", "t"}, h::ExistsAdjacency(h::Any())));
    CHECK_PLAN(planOf(head + hash + " }"), h::Project({"s", "o", "t"}, h::Minus(h::Any(), h::Any())));
    const auto rows = f.sortedRows(head + adjacency + " }");
    CHECK(rows == f.sortedRows(head + hash + " }"));
    CHECK(!rows.empty());
  }
}
