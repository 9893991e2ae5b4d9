// gsparql-geosparql-conformance: the GeoSPARQL Compliance Benchmark
// (Jovanovik, Homburg, Spasić 2021; ../shared/conformance/geosparql-benchmark/):
// loads its dataset (RDF/XML), runs its 206 queries (gsb_queries/query-r*.rq)
// on the CPU executor and compares each answer with the expected one and its
// alternatives (gsb_answers/<query>.srx, <query>-alternative-N.srx) as the
// W3C runner compares results (bags, blank nodes up to renaming, numbers by
// value, order where the query orders), with two allowances that the
// benchmark's answers need, both applied to the expected and the actual
// answer alike:
//   - a geo:wktLiteral or gmlLiteral is compared as a geometry: read,
//     normalized, snapped to a 1e-6 grid and written again as WKT in CRS84
//     (the answers come from other engines' writers, with or without the
//     CRS84 IRI, in GML 2 or 3);
//   - an xsd:double is compared to 3 significant digits: distances and areas
//     in metres are approximations of the geodesic (docs/geosparql.md);
//   - an xsd:boolean by value ("1" is "true"), as the W3C runner does numbers.
// A query passes when its answer matches any of its alternatives. Prints the
// per-requirement report (docs/conformance-geosparql.md); exits 77 when the
// benchmark is not there, 1 when fewer than --min-pass queries pass, else 0:
//
//   build/default/tests/conformance/gsparql-geosparql-conformance [DIR] > docs/conformance-geosparql.md
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "engine/geo/geometry.h"
#include "engine_answer.h"
#include "gsparql/database.h"
#include "gsparql/error.h"
#include "parser/parse.h"
#include "rdf/term.h"
#include "rdf/term_parts.h"
#include "results.h"
#include "support/files.h"

namespace fs = std::filesystem;
using namespace gsparql;
using namespace gsparql::conformance;

namespace {

constexpr int kSkipped = 77;

struct Outcome {
  std::string query;  // file stem, "query-r19-1-1"
  int requirement = 0;
  bool pass = false;
  std::string detail;
  bool passWithoutRewrite = false;  // with QueryOptions::geosparqlRewrite off
};

std::string firstLine(std::string text) {
  if (size_t nl = text.find('\n'); nl != std::string::npos) text.resize(nl);
  if (text.size() > 300) text = text.substr(0, 297) + "...";
  return text;
}

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : (c == '\n' || c == '\r') ? std::string(" ") : std::string(1, c);
  return out;
}

// The comparison form of one canonical term (see the file comment).
std::string comparable(const std::string& term) {
  rdf::TermSplitter splitter;
  const rdf::TermParts& parts = splitter.split(term);
  if (parts.kind != rdf::TermKind::Literal) return term;
  if (parts.datatype == engine::geo::kWktLiteral || parts.datatype == engine::geo::kGmlLiteral) {
    try {
      engine::geo::Geometry g = engine::geo::readLiteral(parts.value, parts.datatype);
      GEOSContextHandle_t c = engine::geo::context();
      engine::geo::GeometryPtr snapped = engine::geo::own(GEOSGeom_setPrecision_r(c, g.get(), 1e-6, 0));
      GEOSNormalize_r(c, snapped.get());
      return rdf::literalTerm(engine::geo::writeWkt(snapped.get(), engine::geo::Crs::Crs84), {}, parts.datatype);
    } catch (const engine::geo::GeoError&) {
      return term;  // GML, "ENVELOPE(...)": compared as written
    }
  }
  if (parts.datatype == "http://www.w3.org/2001/XMLSchema#boolean" && (parts.value == "1" || parts.value == "0")) {
    return rdf::literalTerm(parts.value == "1" ? "true" : "false", {}, parts.datatype);
  }
  if (parts.datatype == "http://www.w3.org/2001/XMLSchema#double") {
    char* end = nullptr;
    std::string lexical(parts.value);
    double v = std::strtod(lexical.c_str(), &end);
    if (end == lexical.c_str() || *end != '\0') return term;
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g", v == 0 ? 0.0 : v);  // no "-0"
    return rdf::literalTerm(buffer, {}, parts.datatype);
  }
  return term;
}

void makeComparable(ResultSet& r) {
  for (Solution& s : r.solutions) {
    for (auto& [variable, term] : s) term = comparable(term);
  }
}

// The expected answer first, then its alternatives.
std::vector<fs::path> answersOf(const fs::path& answers, const std::string& stem) {
  std::vector<fs::path> out;
  if (fs::exists(answers / (stem + ".srx"))) out.push_back(answers / (stem + ".srx"));
  std::vector<fs::path> alternatives;
  for (const auto& e : fs::directory_iterator(answers)) {
    if (e.path().filename().string().starts_with(stem + "-alternative-")) alternatives.push_back(e.path());
  }
  std::sort(alternatives.begin(), alternatives.end());
  out.insert(out.end(), alternatives.begin(), alternatives.end());
  return out;
}

Outcome run(const Database& db, const fs::path& queryFile, const fs::path& answers, bool rewrite) {
  Outcome o;
  o.query = queryFile.stem().string();
  o.requirement = std::stoi(o.query.substr(std::string("query-r").size(), 2));
  std::string text = test::readText(queryFile);
  ResultSet actual;
  CompareOptions options;
  try {
    options.orderKeys = orderKeys(sparql::parseQuery(text));
    QueryOptions query{Backend::Cpu, Semantics::Homomorphism};
    query.geosparqlRewrite = rewrite;
    // The benchmark marks the queries of its RDFS entailment extension (R25-R27).
    if (text.find("# INFERENCE") != std::string::npos) query.entailment = Entailment::Rdfs;
    actual = toResultSet(db.query(text, query));
  } catch (const std::exception& e) {
    o.detail = "query error: " + firstLine(e.what());
    return o;
  }
  makeComparable(actual);
  std::vector<fs::path> files = answersOf(answers, o.query);
  if (files.empty()) {
    o.detail = "runner: no expected answer";
    return o;
  }
  for (const fs::path& file : files) {
    try {
      ResultSet expected = readResultFile(file);
      makeComparable(expected);
      auto diff = compareResults(expected, actual, options);
      if (!diff) {
        o.pass = true;
        o.detail = file == files.front() ? "" : "matches " + file.filename().string();
        return o;
      }
      if (file == files.front()) o.detail = firstLine(*diff);
    } catch (const std::exception& e) {
      if (file == files.front()) o.detail = "runner: cannot read " + file.filename().string() + ": " + e.what();
    }
  }
  if (files.size() > 1) o.detail += " (and no alternative matches)";
  return o;
}

void report(const std::vector<Outcome>& outcomes) {
  struct Count {
    int passed = 0, passedWithoutRewrite = 0, total = 0;
  };
  std::map<int, Count> byRequirement;
  int passed = 0, passedWithoutRewrite = 0;
  for (const Outcome& o : outcomes) {
    Count& c = byRequirement[o.requirement];
    c.passed += o.pass;
    c.passedWithoutRewrite += o.passWithoutRewrite;
    ++c.total;
    passed += o.pass;
    passedWithoutRewrite += o.passWithoutRewrite;
  }
  int requirementsMet = 0;
  for (const auto& [r, c] : byRequirement) requirementsMet += c.passed == c.total;
  std::cout << "# GeoSPARQL Compliance Benchmark\n\n"
            << "Generated by `gsparql-geosparql-conformance` (tests/conformance/geosparql_runner.cpp) over\n"
            << "`../shared/conformance/geosparql-benchmark/` (Jovanovik, Homburg, Spasić 2021): its dataset\n"
            << "`gsb_dataset/dataset.rdf` loaded, its queries `gsb_queries/query-r*.rq` run on the CPU\n"
            << "executor, each answer compared with `gsb_answers/<query>.srx` and its `-alternative-N`\n"
            << "answers as the W3C runner compares results, geo:wktLiterals and gmlLiterals compared as geometries (on a\n"
            << "1e-6 grid), xsd:doubles to 3 significant digits and xsd:booleans by value (the runner's\n"
            << "comment says why).\n"
            << "docs/geosparql.md says what is supported.\n\n"
            << "**" << passed << " of " << outcomes.size() << " queries pass; " << requirementsMet << " of "
            << byRequirement.size() << " requirements with queries have all their queries passing.**\n\n"
            << "Every query runs with the default options, the GeoSPARQL query rewrite on, and those the\n"
            << "benchmark marks `# INFERENCE` (R25-R27) with RDFS entailment (`--entailment rdfs`); the last\n"
            << "column runs it again with `QueryOptions::geosparqlRewrite` off (" << passedWithoutRewrite
            << " of " << outcomes.size() << " pass so).\n"
            << "The benchmark's R4-R6 expect the stored topological triples alone and R28-R30 the same\n"
            << "patterns with the derived ones too, so no one setting passes both.\n\n"
            << "| Requirement | Passed | Queries | Passed without rewrite |\n|---|---|---|---|\n";
  for (const auto& [r, c] : byRequirement) {
    std::cout << "| R" << r << " | " << c.passed << " | " << c.total << " | " << c.passedWithoutRewrite << " |\n";
  }
  std::cout
      << "\n## Why the failures fail\n\n"
      << "- R19 `distance` in metres (query-r19-1-*): the expected values come from another engine's\n"
      << "  computation (9387.01 m between C and G, 0.1 degrees of longitude apart at latitude 34.3-34.4,\n"
      << "  where 0.1 degrees of longitude is about 9,200 m on the ellipsoid); gsparql's WGS 84\n"
      << "  geodesic through PROJ gives 9.19e3 m (docs/geosparql.md, Units; tested against PROJ's geod).\n"
      << "- R19 `buffer` by 10 `uom:metre` (query-r19-2-*): every expected answer is a buffer of 10\n"
      << "  degrees; gsparql buffers by 10 metres on WGS 84 (docs/geosparql.md, Units).\n"
      << "- R19 `envelope` (query-r19-8-*): no expected answer is a valid geometry equal to the\n"
      << "  envelope (`ENVELOPE(...)`, `BOX(...)`, a polygon whose first position has four numbers, a\n"
      << "  GML polygon that crosses itself).\n"
      << "- R4-R6 with the rewrite on: the expected answers hold the stored triples only.\n"
      << "- R28-R30: the expected answers follow another engine's rewrite: some leave out the\n"
      << "  subject's own feature and geometry (sfIntersects) and point geometries, and some take\n"
      << "  relations other than the DE-9IM patterns of the standard (A `ehCovers` G, where G lies\n"
      << "  in A's interior and the boundaries do not meet, so the pattern `T*TFT*FF*` does not hold).\n";
  std::cout << "\n## Queries\n\n| Query | Req. | Result | Reason | Without rewrite |\n|---|---|---|---|---|\n";
  for (const Outcome& o : outcomes) {
    std::cout << "| " << o.query << " | R" << o.requirement << " | " << (o.pass ? "pass" : "**fail**") << " | "
              << cell(o.detail) << " | " << (o.passWithoutRewrite ? "pass" : "fail") << " |\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  fs::path dir = GSPARQL_DEFAULT_GEOSPARQL_DIR;
  size_t minPass = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--min-pass" && i + 1 < argc) {
      minPass = std::stoul(argv[++i]);
    } else {
      dir = arg;
    }
  }
  if (!fs::exists(dir / "gsb_queries")) {
    std::cerr << "gsparql-geosparql-conformance: no benchmark at " << dir << "\n";
    return kSkipped;
  }
  fs::path scratch = fs::temp_directory_path() / ("gsparql-geosparql-" + std::to_string(::getpid()));
  fs::remove_all(scratch);
  Database::load(scratch, {(dir / "gsb_dataset" / "dataset.rdf").string()});
  std::vector<Outcome> outcomes;
  {
    Database db(scratch);
    std::vector<fs::path> queries;
    for (const auto& e : fs::directory_iterator(dir / "gsb_queries")) {
      if (e.path().filename().string().starts_with("query-r")) queries.push_back(e.path());
    }
    std::sort(queries.begin(), queries.end());
    for (const fs::path& q : queries) {
      outcomes.push_back(run(db, q, dir / "gsb_answers", true));
      outcomes.back().passWithoutRewrite = run(db, q, dir / "gsb_answers", false).pass;
    }
  }
  fs::remove_all(scratch);
  report(outcomes);
  size_t passed = std::count_if(outcomes.begin(), outcomes.end(), [](const Outcome& o) { return o.pass; });
  std::cerr << "gsparql-geosparql-conformance: " << passed << " of " << outcomes.size() << " pass\n";
  return passed >= minPass ? 0 : 1;
}
