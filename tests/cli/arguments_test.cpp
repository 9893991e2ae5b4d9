// The shared argument parser of the subcommands (cli/arguments.h).
#include <doctest/doctest.h>

#include "cli/arguments.h"

using gsparql::cli::Arguments;
using gsparql::cli::ArgumentSpec;
using gsparql::cli::UsageError;
using Strings = std::vector<std::string>;

namespace {

const ArgumentSpec kSpec{{"--db", "--format", "-f"}, {"--quiet"}, 1};

}  // namespace

TEST_CASE("an option's value follows it as --option value or --option=value") {
  const Arguments apart(Strings{"--db", "x", "--format", "tsv", "--quiet", "Q"}, kSpec);
  const Arguments joined(Strings{"--db=x", "--format=tsv", "--quiet", "Q"}, kSpec);
  for (const Arguments* a : {&apart, &joined}) {
    CHECK(a->value("--db") == "x");
    CHECK(a->value("--format") == "tsv");
    CHECK(a->flag("--quiet"));
    CHECK(a->positional() == Strings{"Q"});
  }
  // After '=' everything is the value: more '=', a leading '-', nothing at all.
  CHECK(Arguments(Strings{"--db=a=b"}, kSpec).value("--db") == "a=b");
  CHECK(Arguments(Strings{"--db=-x"}, kSpec).value("--db") == "-x");
  CHECK(Arguments(Strings{"--db="}, kSpec).value("--db") == "");
  CHECK(Arguments(Strings{"-f=q.rq"}, kSpec).value("-f") == "q.rq");
}

TEST_CASE("an option given twice keeps its last value, whichever way each is written") {
  CHECK(Arguments(Strings{"--db=a", "--db", "b"}, kSpec).value("--db") == "b");
  CHECK(Arguments(Strings{"--db", "a", "--db=b"}, kSpec).value("--db") == "b");
}

TEST_CASE("a repeatable option has all its values, in order, and one not given has none") {
  const Arguments a(Strings{"--format", "a", "--db=x", "--format=b"}, kSpec);
  CHECK(a.values("--format") == Strings{"a", "b"});
  CHECK(a.values("--db") == Strings{"x"});
  CHECK(a.values("-f").empty());
}

TEST_CASE("--timeout 0 or none is no limit, other values are seconds as for parseTimeout") {
  using gsparql::options::parseTimeLimit;
  CHECK(parseTimeLimit("none") == std::nullopt);
  CHECK(parseTimeLimit("0") == std::nullopt);
  CHECK(parseTimeLimit("2.5") == std::chrono::milliseconds(2500));
  for (const char* bad : {"-1", "None", "0s", "", "off"}) CHECK_THROWS_AS(parseTimeLimit(bad), UsageError);
}

TEST_CASE("misuse is a UsageError that names the option or argument") {
  CHECK_THROWS_WITH_AS(Arguments(Strings{"--quiet=yes"}, kSpec), "option '--quiet' takes no value", UsageError);
  CHECK_THROWS_WITH_AS(Arguments(Strings{"--foo"}, kSpec), "unknown option '--foo'", UsageError);
  CHECK_THROWS_WITH_AS(Arguments(Strings{"--foo=1"}, kSpec), "unknown option '--foo'", UsageError);
  CHECK_THROWS_WITH_AS(Arguments(Strings{"--db"}, kSpec), "option '--db' needs a value", UsageError);
  CHECK_THROWS_WITH_AS(Arguments(Strings{"Q", "R"}, kSpec), "unexpected argument 'R'", UsageError);
  CHECK_THROWS_WITH_AS(Arguments(Strings{}, kSpec).required("--db"), "option '--db' is required", UsageError);
  CHECK(Arguments(Strings{"-"}, kSpec).positional() == Strings{"-"});  // standard input, not an option
}
