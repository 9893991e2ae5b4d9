// FILTER comparisons and ORDER BY read the value column (storage/value_column.h)
// instead of decoding terms: the answers must be exactly those of the same
// database without its value column, where every row is decoded.
#include <doctest/doctest.h>

#include <filesystem>
#include <random>

#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// Numbers of every numeric type (ties across types, ill-typed and special
// values), dates with and without timezones, and terms that are no numbers.
std::string literalOf(std::mt19937& random) {
  const std::string xsd = "<http://www.w3.org/2001/XMLSchema#";
  const int n = static_cast<int>(random() % 40) - 20;
  switch (random() % 10) {
    case 0: return "\"" + std::to_string(n) + "\"^^" + xsd + "integer>";
    case 1: return "\"" + std::to_string(n) + ".5\"^^" + xsd + "decimal>";
    case 2: return "\"" + std::to_string(n) + ".0\"^^" + xsd + "decimal>";
    case 3: return "\"" + std::to_string(n) + "e0\"^^" + xsd + "double>";
    case 4: return "\"0" + std::to_string(std::abs(n)) + "\"^^" + xsd + "int>";
    case 5: return "\"2020-01-" + std::to_string(10 + std::abs(n) % 18) + "T10:00:00Z\"^^" + xsd + "dateTime>";
    case 6: return "\"2020-01-" + std::to_string(10 + std::abs(n) % 18) + "T10:00:00\"^^" + xsd + "dateTime>";
    case 7: return "\"NaN\"^^" + xsd + "double>";
    case 8: return "\"x" + std::to_string(n) + "\"^^" + xsd + "integer>";
    default: return "\"" + std::to_string(n) + "\"";
  }
}

std::vector<std::vector<std::optional<std::string>>> answer(const std::filesystem::path& db, const std::string& q) {
  QueryOptions options;
  options.backend = Backend::Cpu;
  return Database(db).query(q, options).rows();
}

}  // namespace

TEST_CASE("comparisons and ORDER BY on the value column give the answers of decoded terms") {
  TempDir dir;
  std::mt19937 random(11);
  std::string data;
  for (int s = 0; s < 400; ++s) {
    data += "<http://e/s" + std::to_string(s) + "> <http://e/v> " + literalOf(random) + " .\n";
  }
  writeFile(dir / "data.nt", data);
  Database::load(dir / "with", {(dir / "data.nt").string()});
  Database::load(dir / "without", {(dir / "data.nt").string()});
  size_t removed = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir / "without")) {
    if (e.path().filename() == "values") removed += std::filesystem::remove(e.path());
  }
  REQUIRE(removed == 1);

  const std::string x = "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";
  for (const std::string& q : {
           x + "SELECT ?s ?v WHERE { ?s <http://e/v> ?v FILTER(?v > 3) } ORDER BY ?s",
           x + "SELECT ?s ?v WHERE { ?s <http://e/v> ?v FILTER(2.5 >= ?v) } ORDER BY ?s",
           x + "SELECT ?s ?v WHERE { ?s <http://e/v> ?v FILTER(?v = 4) } ORDER BY ?s",
           x + "SELECT ?s ?v WHERE { ?s <http://e/v> ?v FILTER(?v != 4.0) } ORDER BY ?s",
           x + "SELECT ?s ?v WHERE { ?s <http://e/v> ?v FILTER(?v < \"2020-01-15T00:00:00Z\"^^xsd:dateTime) } ORDER BY ?s",
           x + "SELECT ?s ?v WHERE { ?s <http://e/v> ?v } ORDER BY ?v ?s",
           x + "SELECT ?s ?v WHERE { ?s <http://e/v> ?v } ORDER BY DESC(?v) ?s",
       }) {
    CAPTURE(q);
    const auto fast = answer(dir / "with", q);
    CHECK(fast == answer(dir / "without", q));
    CHECK(!fast.empty());
  }
}

namespace {

// Each condition's rows, decided on the term's text where it can be, and by
// the evaluator alone (`|| false` keeps a condition off the text).
void checkDecidedOnText(const std::vector<std::string>& conditions) {
  TempDir dir;
  const std::vector<std::string> objects = {
      "\"abc\"", "\"\"", "\"abc\"@en", "\"abc\"^^<http://www.w3.org/2001/XMLSchema#string>", "\"a\\\"b\"",
      "\"a\\\\b\"", "\"line\\nbreak\"", "<http://e/abc>", "_:abc", "\"3\"^^<http://www.w3.org/2001/XMLSchema#integer>",
      "\"abc\"^^<http://e/type>", "\"ABC\"", "\"abc \"", "\"\u00e4bc\"@de", "\"cab\"@en--ltr",
      "<<( <http://e/a> <http://e/b> \"abc\" )>>"};
  std::string data;
  for (size_t s = 0; s < 640; ++s) {
    data += "<http://e/s" + std::to_string(s) + "> <http://e/v> " + objects[s % objects.size()] + " .\n";
  }
  writeFile(dir / "data.nt", data);
  Database::load(dir / "db", {(dir / "data.nt").string()});
  for (const std::string& condition : conditions) {
    CAPTURE(condition);
    const std::string pattern = "SELECT ?s ?v WHERE { ?s <http://e/v> ?v OPTIONAL { ?s <http://e/w> ?w } FILTER(";
    const auto fast = answer(dir / "db", pattern + condition + ") } ORDER BY ?s");
    CHECK(fast == answer(dir / "db", pattern + "(" + condition + ") || false) } ORDER BY ?s"));
    CHECK(!fast.empty());
  }
}

}  // namespace

TEST_CASE("= and != with a simple literal, decided on the term's text, give the evaluator's answers") {
  checkDecidedOnText({"?v = \"abc\"", "?v != \"\"", "\"\" = ?v", "?v != \"abc\"", "?v = \"a\\\"b\"",
                      "?v = \"abc\"@en", "?v != \"line\\nbreak\""});
}

TEST_CASE("STRSTARTS, STRENDS and CONTAINS with a simple literal, decided on the term's text, give the evaluator's answers") {
  checkDecidedOnText({"STRSTARTS(?v, \"a\")", "strstarts(?v, \"ab\")", "STRENDS(?v, \"c\")", "STRENDS(?v, \"bc \")",
                      "CONTAINS(?v, \"b\")", "CONTAINS(?v, \"\")", "STRSTARTS(?v, \"\u00e4\")",
                      "CONTAINS(?v, \"a\"@en)", "STRSTARTS(?v, \"a\\\"\")", "STRENDS(?v, \"\")"});
}
