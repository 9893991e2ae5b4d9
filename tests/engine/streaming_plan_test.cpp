// How the GPU cuts adjacency it streams: which adjacency a query streams
// under a cache budget, and key ranges that cover every key once within a
// range's bytes (checked on WatDiv SF1's adjacency).
#include <doctest/doctest.h>

#include "engine/gpu/streaming_plan.h"
#include "gsparql/database.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;
using engine::gpu::AdjacencyUse;
using engine::gpu::KeyRange;

namespace {

constexpr auto kOut = pcsr::Direction::Out;
constexpr auto kIn = pcsr::Direction::In;

}  // namespace

TEST_CASE("key ranges cover every key of a predicate once, in order, each within its bytes unless one key alone") {
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  size_t multiRange = 0;
  for (pcsr::Direction direction : {kOut, kIn}) {
    const AdjacencyFile& file = store.adjacency(direction);
    for (uint32_t p = 0; p < file.predicateCount(); ++p) {
      const PredicateAdjacency& a = file.predicate(p);
      for (uint64_t maxBytes : {uint64_t{64}, uint64_t{4} << 10, uint64_t{64} << 10, uint64_t{1} << 30}) {
        CAPTURE(p);
        CAPTURE(maxBytes);
        const std::vector<KeyRange> ranges = engine::gpu::keyRanges(a, maxBytes);
        uint32_t next = 0;
        uint64_t bytes = 0;
        for (size_t i = 0; i < ranges.size(); ++i) {
          const KeyRange& r = ranges[i];
          const uint64_t fits = std::max<uint64_t>(1, maxBytes >> (3 - std::min<size_t>(3, i)));  // 1/8, 1/4, 1/2, 1
          CHECK(r.first == next);
          CHECK(r.end > r.first);
          CHECK((engine::gpu::rangeBytes(a, r) <= fits || r.end == r.first + 1));
          // As large as fits: one key more would not.
          if (r.end < a.keys().size()) CHECK(engine::gpu::rangeBytes(a, {r.first, r.end + 1}) > fits);
          bytes += a.offsets()[r.end] - a.offsets()[r.first];
          next = r.end;
        }
        CHECK(next == a.keys().size());
        CHECK(bytes == a.neighbours().size());
        multiRange += ranges.size() > 1;
      }
    }
  }
  CHECK(multiRange > 0);
}

TEST_CASE("a query streams nothing while its adjacency fits the cache, else its largest until the rest take half") {
  const std::vector<AdjacencyUse> uses{{{kOut, 1}, 300}, {{kIn, 1}, 100}, {{kOut, 2}, 50}, {{kOut, 3}, 20}};
  CHECK(engine::gpu::planStreaming(uses, 470).streamed.empty());
  CHECK(engine::gpu::planStreaming(uses, 1000).streamed.empty());

  const engine::gpu::StreamingPlan tight = engine::gpu::planStreaming(uses, 469);
  CHECK(tight.streamed == std::set<engine::gpu::AdjacencyId>{{kOut, 1}});  // the other three take 170 <= 234
  CHECK(tight.streams(kOut, 1));
  CHECK_FALSE(tight.streams(kIn, 1));
  CHECK(tight.streamedBytes == 300);  // what peers' homes must hold to take it (gpu/peer_ranges.cuh)

  const engine::gpu::StreamingPlan small = engine::gpu::planStreaming(uses, 200);
  CHECK(small.streamed == std::set<engine::gpu::AdjacencyId>{{kOut, 1}, {kIn, 1}});  // the other two take 70 <= 100
  CHECK(small.streamedBytes == 400);
  CHECK(small.partitionBytes >= 16 << 10);  // never ranges of a few bytes, however small the cache

  const engine::gpu::StreamingPlan large = engine::gpu::planStreaming({{{kOut, 1}, uint64_t{8} << 30}}, 1u << 30);
  CHECK(large.partitionBytes == (uint64_t{1} << 30) / 4);  // two ranges in flight take half the cache
}

TEST_CASE("the packed lists of a few keys are their neighbour lists, each key once, within the bytes allowed") {
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  const AdjacencyFile& file = store.adjacency(kOut);
  size_t checked = 0;
  for (uint32_t p = 0; p < file.predicateCount(); ++p) {
    const PredicateAdjacency& a = file.predicate(p);
    if (a.keys().size() < 3) continue;
    CAPTURE(p);
    // Two keys (one twice, out of order) and a vertex that is no key.
    const uint32_t first = a.keys().front(), last = a.keys().back();
    const std::vector<uint32_t> values{last, first, last, last + 1};
    const std::optional<engine::gpu::PackedLists> packed = engine::gpu::packLists(a, values, uint64_t{1} << 30);
    REQUIRE(packed.has_value());
    CHECK(packed->keys == std::vector<uint32_t>{first, last});
    REQUIRE(packed->offsets.size() == 3);
    CHECK(packed->offsets.front() == 0);
    for (size_t i = 0; i < 2; ++i) {
      const std::span<const uint32_t> expected = a.neighbours(packed->keys[i]);
      const std::vector<uint32_t> got(packed->neighbours.begin() + packed->offsets[i],
                                      packed->neighbours.begin() + packed->offsets[i + 1]);
      CHECK(got == std::vector<uint32_t>(expected.begin(), expected.end()));
    }
    CHECK(engine::gpu::packLists(a, values, packed->bytes()).has_value());
    CHECK_FALSE(engine::gpu::packLists(a, values, packed->bytes() - 1).has_value());
    ++checked;
  }
  CHECK(checked > 10);
}
