#include "support/random_bgp.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "gsparql/database.h"
#include "support/test_support.h"

namespace gsparql::test {
namespace {

const std::vector<std::string> kVertices = {"<http://e/a>", "<http://e/b>", "<http://e/c>", "<http://e/d>",
                                            "<http://e/p0>", "\"x\"", "\"y\"@en"};
const std::vector<std::string> kPredicates = {"<http://e/p0>", "<http://e/p1>", "<http://e/p2>"};

bool isVariable(const std::string& t) { return t[0] == '?' || t[0] == '_'; }

std::string pick(std::mt19937& random, const std::vector<std::string>& from) {
  return from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(random)];
}

std::string randomNode(std::mt19937& random, bool subject) {
  switch (std::uniform_int_distribution<int>(0, 9)(random)) {
    case 0: return subject ? "<http://e/a>" : "\"x\"";
    case 1: return "<http://e/absent>";
    case 2: return "_:n";
    default: return pick(random, {"?a", "?b", "?c", "?d"});
  }
}

std::string randomPredicate(std::mt19937& random) {
  switch (std::uniform_int_distribution<int>(0, 9)(random)) {
    case 0: return "?p";
    case 1: return "?a";  // a variable in predicate and vertex positions
    case 2: return "<http://e/absent>";
    default: return pick(random, kPredicates);
  }
}

}  // namespace

RandomCase randomCase(std::mt19937& random) {
  RandomCase c;
  const int triples = std::uniform_int_distribution<int>(8, 30)(random);
  for (int i = 0; i < triples; ++i) {
    std::string s = pick(random, {"<http://e/a>", "<http://e/b>", "<http://e/c>", "<http://e/d>", "<http://e/p0>"});
    c.graph.push_back({s, pick(random, kPredicates), pick(random, kVertices)});
  }
  const int patterns = std::uniform_int_distribution<int>(1, 4)(random);
  for (int i = 0; i < patterns; ++i) {
    c.patterns.push_back({randomNode(random, true), randomPredicate(random), randomNode(random, false)});
    if (c.patterns.back().o[0] == '"' && c.patterns.back().s == c.patterns.back().o) c.patterns.back().s = "?a";
  }
  c.query = "SELECT * WHERE {";
  for (const auto& t : c.patterns) {
    c.query += " " + t.s + " " + t.p + " " + t.o + " .";
    for (const auto* term : {&t.s, &t.p, &t.o}) {
      if ((*term)[0] == '?' && std::find(c.variables.begin(), c.variables.end(), term->substr(1)) == c.variables.end()) {
        c.variables.push_back(term->substr(1));
      }
    }
  }
  c.query += " }";
  return c;
}

std::string randomVertexVariable(const RandomCase& c, std::mt19937& random) {
  std::vector<std::string> vertexVariables;
  for (const std::string& v : c.variables) {
    const std::string name = "?" + v;
    const bool predicate = std::any_of(c.patterns.begin(), c.patterns.end(), [&](const auto& t) { return t.p == name; });
    if (!predicate) vertexVariables.push_back(v);
  }
  return vertexVariables.empty() ? "" : pick(random, vertexVariables);
}

std::vector<std::string> randomVertexTerms(std::mt19937& random) {
  std::vector<std::string> terms = kVertices;
  terms.push_back("<http://e/absent>");
  std::shuffle(terms.begin(), terms.end(), random);
  terms.resize(std::uniform_int_distribution<size_t>(2, 4)(random));
  return terms;
}

std::string withValues(const RandomCase& c, const std::string& variable, const std::vector<std::string>& values) {
  std::string clause = " VALUES ?" + variable + " {";
  for (const std::string& v : values) clause += " " + v;
  return c.query.substr(0, c.query.rfind('}')) + clause + " } }";
}

std::filesystem::path loadGraph(const std::filesystem::path& dir, const std::vector<StringTriple>& graph) {
  writeFile(dir / "g.nt", toNTriples(graph));
  Database::load(dir / "db", {(dir / "g.nt").string()});
  return dir / "db";
}

std::string toNTriples(const std::vector<StringTriple>& graph) {
  std::string out;
  for (const auto& t : graph) out += t.s + " " + t.p + " " + t.o + " .\n";
  return out;
}

std::string toNQuads(const std::vector<std::vector<StringTriple>>& graphs, const std::vector<std::string>& names) {
  std::string text = toNTriples(graphs.at(0));
  for (size_t g = 1; g < graphs.size(); ++g) {
    for (const auto& t : graphs[g]) text += t.s + " " + t.p + " " + t.o + " " + names.at(g - 1) + " .\n";
  }
  return text;
}

std::vector<std::string> bruteForce(const RandomCase& c, const std::vector<std::string>& variables, bool injective) {
  std::set<std::tuple<std::string, std::string, std::string>> graph;
  std::set<std::string> domain;
  for (const auto& t : c.graph) {
    graph.insert({t.s, t.p, t.o});
    domain.insert({t.s, t.p, t.o});
  }
  std::vector<std::string> unknowns;  // variables and blank nodes of the patterns
  for (const auto& t : c.patterns) {
    for (const auto* term : {&t.s, &t.p, &t.o}) {
      if (isVariable(*term) && std::find(unknowns.begin(), unknowns.end(), *term) == unknowns.end()) {
        unknowns.push_back(*term);
      }
    }
  }
  std::vector<std::string> values(domain.begin(), domain.end());
  std::map<std::string, std::string> binding;
  std::vector<std::string> rows;
  auto valueOf = [&](const std::string& t) { return isVariable(t) ? binding[t] : t; };
  std::function<void(size_t)> assign = [&](size_t i) {
    if (i < unknowns.size()) {
      for (const auto& v : values) {
        binding[unknowns[i]] = v;
        assign(i + 1);
      }
      return;
    }
    for (const auto& t : c.patterns) {
      if (!graph.count({valueOf(t.s), valueOf(t.p), valueOf(t.o)})) return;
    }
    if (injective) {
      std::map<std::string, std::string> vertexOf;  // query vertex -> term
      for (const auto& t : c.patterns) {
        for (const auto* term : {&t.s, &t.o}) vertexOf[*term] = valueOf(*term);
      }
      std::set<std::string> distinct;
      for (const auto& [query, term] : vertexOf) distinct.insert(term);
      if (distinct.size() != vertexOf.size()) return;
    }
    std::string row;
    for (size_t k = 0; k < variables.size(); ++k) row += (k ? "\t" : "") + binding["?" + variables[k]];
    rows.push_back(row);
  };
  assign(0);
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace gsparql::test
