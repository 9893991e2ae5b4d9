// Queries with operators above their BGPs (FILTER, OPTIONAL, UNION, MINUS,
// EXISTS, GROUP BY, paths, VALUES, subqueries, ASK, CONSTRUCT): the same
// answer when the BGPs run on the GPU executor as on the CPU executor.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <sstream>

#include "engine/gpu/gpu_executor.h"
#include "gsparql/database.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// Every row (or triple, or the boolean) as text, sorted: the answer as a bag.
std::vector<std::string> answerOf(const QueryResult& result) {
  std::vector<std::string> lines;
  if (result.isBoolean()) return {result.booleanValue() ? "true" : "false"};
  if (result.isGraph()) {
    result.forEachTriple([&](std::string_view s, std::string_view p, std::string_view o) {
      lines.push_back(std::string(s) + " " + std::string(p) + " " + std::string(o));
    });
  } else {
    result.forEachRow([&](std::span<const Term> row) {
      std::string line;
      for (const Term& t : row) line += (t ? std::string(*t) : "UNDEF") + "\t";
      lines.push_back(std::move(line));
    });
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

// The benchmark's operator queries; $GSPARQL_OPERATOR_QUERIES where the
// source tree has moved (the GPU machine runs a copy).
std::filesystem::path operatorQueries() {
  const char* moved = std::getenv("GSPARQL_OPERATOR_QUERIES");
  return moved != nullptr ? moved : GSPARQL_OPERATOR_QUERIES;
}

bool skipWithoutGpu() {
  if (engine::gpuAvailable()) return false;
  std::printf("no CUDA device: skipped\n");
  return true;
}

DatabaseOptions in256KB() {
  DatabaseOptions small;
  small.gpuMemoryBytes = 256 << 10;
  small.gpuCacheBytes = 64 << 20;  // adjacency whole: bounded steps are under test here, not streaming
  return small;
}

// WatDiv SF1 loaded into `dir`.
const std::filesystem::path& loadedSf1(const TempDir& dir) {
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  return dir.path();
}

// WatDiv SF1, opened with no GPU memory limit and with 256 KB.
struct Sf1 {
  TempDir dir;
  const std::filesystem::path path = loadedSf1(dir);
  Database db{path};
  Database bounded{path, in256KB()};
};

// The .rq files of a folder, sorted.
std::vector<std::filesystem::path> queryFiles(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(folder)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("operator queries give the same answers with their BGPs on the GPU as on the CPU") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  Database db(dir.path());
  const auto files = queryFiles(operatorQueries());
  REQUIRE(files.size() >= 20);
  size_t nonEmpty = 0;
  for (const auto& file : files) {
    CAPTURE(file);
    const std::string text = readText(file);
    QueryOptions cpu, gpu;
    cpu.backend = Backend::Cpu;
    gpu.backend = Backend::Gpu;
    const QueryResult onGpu = db.query(text, gpu);
    const auto expected = answerOf(db.query(text, cpu));
    CHECK(answerOf(onGpu) == expected);
    nonEmpty += !expected.empty();
    const std::string plan = onGpu.explain();
    CAPTURE(plan);
    CHECK(plan.find("ran on the CPU executor") == std::string::npos);
  }
  CHECK(nonEmpty >= files.size() - 2);  // the queries find something on SF1
}

TEST_CASE("COUNT(*) over every WatDiv SF1 BGP and random BGPs counts on the GPU what the CPU counts, also in 256 KB") {
  if (skipWithoutGpu()) return;
  const Sf1 sf1;
  const Database &db = sf1.db, &bounded = sf1.bounded;
  const auto files = queryFiles(dataFile("watdiv/sf1/queries"));
  REQUIRE(files.size() >= 100);
  int depthFirst = 0, leaves = 0;
  for (const auto& file : files) {
    CAPTURE(file);
    const std::string query = countingQuery(readText(file));
    for (Semantics semantics : {Semantics::Homomorphism, Semantics::Isomorphism}) {
      const uint64_t expected = countOf(db.query(query, {Backend::Cpu, semantics}));
      const QueryResult onGpu = db.query(query, {Backend::Gpu, semantics});
      CHECK(countOf(onGpu) == expected);
      CHECK(onGpu.explain().find("BgpCount") != std::string::npos);
      CHECK(onGpu.explain().find("CPU executor") == std::string::npos);  // the GPU counts them all
      const QueryResult inFewBytes = bounded.query(query, {Backend::Gpu, semantics});
      CHECK(countOf(inFewBytes) == expected);
      depthFirst += inFewBytes.explain().find("depth-first over slices") != std::string::npos;
      // Its fused buffers are small: stars leave them for the general path, which multiplies their leaves.
      leaves += inFewBytes.explain().find("counted without rows") != std::string::npos;
    }
  }
  CHECK(depthFirst > 0);  // the bound was felt
  CHECK(leaves > 0);      // and stars' leaves were multiplied
  std::mt19937 random(7);
  for (int i = 0; i < 100; ++i) {
    RandomCase c = randomCase(random);
    TempDir caseDir;
    Database small(loadGraph(caseDir.path(), c.graph));
    const std::string query = countingQuery(c.query);
    CAPTURE(query);
    for (Semantics semantics : {Semantics::Homomorphism, Semantics::Isomorphism}) {
      CHECK(countOf(small.query(query, {Backend::Gpu, semantics})) ==
            countOf(small.query(query, {Backend::Cpu, semantics})));
    }
  }
}

namespace {

// For every variable of every WatDiv SF1 query, `query` of it on the GPU,
// with no memory limit and in 256 KB, gives `answer` of the CPU's `reference`
// (the same query, or one that reaches the answer another way), its plan
// holding `leaf`. Some runs in 256 KB take the general path (not the light
// path's one kernel: a failed attempt at it notes its grid, "fused step",
// too), some slice by slice.
template <class MakeQuery, class Answer>
void checkEveryVariable(const MakeQuery& query, const MakeQuery& reference, const Answer& answer,
                        const std::string& leaf) {
  const Sf1 sf1;
  const Database &db = sf1.db, &bounded = sf1.bounded;
  int general = 0, depthFirst = 0;
  for (const auto& file : queryFiles(dataFile("watdiv/sf1/queries"))) {
    const std::string text = readText(file);
    const QueryResult rows = db.query(text, {Backend::Cpu});  // outlives the loop over its variables
    for (const std::string& variable : rows.variables()) {
      const std::string asked = query(text, variable);
      CAPTURE(asked);
      const auto expected = answer(db.query(reference(text, variable), {Backend::Cpu}));
      const QueryResult onGpu = db.query(asked, {Backend::Gpu});
      CHECK(answer(onGpu) == expected);
      CHECK(onGpu.explain().find(leaf) != std::string::npos);
      CHECK(onGpu.explain().find("CPU executor") == std::string::npos);
      const QueryResult inFewBytes = bounded.query(asked, {Backend::Gpu});
      CHECK(answer(inFewBytes) == expected);
      general += inFewBytes.explain().find("steps fused into one kernel") == std::string::npos;
      depthFirst += inFewBytes.explain().find("depth-first over slices") != std::string::npos;
    }
  }
  CHECK(general > 0);     // counted on the device, not only from the light path's rows
  CHECK(depthFirst > 0);  // and slice by slice
}

using MakeQuery = std::function<std::string(const std::string&, const std::string&)>;

// Each row's first two cells (the key and its count), sorted.
std::vector<std::string> keysAndCounts(const QueryResult& result) {
  std::vector<std::string> lines;
  result.forEachRow([&](std::span<const Term> row) { lines.push_back(std::string(*row[0]) + "\t" + std::string(*row[1])); });
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace

TEST_CASE("COUNT(DISTINCT ?v) of every variable of every WatDiv SF1 BGP is marked on the GPU as the CPU counts it, also in 256 KB") {
  if (skipWithoutGpu()) return;
  const MakeQuery distinct = [](const std::string& text, const std::string& v) { return countingQuery(text, v); };
  checkEveryVariable(distinct, distinct, [](const QueryResult& r) { return countOf(r); }, "BgpCount of distinct");
}

TEST_CASE("GROUP BY ?v with COUNT(*) of every variable of every WatDiv SF1 BGP counts on the GPU what the CPU groups, also in 256 KB") {
  if (skipWithoutGpu()) return;
  checkEveryVariable(MakeQuery([](const std::string& text, const std::string& v) { return groupCountQuery(text, v, false); }),
                     MakeQuery([](const std::string& text, const std::string& v) { return groupCountQuery(text, v, true); }),
                     keysAndCounts, "BgpGroupCount by");
}

namespace {

// Words of WatDiv's review texts (plain ones: no apostrophe), for text searches.
std::vector<std::string> reviewWords(const Database& db, size_t count) {
  QueryOptions cpu;
  cpu.backend = Backend::Cpu;
  std::vector<std::string> words;
  for (const auto& row : db.query("SELECT ?t { ?r <http://purl.org/stuff/rev#text> ?t } LIMIT 200", cpu).rows()) {
    std::istringstream text(row[0]->substr(1, row[0]->rfind('"') - 1));
    for (std::string w; text >> w && words.size() < count;) {
      if (w.find('\'') == std::string::npos && std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
    }
  }
  return words;
}

}  // namespace

TEST_CASE("text searches joined with BGPs give the same answers on the GPU as on the CPU") {
  if (skipWithoutGpu()) return;
  Sf1 sf1;
  const std::vector<std::string> words = reviewWords(sf1.db, 24);
  REQUIRE(words.size() == 24);
  const std::string prefixes =
      "PREFIX text: <http://jena.apache.org/text#> PREFIX rev: <http://purl.org/stuff/rev#> "
      "PREFIX wsdbm: <http://db.uwaterloo.ca/~galuc/wsdbm/> ";
  size_t nonEmpty = 0;
  for (size_t i = 0; i + 2 < words.size(); i += 3) {
    const std::string w1 = words[i], w2 = words[i + 1], w3 = words[i + 2];
    const std::vector<std::string> queries = {
        "SELECT ?r ?u ?score { (?r ?score) text:query (rev:text \"" + w1 + " " + w2 + "\") . ?p rev:hasReview ?r . ?r rev:reviewer ?u }",
        "SELECT ?r ?v { ?r text:query (rev:text \"" + w1 + " OR " + w3 + "\") ; rev:reviewer ?u . ?u wsdbm:follows ?v }",
        "SELECT ?s ?p { ?s text:query \"" + w2 + " " + w3.substr(0, 3) + "*\" . ?s ?p ?o }",
        "SELECT (COUNT(*) AS ?n) { ?r text:query (rev:text \"" + w1.substr(0, 2) + "*\") . ?p rev:hasReview ?r . ?p ?q ?x }",
        "SELECT ?r ?l { (?r ?score ?l) text:query (rev:text \"" + w1 + " " + w2 + " " + w3 + "\" 3) . ?r rev:reviewer ?u }",
    };
    for (const std::string& query : queries) {
      CAPTURE(query);
      QueryOptions cpu, gpu;
      cpu.backend = Backend::Cpu;
      gpu.backend = Backend::Gpu;
      for (const Database* db : {&sf1.db, &sf1.bounded}) {
        const QueryResult onGpu = db->query(prefixes + query, gpu);
        const auto expected = answerOf(db->query(prefixes + query, cpu));
        CHECK(answerOf(onGpu) == expected);
        nonEmpty += expected.size() > 1 || (expected.size() == 1 && expected[0] != "\"0\"^^<http://www.w3.org/2001/XMLSchema#integer>\t");
        const std::string plan = onGpu.explain();
        CAPTURE(plan);
        CHECK(plan.find("ran on the CPU executor") == std::string::npos);
      }
    }
  }
  CHECK(nonEmpty >= 60);  // of 80
}

TEST_CASE("triple-term and reified-triple patterns give the same answers with their BGPs on the GPU as on the CPU") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  // Statements about statements, nested two deep, on a few nodes so that patterns join.
  std::string data = "PREFIX e: <http://e/> INSERT DATA {\n";
  for (int i = 0; i < 3000; ++i) {
    const std::string s = "e:n" + std::to_string(i % 37), o = "e:n" + std::to_string((i * 7) % 41);
    const std::string inner = "<<( " + s + " e:p" + std::to_string(i % 3) + " " + o + " )>>";
    data += "e:r" + std::to_string(i) + " <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> " +
            (i % 4 == 0 ? "<<( " + o + " e:about " + inner + " )>>" : inner) + " ; e:source e:g" +
            std::to_string(i % 5) + " .\n" + s + " e:p" + std::to_string(i % 3) + " " + o + " .\n";
  }
  Database::update(dir / "db", data + "}");
  const Database db(dir / "db");
  const std::string prefixes = "PREFIX e: <http://e/> ";
  const std::vector<std::string> queries = {
      "SELECT ?s ?o ?g { << ?s e:p1 ?o >> e:source ?g }",
      "SELECT ?s ?o ?r { ?s e:p0 ?o {| e:source e:g2 |} . ?r e:source e:g2 }",
      "SELECT ?x ?s ?g { << ?x e:about <<( ?s e:p2 ?x )>> >> e:source ?g }",
      "SELECT (COUNT(*) AS ?n) { << ?s ?p ?o >> e:source ?g . ?o e:p0 ?z }",
      "SELECT ?s ?g ?g2 { << ?s e:p1 e:n3 >> e:source ?g . << ?s e:p2 ?y >> e:source ?g2 }",
  };
  QueryOptions cpu, gpu;
  cpu.backend = Backend::Cpu;
  gpu.backend = Backend::Gpu;
  for (const std::string& query : queries) {
    CAPTURE(query);
    const QueryResult onGpu = db.query(prefixes + query, gpu);
    const auto expected = answerOf(db.query(prefixes + query, cpu));
    REQUIRE(!expected.empty());
    CHECK((expected.size() > 1 || !expected[0].starts_with("\"0\"")));  // something to compare
    CHECK(answerOf(onGpu) == expected);
    const std::string plan = onGpu.explain();
    CAPTURE(plan);
    CHECK(plan.find("ran on the CPU executor") == std::string::npos);
  }
}
