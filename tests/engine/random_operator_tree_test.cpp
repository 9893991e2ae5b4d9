// Random queries with OPTIONAL, UNION, MINUS, FILTER, BIND, VALUES and
// subqueries nested up to depth 3, over small random graphs: the engine (CPU
// backend) must give the same bag of solutions as the reference evaluator
// (tests/support/reference_evaluator.h), which implements the algebra's
// definitions literally. Variables are shared across branches so that
// unbound values, compatibility and MINUS's disjoint-domain rule matter.
// On a mismatch the report names the seed, the query, its algebra, the data
// (shrunk to the triples the mismatch needs) and both results.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <sstream>

#include "gsparql/database.h"
#include "parser/parse.h"
#include "parser/print.h"
#include "support/random_bgp.h"
#include "support/reference_evaluator.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

using sparql::Op;

const std::string kInteger = "<http://www.w3.org/2001/XMLSchema#integer>";

std::string integerTerm(int v) { return "\"" + std::to_string(v) + "\"^^" + kInteger; }

const std::vector<std::string> kSubjects = {"<http://e/v0>", "<http://e/v1>", "<http://e/v2>", "<http://e/v3>",
                                            "<http://e/v4>"};
const std::vector<std::string> kPredicates = {"<http://e/p0>", "<http://e/p1>", "<http://e/p2>"};

std::vector<std::string> objectTerms() {
  std::vector<std::string> terms = kSubjects;
  for (int i = 0; i < 4; ++i) terms.push_back(integerTerm(i));
  // simple literals, the empty one among them (= and != on them are decided on their text), a tagged one
  for (const char* literal : {"\"s\"", "\"t\"", "\"\"", "\"s\"@en"}) terms.push_back(literal);
  return terms;
}

class Generator {
 public:
  // `exists`: FILTERs are also (NOT) EXISTS over groups of triples, filters
  // (reading outer variables too), nested groups and unions.
  Generator(std::mt19937& random, bool exists) : random_(random), exists_(exists) {}

  std::vector<StringTriple> graph() {
    std::vector<StringTriple> triples;
    const int n = uniform(6, 22);
    const auto objects = objectTerms();
    for (int i = 0; i < n; ++i) triples.push_back({pick(kSubjects), pick(kPredicates), pick(objects)});
    return triples;
  }

  std::string query() {
    std::string q = "SELECT ";
    if (chance(20)) q += "DISTINCT ";
    std::vector<std::string> selected;
    if (chance(50)) {
      q += "*";
      selected = {"a", "b", "c", "d"};
    } else {
      for (const char* v : {"a", "b", "c", "d", "e", "f"}) {
        if (chance(45)) selected.push_back(v);
      }
      if (selected.empty()) selected.push_back("a");
      for (const auto& v : selected) q += "?" + v + " ";
    }
    q += " WHERE " + group(uniform(1, 3));
    if (chance(25)) {
      q += " ORDER BY";
      const int keys = uniform(1, 2);
      for (int i = 0; i < keys; ++i) q += std::string(chance(50) ? " DESC(?" : " ASC(?") + pick(selected) + ")";
    }
    if (chance(20)) q += " LIMIT " + std::to_string(uniform(0, 6));
    if (chance(10)) q += " OFFSET " + std::to_string(uniform(1, 3));
    return q;
  }

 private:
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random_); }
  bool chance(int percent) { return uniform(0, 99) < percent; }
  std::string pick(const std::vector<std::string>& from) {
    return from[static_cast<size_t>(uniform(0, static_cast<int>(from.size()) - 1))];
  }

  // Pattern variables; ?e and ?f are what BIND and VALUES mostly bind.
  std::string variable() { return "?" + pick({"a", "b", "c", "d"}); }
  std::string anyVariable() { return "?" + pick({"a", "b", "c", "d", "e", "f"}); }
  std::string constant() { return chance(50) ? pick(kSubjects) : pick(objectTerms()); }
  std::string number() { return std::to_string(uniform(0, 4)); }

  std::string triple() {
    std::string s = chance(80) ? variable() : pick(kSubjects);
    std::string p = chance(92) ? pick(kPredicates) : "?p";
    std::string o = chance(70) ? variable() : chance(50) ? pick(kSubjects) : number();
    return s + " " + p + " " + o;
  }

  std::string comparison() {
    static const std::vector<std::string> ops = {"=", "!=", "<", ">", "<=", ">="};
    switch (uniform(0, 9)) {
      case 7: return "sameTerm(" + anyVariable() + ", " + constant() + ")";  // folded into a BGP
      case 8:
      case 9: {  // IN lists of IRIs are folded into a BGP, one scan per IRI
        std::string list = anyVariable() + (chance(25) ? " NOT IN (" : " IN (");
        const int n = uniform(1, 3);
        for (int i = 0; i < n; ++i) list += (i ? ", " : "") + (chance(80) ? pick(kSubjects) : constant());
        return list + ")";
      }
      case 0: return anyVariable() + " " + pick(ops) + " " + anyVariable();
      case 1: return anyVariable() + " " + pick(ops) + " " + constant();
      case 2: return "BOUND(" + anyVariable() + ")";
      case 3: return "(" + anyVariable() + " + " + number() + ") " + pick(ops) + " " + number();
      case 4: return "(" + anyVariable() + " + " + anyVariable() + ") " + pick(ops) + " " + number();
      case 5: return anyVariable();  // its effective boolean value
      default: return anyVariable() + " = " + pick(kSubjects);  // the equality the planner folds into a BGP
    }
  }

  std::string expression(int depth) {
    if (depth == 0 || chance(50)) return comparison();
    switch (uniform(0, 2)) {
      case 0: return "!(" + expression(depth - 1) + ")";
      case 1: return "(" + expression(depth - 1) + " && " + expression(depth - 1) + ")";
      default: return "(" + expression(depth - 1) + " || " + expression(depth - 1) + ")";
    }
  }

  std::string bindExpression() {
    switch (uniform(0, 3)) {
      case 0: return anyVariable() + " + " + number();
      case 1: return anyVariable();
      case 2: return constant();
      default: return expression(1);
    }
  }

  std::string values() {
    const bool two = chance(40);
    std::string v1 = anyVariable(), v2 = anyVariable();
    if (v2 == v1) v2 = v1 == "?e" ? "?f" : "?e";
    std::string text = two ? "VALUES (" + v1 + " " + v2 + ") {" : "VALUES " + v1 + " {";
    const int rows = uniform(1, 3);
    auto cell = [&] { return chance(20) ? std::string("UNDEF") : chance(60) ? pick(kSubjects) : number(); };
    for (int i = 0; i < rows; ++i) text += two ? " (" + cell() + " " + cell() + ")" : " " + cell();
    return text + " }";
  }

  std::string subquery(int depth) {
    std::string text = "{ SELECT ";
    if (chance(25)) text += "DISTINCT ";
    std::string vars;
    for (const char* v : {"a", "b", "c", "d", "e"}) {
      if (chance(50)) vars += "?" + std::string(v) + " ";
    }
    text += vars.empty() ? "* " : vars;
    return text + "WHERE " + group(depth) + " }";
  }

  std::string group(int depth) {
    std::string text = "{";
    const int elements = uniform(1, 3);
    for (int i = 0; i < elements; ++i) {
      const int k = uniform(0, 99);
      std::string element;
      if (depth == 0 || k < 30) {
        element = triple();
        if (chance(40)) element += " . " + triple();
      } else if (k < 45) {
        element = "OPTIONAL " + group(depth - 1);
      } else if (k < 57) {
        element = group(depth - 1) + " UNION " + group(depth - 1);
      } else if (k < 65) {
        element = "MINUS " + group(depth - 1);
      } else if (k < 75) {
        element = "FILTER(" + expression(2) + ")";
      } else if (k < 83) {
        element = "BIND(" + bindExpression() + " AS ?" + pick({"e", "f"}) + ")";
      } else if (k < 90) {
        element = values();
      } else if (k < 95) {
        element = subquery(depth - 1);
      } else {
        element = group(depth - 1);
      }
      if (exists_ && chance(20)) element = "FILTER " + existsCondition(depth - 1);
      // At depth 0 also the leaf elements other than triples.
      if (depth == 0 && chance(25)) {
        element = chance(50) ? "FILTER(" + expression(1) + ")" : chance(50) ? values() : "BIND(" + bindExpression() + " AS ?e)";
      }
      text += " " + element;
      if (element.back() != '}' && element.back() != ')') text += " .";
    }
    return text + " }";
  }

  // A pattern of EXISTS: what the reference substitutes into.
  std::string existsGroup(int depth) {
    std::string text = "{ " + triple();
    if (chance(40)) text += " . " + triple();
    if (depth > 0 && chance(20)) text += " " + existsGroup(depth - 1) + " UNION " + existsGroup(depth - 1);
    if (depth > 0 && chance(20)) text += " " + existsGroup(depth - 1);
    if (chance(15)) text += " { FILTER(" + expression(1) + ") }";  // a filter that sees only substituted values
    if (chance(40)) text += " FILTER(" + expression(1) + ")";
    return text + " }";
  }

  // (NOT) EXISTS alone (a join where the planner can), or inside an
  // expression (always substitution).
  std::string existsCondition(int depth) {
    const std::string test = std::string(chance(50) ? "NOT EXISTS " : "EXISTS ") + existsGroup(std::max(depth, 0));
    switch (uniform(0, 5)) {
      case 0: return "(!" + test + ")";
      case 1: return "(" + test + " || " + expression(1) + ")";
      case 2: return "(" + test + " && " + expression(1) + ")";
      default: return test;
    }
  }

  std::mt19937& random_;
  const bool exists_;
};

std::vector<Mapping> engineRows(const QueryResult& result) {
  std::vector<Mapping> rows;
  const auto& variables = result.variables();
  result.forEachRow([&](std::span<const Term> row) {
    Mapping m;
    for (size_t i = 0; i < row.size(); ++i) {
      if (row[i]) m[variables[i]] = std::string(*row[i]);
    }
    rows.push_back(std::move(m));
  });
  return rows;
}

std::vector<std::string> sortedKeys(const std::vector<Mapping>& rows, const std::vector<std::string>& variables) {
  std::vector<std::string> keys;
  for (const auto& m : rows) keys.push_back(rowKey(m, variables));
  std::sort(keys.begin(), keys.end());
  return keys;
}

// The operators above the projection, outermost first.
struct Modifiers {
  const Op* slice = nullptr;
  const Op* orderBy = nullptr;
};

Modifiers modifiersOf(const Op& root) {
  Modifiers m;
  for (const Op* op = &root; op; op = op->children.empty() ? nullptr : op->children[0].get()) {
    if (op->kind == Op::Kind::Slice && !m.slice) m.slice = op;
    if (op->kind == Op::Kind::OrderBy) {
      m.orderBy = op;
      break;
    }
    if (op->kind != Op::Kind::Slice && op->kind != Op::Kind::Distinct && op->kind != Op::Kind::Project) break;
  }
  return m;
}

// -1, 0 or 1 by the ORDER BY keys; 0 also where the spec leaves the order open.
int orderOf(const Mapping& a, const Mapping& b, const Op& orderBy) {
  for (const auto& key : orderBy.order) {
    auto c = referenceOrder(referenceExpression(key.expr, a), referenceExpression(key.expr, b));
    if (!c) return 0;
    if (*c != 0) return key.descending ? -*c : *c;
  }
  return 0;
}

std::string lines(const std::vector<std::string>& rows, size_t most = 40) {
  std::string text;
  for (size_t i = 0; i < rows.size() && i < most; ++i) text += "    " + rows[i] + "\n";
  if (rows.size() > most) text += "    ... " + std::to_string(rows.size() - most) + " more\n";
  if (rows.empty()) text += "    (none)\n";
  return text;
}

// Empty when the engine agrees with the reference; otherwise what differs.
std::string compare(const Database& db, const std::string& text, const sparql::Query& query,
                    const std::vector<StringTriple>& graph) {
  std::vector<Mapping> actual;
  std::vector<std::string> variables;
  try {
    QueryResult result = db.query(text, {Backend::Cpu});
    actual = engineRows(result);
    variables = result.variables();
  } catch (const std::exception& e) {
    return std::string("the engine threw: ") + e.what() + "\n";
  }
  auto expectedVariables = referenceResultVariables(*query.pattern);
  {
    auto a = variables, b = expectedVariables;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) return "variables differ: engine " + lines(variables) + " reference " + lines(expectedVariables);
  }
  const Modifiers modifiers = modifiersOf(*query.pattern);
  const Multiset expected = referenceEvaluate(*query.pattern, graph);
  const auto actualKeys = sortedKeys(actual, variables);
  std::string problem;
  if (!modifiers.slice) {
    if (actualKeys != sortedKeys(expected, variables)) problem = "the bags of solutions differ\n";
  } else {
    // LIMIT/OFFSET: the right number of rows, all solutions of the query
    // without the slice; with ORDER BY row i must rank as row offset+i of the
    // reference's sorted solutions.
    const Multiset whole = referenceEvaluate(*modifiers.slice->children[0], graph);
    if (actual.size() != expected.size()) problem = "expected " + std::to_string(expected.size()) + " rows\n";
    auto pool = sortedKeys(whole, variables);
    for (const auto& key : actualKeys) {
      auto it = std::find(pool.begin(), pool.end(), key);
      if (it == pool.end()) {
        problem += "row not among the solutions: " + key + "\n";
      } else {
        pool.erase(it);
      }
    }
    if (modifiers.orderBy) {
      // Row i is at position offset+i of the whole ordered result: the
      // solutions that must precede it (strictly smaller) fit before, those
      // that must follow it fit after. Pairs the spec leaves unordered (a
      // number and a string) constrain nothing.
      for (size_t i = 0; i < actual.size(); ++i) {
        size_t smaller = 0, larger = 0;
        for (const auto& w : whole) {
          const int c = orderOf(w, actual[i], *modifiers.orderBy);
          smaller += c < 0;
          larger += c > 0;
        }
        const size_t position = modifiers.slice->offset + i;
        if (smaller > position || position + larger >= whole.size()) {
          problem += "row " + std::to_string(i) + " cannot be at position " + std::to_string(position) + " (" +
                     std::to_string(smaller) + " solutions precede it, " + std::to_string(larger) + " follow it)\n";
        }
      }
    }
  }
  if (modifiers.orderBy) {
    for (size_t i = 1; i < actual.size(); ++i) {
      if (orderOf(actual[i - 1], actual[i], *modifiers.orderBy) > 0) {
        problem += "rows " + std::to_string(i - 1) + " and " + std::to_string(i) + " are out of order\n";
      }
    }
  }
  if (problem.empty()) return "";
  std::vector<std::string> actualInOrder, expectedInOrder;
  for (const auto& m : actual) actualInOrder.push_back(rowKey(m, variables));
  for (const auto& m : expected) expectedInOrder.push_back(rowKey(m, variables));
  if (!modifiers.orderBy) {
    std::sort(actualInOrder.begin(), actualInOrder.end());
    std::sort(expectedInOrder.begin(), expectedInOrder.end());
  }
  return problem + "  engine (" + std::to_string(actual.size()) + " rows):\n" + lines(actualInOrder) +
         "  reference (" + std::to_string(expected.size()) + " rows):\n" + lines(expectedInOrder);
}

// Drops triples one at a time while the mismatch stays: the report shows
// only the data the bug needs.
std::vector<StringTriple> shrinkGraph(std::vector<StringTriple> graph, const std::string& text,
                                      const sparql::Query& query) {
  bool shrunk = true;
  while (shrunk && graph.size() > 1) {
    shrunk = false;
    for (size_t i = 0; i < graph.size(); ++i) {
      auto smaller = graph;
      smaller.erase(smaller.begin() + static_cast<std::ptrdiff_t>(i));
      TempDir dir;
      Database db(loadGraph(dir.path(), smaller));
      if (!compare(db, text, query, smaller).empty()) {
        graph = std::move(smaller);
        shrunk = true;
        break;
      }
    }
  }
  return graph;
}

struct Totals {
  int queries = 0, rejected = 0, nonEmpty = 0, failures = 0;
};

void runGraphs(uint32_t seed, int graphs, int queriesPerGraph, Totals& totals, bool exists = false) {
  std::mt19937 random(seed);
  Generator generate(random, exists);
  for (int g = 0; g < graphs; ++g) {
    const auto graph = generate.graph();
    TempDir dir;
    Database db(loadGraph(dir.path(), graph));
    for (int q = 0; q < queriesPerGraph; ++q) {
      const std::string text = generate.query();
      sparql::Query query;
      try {
        query = sparql::parseQuery(text);
      } catch (const sparql::SyntaxError&) {
        ++totals.rejected;  // e.g. BIND of a variable already in scope
        continue;
      }
      Multiset expected;
      try {
        expected = referenceEvaluate(*query.pattern, graph);
      } catch (const ReferenceUnsupported& e) {
        FAIL_CHECK("the generator made what the reference cannot evaluate (" << e.what() << "): " << text);
        continue;
      }
      if (expected.size() > 20000) continue;  // a cross product too large to compare
      ++totals.queries;
      totals.nonEmpty += !expected.empty();
      const std::string problem = compare(db, text, query, graph);
      if (problem.empty()) continue;
      if (++totals.failures > 5) continue;  // the first few in full
      const auto shrunk = shrinkGraph(graph, text, query);
      TempDir shrunkDir;
      Database shrunkDb(loadGraph(shrunkDir.path(), shrunk));
      FAIL_CHECK("engine and reference differ (seed " << seed << ", graph " << g << ", query " << q
                                                          << ")\nquery: " << text << "\nalgebra:\n"
                                                          << sparql::algebraToString(query, {false})
                                                          << "\ndata (shrunk to " << shrunk.size() << " of "
                                                          << graph.size() << " triples):\n"
                                                          << toNTriples(shrunk) << compare(shrunkDb, text, query, shrunk));
    }
  }
}

}  // namespace

TEST_CASE("random operator trees agree with the reference evaluator") {
  Totals totals;
  for (uint32_t seed : {20261123u, 7u, 424242u}) runGraphs(seed, 6, 40, totals);
  // GSPARQL_RANDOM_TREE_SEEDS=N: N more seeds (1..N), for longer hunts.
  if (const char* more = std::getenv("GSPARQL_RANDOM_TREE_SEEDS")) {
    for (uint32_t seed = 1; seed <= static_cast<uint32_t>(std::atoi(more)); ++seed) runGraphs(seed, 6, 40, totals);
  }
  MESSAGE("compared " << totals.queries << " queries (" << totals.nonEmpty << " with solutions, "
                      << totals.rejected << " rejected by the parser), " << totals.failures << " mismatches");
  CHECK(totals.failures == 0);
  CHECK(totals.queries > 400);
  CHECK(totals.nonEmpty > totals.queries / 4);
}

TEST_CASE("random operator trees with FILTER (NOT) EXISTS agree with the reference evaluator") {
  // Semi- and anti-joins where the planner proves them equal to
  // substitution, substitution elsewhere; OPTIONAL leaves shared variables
  // unbound, filters inside read outer variables.
  Totals totals;
  for (uint32_t seed : {20261129u, 11u, 909u}) runGraphs(seed, 6, 40, totals, true);
  if (const char* more = std::getenv("GSPARQL_RANDOM_TREE_SEEDS")) {
    for (uint32_t seed = 1; seed <= static_cast<uint32_t>(std::atoi(more)); ++seed) runGraphs(seed, 6, 40, totals, true);
  }
  MESSAGE("compared " << totals.queries << " queries with EXISTS (" << totals.nonEmpty << " with solutions), "
                      << totals.failures << " mismatches");
  CHECK(totals.failures == 0);
  CHECK(totals.queries > 400);
  CHECK(totals.nonEmpty > totals.queries / 4);
}

TEST_CASE("the reference evaluator follows the spec on hand-made cases") {
  const std::vector<StringTriple> graph = {
      {"<http://e/a>", "<http://e/p>", "<http://e/b>"},
      {"<http://e/a>", "<http://e/p>", "<http://e/c>"},
      {"<http://e/b>", "<http://e/q>", integerTerm(1)},
      {"<http://e/d>", "<http://e/q>", integerTerm(2)},
  };
  auto solutions = [&](const std::string& text) {
    const auto query = sparql::parseQuery(text);
    return sortedKeys(referenceEvaluate(*query.pattern, graph), referenceResultVariables(*query.pattern));
  };
  const std::string one = "\"1\"^^" + kInteger;
  // OPTIONAL keeps the rows without a match, unbound.
  CHECK(solutions("SELECT ?y ?n { <http://e/a> <http://e/p> ?y OPTIONAL { ?y <http://e/q> ?n } }") ==
        std::vector<std::string>{"?y=<http://e/b>\t?n=" + one, "?y=<http://e/c>\t?n=UNDEF"});
  // A failing OPTIONAL condition puts the row into Diff.
  CHECK(solutions("SELECT ?y ?n { <http://e/a> <http://e/p> ?y OPTIONAL { ?y <http://e/q> ?n FILTER(?n > 5) } }") ==
        std::vector<std::string>{"?y=<http://e/b>\t?n=UNDEF", "?y=<http://e/c>\t?n=UNDEF"});
  // MINUS with disjoint domains removes nothing.
  CHECK(solutions("SELECT ?y { <http://e/a> <http://e/p> ?y MINUS { ?z <http://e/q> ?n } }").size() == 2);
  CHECK(solutions("SELECT ?y { <http://e/a> <http://e/p> ?y MINUS { ?y <http://e/q> ?n } }") ==
        std::vector<std::string>{"?y=<http://e/c>"});
  // An error in BIND leaves the variable unbound; || forgives an error.
  CHECK(solutions("SELECT ?y ?k { <http://e/a> <http://e/p> ?y BIND(?y + 1 AS ?k) }") ==
        std::vector<std::string>{"?y=<http://e/b>\t?k=UNDEF", "?y=<http://e/c>\t?k=UNDEF"});
  CHECK(solutions("SELECT ?s { ?s <http://e/q> ?n FILTER(?zz > 1 || ?n = 2) }") ==
        std::vector<std::string>{"?s=<http://e/d>"});
  // EXISTS substitutes the row's values; an unbound variable stays free.
  CHECK(solutions("SELECT ?y { <http://e/a> <http://e/p> ?y FILTER NOT EXISTS { ?y <http://e/q> ?n } }") ==
        std::vector<std::string>{"?y=<http://e/c>"});
  CHECK(solutions("SELECT ?y ?n { <http://e/a> <http://e/p> ?y OPTIONAL { ?y <http://e/q> ?n } "
                  "FILTER EXISTS { ?z <http://e/q> ?n } }")
            .size() == 2);
  // A filter in a group of its own sees the substituted value.
  CHECK(solutions("SELECT ?y { <http://e/a> <http://e/p> ?y FILTER EXISTS { ?z <http://e/q> ?n { FILTER(?y = <http://e/c>) } } }") ==
        std::vector<std::string>{"?y=<http://e/c>"});
  // VALUES with UNDEF joins with everything.
  CHECK(solutions("SELECT ?y ?v { <http://e/a> <http://e/p> ?y VALUES (?y ?v) { (UNDEF 1) } }").size() == 2);
}

TEST_CASE("regressions found by the random operator trees") {
  // Each: data, query; the engine must give the reference's bag of solutions.
  struct Case {
    std::vector<StringTriple> graph;
    std::string query;
  };
  const std::vector<Case> cases = {
      // A predicate variable on two edges between the same two vertices, in
      // opposite directions, both checked in one join step: rows lost
      // (found with GSPARQL_RANDOM_TREE_SEEDS, seed 44).
      {{{"<http://e/v1>", "<http://e/p0>", "<http://e/v2>"},
        {"<http://e/v3>", "<http://e/p2>", "<http://e/v1>"},
        {"<http://e/v1>", "<http://e/p2>", "<http://e/v3>"}},
       "SELECT * WHERE { ?b <http://e/p2> ?d . ?d ?p ?b . ?b ?p ?d . }"},
      // The same shape: a row whose ?p matches only one of the two edges.
      {{{"<http://e/a>", "<http://e/p>", "<http://e/b>"},
        {"<http://e/b>", "<http://e/p>", "<http://e/a>"},
        {"<http://e/a>", "<http://e/o>", "<http://e/b>"}},
       "SELECT * WHERE { ?x <http://e/p> ?y . ?y ?p ?x . ?x ?p ?y . }"},
  };
  for (const auto& c : cases) {
    TempDir dir;
    Database db(loadGraph(dir.path(), c.graph));
    const auto query = sparql::parseQuery(c.query);
    const std::string problem = compare(db, c.query, query, c.graph);
    INFO("query: " << c.query << "\ndata:\n" << toNTriples(c.graph) << problem);
    CHECK(problem.empty());
  }
}
