// SPARQL 1.1 Update requests: the operations parseUpdate() builds, and the
// positions of what it rejects.
#include "helpers.h"

using namespace gsparql::sparql;
using namespace gsparql::sparql::test;

namespace {

using Kind = UpdateOperation::Kind;

UpdateRequest update(const std::string& body) { return parseUpdate("PREFIX : <" + kEx + ">\n" + body); }

Position errorPosition(const std::string& text) {
  try {
    parseUpdate(text);
  } catch (const SyntaxError& e) {
    return e.position();
  }
  FAIL("accepted: " << text);
  return {};
}

}  // namespace

TEST_CASE("operations in order, each prologue adding to the prefixes before it") {
  const UpdateRequest r = parseUpdate(
      "PREFIX a: <http://a/> INSERT DATA { a:s a:p 1 } ;\n"
      "PREFIX b: <http://b/> DELETE DATA { a:s b:p \"x\"@en } ; CLEAR SILENT DEFAULT ;");
  REQUIRE(r.operations.size() == 3);
  CHECK(r.operations[0].kind == Kind::InsertData);
  CHECK(r.operations[0].insertQuads.size() == 1);
  CHECK(r.operations[0].insertQuads[0].triple.object == con(xsd("1", "integer")));
  CHECK(r.operations[1].kind == Kind::DeleteData);
  CHECK(r.operations[1].deleteQuads[0].triple.predicate == con("<http://b/p>"));
  CHECK(r.operations[1].pos == Position{2, 23});
  CHECK(r.operations[2].kind == Kind::Clear);
  CHECK(r.operations[2].silent);
  CHECK(r.operations[2].target.kind == GraphTarget::Kind::Default);
  CHECK(parseUpdate("").operations.empty());
  CHECK(parseUpdate("PREFIX a: <http://a/>").operations.empty());
}

TEST_CASE("DELETE/INSERT WHERE keeps both templates and translates the pattern") {
  const UpdateRequest r =
      update("WITH :g DELETE { ?s :p ?o } INSERT { ?o :q [ :r ?s ] } USING :u USING NAMED :n WHERE { ?s :p ?o "
             "OPTIONAL { ?o :x ?y } }");
  REQUIRE(r.operations.size() == 1);
  const UpdateOperation& op = r.operations[0];
  CHECK(op.kind == Kind::Modify);
  CHECK(op.with == ex("g"));
  CHECK(op.usingGraphs == std::vector<std::string>{ex("u")});
  CHECK(op.usingNamedGraphs == std::vector<std::string>{ex("n")});
  REQUIRE(op.deleteQuads.size() == 1);
  CHECK(op.deleteQuads[0].inDefaultGraph());
  REQUIRE(op.insertQuads.size() == 2);  // ?o :q _:b . _:b :r ?s
  const auto blankObject = [](const Quad& q) { return q.triple.object.kind == Term::Kind::Blank; };
  CHECK(std::count_if(op.insertQuads.begin(), op.insertQuads.end(), blankObject) == 1);
  REQUIRE(op.where);
  CHECK(op.where->kind == Op::Kind::LeftJoin);
}

TEST_CASE("DELETE WHERE is its template as a pattern, GRAPH blocks keep their graph") {
  const UpdateRequest r = update("DELETE WHERE { ?s :p ?o . GRAPH :g { ?s :q ?o } }");
  const UpdateOperation& op = r.operations.at(0);
  CHECK(op.kind == Kind::DeleteWhere);
  REQUIRE(op.deleteQuads.size() == 2);
  CHECK(op.deleteQuads[0].inDefaultGraph());
  CHECK(op.deleteQuads[1].graph == con(ex("g")));
  REQUIRE(op.where);
  CHECK(op.where->kind == Op::Kind::Join);
}

TEST_CASE("graph management operations name their graphs") {
  const UpdateRequest r = update(
      "LOAD SILENT <file:///tmp/x.nt> INTO GRAPH :g ; DROP NAMED ; CREATE GRAPH :c ; ADD DEFAULT TO :t ; "
      "MOVE GRAPH :a TO DEFAULT ; COPY :a TO :b ; CLEAR ALL");
  REQUIRE(r.operations.size() == 7);
  CHECK(r.operations[0].kind == Kind::Load);
  CHECK(r.operations[0].source == "<file:///tmp/x.nt>");
  CHECK(r.operations[0].target.iri == ex("g"));
  CHECK(r.operations[1].target.kind == GraphTarget::Kind::AllNamed);
  CHECK(r.operations[2].target.iri == ex("c"));
  CHECK(r.operations[3].from.kind == GraphTarget::Kind::Default);
  CHECK(r.operations[3].target.iri == ex("t"));
  CHECK(r.operations[4].kind == Kind::Move);
  CHECK(r.operations[4].from.iri == ex("a"));
  CHECK(r.operations[5].kind == Kind::Copy);
  CHECK(r.operations[6].target.kind == GraphTarget::Kind::All);
}

TEST_CASE("what the grammar allows and the recommendation forbids is rejected at its position") {
  CHECK(errorPosition("INSERT DATA { <http://a> <http://b> ?x }") == Position{1, 15});
  CHECK(errorPosition("DELETE DATA { _:b <http://b> 1 }") == Position{1, 15});
  CHECK(errorPosition("DELETE { [] <http://b> ?x } WHERE { ?s ?p ?x }") == Position{1, 10});
  CHECK(errorPosition("DELETE WHERE { _:b <http://b> ?x }") == Position{1, 16});
  CHECK(errorPosition("INSERT DATA { GRAPH ?g { <http://a> <http://b> 1 } }") == Position{1, 26});
  CHECK(errorPosition("INSERT DATA { <http://a> <http://b>+ 1 }") == Position{1, 26});
  CHECK(errorPosition("INSERT DATA { <http://a> <http://b> 1 } ;; CLEAR ALL") == Position{1, 42});
  CHECK(errorPosition("INSERT DATA { _:b <http://b> 1 } ;\nINSERT DATA { <http://a> <http://b> _:b }") == Position{2, 15});
  CHECK(parseUpdate("INSERT DATA { _:b <http://b> 1 . _:b <http://c> 2 }").operations.size() == 1);
}

TEST_CASE("a query is not an update and an update is not a query") {
  CHECK_THROWS_AS(parseUpdate("SELECT * { ?s ?p ?o }"), SyntaxError);
  CHECK_THROWS_WITH(parseQuery("PREFIX a: <http://a/> CLEAR ALL"), doctest::Contains("is a SPARQL Update request"));
  CHECK(isUpdateRequest("BASE <http://x/> PREFIX a: <http://a/> DELETE WHERE { ?s ?p ?o }"));
  CHECK(isUpdateRequest("  insert data { <http://a> <http://b> 1 }"));
  CHECK_FALSE(isUpdateRequest("ASK {}"));
  CHECK_FALSE(isUpdateRequest(""));
  CHECK_FALSE(isUpdateRequest("PREFIX"));
}
