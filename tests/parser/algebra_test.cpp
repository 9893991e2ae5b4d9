// Section 18 translation: one test per operator and per rewriting rule.
#include "helpers.h"

using namespace gsparql::sparql;
using namespace gsparql::sparql::test;

TEST_CASE("triples blocks separated only by FILTER form one BGP, the filter covers the group") {
  Query q = parse("SELECT * { ?s :p ?o FILTER(?o > 1) ?o :q ?z }");
  const Op& w = where(q);
  REQUIRE(w.kind == Op::Kind::Filter);
  CHECK(w.exprs.size() == 1);
  CHECK(w.exprs[0].name == ">");
  REQUIRE(w.children[0]->kind == Op::Kind::Bgp);
  CHECK(w.children[0]->triples.size() == 2);
}

TEST_CASE("OPTIONAL with a FILTER is a LeftJoin carrying the filter, positions are kept") {
  Query q = parse("SELECT * {\n  ?s :p ?o .\n  OPTIONAL { ?o :q ?z FILTER(?z != 0) }\n}");
  const Op& w = where(q);
  REQUIRE(w.kind == Op::Kind::LeftJoin);
  CHECK(w.pos == Position{4, 3});  // line 1 is the PREFIX added by parse()
  CHECK(w.children[0]->kind == Op::Kind::Bgp);
  CHECK(w.children[1]->kind == Op::Kind::Bgp);
  REQUIRE(w.exprs.size() == 1);
  CHECK(w.exprs[0].name == "!=");
}

TEST_CASE("UNION is left-associative, MINUS and GRAPH and SERVICE wrap their groups") {
  Query q = parse("SELECT * { {?s :a ?o} UNION {?s :b ?o} UNION {?s :c ?o} MINUS { GRAPH ?g { ?s :d ?o } } "
                  "SERVICE SILENT <http://e/sparql> { ?s :e ?o } }");
  const Op& w = where(q);
  REQUIRE(w.kind == Op::Kind::Join);
  const Op& minus = *w.children[0];
  REQUIRE(minus.kind == Op::Kind::Minus);
  const Op& u = *minus.children[0];
  REQUIRE(u.kind == Op::Kind::Union);
  CHECK(u.children[0]->kind == Op::Kind::Union);
  CHECK(u.children[1]->triples[0].predicate == con(ex("c")));
  REQUIRE(minus.children[1]->kind == Op::Kind::Graph);
  CHECK(minus.children[1]->graph == var("g"));
  REQUIRE(w.children[1]->kind == Op::Kind::Service);
  CHECK(w.children[1]->silent);
}

TEST_CASE("BIND extends the pattern before it, VALUES is a table joined in") {
  Query q = parse("SELECT * { ?s :p ?o BIND(?o + 1 AS ?n) VALUES (?s ?k) { (:a 1) (UNDEF 2) } }");
  const Op& w = where(q);
  REQUIRE(w.kind == Op::Kind::Join);
  REQUIRE(w.children[0]->kind == Op::Kind::Extend);
  CHECK(w.children[0]->bindings[0].var == "n");
  CHECK(w.children[0]->bindings[0].expr.name == "+");
  const Op& values = *w.children[1];
  REQUIRE(values.kind == Op::Kind::Values);
  CHECK(values.table.vars == std::vector<std::string>{"s", "k"});
  REQUIRE(values.table.rows.size() == 2);
  CHECK(values.table.rows[0][0] == ex("a"));
  CHECK_FALSE(values.table.rows[1][0].has_value());
}

TEST_CASE("property paths: links and sequences and inverses become triples, the rest Path nodes") {
  Query q = parse("SELECT * { ?a :p/^:q ?b . ?b :r+ ?c }");
  const Op& w = where(q);
  REQUIRE(w.kind == Op::Kind::Join);
  const Op& bgp = *w.children[0];
  REQUIRE(bgp.triples.size() == 2);
  CHECK(bgp.triples[0].subject == var("a"));
  Term mid = bgp.triples[0].object;
  CHECK(mid.kind == Term::Kind::Variable);
  CHECK(bgp.triples[1].subject == var("b"));  // ^:q swaps the ends
  CHECK(bgp.triples[1].object == mid);
  const Op& path = *w.children[1];
  REQUIRE(path.kind == Op::Kind::Path);
  CHECK(path.path.kind == Path::Kind::OneOrMore);
  CHECK(path.path.args[0].iri == ex("r"));
  CHECK(q.pattern->vars == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("aggregates: Group binds fresh variables, HAVING filters them, SELECT extends") {
  Query q = parse("SELECT ?g (COUNT(*) AS ?n) { ?s :g ?g } GROUP BY ?g HAVING (SUM(?s) > 2) ORDER BY ?n LIMIT 5 OFFSET 1");
  const Op* op = q.pattern.get();
  REQUIRE(op->kind == Op::Kind::Slice);
  CHECK(op->offset == 1);
  CHECK(op->limit == 5u);
  op = op->children[0].get();
  REQUIRE(op->kind == Op::Kind::Project);
  op = op->children[0].get();
  REQUIRE(op->kind == Op::Kind::OrderBy);
  op = op->children[0].get();
  REQUIRE(op->kind == Op::Kind::Extend);
  CHECK(op->bindings[0].var == "n");
  std::string countVar = op->bindings[0].expr.term.value;
  op = op->children[0].get();
  REQUIRE(op->kind == Op::Kind::Filter);
  op = op->children[0].get();
  REQUIRE(op->kind == Op::Kind::Group);
  REQUIRE(op->aggregates.size() == 2);
  CHECK(op->aggregates[0].var == countVar);
  CHECK(op->aggregates[0].expr.star);
  CHECK(op->aggregates[1].expr.name == "SUM");
  CHECK(op->bindings[0].var == "g");
}

TEST_CASE("DISTINCT, REDUCED, sub-queries and EXISTS") {
  Query q = parse("SELECT DISTINCT ?s { { SELECT REDUCED ?s { ?s :p ?o } } FILTER NOT EXISTS { ?s :q ?z } }");
  REQUIRE(q.pattern->kind == Op::Kind::Distinct);
  const Op& w = *q.pattern->children[0]->children[0];
  REQUIRE(w.kind == Op::Kind::Filter);
  CHECK(w.exprs[0].kind == Expr::Kind::NotExists);
  REQUIRE(w.exprs[0].pattern);
  CHECK(w.exprs[0].pattern->kind == Op::Kind::Bgp);
  CHECK(w.children[0]->kind == Op::Kind::Reduced);
}

TEST_CASE("CONSTRUCT, ASK and DESCRIBE forms") {
  Query c = parse("CONSTRUCT { ?s :q [ :r ?o ] } WHERE { ?s :p ?o }");
  CHECK(c.form == Query::Form::Construct);
  CHECK(c.constructTemplate.size() == 2);
  Query cw = parse("CONSTRUCT WHERE { ?s :p ?o }");
  CHECK(cw.constructTemplate.size() == 1);
  CHECK(cw.pattern->triples.size() == 1);
  Query a = parse("ASK { :a :b :c }");
  CHECK(a.form == Query::Form::Ask);
  Query d = parse("DESCRIBE ?x :y FROM <http://g> { ?x :p ?o }");
  CHECK(d.form == Query::Form::Describe);
  CHECK(d.describeTerms.size() == 2);
  CHECK(d.fromGraphs == std::vector<std::string>{"<http://g>"});
}

TEST_CASE("expressions keep operator structure") {
  Query q = parse("SELECT * { ?s :p ?o FILTER(?o -2 * 3 > 1 || !BOUND(?s) && ?o IN (1, 2)) }");
  const Expr& e = where(q).exprs[0];
  REQUIRE(e.name == "||");
  const Expr& gt = e.args[0];
  CHECK(gt.name == ">");
  CHECK(gt.args[0].name == "-");              // ?o - (2 * 3)
  CHECK(gt.args[0].args[1].name == "*");
  CHECK(gt.args[0].args[1].args[0].term.value == xsd("2", "integer"));
  CHECK(e.args[1].name == "&&");
  CHECK(e.args[1].args[0].name == "!");
  CHECK(e.args[1].args[1].name == "IN");
  CHECK(e.args[1].args[1].args.size() == 3);
}

TEST_CASE("in-scope variables follow section 18.2.1") {
  Query q = parse("SELECT * { ?a :p ?b OPTIONAL { ?b :q ?c } MINUS { ?a :r ?d } BIND(1 AS ?e) }");
  CHECK(inScopeVariables(where(q)) == std::vector<std::string>{"a", "b", "c", "e"});
}
