// gsparql-protocol-conformance: the W3C SPARQL 1.1 Protocol tests
// (sparql11/protocol/manifest.ttl) against `gsparql serve` in this process.
// Each test gets a fresh database of its ut:graphData (each file a named
// graph) and a server on it; its HTTP requests are sent in order as the
// manifest writes them (method, path, headers, body in its character
// encoding), and each response is checked for the status classes, the
// result format and the boolean the manifest expects. Prints a Markdown
// report (docs/conformance-protocol.md).
//
//   gsparql-protocol-conformance [W3C_DIR]
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "http_manifest.h"
#include "manifest.h"
#include "test_server.h"

namespace fs = std::filesystem;
using namespace gsparql;
using namespace gsparql::conformance;

namespace {

// What is wrong with a response, or nothing.
std::optional<std::string> problemWith(const RdfGraph& manifest, const std::string& expected, const httplib::Response& res) {
  if (auto statuses = unexpectedStatus(manifest, expected, res.status)) {
    return "status " + std::to_string(res.status) + ", expected " + *statuses + "(" + res.body.substr(0, 200) + ")";
  }
  const std::string type = res.get_header_value("Content-Type");
  auto isOneOf = [&](std::initializer_list<const char*> types) {
    for (const char* t : types) {
      if (type.rfind(t, 0) == 0) return true;
    }
    return false;
  };
  const auto format = manifest.object(expected, iriTerm(kMf + "expectedFormat"));
  const std::string wanted = format ? lexicalForm(*format) : "";
  if ((wanted == "boolean" || wanted == "tabular") &&
      !isOneOf({"application/sparql-results+xml", "application/sparql-results+json", "text/csv", "text/tab-separated-values"})) {
    return "content type " + type + " is not a SPARQL result format";
  }
  if (wanted == "RDF" && !isOneOf({"application/rdf+xml", "text/turtle", "application/n-triples"})) {
    return "content type " + type + " is not an RDF format";
  }
  if (const auto boolean = manifest.object(expected, iriTerm(kMf + "expectedBoolean"))) {
    const std::string want = lexicalForm(*boolean);
    const std::string other = want == "true" ? "false" : "true";
    if (res.body.find(want) == std::string::npos || res.body.find(other) != std::string::npos) {
      return "the boolean is not " + want + ": " + res.body.substr(0, 200);
    }
  }
  return std::nullopt;
}

// Sends a request of the manifest; returns what is wrong with its answer.
std::optional<std::string> send(const RdfGraph& manifest, const std::string& request, const test::TestServer& server) {
  httplib::Request req = manifestRequest(manifest, request, "/sparql/");
  if (req.path.rfind("/sparql/", 0) == 0) req.path.erase(7, 1);  // the manifest's endpoint is "/sparql/", ours "/sparql"
  httplib::Response res;
  httplib::Error error = httplib::Error::Success;
  if (!server.client().send(req, res, error)) return "no response: " + httplib::to_string(error);
  const auto expected = manifest.object(request, iriTerm(kHt + "resp"));
  return expected ? problemWith(manifest, *expected, res) : std::nullopt;
}

// Runs one test on a fresh database in `scratch`; returns what failed, or nothing.
std::optional<std::string> run(const RdfGraph& manifest, const ManifestTest& test, const fs::path& scratch) {
  fs::remove_all(scratch);
  const fs::path db = scratch / "db";
  Database::load(db, {});
  for (const GraphFile& g : graphData(manifest, test.subject)) {
    LoadOptions options;
    options.graph = g.graph.substr(1, g.graph.size() - 2);
    Database::load(db, {g.file.string()}, options);
  }
  const auto action = manifest.object(test.subject, iriTerm(kMf + "action"));
  const auto requests = action ? manifest.object(*action, iriTerm(kHt + "requests")) : std::nullopt;
  if (!requests) return "the test has no requests";
  server::ServerOptions options;
  options.updates = true;  // the suite's update tests expect them applied
  test::TestServer server(options, db);
  for (const std::string& request : manifest.list(*requests)) {
    if (auto problem = send(manifest, request, server)) return problem;
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path root = fs::absolute(argc > 1 ? argv[1] : GSPARQL_DEFAULT_W3C_DIR).lexically_normal();
  const fs::path manifestFile = root / "sparql11/protocol/manifest.ttl";
  const RdfGraph manifest = RdfGraph::read(manifestFile);
  const fs::path scratch = fs::temp_directory_path() / ("gsparql-protocol-conformance-" + std::to_string(getpid()));
  std::vector<std::pair<ManifestTest, std::optional<std::string>>> results;
  for (const ManifestTest& test : manifestTests(manifest)) {
    try {
      results.emplace_back(test, run(manifest, test, scratch));
    } catch (const std::exception& e) {
      results.emplace_back(test, std::string("error: ") + e.what());
    }
  }
  fs::remove_all(scratch);
  size_t passed = 0;
  for (const auto& result : results) passed += !result.second;
  std::cout << "# W3C SPARQL 1.1 Protocol tests against gsparql serve\n\n"
            << "Generated by `gsparql-protocol-conformance` (tests/conformance/protocol_runner.cpp):\n\n"
            << "```\nbuild/default/tests/conformance/gsparql-protocol-conformance > docs/conformance-protocol.md\n```\n\n"
            << "Each test of `sparql11/protocol/manifest.ttl` runs on a fresh database of its `ut:graphData` (each file a\n"
            << "named graph) served in the runner's process; its requests are sent as the manifest writes them (the\n"
            << "manifest's endpoint `/sparql/` is the server's `/sparql`), and each response is checked for the expected\n"
            << "status classes, result format (by content type) and boolean.\n\n"
            << "**" << passed << " of " << results.size() << " pass.**\n\n| test | name | result |\n|---|---|---|\n";
  for (const auto& [test, problem] : results) {
    std::string why = problem.value_or("");
    for (char& c : why) {
      if (c == '\n' || c == '|') c = ' ';
    }
    std::cout << "| " << test.name << " | " << test.title << " | " << (problem ? "fail: " + why : "pass") << " |\n";
  }
  return passed == results.size() ? 0 : 1;
}
