// A BGP joined with an OPTIONAL moves into the OPTIONAL's left side only
// where that gives the same solutions (engine/logical/optional_left_bgp.h):
// the logical plan's shape for each case, and the engine's solutions against
// the reference evaluator's (tests/support/reference_evaluator.h), which
// evaluates the algebra as parsed, on data where a wrong move would add or
// lose rows.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/logical/logical_plan.h"
#include "gsparql/database.h"
#include "parser/parse.h"
#include "parser/print.h"
#include "support/random_bgp.h"
#include "support/reference_evaluator.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

using sparql::Op;

// a1 and a2 have ?b; b1 has ?c = c1, which has ?d = d1; b2 has no ?c; a1's
// own ?d are d2 and d3, and c1 also has ?d = d2 under another predicate.
std::vector<StringTriple> graph() {
  auto e = [](const std::string& name) { return "<http://e/" + name + ">"; };
  return {{e("a1"), e("p"), e("b1")}, {e("a2"), e("p"), e("b2")}, {e("b1"), e("q"), e("c1")},
          {e("c1"), e("r"), e("d1")}, {e("a1"), e("r"), e("d2")}, {e("a1"), e("r"), e("d3")}, {e("a2"), e("r"), e("d1")},
          {e("c1"), e("s"), e("d2")}, {e("a1"), e("t"), "\"5\"^^<http://www.w3.org/2001/XMLSchema#integer>"}};
}

const std::string kPrefix = "PREFIX : <http://e/> ";

// The pattern under the projection of the logical plan of `where`.
const Op& pattern(const std::string& where, sparql::OpPtr& kept) {
  kept = engine::buildLogicalPlan(sparql::parseQuery(kPrefix + "SELECT * WHERE " + where)).root;
  const Op* op = kept.get();
  while (op->kind == Op::Kind::Project) op = op->children[0].get();
  return *op;
}

std::vector<std::string> engineKeys(const Database& db, const std::string& text) {
  QueryResult result = db.query(text, {Backend::Cpu});
  std::vector<std::string> keys;
  const auto& variables = result.variables();
  result.forEachRow([&](std::span<const Term> row) {
    Mapping m;
    for (size_t i = 0; i < row.size(); ++i) {
      if (row[i]) m[variables[i]] = std::string(*row[i]);
    }
    keys.push_back(rowKey(m, variables));
  });
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<std::string> referenceKeys(const std::string& text, const std::vector<StringTriple>& data) {
  const sparql::Query query = sparql::parseQuery(text);
  const std::vector<std::string> variables = referenceResultVariables(*query.pattern);
  std::vector<std::string> keys;
  for (const Mapping& m : referenceEvaluate(*query.pattern, data)) keys.push_back(rowKey(m, variables));
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace

TEST_CASE("a BGP after an OPTIONAL joins its left side only where the solutions stay the same") {
  struct Case {
    std::string where;
    bool moves;
  };
  const std::vector<Case> cases = {
      // Shares only ?a, the left side's, with the OPTIONAL.
      {"{ ?a :p ?b OPTIONAL { ?b :q ?c } ?a :r ?d }", true},
      // Written before the OPTIONAL's group.
      {"{ ?a :r ?d { ?a :p ?b OPTIONAL { ?b :q ?c } } }", true},
      // Through two OPTIONALs, neither sharing anything else with it.
      {"{ ?a :p ?b OPTIONAL { ?b :q ?c } OPTIONAL { ?a :t ?n } ?a :r ?d }", true},
      // An OPTIONAL at the start of the group: its left side is the empty BGP, sharing nothing.
      {"{ OPTIONAL { ?x :t ?n } ?a :r ?d }", true},
      // Shares ?c, bound by the OPTIONAL alone: where it binds ?c the BGP must join it, where not it joins freely.
      {"{ ?a :p ?b OPTIONAL { ?b :q ?c } ?c :r ?d }", false},
      // The OPTIONAL's condition reads ?d, which the BGP binds.
      {"{ ?a :p ?b OPTIONAL { ?b :q ?c FILTER(?d = :d2) } ?a :r ?d }", false},
      // ... through an EXISTS.
      {"{ ?a :p ?b OPTIONAL { ?b :q ?c FILTER NOT EXISTS { ?c :s ?d } } ?a :r ?d }", false},
      // The inner of two OPTIONALs shares ?c with it.
      {"{ ?a :p ?b OPTIONAL { ?b :q ?c } OPTIONAL { ?a :t ?n } ?c :r ?d }", false},
      // Inside an OPTIONAL's group too (the outer OPTIONAL stays at the top either way).
      {"{ ?a :p ?b OPTIONAL { ?b :q ?c OPTIONAL { ?c :s ?e } ?c :r ?d } }", true},
  };
  const auto data = graph();
  TempDir dir;
  Database db(loadGraph(dir.path(), data));
  for (const Case& c : cases) {
    CAPTURE(c.where);
    sparql::OpPtr kept;
    const Op& op = pattern(c.where, kept);
    const std::string algebra = sparql::algebraToString(sparql::parseQuery(kPrefix + "SELECT * WHERE " + c.where), {false});
    CAPTURE(algebra);
    // Moved: no Join is left at the top, the OPTIONAL is; else the Join stays.
    CHECK((op.kind == Op::Kind::LeftJoin) == c.moves);
    const std::string text = kPrefix + "SELECT * WHERE " + c.where;
    const auto expected = referenceKeys(text, data);
    CHECK(engineKeys(db, text) == expected);
  }
  // Where it moves, the BGP holds both sets of triples.
  sparql::OpPtr kept;
  const Op* base = &pattern("{ ?a :p ?b OPTIONAL { ?b :q ?c } OPTIONAL { ?a :t ?n } ?a :r ?d }", kept);
  while (base->kind == Op::Kind::LeftJoin) base = base->children[0].get();
  REQUIRE(base->kind == Op::Kind::Bgp);
  CHECK(base->triples.size() == 2);
  CHECK(base->queryGraph != nullptr);
}
