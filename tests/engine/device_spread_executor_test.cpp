// Several devices as one executor (engine/placement/device_spread_executor.h),
// with CPU executors standing in for GPUs (the spreading is the same; the
// GPU machine runs it over real GPUs, tests/gpu): a cut BGP gives one
// device's rows in its order, counts, distinct counts and counts per vertex
// alike; light calls
// go to the quietest device; a device's failure fails the call.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <limits>
#include <random>
#include <set>
#include <thread>

#include "engine/cpu/cpu_executor.h"
#include "engine/optimizer/optimizer.h"
#include "engine/optimizer/walk_estimator.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/placement/device_spread_executor.h"
#include "engine/placement/fallback_executor.h"
#include "engine/query/query_runner.h"
#include "gsparql/database.h"
#include "parser/parse.h"
#include "parser/query_graph.h"
#include "storage/graph_store.h"
#include "storage/named_graphs.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::engine;
using namespace gsparql::test;

namespace {

// `count` CPU executors as devices, every BGP cut (no plan is too light).
std::unique_ptr<Executor> cpuDevices(size_t count, uint32_t chunksPerDevice) {
  std::vector<SpreadDevice> devices;
  for (size_t d = 0; d < count; ++d) devices.push_back({"CPU " + std::to_string(d), makeCpuExecutor()});
  SpreadOptions options;
  options.splitMicroseconds = 0;
  options.chunksPerDevice = chunksPerDevice;
  return makeDeviceSpreadExecutor(std::move(devices), options);
}

std::vector<std::vector<ValueId>> rowsInOrder(const Table& table) {
  std::vector<std::vector<ValueId>> rows(table.rows);
  for (size_t r = 0; r < table.rows; ++r) {
    for (size_t c = 0; c < table.width(); ++c) rows[r].push_back(table.at(r, c));
  }
  return rows;
}

struct Outcome {
  std::vector<std::vector<ValueId>> rows;
  std::string notes;
};

Outcome run(const GraphStore& store, Executor& executor, const std::string& text, bool injective) {
  const sparql::Query query = sparql::parseQuery(text);
  auto orderer = makeStatisticsOrderer();
  QueryRequest request;
  request.run.injective = injective;
  QueryOutcome outcome = runQuery(query, store, executor, *orderer, request);
  return {rowsInOrder(outcome.rows), executorNotes(*outcome.plan)};
}

// The query's rows, its COUNT(*), and COUNT(DISTINCT) and GROUP BY with
// COUNT(*) of each variable, on both executors: the same, rows in the same
// order. Returns how many of the spread runs were cut (and adds those of
// GROUP BY to `groupsCut`).
int compareSpread(const GraphStore& store, Executor& spread, Executor& one, const std::string& text,
                  const std::vector<std::string>& variables, int* groupsCut = nullptr) {
  int cut = 0;
  for (bool injective : {false, true}) {
    std::vector<std::string> texts{text, countingQuery(text)};
    for (const std::string& v : variables) {
      texts.push_back(countingQuery(text, v));
      texts.push_back(groupCountQuery(text, v));
    }
    for (const std::string& t : texts) {
      CAPTURE(t);
      CAPTURE(injective);
      const Outcome spreadOutcome = run(store, spread, t, injective);
      CHECK(spreadOutcome.rows == run(store, one, t, injective).rows);
      const bool wasCut = spreadOutcome.notes.find("chunks of the first step's candidates") != std::string::npos;
      if (wasCut) CHECK(spreadOutcome.notes.find("priced ") != std::string::npos);  // what the threshold weighed
      cut += wasCut;
      if (groupsCut != nullptr && wasCut && t.find(" GROUP BY ") != std::string::npos) ++*groupsCut;
    }
  }
  return cut;
}

}  // namespace

TEST_CASE("counts per vertex of several parts of the rows add vertex by vertex, in vertex order") {
  const VertexCounts added = addCounts({{{2, 1}, {5, 3}}, {}, {{1, 4}, {5, 2}, {9, 1}}, {{2, 6}}});
  CHECK(added == VertexCounts{{1, 4}, {2, 7}, {5, 5}, {9, 1}});
  CHECK(addCounts({}).empty());
  const uint64_t most = std::numeric_limits<int64_t>::max();  // what SPARQL's xsd:integer counts hold here
  CHECK(addCounts({{{3, most - 1}}, {{3, 1}}}) == VertexCounts{{3, most}});
  CHECK_THROWS_AS(addCounts({{{3, most}}, {{3, 1}}}), Error);  // never a wrapped count
}

TEST_CASE("BGPs cut over several devices give one device's rows in its order, and its counts, distinct counts and counts per vertex") {
  std::mt19937 random(41);
  auto one = makeCpuExecutor();
  auto spread = cpuDevices(3, 2);
  int cut = 0, cases = 0, groupsCut = 0;
  for (int i = 0; i < scaledCases(60); ++i) {
    RandomCase c = randomCase(random);
    TempDir dir;
    const GraphStore store(loadGraph(dir.path(), c.graph));
    CAPTURE(c.query);
    cut += compareSpread(store, *spread, *one, c.query, c.variables, &groupsCut);
    ++cases;
  }
  CHECK(cut > cases);  // most cases were cut, rows and counts
  CHECK(groupsCut > cases / 2);  // counts per vertex too
}

namespace {

const GraphStore& watdivSf1() {
  static const TempDir dir;
  static const GraphStore store = [] {
    Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
    return GraphStore(dir.path());
  }();
  return store;
}

}  // namespace

TEST_CASE("WatDiv SF1's queries cut over two devices give one device's rows in its order") {
  const GraphStore& store = watdivSf1();
  auto one = makeCpuExecutor();
  auto spread = cpuDevices(2, 4);
  int cut = 0;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dataFile("watdiv/sf1/queries"))) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    CAPTURE(file);
    cut += compareSpread(store, *spread, *one, readText(file), {"v1"});
  }
  CHECK(cut > static_cast<int>(files.size() / 8));  // those from a constant are not cut
}

namespace {

// Records the calls in flight on it; each takes a few milliseconds. Fails
// its calls where told to.
class SlowDevice : public Executor {
 public:
  explicit SlowDevice(std::atomic<int>& calls, bool fails = false) : calls_(calls), fails_(fails) {}
  std::string name() const override { return "slow"; }
  IdColumns execute(const BgpPlan&, const BoundBgp&, const GraphStore&, const BgpCall&, ExecutionProfile&) override {
    ++calls_;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (fails_) throw ExecutorDeclined("out of device memory", ExecutorDeclined::When::OutOfMemory);
    return IdColumns(0);
  }

 private:
  std::atomic<int>& calls_;
  bool fails_;
};

const GraphStore& smallStore() {
  static const TempDir dir;
  static const GraphStore store = [] {
    writeFile(dir / "data.nt", "<http://e/a> <http://e/p> <http://e/b> .\n<http://e/b> <http://e/p> <http://e/c> .\n");
    Database::load(dir / "db", {(dir / "data.nt").string()});
    return GraphStore(dir / "db");
  }();
  return store;
}

}  // namespace

TEST_CASE("light calls go to the device with the fewest calls in flight, so concurrent ones use every device") {
  std::atomic<int> first{0}, second{0};
  std::vector<SpreadDevice> devices;
  devices.push_back({"A", std::make_unique<SlowDevice>(first)});
  devices.push_back({"B", std::make_unique<SlowDevice>(second)});
  auto spread = makeDeviceSpreadExecutor(std::move(devices), {});  // nothing is heavy at the default threshold
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 5; ++i) {
        ExecutionProfile profile;
        spread->execute({}, {}, smallStore(), {}, profile);
        CHECK((profile.note == "on A" || profile.note == "on B"));
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(first + second == 20);
  CHECK(first >= 5);
  CHECK(second >= 5);
}

TEST_CASE("a device that fails a chunk fails the whole call, which the placer then runs on the CPU executor") {
  const GraphStore& store = smallStore();
  std::atomic<int> first{0}, second{0};
  std::vector<SpreadDevice> devices;
  devices.push_back({"A", std::make_unique<SlowDevice>(first, true)});
  devices.push_back({"B", std::make_unique<SlowDevice>(second, true)});
  SpreadOptions options;
  options.splitMicroseconds = 0;
  auto cpu = makeCpuExecutor();
  auto gpu = makeFallbackExecutor(makeDeviceSpreadExecutor(std::move(devices), options), *cpu);
  const std::string text = "SELECT * { ?x <http://e/p> ?y }";
  const Outcome outcome = run(store, *gpu, text, false);
  CHECK(outcome.rows == run(store, *cpu, text, false).rows);
  CHECK(outcome.rows.size() == 2);
  CHECK(outcome.notes.find("ran on the CPU executor: out of device memory") != std::string::npos);
  CHECK(first + second >= 1);  // the devices were asked first
}

namespace {

// A device that only walks (the CPU's walks), recording the plans of each
// batch it is sent.
class WalkingDevice : public Executor {
 public:
  explicit WalkingDevice(std::vector<size_t>& batches) : walks_(batches) {}
  std::string name() const override { return "walking"; }
  IdColumns execute(const BgpPlan&, const BoundBgp&, const GraphStore&, const BgpCall&, ExecutionProfile&) override {
    return IdColumns(0);
  }
  WalkEstimator* walkEstimator() override { return &walks_; }

 private:
  class RecordedWalks : public WalkEstimator {
   public:
    explicit RecordedWalks(std::vector<size_t>& batches) : batches_(batches) {}
    std::string name() const override { return "recorded"; }
    uint32_t defaultWalks() const override { return 512; }
    std::vector<std::vector<StepEstimate>> walkBatch(std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                     const GraphStore& store, const WalkOptions& options) override {
      {
        std::lock_guard lock(mutex_);
        batches_.push_back(plans.size());
      }
      return cpu_->walkBatch(plans, bgp, store, options);
    }

   private:
    std::vector<size_t>& batches_;
    std::mutex mutex_;
    std::unique_ptr<WalkEstimator> cpu_ = makeCpuWalkEstimator();
  };
  RecordedWalks walks_;
};

}  // namespace

TEST_CASE("the optimizer's walks: a large batch dealt out over the devices gives one device's estimates, a small one runs on one device") {
  const GraphStore& store = watdivSf1();
  const sparql::Query query = sparql::parseQuery(readText(dataFile("watdiv/sf1/queries/C3_01.rq")));
  const BoundBgp bgp =
      bindBgp(*sparql::basicGraphPatterns(*query.pattern).at(0)->queryGraph, store, NamedGraphs::kDefaultGraph);
  const ComponentPlan plan = makeStatisticsOrderer()->plan(bgp, store.catalog()).components.at(0);
  REQUIRE(plan.steps.size() >= 4);
  std::vector<ComponentPlan> prefixes;  // plans of different lengths: a misplaced estimate shows
  for (size_t n = 2; n <= plan.steps.size(); ++n) {
    prefixes.push_back(plan);
    prefixes.back().steps.resize(n);
  }
  const WalkOptions options{.walks = 300, .seed = 5};
  const auto alone = makeCpuWalkEstimator()->walkBatch(prefixes, bgp, store, options);
  for (const uint32_t devices : {2u, 3u}) {
    for (const uint64_t splitWalks : {uint64_t{1}, uint64_t{1} << 40}) {
      CAPTURE(devices);
      CAPTURE(splitWalks);
      std::vector<std::vector<size_t>> batches(devices);
      std::vector<SpreadDevice> spread;
      for (uint32_t d = 0; d < devices; ++d) {
        spread.push_back({std::to_string(d), std::make_unique<WalkingDevice>(batches[d])});
      }
      SpreadOptions spreadOptions;
      spreadOptions.splitWalks = splitWalks;
      auto executor = makeDeviceSpreadExecutor(std::move(spread), spreadOptions);
      REQUIRE(executor->walkEstimator() != nullptr);
      CHECK(executor->walkEstimator()->name() == "recorded");
      CHECK(executor->walkEstimator()->defaultWalks() == 512);
      const auto estimates = executor->walkEstimator()->walkBatch(prefixes, bgp, store, options);
      REQUIRE(estimates.size() == alone.size());
      for (size_t p = 0; p < alone.size(); ++p) {
        REQUIRE(estimates[p].size() == alone[p].size());
        for (size_t i = 0; i < alone[p].size(); ++i) {
          CHECK(estimates[p][i].rows == alone[p][i].rows);
          CHECK(estimates[p][i].survivors == alone[p][i].survivors);
        }
      }
      size_t used = 0, plans = 0;
      for (const auto& b : batches) {
        used += b.empty() ? 0 : 1;
        for (size_t n : b) plans += n;
      }
      CHECK(plans == prefixes.size());
      CHECK(used == (splitWalks == 1 ? devices : 1u));
    }
  }
}
