// The cost model's file (gsparql/cost_model.h) and calibration's loop
// (api/calibration.h) with a stand-in for the database that times queries.
#include <doctest/doctest.h>

#include <cstdlib>
#include <set>

#include "api/calibration.h"
#include "gsparql/cost_model.h"
#include "gsparql/database.h"
#include "gsparql/error.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

std::string errorOf(const std::filesystem::path& file) {
  try {
    readCostModel(file);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const char* kComplete =
    "cpu.bgp 1\ncpu.step 2\ncpu.candidate 0.5\ncpu.row 0.25\ngpu.bgp 10\ngpu.step 20\ngpu.candidate 0\ngpu.row 1e-3\n";

}  // namespace

TEST_CASE("a cost model written is read back as it was, and defaults exist for machines never calibrated") {
  TempDir dir;
  CostModel model;
  model.cpu = {.perBgp = 1.5, .perStep = 2.25, .perCandidate = 0.001, .perRow = 0.125};
  model.gpu = {.perBgp = 80, .perStep = 17, .perCandidate = 0, .perRow = 0.0004, .perCopiedMegabyte = 250};
  model.measuredOn = "host, 16 threads, GPU measured";
  writeCostModel(dir / "nested" / "cost-model", model);
  const CostModel read = readCostModel(dir / "nested" / "cost-model");
  CHECK(read.cpu == model.cpu);
  CHECK(read.gpu == model.gpu);
  CHECK(read.measuredOn.find("host, 16 threads, GPU measured") == 0);
  CHECK_FALSE(std::filesystem::exists(dir / "nested" / "cost-model.tmp"));
  const CostModel defaults = defaultCostModel();
  CHECK(defaults.measuredOn == "defaults");
  CHECK(defaults.gpu.perBgp > defaults.cpu.perBgp);  // the GPU's launches and copies
  CHECK(defaults.gpu.perRow < defaults.cpu.perRow);
  CHECK(defaults.gpu.perCopiedMegabyte > 0);
  CHECK(defaults.cpu.perCopiedMegabyte == 0);
}

TEST_CASE("a cost model written before the price of copies existed reads with the default's") {
  TempDir dir;
  writeFile(dir / "model", kComplete);
  const CostModel read = readCostModel(dir / "model");
  CHECK(read.gpu.perStep == 20);
  CHECK(read.gpu.perCopiedMegabyte == defaultCostModel().gpu.perCopiedMegabyte);
  writeFile(dir / "model", std::string(kComplete) + "gpu.copied_mb 300\n");
  CHECK(readCostModel(dir / "model").gpu.perCopiedMegabyte == 300);
  writeFile(dir / "model", std::string(kComplete) + "gpu.copied_mb -3\n");
  CHECK(errorOf(dir / "model").find(":9: `gpu.copied_mb` needs a non-negative number") != std::string::npos);
  writeFile(dir / "model", "gpu.copied_mb 300\n");  // not instead of the others
  CHECK(errorOf(dir / "model").find("lacks constants") != std::string::npos);
}

TEST_CASE("the cached model lives under XDG_CACHE_HOME, is used when present and refused when broken") {
  TempDir dir;
  const char* previous = std::getenv("XDG_CACHE_HOME");
  const std::string saved = previous ? previous : "";
  setenv("XDG_CACHE_HOME", dir.path().c_str(), 1);
  CHECK(cachedCostModelPath() == dir / "gsparql" / "cost-model");
  CHECK(cachedOrDefaultCostModel() == defaultCostModel());
  std::filesystem::create_directories(dir / "gsparql");
  writeFile(dir / "gsparql" / "cost-model", kComplete);
  CHECK(cachedOrDefaultCostModel().gpu.perStep == 20);
  writeFile(dir / "gsparql" / "cost-model", "cpu.bgp x\n");
  CHECK_THROWS_AS(cachedOrDefaultCostModel(), Error);
  // A database opens, and answers what needs no model; a query the model
  // plans (the sampling optimizer's search, the cost optimizer) fails with
  // the file's error.
  writeFile(dir / "g.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
  Database::load(dir / "db", {(dir / "g.nt").string()});
  const Database db(dir / "db");
  CHECK(db.statistics().triples == 1);
  QueryOptions statistics{Backend::Cpu};
  statistics.optimizer = Optimizer::Statistics;
  CHECK(db.query("SELECT * { ?s ?p ?o }", statistics).rowCount() == 1);
  for (const Optimizer optimizer : {Optimizer::Sampling, Optimizer::Cost}) {
    QueryOptions planned{Backend::Cpu};
    planned.optimizer = optimizer;
    CHECK_THROWS_WITH_AS(db.query("SELECT * { ?s ?p ?o }", planned), doctest::Contains("cost-model:1:"), Error);
  }
  if (previous) setenv("XDG_CACHE_HOME", saved.c_str(), 1); else unsetenv("XDG_CACHE_HOME");
}

TEST_CASE("a bad cost model file is an error naming the file, the line and what is wrong") {
  TempDir dir;
  const auto file = dir / "model";
  writeFile(file, std::string(kComplete) + "gpu.launch 3\n");
  CHECK(errorOf(file).find(file.string() + ":9: unknown constant `gpu.launch`") == 0);
  for (const char* bad : {"cpu.bgp -1\n", "cpu.bgp\n", "cpu.bgp 1x\n", "cpu.bgp nan\n", "cpu.bgp inf\n", "cpu.bgp  1\n"}) {
    CAPTURE(bad);
    writeFile(file, std::string("# comment\n") + bad);
    CHECK(errorOf(file).find(file.string() + ":2: `cpu.bgp` needs a non-negative number") == 0);
  }
  writeFile(file, "cpu.bgp 1\n");
  CHECK(errorOf(file).find("lacks constants") != std::string::npos);
  writeFile(file, "");
  CHECK(errorOf(file).find("lacks constants") != std::string::npos);
  CHECK(errorOf(dir / "missing").find("cannot read the cost model") != std::string::npos);
  writeFile(file, std::string(1000, '\0'));
  CHECK_FALSE(errorOf(file).empty());
}

TEST_CASE("calibration fits each executor's constants to the fastest of its runs and leaves out queries that fail") {
  const ExecutorCosts cpu{.perBgp = 5, .perStep = 2, .perCandidate = 0.01, .perRow = 0.1};
  const ExecutorCosts gpu{.perBgp = 80, .perStep = 15, .perCandidate = 0.0001, .perRow = 0.001};
  // Query i: one BGP of i+1 steps, making 1000 i^2 rows from 500 i^3 candidates.
  std::vector<std::string> queries;
  for (int i = 0; i < 12; ++i) queries.push_back(std::to_string(i));
  queries.push_back("fails");
  int runs = 0;
  const MeasureQuery measure = [&](const std::string& query, Backend backend) {
    if (query == "fails") throw QueryError("no such thing");
    const double i = std::stod(query);
    const engine::PlanWork work{1, i + 1, 500 * i * i * i, 1000 * i * i};
    const double us = work.cost(backend == Backend::Gpu ? gpu : cpu);
    // Every other run is slower (noise): only the fastest counts.
    return Measurement{work, us / 1000 * (++runs % 2 ? 1.5 : 1.0)};
  };
  const Calibration c = calibrateWith(queries, {.repeat = 3}, defaultCostModel(), true, measure);
  CHECK(c.samples == 12);
  CHECK(c.skipped == 1);
  CHECK(c.gpuMeasured);
  CHECK(c.model.cpu.perRow == doctest::Approx(cpu.perRow).epsilon(1e-6));
  CHECK(c.model.gpu.perBgp == doctest::Approx(gpu.perBgp).epsilon(1e-6));
  CHECK(c.model.gpu.perStep == doctest::Approx(gpu.perStep).epsilon(1e-6));
  CHECK(c.cpuMedianError < 1e-6);
  CHECK(c.model.measuredOn.find("GPU measured") != std::string::npos);

  const Calibration cpuOnly = calibrateWith(queries, {.repeat = 1}, defaultCostModel(), false, measure);
  CHECK_FALSE(cpuOnly.gpuMeasured);
  CHECK(cpuOnly.model.gpu == defaultCostModel().gpu);
  CHECK(cpuOnly.model.measuredOn.find("no GPU") != std::string::npos);
  CHECK_THROWS_AS(calibrateWith({"fails"}, {}, defaultCostModel(), false, measure), Error);
}

TEST_CASE("calibration prices the GPU's copies by what its warm-up run took beyond its fastest") {
  // Query i's first GPU run copies (i+1) MB at 300 us per MB; later runs copy nothing.
  const ExecutorCosts costs{.perBgp = 5, .perStep = 2, .perCandidate = 0.01, .perRow = 0.1};
  std::vector<std::string> queries;
  for (int i = 0; i < 6; ++i) queries.push_back(std::to_string(i));
  std::set<std::string> copied;
  const MeasureQuery measure = [&](const std::string& query, Backend backend) {
    const double i = std::stod(query);
    const engine::PlanWork work{1, i + 1, 500 * i * i * i, 1000 * i * i};
    Measurement m{work, work.cost(costs) / 1000};
    if (backend == Backend::Gpu && copied.insert(query).second) {
      m.copiedBytes = static_cast<uint64_t>((i + 1) * 1e6);
      m.milliseconds += (i + 1) * 0.3;
    }
    return m;
  };
  const Calibration c = calibrateWith(queries, {.repeat = 2}, defaultCostModel(), true, measure);
  CHECK(c.model.gpu.perCopiedMegabyte == doctest::Approx(300));
  CHECK(c.model.gpu.perStep == doctest::Approx(costs.perStep));  // fitted to the fastest runs, which copy nothing
  CHECK(c.model.cpu.perCopiedMegabyte == 0);
  // A device that already holds everything keeps the previous price.
  CostModel previous = defaultCostModel();
  previous.gpu.perCopiedMegabyte = 123;
  CHECK(calibrateWith(queries, {.repeat = 2}, previous, true, measure).model.gpu.perCopiedMegabyte == 123);
}
