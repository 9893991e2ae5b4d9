#include <doctest/doctest.h>

#include <libstemmer.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <sstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gsparql/database.h"
#include "gsparql/error.h"
#include "support/loaded_database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

const std::string kPrefixes =
    "PREFIX text: <http://jena.apache.org/text#> PREFIX e: <http://e/> "
    "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";

// Literals of ASCII words between separators that are word boundaries both
// for Unicode (the index) and for PCRE's \b (the REGEX filters compared).
std::string randomGraph(std::mt19937& random, size_t subjects) {
  const std::vector<std::string> vocabulary = {"alpha", "Beta", "GAMMA", "delta", "alphabet", "al", "x1", "y_2"};
  const std::vector<std::string> separators = {" ", ", ", " - ", "; ", " (", ") "};
  const char* suffixes[] = {"", "@en", "^^<http://www.w3.org/2001/XMLSchema#string>"};
  std::string graph;
  auto literal = [&] {
    std::string text;
    for (size_t w = 0, n = random() % 5; w < n; ++w) {
      text += separators[random() % separators.size()] + vocabulary[random() % vocabulary.size()];
    }
    return "\"" + text + "\"" + suffixes[random() % 3];
  };
  for (size_t s = 0; s < subjects; ++s) {
    const std::string subject = "<http://e/s" + std::to_string(s) + ">";
    graph += subject + " <http://e/label> " + literal() + " .\n";
    if (random() % 2) graph += subject + " <http://e/comment> " + literal() + " .\n";
    graph += subject + " <http://e/type> <http://e/t" + std::to_string(random() % 4) + "> .\n";
    graph += subject + " <http://e/n> \"" + std::to_string(random() % 9) + "\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n";
  }
  return graph;
}

struct Fixture : LoadedDatabase {
  using LoadedDatabase::LoadedDatabase;
  std::vector<std::string> rows(const std::string& query) const { return cpuRows(kPrefixes + query); }
  // The error of a query that must fail.
  QueryError error(const std::string& query) const {
    try {
      rows(query);
    } catch (const QueryError& e) {
      return e;
    }
    FAIL("no error: " << query);
    return QueryError("");
  }
};

std::string word(const std::string& w) { return "REGEX(?l, \"\\\\b" + w + "\\\\b\", \"i\")"; }

// A search text and the filter that keeps the same literals.
struct Equivalent {
  std::string search;
  std::string filter;
};

std::vector<Equivalent> equivalents() {
  return {
      {"alpha", word("alpha")},
      {"BETA", word("beta")},
      {"al", word("al")},
      {"y_2", word("y_2")},
      {"alpha gamma", word("alpha") + " || " + word("gamma")},
      {"alpha OR delta x1", word("alpha") + " || " + word("delta") + " || " + word("x1")},
      {"alpha AND gamma", word("alpha") + " && " + word("gamma")},
      {"+beta +delta +al", word("beta") + " && " + word("delta") + " && " + word("al")},
      {"alpha -beta", word("alpha") + " && !" + word("beta")},
      {"(alpha OR beta) AND NOT gamma", "(" + word("alpha") + " || " + word("beta") + ") && !" + word("gamma")},
      {"\\\"alpha beta\\\"", "REGEX(?l, \"\\\\balpha\\\\W+beta\\\\b\", \"i\")"},
      {"\\\"gamma delta al\\\" OR x1", "REGEX(?l, \"\\\\bgamma\\\\W+delta\\\\W+al\\\\b\", \"i\") || " + word("x1")},
      {"alpha*", "REGEX(?l, \"\\\\balpha\", \"i\")"},
      {"a* -al", "REGEX(?l, \"\\\\ba\", \"i\") && !" + word("al")},
  };
}

}  // namespace

TEST_CASE("text:query gives the rows of the same search written as REGEX filters") {
  std::mt19937 random(11);
  Fixture f(randomGraph(random, 400));
  for (const auto& [search, filter] : equivalents()) {
    CAPTURE(search);
    CHECK(f.rows("SELECT ?s ?l { (?s ?score ?l) text:query (e:label \"" + search + "\") }") ==
          f.rows("SELECT ?s ?l { ?s e:label ?l FILTER(" + filter + ") }"));
    // No property: every literal of every predicate (numbers hold no such word).
    CHECK(f.rows("SELECT ?s { ?s text:query \"" + search + "\" }") ==
          f.rows("SELECT ?s { ?s ?p ?l FILTER(isLiteral(?l) && " + filter + ") }"));
    // Joined with the rest of the BGP, which the optimizer orders with it.
    CHECK(f.rows("SELECT ?s ?t ?c { ?s text:query (e:label \"" + search + "\") ; e:type ?t ; e:comment ?c }") ==
          f.rows("SELECT ?s ?t ?c { ?s e:label ?l ; e:type ?t ; e:comment ?c FILTER(" + filter + ") }"));
    CHECK(f.rows("SELECT (COUNT(*) AS ?n) { ?s text:query (e:label \"" + search + "\") . ?s e:type e:t1 }") ==
          f.rows("SELECT (COUNT(*) AS ?n) { ?s e:label ?l ; e:type e:t1 FILTER(" + filter + ") }"));
  }
}

TEST_CASE("text:query inside OPTIONAL, EXISTS, GRAPH and with the literal bound by the BGP too") {
  std::mt19937 random(12);
  Fixture f(randomGraph(random, 200));
  CHECK(f.rows("SELECT ?s ?l { ?s e:type e:t2 OPTIONAL { (?s ?score ?l) text:query (e:label \"gamma\") } }") ==
        f.rows("SELECT ?s ?l { ?s e:type e:t2 OPTIONAL { ?s e:label ?l FILTER(" + word("gamma") + ") } }"));
  CHECK(f.rows("SELECT ?s { ?s e:type e:t0 FILTER EXISTS { ?s text:query (e:label \"delta\") } }") ==
        f.rows("SELECT ?s { ?s e:type e:t0 FILTER EXISTS { ?s e:label ?l FILTER(" + word("delta") + ") } }"));
  CHECK(f.rows("SELECT ?s { ?s e:type e:t0 FILTER NOT EXISTS { ?s text:query (e:label \"delta\") } }") ==
        f.rows("SELECT ?s { ?s e:type e:t0 FILTER NOT EXISTS { ?s e:label ?l FILTER(" + word("delta") + ") } }"));
  CHECK(f.rows("SELECT ?s { GRAPH ?g { ?s text:query \"alpha\" } }") ==
        f.rows("SELECT ?s { GRAPH ?g { ?s ?p ?l FILTER(isLiteral(?l) && " + word("alpha") + ") } }"));
  // ?l is also the object of e:label: the rows where both agree.
  CHECK(f.rows("SELECT ?s ?l { (?s ?score ?l) text:query \"beta\" . ?s e:label ?l }") ==
        f.rows("SELECT ?s ?l { ?s e:label ?l FILTER(" + word("beta") + ") }"));
}

TEST_CASE("text:query scores rank the literals, and a limit keeps the best") {
  std::mt19937 random(13);
  Fixture f(randomGraph(random, 300));
  std::map<std::string, double> scores;
  QueryOptions options;
  options.backend = Backend::Cpu;
  const auto all = f.db->query(kPrefixes + "SELECT ?l ?score { (?s ?score ?l) text:query (e:label \"alpha gamma\") }",
                               options).rows();
  REQUIRE(all.size() > 10);
  for (const auto& row : all) {
    const std::string& score = *row[1];
    REQUIRE(score.ends_with("^^<http://www.w3.org/2001/XMLSchema#float>"));
    scores[*row[0]] = std::stod(score.substr(1));
    CHECK(scores[*row[0]] > 0);
  }
  const auto best = f.db->query(kPrefixes + "SELECT ?l { (?s ?score ?l) text:query (e:label \"alpha gamma\" 5) }",
                                options).rows();
  REQUIRE(best.size() == 5);
  double worstKept = 1e300;
  for (const auto& row : best) worstKept = std::min(worstKept, scores.at(*row[0]));
  for (const auto& [literal, score] : scores) {
    const bool kept = std::any_of(best.begin(), best.end(), [&](const auto& row) { return *row[0] == literal; });
    if (!kept) CHECK(score <= worstKept);
  }
  // A literal with both words outranks one with either, of the same length.
  Fixture g("<http://e/a> <http://e/label> \"alpha gamma\" .\n<http://e/b> <http://e/label> \"alpha delta\" .\n"
            "<http://e/c> <http://e/label> \"beta gamma\" .\n");
  CHECK(g.rows("SELECT ?s { (?s ?score) text:query (e:label \"alpha gamma\" 1) }") ==
        std::vector<std::string>{"<http://e/a>"});
}

TEST_CASE("text:query sees updates: new literals are found, deleted triples no longer join") {
  Fixture f("<http://e/a> <http://e/label> \"old words\" .\n");
  Database::update(f.dir / "db", "INSERT DATA { <http://e/b> <http://e/label> \"Brand new words\" }");
  Database db(f.dir / "db");
  auto rows = [&](const std::string& search) {
    return sortedLines(db.query(kPrefixes + "SELECT ?s { ?s text:query \"" + search + "\" }"));
  };
  CHECK(rows("words") == std::vector<std::string>{"<http://e/a>", "<http://e/b>"});
  CHECK(rows("brand") == std::vector<std::string>{"<http://e/b>"});
  Database::update(f.dir / "db", "DELETE DATA { <http://e/a> <http://e/label> \"old words\" }");
  Database after(f.dir / "db");
  CHECK(sortedLines(after.query(kPrefixes + "SELECT ?s { ?s text:query \"words\" }")) ==
        std::vector<std::string>{"<http://e/b>"});
}

TEST_CASE("malformed text:query patterns and search texts are errors with the pattern's position") {
  Fixture f("<http://e/a> <http://e/label> \"some words\" .\n");
  auto position = [&](const std::string& query) {
    const QueryError e = f.error(query);
    CHECK(std::string(e.what()).find("text:query at ") != std::string::npos);
    CHECK(e.line() > 0);
    return std::string(e.what());
  };
  CHECK(position("SELECT * {\n ?s text:query \"\" }").find("no word") != std::string::npos);
  CHECK(position("SELECT * { ?s text:query \"a \\\"b\" }").find("closing") != std::string::npos);
  CHECK(position("SELECT * { ?s text:query \"(a b\" }").find("')'") != std::string::npos);
  CHECK(position("SELECT * { ?s text:query \"-words\" }").find("only excludes") != std::string::npos);
  CHECK(position("SELECT * { ?s text:query 42 }").find("must be a string") != std::string::npos);
  CHECK(position("SELECT * { ?s text:query (e:label) }").find("must be a string") != std::string::npos);
  CHECK(position("SELECT * { ?s text:query (\"words\" 0) }").find("positive integer") != std::string::npos);
  CHECK(position("SELECT * { ?s text:query (\"words\" 2.5) }").find("positive integer") != std::string::npos);
  CHECK(position("SELECT * { ?s text:query (\"words\" 5 \"lang:en\" \"highlight:\") }").find("not supported") !=
        std::string::npos);
  for (const std::string option : {"lang:", "lang:-en", "lang:e n", "language:en", "highlight:s:<b>"}) {
    CHECK(position("SELECT * { ?s text:query (\"words\" \"" + option + "\") }").find("\"lang:TAG\"") != std::string::npos);
  }
  CHECK(position("SELECT * { (?s <http://e/x>) text:query \"words\" }").find("must be a variable") != std::string::npos);
  CHECK(position("SELECT * { (?s ?a ?b ?c) text:query \"words\" }").find("at most three") != std::string::npos);
  CHECK(position("SELECT * { ?s text:query \"" + std::string(20000, 'w') + "\" }").find("more than") != std::string::npos);
}

TEST_CASE("text:query over the merge of several FROM graphs is refused") {
  TempDir dir;
  writeFile(dir / "data.nq", "<http://e/a> <http://e/label> \"some words\" <http://e/g1> .\n"
                             "<http://e/b> <http://e/label> \"more words\" <http://e/g2> .\n");
  Database::load(dir / "db", {(dir / "data.nq").string()});
  Database db(dir / "db");
  CHECK(sortedLines(db.query(kPrefixes + "SELECT ?s FROM <http://e/g1> { ?s text:query \"words\" }")) ==
        std::vector<std::string>{"<http://e/a>"});
  CHECK_THROWS_WITH_AS(db.query(kPrefixes + "SELECT * FROM <http://e/g1> FROM <http://e/g2> { ?s text:query \"words\" }"),
                       doctest::Contains("several FROM graphs"), QueryError);
}

TEST_CASE("a database without a text index says to load it again") {
  Fixture f("<http://e/a> <http://e/label> \"some words\" .\n");
  f.db.reset();
  for (const auto& entry : std::filesystem::recursive_directory_iterator(f.dir / "db")) {
    if (entry.path().filename() == "text") std::filesystem::remove(entry.path());
  }
  Database db(f.dir / "db");
  CHECK(db.query("SELECT * { ?s ?p ?o }").rows().size() == 1);
  CHECK_THROWS_WITH_AS(db.query(kPrefixes + "SELECT * { ?s text:query \"words\" }"),
                       doctest::Contains("no text index"), QueryError);
}

TEST_CASE("a load can leave the text index out, and later loads keep the choice unless told") {
  TempDir dir;
  writeFile(dir / "a.nt", "<http://e/a> <http://e/label> \"some words\" .\n");
  writeFile(dir / "b.nt", "<http://e/b> <http://e/label> \"more words\" .\n");
  const auto db = dir / "db";
  LoadOptions without;
  without.textIndex = false;
  const LoadSummary first = Database::load(db, {(dir / "a.nt").string()}, without);
  CHECK(first.textIndexSeconds == 0);
  const std::string query = kPrefixes + "SELECT ?s { ?s text:query \"words\" }";
  CHECK_THROWS_WITH_AS(Database(db).query(query), doctest::Contains("no text index"), QueryError);
  Database::load(db, {(dir / "b.nt").string()});
  CHECK_THROWS_WITH_AS(Database(db).query(query), doctest::Contains("no text index"), QueryError);
  LoadOptions with;
  with.textIndex = true;
  writeFile(dir / "c.nt", "<http://e/c> <http://e/label> \"other\" .\n");
  Database::load(db, {(dir / "c.nt").string()}, with);
  CHECK(sortedLines(Database(db).query(query)) == std::vector<std::string>{"<http://e/a>", "<http://e/b>"});
  writeFile(dir / "d.nt", "<http://e/d> <http://e/label> \"last words\" .\n");
  Database::load(db, {(dir / "d.nt").string()});
  CHECK(sortedLines(Database(db).query(query)).size() == 3);
}

namespace {

// Literals mixing scripts, case and characters whose case mappings leave
// ASCII (İ, the Kelvin sign, ß, ſ), ASCII inside ideographic, Thai and
// apostrophe'd words, digits and underscores.
std::string mixedGraph(std::mt19937& random, size_t subjects) {
  const std::vector<std::string> vocabulary = {
      "İstanbul", "\u212Aelvin", "STRAẞE", "straße", "caféABC", "naïve", "東京abc", "abc東京", "กขabcฃ", "d'abc",
      "x_abc", "abc123", "ABC", "Abcd", "ſtar", "star", "o'clock", "ABCDEF", "xyzabc", "kelvin"};
  std::string graph;
  for (size_t s = 0; s < subjects; ++s) {
    std::string text;
    for (size_t w = 0, n = 1 + random() % 3; w < n; ++w) text += (w ? " " : "") + vocabulary[random() % vocabulary.size()];
    const char* suffixes[] = {"", "@tr", "^^<http://e/other>"};
    graph += "<http://e/s" + std::to_string(s) + "> <http://e/label> \"" + text + "\"" + suffixes[random() % 3] + " .\n";
    graph += "<http://e/s" + std::to_string(s) + "> <http://e/type> <http://e/t" + std::to_string(random() % 3) + "> .\n";
  }
  return graph;
}

}  // namespace

TEST_CASE("CONTAINS, STRSTARTS and REGEX narrowed through the text index keep every row") {
  std::mt19937 random(14);
  Fixture f(mixedGraph(random, 300));
  size_t narrowed = 0, nonEmpty = 0;
  for (const std::string part : {"abc", "ABC", "bcd", "tan", "ist", "kel", "elv", "vin", "str", "tar", "sse", "caf",
                                 "123", "c12", "clo", "xyz", "def", "nai"}) {
    for (const std::string form :
         {"CONTAINS(?l, \"%\")", "CONTAINS(LCASE(?l), \"%\")", "STRSTARTS(?l, \"%\")", "STRSTARTS(LCASE(?l), \"%\")",
          "REGEX(?l, \"%\")", "REGEX(LCASE(?l), \"^%\")", "REGEX(?l, \"%$\", \"s\")", "REGEX(?l, \"%\", \"i\")"}) {
      std::string condition = form;
      condition.replace(condition.find('%'), 1, part);
      // CONCAT(?l) is ?l for every string literal and an error for the rest, as ?l is to CONTAINS; it is not narrowed.
      std::string plain = condition;
      plain.replace(plain.find("?l"), 2, "CONCAT(?l)");
      CAPTURE(condition);
      const std::string query = "SELECT ?s ?l { ?s e:label ?l ; e:type ?t FILTER(%) }";
      auto with = [&](const std::string& c) {
        std::string q = query;
        return q.replace(q.find('%'), 1, c);
      };
      const auto rows = f.rows(with(condition));
      CHECK(rows == f.rows(with(plain)));
      nonEmpty += !rows.empty();
      QueryOptions options;
      options.backend = Backend::Cpu;
      options.explain = true;
      const bool limited = f.db->query(kPrefixes + with(condition), options).explain().find("constants") != std::string::npos;
      if (form.find("\"i\"") != std::string::npos) CHECK_FALSE(limited);  // "ſ" matches "s" without case
      narrowed += limited;
    }
  }
  CHECK(narrowed >= 70);
  CHECK(nonEmpty >= 72);  // of 144: STRSTARTS and ^ of a part inside words find none
}

namespace {

// Snowball's stem of `word` in `language` (libstemmer called here, apart
// from the engine's own use of it); the word itself where Snowball has no
// stemmer for the language.
std::string snowballStem(const std::string& language, const std::string& word) {
  std::unique_ptr<sb_stemmer, void (*)(sb_stemmer*)> stemmer(sb_stemmer_new(language.c_str(), "UTF_8"), sb_stemmer_delete);
  if (!stemmer) return word;
  const sb_symbol* stem = sb_stemmer_stem(stemmer.get(), reinterpret_cast<const sb_symbol*>(word.data()), int(word.size()));
  return {reinterpret_cast<const char*>(stem), size_t(sb_stemmer_length(stemmer.get()))};
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

struct TaggedLiteral {
  std::string subject, text, tag;  // tag empty: a plain literal
  std::vector<std::string> words() const {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(lower(w));
    return out;
  }
  std::string row() const { return subject + "\t\"" + text + "\"" + (tag.empty() ? "" : "@" + tag); }
};

}  // namespace

TEST_CASE("text:query with lang:TAG keeps that tag's literals and matches words by their Snowball stems, phrases too") {
  const std::vector<std::string> vocabulary = {"run",     "runs",      "running",  "runner", "connection", "connected",
                                               "connect", "happiness", "happy",    "dog",    "dogs",       "fly",
                                               "flies",   "häuser",    "haus",     "äpfel",  "apfel",      "laufen",
                                               "läuft",   "chanter",   "chantons", "Dogs",   "RUNNING"};
  const std::vector<std::string> tags = {"en", "EN-gb", "de", "fr", "xx", ""};  // xx: no stemmer; "": no tag
  std::mt19937 random(31);
  std::vector<TaggedLiteral> literals;
  std::string data;
  for (int i = 0; i < 300; ++i) {
    TaggedLiteral l{"<http://e/s" + std::to_string(i) + ">", "", tags[random() % tags.size()]};
    for (size_t w = 0, n = 1 + random() % 4; w < n; ++w) l.text += (w ? " " : "") + vocabulary[random() % vocabulary.size()];
    data += l.subject + " <http://e/label> \"" + l.text + "\"" + (l.tag.empty() ? "" : "@" + l.tag) + " .\n";
    literals.push_back(std::move(l));
  }
  Fixture f(data);
  int stemmedMatches = 0;
  for (const std::string language : {"en", "en-GB", "de", "fr", "xx"}) {
    const std::string algorithm = lower(language.substr(0, 2));
    for (const std::vector<std::string>& search : std::vector<std::vector<std::string>>{
             {"run"}, {"connecting"}, {"happy"}, {"dog"}, {"flying"}, {"haus"}, {"apfel"}, {"läuft"}, {"chante"},
             {"running", "dogs"}, {"happy", "run"}}) {
      std::vector<std::string> stems;
      for (const std::string& w : search) stems.push_back(snowballStem(algorithm, w));
      std::vector<std::string> expected;
      for (const TaggedLiteral& l : literals) {
        if (lower(l.tag) != lower(language)) continue;
        std::vector<std::string> held;
        for (const std::string& w : l.words()) held.push_back(snowballStem(algorithm, w));
        if (std::search(held.begin(), held.end(), stems.begin(), stems.end()) != held.end()) expected.push_back(l.row());
      }
      std::sort(expected.begin(), expected.end());
      std::string text = search[0];
      for (size_t i = 1; i < search.size(); ++i) text += " " + search[i];
      if (search.size() > 1) text = "\\\"" + text + "\\\"";  // a phrase
      const std::string query =
          "SELECT ?s ?l WHERE { (?s ?score ?l) text:query (e:label \"" + text + "\" \"lang:" + language + "\") }";
      CAPTURE(query);
      CHECK(f.rows(query) == expected);
      stemmedMatches += static_cast<int>(expected.size());
    }
  }
  CHECK(stemmedMatches > 100);
  // Without lang:, no stemming and every tag: "run" is only the word itself.
  std::vector<std::string> exact;
  for (const TaggedLiteral& l : literals) {
    const auto words = l.words();
    if (std::find(words.begin(), words.end(), "run") != words.end()) exact.push_back(l.row());
  }
  std::sort(exact.begin(), exact.end());
  CHECK(f.rows("SELECT ?s ?l WHERE { (?s ?score ?l) text:query (e:label \"run\") }") == exact);
  // A limit counts the literals of the language only.
  CHECK(f.rows("SELECT ?s WHERE { ?s text:query (e:label \"dog\" 3 \"lang:en\") }").size() == 3);
}

TEST_CASE("searches in several languages at once, from many threads, give each search's rows") {
  std::string data;
  const std::vector<std::pair<std::string, std::string>> labels = {
      {"running dogs", "en"}, {"the runner runs", "en"}, {"laufende Hunde", "de"}, {"der Hund läuft", "de"},
      {"chiens courants", "fr"}, {"le chien court", "fr"}, {"perros corriendo", "es"}, {"el perro corre", "es"}};
  for (int i = 0; i < 400; ++i) {
    const auto& [text, tag] = labels[i % labels.size()];
    data += "<http://e/s" + std::to_string(i) + "> <http://e/label> \"" + text + " " + std::to_string(i) + "\"@" + tag + " .\n";
  }
  Fixture f(data);
  const std::vector<std::string> queries = {
      "SELECT ?s WHERE { ?s text:query (e:label \"run\" \"lang:en\") }",
      "SELECT ?s WHERE { ?s text:query (e:label \"Hunde\" \"lang:de\") }",
      "SELECT ?s WHERE { ?s text:query (e:label \"chien\" \"lang:fr\") }",
      "SELECT ?s WHERE { ?s text:query (e:label \"perro\" \"lang:es\") }"};
  std::vector<std::vector<std::string>> alone;
  for (const std::string& q : queries) alone.push_back(f.rows(q));
  for (const auto& rows : alone) CHECK(rows.size() == 100);  // every literal of its language, by its stem
  std::vector<std::vector<std::string>> together(16 * queries.size());
  std::vector<std::thread> threads;
  for (size_t t = 0; t < together.size(); ++t) {
    threads.emplace_back([&, t] { together[t] = f.rows(queries[t % queries.size()]); });
  }
  for (std::thread& t : threads) t.join();
  for (size_t t = 0; t < together.size(); ++t) {
    CAPTURE(t);
    CHECK(together[t] == alone[t % queries.size()]);
  }
}

TEST_CASE("a FILTER on a text search's score, or on a BIND of it, keeps the rows whose score passes") {
  // engine/planner/value_narrowing.h reads conditions through BINDs, but not
  // through the score's own: the planner's function, which no expression evaluates.
  // Five literals on 3,000 subjects: rows enough a literal to narrow, were the score read through.
  const std::vector<std::string> labels = {"alpha beta", "alpha", "beta gamma alpha", "gamma", "alpha alpha delta"};
  std::string graph;
  for (size_t s = 0; s < 3000; ++s) {
    graph += "<http://e/s" + std::to_string(s) + "> <http://e/label> \"" + labels[s % labels.size()] + "\" .\n";
  }
  Fixture f(graph);
  const std::string search = "(?s ?score ?l) text:query (e:label \"alpha\")";
  const auto all = f.rows("SELECT ?s ?l { " + search + " }");
  REQUIRE(!all.empty());
  CHECK(f.rows("SELECT ?s ?l { " + search + " FILTER(?score > 0) }") == all);
  CHECK(f.rows("SELECT ?s ?l { " + search + " BIND(?score * 2 AS ?d) FILTER(?d > 0) }") == all);
  CHECK(f.rows("SELECT ?s ?l { " + search + " BIND(?score * 2 AS ?d) FILTER(?d < 0) }").empty());
}
