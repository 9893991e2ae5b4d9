#include <doctest/doctest.h>

#include <algorithm>

#include "gsparql/database.h"
#include "support/loaded_database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

using Rows = std::vector<std::vector<std::optional<std::string>>>;

struct Fixture : LoadedDatabase {
  using LoadedDatabase::LoadedDatabase;
  Rows rows(const std::string& query, Semantics semantics = Semantics::Homomorphism) const {
    QueryOptions options;
    options.backend = Backend::Cpu;
    options.semantics = semantics;
    return db->query(query, options).rows();
  }
};

std::optional<std::string> t(const char* term) { return std::string(term); }

const char* kNumbers =
    "<http://e/a> <http://e/v> \"10\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n"
    "<http://e/b> <http://e/v> \"9\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n"
    "<http://e/c> <http://e/v> \"2.5\"^^<http://www.w3.org/2001/XMLSchema#decimal> .\n"
    "<http://e/d> <http://e/v> \"9\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n"
    "<http://e/a> <http://e/tag> \"x\" .\n"
    "<http://e/b> <http://e/tag> \"x\" .\n";

}  // namespace

TEST_CASE("without DISTINCT duplicates are kept (bag semantics), DISTINCT and REDUCED remove them") {
  Fixture f(kNumbers);
  CHECK(f.rows("SELECT ?t WHERE { ?s <http://e/tag> ?t }") == Rows{{t("\"x\"")}, {t("\"x\"")}});
  CHECK(f.rows("SELECT DISTINCT ?t WHERE { ?s <http://e/tag> ?t }") == Rows{{t("\"x\"")}});
  CHECK(f.rows("SELECT REDUCED ?t WHERE { ?s <http://e/tag> ?t }").size() == 1);
  // A blank node is an existential variable: each of its matches counts.
  CHECK(f.rows("SELECT ?t WHERE { _:s <http://e/tag> ?t }").size() == 2);
}

TEST_CASE("ORDER BY compares numbers by value, then LIMIT and OFFSET slice") {
  Fixture f(kNumbers);
  Rows ascending = f.rows("SELECT ?s ?v WHERE { ?s <http://e/v> ?v } ORDER BY ?v ?s");
  REQUIRE(ascending.size() == 4);
  CHECK(ascending[0][0] == t("<http://e/c>"));  // 2.5
  CHECK(ascending[1][0] == t("<http://e/b>"));  // 9, then by ?s
  CHECK(ascending[2][0] == t("<http://e/d>"));  // 9
  CHECK(ascending[3][0] == t("<http://e/a>"));  // 10
  Rows page = f.rows("SELECT ?s WHERE { ?s <http://e/v> ?v } ORDER BY DESC(?v) ?s LIMIT 2 OFFSET 1");
  CHECK(page == Rows{{t("<http://e/b>")}, {t("<http://e/d>")}});
  CHECK(f.rows("SELECT ?s WHERE { ?s <http://e/v> ?v } LIMIT 0").empty());
  CHECK(f.rows("SELECT ?s WHERE { ?s <http://e/v> ?v } OFFSET 10").empty());
}

TEST_CASE("ASK and COUNT") {
  Fixture f(kNumbers);
  CHECK(f.db->query("ASK { ?s <http://e/tag> \"x\" }").booleanValue());
  CHECK_FALSE(f.db->query("ASK { ?s <http://e/tag> \"y\" }").booleanValue());
  auto integer = [](int n) {
    return t(("\"" + std::to_string(n) + "\"^^<http://www.w3.org/2001/XMLSchema#integer>").c_str());
  };
  CHECK(f.rows("SELECT (COUNT(*) AS ?n) WHERE { ?s <http://e/v> ?v }") == Rows{{integer(4)}});
  CHECK(f.rows("SELECT (COUNT(DISTINCT ?v) AS ?n) WHERE { ?s <http://e/v> ?v }") == Rows{{integer(3)}});
  CHECK(f.rows("SELECT (COUNT(?t) AS ?n) WHERE { ?s <http://e/tag> ?t }") == Rows{{integer(2)}});
  CHECK(f.rows("SELECT (COUNT(*) AS ?n) WHERE { ?s <http://e/nothing> ?v }") == Rows{{integer(0)}});
}

TEST_CASE("a projected variable the pattern never binds is unbound") {
  Fixture f(kNumbers);
  Rows rows = f.rows("SELECT ?s ?nowhere WHERE { ?s <http://e/tag> \"x\" }");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0][1] == std::nullopt);
}

TEST_CASE("a variable projected twice is one column, as in Jena (the query fuzzer's crash)") {
  Fixture f(kNumbers);
  QueryOptions options;
  options.backend = Backend::Cpu;
  for (const char* query : {"SELECT ?s ?s ?v WHERE { ?s <http://e/v> ?v }", "SELECT ?s ?v ?s ?v WHERE { ?s ?p ?v }",
                            "SELECT ?p ?p WHERE { ?s ?p ?v }"}) {
    CAPTURE(query);
    const QueryResult result = f.db->query(query, options);
    std::vector<std::string> distinct = result.variables();
    std::sort(distinct.begin(), distinct.end());
    CHECK(std::unique(distinct.begin(), distinct.end()) == distinct.end());
    for (const auto& row : result.rows()) {
      CHECK(row.size() == result.variables().size());
      for (const auto& cell : row) CHECK(cell.has_value());
    }
    CHECK(result.rowCount() > 0);
  }
}

TEST_CASE("row estimates: every operator and join step that ran, with its q-error") {
  Fixture f(kNumbers);
  const QueryResult result =
      f.db->query("SELECT ?s ?t WHERE { ?s <http://e/v> ?v . ?s <http://e/tag> ?t } LIMIT 5", {.backend = Backend::Cpu});
  const std::vector<RowEstimate> estimates = result.rowEstimates();
  REQUIRE(estimates.size() >= 3);
  CHECK(estimates.front().what.starts_with("Slice"));
  CHECK(estimates.front().actual == result.rowCount());
  size_t steps = 0;
  for (const RowEstimate& e : estimates) {
    CHECK(e.qError >= 1);
    CHECK(e.qError == doctest::Approx(std::max(std::max(e.estimated, 1.0) / std::max<double>(e.actual, 1),
                                               std::max<double>(e.actual, 1) / std::max(e.estimated, 1.0))));
    steps += e.what.starts_with("join step");
  }
  CHECK(steps == 3);  // one per query vertex: ?s, ?v, ?t
}

TEST_CASE("failed SERVICE calls and syntax errors are QueryErrors with positions") {
  Fixture f(kNumbers);
  try {  // port 1: nothing listens there
    f.db->query("SELECT * WHERE {\n  ?s <http://e/v> ?v\n  SERVICE <http://127.0.0.1:1/> { ?s <http://e/tag> ?t }\n}");
    FAIL("SERVICE should fail");
  } catch (const QueryError& e) {
    CHECK(std::string(e.what()).starts_with("SERVICE <http://127.0.0.1:1/> at 3:3 failed: "));
    CHECK(e.line() == 3);
    CHECK(e.column() == 3);
  }
  CHECK_THROWS_WITH_AS(f.db->query("SELECT * WHERE { ?s ?p ?o SERVICE <file:///etc/passwd> { ?s ?p ?o } }"),
                       doctest::Contains("SERVICE <file:///etc/passwd> is refused: only http and https"), QueryError);
  try {
    f.db->query("SELECT ?x WHERE { ?x }");
    FAIL("a syntax error should be rejected");
  } catch (const QueryError& e) {
    CHECK(e.line() == 1);
    const std::string message = e.what();
    CHECK(message.find('^') != std::string::npos);
    const std::string position = std::to_string(e.line()) + ":" + std::to_string(e.column()) + ":";
    CHECK(message.starts_with(position + " syntax error"));
    CHECK(message.find(position, 1) == std::string::npos);  // the position is said once
  }
  CHECK_THROWS_AS(f.db->query("SELECT * WHERE { ?s ?p ?o }", QueryOptions{.backend = Backend::Gpu}), QueryError);
}

TEST_CASE("language tags compare without case, the spelling first loaded is kept") {
  Fixture f("<http://e/s> <http://e/p> \"colour\"@en-GB .\n"
            "<http://e/s> <http://e/p> \"colour\"@EN-gb .\n"
            "<http://e/s> <http://e/q> \"colour\"@en .\n");
  // One term; the dump, canonical N-Triples, writes its tag in lower case.
  CHECK(sortedDump(f.dir / "db") == std::vector<std::string>{"<http://e/s> <http://e/p> \"colour\"@en-gb .",
                                                             "<http://e/s> <http://e/q> \"colour\"@en ."});
  CHECK(f.rows("SELECT ?o WHERE { ?s <http://e/p> ?o }") == Rows{{t("\"colour\"@en-GB")}});
  CHECK(f.rows("SELECT ?s WHERE { ?s <http://e/p> \"colour\"@EN-GB }") == Rows{{t("<http://e/s>")}});
  CHECK(f.rows("SELECT ?o WHERE { ?s <http://e/q> ?o }") == Rows{{t("\"colour\"@en")}});
}
