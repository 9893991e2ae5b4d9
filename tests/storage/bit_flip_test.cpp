// Single flipped bits anywhere in a database: each is reported as an error
// that names the damaged file, or changes no answer. Never a wrong answer,
// a crash or a hang (issue 45, "No silent damage"; docs/reliability.md).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "file_damage.h"
#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

std::string decimal(int s) { return std::to_string(s / 4) + "." + std::to_string(s % 4 * 25); }

std::string day(int s) { return (s % 28 < 9 ? "0" : "") + std::to_string(s % 28 + 1); }

// A default graph of numbers, dates, decimals, tagged strings and links
// (several blocks of the term and value columns), a named graph, and an
// update's delta file: a file of every kind a database has.
std::string quads() {
  const std::string xsd = "^^<http://www.w3.org/2001/XMLSchema#";
  std::string nq;
  for (int s = 0; s < 200; ++s) {
    const std::string subject = "<e:s" + std::to_string(s) + "> ";
    nq += subject + "<e:n> \"" + std::to_string(s * 7 % 101) + "\"" + xsd + "integer> .\n";
    nq += subject + "<e:d> \"2020-01-" + day(s) + "T00:00:00Z\"" + xsd + "dateTime> .\n";
    nq += subject + "<e:label> \"" + (s % 3 == 0 ? "a" : "b") + "label " + std::to_string(s) + "\"@en .\n";
    nq += subject + "<e:knows> <e:s" + std::to_string(s * 13 % 200) + "> .\n";
    nq += subject + "<e:x> \"" + decimal(s) + "\"" + xsd + "decimal> <e:g1> .\n";
  }
  return nq;
}

std::filesystem::path loadDatabase(const TempDir& dir) {
  writeFile(dir / "data.nq", quads());
  const auto db = dir / "db";
  Database::load(db, {(dir / "data.nq").string()});
  Database::update(db, "INSERT DATA { <e:s1> <e:n> 1000 . <e:new> <e:knows> <e:s2> } ;"
                       "DELETE DATA { <e:s2> <e:knows> <e:s26> }");
  return db;
}

// Between them they read every file: both adjacency directions of every
// predicate, terms and typed values of every vertex, the text index, dictionary lookups.
const char* const kQueries[] = {
    "SELECT ?s ?p ?o WHERE { ?s ?p ?o }",
    "SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }",
    "SELECT ?s ?p WHERE { ?s ?p <e:s7> }",
    "SELECT ?s ?p WHERE { ?s ?p \"2020-01-05T00:00:00Z\"^^<http://www.w3.org/2001/XMLSchema#dateTime> }",
    "SELECT ?s ?p WHERE { GRAPH <e:g1> { ?s ?p 12.25 } }",
    "SELECT ?p ?o WHERE { <e:s3> ?p ?o }",
    "SELECT ?s ?n WHERE { ?s <e:n> ?n FILTER(?n > 50) }",
    "SELECT (SUM(?n) AS ?sum) (COUNT(?n) AS ?count) (MAX(?d) AS ?last) WHERE { ?s <e:n> ?n ; <e:d> ?d }",
    "SELECT ?s ?x WHERE { GRAPH ?g { ?s <e:x> ?x } FILTER(?x >= 20.5) } ORDER BY DESC(?x) ?s",
    "SELECT ?s ?d WHERE { ?s <e:d> ?d } ORDER BY ?d ?s",
    "SELECT ?s ?l WHERE { ?s <e:label> ?l FILTER(STRSTARTS(?l, \"a\")) }",
    "SELECT ?a ?c WHERE { ?a <e:knows> ?b . ?b <e:knows> ?c . ?c <e:n> ?n FILTER(?n < 30) }",
    "SELECT ?o (COUNT(?s) AS ?n) WHERE { ?s <e:knows> ?o } GROUP BY ?o",
    "ASK { <e:new> <e:knows> <e:s2> }",
    "SELECT ?s ?l WHERE { (?s ?score ?l) <http://jena.apache.org/text#query> \"a* OR b*\" }",
};

// A query's result as TSV, or the error that stopped it.
struct Answer {
  std::string text;
  bool failed = false;
};

// Each query's answer, then the dump's; one failed answer when the
// database does not open.
std::vector<Answer> answers(const std::filesystem::path& dir) {
  std::optional<Database> db;
  try {
    db.emplace(dir);
  } catch (const StorageError& e) {
    return {{e.what(), true}};
  }
  QueryOptions options;
  options.backend = Backend::Cpu;
  options.timeout = std::chrono::seconds(20);  // a hang fails the test
  std::vector<Answer> all;
  auto answer = [&](const auto& write) {
    std::ostringstream out;
    try {
      write(out);
      all.push_back({out.str()});
    } catch (const StorageError& e) {
      all.push_back({e.what(), true});
    }
  };
  for (const char* query : kQueries) {
    answer([&](std::ostream& out) { db->query(query, options).write(out, ResultFormat::Tsv); });
  }
  answer([&](std::ostream& out) { db->dump(out); });
  return all;
}

struct Tally {
  int flips = 0;
  int detected = 0;
};

int flipCount() {
  const char* count = std::getenv("GSPARQL_BIT_FLIPS");
  return count != nullptr ? std::atoi(count) : scaledCases(1200);
}

}  // namespace

TEST_CASE("single bits flipped in every file kind of a database are reported or change no answer") {
  TempDir dir;
  const auto pristine = loadDatabase(dir);
  const std::vector<Answer> expected = answers(pristine);
  REQUIRE(std::none_of(expected.begin(), expected.end(), [](const Answer& a) { return a.failed; }));
  const auto kinds = filesByKind(pristine);
  REQUIRE(kinds.size() >= 12);  // CURRENT, catalog, 2 adjacency, values, terms, delta, 5 of RocksDB's
  std::mt19937_64 random(45);
  std::map<std::string, Tally> tally;
  const auto damaged = dir / "damaged";
  const int flips = flipCount();
  for (int i = 0; i < flips; ++i) {
    // Kinds in turn, so that each gets its share however small its files.
    const auto& [kind, files] = *std::next(kinds.begin(), i % static_cast<int>(kinds.size()));
    const auto& file = files[random() % files.size()];
    const auto offset = static_cast<std::streamoff>(random() % std::filesystem::file_size(pristine / file));
    const auto bit = static_cast<unsigned char>(1u << random() % 8);
    const int bitValue = bit;
    CAPTURE(file);
    CAPTURE(offset);
    CAPTURE(bitValue);
    std::filesystem::remove_all(damaged);
    std::filesystem::copy(pristine, damaged, std::filesystem::copy_options::recursive);
    flipBits(damaged / file, offset, bit);
    Tally& counts = tally[kind];
    ++counts.flips;
    const std::vector<Answer> got = answers(damaged);
    bool detected = false;
    for (size_t q = 0; q < got.size(); ++q) {
      CAPTURE(q);
      if (got[q].failed) {
        CHECK_MESSAGE(namesFile(got[q].text, damaged / file), got[q].text);
        detected = true;
      } else {
        CHECK(got[q].text == expected[q].text);
      }
    }
    counts.detected += detected ? 1 : 0;
  }
  Tally total;
  for (const auto& [kind, counts] : tally) {
    MESSAGE(kind << ": " << counts.flips << " flips, " << counts.detected << " detected, "
                 << counts.flips - counts.detected << " without effect");
    total.flips += counts.flips;
    total.detected += counts.detected;
  }
  MESSAGE("all: " << total.flips << " flips, " << total.detected << " detected, " << total.flips - total.detected
                  << " without effect");
  CHECK(tally.size() == kinds.size());
}
