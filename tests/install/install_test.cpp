// gsparql installed into a temporary prefix, used as a program built on it
// would use it: find_package(gsparql), pkg-config, the installed command and
// its query page.
#include <doctest/doctest.h>

#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "install_commands.h"
#include "support/files.h"
#include "support/test_support.h"

using namespace gsparql::test;

namespace {

const std::string kEmbedSource = std::string(GSPARQL_SOURCE_DIR) + "/examples/embed.cpp";
const char* kKnowsTwice = "SELECT ?a ?c WHERE { ?a <http://e/knows> ?b . ?b <http://e/knows> ?c }";

// A prefix with gsparql installed, and a small data file.
struct Installed {
  TempDir dir;
  std::filesystem::path prefix = dir / "prefix";
  std::filesystem::path data = dir / "data.nt";
  Installed() {
    installInto(prefix);
    writeFile(data,
              "<http://e/alice> <http://e/knows> <http://e/bob> .\n"
              "<http://e/bob> <http://e/knows> <http://e/carol> .\n");
  }
  std::filesystem::path libdir() const { return prefix / GSPARQL_LIBDIR; }
  // Runs the example program built at `program` on a fresh database.
  ProcessResult runExample(const std::filesystem::path& program, const std::string& dbName) const {
    return shell(shellQuoted(program) + " " + shellQuoted(dir / dbName) + " " + shellQuoted(data) + " '" + kKnowsTwice + "'");
  }
};

void checkExampleOutput(const ProcessResult& run) {
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  CHECK(run.output == "loaded 2 triples\n?a\t?c\t\n<http://e/alice>\t<http://e/carol>\t\n1 rows\n");
}

}  // namespace

TEST_CASE("a program finds the installed gsparql with find_package and links gsparql::gsparql alone") {
  Installed installed;
  const auto build = installed.dir / "consumer";
  const ProcessResult configure =
      shell(std::string(GSPARQL_CMAKE) + " -S " + shellQuoted(GSPARQL_CONSUMER_DIR) + " -B " + shellQuoted(build) +
            " -DCMAKE_PREFIX_PATH=" + shellQuoted(installed.prefix) + " -DEMBED_SOURCE=" + shellQuoted(kEmbedSource) +
            " && " + GSPARQL_CMAKE + " --build " + shellQuoted(build));
  INFO(configure.output);
  REQUIRE(configure.exitCode == 0);
  checkExampleOutput(installed.runExample(build / "embed", "db"));
}

TEST_CASE("a program builds against the installed gsparql with pkg-config") {
  Installed installed;
  const auto program = installed.dir / "embed";
  const ProcessResult compile =
      shell("PKG_CONFIG_PATH=" + shellQuoted(installed.libdir() / "pkgconfig") + " && export PKG_CONFIG_PATH && c++ " +
            shellQuoted(kEmbedSource) + " $(pkg-config --cflags --libs gsparql) -Wl,-rpath," +
            shellQuoted(installed.libdir()) + " -o " + shellQuoted(program));
  INFO(compile.output);
  REQUIRE(compile.exitCode == 0);
  checkExampleOutput(installed.runExample(program, "db"));
}

TEST_CASE("libgsparql.so has a versioned SONAME and exports the public API, none of the engine") {
  Installed installed;
  const auto library = installed.libdir() / "libgsparql.so";
  const ProcessResult soname = shell("objdump -p " + shellQuoted(library) + " | grep SONAME");
  CHECK(soname.output.find("libgsparql.so.0") != std::string::npos);

  // Defined dynamic symbols, demangled: the API's own are gsparql::X with X
  // a public name (capitalised classes, lower-case free functions), never a
  // layer's namespace (gsparql::engine::...). The standard library's
  // template instances that the API's inline code uses are weak and may show.
  const ProcessResult symbols = shell("nm -D --defined-only -C " + shellQuoted(library));
  REQUIRE(symbols.exitCode == 0);
  std::istringstream lines(symbols.output);
  const std::regex internal(R"(gsparql::(rdf|options|parser|storage|loaders|engine|api|server|cli)::|rocksdb|antlr|cuda)");
  size_t api = 0;
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    CHECK_FALSE(std::regex_search(line, internal));
    if (line.find(" T gsparql::") != std::string::npos) ++api;
  }
  CHECK(api >= 20);  // Database's, QueryResult's and the free functions of include/gsparql/
}

#ifdef GSPARQL_HAS_SERVER
TEST_CASE("the installed gsparql serve finds its query page under share/gsparql") {
  Installed installed;
  const auto bin = installed.prefix / "bin/gsparql";
  REQUIRE(shell(shellQuoted(bin) + " load --db " + shellQuoted(installed.dir / "db") + " " + shellQuoted(installed.data)).exitCode == 0);
  // A mark in the installed copy tells it from the source tree's page.
  const auto page = installed.prefix / "share/gsparql/web/index.html";
  writeFile(page, readText(page) + "<!-- installed copy -->\n");
  const auto log = installed.dir / "serve.log";
  const ProcessResult started = shell(shellQuoted(bin) + " serve --db " + shellQuoted(installed.dir / "db") +
                                      " --port 0 > " + shellQuoted(log) + " 2>&1 & echo $!");
  const std::string pid = started.output.substr(0, started.output.find('\n'));
  int port = 0;
  for (int attempt = 0; attempt < 300 && port == 0; ++attempt) {
    std::smatch match;
    const std::string text = shell("cat " + shellQuoted(log)).output;
    if (std::regex_search(text, match, std::regex(R"(127\.0\.0\.1:(\d+))"))) port = std::stoi(match[1]);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(port != 0);
  auto get = [&](const std::string& path) {
    return shell("bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + std::to_string(port) + " && printf \"GET " + path +
                 " HTTP/1.0\\r\\n\\r\\n\" >&3 && head -c 300 <&3'");
  };
  const ProcessResult served = shell("bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + std::to_string(port) +
                                     " && printf \"GET / HTTP/1.0\\r\\n\\r\\n\" >&3 && cat <&3'");
  const ProcessResult yasgui = get("/node_modules/@zazuko/yasgui/build/yasgui.min.js");
  shell("kill " + pid);
  INFO(served.output);
  CHECK(served.output.starts_with("HTTP/1.1 200"));
  CHECK(served.output.find("<!-- installed copy -->") != std::string::npos);
  INFO(yasgui.output);
  CHECK(yasgui.output.starts_with("HTTP/1.1 200"));
}
#endif
