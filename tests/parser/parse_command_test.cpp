// `gsparql parse` through its entry function.
#include <iostream>

#include "cli/parse_command.h"
#include "helpers.h"

namespace {

struct Run {
  int rc;
  std::string out, err;
};

Run run(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  auto* oldOut = std::cout.rdbuf(out.rdbuf());
  auto* oldErr = std::cerr.rdbuf(err.rdbuf());
  int rc = gsparql::cli::runParseCommand(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(oldOut);
  std::cerr.rdbuf(oldErr);
  return {rc, out.str(), err.str()};
}

}  // namespace

TEST_CASE("parse prints the algebra and one query graph per BGP") {
  Run r = run({"parse", "SELECT * { ?x <p> ?y OPTIONAL { ?y <q> ?z . ?a <r> ?b } }"});
  CHECK(r.rc == 0);
  CHECK(r.out.find("(leftjoin @1:22") != std::string::npos);
  CHECK(r.out.find("BGP 1 at 1:12, 1 triple pattern(s)") != std::string::npos);
  CHECK(r.out.find("BGP 2 at 1:33, 2 triple pattern(s)") != std::string::npos);
  CHECK(r.out.find("components: 2 {v0 v1} {v2 v3}") != std::string::npos);
}

TEST_CASE("parse -f reads a file, errors and usage have their own exit codes") {
  Run file = run({"parse", "-f", std::string(GSPARQL_PARSER_TEST_DATA) + "/watdiv/C1_01.rq"});
  CHECK(file.rc == 0);
  CHECK(file.out.find("(project (?v0 ?v4 ?v6 ?v7)") != std::string::npos);
  Run bad = run({"parse", "SELECT * {"});
  CHECK(bad.rc == 1);
  CHECK(bad.err.find("1:11: syntax error at end of query") != std::string::npos);
  CHECK(run({"parse"}).rc == 2);
  CHECK(run({"parse", "-f", "/nonexistent/q.rq"}).rc == 2);
}
