// Each GPU building block against a plain host computation on random inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>

#include "engine/gpu/gpu_executor.h"
#include "engine/gpu/gpu_primitives.h"
#include "gsparql/database.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

bool noGpu() {
  if (engine::gpuAvailable()) return false;
  std::printf("no CUDA device: skipped\n");
  return true;
}

template <typename T>
std::vector<T> hostScan(const std::vector<T>& values) {
  std::vector<T> out(values.size());
  std::exclusive_scan(values.begin(), values.end(), out.begin(), T{0});
  return out;
}

}  // namespace

TEST_CASE("prefix sums on the GPU equal the host's, for short and long arrays") {
  if (noGpu()) return;
  std::mt19937 random(1);
  for (size_t n : {size_t{0}, size_t{1}, size_t{1000}, size_t{65536}, size_t{65537}, size_t{3000000}}) {
    CAPTURE(n);
    std::vector<uint32_t> small(n);
    std::vector<uint64_t> large(n);
    for (size_t i = 0; i < n; ++i) {
      small[i] = random() % 300;
      large[i] = random() % 100000;
    }
    CHECK(engine::gpu::exclusiveScanOnGpu(small) == hostScan(small));
    CHECK(engine::gpu::exclusiveScanOnGpu(large) == hostScan(large));
  }
}

TEST_CASE("PCSR and CSR lookups on the GPU find the lists the host finds") {
  if (noGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  std::mt19937 random(2);
  for (auto direction : {pcsr::Direction::Out, pcsr::Direction::In}) {
    const AdjacencyFile& file = store.adjacency(direction);
    for (uint32_t p = 0; p < file.predicateCount(); ++p) {
      const PredicateAdjacency& a = file.predicate(p);
      std::vector<uint32_t> vertices(a.keys().begin(), a.keys().end());
      for (int i = 0; i < 200; ++i) vertices.push_back(random() % (store.catalog().vertexCount + 10));
      for (bool plainCsr : {false, true}) {
        auto found = engine::gpu::lookupsOnGpu(a, vertices, plainCsr);
        for (size_t i = 0; i < vertices.size(); ++i) {
          auto expected = a.neighboursByBinarySearch(vertices[i]);
          REQUIRE(found.sizes[i] == expected.size());
          REQUIRE(found.first[i] == (expected.empty() ? pcsr::kNone : expected.front()));
        }
      }
    }
  }
}

TEST_CASE("membership probes on the GPU agree with std::binary_search") {
  if (noGpu()) return;
  std::mt19937 random(3);
  for (size_t size : {size_t{0}, size_t{1}, size_t{31}, size_t{32}, size_t{1000}, size_t{100000}}) {
    std::vector<uint32_t> list(size);
    for (auto& v : list) v = random() % (4 * size + 1);
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    std::vector<uint32_t> probes(5000);
    for (auto& v : probes) v = random() % (4 * size + 2);
    auto found = engine::gpu::containsOnGpu(list, probes);
    for (size_t i = 0; i < probes.size(); ++i) {
      REQUIRE(static_cast<bool>(found[i]) == std::binary_search(list.begin(), list.end(), probes[i]));
    }
  }
}
