// The GPU executor against the CPU executor, row for row (as ids), on the
// WatDiv SF1 sample and on random BGPs, in both semantics and with each
// ablation switched on.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <thread>

#include "engine/cpu/cpu_executor.h"
#include "engine/gpu/gpu_executor.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/physical/bgp_scan.h"
#include "engine/placement/device_spread_executor.h"
#include "engine/placement/executor_pool.h"
#include "engine/placement/fallback_executor.h"
#include "engine/query/query_runner.h"
#include "every_gpu.h"
#include "gsparql/database.h"
#include "gsparql/update_batch.h"
#include "parser/parse.h"
#include "storage/graph_store.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// The GPU executor as --backend gpu runs it: what it declines runs on `cpu`
// (engine/placement/fallback_executor.h), and its note says so.
std::unique_ptr<engine::Executor> gpuBackend(engine::Executor& cpu, const engine::GpuOptions& options = {}) {
  return engine::makeFallbackExecutor(engine::makeGpuExecutor(options), cpu);
}

bool skipWithoutGpu() {
  if (engine::gpuAvailable()) return false;
  std::printf("no CUDA device: skipped\n");
  return true;
}

std::vector<std::vector<engine::ValueId>> sortedRows(const engine::Table& table) {
  std::vector<std::vector<engine::ValueId>> rows(table.rows);
  for (size_t r = 0; r < table.rows; ++r) {
    for (size_t c = 0; c < table.width(); ++c) rows[r].push_back(table.at(r, c));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

// The rows of an executor's table, sorted (executors may order them differently).
std::vector<std::vector<uint32_t>> sortedIdRows(const engine::IdColumns& table) {
  std::vector<std::vector<uint32_t>> rows;
  for (size_t r = 0; r < table.rows(); ++r) {
    std::vector<uint32_t>& row = rows.emplace_back();
    for (uint32_t c = 0; c < table.width(); ++c) row.push_back(table.at(r, c));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

// Every batch of `cursor`, in one table.
engine::IdColumns readToEnd(engine::RowCursor& cursor) {
  std::optional<engine::IdColumns> all;
  while (std::optional<engine::IdColumns> batch = cursor.next()) {
    if (all) {
      all->append(*batch);
    } else {
      all = std::move(*batch);
    }
  }
  return all ? std::move(*all) : engine::IdColumns();
}

// Runs `text` on both executors and checks the result rows (as ids, which
// both runs number alike); returns the GPU's notes (which path it took).
std::string compare(const GraphStore& store, engine::Executor& gpu, engine::Executor& cpu, const std::string& text,
                    bool injective, bool unionDefaultGraph = false) {
  sparql::Query query = sparql::parseQuery(text);
  auto orderer = engine::makeStatisticsOrderer();
  engine::QueryRequest options;
  options.run.injective = injective;
  options.unionDefaultGraph = unionDefaultGraph;
  engine::QueryOutcome onGpu = engine::runQuery(query, store, gpu, *orderer, options);
  engine::QueryOutcome onCpu = engine::runQuery(query, store, cpu, *orderer, options);
  CHECK(onGpu.rows.rows == onCpu.rows.rows);
  CHECK(sortedRows(onGpu.rows) == sortedRows(onCpu.rows));
  return engine::executorNotes(*onGpu.plan);
}

std::vector<std::string> sf1Queries() {
  std::vector<std::string> texts;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dataFile("watdiv/sf1/queries"))) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) texts.push_back(readText(f));
  return texts;
}

// The rows per load-balance layer (warp, pooled, block, split) that the
// note reports, summed over its steps.
std::array<uint64_t, 4> layerRows(const std::string& note) {
  static const std::regex step(R"( (\d+)/(\d+)/(\d+)/(\d+) \()");
  std::array<uint64_t, 4> sums{};
  for (auto m = std::sregex_iterator(note.begin(), note.end(), step); m != std::sregex_iterator(); ++m) {
    for (int k = 0; k < 4; ++k) sums[k] += std::stoull((*m)[k + 1].str());
  }
  return sums;
}

// The general path with thresholds so small that WatDiv's rows fall in every layer.
engine::GpuOptions everyLayer() {
  engine::GpuOptions o;
  o.fuseLightSteps = false;
  o.loadBalance = {1, 4, 256};
  return o;
}

// Under compute-sanitizer, which runs the kernels many times slower, the
// longest cases can be cut down: GSPARQL_GPU_SF1_VARIANTS="0,8" runs only
// those variants of the WatDiv SF1 case, GSPARQL_GPU_RANDOM_CASES=N only the
// first N random BGPs. Unset, everything runs.
bool selectedByEnvironment(const char* name, size_t index) {
  const char* list = std::getenv(name);
  if (list == nullptr) return true;
  std::istringstream items(list);
  for (std::string item; std::getline(items, item, ',');) {
    if (!item.empty() && std::stoul(item) == index) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("GPU and CPU executors give the same rows on every WatDiv SF1 query, with every ablation, path and layer") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  auto cpu = engine::makeCpuExecutor();
  std::vector<engine::GpuOptions> variants(11);
  variants[1].plainCsrLookups = true;
  variants[2].twoPassJoin = true;
  variants[3].naiveSetOperations = true;
  variants[4].fuseLightSteps = false;
  variants[5].fusedCapacity = 100;  // most queries outgrow it: the fall-back to the general path
  variants[6].fuseLightSteps = false;
  variants[6].stepCandidateBudget = 50;  // most steps run depth-first over slices of rows
  variants[7].fusedBlocks = 7;           // every fused step on a cooperative grid
  variants[8] = everyLayer();
  variants[9] = everyLayer();
  variants[9].twoPassJoin = true;
  variants[10].memoryBytes = 256 << 10;  // 256 KB: small fused buffers, large steps depth-first
  variants[10].graphCacheBytes = 64 << 20;  // (adjacency whole: streaming has a case of its own)

  for (size_t v = 0; v < variants.size(); ++v) {
    if (!selectedByEnvironment("GSPARQL_GPU_SF1_VARIANTS", v)) continue;
    CAPTURE(v);
    auto gpu = gpuBackend(*cpu, variants[v]);
    int sliced = 0, fused = 0, grid = 0;
    std::array<uint64_t, 4> layers{};
    for (const auto& text : sf1Queries()) {
      CAPTURE(text);
      for (bool injective : {false, true}) {
        std::string note = compare(store, *gpu, *cpu, text, injective);
        sliced += note.find("depth-first over slices") != std::string::npos;
        fused += note.find("steps fused") != std::string::npos;
        grid += note.find("on a grid of 7 blocks") != std::string::npos;
        const auto rows = layerRows(note);
        for (int k = 0; k < 4; ++k) layers[k] += rows[k];
      }
    }
    // The paths under test were taken.
    CHECK((v == 0 || v == 5 || v == 7 || v == 10) == (fused > 0));
    CHECK((v == 6 || v == 10) == (sliced > 0));
    if (v == 7) CHECK(grid == fused);
    for (int k = 0; k < 4 && (v == 8 || v == 9); ++k) {
      CAPTURE(k);
      CHECK(layers[k] > 0);  // every layer was used
    }
  }
}

TEST_CASE("GPU and CPU executors agree on random BGPs, with and without step fusion, on one block and on a grid, "
          "through every layer") {
  if (skipWithoutGpu()) return;
  std::mt19937 random(5);
  auto cpu = engine::makeCpuExecutor();
  auto gpu = gpuBackend(*cpu);
  engine::GpuOptions general;
  general.fuseLightSteps = false;
  auto gpuGeneral = gpuBackend(*cpu, general);
  engine::GpuOptions grid;
  grid.fusedBlocks = 5;
  auto gpuGrid = gpuBackend(*cpu, grid);
  auto gpuEveryLayer = gpuBackend(*cpu, everyLayer());
  const int cases = std::getenv("GSPARQL_GPU_RANDOM_CASES") ? std::atoi(std::getenv("GSPARQL_GPU_RANDOM_CASES")) : 200;
  for (int i = 0; i < cases; ++i) {
    RandomCase c = randomCase(random);
    TempDir dir;
    GraphStore store(loadGraph(dir.path(), c.graph));
    CAPTURE(c.query);
    for (engine::Executor* g : {gpu.get(), gpuGeneral.get(), gpuGrid.get(), gpuEveryLayer.get()}) {
      for (bool injective : {false, true}) {
        const std::string note = compare(store, *g, *cpu, c.query, injective);
        CHECK(note.find("ran on the CPU executor") == std::string::npos);  // every case runs on the GPU
      }
    }
  }
}

TEST_CASE("a variable limited to a set of constants (VALUES, a path's ends) runs on the GPU with the CPU's rows, on both paths") {
  if (skipWithoutGpu()) return;
  std::mt19937 random(25);
  auto cpu = engine::makeCpuExecutor();
  auto gpu = gpuBackend(*cpu);
  auto gpuEveryLayer = gpuBackend(*cpu, everyLayer());
  int limited = 0;
  for (int i = 0; i < 200; ++i) {
    RandomCase c = randomCase(random);
    const std::string variable = randomVertexVariable(c, random);
    if (variable.empty()) continue;
    const std::string query = withValues(c, variable, randomVertexTerms(random));
    TempDir dir;
    GraphStore store(loadGraph(dir.path(), c.graph));
    CAPTURE(query);
    for (engine::Executor* g : {gpu.get(), gpuEveryLayer.get()}) {
      for (bool injective : {false, true}) {
        const std::string note = compare(store, *g, *cpu, query, injective);
        CHECK(note.find("ran on the CPU executor") == std::string::npos);
      }
    }
    const engine::QueryOutcome outcome =
        engine::runQuery(sparql::parseQuery(query), store, *gpu, *engine::makeStatisticsOrderer(), {});
    limited += engine::explainPlan(outcome, store).find(" constants") != std::string::npos;
  }
  CHECK(limited > 50);
}

TEST_CASE("predicate variables run on the GPU through the all-predicates adjacency, on both paths and in slices") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  auto cpu = engine::makeCpuExecutor();
  engine::GpuOptions general;
  general.fuseLightSteps = false;
  engine::GpuOptions sliced = general;
  sliced.stepCandidateBudget = 50;
  const std::string user = "<http://db.uwaterloo.ca/~galuc/wsdbm/User0>";
  const std::vector<std::string> queries = {
      "SELECT * WHERE { ?s ?p ?o }",
      "SELECT * WHERE { " + user + " ?p ?o . ?o ?p ?x }",            // one variable on two edges
      "SELECT * WHERE { " + user + " ?p ?o . ?o ?q ?x }",
      "SELECT * WHERE { ?s ?p ?o . ?s ?q ?o }",                       // parallel edges
      "SELECT * WHERE { ?s a ?t . ?s ?p ?t }",
      "SELECT * WHERE { " + user + " ?p ?o . ?p ?q ?z }",             // the predicate as a vertex
      "SELECT * WHERE { " + user + " ?p \"DENNIS\" . ?x ?p ?y }",     // keys of a predicate bound per row
  };
  for (const engine::GpuOptions& options : {engine::GpuOptions{}, general, sliced, everyLayer()}) {
    auto gpu = gpuBackend(*cpu, options);
    for (const auto& text : queries) {
      CAPTURE(text);
      for (bool injective : {false, true}) {
        CHECK(compare(store, *gpu, *cpu, text, injective).find("ran on the CPU executor") == std::string::npos);
      }
    }
  }
}

TEST_CASE("GPU and CPU executors agree on random BGPs in named graphs: GRAPH <g>, GRAPH ?g, FROM, several FROM, the default graph and the union of the named graphs") {
  // Predicate variables read the all-predicates adjacency of their graph,
  // cached per graph: one executor runs every graph of every case.
  if (skipWithoutGpu()) return;
  std::mt19937 random(20261124);
  auto cpu = engine::makeCpuExecutor();
  auto gpu = gpuBackend(*cpu);
  const std::vector<std::string> names = {"<http://g/1>", "<http://g/2>"};
  for (int i = 0; i < 100; ++i) {
    const RandomCase c = randomCase(random);
    TempDir dir;
    writeFile(dir / "data.nq", toNQuads({c.graph, randomCase(random).graph, randomCase(random).graph}, names));
    Database::load(dir / "db", {(dir / "data.nq").string()});
    GraphStore store(dir / "db");
    const std::string where = c.query.substr(c.query.find('{'));
    for (const std::string& text : {c.query, "SELECT * WHERE { GRAPH " + names[0] + " " + where + " }",
                                    "SELECT * WHERE { GRAPH ?g " + where + " }", "SELECT * FROM " + names[1] + " " + where,
                                    "SELECT * FROM " + names[0] + " FROM " + names[1] + " " + where}) {
      CAPTURE(text);
      CHECK(compare(store, *gpu, *cpu, text, false).find("ran on the CPU executor") == std::string::npos);
    }
    CHECK(compare(store, *gpu, *cpu, c.query, false, true).find("ran on the CPU executor") == std::string::npos);
  }
}

TEST_CASE("GPU and CPU executors agree on random BGPs over a database read with its delta, snapshot after snapshot") {
  // One GPU executor throughout: its adjacency cache must tell the
  // snapshots of one generation apart (storage/delta_overlay.h).
  if (skipWithoutGpu()) return;
  std::mt19937 random(20261125);
  auto cpu = engine::makeCpuExecutor();
  auto gpu = gpuBackend(*cpu);
  for (int i = 0; i < 100; ++i) {
    const RandomCase c = randomCase(random);
    if (c.graph.size() < 2) continue;
    const auto half = c.graph.begin() + static_cast<std::ptrdiff_t>(c.graph.size() / 2);
    TempDir dir;
    writeFile(dir / "data.nt", toNTriples({c.graph.begin(), half}));
    Database::load(dir / "db", {(dir / "data.nt").string()});
    Database::update(dir / "db", "INSERT DATA { " + toNTriples({half, c.graph.end()}) + " }");
    for (int snapshot = 0; snapshot < 2; ++snapshot) {
      CAPTURE(snapshot);
      GraphStore store(dir / "db");
      CHECK(store.deltaFiles() == static_cast<uint32_t>(snapshot + 1));
      CHECK(compare(store, *gpu, *cpu, c.query, false).find("ran on the CPU executor") == std::string::npos);
      Database::update(dir / "db", "DELETE DATA { " + toNTriples({c.graph.front(), c.graph.back()}) + " }");
    }
  }
}

namespace {

// Every GPU of the machine as one executor, each BGP cut over them, what
// they decline run on `cpu`.
std::unique_ptr<engine::Executor> everyGpuCut(engine::Executor& cpu) {
  engine::SpreadOptions cutAll;
  cutAll.splitMicroseconds = 0;
  return engine::makeFallbackExecutor(everyGpu(cutAll), cpu);
}

std::vector<std::vector<engine::ValueId>> rowsInOrder(const engine::Table& table) {
  std::vector<std::vector<engine::ValueId>> rows(table.rows);
  for (size_t r = 0; r < table.rows; ++r) {
    for (size_t c = 0; c < table.width(); ++c) rows[r].push_back(table.at(r, c));
  }
  return rows;
}

// `text` cut over every GPU: the CPU's rows (compare()), and one GPU's in its
// order. Returns the spread run's notes.
std::string compareCut(const GraphStore& store, engine::Executor& cut, engine::Executor& oneGpu,
                       engine::Executor& cpu, const std::string& text, bool injective) {
  const std::string note = compare(store, cut, cpu, text, injective);
  const sparql::Query query = sparql::parseQuery(text);
  auto orderer = engine::makeStatisticsOrderer();
  engine::QueryRequest options;
  options.run.injective = injective;
  CHECK(rowsInOrder(engine::runQuery(query, store, cut, *orderer, options).rows) ==
        rowsInOrder(engine::runQuery(query, store, oneGpu, *orderer, options).rows));
  return note;
}

}  // namespace

TEST_CASE("BGPs cut over every GPU of the machine (two shares of one GPU) give one GPU's rows in its order, and the CPU's rows, counts and counts per vertex") {
  if (skipWithoutGpu()) return;
  auto cpu = engine::makeCpuExecutor();
  auto cut = everyGpuCut(*cpu);
  auto oneGpu = gpuBackend(*cpu);
  int spread = 0, runs = 0, groupsSpread = 0;
  const auto check = [&](const GraphStore& store, const std::string& text) {
    CAPTURE(text);
    std::vector<std::string> groups;
    for (const char* v : {"v0", "v1", "v2"}) {  // the first vertex, and others whose rows lie in several chunks
      if (text.find(std::string("?") + v + " ") != std::string::npos) groups.push_back(groupCountQuery(text, v));
    }
    for (bool injective : {false, true}) {
      for (const std::string& t : {text, countingQuery(text)}) {
        const std::string note = compareCut(store, *cut, *oneGpu, *cpu, t, injective);
        CHECK(note.find("ran on the CPU executor") == std::string::npos);
        spread += note.find("GPU 1 ran") != std::string::npos;
        ++runs;
      }
      for (const std::string& t : groups) {
        const std::string note = compareCut(store, *cut, *oneGpu, *cpu, t, injective);
        CHECK(note.find("ran on the CPU executor") == std::string::npos);
        groupsSpread += note.find("GPU 1 ran") != std::string::npos;
      }
    }
  };
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  const GraphStore sf1(dir.path());
  for (const std::string& text : sf1Queries()) check(sf1, text);
  std::mt19937 random(11);
  for (int i = 0; i < 100; ++i) {
    RandomCase c = randomCase(random);
    TempDir randomDir;
    const GraphStore store(loadGraph(randomDir.path(), c.graph));
    check(store, c.query);
  }
  CHECK(spread > runs / 8);  // the second GPU took chunks (those from a constant are not cut)
  CHECK(groupsSpread > 0);  // counts per vertex too
  MESSAGE(spread << " of " << runs << " rows and counts, " << groupsSpread << " counts per vertex spread");
}

TEST_CASE("queries from many threads share one Database's GPU executors, one or four streams, and get the CPU's answers") {
  // engine/placement/executor_pool.h: each GPU executor serves a call at a time, the
  // rest of each query (and its BGPs placed on the CPU under auto) runs
  // concurrently.
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  for (uint32_t streams : {1u, 4u}) {
  CAPTURE(streams);
  DatabaseOptions options;
  options.gpuExecutors = streams;
  const Database db(dir.path(), options);
  const std::vector<std::string> queries = sf1Queries();
  std::vector<std::vector<std::string>> expected;
  for (const std::string& q : queries) expected.push_back(sortedLines(db.query(q, {Backend::Cpu, Semantics::Homomorphism})));
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = 0; i < queries.size(); ++i) {
        const size_t q = (i + static_cast<size_t>(t) * 23) % queries.size();
        const Backend backend = (i + static_cast<size_t>(t)) % 2 == 0 ? Backend::Gpu : Backend::Auto;
        if (sortedLines(db.query(queries[q], {backend, Semantics::Homomorphism})) != expected[q]) ++mismatches;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(mismatches == 0);
  }
}

TEST_CASE("a snapshot made from another shares its GPU executors and keeps them once the other closes: it copies only "
          "what an update changed, preloads beside the other's queries, and answers as the CPU executor") {
  // api/shared_gpu_executors.h: a server's snapshot after each update.
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  const std::vector<std::string> queries = sf1Queries();
  QueryOptions gpu{Backend::Gpu, Semantics::Homomorphism};
  gpu.explain = true;
  const QueryOptions cpu{Backend::Cpu, Semantics::Homomorphism};
  const auto copies = [&](const Database& db, const std::string& text) {
    const QueryResult result = db.query(text, gpu);
    CHECK(sortedLines(result) == sortedLines(db.query(text, cpu)));
    return result.explain().find("bytes of adjacency to the device") != std::string::npos;
  };
  auto first = std::make_unique<Database>(dir.path());
  size_t copying = 0;
  for (const std::string& text : queries) copying += copies(*first, text);
  CHECK(copying > 0);

  UpdateBatch batch(dir.path(), std::chrono::seconds(60), first.get());
  batch.apply("INSERT DATA { <http://db.uwaterloo.ca/~galuc/wsdbm/User0> <http://db.uwaterloo.ca/~galuc/wsdbm/likes> "
              "<http://example.org/new> }");
  batch.commit();
  auto second = std::make_unique<Database>(batch.snapshot());
  first.reset();  // as a server drops a snapshot once it publishes the next: the executors stay with `second`
  copying = 0;
  for (const std::string& text : queries) {
    CAPTURE(text);
    const bool copied = copies(*second, text);
    if (text.find("likes") == std::string::npos) CHECK_FALSE(copied);
    copying += copied;
  }
  CHECK(copying > 0);  // `likes`, made again from the delta

  // A snapshot opened from the directory (its files mapped again) and
  // preloaded while queries of the second run on the same executors.
  std::atomic<int> mismatches{0};
  std::thread reader([&] {
    for (const std::string& text : queries) {
      if (sortedLines(second->query(text, gpu)) != sortedLines(second->query(text, cpu))) ++mismatches;
    }
  });
  DatabaseOptions preloading;
  preloading.gpuPreload = true;
  auto third = std::make_unique<Database>(dir.path(), preloading);
  reader.join();
  CHECK(mismatches == 0);
  for (const std::string& text : queries) CHECK_FALSE(copies(*third, text));

}

TEST_CASE("a cursor opened on one thread is read to the end on another, with the CPU executor's rows") {
  // A call's state is its run's (engine/gpu/gpu_run.cuh), none the
  // executor's: no cursor is tied to the thread that opened it. Every WatDiv
  // SF1 BGP is opened here, all cursors held at once, then each is read and
  // destroyed on another thread: on a GPU executor and on a pool of one.
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  auto cpu = engine::makeCpuExecutor();
  auto gpu = gpuBackend(*cpu);
  std::vector<std::unique_ptr<engine::Executor>> one;
  one.push_back(engine::makeGpuExecutor());
  auto pooled = engine::makeFallbackExecutor(engine::makeExecutorPool(std::move(one)), *cpu);
  auto orderer = engine::makeStatisticsOrderer();
  std::vector<engine::QueryOutcome> planned;  // their BGP leaves outlive the cursors
  for (const std::string& text : sf1Queries()) {
    planned.push_back(engine::runQuery(sparql::parseQuery(text), store, *cpu, *orderer, {}));
  }
  engine::BgpCall streaming;
  streaming.streamRows = true;
  for (engine::Executor* executor : {gpu.get(), pooled.get()}) {
    std::vector<engine::ExecutionProfile> profiles(planned.size());
    std::vector<std::unique_ptr<engine::RowCursor>> cursors;
    for (size_t q = 0; q < planned.size(); ++q) {
      const engine::BgpLeaf& leaf = *engine::firstBgpLeaf(*planned[q].plan);
      cursors.push_back(executor->open(leaf.plan(), leaf.bgp(), store, streaming, profiles[q]));
    }
    std::vector<engine::IdColumns> read(planned.size());
    std::thread reader([&] {
      for (size_t q = 0; q < cursors.size(); ++q) {
        read[q] = readToEnd(*cursors[q]);
        cursors[q].reset();
      }
    });
    reader.join();
    for (size_t q = 0; q < planned.size(); ++q) {
      CAPTURE(q);
      const engine::BgpLeaf& leaf = *engine::firstBgpLeaf(*planned[q].plan);
      engine::ExecutionProfile onCpu;
      CHECK(sortedIdRows(read[q]) == sortedIdRows(cpu->execute(leaf.plan(), leaf.bgp(), store, {}, onCpu)));
      CHECK(profiles[q].note.find("ran on the CPU executor") == std::string::npos);
    }
  }
}

TEST_CASE("the adjacency cache is reused across queries") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  Database db(dir.path());
  const std::string q = readText(dataFile("watdiv/sf1/queries/C3_01.rq"));  // 4,676 rows, no constants
  QueryResult first = db.query(q, {Backend::Gpu, Semantics::Homomorphism});
  QueryResult second = db.query(q, {Backend::Gpu, Semantics::Homomorphism});
  CHECK(first.explain().find("uploaded for this query: 0 bytes") == std::string::npos);
  CHECK(second.explain().find("uploaded for this query: 0 bytes") != std::string::npos);
  CHECK(first.rows() == second.rows());
}

TEST_CASE("a LIMIT far below a BGP's estimate runs depth-first on the CPU executor, small ones stay on the GPU") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  Database db(dir.path());
  const std::string path = "SELECT * WHERE { ?a ?p ?b . ?b ?q ?c . ?c ?r ?d }";  // tens of millions estimated
  const QueryResult limited = db.query(path + " LIMIT 5", {.backend = Backend::Gpu});
  CHECK(limited.rowCount() == 5);
  CHECK(limited.explain().find("ran on the CPU executor: its reader takes 5 row(s)") != std::string::npos);
  const std::string light = readText(dataFile("watdiv/sf1/queries/C3_01.rq"));
  const QueryResult whole = db.query(light, {.backend = Backend::Gpu});
  CHECK(whole.explain().find("ran on the CPU executor") == std::string::npos);
  CHECK(db.query("ASK { ?a ?p ?b . ?b ?q ?c . ?c ?r ?d }", {.backend = Backend::Gpu}).booleanValue());
}

TEST_CASE("a device too small for a query's adjacency or rows hands the BGP to the CPU executor, and answers the next") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  auto cpu = engine::makeCpuExecutor();
  const std::vector<std::string> queries = sf1Queries();
  // 4 KB holds not even a key bitset of SF1's vertices; 64 MB all of SF1's adjacency.
  for (uint64_t deviceBytes : {uint64_t{4} << 10, uint64_t{1} << 20, uint64_t{64} << 20}) {
    CAPTURE(deviceBytes);
    engine::GpuOptions options;
    options.simulatedDeviceBytes = deviceBytes;
    auto gpu = gpuBackend(*cpu, options);
    size_t onCpu = 0;
    for (const std::string& text : queries) {
      CAPTURE(text);
      for (const std::string& q : {text, countingQuery(text)}) {
        const std::string notes = compare(store, *gpu, *cpu, q, false);
        if (notes.find("ran on the CPU executor: the GPU has no ") != std::string::npos) ++onCpu;
      }
    }
    // Light BGPs fit even 4 KB, uploading the packed lists of their few keys; others do not.
    if (deviceBytes == uint64_t{4} << 10) CHECK(onCpu > 0);
    if (deviceBytes == uint64_t{64} << 20) CHECK(onCpu == 0);
    MESSAGE("device of " << deviceBytes << " bytes: " << onCpu << " of " << 2 * queries.size() << " BGPs on the CPU");
  }
}

TEST_CASE("after a BGP too large for the device went to the CPU executor, the next query runs on the GPU") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  auto cpu = engine::makeCpuExecutor();
  engine::GpuOptions options;
  options.simulatedDeviceBytes = uint64_t{1} << 20;  // SF1's adjacency of all predicates takes more
  auto gpu = gpuBackend(*cpu, options);
  const std::string light = readText(dataFile("watdiv/sf1/queries/C3_01.rq"));
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    const std::string large = compare(store, *gpu, *cpu, countingQuery("SELECT * WHERE { ?a ?p ?b . ?b ?q ?c }"), false);
    CHECK(large.find("ran on the CPU executor: the GPU has no ") != std::string::npos);
    CHECK(compare(store, *gpu, *cpu, light, false).find("ran on the CPU executor") == std::string::npos);
  }
}

TEST_CASE("adjacency larger than the GPU's cache streams in key ranges, with the rows and counts of the CPU executor") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  auto cpu = engine::makeCpuExecutor();
  // A 64 KB cache: SF1's larger predicates stream in ranges of up to 16 KB,
  // many per predicate; variants 0 to 2 in ranges only, never packed lists.
  std::vector<engine::GpuOptions> variants(4);
  for (engine::GpuOptions& o : variants) o.graphCacheBytes = 64 << 10;
  variants[1] = everyLayer();
  variants[1].graphCacheBytes = 64 << 10;
  variants[1].twoPassJoin = true;
  for (size_t v = 0; v < 3; ++v) variants[v].streamedKeysRead = 0;
  variants[2].stepCandidateBudget = 50;  // and slices of rows within each range's pass
  variants[3].graphCacheBytes = 0;
  variants[3].memoryBytes = 256 << 10;  // a 64 KB cache, and steps sliced to the memory left
  const std::regex streamed(R"((\d+) adjacency\(s\) streamed in key ranges of at most \d+ bytes: (\d+) range)");
  for (size_t v = 0; v < variants.size(); ++v) {
    CAPTURE(v);
    auto gpu = gpuBackend(*cpu, variants[v]);
    size_t streaming = 0, severalRanges = 0, packed = 0, compared = 0, sliced = 0;
    for (const std::string& text : sf1Queries()) {
      CAPTURE(text);
      const std::string distinct = text.find("?v0") != std::string::npos ? "v0" : "";
      for (const std::string& q : {text, countingQuery(text), countingQuery(text, distinct)}) {
        for (bool injective : {false, true}) {
          const std::string note = compare(store, *gpu, *cpu, q, injective);
          ++compared;
          sliced += note.find("depth-first over slices") != std::string::npos;
          std::smatch m;
          if (!std::regex_search(note, m, streamed)) continue;
          ++streaming;
          severalRanges += std::stoull(m[2].str()) > std::stoull(m[1].str());
          packed += note.find(" 0 packed list set(s)") == std::string::npos;
        }
      }
    }
    MESSAGE("variant " << v << ": " << streaming << " of " << compared << " BGPs streamed adjacency, " << severalRanges
                       << " in more ranges than adjacencies, " << packed << " with packed lists");
    CHECK(streaming > compared / 4);
    if (v < 3) CHECK(severalRanges > 0);  // steps pass over ranges
    CHECK((packed > 0) == (v == 3));      // or upload the lists of their few keys
    if (v == 2) CHECK(sliced > 0);  // slices of rows within a range's pass
  }
}

// Two GPUs (two shares of one GPU where there is one) as homes of at most
// `homeBytes` each, and their executors, each with a 64 KB cache, whose
// streamed adjacency comes from the homes (in ranges of 16 KB at most).
struct ReadingPeers {
  std::shared_ptr<engine::gpu::PeerRanges> peers;
  std::vector<std::unique_ptr<engine::Executor>> executors;
};
ReadingPeers readingPeers(engine::Executor& cpu, const std::vector<int>& gpus, uint64_t homeBytes,
                          uint32_t streamedKeysRead) {
  engine::GpuOptions o;
  o.memoryShares = gpus.front() == gpus.back() ? 2 : 1;
  o.graphCacheBytes = 64 << 10;
  o.streamedKeysRead = streamedKeysRead;
  ReadingPeers made{engine::makePeerRanges(gpus, homeBytes, o), {}};
  for (int gpu : gpus) {
    o.device = gpu;
    o.peers = made.peers;
    made.executors.push_back(gpuBackend(cpu, o));
  }
  return made;
}

TEST_CASE("adjacency larger than one GPU's cache is copied from the GPUs' homes, with the CPU executor's rows, and "
          "homes stay within their budget") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  auto cpu = engine::makeCpuExecutor();
  const std::vector<int> gpus{0, 1 % engine::gpuCount()};
  const bool twoGpus = gpus[0] != gpus[1];
  const std::regex read(
      R"((\d+) adjacency\(s\) read from the GPUs' homes \(peer_ranges.cuh\): (\d+) range\(s\) of \d+ bytes copied from their homes, (\d+) from another GPU)");
  // Homes of 4 MB take any query's streamed adjacency; of 192 KB, some
  // queries' only (the others stream from the host as before).
  for (const auto& [homeBytes, keysRead] : {std::pair<uint64_t, uint32_t>{4 << 20, 0}, {4 << 20, 1u << 16}, {192 << 10, 0}}) {
    CAPTURE(homeBytes);
    CAPTURE(keysRead);
    ReadingPeers reading = readingPeers(*cpu, gpus, homeBytes, keysRead);
    REQUIRE(reading.peers != nullptr);
    size_t compared = 0, fromHomes = 0, severalRanges = 0, fromAnotherGpu = 0, fromHost = 0;
    for (const std::string& text : sf1Queries()) {
      CAPTURE(text);
      for (const std::string& q : {text, countingQuery(text)}) {
        engine::Executor& gpu = *reading.executors[compared++ % reading.executors.size()];
        const std::string note = compare(store, gpu, *cpu, q, false);
        fromHost += note.find("streamed in key ranges") != std::string::npos;
        std::smatch m;
        if (!std::regex_search(note, m, read)) continue;
        ++fromHomes;
        severalRanges += std::stoull(m[2].str()) > std::stoull(m[1].str());
        fromAnotherGpu += std::stoull(m[3].str()) > 0;
      }
    }
    MESSAGE(fromHomes << " of " << compared << " BGPs read the homes (" << fromAnotherGpu
                      << " copied ranges from another GPU), " << fromHost << " streamed from the host");
    CHECK(fromHomes > compared / 4);
    if (keysRead == 0) {
      CHECK(severalRanges > 0);
      CHECK((fromAnotherGpu > 0) == twoGpus);  // both GPUs hold homes, and each copies the other's
    }
    if (homeBytes > (1u << 20)) CHECK(fromHost == 0);
    const uint64_t held = engine::peerBytesOnGpu(*reading.peers, gpus[0]) +
                          (twoGpus ? engine::peerBytesOnGpu(*reading.peers, gpus[1]) : 0);
    CHECK(held <= 2 * homeBytes);
  }
}

// Each WatDiv SF1 query's rows on the CPU executor, sorted.
std::vector<std::vector<std::vector<uint64_t>>> cpuRowsOf(const GraphStore& store, const std::vector<std::string>& queries,
                                                          engine::Executor& cpu) {
  std::vector<std::vector<std::vector<uint64_t>>> rows;
  auto orderer = engine::makeStatisticsOrderer();
  for (const std::string& q : queries) {
    rows.push_back(sortedRows(engine::runQuery(sparql::parseQuery(q), store, cpu, *orderer, {}).rows));
  }
  return rows;
}

TEST_CASE("queries on several threads upload and copy the homes' ranges at once, each with the CPU executor's rows") {
  // peer_ranges.cuh: an upload copies without the set's lock; one needing
  // the same range waits for it, others go on.
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  const GraphStore store(dir.path());
  const std::vector<std::string> queries = sf1Queries();
  auto cpu = engine::makeCpuExecutor();
  const auto expected = cpuRowsOf(store, queries, *cpu);
  // Four executors (two a GPU where there are two), each on its own thread,
  // sharing homes of 4 MB: every thread's first queries upload at once.
  const int second = 1 % engine::gpuCount();
  ReadingPeers reading = readingPeers(*cpu, {0, second, 0, second}, 4 << 20, 0);
  std::atomic<int> mismatches{0}, fromHomes{0};
  std::vector<std::thread> threads;
  for (size_t t = 0; t < reading.executors.size(); ++t) {
    threads.emplace_back([&, t] {
      auto threadOrderer = engine::makeStatisticsOrderer();
      for (size_t i = 0; i < queries.size(); ++i) {
        const size_t q = (i + t * 37) % queries.size();
        const engine::QueryOutcome out =
            engine::runQuery(sparql::parseQuery(queries[q]), store, *reading.executors[t], *threadOrderer, {});
        if (sortedRows(out.rows) != expected[q]) ++mismatches;
        fromHomes += engine::executorNotes(*out.plan).find("read from the GPUs' homes") != std::string::npos;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(mismatches == 0);
  CHECK(fromHomes > static_cast<int>(queries.size()));
  CHECK(engine::peerBytesOnGpu(*reading.peers, 0) + (second != 0 ? engine::peerBytesOnGpu(*reading.peers, second) : 0) <=
        4 * (uint64_t{4} << 20));
}

TEST_CASE("the homes evict the range least recently used when full, and a query reading it again uploads it again") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  // Three predicates of 10,000 edges: 120 KB of ranges (plain CSR) a direction each.
  {
    std::ofstream nt(dir / "three.nt");
    for (const char* p : {"p", "q", "r"}) {
      for (int i = 0; i < 10000; ++i) nt << "<http://e/s" << i << "> <http://e/" << p << "> <http://e/o" << (i * 7919) % 10000 << "> .\n";
    }
  }
  Database::load(dir / "db", {(dir / "three.nt").string()});
  GraphStore store(dir / "db");
  auto cpu = engine::makeCpuExecutor();
  // Homes of 160 KB each take one query's ranges (one direction or both:
  // 240 KB, with a range of 16 KB more for each) but not three queries' (at
  // least 360 KB).
  const std::vector<int> gpus{0, 1 % engine::gpuCount()};
  ReadingPeers reading = readingPeers(*cpu, gpus, 160 << 10, 1u << 16);
  const std::regex uploaded(R"(read from the GPUs' homes.* (\d+) range\(s\) of (\d+) bytes uploaded to their homes)");
  std::vector<uint64_t> uploads;
  for (const char* p : {"p", "q", "r", "p"}) {
    CAPTURE(p);
    const std::string edge = std::string("<http://e/") + p + ">";
    const std::string query = "SELECT * WHERE { ?s " + edge + " ?o . ?t " + edge + " ?o }";
    const std::string note = compare(store, *reading.executors[uploads.size() % 2], *cpu, query, false);
    std::smatch m;
    REQUIRE(std::regex_search(note, m, uploaded));
    uploads.push_back(std::stoull(m[2].str()));
  }
  CHECK(uploads[0] > 0);
  CHECK(uploads[3] > 0);  // p's ranges went to make room for r's
  const uint64_t held = engine::peerBytesOnGpu(*reading.peers, gpus[0]) +
                        (gpus[0] != gpus[1] ? engine::peerBytesOnGpu(*reading.peers, gpus[1]) : 0);
  CHECK(held <= 2 * (160 << 10));
}

TEST_CASE("what the GPU executor says it would copy for a plan is what running it copies, and nothing after") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  auto orderer = engine::makeStatisticsOrderer();
  auto planner = engine::makeCpuExecutor();
  size_t copying = 0;
  for (const std::string& text : sf1Queries()) {
    CAPTURE(text);
    const engine::QueryOutcome outcome = engine::runQuery(sparql::parseQuery(text), store, *planner, *orderer, {});
    const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome.plan);
    REQUIRE(leaf != nullptr);
    auto gpu = gpuBackend(*planner);  // holds nothing yet
    const uint64_t before = gpu->bytesToCopy(leaf->plan(), leaf->bgp(), store);
    engine::ExecutionProfile profile;
    const engine::IdColumns rows = gpu->execute(leaf->plan(), leaf->bgp(), store, {}, profile);
    CHECK(rows.rows() == outcome.rows.rows);
    CHECK(profile.copiedBytes == before);
    CHECK(gpu->bytesToCopy(leaf->plan(), leaf->bgp(), store) == 0);
    copying += before > 0;
  }
  CHECK(copying > 10);
}

TEST_CASE("a GPU executor that preloaded the store copies nothing for any query, and answers as the CPU executor") {
  if (skipWithoutGpu()) return;
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  auto orderer = engine::makeStatisticsOrderer();
  auto cpu = engine::makeCpuExecutor();
  auto gpu = gpuBackend(*cpu);
  gpu->preload(store);
  for (const std::string& text : sf1Queries()) {
    CAPTURE(text);
    const engine::QueryOutcome outcome = engine::runQuery(sparql::parseQuery(text), store, *cpu, *orderer, {});
    const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome.plan);
    REQUIRE(leaf != nullptr);
    CHECK(gpu->bytesToCopy(leaf->plan(), leaf->bgp(), store) == 0);
    engine::ExecutionProfile profile;
    CHECK(gpu->execute(leaf->plan(), leaf->bgp(), store, {}, profile).rows() == outcome.rows.rows);
    CHECK(profile.copiedBytes == 0);
  }
  // Through the API: --gpu-preload, the same answers on a GPU holding everything from the start.
  DatabaseOptions preloading;
  preloading.gpuPreload = true;
  Database db(dir.path(), preloading);
  Database plain(dir.path());
  for (const std::string& text : sf1Queries()) {
    CAPTURE(text);
    CHECK(db.query(text, {Backend::Gpu}).rowCount() == plain.query(text, {Backend::Cpu}).rowCount());
  }
}
