// Runs the W3C SPARQL query and update evaluation tests
// (mf:QueryEvaluationTest, mf:UpdateEvaluationTest) of every
// sparql10/*/manifest.ttl and sparql11/*/manifest.ttl against the CPU
// backend, and prints a Markdown report (docs/conformance-evaluation.md).
//   gsparql-eval-conformance [--verbose] [--only SUBSTRING] [W3C_DIR]
// Exit code 0 when no test fails (unsupported and skipped tests do not fail).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine_answer.h"
#include "gsparql/database.h"
#include "gsparql/error.h"
#include "loaders/rdf_reader.h"
#include "manifest.h"
#include "parser/parse.h"
#include "results.h"
#include "support/files.h"
#include "test_server.h"

namespace {

namespace fs = std::filesystem;
using namespace gsparql::conformance;

enum class Outcome { Pass, Fail, Unsupported, Skipped };

// The two features whose tests the report counts apart. A test needing
// both counts as needing SERVICE.
enum class Needs { Neither, NamedGraphs, Service };

struct TestResult {
  std::string folder, name, title;
  Outcome outcome = Outcome::Skipped;
  std::string reason;  // fail: the difference; unsupported: the feature; skipped: why
  Needs needs = Needs::Neither;
};

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string oneLine(std::string s, size_t max = 400) {
  for (auto& c : s)
    if (c == '\n' || c == '\r' || c == '|') c = c == '|' ? '/' : ' ';
  if (s.size() > max) s = s.substr(0, max) + "...";
  return s;
}

// Why a test of this mf: type is not run; empty for query evaluation tests.
std::string skipReasonForType(const std::string& type) {
  if (type == "QueryEvaluationTest" || type == "UpdateEvaluationTest") return "";
  if (type == "ProtocolTest") return "SPARQL protocol test";
  if (type == "GraphStoreProtocolTest") return "graph store protocol test";
  if (type == "ServiceDescriptionTest") return "service description test";
  if (type == "CSVResultFormatTest") return "CSV result format test (lossy format)";
  return "mf:" + type;
}

bool isSyntaxTest(const std::string& type) { return type.find("SyntaxTest") != std::string::npos; }

using gsparql::sparql::Expr;
using gsparql::sparql::Op;

void forEachOp(const Op& op, const std::function<void(const Op&)>& visit);

// The operators of the EXISTS and NOT EXISTS patterns in `e`.
void forEachOp(const Expr& e, const std::function<void(const Op&)>& visit) {
  if (e.pattern) forEachOp(*e.pattern, visit);
  for (const auto& arg : e.args) forEachOp(arg, visit);
}

// `op` and every operator under it, those in its expressions included.
void forEachOp(const Op& op, const std::function<void(const Op&)>& visit) {
  visit(op);
  for (const auto& child : op.children) forEachOp(*child, visit);
  for (const auto& e : op.exprs) forEachOp(e, visit);
  for (const auto& b : op.bindings) forEachOp(b.expr, visit);
  for (const auto& b : op.aggregates) forEachOp(b.expr, visit);
  for (const auto& key : op.order) forEachOp(key.expr, visit);
}

// What the runner needs of the query itself.
struct QueryFacts {
  std::vector<std::string> orderKeys;
  bool namedGraphs = false;                // FROM, FROM NAMED, GRAPH
  bool service = false;                    // SERVICE
  std::vector<std::string> datasetGraphs;  // FROM and FROM NAMED IRIs: files the
                                           // dataset tests load as graphs
};


// Whether an update request names a graph (GRAPH, WITH, USING, a named
// graph as target or source); false for one that does not parse.
bool updateNamesGraphs(const std::string& text) {
  using gsparql::sparql::GraphTarget;
  gsparql::sparql::UpdateRequest request;
  try {
    request = gsparql::sparql::parseUpdate(text);
  } catch (const std::exception&) {
    return false;
  }
  auto named = [](const GraphTarget& t) {
    return t.kind == GraphTarget::Kind::Named || t.kind == GraphTarget::Kind::AllNamed;
  };
  for (const auto& op : request.operations) {
    bool names = !op.with.empty() || !op.usingGraphs.empty() || !op.usingNamedGraphs.empty() || named(op.target) ||
                 named(op.from);
    for (const auto* quads : {&op.deleteQuads, &op.insertQuads}) {
      for (const auto& q : *quads) names |= !q.inDefaultGraph();
    }
    if (op.where) forEachOp(*op.where, [&](const Op& o) { names |= o.kind == Op::Kind::Graph; });
    if (names) return true;
  }
  return false;
}

// Empty facts for a query that does not parse (the engine then fails it).
QueryFacts queryFacts(const std::string& queryText) {
  QueryFacts facts;
  gsparql::sparql::Query q;
  try {
    q = gsparql::sparql::parseQuery(queryText);
  } catch (const std::exception&) {
    return facts;
  }
  facts.orderKeys = orderKeys(q);
  facts.namedGraphs = !q.fromGraphs.empty() || !q.fromNamedGraphs.empty();
  facts.datasetGraphs = q.fromGraphs;
  facts.datasetGraphs.insert(facts.datasetGraphs.end(), q.fromNamedGraphs.begin(), q.fromNamedGraphs.end());
  if (q.pattern)
    forEachOp(*q.pattern, [&](const Op& op) {
      facts.namedGraphs |= op.kind == Op::Kind::Graph;
      facts.service |= op.kind == Op::Kind::Service;
    });
  return facts;
}

class Runner {
 public:
  explicit Runner(fs::path scratch) : scratch_(std::move(scratch)) { fs::create_directories(scratch_); }
  ~Runner() {
    std::error_code ec;
    fs::remove_all(scratch_, ec);
  }

  TestResult run(const RdfGraph& manifest, const ManifestTest& test, const std::string& folder) {
    TestResult r{folder, test.name, test.title, Outcome::Skipped, ""};
    auto skip = [&](Outcome o, std::string why) {
      r.outcome = o;
      r.reason = std::move(why);
      return r;
    };
    if (std::string why = skipReasonForType(test.type); !why.empty()) return skip(Outcome::Skipped, why);
    if (test.type == "UpdateEvaluationTest") return runUpdate(manifest, test, r);
    auto action = manifest.object(test.subject, iriTerm(kMf + "action"));
    auto queryIri = action ? manifest.object(*action, iriTerm(kQt + "query")) : std::nullopt;
    if (!queryIri) return skip(Outcome::Fail, "runner: no qt:query in the manifest");
    fs::path queryFile = pathOfIri(*queryIri);
    std::string queryText;
    try {
      // The query's base IRI is its file's URI, as for the data files; a
      // BASE in the query itself resolves against it and so still wins.
      queryText = "BASE <" + fileUri(queryFile) + "> " + gsparql::test::readText(queryFile);
    } catch (const std::exception& e) {
      return skip(Outcome::Fail, std::string("runner: ") + e.what());
    }
    QueryFacts facts = queryFacts(queryText);
    bool serviceData = !manifest.objects(*action, iriTerm(kQt + "serviceData")).empty();
    bool graphData = !manifest.objects(*action, iriTerm(kQt + "graphData")).empty();
    r.needs = facts.service || serviceData     ? Needs::Service
              : facts.namedGraphs || graphData ? Needs::NamedGraphs
                                               : Needs::Neither;

    if (manifest.object(*action, iriTerm(kSd + "entailmentRegime")) ||
        manifest.object(test.subject, iriTerm(kSd + "entailmentRegime")))
      return skip(Outcome::Skipped, "entailment regime other than simple entailment");
    // Each file of qt:graphData, and of FROM or FROM NAMED, is a named
    // graph named by its IRI.
    std::vector<GraphFile> data;
    std::vector<std::string> graphIris = facts.datasetGraphs;
    for (const auto& g : manifest.objects(*action, iriTerm(kQt + "graphData"))) graphIris.push_back(g);
    for (const auto& d : manifest.objects(*action, iriTerm(kQt + "data"))) data.push_back({pathOfIri(d), ""});
    for (const auto& g : graphIris) {
      if (g.starts_with("<file:")) data.push_back({pathOfIri(g), "<" + fileUri(pathOfIri(g)) + ">"});
    }
    for (const auto& d : data) {
      if (!gsparql::rdfFormatOfFileName(d.file.filename().string()))
        return skip(Outcome::Unsupported, "data format " + d.file.extension().string());
    }
    auto resultIri = manifest.object(test.subject, iriTerm(kMf + "result"));
    if (!resultIri) return skip(Outcome::Fail, "runner: no mf:result in the manifest");

    ResultSet actual;
    try {
      gsparql::QueryOptions options{gsparql::Backend::Cpu, gsparql::Semantics::Homomorphism};
      std::vector<std::unique_ptr<gsparql::test::TestServer>> endpoints;
      options.service = serviceEndpoints(manifest, *action, endpoints);
      gsparql::Database db(database(data));
      auto result = db.query(queryText, options);
      actual = toResultSet(result);
    } catch (const gsparql::QueryError& e) {
      std::string msg = e.what();
      if (msg.find("not supported yet") != std::string::npos)
        return skip(Outcome::Unsupported, msg.substr(0, msg.find(" at ")));
      return skip(Outcome::Fail, "query error: " + firstLine(msg));
    } catch (const gsparql::LoadError& e) {
      return skip(Outcome::Fail, "data load error: " + firstLine(e.what()));
    } catch (const UnsupportedFormat& e) {
      return skip(Outcome::Unsupported, std::string("data as ") + e.what());
    } catch (const std::exception& e) {
      return skip(Outcome::Fail, std::string("error: ") + firstLine(e.what()));
    }

    ResultSet expected;
    try {
      expected = readResultFile(pathOfIri(*resultIri), scratch_);
    } catch (const UnsupportedFormat& e) {
      return skip(Outcome::Unsupported, std::string("expected results as ") + e.what());
    } catch (const std::exception& e) {
      return skip(Outcome::Fail, std::string("runner: cannot read expected results: ") + e.what());
    }

    CompareOptions options;
    options.laxCardinality =
        manifest.object(test.subject, iriTerm(kMf + "resultCardinality")) == iriTerm(kMf + "LaxCardinality");
    options.orderKeys = facts.orderKeys;
    if (auto diff = compareResults(expected, actual, options)) return skip(Outcome::Fail, *diff);
    r.outcome = Outcome::Pass;
    return r;
  }

 private:
  // Each endpoint of the test's qt:serviceData is a gsparql server in this
  // process holding its qt:data, reached by the endpoint's IRI through
  // ServiceAccess::connectTo; any other endpoint is a closed port (the tests'
  // http://invalid.endpoint.org/ is meant not to answer). The servers are
  // started last first, each reaching those started before it: an
  // endpoint's pattern may hold a SERVICE to a later one (service03).
  gsparql::ServiceAccess serviceEndpoints(const RdfGraph& manifest, const std::string& action,
                                          std::vector<std::unique_ptr<gsparql::test::TestServer>>& servers) {
    gsparql::ServiceAccess access;
    auto withTheRestClosed = [](gsparql::ServiceAccess reach) {
      reach.connectTo.push_back("::127.0.0.1:1");
      return reach;
    };
    const auto endpoints = manifest.objects(action, iriTerm(kQt + "serviceData"));
    for (auto it = endpoints.rbegin(); it != endpoints.rend(); ++it) {
      const auto iri = manifest.object(*it, iriTerm(kQt + "endpoint"));
      if (!iri) continue;
      std::vector<GraphFile> data;
      for (const auto& d : manifest.objects(*it, iriTerm(kQt + "data"))) data.push_back({pathOfIri(d), ""});
      gsparql::server::ServerOptions options;
      options.threads = 1;
      options.connectionThreads = 1;
      options.service = withTheRestClosed(access);
      servers.push_back(std::make_unique<gsparql::test::TestServer>(options, database(data)));
      const std::string url = iri->substr(1, iri->size() - 2);  // <http://host[:port]/path>
      const size_t host = url.find("://") + 3;
      access.connectTo.push_back(url.substr(host, url.find_first_of(":/", host) - host) + "::127.0.0.1:" +
                                 std::to_string(servers.back()->port()));
    }
    return withTheRestClosed(access);
  }

  // An update test: its request applied to a fresh database of ut:data and
  // ut:graphData, then the default graph and each named graph compared with
  // the expected ones (graphs, as for CONSTRUCT), and the names of the
  // non-empty named graphs with those expected (the store keeps no empty
  // graphs).
  TestResult runUpdate(const RdfGraph& manifest, const ManifestTest& test, TestResult r) {
    auto finish = [&](Outcome o, std::string why) {
      r.outcome = o;
      r.reason = std::move(why);
      return r;
    };
    auto action = manifest.object(test.subject, iriTerm(kMf + "action"));
    auto result = manifest.object(test.subject, iriTerm(kMf + "result"));
    auto requestIri = action ? manifest.object(*action, iriTerm(kUt + "request")) : std::nullopt;
    if (!requestIri || !result) return finish(Outcome::Fail, "runner: no ut:request or mf:result in the manifest");
    const fs::path requestFile = pathOfIri(*requestIri);
    std::string text;
    try {
      text = "BASE <" + fileUri(requestFile) + "> " + gsparql::test::readText(requestFile);
    } catch (const std::exception& e) {
      return finish(Outcome::Fail, std::string("runner: ") + e.what());
    }
    const bool hasGraphData = !manifest.objects(*action, iriTerm(kUt + "graphData")).empty() ||
                              !manifest.objects(*result, iriTerm(kUt + "graphData")).empty();
    r.needs = hasGraphData || updateNamesGraphs(text) ? Needs::NamedGraphs : Needs::Neither;
    std::vector<GraphFile> data;
    for (const auto& d : manifest.objects(*action, iriTerm(kUt + "data"))) data.push_back({pathOfIri(d), ""});
    for (const auto& g : graphData(manifest, *action)) data.push_back(g);
    const fs::path dir = scratch_ / ("update" + std::to_string(++updateTests_));
    std::vector<GraphFile> expectedGraphs = graphData(manifest, *result);
    // A TriG or N-Quads ut:data (SPARQL 1.2's tests): a dataset, its named graphs expected as graphData.
    std::map<std::string, ResultSet> expectedDataset;
    auto post = manifest.object(*result, iriTerm(kUt + "data"));
    const bool postIsDataset = post && (pathOfIri(*post).extension() == ".trig" || pathOfIri(*post).extension() == ".nq");
    if (postIsDataset) {
      try {
        expectedDataset = readDatasetResult(pathOfIri(*post));
      } catch (const std::exception& e) {
        return finish(Outcome::Fail, std::string("runner: cannot read the expected dataset: ") + e.what());
      }
      for (const auto& [name, graph] : expectedDataset) {
        if (!name.empty()) expectedGraphs.push_back({"", name});
      }
    }
    std::vector<ResultSet> actual;
    std::set<std::string> actualNames;
    try {
      loadGraphs(dir, data);
      gsparql::Database::update(dir, text);
      gsparql::Database db(dir);
      actual.push_back(toResultSet(db.query("CONSTRUCT WHERE { ?s ?p ?o }", {gsparql::Backend::Cpu})));
      for (const auto& g : expectedGraphs) {
        actual.push_back(toResultSet(
            db.query("CONSTRUCT { ?s ?p ?o } WHERE { GRAPH " + g.graph + " { ?s ?p ?o } }", {gsparql::Backend::Cpu})));
      }
      db.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { } }", {gsparql::Backend::Cpu})
          .forEachRow([&](std::span<const gsparql::Term> row) { actualNames.insert(std::string(*row[0])); });
    } catch (const gsparql::QueryError& e) {
      const std::string msg = e.what();
      if (msg.find("not supported yet") != std::string::npos)
        return finish(Outcome::Unsupported, msg.substr(0, msg.find(" at ")));
      return finish(Outcome::Fail, "update error: " + firstLine(msg));
    } catch (const std::exception& e) {
      return finish(Outcome::Fail, std::string("error: ") + firstLine(e.what()));
    }
    std::vector<ResultSet> expected(1);
    expected[0].isGraph = true;  // no ut:data: the default graph is empty
    std::set<std::string> expectedNames;
    try {
      if (postIsDataset) {
        expected[0] = expectedDataset.at("");
      } else if (post) {
        expected[0] = readResultFile(pathOfIri(*post), scratch_);
      }
      for (const auto& g : expectedGraphs) {
        expected.push_back(g.file.empty() ? expectedDataset.at(g.graph) : readResultFile(g.file, scratch_));
        if (!expected.back().triples.empty()) expectedNames.insert(g.graph);
      }
    } catch (const std::exception& e) {
      return finish(Outcome::Fail, std::string("runner: cannot read the expected graph: ") + e.what());
    }
    for (size_t i = 0; i < expected.size(); ++i) {
      if (auto diff = compareResults(expected[i], actual[i], {})) {
        return finish(
            Outcome::Fail,
            (i == 0 ? std::string("default graph: ") : "graph " + expectedGraphs[i - 1].graph + ": ") + *diff);
      }
    }
    if (actualNames != expectedNames) return finish(Outcome::Fail, "the named graphs differ from those expected");
    return finish(Outcome::Pass, "");
  }

  // No files: one empty file, as a database is made by loading.
  std::vector<std::string> withEmptyFile(std::vector<std::string> files) {
    if (!files.empty()) return files;
    const fs::path empty = scratch_ / "empty.nt";
    std::ofstream(empty).close();
    return {empty.string()};
  }

  // One database per distinct set of data files, reused across tests: the
  // default graph's files first, then each named graph's. RDF/XML files are
  // loaded through their N-Triples conversion.
  fs::path database(const std::vector<GraphFile>& files) {
    std::string key;
    for (const auto& f : files) key += f.file.string() + " " + f.graph + "\n";
    auto it = databases_.find(key);
    if (it != databases_.end()) return it->second;
    std::string name = "db" + std::to_string(databases_.size());
    fs::path dir = scratch_ / name;
    loadGraphs(dir, files);
    databases_[key] = dir;
    return dir;
  }

  void loadGraphs(const fs::path& dir, const std::vector<GraphFile>& files) {
    std::vector<std::string> defaultGraph;
    for (const auto& f : files) {
      if (f.graph.empty()) defaultGraph.push_back(loadable(f.file, dir.filename()).string());
    }
    gsparql::Database::load(dir, withEmptyFile(defaultGraph));
    for (const auto& f : files) {
      if (f.graph.empty()) continue;
      gsparql::LoadOptions options;
      options.graph = f.graph;
      gsparql::Database::load(dir, {loadable(f.file, dir.filename()).string()}, options);
    }
  }

  fs::path loadable(const fs::path& file, const fs::path& database) {
    if (file.extension() != ".rdf") return file;
    fs::path nt = scratch_ / (database.string() + "-" + std::to_string(++converted_) + ".nt");
    convertRdfXml(file, nt);
    return nt;
  }

  fs::path scratch_;
  std::map<std::string, fs::path> databases_;
  int updateTests_ = 0;
  int converted_ = 0;
};

const char* outcomeName(Outcome o) {
  switch (o) {
    case Outcome::Pass:
      return "pass";
    case Outcome::Fail:
      return "FAIL";
    case Outcome::Unsupported:
      return "unsupported";
    case Outcome::Skipped:
      return "skipped";
  }
  return "?";
}

std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path root = GSPARQL_DEFAULT_W3C_DIR;
  bool verbose = false;
  std::string only;
  // SPARQL 1.2's tests are reported apart (--sparql12), beside 1.0 and 1.1's.
  std::vector<std::string> suites = {"sparql10", "sparql11"};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--verbose")
      verbose = true;
    else if (a == "--only" && i + 1 < argc)
      only = argv[++i];
    else if (a == "--sparql12")
      suites = {"sparql12"};
    else if (a == "--help" || a == "-h") {
      std::cout << "usage: gsparql-eval-conformance [--verbose] [--only "
                   "SUBSTRING] [--sparql12] [W3C_DIR]\n";
      return 0;
    } else
      root = a;
  }
  root = fs::absolute(root).lexically_normal();

  std::vector<std::string> folders;
  for (const std::string& suite : suites) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(root / suite))
      if (entry.is_directory() && fs::exists(entry.path() / "manifest.ttl"))
        names.push_back(suite + "/" + entry.path().filename().string());
    std::sort(names.begin(), names.end());
    folders.insert(folders.end(), names.begin(), names.end());
  }

  fs::path scratch = fs::temp_directory_path() / ("gsparql-eval-conformance-" + std::to_string(getpid()));
  std::vector<TestResult> results;
  int syntaxTests = 0;
  {
    Runner runner(scratch);
    for (const auto& folder : folders) {
      RdfGraph manifest;
      try {
        manifest = RdfGraph::read(root / folder / "manifest.ttl");
      } catch (const std::exception& e) {
        std::cerr << "cannot read the manifest of " << folder << ": " << e.what() << "\n";
        return 2;
      }
      for (const auto& test : manifestTests(manifest)) {
        if (isSyntaxTest(test.type)) {
          ++syntaxTests;
          continue;
        }
        if (!only.empty() && (folder + "/" + test.name).find(only) == std::string::npos) continue;
        TestResult r = runner.run(manifest, test, folder);
        if (verbose)
          std::cerr << outcomeName(r.outcome) << "  " << folder << "/" << r.name
                    << (r.reason.empty() ? "" : "  — " + r.reason) << "\n";
        results.push_back(std::move(r));
      }
    }
  }

  // ---- the report ----
  struct Counts {
    int n[4] = {0, 0, 0, 0};
    int total() const { return n[0] + n[1] + n[2] + n[3]; }
  };
  std::map<std::string, Counts> perFolder;
  std::map<std::string, int> unsupported, skipped;
  Counts all, perNeeds[3];
  for (const auto& r : results) {
    int k = static_cast<int>(r.outcome);
    ++perFolder[r.folder].n[k];
    ++all.n[k];
    ++perNeeds[static_cast<int>(r.needs)].n[k];
    if (r.outcome == Outcome::Unsupported) ++unsupported[r.reason];
    if (r.outcome == Outcome::Skipped) ++skipped[r.reason];
  }
  auto& out = std::cout;
  std::string suiteList;
  for (const std::string& suite : suites) suiteList += (suiteList.empty() ? "`" : " and `") + suite + "/*/manifest.ttl`";
  out << "# W3C SPARQL " << (suites.size() == 1 ? "1.2 " : "") << "query and update evaluation conformance\n\n"
      << "Generated on " << today()
      << " by `gsparql-eval-conformance` "
         "(tests/conformance/eval_runner.cpp):\n\n"
      << "```\ncmake --preset default && cmake --build --preset default -j2\n"
      << "build/default/tests/conformance/gsparql-eval-conformance "
      << (suites.size() == 1 ? "--sparql12 > docs/conformance-evaluation-sparql12.md" : "> docs/conformance-evaluation.md")
      << "\n```\n\n"
      << "It reads every " << suiteList << " of `../shared/conformance/w3c-sparql/`,\n"
      << "loads each `mf:QueryEvaluationTest`'s `qt:data` into a fresh "
         "database (one per distinct set of data files;\n"
      << "each file of `qt:graphData`, and each file a FROM or FROM NAMED of "
         "the query names, as a named graph\n"
      << "named by the file's URI, with `LoadOptions::graph`;\n"
      << "RDF/XML `.rdf` data first converted to N-Triples in a temporary "
         "directory by `rapper -i rdfxml -o ntriples`,\n"
      << "from Debian's raptor2-utils, with the file's URI as base IRI as the "
         "loader uses for Turtle),\n"
      << "runs `qt:query` on the CPU backend with SPARQL (homomorphism) "
         "semantics, the query's base IRI being its\n"
      << "file's URI as for the data (`BASE <file:///...>` put before the "
         "query text), and compares with `mf:result`:\n"
      << "`.srx`, `.srj`, `.tsv`, a result set in the `rs:` vocabulary as "
         "Turtle `.ttl` or RDF/XML `.rdf` (the\n"
      << "latter read by a small reader for the shape those files have), or, "
         "for CONSTRUCT and DESCRIBE, an RDF\n"
      << "graph as Turtle `.ttl`, N-Triples `.nt` or RDF/XML `.rdf` (any "
         "`.ttl` without an `rs:ResultSet` is a graph;\n"
      << "RDF/XML graphs are read through `rapper` as the data):\n\n"
      << "- solutions as a bag; where the query has ORDER BY, also the order "
         "of the leading ORDER BY keys that are\n"
      << "  plain projected variables (ties may come in any order; blank nodes "
         "compare equal there);\n"
      << "- blank nodes equal up to one consistent bijection between the two "
         "results (backtracking search);\n"
      << "- literals exactly as terms: lexical form, datatype, language tag; "
         "`\"x\"^^xsd:string` is `\"x\"`;\n"
      << "  language tags are compared case-insensitively (lower-cased, as BCP "
         "47 tags are case-insensitive);\n"
      << "- `mf:LaxCardinality` (REDUCED): the same distinct solutions, each "
         "at most as often as expected;\n"
      << "- ASK: the boolean;\n"
      << "- graphs (CONSTRUCT, DESCRIBE): as sets of triples (a triple the "
         "engine gives twice counts once), equal\n"
      << "  when one bijection of blank nodes maps the one onto the other "
         "(graph isomorphism, by the same\n"
      << "  backtracking search as for solutions); terms compare as in "
         "solutions;\n"
      << "- TSV only: a bare Turtle double (`1.0e6`) matches an `xsd:double` "
         "whose lexical form differs only in\n"
      << "  the case of the exponent marker (`\"1.0E6\"`), as TSV writers do "
         "not keep it (test `tsv03`).\n\n"
      << "Each `mf:UpdateEvaluationTest` loads its `ut:data` and "
         "`ut:graphData` (each a named graph named by its\n"
      << "`rdfs:label`) into a fresh database, runs `ut:request` with "
         "`Database::update` (base IRI the request\n"
      << "file's URI, as for queries), and compares the default graph "
         "(`CONSTRUCT WHERE { ?s ?p ?o }`) with the\n"
      << "result's `ut:data` (none: empty) and each named graph of the "
         "result's `ut:graphData` with its file, as\n"
      << "graphs, as above; the names of the non-empty named graphs must be "
         "those of the result's non-empty\n"
      << "`ut:graphData` (the store keeps no empty graphs). Tests with "
         "`ut:graphData`, and requests that name a\n"
      << "graph, need named graphs.\n\n"
      << "Unsupported: the engine answered `<feature> ... is not supported "
         "yet` (the first feature it met),\n"
      << "or RDF/XML while `rapper` is not installed.\n"
      << "Skipped: not an evaluation test (protocol, service description, "
         "CSV), or needs an entailment regime.\n"
      << "Tests with `mf:requires` (optional features) are run like the others.\n\n"
      << "SERVICE: each endpoint of `qt:serviceData` is a gsparql server in the "
         "runner's process holding the\n"
      << "endpoint's `qt:data`, reached by the endpoint's IRI "
         "(`ServiceAccess::connectTo`); any other endpoint\n"
      << "is a closed local port, so that `SERVICE SILENT <http://invalid.endpoint.org/sparql>` "
         "fails without\n"
      << "a network.\n\n"
      << "The counts set apart the query\n"
      << "evaluation tests that need named graphs (`qt:graphData`, or FROM, "
         "FROM NAMED or GRAPH in the query,\n"
      << "EXISTS patterns included) and those that need SERVICE "
         "(`qt:serviceData`, or SERVICE in the query; a test\n"
      << "that needs both counts as needing SERVICE). The pass rate is over "
         "the tests that need neither and are\n"
      << "not skipped. Tests skipped by type (protocol, ...) are not looked "
         "into and count as needing neither.\n\n"
      << syntaxTests
      << " syntax tests in these manifests are run by "
         "`gsparql-syntax-conformance` "
      << "(docs/conformance-syntax.md), not here.\n\n";
  auto row = [&](const std::string& label, const Counts& c) {
    out << "| " << label << " | " << c.total() << " | " << c.n[0] << " | " << c.n[1] << " | " << c.n[2] << " | "
        << c.n[3] << " |\n";
  };
  const Counts& neither = perNeeds[static_cast<int>(Needs::Neither)];
  const int evaluated = neither.total() - neither.n[static_cast<int>(Outcome::Skipped)];
  const int passed = neither.n[static_cast<int>(Outcome::Pass)];
  char percent[16];
  std::snprintf(percent, sizeof percent, "%.1f", evaluated ? 100.0 * passed / evaluated : 0.0);
  out << "## Counts\n\n| tests that | tests | pass | fail | unsupported | "
         "skipped |\n|---|---|---|---|---|---|\n";
  row("all", all);
  row("need named graphs", perNeeds[static_cast<int>(Needs::NamedGraphs)]);
  row("need SERVICE", perNeeds[static_cast<int>(Needs::Service)]);
  row("need neither", neither);
  out << "\npass rate without named graphs and SERVICE: " << passed << " of " << evaluated << " (" << percent << "%)\n";
  const Counts& named = perNeeds[static_cast<int>(Needs::NamedGraphs)];
  const int namedPassed = named.n[static_cast<int>(Outcome::Pass)];
  std::snprintf(percent, sizeof percent, "%.1f", named.total() ? 100.0 * namedPassed / named.total() : 0.0);
  out << "pass rate of the tests that need named graphs: " << namedPassed << " of " << named.total() << " (" << percent
      << "%)\n\n";
  out << "## Per folder\n\n| folder | tests | pass | fail | unsupported | "
         "skipped |\n|---|---|---|---|---|---|\n";
  for (const auto& [folder, c] : perFolder) row(folder, c);
  auto byCount = [](const std::map<std::string, int>& m) {
    std::vector<std::pair<std::string, int>> v(m.begin(), m.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return v;
  };
  out << "\n## Unsupported, per feature\n\n| feature | tests |\n|---|---|\n";
  for (const auto& [f, n] : byCount(unsupported)) out << "| " << oneLine(f) << " | " << n << " |\n";
  out << "\n## Skipped, per reason\n\n| reason | tests |\n|---|---|\n";
  for (const auto& [f, n] : byCount(skipped)) out << "| " << oneLine(f) << " | " << n << " |\n";
  out << "\n## Failures\n\n";
  if (all.n[1] == 0)
    out << "None.\n";
  else
    out << "A test fails when the engine answered with other results than "
           "expected, or rejected a valid query\n"
        << "with a syntax error, or could not load the data: these tests use "
           "only supported features. "
        << "\n";
  for (const auto& r : results)
    if (r.outcome == Outcome::Fail)
      out << "- " << r.folder << "/" << r.name << (r.title.empty() ? "" : " (\"" + oneLine(r.title, 80) + "\")")
          << " — " << oneLine(r.reason, 600) << "\n";
  out << "\n## Passing tests\n\n";
  for (const auto& [folder, c] : perFolder) {
    if (c.n[0] == 0) continue;
    out << "- " << folder << ":";
    for (const auto& r : results)
      if (r.folder == folder && r.outcome == Outcome::Pass) out << " " << r.name;
    out << "\n";
  }
  return all.n[1] == 0 ? 0 : 1;
}
