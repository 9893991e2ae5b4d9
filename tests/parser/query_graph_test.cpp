// The query graph cases the issue lists, one test each.
#include "helpers.h"

using namespace gsparql::sparql;
using namespace gsparql::sparql::test;

namespace {
QueryGraph graphOf(const std::string& bgp) {
  Query q = parse("SELECT * { " + bgp + " }");
  const Op& w = where(q);
  REQUIRE(w.kind == Op::Kind::Bgp);
  return QueryGraph::fromBgp(w.triples);
}
}  // namespace

TEST_CASE("a variable twice in one pattern is one vertex with a self-loop") {
  QueryGraph g = graphOf("?x :p ?x");
  REQUIRE(g.vertices().size() == 1);
  REQUIRE(g.edges().size() == 1);
  CHECK(g.edges()[0].from == 0);
  CHECK(g.edges()[0].to == 0);
  CHECK(g.edges()[0].predicate == con(ex("p")));
}

TEST_CASE("the same pattern twice is kept once (a BGP is a set)") {
  QueryGraph g = graphOf("?x :p ?y . ?x :p ?y");
  CHECK(g.vertices().size() == 2);
  CHECK(g.edges().size() == 1);
}

TEST_CASE("several patterns between the same two vertices are parallel edges") {
  QueryGraph g = graphOf("?x :p ?y . ?x :q ?y . ?y :r ?x");
  REQUIRE(g.vertices().size() == 2);
  REQUIRE(g.edges().size() == 3);
  CHECK(g.edges()[1].from == g.edges()[0].from);
  CHECK(g.edges()[1].to == g.edges()[0].to);
  CHECK(g.edges()[2].from == g.edges()[0].to);
}

TEST_CASE("a predicate variable also used as subject or object is recorded in both roles") {
  QueryGraph g = graphOf("?x ?p ?y . ?p :label ?l");
  auto p = g.vertexOf(var("p"));
  REQUIRE(p);
  REQUIRE(g.edges()[0].predicate == var("p"));
  CHECK(g.edges()[0].predicateVertex == p);
  CHECK(g.components().size() == 1);  // joined through ?p
  CHECK(g.predicateOnlyVariables().empty());
}

TEST_CASE("a predicate variable only in predicate position is an edge label, and joins its edges") {
  QueryGraph g = graphOf("?a ?p ?b . ?c ?p ?d");
  CHECK(g.vertices().size() == 4);
  CHECK_FALSE(g.edges()[0].predicateVertex);
  CHECK(g.predicateOnlyVariables() == std::vector<std::string>{"p"});
  CHECK(g.components().size() == 1);
}

TEST_CASE("a pattern with no variable is an edge between constants") {
  QueryGraph g = graphOf(":a :p :b");
  REQUIRE(g.vertices().size() == 2);
  CHECK(g.vertices()[0].term == con(ex("a")));
  CHECK(g.vertices()[1].term == con(ex("b")));
  CHECK(g.edges().size() == 1);
}

TEST_CASE("a disconnected BGP exposes its components (joined by cartesian product)") {
  QueryGraph g = graphOf("?a :p ?b . ?c :q ?d . ?b :r ?e");
  auto comps = g.components();
  REQUIRE(comps.size() == 2);
  CHECK(comps[0] == std::vector<std::uint32_t>{0, 1, 4});
  CHECK(comps[1] == std::vector<std::uint32_t>{2, 3});
}

TEST_CASE("constants absent from any data are still constant vertices and labels") {
  QueryGraph g = graphOf("?x :neverInData <http://nowhere/x>");
  REQUIRE(g.vertices().size() == 2);
  CHECK(g.vertices()[1].term.isConstant());
  CHECK(g.edges()[0].predicate == con(ex("neverInData")));
}

TEST_CASE("blank nodes are vertices of their own kind, shared by label") {
  QueryGraph g = graphOf("_:b :p ?x . _:b :q [ :r ?x ]");
  REQUIRE(g.vertices().size() == 3);
  CHECK(g.vertices()[0].term.kind == Term::Kind::Blank);
  CHECK(g.vertices()[2].term.kind == Term::Kind::Blank);
  CHECK(g.edges().size() == 3);
}

TEST_CASE("every BGP of a query is found, including those inside EXISTS") {
  Query q = parse("SELECT * { ?a :p ?b OPTIONAL { ?b :q ?c } FILTER EXISTS { ?c :r ?d } }");
  CHECK(basicGraphPatterns(*q.pattern).size() == 3);
}
