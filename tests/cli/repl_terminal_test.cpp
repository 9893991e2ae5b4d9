// `gsparql repl` driven through a pseudo-terminal (tmux), checking what a
// person would see on the screen.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "cli/tmux_terminal.h"
#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

constexpr const char* kPrompt = "gsparql> ";

const char* kPeople =
    "<http://example.org/alice> <http://xmlns.com/foaf/0.1/knows> <http://example.org/bob> .\n"
    "<http://example.org/bob> <http://xmlns.com/foaf/0.1/knows> <http://example.org/carol> .\n"
    "<http://example.org/alice> <http://xmlns.com/foaf/0.1/name> \"Alice\" .\n"
    "<http://example.org/bob> <http://xmlns.com/foaf/0.1/name> \"Bob\" .\n"
    "<http://example.org/carol> <http://xmlns.com/foaf/0.1/name> \"Carol\" .\n";

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

void requireTerminalTools() {
  // Not a skip: scripts/install-deps.sh installs tmux, so its absence is a
  // broken setup that must show.
  INFO("tmux is needed for the terminal tests: run scripts/install-deps.sh");
  REQUIRE(tmuxAvailable());
}

struct ReplFixture {
  TempDir dir;
  std::filesystem::path db = dir / "db";
  std::filesystem::path history = dir / "history";

  explicit ReplFixture(const std::string& ntriples = kPeople) {
    requireTerminalTools();
    writeFile(dir / "data.nt", ntriples);
    Database::load(db, {(dir / "data.nt").string()});
  }

  // `env`: words for env(1) ("NAME=value", "-u NAME").
  std::unique_ptr<TmuxTerminal> start(const std::string& env = "PAGER=cat") const {
    auto term = std::make_unique<TmuxTerminal>("env " + env + " GSPARQL_HISTORY=" + quote(history.string()) +
                                               " " + quote(GSPARQL_CLI) + " repl --db " + quote(db.string()) +
                                               " --backend cpu");
    bool started = term->waitFor(kPrompt);
    INFO(term->screen());
    REQUIRE(started);
    return term;
  }
};

// The last `count` lines of the screen: a CI log keeps a failure's last lines.
std::string screenTail(const TmuxTerminal& term, int count = 12) {
  std::string text = term.screen();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  size_t at = text.size();
  for (int i = 0; i < count && at != std::string::npos && at > 0; ++i) at = text.rfind('\n', at - 1);
  return at == std::string::npos ? text : text.substr(at + 1);
}

// Waits for the n-th prompt, showing the screen when it does not come.
void expectPrompt(const TmuxTerminal& term, int n) {
  bool shown = term.waitFor(kPrompt, n);
  INFO("the screen's last lines:\n" << screenTail(term));
  REQUIRE(shown);
}

void expectOnScreen(const TmuxTerminal& term, const std::string& text, int times = 1) {
  bool shown = term.waitFor(text, times);
  INFO("waiting for: " << text << "\nscreen:\n" << term.screen());
  CHECK(shown);
}

}  // namespace

TEST_CASE("repl terminal: a query typed over several lines and ended with semicolon prints a table") {
  ReplFixture f;
  auto term = f.start();
  term->line("SELECT ?who ?name");
  expectOnScreen(*term, "..> ");  // continuation prompt
  term->line("WHERE { ?who <http://xmlns.com/foaf/0.1/name> ?name }");
  term->line("ORDER BY ?name;");
  expectPrompt(*term, 2);
  const std::string screen = term->screen();
  CHECK(screen.find("│ ?who") != std::string::npos);
  CHECK(screen.find("\"Alice\"") != std::string::npos);
  CHECK(screen.find("\"Carol\"") != std::string::npos);
  CHECK(screen.find("3 rows") != std::string::npos);
  CHECK(screen.find("<http://example.org/alice>") < screen.find("<http://example.org/carol>"));
}

TEST_CASE("repl terminal: a prefix declared once is used by later queries and .prefixes lists them") {
  ReplFixture f;
  auto term = f.start();
  term->line("PREFIX foaf: <http://xmlns.com/foaf/0.1/> ;");  // alone
  expectPrompt(*term, 2);
  term->line("PREFIX ex: <http://example.org/>");  // in a query
  term->line("SELECT ?x WHERE { ex:alice foaf:knows ?x };");
  expectPrompt(*term, 3);
  expectOnScreen(*term, "ex:bob");  // the table abbreviates with the query's prefixes
  term->line("SELECT ?name WHERE { ex:bob foaf:knows ?y . ?y foaf:name ?name };");
  expectPrompt(*term, 4);
  expectOnScreen(*term, "\"Carol\"");
  term->line(".prefixes");
  expectPrompt(*term, 5);
  expectOnScreen(*term, "PREFIX foaf: <http://xmlns.com/foaf/0.1/>");
  expectOnScreen(*term, "PREFIX ex: <http://example.org/>");
  CHECK(term->screen().find("error") == std::string::npos);
}

TEST_CASE("repl terminal: .format tsv and .timer on change what the next queries show") {
  ReplFixture f;
  auto term = f.start();
  term->line(".format tsv");
  expectPrompt(*term, 2);
  term->line("SELECT ?name WHERE { <http://example.org/alice> <http://xmlns.com/foaf/0.1/name> ?name };");
  expectPrompt(*term, 3);
  std::string screen = term->screen();
  CHECK(screen.find("?name\n\"Alice\"\n") != std::string::npos);
  CHECK(screen.find("┌") == std::string::npos);
  CHECK(screen.find("time:") == std::string::npos);
  term->line(".timer on");
  term->line("ASK { ?s ?p \"Bob\" };");
  expectPrompt(*term, 5);
  expectOnScreen(*term, "true");
  expectOnScreen(*term, "time: parse ");
  expectOnScreen(*term, " ms, execute ");
  term->line(".format");
  expectOnScreen(*term, "format tsv");
}

TEST_CASE("repl terminal: errors are shown and the REPL goes on answering") {
  ReplFixture f;
  auto term = f.start();
  term->line("PREFIX foaf: <http://xmlns.com/foaf/0.1/> ;");
  term->line("SELECT ?name");
  term->line("WHERE { ?p foaf:name ?name ?oops };");
  expectPrompt(*term, 3);
  // The position and the caret point into what was typed, although the
  // session's prefixes were added in front of it.
  expectOnScreen(*term, "error: 2:");
  expectOnScreen(*term, "  WHERE { ?p foaf:name ?name ?oops }\n");
  std::string screen = term->screen();
  size_t caret = screen.find("^", screen.find("?oops }\n"));
  CHECK(caret != std::string::npos);
  term->line(".nonsense");
  expectOnScreen(*term, "unknown command '.nonsense'");
  term->line(".format yaml");
  expectOnScreen(*term, "unknown format 'yaml'");
  term->line("SELECT ?name WHERE { ?p foaf:name ?name } ORDER BY ?name LIMIT 1;");
  expectPrompt(*term, 6);
  expectOnScreen(*term, "\"Alice\"");
  term->line("SELECT * WHERE { ?p foaf:name ?name . SERVICE <ftp://x/> { ?p foaf:knows ?q } };");
  expectPrompt(*term, 7);
  expectOnScreen(*term, "only http and https");
  term->line("}}}{{{ \"unterminated ;");  // a ';' inside a string does not end a statement
  expectOnScreen(*term, "..> ");
  term->press("C-c");
  expectPrompt(*term, 8);
  term->line("ASK { ?s ?p ?o };");
  expectPrompt(*term, 9);
  expectOnScreen(*term, "true");
}

TEST_CASE("repl terminal: Ctrl-C cancels a long query and the prompt comes back and at the prompt it clears the line") {
  // Two disconnected patterns of 3000 triples each: 9 million rows, seconds
  // of work (joining, then decoding and formatting).
  std::string data;
  for (int i = 0; i < 3000; ++i) {
    data += "<e:s" + std::to_string(i) + "> <e:p> <e:o" + std::to_string(i) + "> .\n";
    data += "<e:t" + std::to_string(i) + "> <e:q> <e:u" + std::to_string(i) + "> .\n";
  }
  ReplFixture f(data);
  auto term = f.start();
  term->type("SELECT * WHERE { ?a <e:p> half typed");
  term->press("C-c");
  expectPrompt(*term, 2);
  term->line("SELECT * WHERE { ?a <e:p> ?b . ?c <e:q> ?d };");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto started = std::chrono::steady_clock::now();
  term->press("C-c");
  expectOnScreen(*term, "cancelling...");
  expectOnScreen(*term, "query cancelled");
  expectPrompt(*term, 3);
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // Not a tight bound (see docs/repl.md on what runs to its end); it catches
  // a cancellation that is not heard at all.
  CHECK(seconds < 20);
  CHECK(term->screen().find("9000000 rows") == std::string::npos);
  term->line("SELECT ?b WHERE { <e:s42> <e:p> ?b };");
  expectPrompt(*term, 4);
  expectOnScreen(*term, "<e:o42>");
  expectOnScreen(*term, "1 row");
}

TEST_CASE("repl terminal: Ctrl-D leaves with status 0 and the history survives a restart") {
  ReplFixture f;
  {
    auto term = f.start();
    term->line("SELECT ?n WHERE { ?s <http://xmlns.com/foaf/0.1/name> ?n }");
    term->line("  LIMIT 1;");
    expectPrompt(*term, 2);
    term->line(".timer on");
    term->press("C-d");
    expectOnScreen(*term, "[exit 0]");
  }
  {
    auto term = f.start();
    term->press("Up");
    term->press("Up");
    bool recalled = term->waitFor("SELECT ?n WHERE { ?s <http://xmlns.com/foaf/0.1/name> ?n } LIMIT 1;");
    INFO(term->screen());
    CHECK(recalled);  // the statement comes back joined on one line
    term->press("Enter");
    expectPrompt(*term, 2);
    expectOnScreen(*term, "1 row");
    term->line(".quit");
    expectOnScreen(*term, "[exit 0]");
  }
}

TEST_CASE("repl terminal: a result taller than the terminal is paged and Ctrl-C in the pager does not end the REPL") {
  INFO("less is the default pager: run scripts/install-deps.sh");
  REQUIRE(runCommand({"sh", "-c", "command -v less"}).exitCode == 0);
  std::string data;
  for (int i = 0; i < 100; ++i) data += "<e:item" + std::to_string(1000 + i) + "> <e:rank> \"x\" .\n";
  ReplFixture f(data);
  auto term = f.start("-u PAGER");  // the default pager, less -FRX
  term->line("SELECT ?item WHERE { ?item <e:rank> \"x\" } ORDER BY ?item;");
  expectOnScreen(*term, "<e:item1010>");
  // The pager waits with the rest of the rows.
  CHECK(term->screen().find("100 rows") == std::string::npos);
  term->press("C-c");
  // less drops keys typed before it has handled the interrupt, so a "q" sent
  // right behind Ctrl-C can be lost on a busy machine: send it again while no
  // prompt has come (the prompt comes only once less has quit).
  bool quit = false;
  for (int attempt = 0; attempt < 5 && !quit; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    term->press("q");
    quit = term->waitFor(kPrompt, 2, std::chrono::seconds(4));
  }
  CHECK(quit);
  expectPrompt(*term, 2);
  CHECK(term->screen().find("[exit") == std::string::npos);
  term->line("ASK { <e:item1099> <e:rank> \"x\" };");
  expectPrompt(*term, 3);
  expectOnScreen(*term, "true");
}

TEST_CASE("repl terminal: a pager that cannot be started does not swallow the result") {
  std::string data;
  for (int i = 0; i < 100; ++i) data += "<e:item" + std::to_string(1000 + i) + "> <e:rank> \"x\" .\n";
  ReplFixture f(data);
  auto term = f.start("PAGER=/nonexistent/pager");
  term->line("SELECT ?item WHERE { ?item <e:rank> \"x\" } ORDER BY ?item;");
  expectOnScreen(*term, "100 rows");
  expectOnScreen(*term, "<e:item1099>");
  expectPrompt(*term, 2);
}

TEST_CASE("repl without a terminal: statements from standard input errors make the exit status 1") {
  TempDir dir;
  writeFile(dir / "data.nt", kPeople);
  Database::load(dir / "db", {(dir / "data.nt").string()});
  writeFile(dir / "ok.txt",
            "PREFIX foaf: <http://xmlns.com/foaf/0.1/> ;\n.format tsv\n"
            "SELECT ?n WHERE { ?s foaf:name ?n } ORDER BY ?n; SELECT ?n WHERE {\n"
            "  <http://example.org/bob> foaf:name ?n }\n");  // the last ';' may be left out
  auto ok = runCli({"repl", "--db", (dir / "db").string()}, {"GSPARQL_HISTORY="}, dir / "ok.txt");
  CHECK(ok.exitCode == 0);
  CHECK(ok.output == "?n\n\"Alice\"\n\"Bob\"\n\"Carol\"\n?n\n\"Bob\"\n");

  writeFile(dir / "bad.txt", "SELECT nonsense;\n.nosuch\nASK { ?s ?p \"Bob\" };\n");
  auto bad = runCli({"repl", "--db", (dir / "db").string()}, {"GSPARQL_HISTORY="}, dir / "bad.txt");
  CHECK(bad.exitCode == 1);
  CHECK(bad.output.find("error: ") != std::string::npos);
  CHECK(bad.output.find("true") != std::string::npos);
}
