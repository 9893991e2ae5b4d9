// libFuzzer target: parse, plan and run a query on a small database.
//
// The database (the vocabulary of parser/fuzz/corpus: http://example.org/
// terms, numbers, strings, dates, blank nodes, cycles, a predicate that is
// also a subject) is loaded once, into a temporary folder, at the first
// input. Each input that parses and whose plan estimates at most kMaxRows
// rows at every operator runs on the CPU executor, with a watchdog that
// cancels it after kBudget; its result is written in every format.
//
// A finding is anything but a clean return or a QueryError (syntax errors,
// unsupported features, cancellation): crashes, sanitizer reports, other
// exceptions (std::logic_error from the planner, std::out_of_range, ...),
// and libFuzzer timeouts, which mean the query ignored its cancellation;
// and a SELECT written as it runs (Database::queryTo) whose rows differ from
// the whole result's.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <string_view>
#include <thread>

#include "engine/logical/logical_plan.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/planner/planner.h"
#include "gsparql/database.h"
#include "gsparql/error.h"
#include "parser/parse.h"
#include "storage/graph_store.h"

namespace {

constexpr double kMaxRows = 200000;
constexpr auto kBudget = std::chrono::milliseconds(1000);

const char* const kData = R"(
@prefix : <http://example.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:a :p :b , :c , "x" , 1 , 2.5 , "A"@en .
:b :p :c ; :q 3 , "abz" ; :r :a ; :name "Ann" ; :weight 10 ; :group :g1 .
:c :p :a ; :q -1 , 4.0e0 ; :s :c ; :name "Bob"@en ; :weight 7 ; :group :g1 .
:d :q "2026-11-22T10:00:00Z"^^xsd:dateTime ; :date "2020-01-01"^^xsd:date ; :v true .
:p :t :u ; :u :p ; :x :y .
:a :friend :b ; :s :b ; :t :c ; :u :d ; :v :a ; :w :b .
:b :friend _:n1 . _:n1 :name "Cy" ; :p _:n2 . _:n2 :p _:n1 .
:e :deleted true ; :p :e ; :list ( 1 :a "q" ) .
:a <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> :Thing .
:c :y :z ; :z :a ; :dt "1"^^:dt ; :q "ill"^^xsd:integer .
)";

// A null stream for the result writers.
class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

struct Fixture {
  std::filesystem::path dir;
  std::unique_ptr<gsparql::Database> db;
  std::unique_ptr<gsparql::GraphStore> store;  // for the planner's estimates
  std::unique_ptr<gsparql::engine::JoinOrderer> orderer;
  std::atomic<bool> cancel{false};
  std::atomic<int64_t> deadline{0};  // steady-clock ms; 0: no query running

  Fixture() {
    std::string pattern = (std::filesystem::temp_directory_path() / "gsparql-fuzz-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    dir = pattern;
    std::ofstream(dir / "data.ttl") << kData;
    gsparql::Database::load(dir / "db", {(dir / "data.ttl").string()});
    db = std::make_unique<gsparql::Database>(dir / "db");
    store = std::make_unique<gsparql::GraphStore>(dir / "db");
    orderer = gsparql::engine::makeStatisticsOrderer();
    std::thread([this] {
      for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const int64_t due = deadline.load();
        if (due != 0 && now() > due) cancel.store(true);
      }
    }).detach();
  }

  static int64_t now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

Fixture& fixture() {
  static Fixture* f = [] {
    auto* made = new Fixture();  // never destroyed: the watchdog reads it until exit
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(fixture().dir, ignored);
    });
    return made;
  }();
  return *f;
}

double largestEstimate(const gsparql::engine::Operator& op) {
  double rows = op.estimatedRows();
  for (const auto* child : op.children()) rows = std::max(rows, largestEstimate(*child));
  return rows;
}

// Whether two runs of the query may give different bags of rows: functions
// that make new values, or a slice of an order the query leaves open.
bool mayDifferBetweenRuns(std::string_view text) {
  std::string upper(text);
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  for (const char* word : {"RAND", "UUID", "NOW", "BNODE", "LIMIT", "OFFSET", "SAMPLE", "GROUP_CONCAT"}) {
    if (upper.find(word) != std::string::npos) return true;
  }
  return false;
}

std::vector<std::string> sortedLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

// A SELECT written as it runs (BGPs found a chunk at a time) must give the
// rows of the whole result.
void checkStreamed(const gsparql::Database& db, std::string_view text, const gsparql::QueryResult& whole,
                   const gsparql::QueryOptions& options) {
  using gsparql::ResultFormat;
  if (whole.isGraph() || whole.isBoolean() || mayDifferBetweenRuns(text)) return;
  std::ostringstream expected, streamed;
  whole.write(expected, ResultFormat::Tsv);
  const gsparql::QuerySummary summary = db.queryTo(text, streamed, ResultFormat::Tsv, options);
  if (summary.rows != whole.rowCount() || sortedLines(streamed.str()) != sortedLines(expected.str())) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gsparql;
  Fixture& f = fixture();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  sparql::Query query;
  try {
    query = sparql::parseQuery(text);
  } catch (const sparql::SyntaxError&) {
    return 0;
  }
  try {
    const engine::LogicalPlan logical = engine::buildLogicalPlan(query);
    const engine::Planner planner(
        *f.store, *f.orderer, engine::resolveDataset(logical.fromGraphs, logical.fromNamedGraphs, f.store->graphs()));
    if (largestEstimate(*planner.plan(*logical.root, std::nullopt)) > kMaxRows) return 0;
  } catch (const QueryError&) {
    return 0;  // not supported yet (a default graph merged by FROM)
  }
  f.cancel.store(false);
  f.deadline.store(Fixture::now() + kBudget.count());
  try {
    QueryOptions options;
    options.backend = Backend::Cpu;
    options.cancel = &f.cancel;
    options.service = ServiceAccess::none();  // a fuzzed SERVICE must not send requests
    QueryResult result = f.db->query(text, options);
    NullBuffer buffer;
    std::ostream out(&buffer);
    if (result.isGraph()) {
      result.write(out, ResultFormat::NTriples);
      result.write(out, ResultFormat::Turtle);
    } else {
      for (ResultFormat format : {ResultFormat::Table, ResultFormat::Tsv, ResultFormat::Csv, ResultFormat::Json,
                                  ResultFormat::Xml}) {
        result.write(out, format);
      }
      (void)result.explain();
      checkStreamed(*f.db, text, result, options);
    }
  } catch (const QueryError&) {
    // cancelled by the watchdog, or an error the query's data makes
  }
  f.deadline.store(0);
  return 0;
}
