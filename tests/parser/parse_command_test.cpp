// `gsparql parse` through its command: main() reports what it throws.
#include <iostream>

#include "cli/commands.h"
#include "gsparql/error.h"
#include "helpers.h"

namespace {

using gsparql::cli::Arguments;
using gsparql::cli::parseCommand;

struct Run {
  int rc;
  std::string out;
};

// Throws what the command throws (UsageError, QueryError).
Run run(const std::vector<std::string>& args) {
  const Arguments arguments(args, gsparql::cli::argumentSpec(parseCommand().usage));
  std::ostringstream out;
  auto* oldOut = std::cout.rdbuf(out.rdbuf());
  struct Restore {
    std::streambuf* old;
    ~Restore() { std::cout.rdbuf(old); }
  } restore{oldOut};
  const int rc = parseCommand().run(arguments);
  return {rc, out.str()};
}

}  // namespace

TEST_CASE("parse prints the algebra and one query graph per BGP") {
  Run r = run({"SELECT * { ?x <p> ?y OPTIONAL { ?y <q> ?z . ?a <r> ?b } }"});
  CHECK(r.rc == 0);
  CHECK(r.out.find("(leftjoin @1:22") != std::string::npos);
  CHECK(r.out.find("BGP 1 at 1:12, 1 triple pattern(s)") != std::string::npos);
  CHECK(r.out.find("BGP 2 at 1:33, 2 triple pattern(s)") != std::string::npos);
  CHECK(r.out.find("components: 2 {v0 v1} {v2 v3}") != std::string::npos);
}

TEST_CASE("parse -f reads a file, and syntax errors and misuse are thrown for main() to report") {
  Run file = run({"-f", std::string(GSPARQL_PARSER_TEST_DATA) + "/watdiv/C1_01.rq"});
  CHECK(file.rc == 0);
  CHECK(file.out.find("(project (?v0 ?v4 ?v6 ?v7)") != std::string::npos);
  CHECK_THROWS_WITH_AS(run({"SELECT * {"}), doctest::Contains("1:11: syntax error at end of query"),
                       gsparql::QueryError);
  CHECK_THROWS_AS(run({}), gsparql::cli::UsageError);
  CHECK_THROWS_AS(run({"-f", "/nonexistent/q.rq"}), gsparql::cli::UsageError);
  CHECK_THROWS_AS(run({"ASK {}", "-f", "/nonexistent/q.rq"}), gsparql::cli::UsageError);
  CHECK_THROWS_AS(run({"ASK {}", "ASK {}"}), gsparql::cli::UsageError);
}
