// Property paths against answers worked out by hand and against a naive
// evaluator that follows the definitions of SPARQL 1.1 section 18.4 over the
// triples as strings, on random small graphs.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/physical/path_search.h"
#include "engine/value/term_codec.h"
#include "storage/graph_store.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;
using engine::PathSearch;
using engine::QueryLimits;
using engine::TermCodec;
using engine::ValueId;
using Path = sparql::Path;
using Kind = Path::Kind;

namespace {

const std::string kBase = "http://x/";

std::string iri(const std::string& name) { return "<" + kBase + name + ">"; }

Path link(const std::string& name) { return {Kind::Link, iri(name), {}}; }
Path inv(Path p) { return {Kind::Inverse, "", {std::move(p)}}; }
Path seq(std::vector<Path> parts) { return {Kind::Sequence, "", std::move(parts)}; }
Path alt(std::vector<Path> parts) { return {Kind::Alternative, "", std::move(parts)}; }
Path star(Path p) { return {Kind::ZeroOrMore, "", {std::move(p)}}; }
Path plus(Path p) { return {Kind::OneOrMore, "", {std::move(p)}}; }
Path opt(Path p) { return {Kind::ZeroOrOne, "", {std::move(p)}}; }
Path nps(std::vector<Path> items) { return {Kind::NegatedSet, "", std::move(items)}; }

// SPARQL syntax, for failure messages.
std::string show(const Path& p) {
  auto joined = [&](const char* separator) {
    std::string s;
    for (const Path& a : p.args) s += (s.empty() ? "" : separator) + show(a);
    return "(" + s + ")";
  };
  switch (p.kind) {
    case Kind::Link: return ":" + p.iri.substr(kBase.size() + 1, p.iri.size() - kBase.size() - 2);
    case Kind::Inverse: return "^" + show(p.args[0]);
    case Kind::Sequence: return joined("/");
    case Kind::Alternative: return joined("|");
    case Kind::ZeroOrMore: return "(" + show(p.args[0]) + ")*";
    case Kind::OneOrMore: return "(" + show(p.args[0]) + ")+";
    case Kind::ZeroOrOne: return "(" + show(p.args[0]) + ")?";
    case Kind::NegatedSet: return "!" + joined("|");
  }
  return "";
}

// Pairs by short name ("a" for <http://x/a>), sorted: a multiset.
using Pairs = std::vector<std::pair<std::string, std::string>>;

std::string shortName(std::string_view term) {
  const std::string prefix = "<" + kBase;
  if (term.starts_with(prefix)) return std::string(term.substr(prefix.size(), term.size() - prefix.size() - 1));
  return std::string(term);
}

Pairs sorted(Pairs pairs) {
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

std::vector<StringTriple> triplesOf(const std::vector<std::tuple<std::string, std::string, std::string>>& short_) {
  std::vector<StringTriple> out;
  for (const auto& [s, p, o] : short_) out.push_back({iri(s), iri(p), iri(o)});
  return out;
}

// A database of `triples` and a codec over it.
class Graph {
 public:
  explicit Graph(const std::vector<StringTriple>& triples)
      : store_(loadGraph(dir_.path(), triples)), codec_(store_) {}

  // Ends are short names; nullopt is a variable.
  Pairs pairs(const Path& path, std::optional<std::string> subject, std::optional<std::string> object) {
    auto id = [&](const std::optional<std::string>& end) -> std::optional<ValueId> {
      if (!end) return std::nullopt;
      return codec_.idOf(iri(*end));
    };
    std::vector<std::pair<ValueId, ValueId>> found;
    PathSearch(path, codec_, {NamedGraphs::kDefaultGraph}, limits_).evaluate(id(subject), id(object), found);
    Pairs out;
    for (auto [s, o] : found) out.emplace_back(shortName(codec_.term(s)), shortName(codec_.term(o)));
    return sorted(out);
  }

 private:
  TempDir dir_;
  GraphStore store_;
  TermCodec codec_;
  QueryLimits limits_;
};

// The naive evaluator: every path as a bag of pairs over `nodes` (the
// graph's subjects and objects, plus the constant ends of the pattern, so
// zero-length paths reach constants absent from the data).
class Reference {
 public:
  using Bag = std::map<std::pair<std::string, std::string>, long>;

  Reference(const std::vector<StringTriple>& triples, const std::vector<std::string>& constants) {
    for (const auto& t : triples) {
      triples_.insert({t.s, t.p, t.o});
      nodes_.insert(t.s);
      nodes_.insert(t.o);
    }
    nodes_.insert(constants.begin(), constants.end());
  }

  Bag eval(const Path& p) const {
    switch (p.kind) {
      case Kind::Link: return link(p.iri);
      case Kind::Inverse: {
        Bag out;
        for (const auto& [pair, n] : eval(p.args[0])) out[{pair.second, pair.first}] += n;
        return out;
      }
      case Kind::Sequence: {
        Bag out = eval(p.args[0]);
        for (size_t i = 1; i < p.args.size(); ++i) out = join(out, eval(p.args[i]));
        return out;
      }
      case Kind::Alternative: {
        Bag out;
        for (const Path& a : p.args) {
          for (const auto& [pair, n] : eval(a)) out[pair] += n;
        }
        return out;
      }
      case Kind::ZeroOrOne: return distinct(eval(p.args[0]), true);
      case Kind::ZeroOrMore: return closure(eval(p.args[0]), true);
      case Kind::OneOrMore: return closure(eval(p.args[0]), false);
      case Kind::NegatedSet: return negatedSet(p);
    }
    return {};
  }

 private:
  Bag link(const std::string& predicate) const {
    Bag out;
    for (const auto& [s, p, o] : triples_) {
      if (p == predicate) out[{s, o}] += 1;
    }
    return out;
  }

  static Bag join(const Bag& left, const Bag& right) {
    Bag out;
    for (const auto& [l, n] : left) {
      for (const auto& [r, m] : right) {
        if (l.second == r.first) out[{l.first, r.second}] += n * m;
      }
    }
    return out;
  }

  Bag distinct(const Bag& bag, bool zeroLength) const {
    Bag out;
    for (const auto& entry : bag) out[entry.first] = 1;
    if (zeroLength) {
      for (const auto& n : nodes_) out[{n, n}] = 1;
    }
    return out;
  }

  Bag closure(const Bag& step, bool zeroLength) const {
    Bag out = distinct(step, false);
    for (size_t size = 0; size != out.size();) {
      size = out.size();
      out = distinct(join(out, step), false);
      for (const auto& entry : distinct(step, false)) out[entry.first] = 1;
    }
    return zeroLength ? distinct(out, true) : out;
  }

  // Forward edges whose predicate is not excluded, plus inverse edges whose
  // predicate is not excluded among the ^ items; `!()` counts as forward.
  Bag negatedSet(const Path& p) const {
    std::set<std::string> excluded[2];
    bool hasItems[2] = {false, false};
    for (const Path& item : p.args) {
      const bool inverse = item.kind == Kind::Inverse;
      hasItems[inverse] = true;
      excluded[inverse].insert(inverse ? item.args[0].iri : item.iri);
    }
    Bag out;
    for (const auto& [s, pred, o] : triples_) {
      if ((hasItems[0] || !hasItems[1]) && !excluded[0].contains(pred)) out[{s, o}] += 1;
      if (hasItems[1] && !excluded[1].contains(pred)) out[{o, s}] += 1;
    }
    return out;
  }

  std::set<std::tuple<std::string, std::string, std::string>> triples_;
  std::set<std::string> nodes_;
};

Pairs expected(const std::vector<StringTriple>& triples, const Path& path, const std::optional<std::string>& subject,
               const std::optional<std::string>& object) {
  std::vector<std::string> constants;
  for (const auto& end : {subject, object}) {
    if (end) constants.push_back(iri(*end));
  }
  Pairs out;
  for (const auto& [pair, n] : Reference(triples, constants).eval(path)) {
    if (subject && iri(*subject) != pair.first) continue;
    if (object && iri(*object) != pair.second) continue;
    for (long i = 0; i < n; ++i) out.emplace_back(shortName(pair.first), shortName(pair.second));
  }
  return sorted(out);
}

// A cycle a -p-> b -p-> c -p-> a with an exit c -p-> d, a self-loop on d, a
// diamond a -s-> {x, y} -s-> z and parallel edges a -q-> c, a -r-> c.
const std::vector<StringTriple>& handGraph() {
  static const auto graph = triplesOf({{"a", "p", "b"}, {"b", "p", "c"}, {"c", "p", "a"}, {"c", "p", "d"},
                                       {"d", "q", "d"}, {"a", "q", "c"}, {"a", "r", "c"}, {"b", "r", "a"},
                                       {"a", "s", "x"}, {"a", "s", "y"}, {"x", "s", "z"}, {"y", "s", "z"}});
  return graph;
}

Pairs identity(std::initializer_list<const char*> nodes) {
  Pairs out;
  for (const char* n : nodes) out.emplace_back(n, n);
  return out;
}

Pairs operator+(Pairs a, const Pairs& b) {
  a.insert(a.end(), b.begin(), b.end());
  return sorted(a);
}

const Pairs kAllNodes = identity({"a", "b", "c", "d", "x", "y", "z"});

}  // namespace

TEST_CASE("arbitrary-length paths reach each node once, through cycles and self-loops") {
  Graph g(handGraph());
  CHECK(g.pairs(star(link("p")), "a", {}) == Pairs{{"a", "a"}, {"a", "b"}, {"a", "c"}, {"a", "d"}});
  CHECK(g.pairs(plus(link("p")), "a", {}) == Pairs{{"a", "a"}, {"a", "b"}, {"a", "c"}, {"a", "d"}});
  CHECK(g.pairs(plus(link("p")), "d", {}).empty());
  CHECK(g.pairs(plus(link("q")), "d", {}) == Pairs{{"d", "d"}});
  CHECK(g.pairs(plus(link("p")), {}, "d") == Pairs{{"a", "d"}, {"b", "d"}, {"c", "d"}});
  CHECK(g.pairs(star(inv(link("p"))), "a", {}) == Pairs{{"a", "a"}, {"a", "b"}, {"a", "c"}});
  CHECK(g.pairs(plus(link("p")), "a", "a") == Pairs{{"a", "a"}});
  CHECK(g.pairs(star(link("q")), {}, {}) == kAllNodes + Pairs{{"a", "c"}});
  CHECK(g.pairs(plus(link("q")), {}, {}) == Pairs{{"a", "c"}, {"d", "d"}});
  // Two routes to z, one pair: closures are sets.
  CHECK(g.pairs(star(seq({link("s"), link("s")})), "a", {}) == Pairs{{"a", "a"}, {"a", "z"}});
}

TEST_CASE("zero-length paths match constants absent from the data") {
  Graph g(handGraph());
  CHECK(g.pairs(star(link("p")), "zz", {}) == Pairs{{"zz", "zz"}});
  CHECK(g.pairs(star(link("p")), {}, "zz") == Pairs{{"zz", "zz"}});
  CHECK(g.pairs(opt(link("p")), "zz", "zz") == Pairs{{"zz", "zz"}});
  CHECK(g.pairs(star(link("p")), "zz", "a").empty());
  CHECK(g.pairs(star(link("p")), "zz", "yy").empty());
  CHECK(g.pairs(plus(link("p")), "zz", {}).empty());
  CHECK(g.pairs(seq({opt(link("p")), star(link("q"))}), "zz", {}) == Pairs{{"zz", "zz"}});
  // A predicate that is no subject or object is no node either.
  CHECK(g.pairs(star(link("p")), "p", {}) == Pairs{{"p", "p"}});
}

TEST_CASE("zero-or-one gives distinct pairs, every node with itself when both ends are free") {
  Graph g(handGraph());
  CHECK(g.pairs(opt(link("p")), {}, {}) ==
        kAllNodes + Pairs{{"a", "b"}, {"b", "c"}, {"c", "a"}, {"c", "d"}});
  CHECK(g.pairs(opt(alt({link("q"), link("r")})), "a", {}) == Pairs{{"a", "a"}, {"a", "c"}});
  CHECK(g.pairs(opt(link("q")), "d", {}) == Pairs{{"d", "d"}});
}

TEST_CASE("alternatives and sequences keep multiplicities") {
  Graph g(handGraph());
  CHECK(g.pairs(alt({link("p"), link("p")}), "a", {}) == Pairs{{"a", "b"}, {"a", "b"}});
  CHECK(g.pairs(alt({link("p"), link("p")}), "a", "b") == Pairs{{"a", "b"}, {"a", "b"}});
  CHECK(g.pairs(alt({link("q"), link("r")}), {}, "c") == Pairs{{"a", "c"}, {"a", "c"}});
  CHECK(g.pairs(seq({link("s"), link("s")}), "a", {}) == Pairs{{"a", "z"}, {"a", "z"}});
  CHECK(g.pairs(seq({link("s"), link("s")}), {}, "z") == Pairs{{"a", "z"}, {"a", "z"}});
  CHECK(g.pairs(seq({alt({link("p"), link("q")}), alt({link("p"), link("q")})}), "a", {}) ==
        Pairs{{"a", "a"}, {"a", "c"}, {"a", "d"}});
  CHECK(g.pairs(seq({link("s"), opt(link("s"))}), {}, {}) ==
        Pairs{{"a", "x"}, {"a", "y"}, {"a", "z"}, {"a", "z"}, {"x", "z"}, {"y", "z"}});
}

TEST_CASE("negated property sets, forward, inverse and both") {
  Graph g(handGraph());
  CHECK(g.pairs(nps({link("p")}), "a", {}) == Pairs{{"a", "c"}, {"a", "c"}, {"a", "x"}, {"a", "y"}});
  CHECK(g.pairs(nps({inv(link("p"))}), "a", {}) == Pairs{{"a", "b"}});
  CHECK(g.pairs(nps({link("p"), inv(link("p"))}), "a", {}) ==
        Pairs{{"a", "b"}, {"a", "c"}, {"a", "c"}, {"a", "x"}, {"a", "y"}});
  CHECK(g.pairs(nps({link("q"), link("r"), link("s")}), {}, {}) ==
        Pairs{{"a", "b"}, {"b", "c"}, {"c", "a"}, {"c", "d"}});
  CHECK(g.pairs(nps({link("p"), link("nope")}), {}, "a") == Pairs{{"b", "a"}});
  CHECK(g.pairs(plus(nps({inv(link("s")), inv(link("q")), inv(link("r"))})), "a", {}) ==
        Pairs{{"a", "a"}, {"a", "b"}, {"a", "c"}});
}

TEST_CASE("a predicate absent from the data matches no edge") {
  Graph g(handGraph());
  CHECK(g.pairs(plus(link("nope")), {}, {}).empty());
  CHECK(g.pairs(star(link("nope")), {}, {}) == kAllNodes);
  CHECK(g.pairs(star(link("nope")), "a", {}) == Pairs{{"a", "a"}});
  CHECK(g.pairs(alt({link("nope"), star(link("q"))}), "d", {}) == Pairs{{"d", "d"}});
}

namespace {

Path randomPath(std::mt19937& random, int depth) {
  auto pick = [&](int n) { return static_cast<int>(random() % n); };
  // p3 is no predicate of the data.
  auto randomLink = [&] { return link("p" + std::to_string(pick(10) == 0 ? 3 : pick(3))); };
  auto children = [&](size_t n) {
    std::vector<Path> parts;
    for (size_t i = 0; i < n; ++i) parts.push_back(randomPath(random, depth - 1));
    return parts;
  };
  const int choice = depth == 0 ? pick(2) : pick(9);
  switch (choice) {
    case 0: return randomLink();
    case 1: {
      std::vector<Path> items;
      for (int i = pick(4); i > 0; --i) items.push_back(pick(2) ? randomLink() : inv(randomLink()));
      return nps(std::move(items));
    }
    case 2: return inv(randomPath(random, depth - 1));
    case 3: return seq(children(2 + pick(2)));
    case 4: return alt(children(2 + pick(2)));
    case 5: return star(randomPath(random, depth - 1));
    case 6: return plus(randomPath(random, depth - 1));
    case 7: return opt(randomPath(random, depth - 1));
    default: return randomLink();
  }
}

}  // namespace

TEST_CASE("random paths on random graphs match the naive evaluation of the definitions") {
  std::mt19937 random(20261123);
  auto pick = [&](int n) { return static_cast<int>(random() % n); };
  // Eight nodes, of which some miss any given graph; "zz" is in none and p0 only as a predicate.
  auto node = [&] { return std::string(1, static_cast<char>('a' + pick(8))); };
  auto end = [&]() -> std::string { return pick(8) == 0 ? (pick(2) ? "zz" : "p0") : node(); };
  size_t nonEmpty = 0, checks = 0;
  for (int graph = 0; graph < scaledCases(200); ++graph) {
    std::vector<StringTriple> triples;
    for (int i = 4 + pick(12); i > 0; --i) triples.push_back({iri(node()), iri("p" + std::to_string(pick(3))), iri(node())});
    Graph g(triples);
    for (int i = 0; i < 12; ++i) {
      const Path path = randomPath(random, pick(4));
      const std::string s = end();
      const std::string o = pick(2) ? s : end();
      CAPTURE(toNTriples(triples));
      CAPTURE(show(path));
      for (auto [subject, object] : std::vector<std::pair<std::optional<std::string>, std::optional<std::string>>>{
               {{}, {}}, {s, {}}, {{}, o}, {s, o}}) {
        CAPTURE(subject.value_or("?s"));
        CAPTURE(object.value_or("?o"));
        const Pairs want = expected(triples, path, subject, object);
        CHECK(g.pairs(path, subject, object) == want);
        nonEmpty += !want.empty();
        ++checks;
      }
    }
  }
  CHECK(nonEmpty > checks / 3);
}
