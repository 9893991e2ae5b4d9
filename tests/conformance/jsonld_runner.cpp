// gsparql-jsonld-conformance: the W3C JSON-LD 1.1 API tests for toRdf,
// fromRdf and expand (../shared/conformance/json-ld/tests/) through
// rdf/jsonld/ (the algorithms the loader and the JSON-LD writer use).
// toRdf: the statements must be isomorphic to the expected N-Quads (blank
// nodes matched by a search; language tags compared in lower case); fromRdf
// and expand: the expanded JSON-LD must equal the expected, arrays compared
// as multisets except an @list's; negative tests must fail with the
// expected error code. Remote
// documents (remote contexts, @import, expandContext) are read from the
// test folder: a local document loader maps the suite's base URL
// (https://w3c.github.io/json-ld-api/tests/) onto it, nothing is fetched.
// Tests of JSON-LD 1.0 only (specVersion json-ld-1.0) and of generalized
// RDF (requires GeneralizedRdf) are skipped. Prints a
// Markdown report (docs/conformance-jsonld.md); exits 0 when no test fails,
// 1 otherwise, 77 when the tests are not there:
//
//   build/default/tests/conformance/gsparql-jsonld-conformance [TESTS_DIR] > docs/conformance-jsonld.md
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "gsparql/error.h"
#include "isomorphism.h"
#include "loaders/input_stream.h"
#include "loaders/rdf_reader.h"
#include "rdf/jsonld/document.h"
#include "rdf/jsonld/expansion.h"
#include "rdf/jsonld/from_rdf.h"
#include "rdf/jsonld/to_rdf.h"
#include "results.h"

namespace fs = std::filesystem;
using namespace gsparql;
using namespace gsparql::conformance;
using jsonld::Json;

namespace {

constexpr int kSkipped = 77;
const std::string kSuiteBase = "https://w3c.github.io/json-ld-api/tests/";

enum class Result { Pass, Fail, Skip };
enum class Algorithm { ToRdf, FromRdf, Expand };

struct Outcome {
  std::string id, name;
  Result result = Result::Fail;
  std::string detail;
};

Json readJson(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return jsonld::parseJson(text.str());
}

std::string firstLine(std::string text) {
  if (const size_t newline = text.find('\n'); newline != std::string::npos) text.resize(newline);
  if (text.size() > 300) text = text.substr(0, 297) + "...";
  return text;
}

std::string cell(std::string text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : (c == '\n' || c == '\r') ? std::string(" ") : std::string(1, c);
  return out;
}

std::vector<Quad> readNQuads(const fs::path& file) {
  std::vector<Quad> quads;
  auto input = openInput(file.string());
  readRdf(*input, file.filename().string(), RdfFormat::NQuads, [&](const RdfStatementView& s) {
    quads.push_back({canonicalTerm(s.subject), canonicalTerm(s.predicate), canonicalTerm(s.object),
                     s.graph.empty() ? std::string() : canonicalTerm(s.graph)});
  });
  std::sort(quads.begin(), quads.end());
  quads.erase(std::unique(quads.begin(), quads.end()), quads.end());
  return quads;
}

// JSON equality with arrays as multisets, but an @list's in order.
bool sameJson(const Json& a, const Json& b, bool ordered = false) {
  if (a.type() != b.type()) {
    return a.is_number() && b.is_number() && a.get<double>() == b.get<double>();
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (const auto& [key, value] : a.items()) {
      if (!b.contains(key) || !sameJson(value, b[key], key == "@list")) return false;
    }
    return true;
  }
  if (!a.is_array()) return a == b;
  if (a.size() != b.size()) return false;
  if (ordered) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (!sameJson(a[i], b[i])) return false;
    }
    return true;
  }
  std::vector<bool> used(b.size(), false);
  for (const Json& item : a) {
    bool found = false;
    for (size_t i = 0; i < b.size() && !found; ++i) {
      if (!used[i] && sameJson(item, b[i])) used[i] = found = true;
    }
    if (!found) return false;
  }
  return true;
}

class Runner {
 public:
  explicit Runner(const fs::path& root) : root_(root) { loader_.map(kSuiteBase, root.string()); }

  Outcome run(const Json& test, Algorithm algorithm) {
    Outcome outcome{test.value("@id", ""), test.value("name", ""), Result::Fail, ""};
    const Json option = test.value("option", Json::object());
    if (option.value("specVersion", "") == "json-ld-1.0") {
      outcome.result = Result::Skip;
      outcome.detail = "JSON-LD 1.0 only (specVersion json-ld-1.0)";
      return outcome;
    }
    if (test.value("requires", "") == "GeneralizedRdf") {
      outcome.result = Result::Skip;
      outcome.detail = "generalized RDF (a blank node as predicate), which RDF 1.1 and gsparql's store do not hold";
      return outcome;
    }
    jsonld::Options options;
    options.base = option.value("base", kSuiteBase + test.value("input", ""));
    options.processingMode10 = option.value("processingMode", "") == "json-ld-1.0";
    options.documentLoader = loader_.asLoader();
    options.produceGeneralizedRdf = option.value("produceGeneralizedRdf", false);
    if (option.contains("rdfDirection")) options.rdfDirection = option["rdfDirection"].get<std::string>();
    options.useNativeTypes = option.value("useNativeTypes", false);
    options.useRdfType = option.value("useRdfType", false);
    if (option.contains("expandContext")) {
      options.expandContext = readJson(root_ / option["expandContext"].get<std::string>());
    }
    const std::string expectedError = test.value("expectErrorCode", "");
    const bool positive = expectedError.empty();
    try {
      const fs::path input = root_ / test.value("input", "");
      if (algorithm == Algorithm::ToRdf) {
        runToRdf(test, input, options, outcome);
      } else if (algorithm == Algorithm::FromRdf) {
        runFromRdf(test, input, options, outcome);
      } else {
        runExpand(test, input, options, outcome);
      }
      if (!positive) outcome = {outcome.id, outcome.name, Result::Fail, "no error; expected '" + expectedError + "'"};
    } catch (const jsonld::JsonLdError& e) {
      outcome.result = e.code() == expectedError ? Result::Pass : Result::Fail;
      outcome.detail = (positive ? "error: " : e.code() == expectedError ? "refused: " : "a different error: ") +
                       firstLine(e.what()) + (positive || e.code() == expectedError ? "" : " (expected '" + expectedError + "')");
    } catch (const std::exception& e) {
      outcome.result = Result::Fail;
      outcome.detail = "error: " + firstLine(e.what());
    }
    return outcome;
  }

 private:
  void runToRdf(const Json& test, const fs::path& input, const jsonld::Options& options, Outcome& outcome) {
    std::vector<Quad> actual;
    jsonld::RdfSink sink;
    sink.statement = [&](const jsonld::Statement& s) {
      actual.push_back({canonicalTerm(s.subject), canonicalTerm(s.predicate), canonicalTerm(s.object),
                        s.graph.empty() ? std::string() : canonicalTerm(s.graph)});
    };
    jsonld::toRdf(jsonld::expand(readJson(input), options), options, sink);
    std::sort(actual.begin(), actual.end());
    actual.erase(std::unique(actual.begin(), actual.end()), actual.end());
    if (!test.contains("expect")) {
      outcome.result = Result::Pass;
      return;
    }
    const std::vector<Quad> expected = readNQuads(root_ / test["expect"].get<std::string>());
    if (auto difference = datasetDifference(expected, actual)) {
      outcome.detail = "a different dataset: " + *difference;
      return;
    }
    outcome.result = Result::Pass;
  }

  void runExpand(const Json& test, const fs::path& input, const jsonld::Options& options, Outcome& outcome) {
    const Json actual = jsonld::expand(readJson(input), options);
    if (!test.contains("expect")) {
      outcome.result = Result::Pass;
      return;
    }
    const Json expected = readJson(root_ / test["expect"].get<std::string>());
    if (!sameJson(expected, actual)) {
      outcome.detail = "different expanded JSON-LD: " + firstLine(actual.dump());
      return;
    }
    outcome.result = Result::Pass;
  }

  void runFromRdf(const Json& test, const fs::path& input, const jsonld::Options& options, Outcome& outcome) {
    std::vector<jsonld::Quad> dataset;
    auto stream = openInput(input.string());
    readRdf(*stream, input.filename().string(), RdfFormat::NQuads, [&](const RdfStatementView& s) {
      dataset.push_back({std::string(s.subject), std::string(s.predicate), std::string(s.object), std::string(s.graph)});
    });
    const Json actual = jsonld::fromRdf(dataset, options);
    if (!test.contains("expect")) {
      outcome.result = Result::Pass;
      return;
    }
    const Json expected = readJson(root_ / test["expect"].get<std::string>());
    if (!sameJson(expected, actual)) {
      outcome.detail = "different JSON-LD: " + firstLine(actual.dump());
      return;
    }
    outcome.result = Result::Pass;
  }

  fs::path root_;
  jsonld::LocalDocumentLoader loader_;
};

struct Suite {
  std::string manifest, title;
  Algorithm algorithm;
  std::vector<Outcome> outcomes;
};

size_t countOf(const std::vector<Outcome>& outcomes, Result result) {
  return static_cast<size_t>(std::count_if(outcomes.begin(), outcomes.end(), [&](const Outcome& o) { return o.result == result; }));
}

const char* word(Result result) {
  return result == Result::Pass ? "pass" : result == Result::Skip ? "skipped" : "**fail**";
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path root = argc > 1 ? fs::path(argv[1]) : fs::path(GSPARQL_DEFAULT_JSONLD_DIR);
  if (!fs::exists(root / "toRdf-manifest.jsonld")) {
    std::cerr << "gsparql-jsonld-conformance: no JSON-LD tests in " << root << "\n";
    return kSkipped;
  }
  std::vector<Suite> suites = {{"toRdf-manifest.jsonld", "toRdf", Algorithm::ToRdf, {}},
                               {"fromRdf-manifest.jsonld", "fromRdf", Algorithm::FromRdf, {}},
                               {"expand-manifest.jsonld", "expand", Algorithm::Expand, {}}};
  Runner runner(root);
  size_t failures = 0;
  for (Suite& suite : suites) {
    const Json manifest = readJson(root / suite.manifest);
    for (const Json& test : manifest["sequence"]) {
      Outcome outcome = runner.run(test, suite.algorithm);
      if (outcome.result == Result::Fail) ++failures;
      suite.outcomes.push_back(std::move(outcome));
    }
  }
  std::cout << "# W3C JSON-LD 1.1 API tests: toRdf, fromRdf and expand\n\n"
               "The toRdf, fromRdf and expand manifests of the JSON-LD 1.1 API test suite\n"
               "(`../shared/conformance/json-ld/tests/`), run through `rdf/jsonld/` (the algorithms the\n"
               "loader and the JSON-LD writer use). toRdf tests pass when the statements are isomorphic to\n"
               "the expected N-Quads (blank nodes matched by a search; language tags compared in lower\n"
               "case); statements the algorithm drops (relative IRIs, malformed language tags) are dropped\n"
               "as `gsparql load --lenient` drops them. fromRdf and expand tests pass when the expanded JSON-LD equals\n"
               "the expected, arrays compared as multisets except an `@list`'s. Negative tests pass when\n"
               "the expected error code is raised. Remote documents come from the test folder (the suite's\n"
               "base URL mapped onto it by a local document loader); nothing is fetched. Tests of JSON-LD\n"
               "1.0 only (`specVersion` json-ld-1.0) and of generalized RDF (`requires` GeneralizedRdf: a\n"
               "blank node as predicate, which RDF 1.1 and the store do not hold) are skipped. Each test's\n"
               "options are honoured (`base`, `expandContext`, `processingMode`, `rdfDirection` both ways,\n"
               "`useNativeTypes`, `useRdfType`); the loader and the writer use the API's defaults. Written\n"
               "by the runner, `tests/conformance/jsonld_runner.cpp`:\n\n"
               "```\ncmake --build build/default --target gsparql-jsonld-conformance\n"
               "build/default/tests/conformance/gsparql-jsonld-conformance > docs/conformance-jsonld.md\n```\n\n"
               "| manifest | tests | pass | fail | skipped |\n|---|---|---|---|---|\n";
  size_t total = 0, passed = 0, skipped = 0;
  for (const Suite& s : suites) {
    const size_t pass = countOf(s.outcomes, Result::Pass), skip = countOf(s.outcomes, Result::Skip);
    total += s.outcomes.size();
    passed += pass;
    skipped += skip;
    std::cout << "| " << s.title << " | " << s.outcomes.size() << " | " << pass << " | "
              << s.outcomes.size() - pass - skip << " | " << skip << " |\n";
  }
  std::cout << "| **all** | " << total << " | " << passed << " | " << total - passed - skipped << " | " << skipped
            << " |\n\n";
  if (failures > 0) {
    std::cout << "## Failures\n\n| manifest | test | name | reason |\n|---|---|---|---|\n";
    for (const Suite& s : suites) {
      for (const Outcome& o : s.outcomes) {
        if (o.result == Result::Fail) std::cout << "| " << s.title << " | " << o.id << " | " << cell(o.name) << " | " << cell(o.detail) << " |\n";
      }
    }
    std::cout << "\n";
  }
  for (const Suite& s : suites) {
    std::cout << "## " << s.title << "\n\n| test | name | result | detail |\n|---|---|---|---|\n";
    for (const Outcome& o : s.outcomes) {
      std::cout << "| " << o.id << " | " << cell(o.name) << " | " << word(o.result) << " | " << cell(o.detail) << " |\n";
    }
    std::cout << "\n";
  }
  return failures == 0 ? 0 : 1;
}
