// The REPL's logic without a terminal: statement splitting, prefixes,
// dot-commands, error positions, history entries, and running statements.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "cli/query_options.h"
#include "cli/repl_session.h"
#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::cli::repl;
using Strings = std::vector<std::string>;

TEST_CASE("statements end at semicolon outside strings IRIs comments and brackets") {
  StatementBuffer b;
  CHECK(b.add("SELECT * WHERE { ?s ?p ?o }; ASK { ?s ?p ?o };") ==
        Strings{"SELECT * WHERE { ?s ?p ?o }", " ASK { ?s ?p ?o }"});
  CHECK(b.blank());

  CHECK(b.add("SELECT ?s").empty());
  CHECK_FALSE(b.blank());
  CHECK(b.add("WHERE { ?s <http://e/p;q> \"a;b\" ; # not; the end").empty());
  CHECK(b.add("  <http://e/r> 'c;d', '''e;").empty());  // predicate-object list, long string
  CHECK(b.add(";f''' }").empty());
  CHECK(b.add("LIMIT 1 ; SELECT").size() == 1);
  CHECK(b.pending() == " SELECT");
  b.clear();
  CHECK(b.blank());

  // GROUP_CONCAT's separator and blank node property lists keep their ';'.
  CHECK(b.add("SELECT (GROUP_CONCAT(?o ; separator=\",\") AS ?g) WHERE { [ <p> ?o ; <q> ?r ] };").size() == 1);
  // '<' as less-than is not an IRI: the ';' after it counts.
  CHECK(b.add("SELECT * WHERE { ?s ?p ?o FILTER(?o < 3) } ;") ==
        Strings{"SELECT * WHERE { ?s ?p ?o FILTER(?o < 3) } "});
  // In an update, a ';' with more on its line separates operations; at the
  // end of its line it ends the request. Queries split as before.
  CHECK(b.add("INSERT DATA { <a> <b> <c> } ; DELETE DATA { <a> <b> <d> } ;") ==
        Strings{"INSERT DATA { <a> <b> <c> } ; DELETE DATA { <a> <b> <d> } "});
  CHECK(b.add("PREFIX e: <http://e/> CLEAR ALL ; INSERT DATA {").empty());
  CHECK(b.add("e:a e:b e:c } ;") == Strings{"PREFIX e: <http://e/> CLEAR ALL ; INSERT DATA {\ne:a e:b e:c } "});
  CHECK(b.add("INSERT DATA { <a> <b> <c> } ; # the end").size() == 1);
  CHECK(b.add("ASK { ?s ?p ?o } ; ASK { ?s ?p ?o } ;").size() == 2);
  // A comment or blank line between statements leaves nothing pending.
  CHECK(b.add("# a comment; still a comment").empty());
  CHECK(b.blank());
  CHECK(b.add("").empty());
  CHECK(b.blank());
  // An escaped quote does not end a string.
  CHECK(b.add(R"(ASK { ?s ?p "a\";b" };)") == Strings{R"(ASK { ?s ?p "a\";b" })"});
  // An unterminated short string ends with its line.
  CHECK(b.add("ASK { ?s ?p \"oops }").empty());
  CHECK(b.add("};").size() == 1);
  // A ';' in a long string that goes on over lines ends nothing, even outside brackets.
  CHECK(b.add("ASK { ?s ?p ?o } ''' ;").empty());
  CHECK(b.add("''' ;").size() == 1);
  CHECK(b.add("ASK { ?s ?p ?o } \"\"\"a ;").empty());
  CHECK(b.add("\"\"\" ;").size() == 1);
  // Unbalanced closing brackets do not hide later ';'.
  CHECK(b.add("} } ;").size() == 1);
}

TEST_CASE("blank text is whitespace and comments only") {
  CHECK(isBlank(""));
  CHECK(isBlank("  \n\t# x ; y\n  "));
  CHECK_FALSE(isBlank("# x\nASK {}"));
  CHECK_FALSE(isBlank("'#'"));
}

TEST_CASE("the prologue's PREFIX declarations are found in any case with comments between") {
  Prologue p = scanPrologue("  prefix ex: <http://e/> # c\n PREFIX : <http://d/>\nBASE <http://b/> PREFIX a.b-c: <x:y> SELECT");
  REQUIRE(p.prefixes.size() == 3);
  CHECK(p.prefixes[0] == std::pair<std::string, std::string>{"ex", "http://e/"});
  CHECK(p.prefixes[1] == std::pair<std::string, std::string>{"", "http://d/"});
  CHECK(p.prefixes[2] == std::pair<std::string, std::string>{"a.b-c", "x:y"});
  CHECK(std::string_view("  prefix ex: <http://e/> # c\n PREFIX : <http://d/>\nBASE <http://b/> PREFIX a.b-c: <x:y> SELECT")
            .substr(p.end) == " SELECT");

  CHECK(scanPrologue("SELECT * WHERE { ?s ?p ?o }").prefixes.empty());
  CHECK(scanPrologue("PREFIXES ex: <http://e/>").prefixes.empty());
  // A malformed declaration ends the prologue; the parser will report it.
  Prologue bad = scanPrologue("PREFIX ok: <http://o/> PREFIX bad: <http://a b/> SELECT");
  CHECK(bad.prefixes.size() == 1);
  CHECK(scanPrologue("PREFIX ex <http://e/>").prefixes.empty());
}

TEST_CASE("the session's prefixes: later declarations replace a query's own are not repeated") {
  PrefixMap m;
  m.declare("ex", "http://e/");
  m.declare("foaf", "http://xmlns.com/foaf/0.1/");
  m.declare("ex", "http://e2/");
  REQUIRE(m.entries().size() == 2);
  CHECK(m.entries()[0].second == "http://e2/");
  CHECK(m.declarationsExcept({}) == "PREFIX ex: <http://e2/> PREFIX foaf: <http://xmlns.com/foaf/0.1/>");
  CHECK(m.declarationsExcept({{"ex", "http://other/"}}) == "PREFIX foaf: <http://xmlns.com/foaf/0.1/>");
  CHECK(PrefixMap().declarationsExcept({}).empty());
}

TEST_CASE("dot-commands are parsed and unknown ones and extra arguments are errors for a person") {
  CHECK(isDotCommand(".help"));
  CHECK(isDotCommand("   .format tsv"));
  CHECK_FALSE(isDotCommand("SELECT"));
  CHECK_FALSE(isDotCommand(""));

  CHECK(parseDotCommand(".format  tsv ").kind == DotCommand::Kind::Format);
  CHECK(parseDotCommand(".format tsv").argument == "tsv");
  CHECK(parseDotCommand(".timer on").kind == DotCommand::Kind::Timer);
  CHECK(parseDotCommand(".explain").argument.empty());
  CHECK(parseDotCommand(".backend gpu").kind == DotCommand::Kind::Backend);
  CHECK(parseDotCommand(".semantics iso").kind == DotCommand::Kind::Semantics);
  CHECK(parseDotCommand(".prefixes").kind == DotCommand::Kind::Prefixes);
  CHECK(parseDotCommand(".quit").kind == DotCommand::Kind::Quit);
  CHECK(parseDotCommand(".exit").kind == DotCommand::Kind::Quit);
  CHECK_THROWS_WITH(parseDotCommand(".frobnicate"), "unknown command '.frobnicate' (see .help)");
  CHECK_THROWS_WITH(parseDotCommand("."), "unknown command '.' (see .help)");
  CHECK_THROWS_WITH(parseDotCommand(".format tsv csv"), ".format: too many arguments (see .help)");
  CHECK_THROWS_WITH(parseDotCommand(".quit now"), ".quit: too many arguments (see .help)");
}

TEST_CASE("error positions move back over the prepended prefix line") {
  CHECK(shiftErrorPosition("3:7: syntax error at '}'\n  x }\n    ^", 3, 7, 1) == "2:7: syntax error at '}'\n  x }\n    ^");
  CHECK(shiftErrorPosition("FILTER at 2:5 is not supported yet", 2, 5, 1) == "FILTER at 1:5 is not supported yet");
  CHECK(shiftErrorPosition("3:7: x", 3, 7, 0) == "3:7: x");
  CHECK(shiftErrorPosition("no position", 0, 0, 1) == "no position");
}

TEST_CASE("a statement typed over several lines becomes one history line") {
  CHECK(historyEntry("SELECT ?s\n  WHERE { ?s ?p ?o } # all\n\n LIMIT 1 ") == "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1;");
  CHECK(historyEntry("ASK { ?s ?p \"#1\" }") == "ASK { ?s ?p \"#1\" };");
  // A string over several lines keeps its newlines.
  CHECK(historyEntry("ASK { ?s ?p \"\"\"a\nb\"\"\" }\n") == "ASK { ?s ?p \"\"\"a\nb\"\"\" };");
  // Tokens are kept as written, one space between them where there was white space.
  CHECK(historyEntry("SELECT  ?s{?s <p>   ?o}#x\n") == "SELECT ?s{?s <p> ?o};");
  // A long string not closed yet is kept as typed.
  CHECK(historyEntry("ASK { ?s ?p '''a\n") == "ASK { ?s ?p '''a;");
}

namespace {

struct SessionFixture {
  gsparql::test::TempDir dir;
  std::optional<Session> session;
  std::string shown, errors, notes;
  Output out{[this](const std::string& t) { shown += t; }, [this](const std::string& t) { errors += t + "\n"; },
             [this](const std::string& t) { notes += t + "\n"; }};

  explicit SessionFixture(const std::string& ntriples) {
    load(ntriples);
    Settings settings;
    settings.options.backend = Backend::Cpu;
    session.emplace(dir / "db", settings);
  }
  void load(const std::string& ntriples) {
    gsparql::test::writeFile(dir / "data.nt", ntriples);
    Database::load(dir / "db", {(dir / "data.nt").string()});
  }
  Session::Outcome run(const std::string& statement) {
    shown.clear();
    errors.clear();
    notes.clear();
    return session->runStatement(statement, out);
  }
  Session::Outcome dot(const std::string& line) {
    shown.clear();
    errors.clear();
    notes.clear();
    return session->runDotCommand(line, out);
  }
};

const char* kData =
    "<http://e/a> <http://e/knows> <http://e/b> .\n"
    "<http://e/b> <http://e/knows> <http://e/c> .\n";

}  // namespace

TEST_CASE("a session remembers prefixes applies its settings and reports errors") {
  SessionFixture f(kData);
  CHECK(f.run("PREFIX e: <http://e/>") == Session::Outcome::Ok);
  CHECK(f.shown.empty());
  CHECK(f.dot(".format tsv") == Session::Outcome::Ok);
  CHECK(f.run("SELECT ?x WHERE { e:a e:knows ?x }") == Session::Outcome::Ok);
  CHECK(f.shown == "?x\n<http://e/b>\n");
  // The query's own declaration wins, and is remembered.
  CHECK(f.run("PREFIX e: <http://nothing/> SELECT ?x WHERE { e:a e:knows ?x }") == Session::Outcome::Ok);
  CHECK(f.shown == "?x\n");
  CHECK(f.dot(".prefixes") == Session::Outcome::Ok);
  CHECK(f.shown == "PREFIX e: <http://nothing/>\n");

  CHECK(f.dot(".timer on") == Session::Outcome::Ok);
  CHECK(f.run("ASK { ?s ?p ?o }") == Session::Outcome::Ok);
  CHECK(f.shown.find("time: parse ") != std::string::npos);
  CHECK(f.dot(".timer off") == Session::Outcome::Ok);

  CHECK(f.dot(".explain") == Session::Outcome::Ok);  // the next query only
  CHECK(f.run("SELECT * WHERE { ?s <http://e/knows> ?o }") == Session::Outcome::Ok);
  CHECK(f.shown.find("executor cpu") != std::string::npos);
  CHECK(f.run("SELECT * WHERE { ?s <http://e/knows> ?o }") == Session::Outcome::Ok);
  CHECK(f.shown.find("executor cpu") == std::string::npos);
  CHECK(f.dot(".explain on") == Session::Outcome::Ok);
  CHECK(f.session->settings().explainAlways);

  CHECK(f.run("SELECT ?x WHERE { e:a e:knows ?x") == Session::Outcome::Failed);
  CHECK(f.errors.find("error: 1:") != std::string::npos);
  CHECK(f.errors.find("^") != std::string::npos);
  CHECK(f.run("SELECT ?x WHERE { SERVICE <http://127.0.0.1:1/> { ?x ?p ?o } }") == Session::Outcome::Failed);
  CHECK(f.errors.find("failed: ") != std::string::npos);

  CHECK(f.dot(".timer maybe") == Session::Outcome::Failed);
  CHECK(f.errors == "error: .timer takes on or off, not 'maybe'\n");
  CHECK(f.dot(".backend quantum") == Session::Outcome::Failed);
  CHECK(f.errors.find("unknown backend 'quantum'") != std::string::npos);
  CHECK(f.dot(".backend gpu") == Session::Outcome::Ok);
  CHECK(f.dot(".backend") == Session::Outcome::Ok);
  CHECK(f.shown == "backend gpu\n");
  CHECK(f.dot(".semantics iso") == Session::Outcome::Ok);
  CHECK(f.session->settings().options.semantics == Semantics::Isomorphism);
  CHECK(f.dot(".timeout") == Session::Outcome::Ok);
  CHECK(f.shown == "timeout off\n");
  CHECK(f.dot(".timeout 2.5") == Session::Outcome::Ok);
  CHECK(f.session->settings().options.timeout == std::chrono::milliseconds(2500));
  CHECK(f.dot(".timeout soon") == Session::Outcome::Failed);
  CHECK(f.errors.find("timeout 'soon': expected a number of seconds") != std::string::npos);
  CHECK(f.dot(".timeout off") == Session::Outcome::Ok);
  CHECK_FALSE(f.session->settings().options.timeout);
  CHECK(f.dot(".help") == Session::Outcome::Ok);
  CHECK(f.shown.find(".format table|tsv|csv|json|xml") != std::string::npos);
  CHECK(f.dot(".quit") == Session::Outcome::Quit);
  CHECK(f.run("  # nothing\n") == Session::Outcome::Ok);
  CHECK(f.shown.empty());
}

TEST_CASE("setting the cancel flag stops a running statement and the next one runs") {
  std::string data;
  for (int i = 0; i < 3000; ++i) {
    data += "<e:s" + std::to_string(i) + "> <e:p> <e:o" + std::to_string(i) + "> .\n";
    data += "<e:t" + std::to_string(i) + "> <e:q> <e:u" + std::to_string(i) + "> .\n";
  }
  SessionFixture f(data);
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    f.session->cancelFlag().store(true);
  });
  auto start = std::chrono::steady_clock::now();
  auto outcome = f.run("SELECT * WHERE { ?a <e:p> ?b . ?c <e:q> ?d }");
  canceller.join();
  CHECK(outcome == Session::Outcome::Failed);
  CHECK(f.errors == "query cancelled\n");
  CHECK(f.shown.empty());
  // No tight time bound: the product of disconnected patterns and the
  // decoding of the rows found run to their end (docs/repl.md); only a hang
  // is caught here.
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(60));
  CHECK(f.run("SELECT ?b WHERE { <e:s7> <e:p> ?b }") == Session::Outcome::Ok);
  CHECK(f.shown.find("<e:o7>") != std::string::npos);
}

TEST_CASE("graph results print as Turtle with the session's prefixes, or as N-Triples under a solutions format") {
  SessionFixture f("<http://e/a> <http://e/knows> <http://e/b> .\n");
  CHECK(f.run("PREFIX e: <http://e/>") == Session::Outcome::Ok);
  CHECK(f.run("CONSTRUCT { ?x e:met ?y } WHERE { ?x e:knows ?y }") == Session::Outcome::Ok);
  CHECK(f.shown == "@prefix e: <http://e/> .\n\ne:a e:met e:b .\n");
  CHECK(f.dot(".format tsv") == Session::Outcome::Ok);
  CHECK(f.run("DESCRIBE e:a") == Session::Outcome::Ok);
  CHECK(f.shown == "<http://e/a> <http://e/knows> <http://e/b> .\n");
  CHECK(f.dot(".format nt") == Session::Outcome::Ok);
  CHECK(f.run("ASK { e:a e:knows e:b }") == Session::Outcome::Ok);
  CHECK(f.shown.find("true") != std::string::npos);
}

TEST_CASE("a session moves to the newest generation between statements and says so") {
  SessionFixture f(kData);
  CHECK(f.dot(".format tsv") == Session::Outcome::Ok);
  CHECK(f.run("SELECT ?x WHERE { <http://e/c> <http://e/knows> ?x }") == Session::Outcome::Ok);
  CHECK(f.shown == "?x\n");
  CHECK(f.notes.empty());

  f.load("<http://e/c> <http://e/knows> <http://e/d> .\n");
  CHECK(f.run("PREFIX e: <http://e/>") == Session::Outcome::Ok);  // declarations alone read nothing
  CHECK(f.notes.empty());
  CHECK(f.run("SELECT ?x WHERE { e:c e:knows ?x }") == Session::Outcome::Ok);
  CHECK(f.notes == "database changed: now reading generation 2\n");
  CHECK(f.shown == "?x\n<http://e/d>\n");
  CHECK(f.errors.empty());
  CHECK(f.session->database().statistics().triples == 3);

  CHECK(f.run("SELECT ?x WHERE { e:c e:knows ?x }") == Session::Outcome::Ok);
  CHECK(f.notes.empty());  // said once
}

TEST_CASE("an update statement is applied, reported, and the session reads its snapshot") {
  SessionFixture f(kData);
  CHECK(f.dot(".format tsv") == Session::Outcome::Ok);
  CHECK(f.run("PREFIX e: <http://e/> INSERT DATA { e:c e:knows e:z }") == Session::Outcome::Ok);
  CHECK(f.shown.find("1 operation(s), committed: ") == 0);
  CHECK(f.shown.find("(generation 1 + delta file 1)") != std::string::npos);  // a small update: the delta
  CHECK(f.notes == "database changed: now reading generation 1 + delta file 1\n");
  CHECK(f.run("SELECT ?x WHERE { e:c e:knows ?x }") == Session::Outcome::Ok);  // the prefix is remembered
  CHECK(f.shown == "?x\n<http://e/z>\n");
  CHECK(f.run("DELETE DATA { ?x e:knows e:z }") == Session::Outcome::Failed);
  CHECK(f.errors.find("error: 1:") == 0);
  CHECK(f.errors.find("variables are not allowed in DELETE DATA") != std::string::npos);
  // Two operations of one request: one generation, both applied.
  CHECK(f.run("DELETE DATA { e:c e:knows e:z } ; INSERT DATA { e:c e:knows e:y }") == Session::Outcome::Ok);
  CHECK(f.shown.find("2 operation(s), committed: ") == 0);
  CHECK(f.run("SELECT ?x WHERE { e:c e:knows ?x }") == Session::Outcome::Ok);
  CHECK(f.shown == "?x\n<http://e/y>\n");
}

TEST_CASE("a session that cannot open the newest generation says so and keeps reading its own") {
  SessionFixture f(kData);
  f.load("<http://e/c> <http://e/knows> <http://e/d> .\n");
  // The new generation's catalog loses its checksum line.
  const auto catalog = f.dir / "db" / "gen-000002" / "catalog";
  std::filesystem::permissions(catalog, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  std::filesystem::resize_file(catalog, std::filesystem::file_size(catalog) / 2);
  CHECK(f.dot(".format tsv") == Session::Outcome::Ok);
  CHECK(f.run("SELECT ?x WHERE { <http://e/a> <http://e/knows> ?x }") == Session::Outcome::Ok);
  CHECK(f.errors.find("error: the database changed, but its newest generation cannot be opened: ") == 0);
  CHECK(f.errors.find("(still reading generation 1)") != std::string::npos);
  CHECK(f.shown == "?x\n<http://e/b>\n");
}

TEST_CASE("--timeout and --memory-budget values are checked for a person") {
  using gsparql::options::parseByteSize;
  using gsparql::options::parseTimeout;
  using gsparql::cli::UsageError;
  CHECK(parseTimeout("0.25") == std::chrono::milliseconds(250));
  CHECK(parseTimeout("600") == std::chrono::seconds(600));
  for (const char* bad : {"0", "-1", "1s", "", "nan", "1e99"}) CHECK_THROWS_AS(parseTimeout(bad), UsageError);
  CHECK(parseByteSize("1048576") == 1048576);
  CHECK(parseByteSize("512M") == 512ull << 20);
  CHECK(parseByteSize("8g") == 8ull << 30);
  CHECK(parseByteSize("2T") == 2ull << 40);
  for (const char* bad : {"0", "8GB", "G", "-1", "1.5G", "99999999999999999999", "20000000T"}) {
    CHECK_THROWS_AS(parseByteSize(bad), UsageError);
  }
}
