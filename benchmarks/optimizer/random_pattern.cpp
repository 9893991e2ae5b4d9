#include "benchmarks/optimizer/random_pattern.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

#include "storage/dictionary.h"
#include "storage/graph_store.h"

namespace gsparql::benchmarks {
namespace {

struct Edge {
  size_t from, to;
  uint32_t predicate;
  friend auto operator<=>(const Edge&, const Edge&) = default;
};

class PatternGrower {
 public:
  PatternGrower(const GraphStore& store, std::mt19937_64& random) : store_(store), random_(random) {}

  bool start() {
    const auto& predicates = store_.catalog().predicates;
    if (predicates.empty()) return false;
    const uint32_t p = pick(static_cast<uint32_t>(predicates.size()));
    const auto& adjacency = store_.adjacency(pcsr::Direction::Out).predicate(p);
    if (adjacency.keys().empty()) return false;
    const size_t k = pick(static_cast<uint32_t>(adjacency.keys().size()));
    const auto objects = adjacency.neighboursAt(k);
    add(adjacency.keys()[k], p, objects[pick(static_cast<uint32_t>(objects.size()))], pcsr::Direction::Out);
    return true;
  }

  // A predicate joining two pattern vertices that no edge joins yet.
  bool closeCycle() {
    if (vertices_.size() < 3) return false;
    const size_t a = pick(static_cast<uint32_t>(vertices_.size())), b = pick(static_cast<uint32_t>(vertices_.size()));
    if (a == b) return false;
    for (uint32_t p = 0; p < store_.catalog().predicates.size(); ++p) {
      const auto objects = store_.adjacency(pcsr::Direction::Out).predicate(p).neighbours(vertices_[a]);
      if (std::binary_search(objects.begin(), objects.end(), vertices_[b]) && edges_.insert({a, b, p}).second) {
        return true;
      }
    }
    return false;
  }

  // An edge of the data at a random pattern vertex, in a random direction.
  bool extend() {
    const size_t from = pick(static_cast<uint32_t>(vertices_.size()));
    const auto direction = pick(2) == 0 ? pcsr::Direction::Out : pcsr::Direction::In;
    std::vector<uint32_t> predicates;
    for (uint32_t p = 0; p < store_.catalog().predicates.size(); ++p) {
      if (!store_.adjacency(direction).predicate(p).neighbours(vertices_[from]).empty()) predicates.push_back(p);
    }
    if (predicates.empty()) return false;
    const uint32_t p = predicates[pick(static_cast<uint32_t>(predicates.size()))];
    const auto others = store_.adjacency(direction).predicate(p).neighbours(vertices_[from]);
    return add(vertices_[from], p, others[pick(static_cast<uint32_t>(others.size()))], direction);
  }

  size_t edges() const { return edges_.size(); }

  std::string sparql(bool anchored) const {
    std::string text = "SELECT * WHERE {\n";
    for (const Edge& e : edges_) {
      text += "  " + term(e.from, anchored) + " " + store_.dictionary().term(TermSpace::Predicate, e.predicate) + " " +
              term(e.to, anchored) + " .\n";
    }
    return text + "}\n";
  }

 private:
  uint32_t pick(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(random_); }

  size_t vertexOf(uint32_t id) {
    const auto it = std::find(vertices_.begin(), vertices_.end(), id);
    if (it != vertices_.end()) return static_cast<size_t>(it - vertices_.begin());
    vertices_.push_back(id);
    return vertices_.size() - 1;
  }

  // The triple (known, p, other) read in `direction` from `known`.
  bool add(uint32_t known, uint32_t p, uint32_t other, pcsr::Direction direction) {
    const size_t a = vertexOf(known), b = vertexOf(other);
    return direction == pcsr::Direction::Out ? edges_.insert({a, b, p}).second : edges_.insert({b, a, p}).second;
  }

  // The first vertex is the anchor; only an IRI can be one.
  std::string term(size_t v, bool anchored) const {
    if (v == 0 && anchored) {
      std::string value = store_.dictionary().term(TermSpace::Vertex, vertices_[0]);
      if (!value.empty() && value[0] == '<') return value;
    }
    return "?v" + std::to_string(v);
  }

  const GraphStore& store_;
  std::mt19937_64& random_;
  std::vector<uint32_t> vertices_;
  std::set<Edge> edges_;
};

}  // namespace

std::string randomPattern(const GraphStore& store, const PatternShape& shape, std::mt19937_64& random) {
  PatternGrower grower(store, random);
  if (!grower.start()) return "";
  for (int attempts = 0; grower.edges() < static_cast<size_t>(shape.edges) && attempts < 20 * shape.edges; ++attempts) {
    const bool cycle = grower.edges() >= 2 && std::uniform_real_distribution<>(0, 1)(random) < shape.cycleChance;
    if (!(cycle && grower.closeCycle())) grower.extend();
  }
  return grower.edges() == static_cast<size_t>(shape.edges) ? grower.sparql(shape.anchored) : "";
}

}  // namespace gsparql::benchmarks
