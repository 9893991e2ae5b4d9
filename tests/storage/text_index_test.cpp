#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "gsparql/error.h"
#include "storage/graph_store.h"
#include "storage/text_index.h"
#include "storage/text_words.h"
#include "file_damage.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

std::vector<std::string> words(std::string_view text) {
  WordSplitter splitter;
  return splitter.split(text);
}

// Random string literals over a small vocabulary, in upper and lower case,
// between separators that are word boundaries; beside them terms the index
// leaves out (IRIs, numbers, other datatypes).
std::string randomGraph(std::mt19937& random, size_t subjects) {
  const std::vector<std::string> vocabulary = {"alpha", "Beta", "GAMMA", "delta", "alphabet", "al", "béta", "x1", "y_2"};
  const std::vector<std::string> separators = {" ", ", ", " - ", "; ", "  (", ") "};
  std::string graph;
  for (size_t s = 0; s < subjects; ++s) {
    std::string text;
    for (size_t w = 0, n = random() % 6; w < n; ++w) {
      text += vocabulary[random() % vocabulary.size()] + separators[random() % separators.size()];
    }
    const std::string subject = "<http://e/s" + std::to_string(s) + ">";
    const char* suffixes[] = {"", "@en", "^^<http://www.w3.org/2001/XMLSchema#string>", "^^<http://e/other>"};
    graph += subject + " <http://e/label> \"" + text + "\"" + suffixes[random() % 4] + " .\n";
    graph += subject + " <http://e/n> \"" + std::to_string(random() % 50) + "\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n";
  }
  return graph;
}

// The postings of every word, found by splitting every vertex term.
std::map<std::string, std::vector<uint32_t>> bruteForce(const GraphStore& store) {
  std::map<std::string, std::set<uint32_t>> holders;
  WordSplitter splitter;
  rdf::TermSplitter terms;
  for (uint32_t id = 0; id < store.terms()->size(); ++id) {
    std::string_view text;
    if (!indexedText(store.terms()->term(id), terms, text)) continue;
    for (const std::string& w : splitter.split(text)) holders[w].insert(id);
  }
  std::map<std::string, std::vector<uint32_t>> out;
  for (auto& [w, ids] : holders) out[w].assign(ids.begin(), ids.end());
  return out;
}

std::vector<uint32_t> literalsOf(const std::vector<TextPosting>& postings) {
  std::vector<uint32_t> out;
  for (const TextPosting& p : postings) out.push_back(p.literal);
  return out;
}

void checkAgainstBruteForce(const GraphStore& store) {
  REQUIRE(store.text() != nullptr);
  const auto expected = bruteForce(store);
  for (const auto& [word, ids] : expected) {
    CAPTURE(word);
    CHECK(literalsOf(store.text()->postings(word)) == ids);
    std::vector<std::string> withPrefix, expectedWithPrefix;
    const std::string prefix = word.substr(0, 2);
    store.text()->forEachWordStartingWith(prefix, [&](std::string_view w) { withPrefix.emplace_back(w); });
    for (const auto& [w, unused] : expected) {
      if (w.starts_with(prefix)) expectedWithPrefix.push_back(w);
    }
    CHECK(withPrefix == expectedWithPrefix);
  }
  CHECK(store.text()->postings("absent").empty());
}

}  // namespace

TEST_CASE("words are split at Unicode word boundaries and lower-cased, as Lucene's StandardAnalyzer does") {
  CHECK(words("The quick-brown FOX, 42 jumps!") == std::vector<std::string>{"the", "quick", "brown", "fox", "42", "jumps"});
  // Apostrophes and periods between letters or digits keep a word whole (UAX #29).
  CHECK(words("Müller's 3.14 e.g. ÉCOLE Straße") ==
        std::vector<std::string>{"müller's", "3.14", "e.g", "école", "straße"});
  CHECK(words("snake_case x2 ...  ") == std::vector<std::string>{"snake_case", "x2"});
  CHECK(words("").empty());
  CHECK(words("!?; --").empty());
  // Invalid UTF-8 is never part of a word.
  CHECK(words("ab\xff\xfe" "cd") == std::vector<std::string>{"ab", "cd"});
}

TEST_CASE("only simple, xsd:string and language-tagged literals are indexed") {
  rdf::TermSplitter terms;
  std::string_view text;
  CHECK(indexedText("\"plain\"", terms, text));
  CHECK(text == "plain");
  CHECK(indexedText("\"hallo\"@de", terms, text));
  CHECK(!indexedText("\"42\"^^<http://www.w3.org/2001/XMLSchema#integer>", terms, text));
  CHECK(!indexedText("<http://e/iri>", terms, text));
  CHECK(!indexedText("_:b1", terms, text));
}

TEST_CASE("the text index holds every word of every string literal, also after an incremental load and an update") {
  std::mt19937 random(7);
  TempDir dir;
  const auto db = dir / "db";
  writeFile(dir / "a.nt", randomGraph(random, 300));
  Database::load(db, {(dir / "a.nt").string()});
  checkAgainstBruteForce(GraphStore(db));

  // Kept apart from the first's literals: new ids for new words and new literals.
  writeFile(dir / "b.nt", randomGraph(random, 200) + "<http://e/z> <http://e/label> \"zeta alpha\" .\n");
  Database::load(db, {(dir / "b.nt").string()});
  checkAgainstBruteForce(GraphStore(db));

  Database::update(db, R"(INSERT DATA { <http://e/u> <http://e/label> "Omega alpha, brand-new words" })");
  GraphStore updated(db);
  CHECK(updated.deltaFiles() == 1);
  checkAgainstBruteForce(updated);
  CHECK(updated.text()->postings("omega").size() == 1);
  CHECK(updated.text()->literals() == GraphStore(db).text()->literals());
}

TEST_CASE("scores' inputs: counts of a word in a literal and the literal's length") {
  TempDir dir;
  writeFile(dir / "a.nt", "<http://e/a> <http://e/p> \"to be or not to be\" .\n<http://e/b> <http://e/p> \"be\" .\n");
  Database::load(dir / "db", {(dir / "a.nt").string()});
  GraphStore store(dir / "db");
  const auto postings = store.text()->postings("be");
  REQUIRE(postings.size() == 2);
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> seen;  // length -> (count, length)
  for (const TextPosting& p : postings) seen[p.length] = {p.count, p.length};
  CHECK(seen.at(6) == std::pair<uint32_t, uint32_t>{2, 6});
  CHECK(seen.at(1) == std::pair<uint32_t, uint32_t>{1, 1});
  CHECK(store.text()->literals() == 2);
  CHECK(store.text()->averageLength() == doctest::Approx(3.5));
}

TEST_CASE("a damaged text index is reported when it is first searched and by verify, never searched") {
  TempDir dir;
  writeFile(dir / "a.nt", "<http://e/a> <http://e/p> \"some words to find\" .\n");
  const auto db = dir / "db";
  Database::load(db, {(dir / "a.nt").string()});
  const auto file = GraphStore(db).generation().dir / kTextFile;
  const auto size = static_cast<std::streamoff>(std::filesystem::file_size(file));
  for (std::streamoff offset : {std::streamoff{70}, size / 2, size - 1}) {
    CAPTURE(offset);
    flipBits(file, offset);
    GraphStore store(db);
    CHECK_THROWS_AS(store.text()->postings("words"), StorageError);
    CHECK_THROWS_AS(store.verify(), StorageError);
    flipBits(file, offset);
  }
  flipBits(file, 20);  // the header: refused at opening
  CHECK_THROWS_AS(GraphStore{db}, StorageError);
  flipBits(file, 20);
  std::filesystem::resize_file(file, static_cast<uintmax_t>(size - 4));
  CHECK_THROWS_AS(GraphStore{db}, StorageError);
}
