// gsparql-graph-store-conformance: the W3C SPARQL 1.1 Graph Store HTTP
// Protocol tests (sparql11/graph-store-protocol/manifest.ttl and the
// manifests it includes) against `gsparql serve` in this process. Each test
// gets a fresh empty database and a server on it that accepts updates; its
// requests are sent in order, the manifest's endpoint /gsp being the
// server's /data, and a Location a response names replaces its template
// ($LOCATION$) in the requests after it. Each response is checked for its
// status, its headers and, where the manifest gives one, its graph (up to
// blank-node renaming). Prints a Markdown report
// (docs/conformance-graph-store.md); exits 0 when no test fails, 77 (a
// skip, for CTest) when the W3C tests are not there.
//
//   gsparql-graph-store-conformance [W3C_DIR]
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "http_manifest.h"
#include "manifest.h"
#include "results.h"
#include "test_server.h"

namespace fs = std::filesystem;
using namespace gsparql;
using namespace gsparql::conformance;

namespace {

constexpr int kSkipped = 77;
const std::string kManifestEndpoint = "/gsp";

// Templates and the values that responses gave them ("$LOCATION$" -> IRI).
using Templates = std::map<std::string, std::string>;

std::string substituted(std::string text, const Templates& templates) {
  for (const auto& [name, value] : templates) {
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + value.size())) {
      text.replace(at, name.size(), value);
    }
  }
  return text;
}

// The response's graph against the one the manifest writes, both read as
// Turtle (N-Triples is Turtle too).
std::optional<std::string> graphDifference(const std::string& expected, const std::string& actual, const fs::path& scratch) {
  std::ofstream(scratch / "expected.ttl", std::ios::binary) << expected;
  std::ofstream(scratch / "actual.ttl", std::ios::binary) << actual;
  try {
    return compareResults(readRdfResult(scratch / "expected.ttl"), readRdfResult(scratch / "actual.ttl"));
  } catch (const std::exception& e) {
    return std::string("the response's graph does not parse: ") + e.what();
  }
}

// What is wrong with a response, or nothing; records the Location it names.
std::optional<std::string> problemWith(const RdfGraph& manifest, const std::string& expected, const httplib::Response& res,
                                       Templates& templates, const fs::path& scratch) {
  if (auto statuses = unexpectedStatus(manifest, expected, res.status)) {
    return "status " + std::to_string(res.status) + ", expected " + *statuses + "(" + res.body.substr(0, 200) + ")";
  }
  if (auto location = manifest.object(expected, iriTerm(kMf + "expectedLocation"))) {
    if (!res.has_header("Location")) return "no Location header";
    templates[lexicalForm(*location)] = res.get_header_value("Location");
  }
  if (auto headers = manifest.object(expected, iriTerm(kHt + "headers"))) {
    for (const std::string& header : manifest.list(*headers)) {
      const std::string name = lexicalForm(manifest.object(header, iriTerm(kHt + "fieldName")).value_or("\"\""));
      const std::string value = lexicalForm(manifest.object(header, iriTerm(kHt + "fieldValue")).value_or("\"\""));
      if (res.get_header_value(name.c_str()) != value) {
        return name + " is '" + res.get_header_value(name.c_str()) + "', expected '" + value + "'";
      }
    }
  }
  const auto body = manifest.object(expected, iriTerm(kHt + "body"));
  if (!body) return std::nullopt;
  return graphDifference(lexicalForm(manifest.object(*body, iriTerm(kCnt + "chars")).value_or("\"\"")), res.body, scratch);
}

// Sends a request of the manifest; returns what is wrong with its answer.
std::optional<std::string> send(const RdfGraph& manifest, const std::string& request, const test::TestServer& server,
                                Templates& templates, const fs::path& scratch) {
  httplib::Request req = manifestRequest(manifest, request, kManifestEndpoint);
  if (req.path.starts_with(kManifestEndpoint)) req.path.replace(0, kManifestEndpoint.size(), "/data");
  req.path = substituted(req.path, templates);
  req.body = substituted(req.body, templates);
  httplib::Response res;
  httplib::Error error = httplib::Error::Success;
  if (!server.client().send(req, res, error)) return "no response: " + httplib::to_string(error);
  const auto expected = manifest.object(request, iriTerm(kHt + "resp"));
  return expected ? problemWith(manifest, *expected, res, templates, scratch) : std::nullopt;
}

// Runs one test on a fresh database in `scratch`; returns what failed, or nothing.
std::optional<std::string> run(const RdfGraph& manifest, const ManifestTest& test, const fs::path& scratch) {
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  const fs::path db = scratch / "db";
  Database::load(db, {});
  const auto action = manifest.object(test.subject, iriTerm(kMf + "action"));
  const auto requests = action ? manifest.object(*action, iriTerm(kHt + "requests")) : std::nullopt;
  if (!requests) return "the test has no requests";
  server::ServerOptions options;
  options.updates = true;
  test::TestServer server(options, db);
  Templates templates;
  for (const std::string& request : manifest.list(*requests)) {
    if (auto problem = send(manifest, request, server, templates, scratch)) return problem;
  }
  return std::nullopt;
}

struct Outcome {
  ManifestTest test;
  std::optional<std::string> problem;
};

std::vector<Outcome> runManifest(const fs::path& file, const fs::path& scratch) {
  const RdfGraph manifest = RdfGraph::read(file);
  std::vector<Outcome> outcomes;
  for (const ManifestTest& test : manifestTests(manifest)) {
    Outcome outcome{test, std::nullopt};
    try {
      outcome.problem = run(manifest, test, scratch);
    } catch (const std::exception& e) {
      outcome.problem = std::string("error: ") + e.what();
    }
    outcomes.push_back(outcome);
  }
  return outcomes;
}

// The manifests that manifest.ttl includes, in its order.
std::vector<fs::path> includedManifests(const fs::path& file) {
  const RdfGraph manifest = RdfGraph::read(file);
  std::vector<fs::path> files;
  if (auto included = manifest.object(iriTerm(fileUri(file)), iriTerm(kMf + "include"))) {
    for (const std::string& iri : manifest.list(*included)) files.push_back(pathOfIri(iri));
  }
  return files;
}

void printReport(const std::vector<Outcome>& outcomes) {
  size_t passed = 0;
  for (const Outcome& o : outcomes) passed += !o.problem;
  std::cout << "# W3C SPARQL 1.1 Graph Store HTTP Protocol tests against gsparql serve\n\n"
            << "Generated by `gsparql-graph-store-conformance` (tests/conformance/graph_store_runner.cpp):\n\n"
            << "```\nbuild/default/tests/conformance/gsparql-graph-store-conformance > docs/conformance-graph-store.md\n```\n\n"
            << "Each test of `sparql11/graph-store-protocol/manifest.ttl` (the direct and the indirect manifest) runs on\n"
            << "a fresh empty database served in the runner's process with `--update`; its requests are sent in order\n"
            << "as the manifest writes them (the manifest's endpoint `/gsp` is the server's `/data`, and the Location of\n"
            << "a response replaces `$LOCATION$` in the requests after it), and each response is checked for its\n"
            << "status, its headers and its graph (isomorphic to the manifest's).\n\n"
            << "**" << passed << " of " << outcomes.size() << " pass; " << outcomes.size() - passed
            << " fail.**\n\n| test | name | result |\n|---|---|---|\n";
  for (const Outcome& o : outcomes) {
    std::string why = o.problem.value_or("");
    for (char& c : why) {
      if (c == '\n' || c == '|') c = ' ';
    }
    const std::string result = !o.problem ? "pass" : "fail: " + why;
    std::cout << "| " << o.test.name << " | " << o.test.title << " | " << result << " |\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path root = fs::absolute(argc > 1 ? argv[1] : GSPARQL_DEFAULT_W3C_DIR).lexically_normal();
  const fs::path manifestFile = root / "sparql11/graph-store-protocol/manifest.ttl";
  if (!fs::exists(manifestFile)) {
    std::cerr << "skipped: no W3C Graph Store tests at " << manifestFile.string() << "\n";
    return kSkipped;
  }
  const fs::path scratch = fs::temp_directory_path() / ("gsparql-graph-store-conformance-" + std::to_string(getpid()));
  fs::create_directories(scratch);
  std::vector<Outcome> outcomes;
  for (const fs::path& file : includedManifests(manifestFile)) {
    for (Outcome& outcome : runManifest(file, scratch)) outcomes.push_back(std::move(outcome));
  }
  fs::remove_all(scratch);
  printReport(outcomes);
  for (const Outcome& o : outcomes) {
    if (o.problem) return 1;
  }
  return 0;
}
