// SPARQL 1.2 triple terms and reification through the public API: the same
// random statements about statements written twice, once with RDF 1.2
// reifiers (`?r rdf:reifies <<( s p o )>>`) and once in plain RDF 1.1
// (`?r e:rs s ; e:rp p ; e:ro o`), and each SPARQL 1.2 query compared with
// the SPARQL 1.1 query that asks the same of the second encoding.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "gsparql/error.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

const std::string kPrefixes =
    "PREFIX e: <http://e/> PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> ";

struct Reification {
  std::string reifier, subject, predicate, object;
};

// Reifiers are IRIs (blank ones are the templates' test); an object is an IRI, a literal (with a
// language tag in either case) or, nested, an earlier reification's triple.
std::vector<Reification> randomReifications(std::mt19937& random, size_t count) {
  const std::vector<std::string> nodes = {"e:a", "e:b", "e:c"};
  const std::vector<std::string> predicates = {"e:p", "e:q"};
  const std::vector<std::string> literals = {"\"x\"", "\"x\"@en", "\"y\"@ar--rtl", "1"};
  std::vector<Reification> out;
  for (size_t i = 0; i < count; ++i) {
    Reification r;
    r.reifier = "e:r" + std::to_string(i);
    r.subject = nodes[random() % nodes.size()];
    r.predicate = predicates[random() % predicates.size()];
    const auto pick = random() % 4;
    r.object = pick == 0 ? literals[random() % literals.size()] : nodes[random() % nodes.size()];
    if (pick == 1 && !out.empty()) r.object = "#" + std::to_string(random() % out.size());  // nested
    out.push_back(r);
  }
  return out;
}

// The triple term of reification `i`, nested ones written out.
std::string tripleTerm(const std::vector<Reification>& all, size_t i) {
  const Reification& r = all[i];
  const std::string object = r.object.starts_with("#") ? tripleTerm(all, std::stoul(r.object.substr(1))) : r.object;
  return "<<( " + r.subject + " " + r.predicate + " " + object + " )>>";
}

struct Encodings {
  TempDir dir;
  std::optional<Database> rdf12, rdf11;

  explicit Encodings(const std::vector<Reification>& all) {
    std::string data12, data11;
    for (size_t i = 0; i < all.size(); ++i) {
      const Reification& r = all[i];
      const std::string source = " e:source e:g" + std::to_string(i % 3) + " .\n";
      data12 += r.reifier + " rdf:reifies " + tripleTerm(all, i) + " ; " + source;
      // A nested triple is named by the reifier of the reification it comes from.
      const std::string object = r.object.starts_with("#") ? "e:t" + r.object.substr(1) : r.object;
      data11 += r.reifier + " e:rs " + r.subject + " ; e:rp " + r.predicate + " ; e:ro " + object + " ; e:t e:t" +
                std::to_string(i) + " ; " + source;
    }
    Database::update(dir / "12", kPrefixes + "INSERT DATA {\n" + data12 + "}");
    Database::update(dir / "11", kPrefixes + "INSERT DATA {\n" + data11 + "}");
    rdf12.emplace(dir / "12");
    rdf11.emplace(dir / "11");
  }
  static std::vector<std::string> rows(const Database& db, const std::string& query) {
    QueryOptions options;
    options.backend = Backend::Cpu;
    return sortedLines(db.query(kPrefixes + query, options));
  }
};

}  // namespace

TEST_CASE("SPARQL 1.2: reified triple patterns give the rows of the same question asked of RDF 1.1 reification") {
  struct Pair {
    const char* rdf12;
    const char* rdf11;
  };
  const Pair pairs[] = {
      {"SELECT ?s ?p ?g { << ?s ?p e:a >> e:source ?g }",
       "SELECT ?s ?p ?g { ?r e:rs ?s ; e:rp ?p ; e:ro e:a ; e:source ?g }"},
      {"SELECT ?s ?o { << ?s e:p ?o ~ ?r >> e:source e:g1 FILTER(!isTRIPLE(?o)) }",
       "SELECT ?s ?o { ?r e:rs ?s ; e:rp e:p ; e:ro ?o ; e:source e:g1 FILTER NOT EXISTS { ?x e:t ?o } }"},
      // The same variable twice in one triple term.
      {"SELECT ?x ?g { << ?x ?p ?x >> e:source ?g }", "SELECT ?x ?g { ?r e:rs ?x ; e:rp ?p ; e:ro ?x ; e:source ?g }"},
      // A literal matched whatever the case of its language tag.
      {"SELECT ?s { << ?s ?p \"x\"@en >> e:source ?g }", "SELECT ?s { ?r e:rs ?s ; e:rp ?p ; e:ro \"x\"@en ; e:source ?g }"},
      // Nested: a triple about a triple, the inner one matched by parts.
      {"SELECT ?s ?a ?g { ?r rdf:reifies <<( ?s e:q <<( ?a ?p ?b )>> )>> ; e:source ?g }",
       "SELECT ?s ?a ?g { ?r e:rs ?s ; e:rp e:q ; e:ro ?t ; e:source ?g . ?i e:t ?t ; e:rs ?a ; e:rp ?p ; e:ro ?b }"},
      // A blank node inside a triple term matches like a variable.
      {"SELECT ?g { ?r rdf:reifies <<( _:x e:p _:x )>> ; e:source ?g }",
       "SELECT ?g { ?r e:rs ?x ; e:rp e:p ; e:ro ?x ; e:source ?g }"},
      // A triple term's parts joined with another pattern.
      {"SELECT ?r ?r2 { ?r rdf:reifies <<( ?s e:p ?o )>> . ?r2 rdf:reifies <<( ?o e:q ?z )>> }",
       "SELECT ?r ?r2 { ?r e:rs ?s ; e:rp e:p ; e:ro ?o . ?r2 e:rs ?o ; e:rp e:q ; e:ro ?z }"},
      // The functions on triple terms.
      {"SELECT ?r (STR(SUBJECT(?t)) AS ?s) (PREDICATE(?t) AS ?p) { ?r rdf:reifies ?t }",
       "SELECT ?r (STR(?s) AS ?s2) (?p AS ?p2) { ?r e:rs ?s ; e:rp ?p }"},
      {"SELECT (COUNT(*) AS ?n) { ?r rdf:reifies ?t FILTER(isTRIPLE(OBJECT(?t))) }",
       "SELECT (COUNT(*) AS ?n) { ?r e:ro ?o . ?x e:t ?o }"},
  };
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 random(seed);
    Encodings db(randomReifications(random, 12));
    for (const Pair& pair : pairs) {
      CAPTURE(seed);
      CAPTURE(pair.rdf12);
      CHECK(Encodings::rows(*db.rdf12, pair.rdf12) == Encodings::rows(*db.rdf11, pair.rdf11));
    }
  }
}

TEST_CASE("SPARQL 1.2: templates build triple terms, and reified triples and annotations expand to rdf:reifies") {
  TempDir dir;
  Database::update(dir / "db", kPrefixes + "INSERT DATA { e:a e:p e:b . e:b e:p \"x\"@ar--rtl }");
  Database::update(dir / "db", kPrefixes + "INSERT { ?s ?p ?o {| e:source e:w |} } WHERE { ?s ?p ?o }");
  Database db(dir / "db");
  QueryOptions options;
  options.backend = Backend::Cpu;
  auto rows = [&](const std::string& query) { return sortedLines(db.query(kPrefixes + query, options)); };
  CHECK(rows("SELECT ?s ?o { << ?s e:p ?o >> e:source e:w }") ==
        rows("SELECT ?s ?o { ?s e:p ?o FILTER(!isBLANK(?s)) }"));
  // CONSTRUCT: one new reifier per solution, the triple term of its parts.
  std::vector<std::string> objects;
  db.query(kPrefixes + "CONSTRUCT { << ?s e:p ?o >> e:said e:me } WHERE { ?s e:p ?o FILTER(isIRI(?s)) }", options)
      .forEachTriple([&](std::string_view, std::string_view, std::string_view o) { objects.emplace_back(o); });
  std::sort(objects.begin(), objects.end());
  CHECK(objects == std::vector<std::string>{"<<( <http://e/a> <http://e/p> <http://e/b> )>>",
                                            "<<( <http://e/b> <http://e/p> \"x\"@ar--rtl )>>", "<http://e/me>",
                                            "<http://e/me>"});
  CHECK(rows("SELECT (COUNT(DISTINCT ?r) AS ?n) { ?r e:source e:w }") ==
        rows("SELECT (COUNT(*) AS ?n) { ?s e:p ?o FILTER(isIRI(?s)) }"));
  // The triple term keeps the base direction of its literal.
  CHECK(rows("SELECT (LANGDIR(OBJECT(?t)) AS ?d) (LANG(OBJECT(?t)) AS ?l) { ?r rdf:reifies ?t FILTER(isLITERAL(OBJECT(?t))) }") ==
        std::vector<std::string>{"\"rtl\"\t\"ar\""});
  // Deleting by a template with a triple term.
  Database::update(dir / "db", kPrefixes + "DELETE { ?r rdf:reifies <<( ?s ?p ?o )>> } WHERE { ?r rdf:reifies <<( ?s ?p ?o )>> }");
  Database after(dir / "db");
  CHECK(sortedLines(after.query(kPrefixes + "SELECT * { ?r rdf:reifies ?t }", options)).empty());
}

TEST_CASE("SPARQL 1.2 functions: TRIPLE and its parts, base directions, errors as unbound") {
  TempDir dir;
  Database::update(dir / "db", kPrefixes + "INSERT DATA { e:a e:p e:b }");
  Database db(dir / "db");
  QueryOptions options;
  options.backend = Backend::Cpu;
  auto row = [&](const std::string& select) {
    auto lines = sortedLines(db.query(kPrefixes + "SELECT " + select + " {}", options));
    REQUIRE(lines.size() == 1);
    return lines[0];
  };
  CHECK(row("(TRIPLE(e:a, e:p, \"x\") AS ?t)") == "<<( <http://e/a> <http://e/p> \"x\" )>>");
  CHECK(row("(SUBJECT(<<( e:a e:p <<( e:b e:q 1 )>> )>>) AS ?s)") == "<http://e/a>");
  CHECK(row("(OBJECT(OBJECT(<<( e:a e:p <<( e:b e:q 1 )>> )>>)) AS ?o)") ==
        "\"1\"^^<http://www.w3.org/2001/XMLSchema#integer>");
  CHECK(row("(isTRIPLE(<<( e:a e:p e:b )>>) AS ?x) (isTRIPLE(e:a) AS ?y)") ==
        "\"true\"^^<http://www.w3.org/2001/XMLSchema#boolean>\t\"false\"^^<http://www.w3.org/2001/XMLSchema#boolean>");
  // A literal subject, an unbound part, SUBJECT of an IRI, STR of a triple term: errors, so unbound.
  CHECK(row("(TRIPLE(\"a\", e:p, e:b) AS ?t) (TRIPLE(e:a, e:p, ?u) AS ?t2) (SUBJECT(e:a) AS ?s) "
            "(STR(<<( e:a e:p e:b )>>) AS ?x) (1 AS ?one)") == "\t\t\t\t\"1\"^^<http://www.w3.org/2001/XMLSchema#integer>");
  CHECK(row("(STRLANGDIR(\"x\", \"ar\", \"rtl\") AS ?l) (hasLANGDIR(?l) AS ?d) (hasLANG(\"x\") AS ?n)") ==
        "\"x\"@ar--rtl\t\"true\"^^<http://www.w3.org/2001/XMLSchema#boolean>\t"
        "\"false\"^^<http://www.w3.org/2001/XMLSchema#boolean>");
  CHECK(row("(STRLANGDIR(\"x\", \"ar\", \"up\") AS ?l) (DATATYPE(\"x\"@ar--rtl) AS ?d)") ==
        "\t<http://www.w3.org/1999/02/22-rdf-syntax-ns#dirLangString>");
}

TEST_CASE("SPARQL 1.2 bad input: clear errors at the query's position") {
  TempDir dir;
  Database::update(dir / "db", kPrefixes + "INSERT DATA { e:a e:p e:b }");
  Database db(dir / "db");
  std::string deep = "SELECT * { ?s ?p ";
  for (int i = 0; i < 100000; ++i) deep += "<<( e:a e:p ";
  deep += "e:b";
  for (int i = 0; i < 100000; ++i) deep += " )>>";
  deep += " }";
  CHECK_THROWS_AS(db.query(deep), QueryError);  // refused before any recursion
  for (const char* bad : {
           "SELECT * { <<( ?s ?p ?o )>> . }",                    // a triple term is no triple
           "SELECT * { <<( \"a\" ?p ?o )>> e:q 1 }",             // a literal subject
           "SELECT * { ?s e:p/e:q ?o {| e:r 1 |} }",            // an annotation of a path
           "SELECT (\"x\"@en--up AS ?x) {}",                     // not a base direction
           "SELECT * { VALUES ?t { <<( e:a e:p ?x )>> } }",      // a variable in data
       }) {
    CAPTURE(bad);
    CHECK_THROWS_AS(db.query(kPrefixes + bad), QueryError);
  }
  CHECK_THROWS_AS(Database::update(dir / "db", kPrefixes + "DELETE DATA { e:a e:p <<( _:b e:p e:c )>> }"), QueryError);
}

TEST_CASE("SPARQL 1.2: blank nodes inside triple terms of updates are new ones, the same inside and outside a term") {
  TempDir dir;
  const auto update = [&](const std::string& request) { Database::update(dir / "db", kPrefixes + request); };
  update("INSERT DATA { e:x e:says <<( _:b e:p e:o )>> . _:b e:name \"first\" }");
  update("INSERT DATA { e:x e:says <<( _:b e:p e:o )>> . _:b e:name \"second\" }");
  update("INSERT { e:y e:says <<( _:c e:p ?o )>> . _:c e:name ?n } WHERE { ?b e:name ?n . e:x e:says <<( ?b e:p ?o )>> }");
  Database db(dir / "db");
  QueryOptions options;
  options.backend = Backend::Cpu;
  auto rows = [&](const std::string& query) { return sortedLines(db.query(kPrefixes + query, options)); };
  // Two requests, two blank nodes: two triple terms, each with the name given beside it.
  CHECK(rows("SELECT ?n { e:x e:says ?t . ?b e:name ?n FILTER(sameTerm(SUBJECT(?t), ?b)) }") ==
        std::vector<std::string>{"\"first\"", "\"second\""});
  // The template's blank node: one per solution, inside and outside the triple term alike.
  CHECK(rows("SELECT ?n { e:y e:says ?t . ?b e:name ?n FILTER(sameTerm(SUBJECT(?t), ?b)) }") ==
        std::vector<std::string>{"\"first\"", "\"second\""});
  CHECK(rows("SELECT (COUNT(DISTINCT ?t) AS ?n) { ?s e:says ?t }") ==
        std::vector<std::string>{"\"4\"^^<http://www.w3.org/2001/XMLSchema#integer>"});
  CHECK_THROWS_AS(update("INSERT DATA { e:x e:says <<( ?v e:p e:o )>> }"), QueryError);
}

TEST_CASE("SPARQL 1.2: = compares triple terms part by part, by value, sameTerm and ORDER BY as terms") {
  TempDir dir;
  Database::update(dir / "db", kPrefixes + R"(INSERT DATA {
    e:x1 e:l <<( e:a e:b 123 )>> ; e:r <<( e:a e:b 123.0 )>> .
    e:x2 e:l <<( e:a e:q <<( e:a e:b 123 )>> )>> ; e:r <<( e:a e:q <<( e:a e:b 1.23e2 )>> )>> .
    e:x3 e:l <<( e:a e:b 123 )>> ; e:r <<( e:c e:b 123 )>> .
    e:x4 e:l <<( e:a e:b 9 )>> ; e:r "9"^^<http://www.w3.org/2001/XMLSchema#integer> . })");
  Database db(dir / "db");
  QueryOptions options;
  options.backend = Backend::Cpu;
  auto rows = [&](const std::string& query) { return sortedLines(db.query(kPrefixes + query, options)); };
  CHECK(rows("SELECT ?x { ?x e:l ?l ; e:r ?r FILTER(?l = ?r) }") ==
        std::vector<std::string>{"<http://e/x1>", "<http://e/x2>"});
  CHECK(rows("SELECT ?x { ?x e:l ?l ; e:r ?r FILTER(sameTerm(?l, ?r)) }").empty());
  CHECK(rows("SELECT ?x { ?x e:l ?l FILTER(?l IN (<<( e:a e:b 123.00 )>>, 7)) }") ==
        std::vector<std::string>{"<http://e/x1>", "<http://e/x3>"});
  // Literals before triple terms; triple terms by their parts.
  const auto ordered = db.query(kPrefixes + "SELECT ?v { ?x ?p ?v } ORDER BY ?v", options);
  std::vector<std::string> order;
  ordered.forEachRow([&](std::span<const Term> row) { order.emplace_back(*row[0]); });
  REQUIRE(order.size() == 8);
  CHECK(order[0] == "\"9\"^^<http://www.w3.org/2001/XMLSchema#integer>");
  CHECK(order[1].starts_with("<<( <http://e/a> <http://e/b> "));
  CHECK(order.back().starts_with("<<( <http://e/c> "));
}
