// Database::queryTo: results written as the operators produce them.
#include <doctest/doctest.h>

#include <atomic>
#include <sstream>
#include <streambuf>

#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// A star: 80 subjects each linked to the same 80 objects by one predicate,
// so { ?a :p ?b . ?c :p ?b } has 80^3 = 512,000 solutions in one component.
std::string star() {
  std::string text;
  for (int s = 0; s < 80; ++s) {
    for (int o = 0; o < 80; ++o) {
      text += "<http://e/s" + std::to_string(s) + "> <http://e/p> <http://e/o" + std::to_string(o) + "> .\n";
    }
  }
  text += "<http://e/s0> <http://e/name> \"zero\"@en .\n<http://e/s1> <http://e/age> \"41\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n";
  return text;
}

constexpr const char* kStarJoin = "SELECT * WHERE { ?a <http://e/p> ?b . ?c <http://e/p> ?b }";

struct Fixture {
  TempDir dir;
  std::optional<Database> db;
  Fixture() {
    writeFile(dir / "data.nt", star());
    Database::load(dir / "db", {(dir / "data.nt").string()});
    db.emplace(dir / "db");
  }
};

QueryOptions cpu() { return {.backend = Backend::Cpu}; }

// Counts what is written; calls `onFirstWrite` once, when the first block arrives;
// fails every write after `capacity` bytes.
class WatchedBuffer final : public std::streambuf {
 public:
  explicit WatchedBuffer(std::function<void()> onFirstWrite, size_t capacity = SIZE_MAX)
      : onFirstWrite_(std::move(onFirstWrite)), capacity_(capacity) {}
  size_t written() const { return written_; }

 protected:
  std::streamsize xsputn(const char* data, std::streamsize n) override {
    if (written_ == 0 && onFirstWrite_) onFirstWrite_();
    if (written_ + static_cast<size_t>(n) > capacity_) return 0;
    written_ += static_cast<size_t>(n);
    return n;
  }
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
  }

 private:
  std::function<void()> onFirstWrite_;
  size_t capacity_;
  size_t written_ = 0;
};

}  // namespace

TEST_CASE("queryTo writes what QueryResult::write writes, in every format and query form") {
  Fixture f;
  const char* queries[] = {
      "SELECT ?a ?b WHERE { ?a <http://e/p> ?b } ORDER BY ?a ?b LIMIT 100",
      "SELECT ?a ?n ?g WHERE { ?a <http://e/p> <http://e/o3> OPTIONAL { ?a <http://e/name> ?n } "
      "OPTIONAL { ?a <http://e/age> ?g } } ORDER BY ?a",
      "SELECT (COUNT(*) AS ?n) WHERE { ?a <http://e/p> ?b . ?c <http://e/p> ?b }",
      "SELECT DISTINCT ?b WHERE { { ?a <http://e/p> ?b } UNION { ?b <http://e/p> ?a } } ORDER BY ?b",
      "SELECT ?a WHERE { ?a <http://e/p> ?b FILTER(?b = <http://e/o7>) } ORDER BY DESC(?a) OFFSET 3 LIMIT 5",
      "ASK { ?a <http://e/age> ?g FILTER(?g > 40) }",
      "CONSTRUCT { ?a <http://e/q> ?b } WHERE { ?a <http://e/p> ?b } ORDER BY ?a ?b LIMIT 7",
  };
  for (const char* query : queries) {
    const QueryResult whole = f.db->query(query, cpu());
    for (ResultFormat format : {ResultFormat::Tsv, ResultFormat::Csv, ResultFormat::Json, ResultFormat::Xml,
                                ResultFormat::Table, ResultFormat::NTriples}) {
      const bool fits = whole.isGraph() ? format == ResultFormat::NTriples || format == ResultFormat::Table
                                        : format != ResultFormat::NTriples;
      if (!fits) continue;
      CAPTURE(query);
      CAPTURE(static_cast<int>(format));
      std::ostringstream expected, streamed;
      whole.write(expected, format);
      QueryOptions explained = cpu();
      explained.explain = true;
      const QuerySummary summary = f.db->queryTo(query, streamed, format, explained);
      CHECK(streamed.str() == expected.str());
      CHECK(summary.rows == (whole.isGraph() ? whole.tripleCount() : whole.isBoolean() ? 1 : whole.rowCount()));
      CHECK(summary.explain.starts_with("BGP executor cpu"));
      std::ostringstream again;
      CHECK(f.db->queryTo(query, again, format, cpu()).explain.empty());  // not asked for: not made
    }
  }
}

TEST_CASE("queryTo chooses TSV, or N-Triples for a graph, and refuses a format before writing anything") {
  Fixture f;
  std::ostringstream tsv, nt, refused;
  f.db->queryTo("SELECT ?b WHERE { <http://e/s0> <http://e/p> ?b } ORDER BY ?b LIMIT 1", tsv, std::nullopt, cpu());
  CHECK(tsv.str() == "?b\n<http://e/o0>\n");
  f.db->queryTo("CONSTRUCT { <http://e/s0> <http://e/q> ?b } WHERE { <http://e/s0> <http://e/p> ?b FILTER(?b = <http://e/o1>) }",
                nt, std::nullopt, cpu());
  CHECK(nt.str() == "<http://e/s0> <http://e/q> <http://e/o1> .\n");
  CHECK_THROWS_AS(f.db->queryTo(kStarJoin, refused, ResultFormat::NTriples, cpu()), QueryError);
  CHECK_THROWS_AS(f.db->queryTo("CONSTRUCT WHERE { ?a <http://e/p> ?b }", refused, ResultFormat::Json, cpu()),
                  QueryError);
  CHECK(refused.str().empty());
}

TEST_CASE("a SELECT's rows are written while the query runs: cancelling at the first write stops it") {
  Fixture f;
  std::atomic<bool> cancel = false;
  WatchedBuffer buffer([&] { cancel = true; });
  std::ostream out(&buffer);
  QueryOptions options = cpu();
  options.cancel = &cancel;
  // Written only at the end, the whole result would be out before the flag is set.
  CHECK_THROWS_AS(f.db->queryTo(kStarJoin, out, ResultFormat::Tsv, options), QueryCancelled);
  CHECK(buffer.written() > 0);
  std::ostringstream whole;
  f.db->queryTo(kStarJoin, whole, ResultFormat::Tsv, cpu());
  CHECK(buffer.written() < whole.str().size());
}

TEST_CASE("output that fails stops the query early, and says so") {
  Fixture f;
  WatchedBuffer buffer(nullptr, 1 << 20);  // a reader that goes away after 1 MiB
  std::ostream out(&buffer);
  QueryOptions options = cpu();
  options.explain = true;
  const QuerySummary summary = f.db->queryTo(kStarJoin, out, ResultFormat::Tsv, options);
  CHECK(summary.stopped);
  CHECK(summary.rows > 0);
  CHECK(summary.rows < 512000);
  // The BGP stopped too: its last step found far fewer than all rows.
  CHECK(summary.explain.find("BGP executor cpu") == 0);
  CHECK(summary.explain.find("actual 512000") == std::string::npos);
}

TEST_CASE("a streamed result larger than the memory budget is written in bounded memory") {
  Fixture f;
  QueryOptions options = cpu();
  // The 512,000 rows take 6 MB as ids (twice that while a step gathers
  // them), the rows from a chunk of 4,096 inputs 4 MB.
  options.memoryBudgetBytes = 9 << 20;
  CHECK_THROWS_AS(f.db->query(kStarJoin, options), QueryOutOfMemory);
  WatchedBuffer discard(nullptr);
  std::ostream out(&discard);
  const QuerySummary summary = f.db->queryTo(kStarJoin, out, ResultFormat::Tsv, options);
  CHECK(summary.rows == 512000);
  CHECK_FALSE(summary.stopped);
}
