// The Debian package (cmake/Package.cmake), built by CPack from this build
// and looked into without installing it: what it holds, what it declares,
// and that its command runs from the extracted files.
#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "install_commands.h"
#include "support/files.h"
#include "support/test_support.h"

using namespace gsparql::test;

namespace {

struct DebPackage {
  TempDir dir;
  std::filesystem::path deb;
  std::filesystem::path root = dir / "root";
  DebPackage() {
    const ProcessResult pack = shell(std::string(GSPARQL_CPACK) + " -G DEB --config " +
                                     shellQuoted(std::filesystem::path(GSPARQL_BUILD_DIR) / "CPackConfig.cmake") +
                                     " -B " + shellQuoted(dir / "out"));
    INFO(pack.output);
    REQUIRE(pack.exitCode == 0);
    for (const auto& entry : std::filesystem::directory_iterator(dir / "out")) {
      if (entry.path().extension() == ".deb") deb = entry.path();
    }
    REQUIRE(!deb.empty());
    REQUIRE(shell("dpkg-deb -x " + shellQuoted(deb) + " " + shellQuoted(root)).exitCode == 0);
  }
  std::string field(const std::string& name) const {
    std::string value = shell("dpkg-deb --field " + shellQuoted(deb) + " " + name).output;
    while (!value.empty() && value.back() == '\n') value.pop_back();
    return value;
  }
};

// The Debian packages of the shared libraries `binary` loads, as dpkg knows them here.
std::set<std::string> packagesOfLibraries(const std::filesystem::path& binary) {
  std::set<std::string> packages;
  std::istringstream needed(shell("objdump -p " + shellQuoted(binary) + " | awk '/NEEDED/ {print $2}'").output);
  for (std::string library; std::getline(needed, library);) {
    if (library.starts_with("libgsparql")) continue;  // in the package itself
    const std::string owner = shell("dpkg -S '*/" GSPARQL_MULTIARCH "/" + library + "' | head -1 | cut -d: -f1").output;
    packages.insert(owner.substr(0, owner.find('\n')));
  }
  return packages;
}

// The paths of the libraries gsparql opens on first use (cmake/Dependencies.cmake).
std::vector<std::filesystem::path> librariesOpenedOnFirstUse() {
  std::vector<std::filesystem::path> paths;
  std::istringstream lines(readText(std::filesystem::path(GSPARQL_BUILD_DIR) / "libraries-on-first-use.txt"));
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) paths.emplace_back(line);
  }
  return paths;
}

}  // namespace

TEST_CASE("the Debian package is named by version and architecture and declares the Debian libraries it loads") {
  DebPackage package;
  CHECK(package.deb.filename().string() == "gsparql_" + package.field("Version") + "_amd64.deb");
  CHECK(package.field("Package") == "gsparql");
  // "libfoo1 (>= 1.2), libbar2" -> {libfoo1, libbar2}
  const std::string depends = package.field("Depends");
  std::set<std::string> declared;
  std::istringstream entries(depends);
  for (std::string entry; std::getline(entries, entry, ',');) {
    std::istringstream words(entry);
    std::string name;
    words >> name;
    declared.insert(name);
  }
  const std::set<std::string> loaded = packagesOfLibraries(package.root / "usr/bin/gsparql");
  CHECK(loaded.size() >= 10);  // RocksDB, ANTLR, oneTBB, GEOS, the codecs, libc, ...
  for (const std::string& needed : loaded) {
    INFO(needed, " in ", depends);
    CHECK(declared.contains(needed));
  }
}

TEST_CASE("PROJ, GEOS, Raptor, libcurl, libcrypto and libedit are opened on first use: not linked, but declared, and work when opened") {
  const std::vector<std::filesystem::path> opened = librariesOpenedOnFirstUse();
  REQUIRE(opened.size() == 6);
  DebPackage package;
  const std::string depends = package.field("Depends");
  std::string linked;
  for (const char* binary : {"usr/bin/gsparql", "usr/lib/" GSPARQL_MULTIARCH "/libgsparql.so.0"}) {
    linked += shell("objdump -p " + shellQuoted(package.root / binary) + " | awk '/NEEDED/ {print $2}'").output;
  }
  REQUIRE(linked.find("librocksdb") != std::string::npos);  // the list is read
  for (const std::filesystem::path& library : opened) {
    CAPTURE(library);
    CHECK(std::filesystem::exists(library));
    CHECK(linked.find(library.filename().string()) == std::string::npos);
    const std::string owner = shell("dpkg -S " + shellQuoted(library) + " | head -1 | cut -d: -f1").output;
    CHECK(depends.find(owner.substr(0, owner.find('\n'))) != std::string::npos);
  }
  // The packaged command opens Raptor for RDF/XML, GEOS for the geometries, PROJ for a distance from a CRS other
  // than CRS84 and libcrypto for an MD5 (libcurl, for SERVICE, only under `gsparql serve --service-allow`: tests/server/service_test.cpp).
  TempDir work;
  writeFile(work / "data.rdf", "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" "
                               "xmlns:e=\"http://e/\"><rdf:Description rdf:about=\"http://e/a\"><e:p>x</e:p>"
                               "</rdf:Description></rdf:RDF>\n");
  const std::string bin = shellQuoted(package.root / "usr/bin/gsparql");
  const ProcessResult run = shell(
      bin + " load --db " + shellQuoted(work / "db") + " " + shellQuoted(work / "data.rdf") + " && " + bin +
      " query --db " + shellQuoted(work / "db") + " --format tsv " +
      "'PREFIX geof: <http://www.opengis.net/def/function/geosparql/> "
      "SELECT ?o (MD5(?o) AS ?h) (geof:distance(\"<http://www.opengis.net/def/crs/EPSG/0/3857> POINT(0 0)\"^^<http://www.opengis.net/ont/geosparql#wktLiteral>, "
      "\"POINT(0 1)\"^^<http://www.opengis.net/ont/geosparql#wktLiteral>, <http://www.opengis.net/def/uom/OGC/1.0/metre>) AS ?m) "
      "WHERE { <http://e/a> <http://e/p> ?o }'");
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  // MD5("x") as `printf x | md5sum` gives it; one degree of latitude from the equator on WGS 84: 110,574.39 m
  // (PROJ's geod says so too).
  CHECK(run.output.find("\n?o\t?h\t?m\n\"x\"\t\"9dd4e461268c8034f5c8564e155c67a6\"\t1.105743") != std::string::npos);
  // The REPL reads its lines through libedit, from a pipe too.
  const ProcessResult repl = shell("printf 'SELECT ?o WHERE { <http://e/a> <http://e/p> ?o }\\n' | " + bin +
                                   " repl --db " + shellQuoted(work / "db"));
  INFO(repl.output);
  CHECK(repl.exitCode == 0);
  CHECK(repl.output.find("\"x\"") != std::string::npos);
  CHECK(repl.output.find("line editing") == std::string::npos);
}

TEST_CASE("the Debian package holds the command, the library with its headers and CMake files, and the page") {
  DebPackage package;
  const auto usr = package.root / "usr";
  CHECK(std::filesystem::exists(usr / "bin/gsparql"));
  CHECK(std::filesystem::exists(usr / "include/gsparql/gsparql.h"));
  CHECK(std::filesystem::exists(usr / "share/gsparql/web/index.html"));
  CHECK(std::filesystem::exists(usr / "share/gsparql/web/node_modules/@zazuko/yasgui/build/yasgui.min.js"));
  const ProcessResult libraries = shell("cd " + shellQuoted(usr) + " && find . -name 'libgsparql.so*' -o -name gsparqlConfig.cmake -o -name gsparql.pc | sort");
  CHECK(libraries.output.find("/libgsparql.so.0\n") != std::string::npos);
  CHECK(libraries.output.find("/gsparqlConfig.cmake\n") != std::string::npos);
  CHECK(libraries.output.find("/gsparql.pc\n") != std::string::npos);

  // The extracted command works: it loads and answers a query.
  TempDir work;
  writeFile(work / "data.nt", "<http://e/a> <http://e/p> <http://e/b> .\n<http://e/b> <http://e/p> <http://e/c> .\n");
  const std::string bin = shellQuoted(usr / "bin/gsparql");
  const ProcessResult run = shell(bin + " load --db " + shellQuoted(work / "db") + " " + shellQuoted(work / "data.nt") + " && " +
                                  bin + " query --db " + shellQuoted(work / "db") + " --format tsv " +
                                  "'SELECT (COUNT(*) AS ?n) WHERE { ?x <http://e/p>/<http://e/p> ?y }'");
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  CHECK(run.output.ends_with("?n\n1\n"));
}

#ifdef GSPARQL_HAS_PYTHON
TEST_CASE("the Debian package's Python module loads its library and registers the rdflib store") {
  DebPackage package;
  TempDir work;
  writeFile(work / "data.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
  // Python's own folder for /usr, relative to the extracted root; the module
  // finds libgsparql.so.0 through its RPATH, inside the same root.
  writeFile(work / "check.py",
            "import gsparql, rdflib\n"
            "db = gsparql.Database('" + (work / "db").string() + "')\n"
            "db.load('" + (work / "data.nt").string() + "')\n"
            "print(len(db.query('SELECT * WHERE { ?s ?p ?o }')))\n"
            "graph = rdflib.Graph(store='gsparql')\n"
            "graph.open('" + (work / "db").string() + "')\n"
            "print(len(graph), gsparql.__file__)\n");
  const ProcessResult run =
      shell("PYTHONPATH=" + shellQuoted(package.root / "usr/lib/python3/dist-packages") + " /usr/bin/python3 " +
            shellQuoted(work / "check.py"));
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  CHECK(run.output.starts_with("1\n1 " + (package.root / "usr/lib/python3/dist-packages/gsparql").string()));
}
#endif
