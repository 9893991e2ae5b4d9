// CONSTRUCT's template instantiated with each solution (section 16.2): a
// triple whose subject, predicate or graph name would be a term that cannot
// stand there, or whose variable is unbound, is left out; a blank node of the
// template is a new one per solution; the result is a set. The template is
// resolved once per query (engine/query/graph_forms.cpp), so these pin what
// resolving it must keep.
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "support/loaded_database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

const std::string kData =
    "<http://e/a> <http://e/p> \"lit\" .\n"
    "<http://e/a> <http://e/p> <http://e/b> .\n"
    "_:x <http://e/p> <http://e/c> .\n"
    "<http://e/d> <http://e/q> <http://e/a> .\n";

std::vector<std::string> triplesOf(const QueryResult& result) {
  std::vector<std::string> triples;
  result.forEachTriple([&](std::string_view s, std::string_view p, std::string_view o) {
    triples.push_back(std::string(s) + " " + std::string(p) + " " + std::string(o));
  });
  return triples;
}

// The triples with every blank node label written _:B, sorted.
std::vector<std::string> withoutLabels(std::vector<std::string> triples) {
  for (auto& t : triples) t = std::regex_replace(t, std::regex("_:[A-Za-z0-9_]+"), "_:B");
  std::sort(triples.begin(), triples.end());
  return triples;
}

}  // namespace

TEST_CASE("CONSTRUCT leaves out triples with a literal subject or predicate or an unbound variable, once each") {
  LoadedDatabase data(kData);
  const std::string query =
      "PREFIX e: <http://e/> CONSTRUCT { ?o e:r ?s . ?s ?o e:z . \"c\" e:r ?s . ?s e:k ?nowhere . ?s e:t ?o . "
      "?s e:same e:o } WHERE { ?s e:p ?o }";
  const QueryResult result = data.db->query(query);
  REQUIRE(result.isGraph());
  const std::vector<std::string> expected = {
      // ?o e:r ?s: "lit" as a subject is left out
      "<http://e/b> <http://e/r> <http://e/a>", "<http://e/c> <http://e/r> _:B",
      // ?s ?o e:z: "lit" as a predicate is left out
      "<http://e/a> <http://e/b> <http://e/z>", "_:B <http://e/c> <http://e/z>",
      // ?s e:t ?o: a literal object stays
      "<http://e/a> <http://e/t> \"lit\"", "<http://e/a> <http://e/t> <http://e/b>", "_:B <http://e/t> <http://e/c>",
      // ?s e:same e:o: <a> in two solutions, one triple
      "<http://e/a> <http://e/same> <http://e/o>", "_:B <http://e/same> <http://e/o>"};
  CHECK(withoutLabels(triplesOf(result)) == withoutLabels(expected));
  CHECK(result.tripleCount() == expected.size());
}

TEST_CASE("CONSTRUCT makes a template's blank node anew per solution, the same in all its triples") {
  LoadedDatabase data(kData);
  const QueryResult result =
      data.db->query("PREFIX e: <http://e/> CONSTRUCT { _:n e:of ?s . _:n e:to ?o . _:m e:of _:n } WHERE { ?s e:p ?o }");
  // per blank subject, what it points to by e:of and e:to
  std::map<std::string, std::map<std::string, std::string>> bySubject;
  for (const std::string& t : triplesOf(result)) {
    const size_t first = t.find(' '), second = t.find(' ', first + 1);
    REQUIRE(t.starts_with("_:"));
    bySubject[t.substr(0, first)][t.substr(first + 1, second - first - 1)] = t.substr(second + 1);
  }
  // three solutions: three _:n, each with both triples, and three _:m, each of one _:n
  std::set<std::string> ns, pairs, pointedTo;
  size_t ms = 0;
  for (const auto& [subject, edges] : bySubject) {
    if (edges.contains("<http://e/to>")) {
      ns.insert(subject);
      const std::string& of = edges.at("<http://e/of>");
      pairs.insert((of.starts_with("_:") ? "_:B" : of) + " " + edges.at("<http://e/to>"));
    } else {
      ++ms;
      CHECK(edges.size() == 1);
      pointedTo.insert(edges.begin()->second);
    }
  }
  CHECK(ns.size() == 3);
  CHECK(ms == 3);
  CHECK(pointedTo == ns);  // each _:m names its own solution's _:n
  CHECK(pairs == std::set<std::string>{"<http://e/a> \"lit\"", "<http://e/a> <http://e/b>", "_:B <http://e/c>"});
  CHECK(result.tripleCount() == 9);
}
