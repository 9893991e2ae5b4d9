// The command line's conventions (issue 42), through the built binary:
// --version, help and --help on standard output with exit status 0; misuse
// as one line and a hint on standard error with exit status 2; --opt=value;
// and what `update --merge` and `load` say.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gsparql/query.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

#ifdef GSPARQL_HAS_SERVER
constexpr bool kHasServer = true;
#else
constexpr bool kHasServer = false;
#endif

const char* kAsk = "ASK { ?s ?p ?o }";

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The command names of the overview: the first word of each line of its "commands:" section.
std::vector<std::string> commandsOf(const std::string& overview) {
  std::vector<std::string> names;
  bool inside = false;
  for (const std::string& line : linesOf(overview)) {
    if (line == "commands:") {
      inside = true;
    } else if (inside && line.empty()) {
      break;
    } else if (inside) {
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
  }
  return names;
}

// The options a usage lists: the first word of each line "  -..." ("-h," of "-h, --help" is left out).
std::vector<std::string> optionsOf(const std::string& usage) {
  std::vector<std::string> options;
  for (const std::string& line : linesOf(usage)) {
    if (!line.starts_with("  -")) continue;
    const std::string option = line.substr(2, line.find(' ', 2) - 2);
    if (!option.ends_with(',')) options.push_back(option);
  }
  return options;
}

// The value of `option` in a usage's line for it: "table|tsv|..." of "--format table|tsv|...".
std::string valueOf(const std::string& usage, const std::string& option) {
  for (const std::string& line : linesOf(usage)) {
    if (!line.starts_with("  " + option + " ")) continue;
    const size_t start = option.size() + 3;
    return line.substr(start, line.find(' ', start) - start);
  }
  return "";
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  return parts;
}

// The number after `label` in `gsparql info`'s output ("triples     13").
uint64_t infoFigure(const std::string& info, const std::string& label) {
  std::smatch m;
  REQUIRE(std::regex_search(info, m, std::regex("(^|\n)" + label + " +([0-9]+)")));
  return std::stoull(m[2]);
}

struct LoadLine {
  uint64_t read, added, triples, terms, predicates;
  std::string from;
};

uint64_t number(const std::string& grouped) { return std::stoull(std::regex_replace(grouped, std::regex(","), "")); }

LoadLine parseLoadLine(const std::string& out) {
  static const std::regex line(
      "loaded ([0-9,]+) triples \\(([0-9,]+) new\\) from (.+) in [0-9.]+ s; the database now holds ([0-9,]+) "
      "triples, ([0-9,]+) terms and ([0-9,]+) predicates\n");
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_match(out, m, line), out);
  return {number(m[1]), number(m[2]), number(m[4]), number(m[5]), number(m[6]), m[3]};
}

// A misuse: nothing on standard output, exit status 2, and on standard
// error exactly "WHO: MESSAGE" and "try 'HINT'".
void checkMisuse(const std::vector<std::string>& args, const std::string& who, const std::string& message,
                 const std::string& hint) {
  CAPTURE(args);
  const SeparateOutputs r = runCliApart(args);
  CHECK(r.exitCode == 2);
  CHECK(r.out.empty());
  CHECK(r.err == who + ": " + message + "\ntry '" + hint + "'\n");
}

struct Db {
  TempDir dir;
  std::string db() const { return (dir / "db").string(); }
  SeparateOutputs load(const std::string& file) const {
    return runCliApart({"load", "--quiet", "--db", db(), dataFile(file).string()});
  }
  std::string info() const {
    const SeparateOutputs r = runCliApart({"info", "--db", db()});
    REQUIRE(r.exitCode == 0);
    return r.out;
  }
};

}  // namespace

TEST_CASE("--version, -V and version print the version of the build and whether it has the GPU backend") {
  const std::string gpu = GSPARQL_GPU_BACKEND ? "GPU backend: compiled in" : "GPU backend: not compiled in";
  for (const char* spelling : {"--version", "-V", "version"}) {
    CAPTURE(spelling);
    const SeparateOutputs r = runCliApart({spelling});
    CHECK(r.exitCode == 0);
    CHECK(r.err.empty());
    const std::vector<std::string> lines = linesOf(r.out);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == "gsparql " GSPARQL_EXPECTED_VERSION);
    CHECK(lines[1].starts_with(gpu + " ("));
  }
}

TEST_CASE("help, --help and -h print the overview: the commands, the hint to a command's help, the exit statuses") {
  const SeparateOutputs help = runCliApart({"help"});
  CHECK(help.exitCode == 0);
  CHECK(help.err.empty());
  for (const char* spelling : {"--help", "-h"}) {
    const SeparateOutputs same = runCliApart({spelling});
    CHECK(same.exitCode == 0);
    CHECK(same.out == help.out);
  }
  std::vector<std::string> expected{"load", "info", "dump", "query", "update", "repl"};
  if (kHasServer) expected.push_back("serve");
  expected.insert(expected.end(), {"parse", "bench", "calibrate", "help", "version"});
  CHECK(commandsOf(help.out) == expected);
  CHECK(help.out.find("'gsparql help COMMAND'") != std::string::npos);
  for (const char* status : {"\n  0  success", "\n  1  failure", "\n  2  misuse"}) {
    CHECK(help.out.find(status) != std::string::npos);
  }
}

TEST_CASE("each command's usage: help COMMAND, COMMAND --help and -h, on standard output, its options accepted") {
  for (const std::string& command : commandsOf(runCliApart({"help"}).out)) {
    CAPTURE(command);
    const SeparateOutputs usage = runCliApart({"help", command});
    CHECK(usage.exitCode == 0);
    CHECK(usage.err.empty());
    CHECK(usage.out.starts_with("gsparql " + command + ": "));
    CHECK(usage.out.find("\nusage: gsparql " + command) != std::string::npos);
    CHECK(usage.out.find("\n  -h, --help ") != std::string::npos);
    for (const char* spelling : {"--help", "-h"}) {
      const SeparateOutputs same = runCliApart({command, spelling});
      CHECK(same.exitCode == 0);
      CHECK(same.err.empty());
      CHECK(same.out == usage.out);
    }
    // Each option listed is one the command takes: alone it may lack its
    // value or --db, but it is no unknown option.
    const std::vector<std::string> options = optionsOf(usage.out);
    const bool takesNone = command == "help" || command == "version";
    CHECK(options.empty() == takesNone);
    for (const std::string& option : options) {
      CAPTURE(option);
      const SeparateOutputs r = runCliApart({command, option});
      CHECK(r.exitCode == 2);
      CHECK(r.err.find("unknown option") == std::string::npos);
    }
    const bool opensDatabase = command != "parse" && !takesNone;
    CHECK(opensDatabase == (std::find(options.begin(), options.end(), "--db") != options.end()));
  }
}

TEST_CASE("query --format lists exactly the result formats the API reads") {
  const std::vector<std::string> names = split(valueOf(runCliApart({"help", "query"}).out, "--format"), '|');
  std::vector<ResultFormat> listed;
  for (const std::string& name : names) {
    CAPTURE(name);
    const std::optional<ResultFormat> format = resultFormatFromName(name);
    REQUIRE(format);
    listed.push_back(*format);
  }
  for (int f = static_cast<int>(ResultFormat::Table); f <= static_cast<int>(ResultFormat::JsonLd); ++f) {
    CAPTURE(f);
    CHECK(std::find(listed.begin(), listed.end(), static_cast<ResultFormat>(f)) != listed.end());
  }
}

TEST_CASE("--option=value works as --option value, for --db and the rest, and the last of a repeated one counts") {
  Db d;
  REQUIRE(runCliApart({"load", "--quiet", "--db=" + d.db(), dataFile("load/tricky.nt").string()}).exitCode == 0);
  const SeparateOutputs apart = runCliApart({"query", "--db", d.db(), "--format", "csv", "SELECT * { ?s ?p ?o }"});
  const SeparateOutputs joined = runCliApart({"query", "--db=" + d.db(), "--format=csv", "SELECT * { ?s ?p ?o }"});
  REQUIRE(apart.exitCode == 0);
  CHECK(joined.exitCode == 0);
  CHECK(joined.out == apart.out);
  const SeparateOutputs repeated =
      runCliApart({"query", "--db=" + d.db(), "--format=json", "--format", "csv", "SELECT * { ?s ?p ?o }"});
  CHECK(repeated.out == apart.out);
  checkMisuse({"load", "--quiet=yes", "--db", d.db(), "-"}, "gsparql load", "option '--quiet' takes no value",
              "gsparql load --help");
}

TEST_CASE("misuse is one line naming the problem and one hint on standard error, with exit status 2") {
  Db d;
  REQUIRE(d.load("load/tricky.nt").exitCode == 0);
  const std::string db = d.db();
  checkMisuse({}, "gsparql", "no command given", "gsparql help");
  checkMisuse({"frobnicate"}, "gsparql", "unknown command 'frobnicate'", "gsparql help");
  checkMisuse({"help", "frobnicate"}, "gsparql help", "unknown command 'frobnicate'", "gsparql help");
  const std::string query = "gsparql query", hint = "gsparql query --help";
  checkMisuse({"query", "--db", db, "--foo", kAsk}, query, "unknown option '--foo'", hint);
  checkMisuse({"query", "--db", db, "--foo=1", kAsk}, query, "unknown option '--foo'", hint);
  checkMisuse({"query", kAsk, "--db"}, query, "option '--db' needs a value", hint);
  checkMisuse({"query", kAsk}, query, "option '--db' is required", hint);
  checkMisuse({"query", "--db", db, "--backend", "quantum", kAsk}, query, "unknown backend 'quantum' (cpu, gpu or auto)",
              hint);
  checkMisuse({"query", "--db", db, "--entailment", "owl", kAsk}, query, "unknown entailment 'owl' (simple or rdfs)",
              hint);
  checkMisuse({"query", "--db", db, "--format=yaml", kAsk}, query,
              "unknown --format 'yaml' (table, tsv, csv, json, xml, nt, ttl, nq, trig, rdfxml or jsonld)", hint);
  checkMisuse({"query", "--db", db, kAsk, kAsk}, query, std::string("unexpected argument '") + kAsk + "'", hint);
  checkMisuse({"query", "--db", db}, query, "expected one QUERY argument, or -f FILE", hint);
  checkMisuse({"info", "--db", db, "extra"}, "gsparql info", "unexpected argument 'extra'", "gsparql info --help");
  checkMisuse({"load", "--db", db}, "gsparql load", "expected at least one FILE (- for standard input)",
              "gsparql load --help");
  checkMisuse({"load", "--db", db, "--text-index", "maybe", "x.nt"}, "gsparql load",
              "--text-index: expected yes or no, got 'maybe'", "gsparql load --help");
  checkMisuse({"update", "--db", db}, "gsparql update", "expected one UPDATE argument, or -f FILE",
              "gsparql update --help");
  checkMisuse({"version", "--verbose"}, "gsparql version", "unknown option '--verbose'", "gsparql version --help");
}

TEST_CASE("update --merge without a request merges the delta, and says what it did") {
  Db d;
  REQUIRE(d.load("load/tricky.nt").exitCode == 0);
  REQUIRE(runCliApart({"update", "--db", d.db(), "INSERT DATA { <http://e/x> <http://e/p> <http://e/y> }"}).exitCode ==
          0);
  const std::string before = d.info();
  REQUIRE(before.find("\ndelta       1 files") != std::string::npos);
  const std::vector<std::string> dump = sortedDump(d.db());

  const SeparateOutputs merged = runCliApart({"update", "--db", d.db(), "--merge"});
  CHECK(merged.exitCode == 0);
  CHECK(merged.err.starts_with("merged the delta (1 file) into a new generation, "));
  const std::string after = d.info();
  CHECK(after.find("\ndelta ") == std::string::npos);
  CHECK(infoFigure(after, "generation") > infoFigure(before, "generation"));
  CHECK(sortedDump(d.db()) == dump);

  const SeparateOutputs again = runCliApart({"update", "--db", d.db(), "--merge"});
  CHECK(again.exitCode == 0);
  CHECK(again.err == "no delta to merge\n");
  CHECK(runCliApart({"update", "--db", d.db(), "--merge", "--quiet"}).err.empty());

  TempDir elsewhere;
  const SeparateOutputs none = runCliApart({"update", "--db", (elsewhere / "none").string(), "--merge"});
  CHECK(none.exitCode == 1);
  CHECK(none.err.find("no database at") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(elsewhere / "none"));
}

TEST_CASE("Turtle on standard input without --format: the error says to add --format ttl") {
  TempDir dir;
  const std::string db = (dir / "db").string();
  // Directives and abbreviations, a PREFIX line (a statement over two
  // lines), prefixed names, a number.
  writeFile(dir / "prefix.ttl", "PREFIX e: <http://e/>\ne:a e:b e:c .\n");
  writeFile(dir / "predicate.ttl", "<http://e/a> e:b <http://e/c> .\n");
  writeFile(dir / "object.ttl", "<http://e/a> <http://e/b> e:c .\n");
  writeFile(dir / "number.ttl", "<http://e/a> <http://e/b> 42 .\n");
  for (const std::filesystem::path& turtle : {dataFile("load/tricky.ttl"), dir / "prefix.ttl", dir / "predicate.ttl",
                                               dir / "object.ttl", dir / "number.ttl"}) {
    CAPTURE(turtle);
    const SeparateOutputs r = runCliApart({"load", "--db", db, "-"}, turtle);
    CHECK(r.exitCode == 1);
    CHECK(r.err.starts_with("gsparql load: error: -:"));
    CHECK(r.err.ends_with("(standard input is read as N-Triples: for Turtle, add --format ttl)\n"));
    CHECK(linesOf(r.err).size() == 1);
  }
  // With it, standard input holds what the file does.
  REQUIRE(runCliApart({"load", "--db", db, "--format", "ttl", "-"}, dataFile("load/tricky.ttl")).exitCode == 0);
  REQUIRE(runCliApart({"load", "--db", (dir / "file").string(), dataFile("load/tricky.ttl").string()}).exitCode == 0);
  CHECK(sortedDump(db) == sortedDump(dir / "file"));
  // Bad N-Triples gets no such hint, nor does a Turtle error where the format was given.
  writeFile(dir / "bad.nt", "<http://e/a> <http://e/b> \"\\q\" .\n");
  const SeparateOutputs bad = runCliApart({"load", "--db", db, "-"}, dir / "bad.nt");
  CHECK(bad.exitCode == 1);
  CHECK(bad.err.find("invalid escape") != std::string::npos);
  CHECK(bad.err.find("--format") == std::string::npos);
  const SeparateOutputs told = runCliApart({"load", "--db", db, "--format", "nt", "-"}, dir / "prefix.ttl");
  CHECK(told.exitCode == 1);
  CHECK(told.err.find("--format") == std::string::npos);
}

TEST_CASE("load says what it read and what the database holds, its predicates counted as info counts them") {
  Db d;
  // Named graphs: their union is stored too, and must not be counted.
  const SeparateOutputs first = d.load("load/graphs.trig");
  REQUIRE(first.exitCode == 0);
  const std::string info = d.info();
  REQUIRE(infoFigure(info, "graphs") > 0);
  const LoadLine one = parseLoadLine(first.out);
  CHECK(one.from == "1 file");
  CHECK(one.added == one.triples);  // into an empty database
  CHECK(one.read >= one.triples);
  CHECK(one.triples == infoFigure(info, "triples"));
  CHECK(one.terms == infoFigure(info, "terms"));
  CHECK(one.predicates == infoFigure(info, "predicates"));

  // Again with another file: only the other file's triples are new.
  const SeparateOutputs second = runCliApart({"load", "--quiet", "--db", d.db(), dataFile("load/graphs.trig").string(),
                                              dataFile("load/tricky.nt").string()});
  REQUIRE(second.exitCode == 0);
  const std::string infoAfter = d.info();
  const LoadLine two = parseLoadLine(second.out);
  CHECK(two.from == "2 files");
  CHECK(two.triples == infoFigure(infoAfter, "triples"));
  CHECK(two.added == two.triples - one.triples);
  CHECK(two.predicates == infoFigure(infoAfter, "predicates"));

  const SeparateOutputs piped =
      runCliApart({"load", "--quiet", "--db", d.db(), "--format", "ttl", "-"}, dataFile("load/tricky.ttl"));
  REQUIRE(piped.exitCode == 0);
  CHECK(parseLoadLine(piped.out).from == "standard input");
}

TEST_CASE("docs/cli.md shows the overview and every command's usage as printed") {
  const std::string doc = readText(GSPARQL_CLI_DOC);
  const std::string overview = runCliApart({"help"}).out;
  if (kHasServer) CHECK(doc.find(overview) != std::string::npos);  // the doc's lists serve, which portable builds lack
  for (const std::string& command : commandsOf(overview)) {
    CAPTURE(command);
    CHECK(doc.find(runCliApart({"help", command}).out) != std::string::npos);
  }
}

TEST_CASE("--no-geosparql-rewrite leaves topological properties to the stored triples") {
  TempDir dir;
  writeFile(dir / "geo.nt",
            "<http://e/a> <http://www.opengis.net/ont/geosparql#asWKT> "
            "\"POINT(1 1)\"^^<http://www.opengis.net/ont/geosparql#wktLiteral> .\n"
            "<http://e/b> <http://www.opengis.net/ont/geosparql#asWKT> "
            "\"POLYGON((0 0, 2 0, 2 2, 0 2, 0 0))\"^^<http://www.opengis.net/ont/geosparql#wktLiteral> .\n");
  const std::string db = (dir / "db").string();
  REQUIRE(runCliApart({"load", "--quiet", "--db", db, (dir / "geo.nt").string()}).exitCode == 0);
  const std::string query = "ASK { <http://e/a> <http://www.opengis.net/ont/geosparql#sfWithin> <http://e/b> }";
  const SeparateOutputs rewritten = runCliApart({"query", "--db", db, "--format", "tsv", query});
  const SeparateOutputs stored = runCliApart({"query", "--db", db, "--format", "tsv", "--no-geosparql-rewrite", query});
  CHECK(rewritten.exitCode == 0);
  CHECK(stored.exitCode == 0);
  CHECK(rewritten.out.find("true") != std::string::npos);
  CHECK(stored.out.find("false") != std::string::npos);
}
