// The all-predicates adjacency the GPU uses for predicate variables, against
// the triples it was built from.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "engine/gpu/all_predicates_adjacency.h"
#include "gsparql/database.h"
#include "storage/graph_store.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

using Pair = std::pair<uint32_t, uint32_t>;  // (neighbour, predicate)

// Per key vertex, its pairs, read back through the per-predicate lists.
std::map<uint32_t, std::vector<Pair>> expectedPairs(const GraphStore& store, pcsr::Direction direction) {
  std::map<uint32_t, std::vector<Pair>> out;
  const AdjacencyFile& file = store.adjacency(direction);
  for (uint32_t p = 0; p < file.predicateCount(); ++p) {
    const PredicateAdjacency& a = file.predicate(p);
    for (size_t k = 0; k < a.keys().size(); ++k) {
      for (uint32_t n : a.neighboursAt(k)) out[a.keys()[k]].push_back({n, p});
    }
  }
  for (auto& [v, pairs] : out) std::sort(pairs.begin(), pairs.end());
  return out;
}

void checkDirection(const GraphStore& store, pcsr::Direction direction) {
  const auto built = engine::gpu::buildAllPredicatesAdjacency(store, direction, store.graphs().predicates(NamedGraphs::kDefaultGraph));
  const auto expected = expectedPairs(store, direction);
  const uint64_t vertices = store.catalog().vertexCount;
  REQUIRE(built.offsets.size() == vertices + 1);
  REQUIRE(built.distinctOffsets.size() == vertices + 1);
  for (uint32_t v = 0; v < vertices; ++v) {
    std::vector<Pair> pairs;
    std::vector<uint32_t> distinct;
    for (uint32_t i = built.offsets[v]; i < built.offsets[v + 1]; ++i) {
      pairs.push_back({built.neighbours[i], built.predicates[i]});
      if (distinct.empty() || distinct.back() != built.neighbours[i]) distinct.push_back(built.neighbours[i]);
    }
    auto it = expected.find(v);
    CHECK(pairs == (it == expected.end() ? std::vector<Pair>{} : it->second));
    std::vector<uint32_t> builtDistinct(built.distinctNeighbours.begin() + built.distinctOffsets[v],
                                        built.distinctNeighbours.begin() + built.distinctOffsets[v + 1]);
    CHECK(builtDistinct == distinct);
  }
  const AdjacencyFile& file = store.adjacency(direction);
  REQUIRE(built.keyStarts.size() == file.predicateCount() + 1);
  for (uint32_t p = 0; p < file.predicateCount(); ++p) {
    std::vector<uint32_t> keys(built.keys.begin() + built.keyStarts[p], built.keys.begin() + built.keyStarts[p + 1]);
    CHECK(keys == std::vector<uint32_t>(file.predicate(p).keys().begin(), file.predicate(p).keys().end()));
  }
}

}  // namespace

TEST_CASE("the all-predicates adjacency holds every (neighbour, predicate) pair of every vertex, sorted") {
  std::mt19937 random(11);
  for (int i = 0; i < 20; ++i) {
    RandomCase c = randomCase(random);
    TempDir dir;
    GraphStore store(loadGraph(dir.path(), c.graph));
    checkDirection(store, pcsr::Direction::Out);
    checkDirection(store, pcsr::Direction::In);
  }
}
