// Runs the W3C SPARQL query evaluation tests (mf:QueryEvaluationTest) of
// every sparql10/*/manifest.ttl and sparql11/*/manifest.ttl against the CPU
// backend, and prints a Markdown report (docs/conformance-evaluation.md).
//   gsparql-eval-conformance [--verbose] [--only SUBSTRING] [W3C_DIR]
// Exit code 0 when no test fails (unsupported and skipped tests do not fail).
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "gsparql/error.h"
#include "loaders/rdf_reader.h"
#include "manifest.h"
#include "parser/parse.h"
#include "results.h"
#include "support/files.h"

namespace {

namespace fs = std::filesystem;
using namespace gsparql::conformance;

enum class Outcome { Pass, Fail, Unsupported, Skipped };

struct TestResult {
  std::string folder, name, title;
  Outcome outcome = Outcome::Skipped;
  std::string reason;  // fail: the difference; unsupported: the feature; skipped: why
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
  if (type == "QueryEvaluationTest") return "";
  if (type == "UpdateEvaluationTest") return "SPARQL Update evaluation test";
  if (type == "ProtocolTest") return "SPARQL protocol test";
  if (type == "GraphStoreProtocolTest") return "graph store protocol test";
  if (type == "ServiceDescriptionTest") return "service description test";
  if (type == "CSVResultFormatTest") return "CSV result format test (lossy format)";
  return "mf:" + type;
}

bool isSyntaxTest(const std::string& type) { return type.find("SyntaxTest") != std::string::npos; }

// The ORDER BY keys that the result order can be checked on: the leading
// plain-variable keys that the query projects.
std::vector<std::string> orderKeys(const std::string& queryText) {
  using gsparql::sparql::Op;
  gsparql::sparql::Query q = gsparql::sparql::parseQuery(queryText);
  const Op* op = q.pattern.get();
  std::set<std::string> projected;
  bool projectAll = true;
  while (op) {
    if (op->kind == Op::Kind::Project) {
      projectAll = false;
      projected.insert(op->vars.begin(), op->vars.end());
    } else if (op->kind == Op::Kind::OrderBy) {
      std::vector<std::string> keys;
      for (const auto& key : op->order) {
        if (key.expr.kind != gsparql::sparql::Expr::Kind::Term ||
            key.expr.term.kind != gsparql::sparql::Term::Kind::Variable)
          break;
        if (!projectAll && !projected.count(key.expr.term.value)) break;
        keys.push_back(key.expr.term.value);
      }
      return keys;
    } else if (op->kind != Op::Kind::Slice && op->kind != Op::Kind::Distinct && op->kind != Op::Kind::Reduced) {
      return {};
    }
    op = op->children.empty() ? nullptr : op->children[0].get();
  }
  return {};
}

ResultSet toResultSet(const gsparql::QueryResult& r) {
  ResultSet out;
  out.isBoolean = r.isBoolean();
  if (out.isBoolean) {
    out.boolean = r.booleanValue();
    return out;
  }
  out.variables = r.variables();
  for (const auto& row : r.rows()) {
    Solution s;
    for (size_t i = 0; i < row.size() && i < out.variables.size(); ++i)
      if (row[i]) s[out.variables[i]] = canonicalTerm(*row[i]);
    out.solutions.push_back(std::move(s));
  }
  return out;
}

class Runner {
 public:
  explicit Runner(fs::path scratch) : scratch_(std::move(scratch)) {}
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
    auto action = manifest.object(test.subject, iriTerm(kMf + "action"));
    auto queryIri = action ? manifest.object(*action, iriTerm(kQt + "query")) : std::nullopt;
    if (!queryIri) return skip(Outcome::Fail, "runner: no qt:query in the manifest");
    if (!manifest.objects(*action, iriTerm(kQt + "serviceData")).empty())
      return skip(Outcome::Skipped, "SERVICE with qt:serviceData (federated query over remote endpoints)");
    if (manifest.object(*action, iriTerm(kSd + "entailmentRegime")) ||
        manifest.object(test.subject, iriTerm(kSd + "entailmentRegime")))
      return skip(Outcome::Skipped, "entailment regime other than simple entailment");
    if (!manifest.objects(*action, iriTerm(kQt + "graphData")).empty())
      return skip(Outcome::Unsupported, "named graphs (qt:graphData)");
    std::vector<std::string> data;
    for (const auto& d : manifest.objects(*action, iriTerm(kQt + "data"))) {
      fs::path p = pathOfIri(d);
      if (!gsparql::rdfFormatFromName(p.filename().string()))
        return skip(Outcome::Unsupported, p.extension() == ".rdf" ? "RDF/XML data" : "data format " + p.extension().string());
      data.push_back(p.string());
    }
    auto resultIri = manifest.object(test.subject, iriTerm(kMf + "result"));
    if (!resultIri) return skip(Outcome::Fail, "runner: no mf:result in the manifest");

    fs::path queryFile = pathOfIri(*queryIri);
    std::string queryText;
    try {
      // The query's base IRI is its file's URI, as for the data files; a
      // BASE in the query itself resolves against it and so still wins.
      queryText = "BASE <" + fileUri(queryFile) + "> " + gsparql::test::readText(queryFile);
    } catch (const std::exception& e) {
      return skip(Outcome::Fail, std::string("runner: ") + e.what());
    }

    ResultSet actual;
    try {
      gsparql::Database db(database(data));
      auto result = db.query(queryText, {gsparql::Backend::Cpu, gsparql::Semantics::Homomorphism});
      actual = toResultSet(result);
    } catch (const gsparql::QueryError& e) {
      std::string msg = e.what();
      auto at = msg.find(" at ");
      if (msg.find("not supported yet") != std::string::npos && at != std::string::npos)
        return skip(Outcome::Unsupported, msg.substr(0, at));
      return skip(Outcome::Fail, "query error: " + firstLine(msg));
    } catch (const gsparql::LoadError& e) {
      return skip(Outcome::Fail, "data load error: " + firstLine(e.what()));
    } catch (const std::exception& e) {
      return skip(Outcome::Fail, std::string("error: ") + firstLine(e.what()));
    }

    ResultSet expected;
    try {
      expected = readResultFile(pathOfIri(*resultIri));
    } catch (const UnsupportedFormat& e) {
      return skip(Outcome::Unsupported, std::string("expected results as ") + e.what());
    } catch (const std::exception& e) {
      return skip(Outcome::Fail, std::string("runner: cannot read expected results: ") + e.what());
    }

    CompareOptions options;
    options.laxCardinality =
        manifest.object(test.subject, iriTerm(kMf + "resultCardinality")) == iriTerm(kMf + "LaxCardinality");
    try {
      options.orderKeys = orderKeys(queryText);
    } catch (const std::exception&) {
      // The engine accepted it, so this cannot happen; compare as a bag.
    }
    if (auto diff = compareResults(expected, actual, options)) return skip(Outcome::Fail, *diff);
    r.outcome = Outcome::Pass;
    return r;
  }

 private:
  // One database per distinct set of data files, reused across tests.
  fs::path database(const std::vector<std::string>& files) {
    std::string key;
    for (const auto& f : files) key += f + "\n";
    auto it = databases_.find(key);
    if (it != databases_.end()) return it->second;
    fs::path dir = scratch_ / ("db" + std::to_string(databases_.size()));
    if (files.empty()) {
      fs::path empty = scratch_ / "empty.nt";
      std::ofstream(empty).close();
      gsparql::Database::load(dir, {empty.string()});
    } else {
      gsparql::Database::load(dir, files);
    }
    databases_[key] = dir;
    return dir;
  }

  fs::path scratch_;
  std::map<std::string, fs::path> databases_;
};

const char* outcomeName(Outcome o) {
  switch (o) {
    case Outcome::Pass: return "pass";
    case Outcome::Fail: return "FAIL";
    case Outcome::Unsupported: return "unsupported";
    case Outcome::Skipped: return "skipped";
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
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--verbose") verbose = true;
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else if (a == "--help" || a == "-h") {
      std::cout << "usage: gsparql-eval-conformance [--verbose] [--only SUBSTRING] [W3C_DIR]\n";
      return 0;
    } else root = a;
  }
  root = fs::absolute(root).lexically_normal();

  std::vector<std::string> folders;
  for (const char* suite : {"sparql10", "sparql11"}) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(root / suite))
      if (entry.is_directory() && fs::exists(entry.path() / "manifest.ttl"))
        names.push_back(std::string(suite) + "/" + entry.path().filename().string());
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
  Counts all;
  for (const auto& r : results) {
    int k = static_cast<int>(r.outcome);
    ++perFolder[r.folder].n[k];
    ++all.n[k];
    if (r.outcome == Outcome::Unsupported) ++unsupported[r.reason];
    if (r.outcome == Outcome::Skipped) ++skipped[r.reason];
  }
  auto& out = std::cout;
  out << "# W3C SPARQL query evaluation conformance\n\n"
      << "Generated on " << today() << " by `gsparql-eval-conformance` (tests/conformance/eval_runner.cpp):\n\n"
      << "```\ncmake --preset default && cmake --build --preset default -j2\n"
      << "build/default/tests/conformance/gsparql-eval-conformance > docs/conformance-evaluation.md\n```\n\n"
      << "It reads every `sparql10/*/manifest.ttl` and `sparql11/*/manifest.ttl` of `../shared/conformance/w3c-sparql/`,\n"
      << "loads each `mf:QueryEvaluationTest`'s `qt:data` into a fresh database (one per distinct set of data files),\n"
      << "runs `qt:query` on the CPU backend with SPARQL (homomorphism) semantics, the query's base IRI being its\n"
      << "file's URI as for the data (`BASE <file:///...>` put before the query text), and compares with `mf:result`\n"
      << "(`.srx`, `.srj`, `.tsv`, or a result set in the `rs:` vocabulary as Turtle `.ttl` or RDF/XML `.rdf`, the\n"
      << "latter read by a small reader for the shape those files have):\n\n"
      << "- solutions as a bag; where the query has ORDER BY, also the order of the leading ORDER BY keys that are\n"
      << "  plain projected variables (ties may come in any order; blank nodes compare equal there);\n"
      << "- blank nodes equal up to one consistent bijection between the two results (backtracking search);\n"
      << "- literals exactly as terms: lexical form, datatype, language tag; `\"x\"^^xsd:string` is `\"x\"`;\n"
      << "  language tags are compared case-insensitively (lower-cased, as BCP 47 tags are case-insensitive);\n"
      << "- `mf:LaxCardinality` (REDUCED): the same distinct solutions, each at most as often as expected;\n"
      << "- ASK: the boolean;\n"
      << "- TSV only: a bare Turtle double (`1.0e6`) matches an `xsd:double` whose lexical form differs only in\n"
      << "  the case of the exponent marker (`\"1.0E6\"`), as TSV writers do not keep it (test `tsv03`).\n\n"
      << "Unsupported: the engine answered `<feature> at L:C is not supported yet` (the first feature it met),\n"
      << "or the test needs named graphs (`qt:graphData`) or RDF/XML. Skipped: not a query evaluation test\n"
      << "(Update, protocol, service description, CSV), or needs SERVICE endpoints or an entailment regime.\n"
      << "Tests with `mf:requires` (optional features) are run like the others.\n"
      << syntaxTests << " syntax tests in these manifests are run by `gsparql-syntax-conformance` "
      << "(docs/conformance-syntax.md), not here.\n\n";
  out << "## Counts\n\n| tests | pass | fail | unsupported | skipped |\n|---|---|---|---|---|\n"
      << "| " << all.total() << " | " << all.n[0] << " | " << all.n[1] << " | " << all.n[2] << " | " << all.n[3]
      << " |\n\n";
  out << "## Per folder\n\n| folder | tests | pass | fail | unsupported | skipped |\n|---|---|---|---|---|---|\n";
  for (const auto& [folder, c] : perFolder)
    out << "| " << folder << " | " << c.total() << " | " << c.n[0] << " | " << c.n[1] << " | " << c.n[2] << " | "
        << c.n[3] << " |\n";
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
  if (all.n[1] == 0) out << "None.\n";
  else
    out << "A test fails when the engine answered with other results than expected, or rejected a valid query\n"
        << "with a syntax error, or could not load the data: these tests use only supported features. "
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
