// Each GPU building block against a plain host computation on random inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>

#include "engine/gpu/gpu_executor.h"
#include "engine/gpu/gpu_primitives.h"
#include "gsparql/database.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;
using engine::gpu::Layer;
using engine::gpu::Thresholds;

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

// Log-uniform row sizes from 1 to `most`, and about one row in ten empty:
// rows for every layer.
std::vector<uint32_t> randomWork(std::mt19937& random, size_t rows, double most) {
  std::uniform_real_distribution<double> exponent(0, std::log(most));
  std::vector<uint32_t> work(rows);
  for (auto& w : work) w = random() % 10 == 0 ? 0 : static_cast<uint32_t>(std::exp(exponent(random)));
  return work;
}

engine::gpu::WorkHistogram histogramOf(const std::vector<uint32_t>& work) {
  engine::gpu::WorkHistogram h{};
  for (uint32_t w : work) {
    if (w > 0) ++h[std::bit_width(w - 1)];
  }
  return h;
}

int layerIndex(uint32_t work, const Thresholds& t) { return static_cast<int>(engine::gpu::layerOf(work, t)); }

// A row's runs as the binning kernel must write them: the whole row, or for
// a split row its pieces of t.block candidates.
std::vector<engine::gpu::RowRun> expectedRuns(uint32_t row, uint32_t work, const Thresholds& t) {
  std::vector<engine::gpu::RowRun> runs;
  for (uint32_t first = 0; first < work; first += t.block) runs.push_back({row, first, std::min(t.block, work - first)});
  return runs;
}

// Two predicates over the same 20,000 objects, 200 subjects each with a
// log-uniform number of objects up to 4,000: rows of a join step over them
// range from no candidates to thousands.
std::string skewedGraph(std::mt19937& random) {
  std::string text;
  std::uniform_real_distribution<double> exponent(0, std::log(4000.0));
  for (int p = 0; p < 2; ++p) {
    for (int s = 0; s < 200; ++s) {
      const auto degree = static_cast<uint32_t>(std::exp(exponent(random)));
      for (uint32_t k = 0; k < degree; ++k) {
        text += "<http://t/s" + std::to_string(s) + "> <http://t/p" + std::to_string(p) + "> <http://t/o" +
                std::to_string(random() % 20000) + "> .\n";
      }
    }
  }
  return text;
}

}  // namespace

TEST_CASE("load-balance thresholds are ascending powers of two and put each row in exactly one layer") {
  // Host code: runs without a GPU.
  std::mt19937 random(4);
  for (int i = 0; i < 300; ++i) {
    const auto work = randomWork(random, random() % 20000, std::exp(1 + random() % 16));
    const auto h = histogramOf(work);
    const uint64_t warps = 1 + random() % 20000;
    const engine::gpu::DeviceShape shape{warps, std::max<uint64_t>(1, warps / 8)};
    const Thresholds t = engine::gpu::chooseThresholds(h, shape, {});
    CAPTURE(t.warp);
    CAPTURE(t.pooled);
    CAPTURE(t.block);
    REQUIRE_NOTHROW(engine::gpu::checkThresholds(t));
    CHECK(t.warp >= engine::gpu::kMinWarpRow);
    CHECK(t.pooled >= engine::gpu::kBlockThreads);
    // The warp threshold is a share edge: the warp layer's rows give every resident warp at least that much work.
    uint64_t warpWork = 0;
    for (uint32_t w : work) warpWork += w <= t.warp ? w : 0;
    if (t.warp > engine::gpu::kMinWarpRow) CHECK(uint64_t{t.warp} * warps <= 2 * warpWork);
    // A larger device never gives one warp more.
    CHECK(engine::gpu::chooseThresholds(h, {warps * 4, shape.blocks * 4}, {}).warp <= t.warp);

    std::array<uint32_t, engine::gpu::kLayers> rows{};
    uint64_t blockRuns = 0;
    for (uint32_t w : work) {
      if (w == 0) continue;
      ++rows[layerIndex(w, t)];
      if (engine::gpu::layerOf(w, t) >= Layer::Block) blockRuns += engine::gpu::piecesOf(w, t);
    }
    const engine::gpu::LayerSizes sizes = engine::gpu::layerSizes(h, t);
    CHECK(sizes.rows == rows);
    CHECK(sizes.blockRuns >= blockRuns);  // the block queue is large enough,
    CHECK(sizes.blockRuns <= 2 * blockRuns);  // and at most twice what it needs
  }
}

TEST_CASE("load-balance thresholds given as options are used as they are, or refused") {
  const engine::gpu::WorkHistogram h = histogramOf({1, 5, 300, 70000});
  const engine::gpu::DeviceShape shape{8448, 1056};
  CHECK(engine::gpu::chooseThresholds(h, shape, {1, 4, 256}) == Thresholds{1, 4, 256});
  for (Thresholds bad : {Thresholds{3, 4, 256}, Thresholds{8, 4, 256}, Thresholds{1, 4, 128}, Thresholds{0, 4, 256},
                         Thresholds{1, 512, 256}}) {
    CHECK_THROWS_AS(engine::gpu::chooseThresholds(h, shape, bad), Error);
  }
}

TEST_CASE("rows are sorted into the load-balance layers on the GPU as the host sorts them") {
  if (noGpu()) return;
  std::mt19937 random(5);
  for (Thresholds t : {Thresholds{64, 256, 1024}, Thresholds{1, 4, 256}, Thresholds{4096, 4096, 4096},
                       Thresholds{1, 1, 256}}) {
    CAPTURE(t.warp);
    CAPTURE(t.pooled);
    CAPTURE(t.block);
    const auto work = randomWork(random, 30000, 100000);
    const engine::gpu::BinnedRows binned = engine::gpu::binRowsOnGpu(work, t);
    std::vector<int> warpEntries(work.size(), 0);
    std::vector<std::vector<engine::gpu::RowRun>> pooled(work.size()), block(work.size());
    for (uint32_t r : binned.warpRows) ++warpEntries.at(r);
    for (const auto& run : binned.pooledRuns) pooled.at(run.row).push_back(run);
    for (const auto& run : binned.blockRuns) block.at(run.row).push_back(run);
    for (uint32_t r = 0; r < work.size(); ++r) {
      CAPTURE(r);
      CAPTURE(work[r]);
      const int layer = work[r] == 0 ? -1 : layerIndex(work[r], t);
      std::sort(block[r].begin(), block[r].end());
      REQUIRE(warpEntries[r] == (layer == 0 ? 1 : 0));
      REQUIRE(pooled[r] == (layer == 1 ? expectedRuns(r, work[r], t) : std::vector<engine::gpu::RowRun>{}));
      REQUIRE(block[r] == (layer >= 2 ? expectedRuns(r, work[r], t) : std::vector<engine::gpu::RowRun>{}));
    }
  }
}

TEST_CASE("one join step on the GPU equals a host nested-loop join, through every layer and each ablation") {
  if (noGpu()) return;
  std::mt19937 random(6);
  TempDir dir;
  writeFile(dir / "g.nt", skewedGraph(random));
  Database::load(dir / "db", {(dir / "g.nt").string()});
  GraphStore store(dir / "db");
  const AdjacencyFile& out = store.adjacency(pcsr::Direction::Out);
  REQUIRE(out.predicateCount() == 2);
  const PredicateAdjacency& driver = out.predicate(0);
  const PredicateAdjacency& check = out.predicate(1);
  const auto vertices = static_cast<uint32_t>(store.catalog().vertexCount);

  engine::gpu::JoinStepCase c;
  c.driver = &driver;
  c.check = &check;
  for (int r = 0; r < 3000; ++r) {
    // One row in five has an x without driver edges: no candidates.
    c.x.push_back(random() % 5 == 0 ? random() % vertices : driver.keys()[random() % driver.keys().size()]);
    c.y.push_back(check.keys()[random() % check.keys().size()]);
  }
  std::vector<uint32_t> bits((vertices + 31) / 32);
  for (auto& word : bits) word = random() | random();  // about three bits in four set

  for (bool filtered : {false, true}) {
    for (bool injective : {false, true}) {
      c.candidateBits = filtered ? bits : std::vector<uint32_t>{};
      c.injective = injective;
      std::vector<uint32_t> rows, candidates;
      engine::gpu::WorkHistogram histogram{};
      for (uint32_t r = 0; r < c.x.size(); ++r) {
        const auto list = driver.neighbours(c.x[r]);
        if (!list.empty()) ++histogram[std::bit_width(list.size() - 1)];
        const auto probe = check.neighbours(c.y[r]);
        for (uint32_t v : list) {
          const bool bit = !filtered || (bits[v / 32] >> (v % 32)) & 1;
          if (bit && std::binary_search(probe.begin(), probe.end(), v) && !(injective && (v == c.x[r] || v == c.y[r]))) {
            rows.push_back(r);
            candidates.push_back(v);
          }
        }
      }
      for (Thresholds t : {Thresholds{}, Thresholds{1, 4, 256}, Thresholds{4096, 4096, 4096}, Thresholds{64, 256, 256}}) {
        for (int mode = 0; mode < 3; ++mode) {  // Prealloc-Combine, two-pass, naive set operations
          CAPTURE(filtered);
          CAPTURE(injective);
          CAPTURE(t.warp);
          CAPTURE(t.pooled);
          CAPTURE(t.block);
          CAPTURE(mode);
          c.thresholds = t;
          c.twoPass = mode == 1;
          c.naive = mode == 2;
          const engine::gpu::JoinStepResult result = engine::gpu::joinStepOnGpu(c);
          CHECK(result.histogram == histogram);
          CHECK(result.rows == rows);
          CHECK(result.candidates == candidates);
        }
      }
    }
  }
}

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
